#!/bin/sh
# The save through a real session in a pty (tmux), as a person does it: play,
# quit to the menu, kill -9, start again, Continue (first on the title) and
# be exactly where one was; SIGTERM and SIGHUP save the game in progress.
. tests/tmuxlib.sh
tmux_need
s="$tmp/state"
# waits up to 10 s until the pane shows $1
wait_text() { pane_wait "$1" 100; }
# starts pirogue with $1 in the pane; its pid in $tmp/pid
start() {
	rm -f "$tmp/pid"
	keys "sh -c 'echo \$\$ > $tmp/pid; exec \"$P\" --backend term --state-dir $s $1'" Enter
	i=0
	while [ ! -s "$tmp/pid" ] && [ $i -lt $((50 * W)) ]; do sleep 0.1; i=$((i + 1)); done
}
# waits up to 10 s for the process to end
wait_gone() {
	i=0
	while kill -0 "$(cat "$tmp/pid")" 2>/dev/null && [ $i -lt $((100 * W)) ]; do sleep 0.1; i=$((i + 1)); done
	! kill -0 "$(cat "$tmp/pid")" 2>/dev/null
}
tmux_session 100 50 sh

# 1. three turns, quit to the menu (saved), kill -9
start "--seed 1"
wait_text "Turn 0" || { say "the game did not start: $($T capture-pane -p -t "$(at)" | tail -3)"; exit 1; }
keys . . .
wait_text "Turn 3" || say "three waits did not make turn 3"
keys Q
wait_text "Continue" || say "Q did not go back to the title"
kill -KILL "$(cat "$tmp/pid")"
wait_gone || say "kill -9 did not end it"
line=$("$P" --check-save --state-dir "$s")
case "$line" in "ok turn 3 depth 1 "*) ;; *) say "after quitting to the menu and kill -9: '$line'" ;; esac

# 2. start again: Continue is first, Enter continues at turn 3; two more
# turns, SIGTERM saves them
# the pane's terminal as kill -9 left it: raw; --reset-term (docs/term.md)
keys "\"$P\" --reset-term" C-j
wait_text "terminal reset" || say "--reset-term after kill -9"
start ""
wait_text "Continue" || say "no Continue on the title after a restart"
keys Enter
wait_text "Turn 3" || say "Continue did not bring back turn 3"
keys . .
wait_text "Turn 5" || say "two more waits did not make turn 5"
kill -TERM "$(cat "$tmp/pid")"
wait_gone || say "SIGTERM did not end it"
line=$("$P" --check-save --state-dir "$s")
# exactly the game of five waits played straight through
printf '.\n.\n.\n.\n.\n' > "$tmp/five.keys"
"$P" --backend headless --seed 1 --keys "$tmp/five.keys" --state-dir "$tmp/straight"
want=$("$P" --check-save --state-dir "$tmp/straight")
[ "$line" = "$want" ] || say "after Continue and SIGTERM: '$line', straight through: '$want'"

# 3. SIGHUP saves too
start ""
wait_text "Continue" || say "no Continue on the title (3)"
keys Enter
wait_text "Turn 5" || say "Continue did not bring back turn 5"
keys .
wait_text "Turn 6" || say "a wait did not make turn 6"
kill -HUP "$(cat "$tmp/pid")"
wait_gone || say "SIGHUP did not end it"
case "$("$P" --check-save --state-dir "$s")" in "ok turn 6 depth 1 "*) ;; *) say "SIGHUP did not save turn 6" ;; esac
[ $fail -eq 0 ] && echo "save: quit to the menu + kill -9, Continue, SIGTERM and SIGHUP in a real terminal: the game goes on exactly"
exit $fail
