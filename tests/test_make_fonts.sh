#!/bin/sh
# tools/make-fonts rebuilds the committed default fonts byte for byte.
# Skipped (77) when its Debian sources (console-data, xfonts-terminus,
# pcf2bdf, fonts-dejavu-core, libfreetype-dev) are not installed.
# make asan: not rerun: tools/make-fonts (Python) against the committed fonts: no built code
for f in /usr/share/consolefonts/default8x9.psf.gz /usr/share/consolefonts/cp865-8x8.psf.gz /usr/share/consolefonts/cp850-8x8.psf.gz \
	/usr/share/fonts/X11/misc/ter-u16n_unicode.pcf.gz /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf; do
	[ -f "$f" ] || { echo "skip: $f missing (apt-get install console-data xfonts-terminus pcf2bdf fonts-dejavu-core libfreetype-dev)"; exit 77; }
done
pkg-config --exists freetype2 2>/dev/null || { echo "skip: FreeType missing (apt-get install libfreetype-dev)"; exit 77; }
command -v pcf2bdf >/dev/null || { echo "skip: pcf2bdf missing (apt-get install pcf2bdf)"; exit 77; }
command -v python3 >/dev/null || { echo "skip: python3 missing"; exit 77; }
. tests/checklib.sh
tools/make-fonts "$tmp" >/dev/null || exit 1
# every sheet it writes, and every sheet in fonts/ is one it writes
built=$(cd "$tmp" && ls *.png)
[ "$(echo "$built" | wc -l)" -ge 17 ] || { echo "tools/make-fonts wrote only: $built"; exit 1; }
for f in $built; do
	cmp "$tmp/$f" "fonts/$f" || { echo "fonts/$f differs from what tools/make-fonts builds"; exit 1; }
done
for f in fonts/*.png; do
	[ -f "$tmp/$(basename "$f")" ] || { echo "$f is not built by tools/make-fonts"; exit 1; }
done
cmp "$tmp/tests/dejavu10x10_gs_tc.png" tests/fonts/dejavu10x10_gs_tc.png ||
	{ echo "tests/fonts/dejavu10x10_gs_tc.png differs from what tools/make-fonts builds"; exit 1; }
