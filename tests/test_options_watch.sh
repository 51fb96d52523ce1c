#!/bin/sh
# The options screen's "Others may watch" row in a real terminal (tmux): a
# game publishes its socket; O, down twice, right sets watch = no: the
# socket goes at once and the state directory's settings file says so;
# right again publishes it again. Skipped (77) without tmux.
. tests/tmuxlib.sh
mkdir -p "$tmp/run" "$tmp/state"
chmod 700 "$tmp/run"
tmux_need
wsock="$tmp/run/pirogue/watch.sock"
env_run="env XDG_RUNTIME_DIR=$tmp/run XDG_STATE_HOME=$tmp/state PIROGUE_CONFIG=/dev/null TERM=xterm-256color"
tmux_session 80 24 "$env_run '$P' --backend term --seed 5; sleep 30"
pane_wait "HP:" 100 || { say "the game never showed its map:"; cat "$tmp/pane"; exit 1; }
# waits (tenths) until the socket is there (1) or gone (0)
sock_wait() { # 1|0 tenths
	i=0
	while [ $i -lt $(($2 * W)) ]; do
		if [ -S "$wsock" ]; then [ "$1" = 1 ] && return 0; else [ "$1" = 0 ] && return 0; fi
		i=$((i + 1))
		sleep 0.1
	done
	return 1
}
sock_wait 1 100 || { say "the game made no socket at $wsock"; exit 1; }
keys O
pane_wait "Others may watch" 100 || { say "O did not open the options:"; cat "$tmp/pane"; exit 1; }
keys Down Down Right
sock_wait 0 100 || say "watch = no on the options screen left the socket there"
conf="$tmp/state/pirogue/pirogue.conf"
i=0
while ! grep -qx 'watch = no' "$conf" 2>/dev/null && [ $i -lt $((100 * W)) ]; do sleep 0.1; i=$((i + 1)); done
grep -qx 'watch = no' "$conf" 2>/dev/null || say "the state file does not say watch = no: $(cat "$conf" 2>&1)"
keys Right
sock_wait 1 100 || say "watch = yes again did not publish the game again"
keys Escape Q
exit $fail
