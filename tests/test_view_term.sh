#!/bin/sh
# pirogue --view FILE on the terminal backend, as a person uses it (issue
# 18, item 4): in an 80x24 tmux pane, Space pauses, Up doubles the speed up
# to 64x (no further), Down halves it, '.' steps one command, Right jumps
# 100 turns forward and Left back, Enter plays on to the end (where it
# says "(the end)"), q quits with status 0; the top line says the turn and
# the speed throughout. Only the turn it pauses at depends on the machine's
# pace: two jumps back go to turn 0, and every step from there is checked
# exactly (waited for, never slept for). Skipped (77) without tmux.
. tests/tmuxlib.sh
tmux_need
r=$(pwd)/tests/recordings/die.rec # 169 commands, one turn each
no() { echo "FAIL: $*"; cat "$tmp/pane"; fail=1; }
top() { head -n 1 "$tmp/pane"; }
tmux_session 80 24 "'$P' --backend term --view '$r'; echo EXITED \$?; sleep 30"
pane_wait "Watching die.rec  turn [0-9]*/169  1x" 100 || no "no status line with the turn and 1x"
keys Space
pane_wait "Watching die.rec  turn [0-9]*/169  1x  paused" 50 || no "Space did not pause"
expect() { # what the top line must become after the keys, keys...
	want=$1; shift
	keys "$@"
	pane_wait "^ Watching die.rec  $want\$" 50 || no "keys '$*': top line '$(top)', expected ' Watching die.rec  $want'"
}
# back to the start first (two jumps back reach it from any turn below 200)
expect "turn 0/169  1x  paused" Left Left
expect "turn 0/169  2x  paused" Up
expect "turn 0/169  64x  paused" Up Up Up Up Up Up Up
expect "turn 0/169  32x  paused" Down
expect "turn 1/169  32x  paused" .
expect "turn 2/169  32x  paused" .
expect "turn 102/169  32x  paused" Right
expect "turn 103/169  32x  paused" .
expect "turn 3/169  32x  paused" Left
# the map follows: the player's @ is drawn at every step
grep -q "@" "$tmp/pane" || no "no player on the map while viewing"
# on to the end at 32x: it stops there, "(the end)"
expect "turn 169/169  32x  (the end)" Enter
keys q
pane_wait "EXITED 0" 50 || no "q did not quit with status 0"
exit $fail
