#!/bin/sh
# Key bindings from the settings file: a rebound key plays, the old one no
# longer does, and a bad binding is one line naming file:line.
. tests/checklib.sh
printf '[pirogue]\nkey.move_e = w right\nkey.wait =\npad.explore = pad_y pad_r2\n' > "$tmp/good.conf"
printf 'w\nw\n.\n' > "$tmp/w.keys"
printf 'right\nright\n' > "$tmp/r.keys"
printf 'l\nl\n' > "$tmp/l.keys"
for k in w r l; do
	"$P" --config "$tmp/good.conf" --backend headless --seed 7 --keys "$tmp/$k.keys" --screenshot "$tmp/$k.png" ||
		{ echo "FAIL: pirogue with rebound keys did not run"; fail=1; }
done
# w w . is right right: w moves east and '.' no longer waits; l moves no more
cmp -s "$tmp/w.png" "$tmp/r.png" || { echo "FAIL: key.move_e = w does not move east, or '.' still waits"; fail=1; }
cmp -s "$tmp/w.png" "$tmp/l.png" && { echo "FAIL: l still moves after key.move_e = w right"; fail=1; }
# --bind is the command-line twin: it wins over the file
"$P" --config "$tmp/good.conf" --bind key.move_e=l --backend headless --seed 7 --keys "$tmp/l.keys" \
	--screenshot "$tmp/bl.png" || { echo "FAIL: --bind did not run"; fail=1; }
cmp -s "$tmp/bl.png" "$tmp/l.png" && { echo "FAIL: --bind key.move_e=l did not make l move"; fail=1; }
err=$("$P" --bind key.fly=f 2>&1 >/dev/null); rc=$?
if [ "$rc" -ne 2 ] || ! printf '%s' "$err" | grep -q "^pirogue: --bind key.fly=f: unknown action 'fly'"; then
	echo "FAIL: --bind key.fly=f: exit $rc, '$err'"
	fail=1
fi
err=$("$P" --bind wait 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] && printf '%s' "$err" | grep -q "invalid value 'wait' for --bind" || { echo "FAIL: --bind wait: exit $rc, '$err'"; fail=1; }
check_bad() { # expected-message settings-line
	printf '# bindings\n%s\n' "$2" > "$tmp/bad.conf"
	err=$("$P" --config "$tmp/bad.conf" --backend headless 2>&1 >/dev/null); rc=$?
	if [ "$rc" -ne 2 ] || ! printf '%s' "$err" | grep -qF "$tmp/bad.conf:2: $1" ||
		[ "$(printf '%s\n' "$err" | grep -c .)" -ne 1 ]; then
		echo "FAIL: '$2': exit $rc, '$err'"
		fail=1
	fi
}
check_bad "unknown action 'jump' in 'key.jump'" "key.jump = j"
check_bad "key.wait: unknown key 'nokey'" "key.wait = . nokey"
check_bad "key.look: 'pad_y' is a gamepad button; it goes in pad.look" "key.look = pad_y"
check_bad "pad.look: 'x' is a keyboard key; it goes in key.look" "pad.look = x"
check_bad "unknown setting 'keys.wait'" "keys.wait = ."
exit $fail
