#!/bin/sh
# The options screen's rows (README "Options"), each changed with the
# keyboard alone and with the pad alone, in force at once in the run that
# changed it, written to the state directory's settings file, and in force
# again after a restart with the same state directory.
. tests/checklib.sh
# run STATE KEYS [ARGS...]: a game of seed 6 (it starts on the play screen;
# its first o walks to a potion and picks it up) played from KEYS
run() {
	st=$1 keys=$2
	shift 2
	"$P" --backend headless --size 800x480 --seed 6 --state-dir "$st" --keys "$keys" "$@" 2>"$tmp/err" ||
		say "run of $keys in $st failed: $(cat "$tmp/err")"
	grep -v 'kept as pirogue.sav.old' "$tmp/err" >&2
}
pickups() { grep -c '^pickup ' "$1"; }

# auto-pickup: nothing (one step back from potions and scrolls)
printf 'o\n' >"$tmp/o.keys"
run "$tmp/fresh" "$tmp/o.keys" --record "$tmp/fresh.rec"
[ "$(pickups "$tmp/fresh.rec")" -ge 1 ] || say "auto-pickup by default picked nothing up (seed 6 has a potion)"
printf 'O\ndown\ndown\ndown\nleft\nescape\no\n' >"$tmp/kb.keys"
printf 'pad_thumbl\npad_down\npad_down\npad_down\npad_left\npad_b\npad_r2\n' >"$tmp/pad.keys"
for dev in kb pad; do
	st="$tmp/$dev"
	run "$st" "$tmp/$dev.keys" --record "$tmp/$dev.rec"
	[ "$(pickups "$tmp/$dev.rec")" -eq 0 ] || say "$dev: auto-pickup set to nothing still picked up in that run"
	[ "$(grep -v '^#' "$st/pirogue.conf")" = "auto-pickup = none" ] ||
		say "$dev: the state file after the change: $(cat "$st/pirogue.conf")"
	run "$st" "$tmp/o.keys" --record "$tmp/$dev-again.rec"
	[ "$(pickups "$tmp/$dev-again.rec")" -eq 0 ] || say "$dev: auto-pickup nothing forgotten after a restart"
done

# colours: high contrast (the picture after the change is the one a run
# started with --palette high-contrast shows, at once and after a restart)
printf 'O\ndown\ndown\ndown\ndown\n' >"$tmp/at.keys"
printf 'pad_thumbl\npad_down\npad_down\npad_down\npad_down\n' >"$tmp/pad-at.keys"
run "$tmp/given" "$tmp/at.keys" --palette high-contrast --screenshot "$tmp/kbc-given.png"
run "$tmp/given" "$tmp/pad-at.keys" --palette high-contrast --screenshot "$tmp/padc-given.png"
run "$tmp/plain" "$tmp/at.keys" --screenshot "$tmp/plain.png"
cmp -s "$tmp/kbc-given.png" "$tmp/plain.png" && say "--palette high-contrast changes nothing on the screen"
printf 'O\ndown\ndown\ndown\ndown\nright\n' >"$tmp/kbc.keys"
printf 'pad_thumbl\npad_down\npad_down\npad_down\npad_down\npad_a\n' >"$tmp/padc.keys"
for dev in kbc padc; do
	st="$tmp/$dev"
	run "$st" "$tmp/$dev.keys" --screenshot "$tmp/$dev.png"
	cmp -s "$tmp/$dev.png" "$tmp/$dev-given.png" || say "$dev: the colours row did not change the palette at once"
	[ "$(grep -v '^#' "$st/pirogue.conf")" = "palette = high-contrast" ] ||
		say "$dev: the state file after the change: $(cat "$st/pirogue.conf")"
	[ $dev = kbc ] && again="$tmp/at.keys" || again="$tmp/pad-at.keys"
	run "$st" "$again" --screenshot "$tmp/$dev-again.png"
	cmp -s "$tmp/$dev-again.png" "$tmp/$dev-given.png" || say "$dev: high contrast forgotten after a restart"
