#!/bin/sh
# The arrows between src/'s rooms point down (tools/check-layers, per
# DESIGN.md): the tree passes, and a copy with one upward include, one
# device header outside platform/ and two headers in a circle fails, each
# named.
# make asan: not rerun: tools/check-layers reads the sources: no built code
tools/check-layers src || { echo "tools/check-layers: the tree has arrows that do not point down (above)"; exit 1; }
. tests/checklib.sh
cp -r src "$tmp/src" || exit 1
echo '#include "app/app.h"' >>"$tmp/src/game/map.c"
echo '#include <linux/input.h>' >>"$tmp/src/ui/draw.c"
echo '#include "core/rng.h"' >>"$tmp/src/core/log.h"
echo '#include "core/log.h"' >>"$tmp/src/core/rng.h"
if tools/check-layers "$tmp/src" >"$tmp/out" 2>&1; then
	echo "tools/check-layers passed a tree with an upward include"; exit 1
fi
for want in 'src/game/map.c:[0-9]*: game/ may not include app/app.h (an upward arrow' \
	    'src/ui/draw.c:[0-9]*: <linux/input.h> outside platform/' \
	    'circle: core/.*\.h -> core/.*\.h -> core/'; do
	grep -q "$want" "$tmp/out" || { echo "tools/check-layers did not say: $want"; cat "$tmp/out"; exit 1; }
done
[ "$(wc -l <"$tmp/out")" -eq 3 ] || { echo "tools/check-layers said more than the three faults:"; cat "$tmp/out"; exit 1; }
