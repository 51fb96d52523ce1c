#!/bin/sh
# The command line: --help, --version, and one clear line + exit 2 for every
# unknown option or bad value.
. tests/checklib.sh
check_usage() { # expected-exit-code grep-pattern args...
	want=$1; pat=$2; shift 2
	err=$("$P" "$@" 2>&1 >/dev/null); rc=$?
	lines=$(printf '%s\n' "$err" | grep -c .)
	if [ "$rc" -ne "$want" ] || ! printf '%s' "$err" | grep -q -- "$pat" || [ "$lines" -ne 1 ]; then
		echo "FAIL: pirogue $*: exit $rc (want $want), stderr: $err"
		fail=1
	fi
}
"$P" --help | grep -q -- '--backend' || { echo "FAIL: --help does not list --backend"; fail=1; }
for opt in --seed --mapgen --record --replay --keys --font --font-layout --scale --rotate --size --screenshot \
	--card --connector --mode --fb --vt --list-displays --list-inputs --gamepad-db; do
	"$P" --help | grep -q -- "$opt" || { echo "FAIL: --help does not list $opt"; fail=1; }
done
"$P" --version | grep -q '^pirogue [0-9]' || { echo "FAIL: --version"; fail=1; }
check_usage 2 "unknown option '--frobnicate'" --frobnicate
check_usage 2 "unexpected argument 'extra'" extra
check_usage 2 "'--scale'" --scale
check_usage 2 "invalid value '9' for --scale" --scale 9
# an empty file or device is said as such (it was "pirogue: : cannot open
# font: ..."), from the command line and a settings file
for opt in font card fb gamepad-db keys record screenshot connector; do
	check_usage 2 "invalid value '' for --$opt: expected a" --$opt ''
done
printf 'font =\n' > "$tmp/empty.conf"
check_usage 2 "empty.conf:1: invalid value '' for font: expected a file name" --config "$tmp/empty.conf"
check_usage 2 "invalid value 'x' for --scale" --scale x
check_usage 2 "invalid value '45' for --rotate" --rotate 45
check_usage 2 "invalid value '640' for --size" --size 640
check_usage 2 "invalid value 'sdl' for --backend" --backend sdl
check_usage 2 "invalid value '-3' for --seed" --seed -3
check_usage 2 "invalid value 'maze' for --mapgen" --mapgen maze
check_usage 2 "invalid value '0' for --vt" --vt 0
check_usage 2 "invalid value '1280x' for --mode" --mode 1280x
check_usage 2 "invalid value 'x' for --font-layout" --font-layout x
check_usage 2 "invalid value 'potions,gold' for --auto-pickup" --auto-pickup potions,gold
check_usage 2 "invalid value '' for --auto-pickup" --auto-pickup ''
printf 'auto-pickup = potions,,scrolls\n' > "$tmp/pickup.conf"
check_usage 2 "pickup.conf:1: invalid value 'potions,,scrolls' for auto-pickup" --config "$tmp/pickup.conf"
printf 'auto-pickup = potions,weapons\n' > "$tmp/pickup.conf"
"$P" --config "$tmp/pickup.conf" --auto-pickup none --backend headless --seed 1 --keys /dev/null --state-dir "$tmp/pk" ||
	{ echo "FAIL: auto-pickup in a settings file and on the command line refused"; fail=1; }
printf 'up\nfrobnicate\n' > "$tmp/bad.keys"
check_usage 2 "bad.keys:2: unknown key 'frobnicate'" --backend headless --seed 1 --keys "$tmp/bad.keys"
check_usage 1 "cannot read keys file" --backend headless --keys "$tmp/none.keys"
# --help names every key a keys file takes, as its error lists them
# (kp0..kp9, f1..f12 and the gamepad's buttons were missing from both)
names=$("$P" --backend headless --seed 1 --keys "$tmp/bad.keys" 2>&1 | sed -n 's/.*(a character or one of: \([^)]*\)).*/\1/p' |
	sed 's/; gamepad buttons://')
