#!/bin/sh
# Every header in src/ opens with a line on what its module owns and has a
# contract comment above each function (tools/check-contracts): the tree
# passes, and a copy with a contract removed and a header without its
# opening line fails, each named.
# make asan: not rerun: tools/check-contracts reads the headers: no built code
tools/check-contracts src || { echo "tools/check-contracts: headers above lack their contracts"; exit 1; }
. tests/checklib.sh
cp -r src "$tmp/src" || exit 1
# the comment above rng_next becomes a blank line; core/utf8.h loses its first line
sed 's|^/\* Next 32 uniformly.*||' src/core/rng.h >"$tmp/src/core/rng.h"
sed 1d src/core/utf8.h >"$tmp/src/core/utf8.h"
if tools/check-contracts "$tmp/src" >"$tmp/out" 2>&1; then
	echo "tools/check-contracts passed a header without a contract"; exit 1
fi
grep -q "src/core/rng.h:[0-9]*: no contract comment above.*rng_next(" "$tmp/out" &&
grep -q "src/core/utf8.h:1: the header does not open with a line" "$tmp/out" ||
	{ echo "tools/check-contracts did not name both gaps:"; cat "$tmp/out"; exit 1; }
