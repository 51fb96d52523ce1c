#!/bin/sh
# ./run, the README's commands on a machine that may not have make yet:
# - with nothing installed (a scratch dpkg database, DPKG_ADMINDIR) and no
#   make on PATH, ./run and ./run test go to tools/deps first and name
#   what they would install (the build set; the build and test sets), in
#   one line when it cannot (not root, no sudo): never "make: not found"
# - ./run test runs make test with the arguments given, nothing said
#   before it when nothing is missing
# - a second ./run says nothing but the game's own output (no "make:
#   Nothing to be done for 'all'", no word about package locks)
# - .ci/run calls exactly the README's test command
# (tests/test_deps.sh checks the lock waiting and the sets themselves.)
# make asan: not rerun: ./run and the tree's own build, never the sanitized one
. tests/checklib.sh
mkdir "$tmp/bin"
for t in sh dirname cat env dpkg dpkg-query grep sed tr nproc basename; do
	p=$(command -v "$t") && ln -s "$p" "$tmp/bin/$t"
done
# not root: id -u says 1000 (and there is no sudo on this PATH); a file of
# its own, never written through a link to the real one
realid=$(command -v id)
printf '#!/bin/sh\n[ "$1" = -u ] && { echo 1000; exit 0; }\nexec %s "$@"\n' "$realid" >"$tmp/bin/id"
chmod +x "$tmp/bin/id"
mkdir "$tmp/admin"
: >"$tmp/admin/status"
for cmd in "" test; do
	rc=0
	out=$(PATH="$tmp/bin" DPKG_ADMINDIR="$tmp/admin" sh ./run $cmd 2>&1) || rc=$?
	[ $rc != 0 ] || say "./run $cmd with nothing installed and no way to install succeeded: $out"
	case $out in *"make: not found"* | *"make: command not found"*) say "./run $cmd needs make before it installs it: $out" ;; esac
	[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || say "./run $cmd says more than one line: $out"
	case $out in "pirogue: missing Debian packages: build-essential pkg-config "*"installing them needs root: run this as root, or install sudo") ;;
	*) say "./run $cmd does not name the build set and what to do: $out" ;; esac
	case "$cmd:$out" in test:*" libcmocka-dev tmux python3 "*) ;; test:*) say "./run test does not name the test set: $out" ;; esac
	case "$cmd:$out" in :*libcmocka-dev*) say "./run (to play) would install the test set: $out" ;; esac
	case $out in *libtcod*) say "./run $cmd would install the benchmarks' libtcod: $out" ;; esac
done

# ./run test VAR=...: make test with them (a make on PATH that records
# its arguments), after tools/deps found nothing missing
missing=$(tools/deps --missing build test)
if [ -n "$missing" ]; then
	echo "SKIP ./run test's make: this machine lacks$(echo $missing) (make test installs them)"
else
	printf '#!/bin/sh\necho "make $*" >"%s/make.log"\n' "$tmp" >"$tmp/bin/make"
	chmod +x "$tmp/bin/make"
	out=$(PATH="$tmp/bin" sh ./run test PIROGUE_VM=0 2>&1) || say "./run test failed: $out"
	[ -z "$out" ] || say "./run test said something before make test: $out"
	grep -q "^make --no-print-directory -j[0-9]* test PIROGUE_VM=0$" "$tmp/make.log" 2>/dev/null ||
		say "./run test does not run make test with its arguments: $(cat "$tmp/make.log" 2>/dev/null)"
fi

# a second ./run: the game's output only. Only where the tree's own build
# is up to date (make test's; an O= build such as make asan has its own)
if [ -n "$(tools/deps --missing build)" ]; then
	echo "SKIP ./run's second run: the build set is not installed here"
elif ! make -q --no-print-directory ./pirogue 2>/dev/null; then
	echo "SKIP ./run's second run: the tree's own build is not up to date (an O= build is being tested)"
else
	# as typed at a shell: not inside make test's make
	out=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ./run --version 2>&1) || say "./run --version failed: $out"
	[ "$out" = "$(./pirogue --version)" ] || say "a second ./run says more than the game: $out"
fi

# .ci/run runs the README's test command, exactly
readme=$(sed -n '/^## The two commands/,/^## /p' README.md | sed -n '/^```sh$/,/^```$/p' | grep -v '^```' |
	sed 's/ *#.*//' | grep ' test' | head -n 1)
[ -n "$readme" ] || say "no test command in the README's two commands"
grep -qx "$readme" .ci/run || say ".ci/run does not call the README's test command '$readme' as it stands"
exit $fail
