#!/bin/sh
# The arrows between src/'s rooms point down (tools/check-layers, per
# DESIGN.md): the tree passes, and a copy with one upward include, one
# device header outside platform/ and two headers in a circle fails, each
# named.
tools/check-layers src || { echo "tools/check-layers: the tree has arrows that do not point down (above)"; exit 1; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
cp -r src "$t/src" || exit 1
echo '#include "app/app.h"' >>"$t/src/game/map.c"
echo '#include <linux/input.h>' >>"$t/src/ui/draw.c"
echo '#include "core/rng.h"' >>"$t/src/core/log.h"
echo '#include "core/log.h"' >>"$t/src/core/rng.h"
if tools/check-layers "$t/src" >"$t/out" 2>&1; then
	echo "tools/check-layers passed a tree with an upward include"; exit 1
fi
for want in 'src/game/map.c:[0-9]*: game/ may not include app/app.h (an upward arrow' \
	    'src/ui/draw.c:[0-9]*: <linux/input.h> outside platform/' \
	    'circle: core/.*\.h -> core/.*\.h -> core/'; do
	grep -q "$want" "$t/out" || { echo "tools/check-layers did not say: $want"; cat "$t/out"; exit 1; }
done
[ "$(wc -l <"$t/out")" -eq 3 ] || { echo "tools/check-layers said more than the three faults:"; cat "$t/out"; exit 1; }
