/* font: bitmap fonts (PNG CP437 tilesets, PSF1/PSF2 console fonts) as glyph coverage looked up by code point. */
#ifndef PIROGUE_RENDER_FONT_H
#define PIROGUE_RENDER_FONT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A loaded font. All glyphs are cell_w × cell_h pixels.
 * - coverage: nglyphs × cell_h × cell_w bytes, 0 = background, 255 = foreground
 *   (intermediate values blend fg over bg). Always present.
 * - colour: when non-NULL the tileset is full colour: nglyphs × cell_h ×
 *   cell_w pixels 0xAARRGGBB, drawn as they are (alpha 0 shows bg).
 *   Glyph i's pixels start at i * cell_w * cell_h in either array.
 * Treat as read-only outside font.c. */
struct font {
	int cell_w, cell_h;
	int nglyphs;
	uint8_t *coverage;
	uint32_t *colour;
	int replacement; /* glyph index drawn for code points the font lacks */
	/* code point -> glyph index map (sorted; see font.c) */
	struct font_map_entry {
		uint32_t cp;
		int32_t glyph;
	} *map;
	size_t map_len;
	char name[64]; /* file name without directories, for messages */
};

/* Loads a font file, choosing the loader by content (PNG signature, PSF1 or
 * PSF2 magic, gzip magic around a PSF). PNG tilesets are 16×16 CP437 grids;
 * their code points follow the CP437 → Unicode table. On failure returns a
 * negative errno and writes one line into err (errlen bytes) naming the file
 * and the problem, e.g. "fonts/x.png: image is 100×64 pixels, not a 16×16
 * grid of tiles". */
int font_load(struct font **out, const char *path, char *err, size_t errlen);
/* Same, from memory; name is used in messages. Does not keep data. */
int font_load_mem(struct font **out, const void *data, size_t len, const char *name, char *err, size_t errlen);
/* Frees f; accepts NULL. */
void font_destroy(struct font *f);
/* Glyph index for code point cp; the replacement glyph when the font has none.
 * Always a valid index. */
int font_glyph(const struct font *f, uint32_t cp);
/* True when the font has its own glyph for cp. */
bool font_has(const struct font *f, uint32_t cp);
/* The CP437 code point table: cp437_to_unicode[i] for byte i. */
extern const uint16_t cp437_to_unicode[256];

#endif
