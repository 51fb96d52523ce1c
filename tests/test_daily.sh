#!/bin/sh
# The daily game through the program (issue 18, item 5): --daily-seed prints
# the documented seed of a date, the same on every run; the clock is
# PIROGUE_NOW; --daily plays today's game once per state directory; its
# recording replays exactly (and the same on the arm64 and armhf games:
# test_arch_replay.sh).
. tests/checklib.sh
a=$("$P" --daily-seed 2026-12-01) b=$("$P" --daily-seed 2026-12-01) c=$("$P" --daily-seed 2026-12-02)
[ "$a" = 14507367728944865521 ] && [ "$a" = "$b" ] || say "--daily-seed 2026-12-01: '$a', then '$b'"
[ -n "$c" ] && [ "$c" != "$a" ] || say "--daily-seed 2026-12-02: '$c' (2026-12-01: '$a')"
# today by the clock (2026-12-01 00:00:00 UTC, and the day's last second)
[ "$(PIROGUE_NOW=1796083200 "$P" --daily-seed)" = "$a" ] || say "PIROGUE_NOW=1796083200 --daily-seed"
[ "$(PIROGUE_NOW=1796169599 "$P" --daily-seed)" = "$a" ] || say "PIROGUE_NOW=1796169599 --daily-seed"
[ "$(PIROGUE_NOW=1796169600 "$P" --daily-seed)" = "$c" ] || say "PIROGUE_NOW=1796169600 --daily-seed"
# bad input: one line, exit 2
for bad in 2026-02-30 2026-13-01 tomorrow 2026-12-1; do
	err=$("$P" --daily-seed "$bad" 2>&1 >/dev/null); rc=$?
	[ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] && printf '%s' "$err" | grep -q "invalid date '$bad'" ||
		say "--daily-seed $bad: exit $rc, '$err'"
done
err=$(PIROGUE_NOW=soon "$P" --daily-seed 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] && printf '%s' "$err" | grep -q "invalid value 'soon' for PIROGUE_NOW" || say "PIROGUE_NOW=soon: exit $rc, '$err'"
err=$("$P" --daily --seed 3 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] && printf '%s' "$err" | grep -q "cannot be combined" || say "--daily --seed: exit $rc, '$err'"

# once a day per state directory
s="$tmp/state"
printf 'j\nj\nl\n' > "$tmp/walk.keys"
export PIROGUE_NOW=1796083300
"$P" --backend headless --daily --keys "$tmp/walk.keys" --state-dir "$s" --record "$tmp/d1.rec" || say "--daily"
[ "$(awk '$1 == "seed" { print $2 }' "$tmp/d1.rec")" = "$a" ] || say "the daily game's seed is not --daily-seed's"
[ "$(cat "$s/daily")" = "2026-12-01 $a" ] || say "the daily attempt is not noted: '$(cat "$s/daily")'"
err=$("$P" --backend headless --daily --keys "$tmp/walk.keys" --state-dir "$s" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 1 ] && printf '%s' "$err" | grep -q "game is in progress" || say "--daily over the saved game: exit $rc, '$err'"
rm "$s/pirogue.sav"
err=$("$P" --backend headless --daily --keys "$tmp/walk.keys" --state-dir "$s" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 1 ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] &&
	printf '%s' "$err" | grep -q "daily game (2026-12-01) was played here already" || say "a second daily: exit $rc, '$err'"
PIROGUE_NOW=1796169700 "$P" --backend headless --daily --keys "$tmp/walk.keys" --state-dir "$s" || say "the next day's daily"
[ "$(cat "$s/daily")" = "2026-12-02 $c" ] || say "the next day is not noted: '$(cat "$s/daily")'"
unset PIROGUE_NOW

# the daily recording replays exactly here (test_arch_replay.sh replays it
# on the Pi's architectures, built as their packages build them)
r=tests/daily/2026-12-01.rec
[ "$(awk '$1 == "seed" { print $2 }' "$r")" = "$a" ] || say "$r is not the game of 2026-12-01"
"$P" --replay "$r" >/dev/null || say "$r does not replay"
exit $fail
