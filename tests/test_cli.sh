#!/bin/sh
# The command line: --help, --version, and one clear line + exit 2 for every
# unknown option or bad value.
set -u
P=${PIROGUE:-./pirogue}
fail=0
check_usage() { # expected-exit-code grep-pattern args...
	want=$1; pat=$2; shift 2
	err=$("$P" "$@" 2>&1 >/dev/null); rc=$?
	lines=$(printf '%s\n' "$err" | grep -c .)
	if [ "$rc" -ne "$want" ] || ! printf '%s' "$err" | grep -q -- "$pat" || [ "$lines" -ne 1 ]; then
		echo "FAIL: pirogue $*: exit $rc (want $want), stderr: $err"
		fail=1
	fi
}
"$P" --help | grep -q -- '--backend' || { echo "FAIL: --help does not list --backend"; fail=1; }
for opt in --seed --mapgen --record --replay --keys --font --scale --rotate --size --screenshot \
	--card --connector --mode --fb --vt --list-displays --list-inputs --gamepad-db; do
	"$P" --help | grep -q -- "$opt" || { echo "FAIL: --help does not list $opt"; fail=1; }
done
"$P" --version | grep -q '^pirogue [0-9]' || { echo "FAIL: --version"; fail=1; }
check_usage 2 "unknown option '--frobnicate'" --frobnicate
check_usage 2 "unexpected argument 'extra'" extra
check_usage 2 "'--scale'" --scale
check_usage 2 "invalid value '9' for --scale" --scale 9
check_usage 2 "invalid value 'x' for --scale" --scale x
check_usage 2 "invalid value '45' for --rotate" --rotate 45
check_usage 2 "invalid value '640' for --size" --size 640
check_usage 2 "invalid value 'sdl' for --backend" --backend sdl
check_usage 2 "invalid value '-3' for --seed" --seed -3
check_usage 2 "invalid value 'maze' for --mapgen" --mapgen maze
check_usage 2 "invalid value '0' for --vt" --vt 0
check_usage 2 "invalid value '1280x' for --mode" --mode 1280x
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'up\nfrobnicate\n' > "$tmp/bad.keys"
check_usage 2 "bad.keys:2: unknown key 'frobnicate'" --backend headless --seed 1 --keys "$tmp/bad.keys"
check_usage 1 "cannot read keys file" --backend headless --keys "$tmp/none.keys"
printf 'not a font' > "$tmp/font.png"
check_usage 1 "font.png" --backend headless --font "$tmp/font.png"
# headless with no keys draws the first frame and exits 0
"$P" --backend headless --screenshot "$tmp/t.png" || { echo "FAIL: headless title screenshot"; fail=1; }
[ -s "$tmp/t.png" ] || { echo "FAIL: no screenshot written"; fail=1; }
check_usage 1 "nodir" --backend headless --screenshot "$tmp/nodir/t.png"
exit $fail