done
# map look (issue 17): pictures; the screen after the change is the one a
# run started with --tiles on shows, at once and after a restart; with
# --font the row says the map keeps glyphs and nothing is written
down6='down\ndown\ndown\ndown\ndown\ndown\n'
pdown6='pad_down\npad_down\npad_down\npad_down\npad_down\npad_down\n'
printf "O\n$down6" >"$tmp/atl.keys"
printf "pad_thumbl\n$pdown6" >"$tmp/pad-atl.keys"
run "$tmp/givenl" "$tmp/atl.keys" --tiles on --screenshot "$tmp/kbl-given.png"
run "$tmp/givenl" "$tmp/pad-atl.keys" --tiles on --screenshot "$tmp/padl-given.png"
run "$tmp/plainl" "$tmp/atl.keys" --screenshot "$tmp/plainl.png"
cmp -s "$tmp/kbl-given.png" "$tmp/plainl.png" && say "--tiles on changes nothing on the screen"
printf "O\n${down6}right\n" >"$tmp/kbl.keys"
printf "pad_thumbl\n${pdown6}pad_a\n" >"$tmp/padl.keys"
for dev in kbl padl; do
	st="$tmp/$dev"
	run "$st" "$tmp/$dev.keys" --screenshot "$tmp/$dev.png"
	cmp -s "$tmp/$dev.png" "$tmp/$dev-given.png" || say "$dev: the map look row did not draw pictures at once"
	[ "$(grep -v '^#' "$st/pirogue.conf")" = "tiles = on" ] ||
		say "$dev: the state file after the change: $(cat "$st/pirogue.conf")"
	[ $dev = kbl ] && again="$tmp/atl.keys" || again="$tmp/pad-atl.keys"
	run "$st" "$again" --screenshot "$tmp/$dev-again.png"
	cmp -s "$tmp/$dev-again.png" "$tmp/$dev-given.png" || say "$dev: pictures forgotten after a restart"
	# and back to glyphs: the plain picture again
	run "$st" "$tmp/$dev.keys" --screenshot "$tmp/$dev-off.png"
	[ "$(grep -v '^#' "$st/pirogue.conf")" = "tiles = off" ] ||
		say "$dev: the state file after turning pictures off: $(cat "$st/pirogue.conf")"
done
cmp -s "$tmp/kbl-off.png" "$tmp/plainl.png" || say "kbl: turning pictures off did not draw glyphs again"
run "$tmp/fontl" "$tmp/kbl.keys" --font fonts/cp437-8x16.png --screenshot "$tmp/fontl.png"
[ -f "$tmp/fontl/pirogue.conf" ] && grep -q '^tiles' "$tmp/fontl/pirogue.conf" &&
	say "with --font the map look row wrote: $(cat "$tmp/fontl/pirogue.conf")"
# text size at 1920x1080: larger gives bigger text cells than the automatic
# choice, smaller smaller ones; the --verbose layout line says so at once
# and, from the state file, after a restart
text() { # the text cell of the last layout line in FILE: WxH
	sed -n 's/^pirogue: layout [0-9x]* text \([0-9]*x[0-9]*\) .*/\1/p' "$1" | tail -n 1
}
hd() { # STATE KEYS LOG
	"$P" --backend headless --size 1920x1080 --seed 6 --verbose --state-dir "$1" --keys "$2" >"$3" 2>&1 ||
		say "run of $2 in $1 failed: $(cat "$3")"
}
printf '' >"$tmp/none.keys"
hd "$tmp/auto" "$tmp/none.keys" "$tmp/auto.log"
auto=$(text "$tmp/auto.log")
[ "$auto" = 12x24 ] || say "the automatic text cell at 1920x1080 is '$auto' (the layout test's 12x24)"
printf 'O\ndown\ndown\ndown\ndown\ndown\nright\n' >"$tmp/kbt.keys"      # automatic -> larger
printf 'pad_thumbl\npad_down\npad_down\npad_down\npad_down\npad_down\npad_left\n' >"$tmp/padt.keys" # -> smaller
for dev in kbt padt; do
	st="$tmp/$dev"
	[ $dev = kbt ] && want=larger || want=smaller
	hd "$st" "$tmp/$dev.keys" "$tmp/$dev.log"
	now=$(text "$tmp/$dev.log")
	th=${now#*x}
	if [ $want = larger ]; then [ "${th:-0}" -gt 24 ]; else [ "${th:-99}" -lt 24 ]; fi ||
		say "$dev: text size $want gave text cells '$now' at once (automatic: $auto)"
	[ "$(grep -v '^#' "$st/pirogue.conf")" = "text-size = $want" ] ||
		say "$dev: the state file after the change: $(cat "$st/pirogue.conf")"
	hd "$st" "$tmp/none.keys" "$tmp/$dev-again.log"
	[ "$(text "$tmp/$dev-again.log")" = "$now" ] ||
		say "$dev: after a restart the text cells are '$(text "$tmp/$dev-again.log")', not $now"
done
exit $fail
