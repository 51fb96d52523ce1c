#!/bin/sh
# tools/make-fonts rebuilds the committed default fonts byte for byte.
# Skipped (77) when its Debian sources (console-data, xfonts-terminus,
# pcf2bdf, fonts-dejavu-core, libfreetype-dev) are not installed.
for f in /usr/share/consolefonts/default8x9.psf.gz /usr/share/consolefonts/cp865-8x8.psf.gz /usr/share/consolefonts/cp850-8x8.psf.gz \
	/usr/share/fonts/X11/misc/ter-u16n_unicode.pcf.gz /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf; do
	[ -f "$f" ] || { echo "skip: $f missing (apt-get install console-data xfonts-terminus pcf2bdf fonts-dejavu-core libfreetype-dev)"; exit 77; }
done
pkg-config --exists freetype2 2>/dev/null || { echo "skip: FreeType missing (apt-get install libfreetype-dev)"; exit 77; }
command -v pcf2bdf >/dev/null || { echo "skip: pcf2bdf missing (apt-get install pcf2bdf)"; exit 77; }
command -v python3 >/dev/null || { echo "skip: python3 missing"; exit 77; }
. tests/checklib.sh
tools/make-fonts "$tmp" >/dev/null || exit 1
for f in cp437-8x8.png cp437-8x9.png cp437-8x16.png dejavu-12x12.png dejavu-14x14.png dejavu-16x16.png \
	dejavu-18x18.png dejavu-21x21.png dejavu-24x24.png; do
	cmp "$tmp/$f" "fonts/$f" || { echo "fonts/$f differs from what tools/make-fonts builds"; exit 1; }
done
cmp "$tmp/tests/dejavu10x10_gs_tc.png" tests/fonts/dejavu10x10_gs_tc.png ||
	{ echo "tests/fonts/dejavu10x10_gs_tc.png differs from what tools/make-fonts builds"; exit 1; }
