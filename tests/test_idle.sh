#!/bin/sh
# Attract mode and screen blanking as a person sees them, with the timers
# shortened through the settings: pirogue --backend term in an 80x24 tmux
# window. On the title, after --attract seconds without input the demo
# plays ("Demo - press any key", its turns going on); a key ends it and
# brings the title back, and does nothing else (the key is Enter: on the
# title it would start a game). After --blank seconds the screen is black;
# Escape wakes it, shows the title again and does not quit. While blanked
# the process sleeps (no periodic wake-up: its CPU time stays put). The
# state directory is left as it was: the demo saves nothing. Bad values of
# both settings are refused in one line. The terminal part is skipped (77)
# without tmux.
set -u
P=${PIROGUE:-./pirogue}
# Bad values: one line naming the setting and what it takes, exit 2.
bad() { # expected-text args...
	want=$1
	shift
	out=$(PIROGUE_CONFIG=/dev/null "$P" --backend headless "$@" 2>&1)
	rc=$?
	[ $rc = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && printf '%s' "$out" | grep -q -- "$want" ||
		{ echo "FAIL: pirogue $*: exit $rc: $out"; exit 1; }
}
bad "invalid value '-1' for --attract: expected seconds from 0 (never) to 86400" --attract -1
bad "invalid value '5m' for --blank: expected minutes from 0 (never) to 1440, or seconds as in 30s" --blank 5m
bad "invalid value 's' for --blank" --blank s
conf=$(mktemp)
printf 'blank = ten\n' >"$conf"
bad "$conf:1: invalid value 'ten' for blank" --config "$conf"
rm -f "$conf"
PIROGUE_CONFIG=/dev/null "$P" --backend headless --attract 0 --blank 30s >/dev/null 2>&1 || { echo "FAIL: --attract 0 --blank 30s refused"; exit 1; }
command -v tmux >/dev/null 2>&1 || { echo "skip: tmux is not installed (apt-get install tmux)"; exit 77; }
tmp=$(mktemp -d) || exit 1
sock="$tmp/sock"
. tests/tmuxlib.sh
trap 'stop_server; sleep 0.2; rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; cat "$tmp/pane"; fail=1; }
bin=$(cd "$(dirname "$P")" && pwd)/$(basename "$P")
mkdir "$tmp/state"
pane() { tmux -S "$sock" capture-pane -p -t t >"$tmp/pane" 2>/dev/null; }
# waits (up to $2 tenths of a second) for the pane to show (or, with !, not show) $1
wait_for() { # [!] pattern tenths
	neg=0
	[ "$1" = "!" ] && { neg=1; shift; }
	i=0
	while [ $i -lt "$2" ]; do
		pane
		if grep -q -- "$1" "$tmp/pane"; then [ $neg = 0 ] && return 0; else [ $neg = 1 ] && return 0; fi
		i=$((i + 1))
		sleep 0.1
	done
	return 1
}
tmux -S "$sock" -f /dev/null new-session -d -s t -x 80 -y 24 \
	"env PIROGUE_CONFIG=/dev/null TERM=xterm-256color '$bin' --backend term --state-dir '$tmp/state' --attract 1 --blank 4s; echo EXITED; sleep 30"
wait_for "New game" 50 || no "no title screen"
# the demo: within 1 s (+ slack), moves going on
wait_for "Demo - press any key" 40 || no "no demo after 1 s on the title"
cp "$tmp/pane" "$tmp/demo1"
[ -n "${SHOW:-}" ] && cat "$tmp/pane"
sleep 0.6
pane
grep -q "Demo - press any key" "$tmp/pane" && cmp -s "$tmp/pane" "$tmp/demo1" && no "the demo does not move"
tmux -S "$sock" send-keys -t t Enter
wait_for "New game" 10 || no "Enter in the demo did not bring the title back at once"
wait_for ! "HP" 1 || no "Enter in the demo started a game"
# the blank screen, 4 s after that key (the demo starts again meanwhile)
wait_for ! "[A-Za-z]" 80 || no "the screen did not blank after 4 s"
pid=$(pgrep -f -- "pirogue --backend term --state-dir $tmp/state" | while read -r p; do
	[ "$(cat /proc/$p/comm 2>/dev/null)" = pirogue ] && echo "$p"; done | head -1)
if [ -n "$pid" ]; then
	c1=$(awk '{ print $14 + $15 }' /proc/$pid/stat)
	sleep 1
	c2=$(awk '{ print $14 + $15 }' /proc/$pid/stat)
	[ "$c1" = "$c2" ] || no "blanked, the game used CPU time ($c1 -> $c2 clock ticks in 1 s)"
else
	no "cannot find the pirogue process"
fi
tmux -S "$sock" send-keys -t t Escape
wait_for "New game" 20 || no "Escape did not wake the blank screen"
pane
grep -q EXITED "$tmp/pane" && no "the key that woke the screen quit the game"
grep -q "Demo" "$tmp/pane" && no "the wake-up key started the demo"
[ -z "$(ls -A "$tmp/state")" ] || no "the demo wrote to the state directory: $(ls "$tmp/state")"
exit $fail
