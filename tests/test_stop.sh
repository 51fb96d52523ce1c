#!/bin/sh
# Job control in a real terminal (tmux, an interactive bash): a stopped game
# (kill -TSTP, or Ctrl+Z as a player does) gives the terminal back as it was
# and is saved; after fg it takes the terminal again, redrawn, and plays on.
# Before, fg left it running in the shell's cooked terminal: keys echoed and
# waiting for Enter, nothing redrawn.
. tests/tmuxlib.sh
tmux_need
command -v bash >/dev/null 2>&1 || { echo "SKIP: bash is not installed"; exit 77; }
s="$tmp/state"
stty_to() { # stty_to FILE: the pane's terminal settings into FILE, waited for
	keys "stty -a > $1.t && mv $1.t $1" Enter
	i=0
	while [ ! -e "$1" ] && [ $i -lt $((100 * W)) ]; do sleep 0.1; i=$((i + 1)); done
}
tmux_session 100 50 "env PS1=prompt: bash --norc --noprofile -i"
pane_wait "^prompt:" 50 || { echo "SKIP: no interactive shell in tmux here"; exit 77; }
stty_to "$tmp/stty.before"
keys "sh -c 'echo \$\$ > $tmp/pid; exec \"$P\" --backend term --state-dir $s --seed 1'" Enter
pane_wait "Turn 0" 100 || { say "the game did not start: $($T capture-pane -p -t "$(at)" | tail -3)"; exit 1; }
keys . .
pane_wait "Turn 2" 100 || say "two waits did not make turn 2"

kill -TSTP "$(cat "$tmp/pid")"
pane_wait "Stopped" 100 || say "kill -TSTP did not stop the game (the shell says Stopped)"
case "$("$P" --check-save --state-dir "$s")" in "ok turn 2 depth 1 "*) ;; *) say "the stop did not save turn 2" ;; esac
stty_to "$tmp/stty.stopped"
cmp -s "$tmp/stty.before" "$tmp/stty.stopped" || say "the stopped game left the terminal settings changed"

keys fg Enter
pane_wait "HP:" 100 || say "after fg the game was not redrawn: $($T capture-pane -p -t "$(at)" | tail -3)"
pane_wait ! "Stopped" 50 || say "after fg the shell's lines stay on the game's screen"
keys .
pane_wait "Turn 3" 100 || say "after fg a key did not play (the terminal is not the game's): $($T capture-pane -p -t "$(at)" | tail -2)"

# Ctrl+Z, the way a player stops it (it was switched off while playing)
keys C-z
pane_wait "Stopped" 100 || say "Ctrl+Z did not stop the game (the shell says Stopped)"
case "$("$P" --check-save --state-dir "$s")" in "ok turn 3 depth 1 "*) ;; *) say "Ctrl+Z did not save turn 3" ;; esac
keys fg Enter
pane_wait "HP:" 100 || say "after Ctrl+Z and fg the game was not redrawn"
pane_wait ! "Stopped" 50 || say "after Ctrl+Z and fg the shell's lines stay on the game's screen"
keys .
pane_wait "Turn 4" 100 || say "after Ctrl+Z and fg a key did not play"
keys Q
pane_wait "Continue" 100 || say "Q did not go back to the title after fg"
keys Escape
pane_wait "^prompt: *$" 100 || say "Escape on the title did not quit"
stty_to "$tmp/stty.after"
cmp -s "$tmp/stty.before" "$tmp/stty.after" || say "after quitting the terminal settings are not as before"
case "$("$P" --check-save --state-dir "$s")" in "ok turn 4 depth 1 "*) ;; *) say "quitting after fg did not save turn 4" ;; esac
[ $fail -eq 0 ] && echo "stop: kill -TSTP and Ctrl+Z give the terminal back and saves; fg takes it again, redrawn, and plays on"
exit $fail
