#!/bin/sh
# tools/make-gamepad-db rebuilds the committed gamepads/gamecontrollerdb.txt
# byte for byte from the installed libSDL2. Skipped (77) when libsdl2-dev
# 2.26.5 (Debian 12) is not installed.
# make asan: not rerun: tools/make-gamepad-db against SDL's database: no built code
command -v pkg-config >/dev/null || { echo "skip: pkg-config missing"; exit 77; }
pkg-config --exists sdl2 || { echo "skip: libSDL2 missing (apt-get install libsdl2-dev)"; exit 77; }
v=$(pkg-config --modversion sdl2)
[ "$v" = 2.26.5 ] || { echo "skip: libSDL2 $v installed; the committed database comes from 2.26.5"; exit 77; }
. tests/checklib.sh
tools/make-gamepad-db "$tmp" || exit 1
cmp "$tmp/gamecontrollerdb.txt" gamepads/gamecontrollerdb.txt ||
	{ echo "gamepads/gamecontrollerdb.txt differs from what tools/make-gamepad-db builds"; exit 1; }
