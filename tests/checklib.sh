# Sourced first by the shell checks (tests/test_*.sh; tests/tmuxlib.sh does
# it for the tmux ones): what they all set up. Unset variables are errors.
# P: the game (make test passes $PIROGUE), B: the build directory ($BUILD),
# tmp: a fresh directory, removed when the check exits, fail: 0 until say().
set -u
P=${PIROGUE:-./pirogue}
B=${BUILD:-build}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
# W: how many times its nominal budget (in tenths of a second) a wait for a
# condition may take before the check fails. A wait returns as soon as its
# condition holds, so the budget only ends a hang; on a loaded machine an
# fsync or the scheduler can stall a game for many seconds (a 10 s wait for
# a played key was seen to run out). PIROGUE_TEST_WAIT sets it.
W=${PIROGUE_TEST_WAIT:-6}
# Reports one failure ("FAIL: what") and marks the check failed.
say() { echo "FAIL: $*"; fail=1; }
# deb_of_tree ARCH: prints $B/deb/pirogue_VERSION_ARCH.deb when make deb made
# it from this tree as it is (a git checkout, and no file git knows is newer,
# tools/newer-than:
# CI's make deb leaves them there before make test); fails otherwise.
deb_of_tree() {
	_deb=$B/deb/pirogue_$(cat VERSION)_$1.deb
	[ -f "$_deb" ] && _newer=$(tools/newer-than "$_deb") && [ -z "$_newer" ] && echo "$_deb"
}
