#!/bin/sh
# --state-wait FILE (PIROGUE_STATE_WAIT; the card image's unit, docs/image.md):
# the game opens its display before the state directory is there, waits for
# FILE (no CPU, no timeout), then reads the state directory's settings and
# save; the title is then exactly the one a start with the state there from
# the first draws, also when those settings change the display (its size,
# a rotation, the text size: it is opened again). The test makes the state
# directory and FILE itself once the game has said it waits, which it says
# after its layout line (the display open): each step waits for the game's
# line on a FIFO, never for a time.
. tests/checklib.sh
unset PIROGUE_CONFIG PIROGUE_STATE_WAIT
export XDG_CONFIG_HOME="$tmp/cfg" # no user settings file
# a saved game, so that the title offers Continue (it needs the state)
mkdir -p "$tmp/saved"
printf 'l\nl\n' >"$tmp/k"
"$P" --backend headless --seed 1 --state-dir "$tmp/saved" --keys "$tmp/k" --screenshot "$tmp/x.png" ||
	say "the saved game's run failed"
[ -f "$tmp/saved/pirogue.sav" ] || say "no save made to continue"

# started STATE SETTINGS ARGS...: the game started with --state-wait on a
# state directory STATE that is not there yet; once it says it waits, STATE
# is made as a copy of the saved one with SETTINGS as its settings file, then
# FILE; sets lines (what it logged) and rc. The screenshot is $tmp/w.png.
started() {
	st=$1 set=$2
	shift 2
	rm -rf "$st" "$tmp/ready" "$tmp/log" "$tmp/w.png"
	mkfifo "$tmp/log"
	"$P" --backend headless --verbose --state-dir "$st" --state-wait "$tmp/ready" --screenshot "$tmp/w.png" "$@" \
		2>"$tmp/log" &
	pid=$!
	exec 3<"$tmp/log"
	lines=
	while IFS= read -r l <&3; do
		lines="$lines$l
"
		case $l in
		*"waiting for $tmp/ready before using the state directory"*)
			[ -e "$st" ] && say "the state directory was there before the game waited"
			cp -a "$tmp/saved" "$st"
			[ -n "$set" ] && printf '%s\n' "$set" >"$st/pirogue.conf"
			: >"$tmp/ready"
			break
			;;
		esac
	done
	lines="$lines$(cat <&3)"
	exec 3<&-
	wait "$pid"
	rc=$?
}
# plain STATE ARGS...: the same game with the state there from the start:
# its screenshot $tmp/n.png
plain() {
	st=$1
	shift
	"$P" --backend headless --state-dir "$st" --screenshot "$tmp/n.png" "$@" 2>/dev/null || say "the plain run failed"
}

# the display opens first: its layout line before the wait's, none of the
# state's settings in force yet; after the wait the title equals the plain
# start's (Continue offered, the settings' palette)
started "$tmp/st1" 'palette = high-contrast'
[ "$rc" = 0 ] || say "a wait then the title: exit $rc: $lines"
first=$(printf '%s' "$lines" | grep -n -m 1 '^pirogue: layout ' | cut -d: -f1)
waited=$(printf '%s' "$lines" | grep -n -m 1 'waiting for' | cut -d: -f1)
[ -n "$first" ] && [ -n "$waited" ] && [ "$first" -lt "$waited" ] ||
	say "the display did not open before the wait (layout line ${first:-none}, wait line ${waited:-none}): $lines"
printf '%s' "$lines" | grep -q 'opening it again' && say "a palette alone opened the display again: $lines"
plain "$tmp/st1"
cmp -s "$tmp/w.png" "$tmp/n.png" || say "the title after the wait differs from the plain start's (palette)"

# settings that change the display: its size, a rotation, the text size.
# Opened again, at the new size; the title as the plain start draws it
for set in 'size = 800x480' 'rotate = 90' 'text-size = larger' 'tiles = on'; do
	started "$tmp/st2" "$set"
	[ "$rc" = 0 ] || say "$set: exit $rc: $lines"
	printf '%s' "$lines" | grep -q 'opening it again' || say "$set: the display was not opened again: $lines"
	plain "$tmp/st2"
	cmp -s "$tmp/w.png" "$tmp/n.png" || say "$set: the title after the wait differs from the plain start's"
done
# the layout lines: 640x400 before the wait, 800x480 after it
started "$tmp/st3" 'size = 800x480'
[ "$(printf '%s' "$lines" | sed -n 's/^pirogue: layout \([0-9x]*\) .*/\1/p' | tr '\n' ' ')" = "640x400 800x480 " ] ||
	say "size = 800x480: the layout lines are not 640x400 then 800x480: $lines"

# the command line still wins over the state's settings file
started "$tmp/st4" 'size = 800x480' --size 320x200
printf '%s' "$lines" | grep -q 'opening it again' && say "--size 320x200 over the state's size: opened again: $lines"
plain "$tmp/st4" --size 320x200
cmp -s "$tmp/w.png" "$tmp/n.png" || say "--size 320x200: the title after the wait differs from the plain start's"

