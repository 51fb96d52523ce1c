#!/bin/sh
# Every recording in tests/recordings/ replays exactly, and its final frame
# equals the golden PNG pixel for pixel; a tampered recording is caught at
# the right line.
. tests/checklib.sh
n=0
for r in tests/recordings/*.rec; do
	[ -f "$r" ] || continue
	n=$((n + 1))
	name=$(basename "$r" .rec)
	if ! "$P" --replay "$r" --size 640x400 --screenshot "$tmp/$name.png"; then
		echo "FAIL: $r does not replay"
		fail=1
		continue
	fi
	if ! "$B/tools/pngcmp" "$tmp/$name.png" "tests/golden/rec-$name.png"; then
		echo "FAIL: final frame of $r differs from tests/golden/rec-$name.png"
		fail=1
	fi
done
[ "$n" -ge 2 ] || { echo "FAIL: expected at least two recordings, found $n"; fail=1; }
# tamper with the checksum of the 10th command: the replay must name its line
r=tests/recordings/descend.rec
line=$(grep -n '^[a-z_]* [0-9]* [0-9a-f]*$' "$r" | sed -n 10p | cut -d: -f1)
awk -v L="$line" 'NR == L { $3 = "0000000000000000" } { print }' "$r" > "$tmp/bad.rec"
err=$("$P" --replay "$tmp/bad.rec" 2>&1 >/dev/null); rc=$?
if [ "$rc" -ne 1 ] || ! printf '%s' "$err" | grep -q "bad.rec:$line: replay diverged"; then
	echo "FAIL: tampered recording: exit $rc, '$err' (expected line $line)"
	fail=1
fi
# a recording that is not one
printf 'hello\n' > "$tmp/junk.rec"
err=$("$P" --replay "$tmp/junk.rec" 2>&1 >/dev/null); rc=$?
if [ "$rc" -ne 1 ] || ! printf '%s' "$err" | grep -q "not a pirogue recording"; then
	echo "FAIL: junk recording: exit $rc, '$err'"
	fail=1
fi
exit $fail
