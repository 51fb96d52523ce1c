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
 * Treat as read-only outside the font loader (render/font*.c). */
struct font {
	int cell_w, cell_h;
	int nglyphs;
	int nfile; /* glyphs 0..nfile-1 are the file's; after them come the
		    * box-drawing, block and shade glyphs (U+2500..U+259F)
		    * pirogue draws itself when the file lacks them, then the
		    * replacement box if one was added */
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
	/* Direct index for code points below U+10000, built from map:
	 * page[cp >> 8][cp & 0xFF] is the glyph (the replacement when absent).
	 * Every page pointer is valid. */
	const uint16_t *page[256];
	uint16_t *pagemem; /* storage behind page[] */
};

/* Limits the loaders enforce on any input. */
#define FONT_MAX_FILE (16u << 20)  /* bytes of a file, and of a decompressed PSF */
#define FONT_MAX_GLYPHS 65535      /* glyphs in a PSF */
#define FONT_MAX_CELL 256          /* pixels of a glyph's width and height */

/* How the tiles of a PNG/BMP sheet are laid out. */
enum font_layout {
	FONT_LAYOUT_AUTO,  /* by the sheet's shape (and a "_tc." in its name) */
	FONT_LAYOUT_CP437, /* 16×16 tiles in CP437 order (libtcod's CHARMAP_CP437) */
	FONT_LAYOUT_TCOD,  /* 32×8 tiles in libtcod's CHARMAP_TCOD order (*_tc.png) */
};

/* Loads a font file, choosing the loader by content, not by name:
 * - PNG (or BMP) tileset, laid out as layout says; FONT_LAYOUT_AUTO: a
 *   name with "_tc." is TCOD; else the grid the size divides into (width
 *   and height by 16 for CP437; width by 32, height by 8 for TCOD); when
 *   both do, CP437 if its tiles are square to twice as tall as wide, TCOD
 *   if its tiles are, else refused ("cannot tell the layout"). CP437: glyph
 *   i shows cp437_to_unicode[i] (and a few look-alikes: ▶ ◀ β ∑ μ Ω ð ∅ ϕ
 *   ∈ ⋅ ▪ share CP437 tiles). TCOD: the 160 code points of libtcod's
 *   CHARMAP_TCOD (ASCII, shades, box drawing, arrows, quadrants).
 *   Classification, by what most pixels are (docs/fonts.md):
 *   - colour key: a fully opaque image whose tile 0 is one colour uses it
 *     as a key: every pixel of it becomes transparent (as in libtcod);
 *   - if at least half the visible pixels are grey (r = g = b) the sheet
 *     is coverage, tinted fg over bg by the blitter; else full colour
 *     (colour holds the pixels, coverage their alpha);
 *   - coverage = alpha × grey / 255, with grey turned over (255 - grey)
 *     when the glyphs are dark on a light ground: the visible pixels
 *     average below 128 in a keyed or transparent sheet, or the commonest
 *     level is 128 or more in an opaque unkeyed one; a non-grey pixel of a
 *     keyed coverage sheet (the fringe of anti-aliased glyphs on magenta)
 *     counts as the share of the way from the key to the glyph colour.
 * - PSF1 or PSF2 console font, plain or gzip-compressed, with its Unicode
 *   table when it has one (sequence entries are ignored). Without a table
 *   the glyphs are taken to be in CP437 order (glyph i is
 *   cp437_to_unicode[i], with the same look-alikes; glyphs past 255
 *   unreachable), like the VGA ROM font.
 * Box-drawing, block and shade characters (U+2500..U+259F) the file lacks
 * are drawn by pirogue (lines through the cell's centre that join their
 * neighbours, blocks, even shades) as terminals do; font_has() says false
 * for them.
 * The replacement glyph is U+FFFD if the font has a non-blank one, else a
 * non-blank '?', else a box outline the loader adds as an extra glyph.
 * A font whose glyphs are all blank is refused. A FIFO or pipe is read to
 * its end without blocking on one that has no writer; devices are refused.
 * On failure returns a negative errno (-ENOENT etc. from the file system,
 * -EINVAL for a malformed file, -EDOM for a sheet whose layout is what is
 * wrong: it cannot be told, or the grid asked for does not fit but the
 * other one does; -EFBIG over the limits, -ENOMEM), sets *out
 * to NULL and writes one line into err (errlen bytes; control characters
 * from the file or its name replaced by '?') naming the file and the
 * problem, e.g. "fonts/x.png: image is 100×64 pixels, not a 16×16 grid of
 * tiles" (what to do about it is the caller's to say: it knows where the
 * file came from). */
