#!/bin/sh
# Attract mode and screen blanking as a person sees them: pirogue --backend
# term in an 80x24 tmux window, its idle timers on a clock the test moves
# (PIROGUE_IDLE_CLOCK: a file of milliseconds the clock runs ahead of the
# monotonic one). Attract and blank are set an hour and more away, which no
# run reaches by itself, and the test moves the clock past them when it has
# seen what must come before: every screen it must catch stays until then,
# however loaded the machine. On the title, once the clock is --attract
# seconds past the last input the demo plays ("Demo - press any key" above,
# "Demo: the computer is playing" and "press any key" on the hint line; its
# turns going on); a key ends it and brings the title back, and does
# nothing else (the key is Enter: on the title it would start a game).
# Once the clock is --blank past it the screen is black; Escape wakes it,
# shows the title again and does not quit. While blanked the process
# sleeps in poll() with no timeout and its timer disarmed, and nothing
# wakes it (issue 8: "strace shows poll blocking while blanked", read from
# /proc: the syscall it sleeps in, the timerfd's fdinfo, its count of
# voluntary context switches). The state directory is left as it was: the
# demo saves nothing. Bad values of both settings, and of the clock file,
# are refused in one line. The terminal part is skipped (77) without tmux.
. tests/tmuxlib.sh
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
conf=$tmp/bad.conf
printf 'blank = ten\n' >"$conf"
bad "$conf:1: invalid value 'ten' for blank" --config "$conf"
PIROGUE_CONFIG=/dev/null "$P" --backend headless --attract 0 --blank 30s >/dev/null 2>&1 || { echo "FAIL: --attract 0 --blank 30s refused"; exit 1; }
clock=$tmp/clock
printf 'soon\n' >"$clock"
export PIROGUE_IDLE_CLOCK="$clock"
bad "the clock file $clock (PIROGUE_IDLE_CLOCK) holds 'soon': expected milliseconds, 0 or more"
PIROGUE_IDLE_CLOCK=$tmp/none
bad "cannot read the clock file $tmp/none (PIROGUE_IDLE_CLOCK): No such file or directory"
unset PIROGUE_IDLE_CLOCK
tmux_need
no() { echo "FAIL: $*"; cat "$tmp/pane"; fail=1; }
mkdir "$tmp/state"
# Two games: the first with attract an hour on and no blanking, the second
# with blanking an hour on and attract two hours on (after the wake-up key
# the title stays: the demo is two hours from it).
echo 0 >"$clock"
tmux_session 80 24 "PIROGUE_IDLE_CLOCK='$clock' '$P' --backend term --state-dir '$tmp/state' --attract 3600 --blank 0; echo EXITED; sleep 30"
pane_wait "New game" 50 || no "no title screen"
grep -q "Demo" "$tmp/pane" && no "the demo started before the clock reached its time"
# an hour on, without a key: the demo's time
echo 3600000 >"$clock"
# the demo, its moves going on
pane_wait "Demo - press any key" 50 || no "no demo an hour on the title"
# its hint line says what it is and how to leave, not the play keys (waited
# for: the frame's last row comes last in its bytes, and a slow game's
# frame was seen half written with its top row already there)
pane_wait "Demo: the computer is playing  press any key to go back to the title" 50 ||
	no "the demo's hint line does not say what it is and 'press any key'"
cp "$tmp/pane" "$tmp/demo1"
tail -n 1 "$tmp/pane" | grep -q "move" && no "the demo's hint line shows the play keys"
[ -n "${SHOW:-}" ] && cat "$tmp/pane"
# its moves go on: the pane changes while the demo shows (waited for, not
# slept for: a loaded machine draws the next move later)
i=0
while [ $i -lt $((100 * W)) ]; do
	pane
	grep -q "Demo - press any key" "$tmp/pane" && ! cmp -s "$tmp/pane" "$tmp/demo1" && break
	i=$((i + 1))
	sleep 0.1
