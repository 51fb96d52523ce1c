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
# Reports one failure ("FAIL: what") and marks the check failed.
say() { echo "FAIL: $*"; fail=1; }