help=$("$P" --help)
for w in $names kp0..kp9 f1..f12 pad_a pad_thumbr pad_downright; do
	printf '%s\n' "$help" | grep -qwF -- "$w" || { echo "FAIL: --help does not list the key name '$w'"; fail=1; }
	printf '%s\n' "$names" | grep -qwF -- "$w" || { echo "FAIL: the keys file's error does not list '$w'"; fail=1; }
done
[ "$(printf '%s\n' $names | wc -l)" -gt 30 ] || { echo "FAIL: the keys file's error lists few names: $names"; fail=1; }
# a bad keys file changes nothing in the state directory: the game in
# progress there stays (it was kept aside by --seed, and a save of the
# unplayed new game written in its place, before the file was read)
printf 'l\nl\n' > "$tmp/good.keys"
"$P" --backend headless --seed 2 --state-dir "$tmp/st" --keys "$tmp/good.keys" 2>/dev/null
cp "$tmp/st/pirogue.sav" "$tmp/before.sav"
check_usage 2 "bad.keys:2: unknown key 'frobnicate'" --backend headless --seed 1 --state-dir "$tmp/st" --keys "$tmp/bad.keys"
cmp -s "$tmp/st/pirogue.sav" "$tmp/before.sav" && [ -z "$(ls "$tmp/st" | grep old-)" ] ||
	{ echo "FAIL: a bad keys file with --seed changed the state directory: $(ls "$tmp/st")"; fail=1; }
# issue 11, defect 13: a key after 300 blanks, and a NUL byte, are errors, not keys
{ printf '%300s' ''; printf 'c\n'; } > "$tmp/long.keys"
check_usage 2 "long.keys:1: line too long" --backend headless --seed 1 --keys "$tmp/long.keys"
printf 'l\nj\000zz\n' > "$tmp/nul.keys"
check_usage 2 "nul.keys:2: the line holds a NUL byte" --backend headless --seed 1 --keys "$tmp/nul.keys"
printf 'scale = 2\nfont = a\000b\n' > "$tmp/nul.conf"
check_usage 2 "nul.conf:2: the line holds a NUL byte" --config "$tmp/nul.conf" --backend headless
printf 'not a font' > "$tmp/font.png"
check_usage 2 "font.png" --backend headless --font "$tmp/font.png"
check_usage 2 "none.png: cannot open font" --backend headless --font "$tmp/none.png"
# the terminal backend loads no font, but a bad --font is refused there too
check_usage 2 "font.png" --backend term --font "$tmp/font.png"
# --tiles on|off|FILE (issue 17): a file that is not a tile sheet, from the
# command line or a settings file, on any backend: one line, exit 2
check_usage 2 "invalid value '' for --tiles: expected on, off or a tile sheet" --tiles ''
check_usage 2 "font.png: not a tile sheet.*give --tiles on, off or a tile sheet" --backend headless --tiles "$tmp/font.png"
check_usage 2 "none.png: cannot open font" --backend headless --tiles "$tmp/none.png"
printf 'tiles = %s\n' "$tmp/font.png" > "$tmp/tiles.conf"
check_usage 2 "font.png: not a tile sheet.*tiles = at .*tiles.conf:1" --config "$tmp/tiles.conf" --backend headless
"$P" --help | grep -q -- '--tiles on|off|FILE' || { echo "FAIL: --help does not list --tiles"; fail=1; }
for v in on off tiles/dcss-24.png; do
	"$P" --backend headless --size 1920x1080 --tiles "$v" --screenshot "$tmp/t-$(basename "$v").png" ||
		{ echo "FAIL: --tiles $v"; fail=1; }
done
# a sheet of other tiles than the map cells: glyphs, said in one line
err=$("$P" --backend headless --seed 1 --size 1920x1080 --tiles tiles/dcss-16.png --screenshot "$tmp/t16.png" 2>&1) ||
	{ echo "FAIL: --tiles of another size: $err"; fail=1; }
