#!/bin/sh
# issue 11, defect 5: after the game is killed with SIGKILL in a terminal, the
# terminal is raw, on the alternate screen, cursor hidden, mouse reporting
# on; `pirogue --reset-term`, typed blind and ended with Ctrl+J as
# docs/term.md says, gives it back. Checked in a real pty under tmux.
. tests/tmuxlib.sh
tmux_need
flags() { $T display-message -p -t "$(at)" '#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{keypad_flag}'; }
# waits up to 10 s until the pane's flags are $1
wait_flags() {
	i=0
	while [ "$(flags)" != "$1" ] && [ $i -lt $((100 * W)) ]; do sleep 0.1; i=$((i + 1)); done
	[ "$(flags)" = "$1" ]
}
tmux_session 100 40 sh
keys "sh -c 'echo \$\$ > $tmp/pid; exec \"$P\" --backend term --seed 1'" Enter
if ! wait_flags "1 0 1 1"; then
	echo "FAIL: the game did not take the terminal (flags: $(flags))"
	exit 1
fi
pid=$(cat "$tmp/pid")
kill -KILL "$pid"
# dead (gone, or a zombie its shell has not reaped yet): waited for, not slept for
i=0
while [ -e /proc/$pid ] && [ "$(awk '{ print $3 }' /proc/$pid/stat 2>/dev/null)" != Z ] && [ $i -lt $((100 * W)) ]; do
	sleep 0.1
	i=$((i + 1))
done
# the damage is there (else this check proves nothing)
[ "$(flags)" = "1 0 1 1" ] || { echo "FAIL: after SIGKILL the terminal is already fine ($(flags)): the check proves nothing"; exit 1; }
# typed blind, ended with Ctrl+J (Enter sends CR, which the raw mode no longer reads as a newline)
keys "\"$P\" --reset-term" C-j
if ! wait_flags "0 1 0 0"; then
	echo "FAIL: after pirogue --reset-term: alternate screen/cursor/mouse/keypad flags are $(flags), want 0 1 0 0"
	fail=1
fi
keys "stty -a > $tmp/after" Enter
i=0
while [ ! -s "$tmp/after" ] && [ $i -lt $((50 * W)) ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$tmp/after" ] || { echo "FAIL: the shell runs no command after --reset-term"; exit 1; }
for f in icanon echo icrnl isig opost onlcr; do
	grep -q -- "\(^\|[ ;]\)$f\([ ;]\|$\)" "$tmp/after" ||
		{ echo "FAIL: after --reset-term the terminal still has -$f ($(tr '\n' ' ' < "$tmp/after" 2>/dev/null | cut -c1-200))"; fail=1; }
done
grep -q 'susp = ^Z' "$tmp/after" || { echo "FAIL: Ctrl+Z is not the suspend key again"; fail=1; }
$T capture-pane -p -t "$(at)" | grep -q "terminal reset" || { echo "FAIL: --reset-term did not say what it did"; fail=1; }
[ $fail -eq 0 ] && echo "reset-term: after SIGKILL, --reset-term restored the screen, cursor, mouse, keypad and line settings"
exit $fail
