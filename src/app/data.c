#include "app/data.h"
#include "core/log.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The directory of the running binary into buf, or "." if unknown. */
static const char *exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;
	if (n <= 0)
		return ".";
	buf[n] = 0;
	if (!(slash = strrchr(buf, '/')))
		return ".";
	*slash = 0;
	return buf;
}

/* Finds a shipped file (rel: "fonts/...", "gamepads/..."): under
 * $PIROGUE_DATA_DIR (tests, out-of-tree builds), next to the binary (a
 * build tree), then in the installed data directory. Returns 0 with the
 * path in out, or -ENOENT. */
static int data_file(const char *rel, char *out, size_t len)
{
	char exe[PATH_MAX];
	const char *dirs[3] = { getenv("PIROGUE_DATA_DIR"), exe_dir(exe, sizeof exe), PIROGUE_DATADIR };
	for (int i = 0; i < 3; i++) {
		if (!dirs[i] || !dirs[i][0])
			continue;
		if ((size_t)snprintf(out, len, "%s/%s", dirs[i], rel) < len && access(out, R_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

const char *data_gamepad_db(char *buf, size_t len)
{
	char exe[PATH_MAX];
	if (data_file("gamepads/gamecontrollerdb.txt", buf, len) == 0)
		return buf;
	log_error("no default gamepad database in %s/gamepads or %s/gamepads: pads that do not follow the "
		  "kernel layout need --gamepad-db FILE (reinstall pirogue, or set PIROGUE_DATA_DIR)",
		  exe_dir(exe, sizeof exe), PIROGUE_DATADIR);
	return NULL;
}

int data_load_tiles(const char *value, const char *from, struct font_tilesets *t)
{
	char err[512], file[PATH_MAX + 32];
	t->on = value && strcmp(value, "off");
	if (value && strcmp(value, "on") && strcmp(value, "off")) {
		t->user = true;
		if (font_tilesets_add(t, value, true, err, sizeof err)) {
			if (from)
				log_error("%s (tiles = at %s: set it to on, off or a tile sheet, tiles/README.md)", err, from);
			else
				log_error("%s (give --tiles on, off or a tile sheet, tiles/README.md)", err);
			return -EINVAL;
		}
		return 0;
	}
	/* the shipped sheets, one a map cell size (tools/make-tiles), decoded
	 * when a display needs that size; kept when off, for the options
	 * screen to turn them on */
	static const char *const sizes[] = { "8", "12", "14", "16", "18", "20", "21", "24", "48", "8x9" };
	t->advice = "reinstall pirogue; drawing glyphs";
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		char rel[32];
		snprintf(rel, sizeof rel, "tiles/dcss-%s.png", sizes[i]);
		if (data_file(rel, file, sizeof file)) {
			log_info("tile sheet %s is not installed", rel);
			continue;
		}
		if (font_tilesets_add(t, file, false, err, sizeof err))
			log_error("%s (reinstall pirogue; drawing glyphs at that size)", err);
	}
	return 0;
}

int data_load_fonts(const char *path, const char *from, enum font_layout layout, struct font **font,
		    struct font_cands *cands)
{
	char err[512];
	*font = NULL;
	if (path) {
		int rc = font_load_as(font, path, layout, err, sizeof err);
		if (rc == -EDOM) /* a sheet whose layout is what is wrong */
			log_error("%s: say its layout with --font-layout cp437 or tcod (font-layout = in a settings "
				  "file)", err);
		else if (rc && from)
			log_error("%s (font = at %s: set it to a PNG tileset or a PSF font)", err, from);
		else if (rc)
			log_error("%s (give --font a PNG tileset or a PSF font)", err);
		return rc ? -EINVAL : 0;
	}
	/* The shipped fonts, candidates of the automatic choice (the display
	 * picks the one that fills it best and decodes only that one:
	 * blit_choose_cands); the first must be there, the others are used
	 * when they are. */
	static const char *const shipped[DATA_FONTS_MAX] = {
		"fonts/cp437-8x8.png",	  "fonts/cp437-8x9.png",    "fonts/cp437-8x16.png",   "fonts/dejavu-12x12.png",
		"fonts/dejavu-14x14.png", "fonts/dejavu-16x16.png", "fonts/dejavu-18x18.png", "fonts/dejavu-21x21.png",
		"fonts/dejavu-24x24.png", "fonts/dejavu-20x20.png", "fonts/dejavu-48x48.png",
		/* the text fonts: with the square sheets twice as wide as their
		 * map sheets, the choice of blit_choose_look */
		"fonts/dejavu-text-6x12.png", "fonts/dejavu-text-8x16.png", "fonts/dejavu-text-9x18.png",
		"fonts/dejavu-text-10x20.png", "fonts/dejavu-text-12x24.png", "fonts/dejavu-text-24x48.png"
	};
	char file[PATH_MAX + 32], exe[PATH_MAX];
	cands->advice = "(the installed default font is damaged: reinstall pirogue or use --font)";
	for (size_t i = 0; i < DATA_FONTS_MAX; i++) {
		if (data_file(shipped[i], file, sizeof file)) {
			if (i == 0)
				break;
			log_info("default font %s is not installed; choosing among the others", shipped[i]);
			continue;
		}
		if (font_cands_add(cands, file, err, sizeof err)) {
			log_error("%s", err); /* with the advice, when the file is the problem */
			font_cands_clear(cands);
			return -EINVAL;
		}
		cands->c[cands->n - 1].text = strstr(shipped[i], "-text-") != NULL;
	}
	if (cands->n)
		return 0;
	log_error("no default font found in %s/fonts or %s/fonts: reinstall pirogue, set PIROGUE_DATA_DIR "
		  "to the directory holding fonts/, or give --font FILE", exe_dir(exe, sizeof exe), PIROGUE_DATADIR);
	return -ENOENT;
}