int font_load(struct font **out, const char *path, char *err, size_t errlen);
/* The same with the sheet layout given. */
int font_load_as(struct font **out, const char *path, enum font_layout layout, char *err, size_t errlen);
/* Same, from memory; name is used in messages. Does not keep data. */
int font_load_mem(struct font **out, const void *data, size_t len, const char *name, char *err, size_t errlen);
int font_load_mem_as(struct font **out, const void *data, size_t len, const char *name, enum font_layout layout,
		     char *err, size_t errlen);
/* Frees f; accepts NULL. */
void font_destroy(struct font *f);
/* The glyphs of f (an even cell width) cut into halves: a font of
 * cell_w / 2 × cell_h whose glyph 2g is the left half of f's glyph g and
 * 2g + 1 its right half (coverage, and colour when f has it); it maps no
 * code points (font_glyph gives glyph 0): the blitter draws map cells two
 * text cells wide with it, a half in each. Returns 0, -EINVAL (an odd
 * width, too many glyphs) or -ENOMEM. */
int font_halves(struct font **out, const struct font *f);
/* Glyph index for code point cp; the replacement glyph when the font has none.
 * Always a valid index. Constant time (a table lookup below U+10000). */
int font_glyph(const struct font *f, uint32_t cp);
/* True when the font file has its own glyph for cp (not one pirogue drew). */
bool font_has(const struct font *f, uint32_t cp);
/* True when lines of text keep a gap: the top or the bottom pixel row of
 * the cell is blank in every glyph of '!'..'~' the font has (8×8 fonts,
 * whose capitals and descenders fill all eight rows, are not). */
bool font_lines_apart(const struct font *f);
/* The candidates of the automatic font choice: font files known by their
 * cell size, read from a sheet's header without decoding it, and decoded
 * only when the choice needs their pixels (font_cands_get). Zero it before
 * the first font_cands_add. */
#define FONT_CANDS_MAX 24
struct font_cands {
	int n;
	int decodes;        /* files decoded so far (a start should need one) */
	const char *advice; /* added to a decoding error, e.g. "(reinstall pirogue)"; may be NULL */
	struct font_cand {
		char *path;
		int cell_w, cell_h;
		bool text; /* a text font of the automatic look (blit_choose_look); set by the caller */
		struct font *font; /* NULL until decoded */
	} c[FONT_CANDS_MAX];
};

/* Adds the font file path (layout FONT_LAYOUT_AUTO) as a candidate. A
 * PNG or BMP sheet whose header gives a usable grid is only looked at (its
 * first bytes read); any other file (a PSF, a damaged header) is decoded
 * now, since its cell size is known only then. Returns 0, or a negative
 * errno with one line in err (as font_load; -ENOSPC when c is full). */
int font_cands_add(struct font_cands *c, const char *path, char *err, size_t errlen);
/* Candidate i (0 <= i < c->n) decoded, into *out; decodes it on the first
 * call. Returns 0, or a negative errno with font_load's line (followed by
 * c->advice) in err; a failed decode is tried again on the next call. */
