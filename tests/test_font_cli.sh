#!/bin/sh
# Every way a font can be bad, as the player meets it: one line on standard
# error, exit 2 (a wrong value, as README says; it was 1), naming the file, what is wrong with it and one thing to do
# about it, the one that fits where the font was given: --font, the font
# setting of a settings file (its file and line), or --font-layout when the
# sheet's layout is what is wrong.
. tests/checklib.sh
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed (apt-get install python3)"; exit 77; }
# PNG sheets of a given size (a checkerboard: no glyph blank), and one blank
python3 - "$tmp" <<'EOF'
import struct, sys, zlib
def png(name, w, h, blank=False):
    raw = b''.join(b'\0' + bytes(0 if blank or (x // 2 + y // 2) % 2 else 255 for x in range(w)) for y in range(h))
    def chunk(t, d):
        return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
    with open(sys.argv[1] + '/' + name, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 0, 0, 0, 0)) +
                chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
png('grid.png', 100, 37)      # no grid at all
png('either.png', 512, 64)    # both grids, neither's tiles square to twice as tall
png('tcod.png', 96, 24)       # a 32x8 sheet asked for as CP437
png('blank.png', 128, 128, blank=True)
EOF
: >"$tmp/empty.psf"
printf 'not a font' >"$tmp/magic.png"
printf '\066\004\000\010' >"$tmp/short.psf"                              # PSF1 header, no glyphs
printf 'hello\n' | gzip >"$tmp/text.psf.gz"                               # gzip of something else
printf '\037\213\010\000\000\000\000\000\000\003garbage' >"$tmp/broken.psf.gz" # corrupt gzip
printf '\211PNG\r\n\032\nxxxx' >"$tmp/cut.png"                            # a PNG cut after its signature
mkdir "$tmp/dir.png"
mkfifo "$tmp/fifo.psf"

# check HOW REMEDY ARGS...: the one line, its file, and that one remedy
check() {
	how=$1 remedy=$2
	shift 2
	err=$("$P" --backend headless "$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc != 2 ] || [ "$(printf '%s\n' "$err" | grep -c .)" != 1 ]; then
		say "$how: exit $rc (want 2), not one line: $err"
	elif ! printf '%s' "$err" | grep -q "^pirogue: /[^ ]*: "; then
		say "$how: the line does not start with the file: $err"
	elif ! printf '%s' "$err" | grep -qF -- "$remedy"; then
		say "$how: does not say '$remedy': $err"
	fi
	# one thing to do, never two that disagree
	n=0
	for r in 'give --font a' 'font = at' '--font-layout' 'give a font file' 'set font-layout = cp437'; do
		printf '%s' "$err" | grep -qF -- "$r" && n=$((n + 1))
	done
	[ $n = 1 ] || say "$how: $n remedies in one line: $err"
}
font="give --font a PNG tileset or a PSF font"
layout="--font-layout"
check "missing file" "$font" --font "$tmp/none.psf"
check "empty file" "$font" --font "$tmp/empty.psf"
check "bad magic" "$font" --font "$tmp/magic.png"
check "directory" "$font" --font "$tmp/dir.png"
check "device" "$font" --font /dev/null
check "pipe with no writer" "$font" --font "$tmp/fifo.psf"
check "truncated PSF1" "$font" --font "$tmp/short.psf"
check "gzip of no font" "$font" --font "$tmp/text.psf.gz"
check "corrupt gzip" "$font" --font "$tmp/broken.psf.gz"
check "cut PNG" "$font" --font "$tmp/cut.png"
check "no grid" "$font" --font "$tmp/grid.png"
check "blank sheet" "$font" --font "$tmp/blank.png"
check "layout cannot be told" "$layout" --font "$tmp/either.png"
check "layout asked for does not fit" "$layout" --font "$tmp/tcod.png" --font-layout cp437
check "no grid, TCOD asked for" "$font" --font "$tmp/grid.png" --font-layout tcod
# the font setting of a settings file: the remedy names that file and line
printf 'scale = 1\nfont = %s\n' "$tmp/magic.png" >"$tmp/p.conf"
check "settings file" "font = at $tmp/p.conf:2" --config "$tmp/p.conf"
printf 'font = %s\n' "$tmp/either.png" >"$tmp/l.conf"
check "settings file, layout" "$layout" --config "$tmp/l.conf"
# --font after the settings file's font: the command line's, said so
check "--font over the settings file" "$font" --config "$tmp/p.conf" --font "$tmp/empty.psf"
# the layouts that do fit load
"$P" --backend headless --font "$tmp/tcod.png" --screenshot "$tmp/t.png" || say "a 32x8 sheet does not load by its shape"
"$P" --backend headless --font "$tmp/either.png" --font-layout tcod --screenshot "$tmp/t.png" ||
	say "--font-layout tcod does not settle a sheet whose layout cannot be told"
exit $fail
