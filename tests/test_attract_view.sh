#!/bin/sh
# Attract mode plays the score table's recorded games (issue 18, item 4),
# end to end: a state directory holding one death (tests/recordings/die.rec
# played through --keys: its score entry and its morgue recording), then
# pirogue --backend term --attract 1 in an 80x24 tmux pane left alone on the
# title. After a second the top line says it watches that morgue recording
# at 4x ("Watching morgue-...rec  turn T/169  4x"), and what it shows is
# that game: frames of it (caught when the pane holds still) are compared
# with --view of the same recording paused at the same turn, map, status and
# log rows alike. When the recording ends the title comes back, then the
# demo bot plays (the table holds no other recorded game). The idle timer
# is the game's own on a clock the test moves (PIROGUE_IDLE_CLOCK, as in
# test_idle.sh): attract is an hour away, and the test moves the clock an
# hour on once it has seen the title; everything is waited for, never
# slept for. Skipped (77) without tmux.
. tests/tmuxlib.sh
tmux_need
no() { echo "FAIL: $*"; cat "$tmp/pane"; fail=1; }
r=tests/recordings/die.rec
awk 'BEGIN { m["move_n"] = "k"; m["move_s"] = "j"; m["move_e"] = "l"; m["move_w"] = "h"; m["move_ne"] = "u";
	m["move_nw"] = "y"; m["move_se"] = "n"; m["move_sw"] = "b"; m["wait"] = "."; m["descend"] = ">"; m["ascend"] = "<" }
	/^(#|seed|mapgen|end|pirogue-recording)/ || NF == 0 { next }
	($1 in m) { print m[$1]; next } { bad = 1 } END { exit bad }' "$r" >"$tmp/die.keys" ||
	{ echo "FAIL: $r has commands without a plain key"; exit 1; }
d=$tmp/state
seed=$(awk '$1 == "seed" { print $2 }' "$r")
PIROGUE_CONFIG=/dev/null "$P" --backend headless --seed "$seed" --keys "$tmp/die.keys" --state-dir "$d" ||
	{ echo "FAIL: the game of die.rec through keys"; exit 1; }
rec=$(ls "$d"/morgue/morgue-*.rec 2>/dev/null | head -n 1)
[ -n "$rec" ] && [ -s "$d/scores" ] || { echo "FAIL: no score entry with a recording in $d"; exit 1; }
base=$(basename "$rec")
clock=$tmp/clock
echo 0 >"$clock"
tmux_session 80 24 "PIROGUE_IDLE_CLOCK='$clock' '$P' --backend term --state-dir '$d' --attract 3600 --blank 0; echo EXITED; sleep 30"
pane_wait "New game" 100 || no "no title screen"
echo 3600000 >"$clock"
pane_wait "^ Watching $base  turn [0-9]*/169  4x" 150 || no "attract mode did not play $base of the score table"
# frames of it: a capture equal to the next one is a whole frame (up to 3,
# for as long as the recording plays: a loaded machine catches fewer)
n=0
i=0
last=
while [ $n -lt 3 ] && [ $i -lt 2000 ]; do
	i=$((i + 1))
	pane
	grep -q "^ Watching $base  turn [0-9]*/169  4x" "$tmp/pane" || break
	if [ -n "$last" ] && cmp -s "$tmp/pane" "$last"; then
		t=$(head -n 1 "$tmp/pane" | sed -n 's/.*turn \([0-9]*\)\/169.*/\1/p')
		if [ -n "$t" ] && [ ! -e "$tmp/attract.$t" ]; then
			cp "$tmp/pane" "$tmp/attract.$t"
			n=$((n + 1))
		fi
	fi
	cp "$tmp/pane" "$tmp/prev"
	last=$tmp/prev
done
[ $n -gt 0 ] || no "no whole frame of attract mode's recording caught"
# the recording ends: the title again, then the demo (no other recording)
pane_wait "Demo - press any key" 400 || no "after the recording, no title then demo"
stop_server
# the same turns through --view, paused, stepped there from turn 0
for f in "$tmp"/attract.*; do
	[ -e "$f" ] || continue
	t=${f##*.}
	tmux_session 80 24 "'$P' --backend term --view '$rec'; sleep 30"
	pane_wait "Watching $base  turn" 100 || no "--view $base did not start"
	keys Space Left Left
	pane_wait "^ Watching $base  turn 0/169  1x  paused" 50 || no "--view did not pause at turn 0"
	k=0
	while [ $k -lt "$t" ]; do
		keys .
		k=$((k + 1))
	done
	pane_wait "^ Watching $base  turn $t/169  1x  paused" 100 || no "--view did not step to turn $t"
	# the rows between the top line and the hint line: map, status, log
	sed '1d;$d' "$f" >"$tmp/a"
	sed '1d;$d' "$tmp/pane" >"$tmp/v"
	cmp -s "$tmp/a" "$tmp/v" || { no "attract's frame at turn $t differs from --view's:"; diff "$tmp/a" "$tmp/v"; }
	stop_server
done
exit $fail
