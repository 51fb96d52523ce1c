#!/bin/sh
# tools/regen-recordings' mkrec lines remake the recordings kept in
# tests/recordings/ (die, descend, items): the same commands with the same
# turns and checksums, and the same game when replayed (its last line). The
# header may be newer (mkrec writes today's recording version; a version-2
# recording is one without stacks, as "stacks never" says in version 3).
# items.rec was made before stacks: without --stacks never the bot's pack
# differs from its third command on.
. tests/checklib.sh
lines=$(grep '^\$B/tools/mkrec ' tools/regen-recordings)
[ -n "$lines" ] || { say "no mkrec line in tools/regen-recordings"; exit 1; }
# body: everything after the header (the commands with turn and checksum)
body() { sed -n '/^# command/,$p' "$1" | sed 1d; }
printf '%s\n' "$lines" | while read -r cmd; do
	rec=${cmd##* }
	name=$(basename "$rec")
	args=${cmd#\$B/tools/mkrec }
	args=${args% *}
	# shellcheck disable=SC2086
	"$B/tools/mkrec" $args "$tmp/$name" 2>"$tmp/err" || { say "mkrec $args: $(cat "$tmp/err")"; continue; }
	body "$rec" >"$tmp/kept"
	body "$tmp/$name" >"$tmp/made"
	cmp -s "$tmp/kept" "$tmp/made" ||
		say "mkrec $args does not remake $rec: first difference $(diff "$tmp/kept" "$tmp/made" | sed -n 2p)"
	a=$("$P" --replay "$rec" 2>&1 | tail -n 1)
	b=$("$P" --replay "$tmp/$name" 2>&1 | tail -n 1)
	[ "$a" = "$b" ] || say "$rec replays to '$a', mkrec $args's to '$b'"
	echo "$fail" >"$tmp/fail"
done
[ "$(cat "$tmp/fail" 2>/dev/null)" = 0 ] || exit 1
echo "mkrec: tools/regen-recordings remakes die.rec, descend.rec and items.rec"
