# Sourced by the shell checks that play in tmux (test_tmux.sh, test_idle.sh,
# test_watch.sh, test_stop.sh, ...) instead of tests/checklib.sh: all of
# that, and P made absolute (the pane's shell runs elsewhere), sock the tmux
# server's socket in $tmp and T the tmux command on it; every target they
# name goes through at, keys or keys_to (checked when sourced). On exit the
# server is stopped (stop_server) before $tmp goes.
. tests/checklib.sh
case $P in /*) ;; *) P=$(pwd)/$P ;; esac
sock=$tmp/sock
T="tmux -S $sock"
trap 'stop_server; sleep 0.2; rm -rf "$tmp"' EXIT

# Skips the check (77) when tmux is not installed.
tmux_need() {
	command -v tmux >/dev/null 2>&1 || { echo "SKIP: tmux is not installed (apt-get install tmux)"; exit 77; }
}

# Starts a tmux server with one session "t" of cols x rows running command
# under TERM=xterm-256color with no settings file; skips the check (77) when
# tmux cannot start one here. Only a check's first session may skip: once
# tmux has started one here, a later one that does not start is a failure
# (one started on a dying server's socket was reported as a skip).
# Each session after the first gets a socket of its own ($sock and $T name
# it from here on) and the last server is stopped first: a session started
# on the socket of a server just stopped could still reach that server and
# fail with "server exited unexpectedly", even once the old server was a
# zombie (5 of 9 runs of test_tmuxlib.sh at a load of 5, each of 40 starts
# on one socket; 0 of 6 with a socket a session).
tmux_started=0
tmux_sessions=0
tmux_session() { # cols rows command
	if [ $tmux_started = 1 ]; then
		stop_server
		tmux_sessions=$((tmux_sessions + 1))
		sock=$tmp/sock$tmux_sessions
		T="tmux -S $sock"
	fi
	if ! tmux -S "$sock" -f /dev/null new-session -d -s t -x "$1" -y "$2" \
		"env PIROGUE_CONFIG=/dev/null TERM=xterm-256color $3"; then
		[ $tmux_started = 0 ] && { echo "SKIP: tmux cannot start a session here"; exit 77; }
		echo "FAIL: tmux started a session here before but not this one ($3)"
		exit 1
	fi
	tmux_started=1
}

# The one way the checks name what they drive (every -t): always with the
# session's colon. tmux looks a bare "t" up as a window first, and a window
# whose name starts with t wins over the session: test_watch's new-window
# -t t once took index 0 under load ("create window failed: index 0 in
# use"). at: the session's active pane (for new-window: the next free
# index); at .N: pane N of its active window; at NAME: window NAME.
at() { printf 't:%s' "${1:-}"; }

# Sends keys (tmux key names, or text) to the active pane; keys_to N ... to
# pane N of the active window.
keys() { tmux -S "$sock" send-keys -t "$(at)" "$@"; }
keys_to() { # pane keys...
	_tmux_pane=$1
	shift
	tmux -S "$sock" send-keys -t "$(at ".$_tmux_pane")" "$@"
}

# A check that spells a target itself (a bare t, t.1, "t:...") instead of
# through at, keys or keys_to fails at once, before it can slip under load.
if grep -n -e "-t [\"']\?t\([ .:\"']\|\$\)" "$0" >"$tmp/targets"; then
	echo "FAIL: $0 names a tmux target itself (use at, keys or keys_to from tests/tmuxlib.sh):"
	cat "$tmp/targets"
	exit 1
fi

# Writes what the pane shows to $tmp/pane.
pane() { tmux -S "$sock" capture-pane -p -t "$(at)" >"$tmp/pane" 2>/dev/null; }

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
# It returns once the server has exited: a new session started on $sock
# while the old server is still exiting gets "server exited unexpectedly"
# (1 start in 3 right after kill-server here), which tmux_session reports
# as a skip, so a check's second session would silently not run.
stop_server() {
	command -v tmux >/dev/null 2>&1 || return 0
	_tmux_server=$(tmux -S "$sock" display-message -p -t "$(at)" '#{pid}' 2>/dev/null)
	for pp in $(tmux -S "$sock" list-panes -a -F '#{pane_pid}' 2>/dev/null); do
		pkill -KILL -P "$pp" 2>/dev/null
	done
	tmux -S "$sock" kill-server 2>/dev/null
	[ -n "$_tmux_server" ] || return 0
	# gone, or a zombie nobody reaps here (a container's init): either way
	# no longer serving
	_tmux_i=0
	while [ -d "/proc/$_tmux_server" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$_tmux_server/status" 2>/dev/null &&
		[ $_tmux_i -lt $((50 * W)) ]; do
		sleep 0.05
		_tmux_i=$((_tmux_i + 1))
	done
}
