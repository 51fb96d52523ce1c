#!/bin/sh
# Auto-explore and travel from the app: each step is recorded as the move it
# is, or the pickup (auto-pickup, issue 18: potions and scrolls by default;
# the recording replays exactly), and a stop costs nothing.
. tests/checklib.sh
# seed 6 starts with nothing in view: o walks until something happens
printf 'o\n' > "$tmp/o.keys"
"$P" --backend headless --seed 6 --keys "$tmp/o.keys" --record "$tmp/o.rec" || { echo "FAIL: o did not run"; fail=1; }
moves=$(grep -c '^move_\|^pickup ' "$tmp/o.rec")
[ "$moves" -ge 5 ] || { echo "FAIL: auto-explore took $moves steps (expected several)"; fail=1; }
[ "$(grep -c -v '^move_\|^pickup \|^#\|^end\|^seed\|^mapgen\|^pirogue-recording' "$tmp/o.rec")" -eq 0 ] ||
	{ echo "FAIL: auto-explore recorded something else than moves and pickups"; fail=1; }
# with auto-pickup off it records moves only
"$P" --backend headless --seed 6 --auto-pickup none --keys "$tmp/o.keys" --record "$tmp/n.rec" || say "o, auto-pickup none"
[ "$(grep -c '^pickup ' "$tmp/n.rec")" -eq 0 ] || say "auto-pickup none picked something up"
out=$("$P" --replay "$tmp/o.rec") || { echo "FAIL: the auto-explore recording does not replay"; fail=1; }
case "$out" in "replayed $moves commands: turn $moves "*) ;; *) echo "FAIL: replay of o: '$out'"; fail=1 ;; esac
# more exploring, then > with the stairs not seen yet: travel says why and records nothing
printf 'o\no\no\no\no\no\n>\n' > "$tmp/t.keys"
printf 'o\no\no\no\no\no\n' > "$tmp/t0.keys"
"$P" --backend headless --seed 6 --keys "$tmp/t.keys" --record "$tmp/t.rec" --screenshot "$tmp/t.png" &&
"$P" --backend headless --seed 6 --keys "$tmp/t0.keys" --record "$tmp/t0.rec" ||
	{ echo "FAIL: exploring did not run"; fail=1; }
cmp -s "$tmp/t.rec" "$tmp/t0.rec" || { echo "FAIL: travel to unknown stairs recorded a command"; fail=1; }
"$P" --replay "$tmp/t.rec" >/dev/null || { echo "FAIL: the exploring recording does not replay"; fail=1; }
exit $fail
