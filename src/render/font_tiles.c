/* font_tiles: tile sheets (pictures for map cells, tiles/README.md) for the font loader: a PNG of 16 columns of square RGBA tiles, and the composite pictures the blitter draws from them. */
#include "render/font_int.h"
#include "core/log.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int font_load_tiles_mem(struct font **out, const void *data, size_t len, const char *name, char *err, size_t errlen)
{
	*out = NULL;
	const uint8_t *d = data;
	if (len < 8 || memcmp(d, font_png_sig, 8))
		return font_fail(err, errlen, name, -EINVAL, "not a tile sheet (not a PNG image)");
	int w, h;
	const char *why = "unknown error";
	if (len > (size_t)FONT_MAX_FILE || !font_image_size(d, len, &w, &h))
		return font_fail(err, errlen, name, -EINVAL, "not a tile sheet (a damaged PNG)");
	int t = w / FONT_TILES_COLS;
	if (w % FONT_TILES_COLS || t < 4 || t > FONT_MAX_CELL || h < t || h % t)
		return font_fail(err, errlen, name, -EDOM,
				 "image is %d×%d pixels, not a tile sheet (16 columns of square tiles of 4 to %d pixels: "
				 "the width divides by 16, the height by the width / 16)", w, h, FONT_MAX_CELL);
	int rows = h / t, n = rows * FONT_TILES_COLS;
	if (n > FONT_MAX_GLYPHS || (size_t)w * (size_t)h > FONT_MAX_PIXELS)
		return font_fail(err, errlen, name, -EFBIG, "a tile sheet of %d×%d pixels is too large", w, h);
	uint8_t *px = font_image_rgba(d, len, &w, &h, &why);
	if (!px)
		return font_fail(err, errlen, name, -EINVAL, "not a tile sheet (a damaged PNG: %s)", why);
	struct font *f;
	if (font_alloc(&f, t, t, n, true)) {
		font_image_free(px);
		return font_fail(err, errlen, name, -ENOMEM, "out of memory for the tile sheet");
	}
	f->nfile = n;
	f->replacement = 0;
	snprintf(f->name, sizeof f->name, "%s", strrchr(name, '/') ? strrchr(name, '/') + 1 : name);
	bool any = false;
	for (int g = 0; g < n; g++)
		for (int y = 0; y < t; y++)
			for (int x = 0; x < t; x++) {
				const uint8_t *p = px + 4 * ((size_t)((g / FONT_TILES_COLS) * t + y) * (size_t)w +
							     (size_t)((g % FONT_TILES_COLS) * t + x));
				size_t i = (size_t)g * (size_t)t * (size_t)t + (size_t)y * (size_t)t + (size_t)x;
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
		k->size = k->font->cell_w;
	} else {
		/* the header alone: a PNG's size is in its first 33 bytes */
		uint8_t buf[64];
		int w, h, fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			return font_fail(err, errlen, path, -errno, "cannot open tile sheet: %s", strerror(errno));
		ssize_t n = read(fd, buf, sizeof buf);
		close(fd);
		bool ok = n >= 33 && !memcmp(buf, font_png_sig, 8) && font_image_size(buf, (size_t)n, &w, &h) &&
			  w % FONT_TILES_COLS == 0 && w / FONT_TILES_COLS >= 4 && h % (w / FONT_TILES_COLS) == 0;
		if (!ok)
			return font_fail(err, errlen, path, -EINVAL, "not a tile sheet (a PNG of 16 columns of square tiles)");
		k->size = w / FONT_TILES_COLS;
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
	if (w != h)
		return NULL;
	for (int i = 0; i < t->n; i++) {
		struct font_tileset *k = &t->s[i];
		if (k->size != w)
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
