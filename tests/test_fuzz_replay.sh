#!/bin/sh
# Every fuzz target (tests/fuzz/fuzz_*.c) replays its seeds, the real files
# of the tree it parses and the crashes kept in tests/fuzz/regress/, without
# libFuzzer (under ASan and UBSan in make asan). A kept crash that crashes
# again fails here.
. tests/checklib.sh
n=0
for src in tests/fuzz/fuzz_*.c; do
	t=$(basename "$src" .c)
	t=${t#fuzz_}
	bin="$B/fuzz-replay/$t"
	[ -x "$bin" ] || { echo "FAIL: $bin is not built (make test builds it)"; fail=1; continue; }
	# shellcheck disable=SC2046
	out=$("$bin" $(tools/fuzz seeds "$t") 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "FAIL: fuzz target $t on its seeds and kept crashes (exit $rc):"
		printf '%s\n' "$out" | tail -n 20
		fail=1
	else
		echo "fuzz $t: $(printf '%s\n' "$out" | tail -n 1)"
	fi
	n=$((n + 1))
done
[ "$n" -ge 8 ] || { echo "FAIL: expected at least 8 fuzz targets, found $n"; fail=1; }
exit $fail
