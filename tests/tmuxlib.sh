# Sourced by the shell checks that play in tmux (test_tmux.sh, test_idle.sh,
# test_reset_term.sh, test_save_signals.sh) instead of tests/checklib.sh:
# all of that, and P made absolute (the pane's shell runs elsewhere), sock
# the tmux server's socket in $tmp and T the tmux command on it. On exit
# the server is stopped (stop_server) before $tmp goes.
. tests/checklib.sh
case $P in /*) ;; *) P=$(pwd)/$P ;; esac
sock=$tmp/sock
T="tmux -S $sock"
trap 'stop_server; sleep 0.2; rm -rf "$tmp"' EXIT

# Skips the check (77) when tmux is not installed.
tmux_need() {
	command -v tmux >/dev/null 2>&1 || { echo "SKIP: tmux is not installed (apt-get install tmux)"; exit 77; }
}

# Starts a tmux server on $sock with one session "t" of cols x rows running
# command under TERM=xterm-256color with no settings file; skips the check
# (77) when tmux cannot start one here.
# Only the script's first session may skip: once tmux has started one here, a
# later one that does not start is a failure (it was seen as a skip when a
# session was started on the socket of a server still exiting).
tmux_started=0
tmux_session() { # cols rows command
	if ! tmux -S "$sock" -f /dev/null new-session -d -s t -x "$1" -y "$2" \
		"env PIROGUE_CONFIG=/dev/null TERM=xterm-256color $3"; then
		[ $tmux_started = 0 ] && { echo "SKIP: tmux cannot start a session here"; exit 77; }
		echo "FAIL: tmux started a session here before but not this one ($3)"
		exit 1
	fi
	tmux_started=1
}

# Writes what the pane shows to $tmp/pane.
pane() { tmux -S "$sock" capture-pane -p -t t >"$tmp/pane" 2>/dev/null; }

# Waits up to tenths tenths of a second for the pane to show pattern (with
# !, to stop showing it); returns 1 if it never does. $tmp/pane holds the
# pane as last seen.
pane_wait() { # [!] pattern tenths
	neg=0
	[ "$1" = "!" ] && { neg=1; shift; }
	i=0
	while [ $i -lt $(($2 * W)) ]; do
		pane
		if grep -q -- "$1" "$tmp/pane"; then [ $neg = 0 ] && return 0; else [ $neg = 1 ] && return 0; fi
		i=$((i + 1))
		sleep 0.1
	done
	return 1
}

# Ends the tmux server on $sock: its game first with SIGKILL (kill-server's
# SIGHUP would make a sanitizer build run its leak check on a vanished
# terminal, where LeakSanitizer was seen to spin for ever), then the server.
# It returns when the server is gone: a session started on the socket of a
# server still exiting fails ("server exited unexpectedly", 5 of 30 under a
# load of 16).
stop_server() {
	command -v tmux >/dev/null 2>&1 || return 0
	spid=$(tmux -S "$sock" display-message -p '#{pid}' 2>/dev/null)
	for pp in $(tmux -S "$sock" list-panes -a -F '#{pane_pid}' 2>/dev/null); do
		pkill -KILL -P "$pp" 2>/dev/null
	done
	tmux -S "$sock" kill-server 2>/dev/null
	i=0
	while [ -n "$spid" ] && kill -0 "$spid" 2>/dev/null && [ $i -lt $((100 * W)) ]; do
		i=$((i + 1))
		sleep 0.1
	done
}
