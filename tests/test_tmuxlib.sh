#!/bin/sh
# The tmux checks' own library (tests/tmuxlib.sh): a check that stops its
# server and starts the next session at once (test_attract_view.sh does, once
# per frame it compares) must get that session, and the server before it
# must be gone. A session started on the socket of a server still exiting
# failed with "server exited unexpectedly" (5 of 30 under a load of 16), and
# the check reported it as a skip ("tmux cannot start a session here"),
# hiding the check: stop_server returns when the server is gone (ba60e37),
# only a script's first session may skip, and since even a zombie server's
# socket failed a start now and then (the train of 05:33 on 2026-12-03; 5 of
# 9 runs at a load of 5), each session after the first has a socket of its
# own. Before that, this failed 5 runs in 9 at a load of 5.
# make asan: not rerun: the tmux checks' own library (sessions of sleep): no built code
. tests/tmuxlib.sh
tmux_need
n=0
last=
while [ $n -lt 40 ]; do
	tmux_session 80 24 "sleep 30"
	$T has-session -t "$(at)" 2>/dev/null || say "session $n not there after tmux_session"
	# the server before it stopped: gone, or a zombie nobody reaps here
	if [ -n "$last" ] && [ -d "/proc/$last" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$last/status" 2>/dev/null; then
		say "session $n: the server before it ($last) still runs"
	fi
	last=$($T display-message -p -t "$(at)" '#{pid}' 2>/dev/null)
	[ $((n % 2)) = 0 ] && stop_server # the others stopped by tmux_session itself
	n=$((n + 1))
done
stop_server
$T has-session -t "$(at)" 2>/dev/null && say "a session still there after the last stop_server"
[ $fail = 0 ] && echo "tmuxlib: 40 sessions started and stopped, each at once after the last, the one before it gone"
exit $fail
