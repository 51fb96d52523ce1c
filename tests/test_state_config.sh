#!/bin/sh
# The state directory's settings file (README "Settings files"): read after
# the user's settings file (and --config FILE) and before the command line;
# a bad value in it reported as FILE:LINE like any settings file; state-dir
# refused in it. Seen through the headless surface's size (the --verbose
# layout line).
. tests/checklib.sh
st="$tmp/st"
mkdir -p "$st" "$tmp/cfg/pirogue"
size() { # ARGS...: the surface size the layout line says
	"$P" --backend headless --verbose --seed 3 --state-dir "$st" --screenshot "$tmp/shot.png" "$@" 2>&1 |
		sed -n 's/^pirogue: layout \([0-9]*x[0-9]*\) .*/\1/p'
}
unset PIROGUE_CONFIG
export XDG_CONFIG_HOME="$tmp/cfg"
printf 'size = 800x480\n' >"$tmp/cfg/pirogue/pirogue.conf"
[ "$(size)" = 800x480 ] || say "the user's file: got '$(size)', want 800x480"
printf '# mine\nsize = 1024x600\n' >"$st/pirogue.conf"
[ "$(size)" = 1024x600 ] || say "state over user: got '$(size)', want 1024x600"
[ "$(size --size 640x400)" = 640x400 ] || say "command line over state: got '$(size --size 640x400)'"
printf 'size = 480x320\n' >"$tmp/given.conf"
[ "$(size --config "$tmp/given.conf")" = 1024x600 ] || say "state over --config: got '$(size --config "$tmp/given.conf")'"
# the state directory named by the command line is the one read
mkdir -p "$tmp/other"
printf 'size = 1280x720\n' >"$tmp/other/pirogue.conf"
got=$("$P" --backend headless --verbose --seed 3 --state-dir "$tmp/other" --screenshot "$tmp/shot.png" 2>&1 |
	sed -n 's/^pirogue: layout \([0-9]*x[0-9]*\) .*/\1/p')
[ "$got" = 1280x720 ] || say "--state-dir's file: got '$got', want 1280x720"
# a bad value: one line naming the file and line, exit 2, as the others
printf '# mine\nattract = soon\n' >"$st/pirogue.conf"
out=$("$P" --backend headless --seed 3 --state-dir "$st" --screenshot "$tmp/shot.png" 2>&1); rc=$?
[ "$rc" -eq 2 ] || say "a bad value: exit $rc, want 2"
[ "$out" = "pirogue: $st/pirogue.conf:2: invalid value 'soon' for attract: expected seconds from 0 (never) to 86400" ] ||
	say "a bad value: '$out'"
printf 'state-dir = /tmp\n' >"$st/pirogue.conf"
out=$("$P" --backend headless --seed 3 --state-dir "$st" --screenshot "$tmp/shot.png" 2>&1); rc=$?
[ "$rc" -eq 2 ] && echo "$out" | grep -q "^pirogue: $st/pirogue.conf:1: state-dir cannot be set" ||
	say "state-dir in the state file: exit $rc, '$out'"
# a change on the options screen survives a restart: the second run shows
# the options as the first left them (same picture), a fresh state
# directory does not
st="$tmp/st2" # no saved game there: Options is the fourth entry
printf 'down\ndown\ndown\nenter\nright\ndown\nleft\n' >"$tmp/change.keys"
printf 'down\ndown\ndown\nenter\ndown\n' >"$tmp/look.keys"
run() { # STATE KEYS SHOT
	"$P" --backend headless --size 800x480 --state-dir "$1" --keys "$2" --screenshot "$3" ||
		say "run with $2 in $1 failed"
}
run "$st" "$tmp/change.keys" "$tmp/changed.png"
[ "$(grep -v '^#' "$st/pirogue.conf")" = "attract = 120
blank = 60" ] || say "the state file after the changes: $(cat "$st/pirogue.conf")"
run "$st" "$tmp/look.keys" "$tmp/again.png"
cmp -s "$tmp/changed.png" "$tmp/again.png" || say "the options after a restart differ from those left"
run "$tmp/fresh" "$tmp/look.keys" "$tmp/fresh.png"
cmp -s "$tmp/changed.png" "$tmp/fresh.png" && say "a fresh state directory shows the changed options"
exit $fail
