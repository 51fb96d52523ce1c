#!/bin/sh
# pirogue reads every mapping of gamepads/gamecontrollerdb.txt as the
# installed libSDL2 does: tools/gamepad-db/sdl-compare.c drives SDL (a
# virtual joystick) and pirogue's platform/evdb.c + evmap.c with the same inputs and
# compares what each makes of them. Skipped (77) without libsdl2-dev.
# make asan: not rerun: its comparer is built here with plain flags, never the sanitized build
command -v pkg-config >/dev/null || { echo "skip: pkg-config missing"; exit 77; }
pkg-config --exists sdl2 || { echo "skip: libSDL2 missing (apt-get install libsdl2-dev)"; exit 77; }
. tests/checklib.sh
${CC:-cc} -std=c11 -D_GNU_SOURCE -Isrc -O1 -o "$tmp/sdl-compare" tools/gamepad-db/sdl-compare.c \
	src/platform/evdb.c src/platform/evmap.c src/core/log.c src/core/utf8.c $(pkg-config --cflags --libs sdl2) -lm ||
	{ echo "cannot build tools/gamepad-db/sdl-compare.c"; exit 1; }
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$tmp/sdl-compare" gamepads/gamecontrollerdb.txt 2>"$tmp/log"
rc=$?
# the two lines SDL's own list holds with empty sources are said, nothing else
grep -v -e '"Brook Universal Fighting Board": skipped' -e '"SL-6566": skipped' "$tmp/log"
exit $rc