printf '%s' "$err" | grep -q "dcss-16.png: its tiles are 16×16, this display's map cells 24×24: drawing glyphs" ||
	{ echo "FAIL: --tiles of another size said: $err"; fail=1; }
# 320x240's map cells are 8x9: --tiles on draws them in pictures from the
# shipped 8x9 sheet (it kept glyphs: the sheets were all square), and says
# nothing about a missing sheet
err=$("$P" --backend headless --seed 1 --size 320x240 --tiles on --verbose --screenshot "$tmp/t320.png" 2>&1) ||
	{ echo "FAIL: --tiles on at 320x240: $err"; fail=1; }
printf '%s' "$err" | grep -q "no tile sheet" && { echo "FAIL: --tiles on at 320x240 said: $err"; fail=1; }
"$P" --backend headless --seed 1 --size 320x240 --tiles off --screenshot "$tmp/t320-off.png" ||
	{ echo "FAIL: --tiles off at 320x240"; fail=1; }
cmp -s "$tmp/t320.png" "$tmp/t320-off.png" && { echo "FAIL: --tiles on at 320x240 drew glyphs"; fail=1; }
# a sheet of tiles that are not square says their size in its name (a
# user's own, as the shipped one): the same pictures; without it, refused
"$P" --backend headless --seed 1 --size 320x240 --tiles tiles/dcss-8x9.png --screenshot "$tmp/t320-file.png" ||
	{ echo "FAIL: --tiles tiles/dcss-8x9.png at 320x240"; fail=1; }
cmp -s "$tmp/t320.png" "$tmp/t320-file.png" || { echo "FAIL: --tiles tiles/dcss-8x9.png drew other pictures"; fail=1; }
cp tiles/dcss-8x9.png "$tmp/mine.png"
check_usage 2 "mine.png: image is 128×18 pixels, not a tile sheet .*tiles that are not square need their size in the file name" \
	--backend headless --size 320x240 --tiles "$tmp/mine.png"
# --tiles on where no shipped sheet fits the map cells (here 8x9, its sheet
# not installed: a copy of the binary in a data directory of its own, as
# the shipped files are looked for beside it too): glyphs, and --verbose
# says so
mkdir "$tmp/data" "$tmp/data/tiles"
ln -s "$PWD/fonts" "$tmp/data/fonts"
cp tiles/dcss-*[0-9].png "$tmp/data/tiles/"
rm "$tmp/data/tiles/dcss-8x9.png"
cp "$P" "$tmp/data/pirogue"
err=$(PIROGUE_DATA_DIR=$tmp/data "$tmp/data/pirogue" --backend headless --seed 1 --size 320x240 --tiles on \
	--verbose --screenshot "$tmp/t320-none.png" 2>&1) || { echo "FAIL: --tiles on without the 8x9 sheet: $err"; fail=1; }
printf '%s' "$err" | grep -q "no tile sheet of 8×9 tiles (tools/make-tiles builds the shipped sizes): drawing glyphs" ||
	{ echo "FAIL: --tiles on without the 8x9 sheet did not say it keeps glyphs: $err"; fail=1; }
cmp -s "$tmp/t320-none.png" "$tmp/t320-off.png" || { echo "FAIL: --tiles on without the 8x9 sheet drew pictures"; fail=1; }
# headless with no keys draws the first frame and exits 0
"$P" --backend headless --screenshot "$tmp/t.png" || { echo "FAIL: headless title screenshot"; fail=1; }
[ -s "$tmp/t.png" ] || { echo "FAIL: no screenshot written"; fail=1; }
check_usage 1 "nodir" --backend headless --screenshot "$tmp/nodir/t.png"
# issue 11, defect 2: with nothing to show the game on, the automatic choice
# is not a silent headless run: one line why, exit 1
check_usage 1 "nothing can show the game: .*$tmp/card9 cannot be opened.*$tmp/fb9 cannot be opened" \
	--seed 1 --vt 1 --card "$tmp/card9" --fb "$tmp/fb9" </dev/null
