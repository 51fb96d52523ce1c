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
exit $fail
