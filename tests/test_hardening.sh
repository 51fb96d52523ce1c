#!/bin/sh
# The hardened build (issue 11, defect 7): the binary is a PIE with full RELRO
# (BIND_NOW), stack canaries, fortified libc calls and a non-executable stack;
# and a packager's CPPFLAGS reach the compiler.
set -u
P=${PIROGUE:-./pirogue}
command -v readelf >/dev/null || { echo "SKIP: readelf (binutils) is not installed"; exit 77; }
fail=0
no() { echo "FAIL: $P: $*"; fail=1; }
hdr=$(readelf -h "$P") || { echo "FAIL: $P is not an ELF file"; exit 1; }
phdr=$(readelf -lW "$P")
dyn=$(readelf -dW "$P")
syms=$(readelf --dyn-syms -W "$P")
printf '%s\n' "$hdr" | grep -q 'Type:[[:space:]]*DYN' || no "not position-independent (ELF type is not DYN)"
printf '%s\n' "$dyn" | grep -q 'FLAGS_1.*PIE' || no "not a PIE (no PIE in DT_FLAGS_1)"
printf '%s\n' "$phdr" | grep -q 'GNU_RELRO' || no "no RELRO segment"
printf '%s\n' "$dyn" | grep -Eq 'BIND_NOW|FLAGS.*[[:space:]]NOW' || no "partial RELRO only (no BIND_NOW: link with -Wl,-z,now)"
printf '%s\n' "$phdr" | grep 'GNU_STACK' | grep -q 'RWE' && no "executable stack (NX off)"
printf '%s\n' "$phdr" | grep -q 'GNU_STACK' || no "no GNU_STACK header (the stack would be executable)"
printf '%s\n' "$syms" | grep -q '__stack_chk_fail' || no "no stack protector (no __stack_chk_fail)"
printf '%s\n' "$syms" | grep -Eq '__[a-z]+_chk(@|[[:space:]]|$)' || no "no fortified calls (no __*_chk: build with -D_FORTIFY_SOURCE=2 and -O1 or more)"
# CPPFLAGS are honoured: a define given there reaches the compiler
if command -v make >/dev/null && [ -f Makefile ]; then
	# (a calling make, as in make asan, must not pass its O= and flags down)
	out=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES make -n -B O=. CPPFLAGS=-DPIROGUE_CPPFLAGS_PROBE build/src/core/rng.o 2>&1)
	printf '%s\n' "$out" | grep -q -- '-DPIROGUE_CPPFLAGS_PROBE' || no "make ignores CPPFLAGS"
fi
[ "$fail" -eq 0 ] && echo "hardened: PIE, full RELRO, NX stack, stack protector, fortified calls"
exit $fail
