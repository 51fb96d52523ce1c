# Sourced by the shell checks that play in tmux (test_tmux.sh, test_idle.sh):
# what they share. Expects $sock, the tmux server's socket.

# Ends the tmux server on $sock: its game first with SIGKILL (kill-server's
# SIGHUP would make a sanitizer build run its leak check on a vanished
# terminal, where LeakSanitizer was seen to spin for ever), then the server.
stop_server() {
	for pp in $(tmux -S "$sock" list-panes -a -F '#{pane_pid}' 2>/dev/null); do
		pkill -KILL -P "$pp" 2>/dev/null
	done
	tmux -S "$sock" kill-server 2>/dev/null
}
