#!/bin/sh
# Saving through the program: the save written on quitting, --check-save,
# Continue going on exactly, a damaged save set aside with its reason, and
# every fixture in tests/saves/ loading or refused as its .expect says (the
# crafted ones of tests/saves/crafted/ too, each still what
# build/tools/craft-saves writes).
. tests/checklib.sh

# fixtures of every save format version
n=0
for f in tests/saves/v*.sav; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	out=$("$P" --check-save "$f" 2>&1); rc=$?
	want=$(cat "${f%.sav}.expect")
	case "$want" in ok*) wrc=0 ;; *) wrc=1 ;; esac
	[ "$out" = "$want" ] && [ "$rc" -eq "$wrc" ] || say "$f: '$out' (exit $rc), expected '$want' (exit $wrc)"
done
[ "$n" -ge 1 ] || say "no save fixtures in tests/saves"

# the crafted saves (tests/savecraft.h): made again they are the same bytes
# (else the format or the game changed: tools/regen-save-fixture rewrites
# them), and each loads or is refused with the one line its .expect holds
if "$B/tools/craft-saves" "$tmp/crafted" > /dev/null; then
	for f in "$tmp"/crafted/*.sav; do
		cmp -s "$f" "tests/saves/crafted/${f##*/}" ||
			say "tests/saves/crafted/${f##*/} is not what $B/tools/craft-saves writes now: run tools/regen-save-fixture"
	done
else
	say "$B/tools/craft-saves failed"
fi
n=0
for f in tests/saves/crafted/*.sav; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	[ -f "$tmp/crafted/${f##*/}" ] || say "$f: no longer crafted (tests/savecraft.h): run tools/regen-save-fixture"
	out=$("$P" --check-save "$f" 2>&1); rc=$?
	want=$(cat "${f%.sav}.expect")
	case "$want" in ok*) wrc=0 ;; *) wrc=1 ;; esac
	[ "$out" = "$want" ] && [ "$rc" -eq "$wrc" ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] ||
		say "$f: '$out' (exit $rc), expected '$want' (exit $wrc)"
done
[ "$n" -ge 10 ] || say "only $n crafted saves in tests/saves/crafted"

# a crafted save in the state directory: refused at start with one line,
# kept aside, no Continue; one that loads plays on and saves again
cs="$tmp/crafted-state"
mkdir -p "$cs" && cp tests/saves/crafted/player-item.sav "$cs/pirogue.sav"
: > "$tmp/none.keys"
err=$("$P" --backend headless --keys "$tmp/none.keys" --state-dir "$cs" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
	printf '%s' "$err" | grep -q "the player (entity [0-9]*) also holds an item.*; kept as pirogue.sav.bad-" ||
	say "a crafted save at start: '$err' (exit $rc)"
ls "$cs" | grep -q '^pirogue.sav.bad-' && [ ! -e "$cs/pirogue.sav" ] || say "the crafted save was not kept aside"
rm -rf "$cs" && mkdir -p "$cs" && cp tests/saves/crafted/turn-at-limit.sav "$cs/pirogue.sav"
printf 'enter\n.\n.\n.\nQ\n' > "$tmp/cont-wait.keys"
"$P" --backend headless --keys "$tmp/cont-wait.keys" --state-dir "$cs" 2>/dev/null || say "continue at the last turn"
case "$("$P" --check-save --state-dir "$cs")" in "ok turn 1073741823 "*) ;; *) say "the game at the last turn: '$("$P" --check-save --state-dir "$cs")'" ;; esac

# a scripted game saves on quitting, into --state-dir only
s="$tmp/state"
HOME="$tmp/home" "$P" --backend headless --seed 7 --keys tests/frames/walk.keys --state-dir "$s" || say "scripted game"
[ ! -e "$tmp/home" ] || say "a scripted run touched HOME"
line=$("$P" --check-save --state-dir "$s"); rc=$?
case "$line" in "ok turn "[0-9]*" depth 1 checksum "[0-9a-f]*) ;; *) say "check-save: '$line'" ;; esac
[ "$rc" -eq 0 ] || say "check-save exit $rc"
[ "$("$P" --check-save "$s/pirogue.sav")" = "$line" ] || say "check-save FILE differs"

# Continue (first and highlighted) goes on exactly: walk, quit, continue and
# walk again == walk twice without stopping
printf 'enter\n' > "$tmp/continue.keys"
"$P" --backend headless --keys "$tmp/continue.keys" --state-dir "$s" || say "continue"
[ "$("$P" --check-save --state-dir "$s")" = "$line" ] || say "continue and quit changed the game"
{ echo enter; cat tests/frames/walk.keys; } > "$tmp/continue-walk.keys"
"$P" --backend headless --keys "$tmp/continue-walk.keys" --state-dir "$s" || say "continue and walk"
{ cat tests/frames/walk.keys; cat tests/frames/walk.keys; } > "$tmp/walk2.keys"
"$P" --backend headless --seed 7 --keys "$tmp/walk2.keys" --state-dir "$tmp/straight" || say "straight"
a=$("$P" --check-save --state-dir "$s") b=$("$P" --check-save --state-dir "$tmp/straight")
[ "$a" = "$b" ] || say "continued game '$a' differs from the straight one '$b'"

# --record of a continued game records it from its seed: its replay ends
# where the save is, and prints one line
c="$tmp/cont"
"$P" --backend headless --seed 6 --keys tests/recordings/continued-1.keys --state-dir "$c" || say "continued, run 1"
"$P" --backend headless --keys tests/recordings/continued-2.keys --state-dir "$c" --record "$tmp/cont.rec" ||
	say "continued, run 2"