int font_cands_get(struct font_cands *c, int i, const struct font **out, char *err, size_t errlen);
/* Frees every candidate and empties c (advice kept); accepts NULL. */
void font_cands_clear(struct font_cands *c);
/* Pointer to glyph g's cell_w × cell_h coverage bytes (g must be valid). */
static inline const uint8_t *font_coverage(const struct font *f, int g)
{
	return f->coverage + (size_t)g * (size_t)f->cell_w * (size_t)f->cell_h;
}
#define FONT_TILES_COLS 16
/* Tile sheets: pictures for map cells (tiles/README.md). A PNG of
 * FONT_TILES_COLS columns of tiles, square (width / 16 pixels each, 4 to
 * FONT_MAX_CELL) unless the file name ends in "-WxH.<ext>" (e.g.
 * "dcss-8x9.png": W must be the width / 16, H divide the height), as many
 * rows as the height holds; cell i (column i % 16,
 * row i / 16) is tile i of the index (tiles/index.txt; cell 0 is none), a
 * fully transparent cell a tile the sheet does not have. Loaded as a font
 * of full-colour glyphs (glyph i = cell i; no code points). Returns 0, or
 * a negative errno with one line in err naming the file and what is wrong
 * (-EDOM: an image whose size is not such a grid; -EINVAL: not a PNG, or
 * every tile transparent). */
int font_load_tiles(struct font **out, const char *path, char *err, size_t errlen);
/* The same from memory; name is used in messages. */
int font_load_tiles_mem(struct font **out, const void *data, size_t len, const char *name, char *err, size_t errlen);
/* Whether tile sheet sheet has tile id (1.., a cell not wholly transparent). */
bool font_tile_has(const struct font *sheet, int id);
/* A font of n blank pictures of sheet's cell size for font_tiles_compose
 * (halves: each picture two glyphs, its left and right halves, as
 * font_halves cuts them). 0, -EINVAL (halves of an odd width, too many) or
 * -ENOMEM. */
int font_tiles_slots(struct font **out, const struct font *sheet, int n, bool halves);
/* Picture slot of dst (made by font_tiles_slots from sheet) drawn as the
 * tiles layers[0..n) of sheet laid over each other, the first at the
 * bottom (ids outside the sheet or 0: skipped); dim: darkened (what the
 * player remembers). Integer arithmetic: the same pixels everywhere. */
void font_tiles_compose(struct font *dst, int slot, const struct font *sheet, const int *layers, int n, bool dim);
/* The tile sheets a display picks from by its map cells' size: the shipped
 * ones (one a size), or the user's one. Zero it before the first add. */
#define FONT_TILESETS_MAX 12
struct font_tilesets {
	int n;
	bool on;            /* pictures wanted (the tiles setting); the sheets may stay loaded when off */
	const char *advice; /* added to a decoding error logged later (e.g. "reinstall pirogue"); may be NULL */
	bool user;          /* the one sheet is the user's (--tiles FILE), not the shipped ones */
	struct font_tileset {
		char *path;
		int w, h;           /* the tiles' size in pixels */
		struct font *font;  /* NULL until decoded */
		bool failed;        /* decoding failed (logged once) */
	} s[FONT_TILESETS_MAX];
};
/* Adds the tile sheet at path: decoded now (decode: a user's sheet, whose
 * every fault is said at start), else only its header read (decoded when a
 * display first needs its size). Returns 0, or a negative errno with one
 * line in err naming the file and what is wrong (-ENOSPC: t is full). */
int font_tilesets_add(struct font_tilesets *t, const char *path, bool decode, char *err, size_t errlen);
/* The sheet of w×h tiles in t (decoded on first use; a failure logged
 * once, with t->advice), or NULL when t has none of that size. */
const struct font *font_tilesets_get(struct font_tilesets *t, int w, int h);
/* Frees every sheet and empties t (on and advice kept); accepts NULL. */
void font_tilesets_clear(struct font_tilesets *t);
/* The CP437 code point table: cp437_to_unicode[i] for byte i (the IBM PC
 * mapping: 0x01 is U+263A, 0x7F U+2302, 0xFF U+00A0; 0x00 maps to U+0000). */
extern const uint16_t cp437_to_unicode[256];

#endif
