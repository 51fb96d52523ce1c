#!/bin/sh
# pirogue --view FILE (issue 18, item 4): a recording watched on the headless
# backend with --keys, as the game is tested: each key is followed by a
# second of play (4 commands at 1x) unless paused; speeds, steps, jumps and
# quitting land where they must; a bad recording is one line and exit 1.
. tests/checklib.sh
r=tests/recordings/items.rec
view() { # keys... : the line --view prints where the keys left it
	printf '%s\n' "$@" > "$tmp/v.keys"
	"$P" --backend headless --view "$r" --keys "$tmp/v.keys" --screenshot "$tmp/v.png"
}
expect() { # want keys...
	want=$1; shift
	got=$(view "$@") || say "--view with keys '$*' failed"
	[ "$got" = "$want" ] || say "keys '$*': '$got', expected '$want'"
}
# 2x plays 8 commands; Space pauses; '.' steps one
expect "watched items.rec to command 9 of 2471, turn 9 of 2466, at 2x, paused" up space .
# jumps of 100 turns forward and back; the speed doubles up to 64x, no further
expect "watched items.rec to command 872 of 2471, turn 870 of 2466, at 64x" \
	right right left up up up up up up up
# slower down to 1x, no further; q stops
expect "watched items.rec to command 100 of 2471, turn 100 of 2466, at 1x, stopped" space right down q
# back past the start stays at the start; Escape stops too
expect "watched items.rec to command 0 of 2471, turn 0 of 2466, at 1x, stopped" space left left escape
# to the end: it stops there, paused
keys=""
for i in $(seq 30); do keys="$keys right"; done
# shellcheck disable=SC2086
expect "watched items.rec to command 2471 of 2471, turn 2466 of 2466, at 1x, paused" $keys
[ -s "$tmp/v.png" ] || say "no screenshot of the viewer"
# a morgue's recording plays too (die.rec is one)
printf 'up\n' > "$tmp/k"
"$P" --backend headless --view tests/recordings/die.rec --keys "$tmp/k" >/dev/null || say "--view die.rec"
# bad input: one line, non-zero
for f in "$tmp/none.rec" "$tmp/junk.rec" "$tmp/cut.rec"; do
	case $f in
	*junk*) printf 'hello\n' > "$f" ;;
	*cut*) head -c 3000 "$r" > "$f" ;;
	esac
	err=$("$P" --backend headless --view "$f" --keys "$tmp/k" 2>&1 >/dev/null); rc=$?
	[ "$rc" -eq 1 ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] && printf '%s' "$err" | grep -q "$(basename "$f")" ||
		say "--view $(basename "$f"): exit $rc, '$err'"
done
err=$("$P" --view "$r" --replay "$r" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] && printf '%s' "$err" | grep -q "cannot be combined" || say "--view --replay: exit $rc, '$err'"
exit $fail
