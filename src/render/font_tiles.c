/* font_tiles: tile sheets (pictures for map cells, tiles/README.md) for the font loader: a PNG of 16 columns of RGBA tiles (square, or of the size its name says), and the composite pictures the blitter draws from them. */
#include "render/font_int.h"
#include "core/log.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The tile size a sheet's file name gives: a base name ending in
 * "-WxH.<ext>" ("dcss-8x9.png"); false when it gives none. */
static bool name_tile_size(const char *name, int *tw, int *th)
{
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name, *dash = strrchr(base, '-');
	int w, h, end = 0;
	if (!dash || sscanf(dash + 1, "%4dx%4d%n", &w, &h, &end) != 2 || dash[1 + end] != '.' ||
	    strchr(dash + 2 + end, '.'))
		return false;
	for (const char *c = dash + 1; c < dash + 1 + end; c++)
		if (*c != 'x' && (*c < '0' || *c > '9')) /* no signs or blanks */
			return false;
	*tw = w;
	*th = h;
	return true;
}

/* The tiles' size of a w×h-pixel sheet called name (see font.h); false
 * with the reason in err (-EDOM) when it is not a sheet's size. */
static bool sheet_tile_size(int w, int h, const char *name, int *tw, int *th, char *err, size_t errlen)
{
	int nw, nh, t = w / FONT_TILES_COLS;
	if (name_tile_size(name, &nw, &nh)) {
		if (w % FONT_TILES_COLS || nw != t || nw < 4 || nw > FONT_MAX_CELL || nh < 4 || nh > FONT_MAX_CELL || h < nh || h % nh) {
			font_fail(err, errlen, name, -EDOM,
				  "image is %d×%d pixels, not a sheet of the %d×%d tiles its name says (16 columns: the "
				  "width must be 16 × %d, the height a multiple of %d)", w, h, nw, nh, nw, nh);
			return false;
		}
		*tw = nw;
		*th = nh;
		return true;
	}
	if (w % FONT_TILES_COLS || t < 4 || t > FONT_MAX_CELL || h < t || h % t) {
		font_fail(err, errlen, name, -EDOM,
			  "image is %d×%d pixels, not a tile sheet (16 columns of square tiles of 4 to %d pixels: "
			  "the width divides by 16, the height by the width / 16; tiles that are not square need "
			  "their size in the file name, as in sheet-8x9.png)", w, h, FONT_MAX_CELL);
		return false;
	}
	*tw = *th = t;
	return true;
}

