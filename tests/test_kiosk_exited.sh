#!/bin/sh
# `pirogue-kiosk exited`, which pirogue.service runs after each run of the
# game (docs/kiosk.md): three failed starts in a row, each ending in under
# 10 s, give tty1 its login prompt back (getty@tty1 started) with a line in
# /etc/issue.d saying why; a run of 10 s or more, or one that succeeded,
# starts the count again. Nothing ran it before: a slip in the counting
# passed the whole suite. systemctl is a stub here that answers the run's
# start and exit times and notes what it is asked to start; the count and
# the issue line go to this check's own directory (PIROGUE_KIOSK_RUN,
# PIROGUE_KIOSK_ISSUE).
. tests/checklib.sh
K=board/pirogue-kiosk
mkdir -p "$tmp/bin"
# the stub: `systemctl show -P ExecMain{Start,Exit}TimestampMonotonic
# pirogue.service` from $tmp/start, $tmp/stop (microseconds); anything else
# is noted in $tmp/asked
cat >"$tmp/bin/systemctl" <<EOF
#!/bin/sh
case "\$*" in
"show -P ExecMainStartTimestampMonotonic pirogue.service") cat "$tmp/start" ;;
"show -P ExecMainExitTimestampMonotonic pirogue.service") cat "$tmp/stop" ;;
*) echo "\$*" >>"$tmp/asked" ;;
esac
EOF
chmod +x "$tmp/bin/systemctl"
run=$tmp/run
issue=$tmp/issue.d
: >"$tmp/asked"

# exited RESULT SECONDS: one run of the game that ended with RESULT
# (SERVICE_RESULT) after SECONDS; what pirogue-kiosk said into $tmp/said,
# its status into $rc.
exited() {
	echo 5000000 >"$tmp/start"
	echo $((5000000 + $2 * 1000000 + 999999)) >"$tmp/stop"
	PATH="$tmp/bin:$PATH" PIROGUE_KIOSK_RUN=$run PIROGUE_KIOSK_ISSUE=$issue \
		SERVICE_RESULT=$1 EXIT_CODE=exited EXIT_STATUS=1 sh "$K" exited >"$tmp/said" 2>&1
	rc=$?
}
# gave_back WHEN: tty1's prompt was given back (getty@tty1 started once,
# the issue line there) or, with "not", neither.
gave_back() {
	if [ "$1" = yes ]; then
		[ "$(cat "$tmp/asked")" = "--no-block start getty@tty1.service" ] ||
			say "$2: getty@tty1 not started once (systemctl was asked: $(cat "$tmp/asked"))"
		grep -q "pirogue failed to start 3 times in a row (exited 1 after 2 s)" "$issue/pirogue-kiosk.issue" 2>/dev/null ||
			say "$2: no line in the issue file ($(cat "$issue/pirogue-kiosk.issue" 2>&1))"
	else
		[ ! -s "$tmp/asked" ] || say "$2: systemctl was asked: $(cat "$tmp/asked")"
		[ ! -e "$issue/pirogue-kiosk.issue" ] || say "$2: an issue line: $(cat "$issue/pirogue-kiosk.issue")"
	fi
}

# three failed starts of 2 s: the first two restart, the third gives tty1 back
exited exit-code 2
[ $rc = 0 ] && grep -q 'failure 1 of 3: restarting it' "$tmp/said" || say "first failure ($rc): $(cat "$tmp/said")"
gave_back no "after one failure"
exited exit-code 2
[ $rc = 0 ] && grep -q 'failure 2 of 3: restarting it' "$tmp/said" || say "second failure ($rc): $(cat "$tmp/said")"
gave_back no "after two failures"
exited exit-code 2
[ $rc = 0 ] && grep -q 'pirogue failed to start 3 times in a row' "$tmp/said" || say "third failure ($rc): $(cat "$tmp/said")"
gave_back yes "after three failures"
[ ! -e "$run/failures" ] || say "the count is kept after tty1 was given back: $(cat "$run/failures")"

# a run that succeeded, or lasted 10 s, clears the count and the issue line
exited success 2
[ $rc = 0 ] || say "a successful run: status $rc: $(cat "$tmp/said")"
[ ! -e "$issue/pirogue-kiosk.issue" ] || say "the issue line stays after a successful run"
: >"$tmp/asked"
for r in exit-code exit-code success exit-code exit-code; do exited $r 2; done
gave_back no "two failures, a success, two failures"
grep -q 'failure 2 of 3' "$tmp/said" || say "the count after a success did not start again: $(cat "$tmp/said")"
rm -f "$run/failures"
# 9.99 s is a failed start; 10 s is a run
for s in 9 9 10 9 9; do exited exit-code $s; done
gave_back no "failures of 9 s with a run of 10 s between"
grep -q '(exited 1 after 9 s), failure 2 of 3' "$tmp/said" ||
	say "a run of 10 s did not start the count again: $(cat "$tmp/said")"
exited exit-code 9
grep -q 'pirogue failed to start 3 times in a row (exited 1 after 9 s)' "$tmp/said" ||
	say "three failures of 9 s did not give tty1 back: $(cat "$tmp/said")"

# by hand (no SERVICE_RESULT): refused, one line
out=$(PATH="$tmp/bin:$PATH" PIROGUE_KIOSK_RUN=$run sh "$K" exited 2>&1)
[ $? = 1 ] && [ "$out" = "pirogue-kiosk: 'exited' is run by pirogue.service after the game stops, not by hand" ] ||
	say "exited by hand: $out"
exit $fail
