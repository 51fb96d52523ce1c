#!/bin/sh
# The automatic look (issue 17, docs/fonts.md): for every screen size a
# Pi meets, landscape and turned, the --verbose "layout" line says what was
# chosen; the console fills the screen (at most 3% of the width and of the
# height unused, centred), text cells have a monospace font's proportions
# and map cells are square and two text cells wide (from 480x320 up), and
# on screens 720 rows or more a text cell is at least 1/45 of the height;
# --tiles on finds a shipped sheet of its map cells at every one.
. tests/checklib.sh
check() { # SIZE [ROTATE]
	rot=${2:-0}
	# with pictures: every map cell the choice makes has a shipped sheet
	# (else --verbose says "no tile sheet of WxH tiles")
	out=$("$P" --backend headless --size "$1" --rotate "$rot" --tiles on --verbose --seed 3 --state-dir "$tmp/st" \
		--screenshot "$tmp/shot.png" 2>&1)
	line=$(printf '%s\n' "$out" | sed -n 's/^pirogue: layout //p')
	[ -n "$line" ] || { say "$1 rotated $rot: no layout line"; return; }
	printf '%s\n' "$out" | grep "no tile sheet" && say "$1 rotated $rot: --tiles on has no sheet of its map cells"
	# shellcheck disable=SC2086
	set -- $line
	# WxH text WxH map WxH cells CxR margin L T R B
	[ "$#" -eq 12 ] && [ "$2" = text ] && [ "$4" = map ] && [ "$6" = cells ] && [ "$8" = margin ] ||
		{ say "layout line not in its form: $line"; return; }
	sw=${1%x*} sh=${1#*x} tw=${3%x*} th=${3#*x} mw=${5%x*} mh=${5#*x} cols=${7%x*} rows=${7#*x}
	l=$9 t=${10} r=${11} b=${12}
	[ $((cols * tw + l + r)) -eq "$sw" ] && [ $((rows * th + t + b)) -eq "$sh" ] ||
		say "$line: the cells and margins do not add up to the surface"
	[ $(((l + r) * 100)) -le $((3 * sw)) ] && [ $(((t + b) * 100)) -le $((3 * sh)) ] ||
		say "$line: more than 3% of the screen unused"
	[ $((l - r)) -le 1 ] && [ $((r - l)) -le 1 ] && [ $((t - b)) -le 1 ] && [ $((b - t)) -le 1 ] ||
		say "$line: not centred"
	[ "$cols" -ge 40 ] && [ "$rows" -ge 24 ] || say "$line: fewer cells than the screens need (40x24)"
	if [ "$sw" -ge 480 ] && [ "$sh" -ge 320 ] || [ "$sw" -ge 320 ] && [ "$sh" -ge 480 ]; then
		[ $((tw * 100)) -ge $((45 * th)) ] && [ $((tw * 100)) -le $((65 * th)) ] ||
			say "$line: text cells not of a monospace font's proportions"
		[ "$mw" -eq $((2 * tw)) ] && [ "$mh" -eq "$th" ] && [ "$mw" -eq "$mh" ] ||
			say "$line: map cells not square and two text cells wide"
	fi
	if [ "$sh" -ge 720 ]; then
		[ $((th * 45)) -ge "$sh" ] || say "$line: text cells under 1/45 of the height"
	fi
}
for size in 3840x2160 1920x1080 1366x768 1280x720 1024x600 800x480 480x320 320x240; do
	check "$size"
	check "$size" 90
	check "$size" 270
done
# the issue's own line, exactly
"$P" --backend headless --size 1920x1080 --verbose --seed 3 --state-dir "$tmp/st" --screenshot "$tmp/shot.png" \
	2>&1 | grep -qx 'pirogue: layout 1920x1080 text 12x24 map 24x24 cells 160x45 margin 0 0 0 0' ||
	say "1920x1080: not 'layout 1920x1080 text 12x24 map 24x24 cells 160x45 margin 0 0 0 0'"
# --font and --scale still decide: the font's own cells, no map sheet
line=$("$P" --backend headless --size 1920x1080 --font fonts/cp437-8x16.png --scale 2 --verbose --seed 3 \
	--state-dir "$tmp/st" --screenshot "$tmp/shot.png" 2>&1 | sed -n 's/^pirogue: layout //p')
[ "$line" = "1920x1080 text 16x32 map 16x32 cells 120x33 margin 0 12 0 12" ] || say "--font --scale: $line"
line=$("$P" --backend headless --size 1920x1080 --scale 1 --verbose --seed 3 --state-dir "$tmp/st" \
	--screenshot "$tmp/shot.png" 2>&1 | sed -n 's/^pirogue: layout //p')
[ "$line" = "1920x1080 text 12x24 map 24x24 cells 160x45 margin 0 0 0 0" ] || say "--scale 1: $line"
exit $fail
