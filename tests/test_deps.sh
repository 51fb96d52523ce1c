#!/bin/sh
# tools/deps, the one installer of pirogue's three package sets:
# - apt-get update really waits for the package lists' lock: a process
#   holding it with fcntl (as apt-get does) against a scratch apt
#   configuration (APT_CONFIG: no root needed, no real list touched) is
#   waited for, said once with the lock's path and its holder, and the
#   update goes on when it lets go; held too long, one line says who holds
#   it; held by nobody, not a word of waiting.
# - every package a test names when it skips for a missing one is in the
#   test (or build) set, so make test on a fresh machine installs it
#   (the VM rig's QEMU excepted: make vm-test installs that).
# - ./run and make deps install the build set only (not the benchmarks');
#   make test the test set; make bench the bench set; make deps-all all.
# make asan: not rerun: tools/deps against stand-in package tools: no built code
. tests/checklib.sh

# --- the lists lock ---
command -v apt-get >/dev/null 2>&1 || { echo "SKIP: apt-get is not installed (not a Debian system)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed (apt-get install python3; make test installs it)"; exit 77; }
a=$tmp/apt
mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/parts"
: >"$a/sources.list"
cat >"$a/apt.conf" <<EOF
Dir::State::Lists "$a/lists/";
Dir::Cache "$a/cache/";
Dir::Etc::SourceList "$a/sources.list";
Dir::Etc::SourceParts "$a/parts/";
EOF
APT_CONFIG=$a/apt.conf
export APT_CONFIG
lock=$a/lists/lock

# nothing holds it: updated at once, no word of waiting
out=$(tools/deps --update --wait 30 2>&1) || say "apt-get update with nothing holding the lock failed: $out"
case $out in *waiting*) say "it says it waits when nothing holds the lock: $out" ;; esac

# hold LOCK: a python3 holding an fcntl write lock on it (what apt-get
# takes) until its standard input closes; "held" on its standard output
# once it has it
hold() {
	exec python3 -c '
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o640)
fcntl.lockf(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
' "$1"
}
mkfifo "$tmp/ctl" "$tmp/held" "$tmp/said"

# held, then let go once it has said it waits: it goes on and succeeds
# (fd 4 keeps the holder's standard input open: no one else may have it)
hold "$lock" <"$tmp/ctl" >"$tmp/held" &
holder=$!
exec 4>"$tmp/ctl"
read -r h <"$tmp/held"
[ "$h" = held ] || say "the lock holder did not start: $h"
tools/deps --update --wait 120 >"$tmp/said" 2>&1 4>&- &
deps=$!
exec 5<"$tmp/said"
: >"$tmp/log"
while read -r l <&5; do
	echo "$l" >>"$tmp/log"
	case $l in *waiting*) break ;; esac
done
exec 4>&- # the holder lets go
wait $holder
cat <&5 >>"$tmp/log"
exec 5<&-
rc=0
wait $deps || rc=$?
[ $rc = 0 ] || say "the update failed after the lock was let go (exit $rc): $(cat "$tmp/log")"
n=$(grep -c waiting "$tmp/log")
[ "$n" = 1 ] || say "it said it waits $n times, not once: $(cat "$tmp/log")"
grep -q "waiting for process $holder (python3) to release $lock" "$tmp/log" ||
	say "the waiting line does not name the lock and its holder (process $holder): $(cat "$tmp/log")"
grep -q '^pirogue: waiting' "$tmp/log" || say "the waiting line is not one pirogue: line: $(cat "$tmp/log")"

# held for longer than APT_WAIT: gives up with one line naming lock and holder
hold "$lock" <"$tmp/ctl" >"$tmp/held" &
holder=$!
exec 4>"$tmp/ctl"
read -r h <"$tmp/held"
rc=0
out=$(APT_WAIT=1 tools/deps --update 2>&1 4>&-) || rc=$?
exec 4>&-
wait $holder
[ $rc = 1 ] || say "a lock held past APT_WAIT: exit $rc, not 1: $out"
printf '%s\n' "$out" | grep -q "^pirogue: $lock is still held by process $holder (python3) after 1 s" ||
	say "a lock held past APT_WAIT is not said in one line naming it and its holder: $out"
[ "$(printf '%s\n' "$out" | grep -c waiting)" -le 1 ] || say "it said it waits more than once: $out"
unset APT_CONFIG

# --- the sets ---
sets=$(tools/deps --list build test) || say "tools/deps --list build test failed"
for p in $(grep -ohE '(SKIP|skip)[^"]*apt-get install [a-z0-9.+ -]*' tests/*.sh tests/*.c tests/*.h |
	sed 's/.*apt-get install //' | tr ' ' '\n' | sort -u); do
	case $p in qemu-system-*) continue ;; esac # the VM rig: make vm-test installs QEMU
	[ "$(dpkg-query -W -f='${Essential}' "$p" 2>/dev/null)" = yes ] && continue
	printf '%s\n' "$sets" | grep -qx "$p" || say "a test skips without $p, which make test does not install (add it to the test set in tools/deps)"
done
bench=$(tools/deps --list bench)
build=$(tools/deps --list build)
for p in $bench; do
	printf '%s\n' "$build" | grep -qx "$p" && say "the build set (./run, make deps) has the benchmarks' $p"
done
# the Makefile installs each set for the command that needs it
mk() { make -n --no-print-directory "$@" 2>/dev/null; }
mk deps | grep -q 'tools/deps --wait 300 build$' || say "make deps does not install the build set alone: $(mk deps)"
mk check-deps | grep -q 'tools/deps --wait 300 build$' || say "make's build check is not tools/deps build: $(mk check-deps)"
mk check-test-deps | grep -q 'tools/deps --wait 300 build test$' || say "make test does not install the test set: $(mk check-test-deps)"
mk check-bench-deps | grep -q 'tools/deps --wait 300 build bench$' || say "make bench does not install the bench set: $(mk check-bench-deps)"
mk deps-all APT_WAIT=7 | grep -q 'tools/deps --wait 7 all$' || say "make deps-all does not install every set with APT_WAIT: $(mk deps-all APT_WAIT=7)"
mk -p test 2>/dev/null | grep -q '^test: .*check-test-deps' || say "make test does not depend on check-test-deps"
# a wrong set or wait is one line
out=$(tools/deps --list nope 2>&1) && say "an unknown set is accepted"
[ "$out" = "pirogue: tools/deps: no package set 'nope' (build, test, bench, all)" ] || say "an unknown set: $out"
out=$(APT_WAIT=soon tools/deps --list build 2>&1) && say "APT_WAIT=soon is accepted"
case $out in "pirogue: APT_WAIT (or --wait) is 'soon'; give a whole number of seconds"*) ;; *) say "APT_WAIT=soon: $out" ;; esac
exit $fail