want=$("$P" --check-save --state-dir "$c" | sed 's/^ok turn \([0-9]*\) depth \([0-9]*\) checksum \([0-9a-f]*\)$/turn \1 depth \2 checksum \3/')
out=$("$P" --replay "$tmp/cont.rec"); rc=$?
case "$out" in "replayed "[0-9]*" commands: $want") ;; *) say "replay of a continued game: '$out' (exit $rc), save: '$want'" ;; esac
# cut at the last line end: no end line, refused
sed '$d' "$tmp/cont.rec" > "$tmp/cut.rec"
err=$("$P" --replay "$tmp/cut.rec" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 1 ] && printf '%s' "$err" | grep -q "incomplete recording: no end line" || say "cut recording: '$err' exit $rc"

# a damaged save: one line why, renamed aside, the title offers no Continue
head -c 3000 "$s/pirogue.sav" > "$tmp/cut" && mv "$tmp/cut" "$s/pirogue.sav"
out=$("$P" --check-save --state-dir "$s"); rc=$?
[ "$rc" -eq 1 ] && printf '%s' "$out" | grep -q "pirogue.sav: the save is cut short" || say "check-save of a cut save: '$out' exit $rc"
: > "$tmp/none.keys"
err=$("$P" --backend headless --keys "$tmp/none.keys" --state-dir "$s" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 0 ] || say "a damaged save: exit $rc"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && printf '%s' "$err" | grep -q "cut short.*; kept as pirogue.sav.bad-" ||
	say "a damaged save: '$err'"
[ ! -e "$s/pirogue.sav" ] && ls "$s" | grep -q '^pirogue.sav.bad-' || say "the damaged save was not kept aside"

# a death through the program (tests/recordings/die.rec given as keys): the
# morgue file and its recording (which replays to the same end as die.rec),
# the score, and no save left
r=tests/recordings/die.rec
awk 'BEGIN { m["move_n"] = "k"; m["move_s"] = "j"; m["move_e"] = "l"; m["move_w"] = "h"; m["move_ne"] = "u";
	m["move_nw"] = "y"; m["move_se"] = "n"; m["move_sw"] = "b"; m["wait"] = "."; m["descend"] = ">"; m["ascend"] = "<" }
	/^(#|seed|mapgen|end|pirogue-recording)/ || NF == 0 { next }
	($1 in m) { print m[$1]; next } { bad = 1 } END { exit bad }' "$r" > "$tmp/die.keys"
if [ $? -ne 0 ]; then
	echo "note: $r has commands without a plain key; the death check through keys is left out"
else
	d="$tmp/dead"
	seed=$(awk '$1 == "seed" { print $2 }' "$r")
	"$P" --backend headless --seed "$seed" --keys "$tmp/die.keys" --state-dir "$d" || say "the game of die.rec through keys"
	[ ! -e "$d/pirogue.sav" ] || say "a dead game's save is still there"
	ls "$d"/morgue/morgue-*-*.txt >/dev/null 2>&1 || say "no morgue file after death"
	grep -q '^Fate:      killed by ' "$d"/morgue/morgue-*.txt 2>/dev/null || say "the morgue file does not say how"
	a=$("$P" --replay "$d"/morgue/morgue-*.rec) b=$("$P" --replay "$r")
	[ -n "$a" ] && [ "$a" = "$b" ] || say "the morgue's recording replays to '$a', die.rec to '$b'"
	# the table's entry: depth, turns and seed of that game
	want=$(echo "$b" | sed 's/.*turn \([0-9]*\) depth \([0-9]*\).*/\2 \1/')
	[ "$(sed -n 2p "$d/scores" 2>/dev/null | cut -d' ' -f2,3,5)" = "$want $seed" ] ||
		say "the high score: '$(sed -n 2p "$d/scores" 2>/dev/null)', want depth, turns, seed '$want $seed'"
fi

# no save: one line, exit 1; a foreign file: its reason
out=$("$P" --check-save --state-dir "$tmp/empty"); rc=$?
[ "$rc" -eq 1 ] && [ "$out" = "there is no save ($tmp/empty/pirogue.sav)" ] || say "no save: '$out' exit $rc"
out=$("$P" --check-save tests/saves/README.md); rc=$?
[ "$rc" -eq 1 ] && printf '%s' "$out" | grep -q "not a pirogue save" || say "foreign file: '$out' exit $rc"
# not a file: a device is named as one (it was "Is a directory"); a FIFO is
# refused without waiting for a writer (tests/test_save.c checks that with
# no risk of hanging); a sparse 2 GB file is refused from its first bytes
out=$("$P" --check-save /dev/zero); rc=$?
[ "$rc" -eq 1 ] && [ "$out" = "/dev/zero: the save is a character device, not a file" ] || say "/dev/zero: '$out' exit $rc"
if truncate -s 2G "$tmp/giant.sav" 2>/dev/null; then
	out=$("$P" --check-save "$tmp/giant.sav"); rc=$?
	[ "$rc" -eq 1 ] && printf '%s' "$out" | grep -q "not a pirogue save" || say "a 2 GB sparse save: '$out' exit $rc"
fi

# a state directory that cannot be made: one line naming it and what is in
# the way, the game played unsaved (the title says so: test_session.c)
: > "$tmp/file"
ln -s nowhere "$tmp/dangling"
printf 'enter\n.\nQ\n' > "$tmp/play.keys"
for d in "$tmp/file/state" "$tmp/dangling"; do
	err=$("$P" --backend headless --keys "$tmp/play.keys" --state-dir "$d" 2>&1 >/dev/null); rc=$?
	case "$d" in *file*) want="$tmp/file is not a directory" ;; *) want="it is a symbolic link to nothing" ;; esac
	[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
		[ "$err" = "pirogue: cannot create the state directory $d: $want (give --state-dir a writable directory)" ] ||
		say "state directory $d: '$err' (exit $rc)"
done
exit $fail