int font_load_tiles_mem(struct font **out, const void *data, size_t len, const char *name, char *err, size_t errlen)
{
	*out = NULL;
	const uint8_t *d = data;
	if (len < 8 || memcmp(d, font_png_sig, 8))
		return font_fail(err, errlen, name, -EINVAL, "not a tile sheet (not a PNG image)");
	int w, h, t, th;
	const char *why = "unknown error";
	if (len > (size_t)FONT_MAX_FILE || !font_image_size(d, len, &w, &h))
		return font_fail(err, errlen, name, -EINVAL, "not a tile sheet (a damaged PNG)");
	if (!sheet_tile_size(w, h, name, &t, &th, err, errlen))
		return -EDOM;
	int rows = h / th, n = rows * FONT_TILES_COLS;
	if (n > FONT_MAX_GLYPHS || (size_t)w * (size_t)h > FONT_MAX_PIXELS)
		return font_fail(err, errlen, name, -EFBIG, "a tile sheet of %d×%d pixels is too large", w, h);
	uint8_t *px = font_image_rgba(d, len, &w, &h, &why);
	if (!px)
		return font_fail(err, errlen, name, -EINVAL, "not a tile sheet (a damaged PNG: %s)", why);
	struct font *f;
	if (font_alloc(&f, t, th, n, true)) {
		font_image_free(px);
		return font_fail(err, errlen, name, -ENOMEM, "out of memory for the tile sheet");
	}
	f->nfile = n;
	f->replacement = 0;
	snprintf(f->name, sizeof f->name, "%s", strrchr(name, '/') ? strrchr(name, '/') + 1 : name);
	bool any = false;
	for (int g = 0; g < n; g++)
		for (int y = 0; y < th; y++)
			for (int x = 0; x < t; x++) {
				const uint8_t *p = px + 4 * ((size_t)((g / FONT_TILES_COLS) * th + y) * (size_t)w +
							     (size_t)((g % FONT_TILES_COLS) * t + x));
				size_t i = (size_t)g * (size_t)t * (size_t)th + (size_t)y * (size_t)t + (size_t)x;
				f->colour[i] = (uint32_t)p[3] << 24 | (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
				f->coverage[i] = p[3];
				any |= p[3] != 0;
			}
	font_image_free(px);
	if (!any) {
		font_destroy(f);
		return font_fail(err, errlen, name, -EINVAL, "every tile of the sheet is transparent");
	}
	/* no code points: font_glyph gives glyph 0 */
	f->pagemem = calloc(256, sizeof *f->pagemem);
	if (!f->pagemem) {
		font_destroy(f);
		return font_fail(err, errlen, name, -ENOMEM, "out of memory for the tile sheet");
	}
	for (int p = 0; p < 256; p++)
		f->page[p] = f->pagemem;
	*out = f;
	return 0;
}

int font_load_tiles(struct font **out, const char *path, char *err, size_t errlen)
{
	*out = NULL;
	uint8_t *buf;
	size_t n;
	int rc = font_read_file(path, &buf, &n, err, errlen);
	if (rc)
		return rc;
	rc = font_load_tiles_mem(out, buf, n, path, err, errlen);
	free(buf);
	return rc;
}

bool font_tile_has(const struct font *sheet, int id)
{
	if (id <= 0 || id >= sheet->nglyphs)
		return false;
	const uint8_t *a = font_coverage(sheet, id);
	for (int i = 0; i < sheet->cell_w * sheet->cell_h; i++)
		if (a[i])
			return true;
	return false;
}

int font_tiles_slots(struct font **out, const struct font *sheet, int n, bool halves)
{
	*out = NULL;
	int w = halves ? sheet->cell_w / 2 : sheet->cell_w, k = halves ? 2 * n : n;
	if (n < 1 || (halves && sheet->cell_w % 2) || k > FONT_MAX_GLYPHS)
		return -EINVAL;
	struct font *f;
	if (font_alloc(&f, w, sheet->cell_h, k, true))
		return -ENOMEM;
	f->pagemem = calloc(256, sizeof *f->pagemem);
	if (!f->pagemem) {
		font_destroy(f);
		return -ENOMEM;
	}
	for (int p = 0; p < 256; p++)
		f->page[p] = f->pagemem;
	f->nfile = k;
	f->replacement = 0;
	snprintf(f->name, sizeof f->name, "%s", sheet->name);
	*out = f;
	return 0;
}

void font_tiles_compose(struct font *dst, int slot, const struct font *sheet, const int *layers, int n, bool dim)
{
	int t = sheet->cell_w, h = sheet->cell_h;
	bool halves = dst->cell_w != t;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < t; x++) {
			/* src-over, bottom layer first, in 8-bit straight alpha */
			uint32_t a = 0, r = 0, g = 0, b = 0;
			for (int k = 0; k < n; k++) {
				if (layers[k] <= 0 || layers[k] >= sheet->nglyphs)
					continue;
				uint32_t p = sheet->colour[(size_t)layers[k] * (size_t)t * (size_t)h + (size_t)y * (size_t)t +
							   (size_t)x];
				uint32_t sa = p >> 24;
				if (!sa)
					continue;
				uint32_t da = a * (255 - sa);             /* /255 */
				uint32_t oa = sa * 255 + da;              /* the new alpha × 255 */
				r = (((p >> 16) & 255) * sa * 255 + r * da + oa / 2) / oa;
				g = (((p >> 8) & 255) * sa * 255 + g * da + oa / 2) / oa;
				b = ((p & 255) * sa * 255 + b * da + oa / 2) / oa;
				a = (oa + 127) / 255;
			}
			if (dim) { /* remembered: darkened, a little towards blue */
				r = r * 40 / 100;
				g = g * 42 / 100;
				b = b * 52 / 100;
			}
			int gl = halves ? 2 * slot + (x >= dst->cell_w) : slot, gx = halves ? x % dst->cell_w : x;
			size_t i = (size_t)gl * (size_t)dst->cell_w * (size_t)h + (size_t)y * (size_t)dst->cell_w + (size_t)gx;
			dst->colour[i] = a << 24 | r << 16 | g << 8 | b;
			dst->coverage[i] = (uint8_t)a;
		}
}

int font_tilesets_add(struct font_tilesets *t, const char *path, bool decode, char *err, size_t errlen)
{
	if (t->n >= FONT_TILESETS_MAX)
		return font_fail(err, errlen, path, -ENOSPC, "too many tile sheets");
	struct font_tileset *k = &t->s[t->n];
	*k = (struct font_tileset){ 0 };
	if (decode) {
		int rc = font_load_tiles(&k->font, path, err, errlen);
		if (rc)
			return rc;
		k->w = k->font->cell_w;
		k->h = k->font->cell_h;
	} else {
		/* the header alone: a PNG's size is in its first 33 bytes */
		uint8_t buf[64];
		int w, h, fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			return font_fail(err, errlen, path, -errno, "cannot open tile sheet: %s", strerror(errno));
		ssize_t n = read(fd, buf, sizeof buf);
		close(fd);
		if (n < 33 || memcmp(buf, font_png_sig, 8) || !font_image_size(buf, (size_t)n, &w, &h))
			return font_fail(err, errlen, path, -EINVAL, "not a tile sheet (not a PNG image)");
		if (!sheet_tile_size(w, h, path, &k->w, &k->h, err, errlen))
			return -EDOM;
	}
	if (!(k->path = strdup(path))) {
		font_destroy(k->font);
		k->font = NULL;
		return font_fail(err, errlen, path, -ENOMEM, "out of memory");
	}
	t->n++;
	return 0;
}

const struct font *font_tilesets_get(struct font_tilesets *t, int w, int h)
{
	for (int i = 0; i < t->n; i++) {
		struct font_tileset *k = &t->s[i];
		if (k->w != w || k->h != h)
			continue;
		if (!k->font && !k->failed) {
			char err[512];
			if (font_load_tiles(&k->font, k->path, err, sizeof err)) {
				k->failed = true;
				log_error("%s (%s)", err, t->advice ? t->advice : "drawing glyphs");
			}
		}
		return k->font;
	}
	return NULL;
}

void font_tilesets_clear(struct font_tilesets *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->n; i++) {
		free(t->s[i].path);
		font_destroy(t->s[i].font);
	}
	t->n = 0;
}
