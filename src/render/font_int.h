/* font_int: what the font loader's files (render/font*.c) share and no one else uses. */
#ifndef PIROGUE_RENDER_FONT_INT_H
#define PIROGUE_RENDER_FONT_INT_H
#include "render/font.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Upper bound on a font's coverage bytes (glyphs × width × height). */
#define FONT_MAX_PIXELS ((size_t)64 << 20)

/* Code points a PSF Unicode table may map, per glyph of the font on
 * average (Debian's console fonts map at most 6 to one glyph, 1.14 on
 * average): a table of more is refused, so that its memory is bounded by
 * the glyph count (a 16 MiB table of one code point over and over took
 * 216 MB and 1.4 s). */
#define FONT_MAP_PER_GLYPH 64

/* A growing list of (cp, glyph) pairs. */
struct maplist {
	struct font_map_entry *e;
	size_t n, cap;
};

/* The PNG signature, the first 8 bytes of every PNG file. */
extern const uint8_t font_png_sig[8];

/* Writes "<name>: <message>" into err (errlen bytes; may be NULL or 0), one
 * printable line (control characters and bytes that are not UTF-8 become
 * '?'), and returns rc. */
__attribute__((format(printf, 5, 6)))
int font_fail(char *err, size_t errlen, const char *name, int rc, const char *fmt, ...);
/* Appends (cp, glyph) to m; a cp that is not a character (a surrogate, past
 * U+10FFFF) is ignored. Returns 0 or -ENOMEM. */
int font_map_add(struct maplist *m, uint32_t cp, int32_t glyph);
/* Maps glyphs 0..min(n,256)-1 as CP437 bytes, then the look-alikes; a
 * failure is written into err. */
int font_map_cp437(struct maplist *m, int n, const char *name, char *err, size_t errlen);
/* Allocates a font of n glyphs of w×h with zeroed coverage (and colour if
 * asked), room for one more glyph (the generated replacement). 0 or -ENOMEM. */
int font_alloc(struct font **out, int w, int h, int n, bool colour);
/* The end of every loader. rc is 0 when m holds f's code points, else the
 * error already written into err. Builds f's index and hands f to *out; on
 * any failure frees f. Frees m's memory either way. */
int font_done(struct font **out, struct font *f, struct maplist *m, int rc, const char *name, char *err,
	      size_t errlen);
/* Reads the whole file path (a regular file, or a pipe to its end; not a
 * device or a directory, at most FONT_MAX_FILE bytes) into *data (the
 * caller frees it), *len bytes. 0, or a negative errno with one line in
 * err naming the file. */
int font_read_file(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen);
/* Doubles *buf (64 KiB at first) up to one byte more than FONT_MAX_FILE, so
 * that a larger file shows: -EFBIG when *cap is already past that, -ENOMEM. */
int font_grow(uint8_t **buf, size_t *cap);
/* Draws code point cp (U+2500..U+259F) into the w×h coverage bytes c
 * (zeroed by the caller). (font_builtin.c) */
void font_draw_builtin(uint8_t *c, int w, int h, uint32_t cp);

/* Loads the PNG or BMP sheet d[0..len) (kind names it in messages) laid out
 * as layout says, as font_load describes. (font_sheet.c) */
int font_load_image(struct font **out, const uint8_t *d, size_t len, const char *name, const char *kind,
		    enum font_layout layout, char *err, size_t errlen);
/* The cell size of the PNG/BMP sheet whose first n bytes are d, from its
 * header alone, as font_load_image would find it; false when the header
 * does not give one (not a sheet, damaged, no grid). (font_sheet.c) */
bool font_sheet_cell(const uint8_t *d, size_t n, const char *name, int *cw, int *ch);

/* For the tile sheets (font_tiles.c), through stb_image here: the size of
 * the image d[0..n) from its header (false: not an image stb_image reads),
 * and its pixels as 8-bit RGBA (NULL with *why set: it cannot be decoded;
 * freed by font_image_free). (font_sheet.c) */
bool font_image_size(const uint8_t *d, size_t n, int *w, int *h);
uint8_t *font_image_rgba(const uint8_t *d, size_t n, int *w, int *h, const char **why);
void font_image_free(uint8_t *px);

/* Load the PSF1 / PSF2 console font d[0..len), as font_load describes.
 * (font_psf.c) */
int font_load_psf1(struct font **out, const uint8_t *d, size_t len, const char *name, char *err, size_t errlen);
int font_load_psf2(struct font **out, const uint8_t *d, size_t len, const char *name, char *err, size_t errlen);
/* Decompresses the gzip data d[0..len) into a new buffer *out of *outlen
 * bytes (at most FONT_MAX_FILE), the caller frees it; on failure a negative
 * errno with one line in err. (font_psf.c) */
int font_gunzip(const uint8_t *d, size_t len, uint8_t **out, size_t *outlen, const char *name, char *err,
		size_t errlen);

#endif
