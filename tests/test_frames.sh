#!/bin/sh
# Whole frames of the game, headless, compared pixel for pixel with the
# golden PNGs listed in tests/frames.list.
. tests/checklib.sh
n=0
while IFS='|' read -r name args; do
	name=$(echo "$name" | tr -d ' ')
	case "$name" in ''|'#'*) continue ;; esac
	n=$((n + 1))
	# --state-dir @KIND: a fresh state directory made by tools/mkstate
	kind=$(echo "$args" | sed -n 's/.*--state-dir @\([a-z]*\).*/\1/p')
	if [ -n "$kind" ]; then
		rm -rf "$tmp/state"
		"$B/tools/mkstate" "$kind" "$tmp/state" || { echo "FAIL: frame $name: mkstate $kind failed"; fail=1; continue; }
		args=$(echo "$args" | sed "s|@$kind|$tmp/state|")
	fi
	# shellcheck disable=SC2086
	if ! "$P" $args --screenshot "$tmp/$name.png"; then
		echo "FAIL: frame $name: pirogue $args failed"
		fail=1
	elif ! "$B/tools/pngcmp" "$tmp/$name.png" "tests/golden/frame-$name.png"; then
		echo "FAIL: frame $name differs from tests/golden/frame-$name.png (pirogue $args)"
		fail=1
	fi
done < tests/frames.list
[ "$n" -gt 0 ] || { echo "FAIL: no frames listed"; fail=1; }
# the same seed and keys always give the same frame
"$P" --backend headless --seed 7 --keys tests/frames/walk.keys --screenshot "$tmp/a.png" &&
"$P" --backend headless --seed 7 --keys tests/frames/walk.keys --screenshot "$tmp/b.png" &&
cmp -s "$tmp/a.png" "$tmp/b.png" || { echo "FAIL: same seed and keys gave different frames"; fail=1; }
exit $fail
