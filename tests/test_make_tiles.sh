#!/bin/sh
# tools/make-tiles rebuilds the committed tile sheets (tiles/), their index
# and licence byte for byte. Skipped (77) when the DCSS CC0 tiles it reads
# (../shared/tiles/dcss-cc0, or PIROGUE_TILES_SRC) or python3 are missing.
command -v python3 >/dev/null || { echo "skip: python3 missing"; exit 77; }
src=${PIROGUE_TILES_SRC:-}
for d in "$src" ../shared/tiles/dcss-cc0 ../../shared/tiles/dcss-cc0; do
	[ -n "$d" ] && [ -f "$d/LICENSE-CC0.txt" ] && { src=$d; break; }
done
[ -n "$src" ] && [ -f "$src/LICENSE-CC0.txt" ] ||
	{ echo "skip: the DCSS CC0 tiles are not here (../shared/tiles/dcss-cc0; PIROGUE_TILES_SRC=DIR)"; exit 77; }
. tests/checklib.sh
tools/make-tiles --src "$src" "$tmp" >/dev/null || exit 1
built=$(cd "$tmp" && ls)
[ "$(echo "$built" | grep -c '^dcss-.*\.png$')" -ge 9 ] || { echo "tools/make-tiles wrote only: $built"; exit 1; }
for f in $built; do
	cmp "$tmp/$f" "tiles/$f" || { echo "tiles/$f differs from what tools/make-tiles builds"; exit 1; }
done
for f in tiles/*; do
	case $f in tiles/README.md) continue ;; esac
	[ -f "$tmp/$(basename "$f")" ] || { echo "$f is not built by tools/make-tiles"; exit 1; }
done
# a source file that is not the one recorded stops it, naming the file
mkdir "$tmp/src"
cp -r "$src"/. "$tmp/src"
chmod -R u+w "$tmp/src"
printf 'x' >> "$tmp/src/mon/orc.png"
out=$(tools/make-tiles --src "$tmp/src" "$tmp/out" 2>&1) && { echo "a changed source was taken: $out"; exit 1; }
echo "$out" | grep -q "mon/orc.png: SHA-256 .* is not the recorded one" || { echo "a changed source said: $out"; exit 1; }
exit 0