# a card the user may not open: the video group, not "taken"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
	asuser() { "$@"; }
fi
: > "$tmp/card0"
chmod 000 "$tmp/card0"
if asuser test -r "$tmp/card0"; then
	echo "SKIP: an unreadable card cannot be made here (running as root without setpriv)"
else
	P0=$P
	err=$(asuser "$P0" --backend drm --card "$tmp/card0" 2>&1 >/dev/null </dev/null); rc=$?
	if ! "$P0" --list-displays | grep -q '^Backends built in:.* drm'; then
		: # drm not built in
	elif [ "$rc" -ne 1 ] || ! printf '%s' "$err" | grep -q "card0 cannot be opened (Permission denied): add the user to the video group" ||
		printf '%s' "$err" | grep -q "taken" || [ "$(printf '%s\n' "$err" | grep -c .)" -ne 1 ]; then
		echo "FAIL: --backend drm with an unreadable card: exit $rc, '$err'"
		fail=1
	fi
	err=$(asuser "$P0" --seed 1 --card "$tmp/card0" --fb "$tmp/fb9" 2>&1 >/dev/null </dev/null); rc=$?
	if [ "$rc" -ne 1 ] || ! printf '%s' "$err" | grep -q "nothing can show the game.*video group" ||
		[ "$(printf '%s\n' "$err" | grep -c .)" -ne 1 ]; then
		echo "FAIL: automatic choice with an unreadable card: exit $rc, '$err'"
		fail=1
	fi
fi
# settings files: 'setting = value', the same checks, errors name file:line
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $3 * 256 + $4 "x" $7 * 256 + $8 }'; }
printf '# a comment\n[pirogue]\nsize = 320x240  # small (an inline comment)\nmapgen = overlap\nverbose = no\n' > "$tmp/good.conf"
"$P" --config "$tmp/good.conf" --backend headless --screenshot "$tmp/c1.png" &&
	[ "$(png_size "$tmp/c1.png")" = 320x240 ] || { echo "FAIL: size from --config not used"; fail=1; }
"$P" --config "$tmp/good.conf" --size 200x300 --backend headless --screenshot "$tmp/c2.png" &&
	[ "$(png_size "$tmp/c2.png")" = 200x300 ] || { echo "FAIL: the command line does not win over the settings file"; fail=1; }
printf 'size = 320x240\ncolour = red\n' > "$tmp/bad1.conf"
check_usage 2 "bad1.conf:2: unknown setting 'colour'" --config "$tmp/bad1.conf"
printf 'scale = 9\n' > "$tmp/bad2.conf"
check_usage 2 "bad2.conf:1: invalid value '9' for scale" --config "$tmp/bad2.conf"
printf 'scale 2\n' > "$tmp/bad3.conf"
check_usage 2 "bad3.conf:1: expected 'setting = value'" --config "$tmp/bad3.conf"
printf 'seed = 4\n' > "$tmp/bad4.conf"
check_usage 2 "bad4.conf:1: unknown setting 'seed'" --config "$tmp/bad4.conf"
check_usage 2 "settings file $tmp/none.conf does not exist" --config "$tmp/none.conf"
# the per-user file is read from $XDG_CONFIG_HOME
mkdir -p "$tmp/xdg/pirogue"
printf '[keys]\n' > "$tmp/xdg/pirogue/pirogue.conf"
err=$(env -u PIROGUE_CONFIG XDG_CONFIG_HOME="$tmp/xdg" "$P" --backend headless 2>&1 >/dev/null); rc=$?
if [ "$rc" -ne 2 ] || ! printf '%s' "$err" | grep -q "pirogue.conf:1: unknown section '\[keys\]'"; then
	echo "FAIL: XDG settings file: exit $rc, '$err'"
	fail=1
fi
exit $fail