done
[ $i -lt $((100 * W)) ] || no "the demo does not move"
keys Enter
pane_wait "New game" 50 || no "Enter in the demo did not bring the title back at once"
pane_wait ! "HP" 1 || no "Enter in the demo started a game"
stop_server
echo 0 >"$clock"
tmux_session 80 24 "PIROGUE_IDLE_CLOCK='$clock' '$P' --backend term --state-dir '$tmp/state' --attract 7200 --blank 60; echo EXITED; sleep 30"
pane_wait "New game" 50 || no "no title screen (second game)"
# an hour on with no key: the blank screen
echo 3600000 >"$clock"
pane_wait ! "[A-Za-z]" 50 || no "the screen did not blank an hour on"
pid=$(pgrep -f -- "pirogue --backend term --state-dir $tmp/state" | while read -r p; do
	[ "$(cat /proc/$p/comm 2>/dev/null)" = pirogue ] && echo "$p"; done | head -1)
if [ -n "$pid" ]; then
	# Idle stays idle, as strace would show it, read from the kernel: the
	# timer is disarmed (its fdinfo), the process sleeps in poll() with no
	# timeout (/proc/PID/syscall: x86_64 poll is 7 with timeout -1, ppoll
	# 271 or aarch64's 73 with no timespec), and nothing wakes it (every
	# wake-up from poll is a voluntary context switch: the count stays put).
	tfd=$(for f in /proc/$pid/fd/*; do
		[ "$(readlink "$f")" = "anon_inode:[timerfd]" ] && echo "${f##*/}"; done | head -1)
	# asleep: in poll() with no timeout (x86_64 poll is 7 with timeout -1,
	# ppoll 271 or aarch64's 73 with no timespec); 0 yes, 1 no, 2 unknown
	asleep() {
		sc=$(cat /proc/$pid/syscall 2>/dev/null) || return 2
		set -- $sc
		case "$(uname -m) $1 $4" in
		"x86_64 7 0xffffffff" | "x86_64 271 0x0" | "aarch64 73 0x0") return 0 ;;
		esac
		return 1
	}
	# the frame after blanking drawn, back in poll: waited for (up to 10 s
	# on a loaded machine), not slept for
	i=0
	while [ $i -lt $((100 * W)) ]; do
		asleep
		a=$?
		{ [ -z "$tfd" ] || grep -q "^it_value: (0, 0)" /proc/$pid/fdinfo/$tfd; } && [ $a != 1 ] && break
		i=$((i + 1))
		sleep 0.1
	done
	if [ -z "$tfd" ]; then
		no "the game has no timerfd (it must have one armed for --blank)"
	else
		grep -q "^it_value: (0, 0)" /proc/$pid/fdinfo/$tfd ||
			no "blanked, the timer is still armed: $(grep it_ /proc/$pid/fdinfo/$tfd | tr '\n' ' ')"
	fi
	asleep
	case $? in
	0) ;;
	1) no "blanked, the game is not asleep in poll() without a timeout: /proc/$pid/syscall says $sc" ;;
	*) echo "note: /proc/$pid/syscall is not readable here (ptrace rules); the wake-up count below stands alone" ;;
	esac
	v1=$(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$pid/status)
	sleep 1
	v2=$(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$pid/status)
	[ "$v1" = "$v2" ] || no "blanked, the game woke up $((v2 - v1)) times in 1 s"
else
	no "cannot find the pirogue process"
fi
keys Escape
pane_wait "New game" 100 || no "Escape did not wake the blank screen"
# (the demo would start again by itself only two hours on)
grep -q EXITED "$tmp/pane" && no "the key that woke the screen quit the game"
grep -q "Demo" "$tmp/pane" && no "the wake-up key started the demo"
[ -z "$(ls -A "$tmp/state")" ] || no "the demo wrote to the state directory: $(ls "$tmp/state")"
exit $fail