# a bad setting in the state's file, read after the wait: its one line, exit 2
started "$tmp/st5" 'attract = soon'
[ "$rc" = 2 ] || say "a bad setting after the wait: exit $rc, want 2"
printf '%s' "$lines" | grep -q "^pirogue: $tmp/st5/pirogue.conf:1: invalid value 'soon' for attract" ||
	say "a bad setting after the wait: not said: $lines"

# FILE there from the start: no wait, the state read at once
: >"$tmp/ready"
out=$("$P" --backend headless --verbose --state-dir "$tmp/st1" --state-wait "$tmp/ready" --screenshot "$tmp/w.png" 2>&1) ||
	say "FILE there: the run failed: $out"
echo "$out" | grep -q 'waiting for' && say "FILE there from the start: the game waited: $out"
plain "$tmp/st1"
cmp -s "$tmp/w.png" "$tmp/n.png" || say "FILE there from the start: the title differs from the plain start's"

# waitfor TEXT: the lines on fd 3 read until one holds TEXT (false at its end)
waitfor() {
	while IFS= read -r l <&3; do
		case $l in *"$1"*) return 0 ;; esac
	done
	return 1
}

# the variable does what the option does
rm -f "$tmp/ready" "$tmp/log"
mkfifo "$tmp/log"
PIROGUE_STATE_WAIT="$tmp/ready" "$P" --backend headless --state-dir "$tmp/st1" --screenshot "$tmp/w.png" \
	2>"$tmp/log" &
pid=$!
exec 3<"$tmp/log"
waitfor 'waiting for' || say "PIROGUE_STATE_WAIT: the game did not wait"
: >"$tmp/ready"
cat <&3 >/dev/null
exec 3<&-
wait "$pid" || say "PIROGUE_STATE_WAIT: exit $?"

# SIGTERM while it waits: it ends at once, status 0, nothing drawn
rm -f "$tmp/ready" "$tmp/w.png" "$tmp/log"
mkfifo "$tmp/log"
"$P" --backend headless --state-dir "$tmp/st1" --state-wait "$tmp/ready" --screenshot "$tmp/w.png" 2>"$tmp/log" &
pid=$!
exec 3<"$tmp/log"
waitfor 'waiting for' || say "SIGTERM: the game did not wait"
kill -TERM "$pid"
cat <&3 >/dev/null
exec 3<&-
wait "$pid"
rc=$?
[ "$rc" = 0 ] || say "SIGTERM while waiting: exit $rc, want 0"
[ -e "$tmp/w.png" ] && say "SIGTERM while waiting: a frame was drawn"

# a state directory there but not writable (the card's state partition
# remounted read-only): the title says at once that games cannot be saved,
# as for one that cannot be made (an unmounted partition under the
# read-only root), with the wait as without it
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
	asuser() { "$@"; }
fi
ro="$tmp/ro"
mkdir -p "$ro/st" "$ro/mk" "$ro/shots"
chmod 0777 "$ro/shots" # the user's pictures
cp "$tmp/saved/pirogue.sav" "$ro/st/"
chmod 0755 "$tmp" "$ro"
chmod 0555 "$ro/st" "$ro/mk"
out=$(asuser "$P" --backend headless --state-dir "$ro/st" --screenshot "$ro/shots/ro.png" 2>&1)
case $out in *"the state directory $ro/st cannot be written ("*"): games are not saved"*) ;;
*) say "a read-only state directory: not said: $out" ;; esac
# its title is not the plain one (no Continue, a notice): as the one of a
# state directory that cannot be made
asuser "$P" --backend headless --state-dir "$ro/mk/pirogue" --screenshot "$ro/shots/made.png" 2>"$ro/shots/made.log" ||
	say "a state directory that cannot be made: the run failed: $(cat "$ro/shots/made.log")"
mkdir -p "$ro/ok"
"$P" --backend headless --state-dir "$ro/ok" --screenshot "$ro/ok.png" 2>/dev/null || say "a fresh state directory: the run failed"
cmp -s "$ro/shots/ro.png" "$ro/ok.png" && say "a read-only state directory: its title says nothing"
cmp -s "$ro/shots/made.png" "$ro/ok.png" && say "a state directory that cannot be made: its title says nothing"
chmod 0755 "$ro/st" "$ro/mk"

# FILE's folder missing: one line, exit 2, nothing opened
out=$("$P" --backend headless --state-dir "$tmp/st1" --state-wait "$tmp/none/ready" --screenshot "$tmp/w.png" 2>&1)
rc=$?
[ "$rc" = 2 ] && [ "$out" = "pirogue: cannot wait for $tmp/none/ready (--state-wait): No such file or directory (give it a file in an existing folder)" ] ||
	say "a missing folder: exit $rc: $out"
out=$("$P" --backend headless --state-wait '' 2>&1)
[ $? = 2 ] || say "an empty --state-wait: not refused: $out"
exit $fail
