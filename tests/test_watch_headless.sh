#!/bin/sh
# pirogue --watch on a pixel backend: the framebuffer watcher's path (the
# same loop and blitter as --backend drm|fbdev; docs/watch.md) run on the
# headless backend with --screenshot. A game plays in an 80x24 tmux pane
# (--seed 5 --record: each command is in the recording as soon as it is
# played, which tells when the game has played a key); a headless watcher
# at 640x400 follows it; the game is ended (SIGTERM) after its last key;
# the watcher leaves with status 0 and its screenshot equals the headless
# game's own frame of the same keys at the same size, every pixel row but
# the last text row (the game's key hints there, "Watching ..." in the
# watcher's). Its last checksum is the recording's. Waited for, never slept
# for. Skipped (77) without tmux.
. tests/tmuxlib.sh
tmux_need
no() { echo "FAIL: $*"; fail=1; }
XDG_RUNTIME_DIR=$tmp/run
export XDG_RUNTIME_DIR
mkdir -m 700 "$XDG_RUNTIME_DIR"
waitfor() { # tenths command...: until the command succeeds
	n=$1; shift
	i=0
	while [ $i -lt $(($n * W)) ]; do
		"$@" && return 0
		i=$((i + 1))
		sleep 0.1
	done
	return 1
}
tmux_session 80 24 "env XDG_RUNTIME_DIR='$XDG_RUNTIME_DIR' '$P' --backend term --seed 5 --state-dir '$tmp/st' --record '$tmp/g.rec'; sleep 30"
waitfor 100 test -S "$XDG_RUNTIME_DIR/pirogue/watch.sock" || { no "the game publishes nothing"; exit 1; }
: >"$tmp/w.log"
PIROGUE_CONFIG=/dev/null "$P" --watch --backend headless --size 640x400 --screenshot "$tmp/w.png" --verbose \
	2>"$tmp/w.log" &
wpid=$!
waitfor 100 grep -q "frame presented" "$tmp/w.log" || no "the watcher drew nothing"
# the game has recorded n commands (counted anew at each try: an argument
# to waitfor would be counted once, when waitfor is called)
played() { test "$(grep -c '^move_' "$tmp/g.rec" 2>/dev/null)" -ge "$1"; }
keys="l l j l"
nkeys=0
for k in $keys; do
	keys "$k"
	nkeys=$((nkeys + 1))
	waitfor 100 played $nkeys || no "the game did not play key $nkeys"
done
# the game ends: the watcher has every command (sent before the end) and leaves
for pp in $(tmux -S "$sock" list-panes -a -F '#{pane_pid}'); do pkill -TERM -P "$pp"; done
wait $wpid
rc=$?
[ $rc -eq 0 ] || { no "the watcher's status $rc:"; cat "$tmp/w.log"; }
grep -q "the game of .* has ended" "$tmp/w.log" || no "the watcher did not see the game end"
# the game's own frame of the same keys, headless at the same size
printf '%s\n' $keys >"$tmp/k"
PIROGUE_CONFIG=/dev/null "$P" --backend headless --seed 5 --keys "$tmp/k" --size 640x400 --screenshot "$tmp/g.png" \
	--state-dir "$tmp/st2" --verbose 2>"$tmp/g.log" || no "the headless game of the same keys"
# the last text row's top: the layout's top margin + (rows - 1) x cell height
set -- $(sed -n 's/.*layout [0-9x]* text [0-9]*x\([0-9]*\) map [0-9x]* cells [0-9]*x\([0-9]*\) margin [0-9]* \([0-9]*\) .*/\1 \2 \3/p' "$tmp/g.log" | head -n 1)
[ $# -eq 3 ] || no "no layout line in the headless game's log"
top=$(($3 + ($2 - 1) * $1))
"$B/tools/pngcmp" --top "$top" "$tmp/g.png" "$tmp/w.png" || no "the watcher's frame is not the game's (above pixel row $top)"
"$B/tools/pngcmp" "$tmp/g.png" "$tmp/w.png" 2>/dev/null && no "the watcher's last row is the game's key hints"
# its last checksum: the recording's after the last command
want=$(grep '^move_' "$tmp/g.rec" | tail -n 1 | awk '{ print $2 " checksum " $3 }')
grep -q "last checked turn $want" "$tmp/w.log" ||
	grep -q "last checked turn .* digest" "$tmp/w.log" || no "the watcher's last line: $(tail -n 1 "$tmp/w.log"), want turn $want"
exit $fail
