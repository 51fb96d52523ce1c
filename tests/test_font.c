#include "testutil.h"
#include "render/font.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <stb_image_write.h>

#include "allochook.h"

/* ---- helpers: a growing byte buffer, image and PSF builders ---------- */

struct buf {
	uint8_t *d;
	size_t n, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->d = realloc(b->d, b->cap);
		assert_non_null(b->d);
	}
	memcpy(b->d + b->n, p, n);
	b->n += n;
}

static void put8(struct buf *b, unsigned v)
{
	uint8_t c = (uint8_t)v;
	put(b, &c, 1);
}

static void put16(struct buf *b, unsigned v)
{
	put8(b, v & 0xFF);
	put8(b, v >> 8);
}

static void put32(struct buf *b, uint32_t v)
{
	put16(b, v & 0xFFFF);
	put16(b, v >> 16);
}

static void put_utf8(struct buf *b, uint32_t cp)
{
	if (cp < 0x80) {
		put8(b, cp);
	} else if (cp < 0x800) {
		put8(b, 0xC0 | cp >> 6);
		put8(b, 0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		put8(b, 0xE0 | cp >> 12);
		put8(b, 0x80 | ((cp >> 6) & 0x3F));
		put8(b, 0x80 | (cp & 0x3F));
	} else {
		put8(b, 0xF0 | cp >> 18);
		put8(b, 0x80 | ((cp >> 12) & 0x3F));
		put8(b, 0x80 | ((cp >> 6) & 0x3F));
		put8(b, 0x80 | (cp & 0x3F));
	}
}

static void write_cb(void *ctx, void *data, int size)
{
	put(ctx, data, (size_t)size);
}

static struct buf png(int w, int h, int comp, const uint8_t *px)
{
	struct buf b = {0};
	assert_true(stbi_write_png_to_func(write_cb, &b, w, h, comp, px, w * comp));
	return b;
}

/* Deterministic pattern bit for PSF glyph g at (x, y). */
static int pat(int g, int x, int y)
{
	return ((g * 7 + x * 3 + y * 5) % 11) < 4;
}

/* A PSF2 of n glyphs w×h with pattern bitmaps; table: when non-NULL, the
 * raw bytes of the Unicode table (flag set). hdr_n overrides the glyph count
 * written in the header when nonzero. */
static struct buf psf2(int n, int w, int h, const struct buf *table)
{
	struct buf b = {0};
	int row = (w + 7) / 8;
	put32(&b, 0x864AB572);
	put32(&b, 0);
	put32(&b, 32);
	put32(&b, table ? 1 : 0);
	put32(&b, (uint32_t)n);
	put32(&b, (uint32_t)(row * h));
	put32(&b, (uint32_t)h);
	put32(&b, (uint32_t)w);
	for (int g = 0; g < n; g++)
		for (int y = 0; y < h; y++)
			for (int r = 0; r < row; r++) {
				unsigned byte = 0;
				for (int bit = 0; bit < 8; bit++) {
					int x = r * 8 + bit;
					if (x < w && pat(g, x, y))
						byte |= 0x80u >> bit;
				}
				put8(&b, byte);
			}
	if (table)
		put(&b, table->d, table->n);
	return b;
}

static void check_pattern(const struct font *f, int g)
{
	const uint8_t *c = font_coverage(f, g);
	for (int y = 0; y < f->cell_h; y++)
		for (int x = 0; x < f->cell_w; x++)
			assert_int_equal(c[y * f->cell_w + x], pat(g, x, y) ? 255 : 0);
}

static struct buf gzip(const struct buf *in)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
	struct buf b = {0};
	b.cap = deflateBound(&zs, in->n) + 64;
	b.d = malloc(b.cap);
	zs.next_in = in->d;
	zs.avail_in = (uInt)in->n;
	zs.next_out = b.d;
	zs.avail_out = (uInt)b.cap;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	b.n = b.cap - zs.avail_out;
	deflateEnd(&zs);
	return b;
}

static int load(struct font **f, const struct buf *b, char *err)
{
	return font_load_mem(f, b->d, b->n, "x/test.font", err, 256);
}

static bool blank(const struct font *f, int g)
{
	const uint8_t *c = font_coverage(f, g);
	for (int i = 0; i < f->cell_w * f->cell_h; i++)
		if (c[i])
			return false;
	return true;
}

/* Expects loading b to fail with a message naming the file and containing
 * needle. */
static void expect_error(const struct buf *b, int rc, const char *needle)
{
	struct font *f = (struct font *)1;
	char err[256];
	int r = load(&f, b, err);
	if (r != rc || !strstr(err, needle) || strncmp(err, "x/test.font: ", 13) || strchr(err, '\n'))
		fail_msg("expected %d \"%s\", got %d \"%s\"", rc, needle, r, err);
	assert_null(f);
}

/* The n bytes at d are no font: an error, no font, an error line. */
static void expect_no_font(const uint8_t *d, size_t n)
{
	struct font *f;
	char err[256];
	assert_int_not_equal(font_load_mem(&f, d, n, "t", err, sizeof err), 0);
	assert_null(f);
	assert_true(strlen(err) > 3);
}

/* ---- CP437 table ------------------------------------------------------ */

static void test_cp437_table(void **st)
{
	(void)st;
	assert_int_equal(cp437_to_unicode[0x00], 0);
	assert_int_equal(cp437_to_unicode[0x01], 0x263A);
	assert_int_equal(cp437_to_unicode[0x03], 0x2665);
	assert_int_equal(cp437_to_unicode[0x18], 0x2191);
	assert_int_equal(cp437_to_unicode[0x1B], 0x2190);
	assert_int_equal(cp437_to_unicode['A'], 'A');
	assert_int_equal(cp437_to_unicode[0x7F], 0x2302);
	assert_int_equal(cp437_to_unicode[0x80], 0x00C7);
	assert_int_equal(cp437_to_unicode[0xB1], 0x2592);
	assert_int_equal(cp437_to_unicode[0xB3], 0x2502);
	assert_int_equal(cp437_to_unicode[0xC4], 0x2500);
	assert_int_equal(cp437_to_unicode[0xDA], 0x250C);
	assert_int_equal(cp437_to_unicode[0xE1], 0x00DF);
	assert_int_equal(cp437_to_unicode[0xFE], 0x25A0);
	assert_int_equal(cp437_to_unicode[0xFF], 0x00A0);
	for (int i = 0; i < 256; i++)
		for (int j = i + 1; j < 256; j++)
			assert_int_not_equal(cp437_to_unicode[i], cp437_to_unicode[j]);
}

/* ---- PNG tilesets ----------------------------------------------------- */

/* A 16×16 grid of cw×ch tiles, one grey channel: tile g pixel (x, y) has
 * value (g + x * 17 + y * 31) & 0xFF, tile 0 not uniform. */
static uint8_t *grey_grid(int cw, int ch)
{
	uint8_t *px = malloc((size_t)cw * 16 * (size_t)ch * 16);
	for (int g = 0; g < 256; g++)
		for (int y = 0; y < ch; y++)
			for (int x = 0; x < cw; x++)
				px[((g / 16) * ch + y) * cw * 16 + (g % 16) * cw + x] =
					(uint8_t)((g + x * 17 + y * 31) & 0xFF);
	return px;
}

static void test_png_greyscale_coverage(void **st)
{
	(void)st;
	int cw = 3, ch = 5;
	uint8_t *px = grey_grid(cw, ch);
	struct buf b = png(cw * 16, ch * 16, 1, px);
	struct font *f;
	char err[256];
	assert_int_equal(load(&f, &b, err), 0);
	assert_int_equal(f->cell_w, 3);
	assert_int_equal(f->cell_h, 5);
	assert_int_equal(f->nfile, 256);
	assert_null(f->colour);
	assert_string_equal(f->name, "test.font");
	for (int g = 0; g < 256; g++)
		for (int y = 0; y < ch; y++)
			for (int x = 0; x < cw; x++)
				assert_int_equal(font_coverage(f, g)[y * cw + x], (g + x * 17 + y * 31) & 0xFF);
	/* Glyph i is CP437 byte i. */
	assert_int_equal(font_glyph(f, 'A'), 'A');
	assert_int_equal(font_glyph(f, 0x2665), 3);
	assert_int_equal(font_glyph(f, 0x2592), 0xB1);
	assert_int_equal(font_glyph(f, 0x00A0), 0xFF);
	assert_true(font_has(f, 0x2302));
	assert_false(font_has(f, 0x4E00));
	assert_int_equal(font_glyph(f, 0x4E00), '?'); /* replacement: '?' */
	assert_int_equal(font_glyph(f, 0x1F600), '?');
	/* look-alikes share CP437 tiles */
	assert_int_equal(font_glyph(f, 0x25B6), 0x10);
	assert_int_equal(font_glyph(f, 0x03B2), 0xE1);
	assert_int_equal(font_glyph(f, 0x2205), 0xED);
	assert_int_equal(font_glyph(f, 0x03D5), 0xED);
	assert_int_equal(font_glyph(f, 0x25AA), 0xFE);
	assert_true(font_has(f, 0x2126));
	size_t own = 0;
	for (size_t i = 0; i < f->map_len; i++)
		own += f->map[i].glyph < f->nfile;
	assert_int_equal(own, 256 + 12);
	font_destroy(f);

	/* Same grid as grey + alpha with white: coverage = alpha × grey / 255. */
	size_t n = (size_t)cw * 16 * (size_t)ch * 16;
	uint8_t *ga = malloc(n * 2);
	for (size_t i = 0; i < n; i++) {
		ga[2 * i] = 255;
		ga[2 * i + 1] = px[i];
	}
	free(b.d);
	b = png(cw * 16, ch * 16, 2, ga);
	assert_int_equal(load(&f, &b, err), 0);
	assert_null(f->colour);
	for (int g = 0; g < 256; g++)
		assert_int_equal(font_coverage(f, g)[0], g & 0xFF);
	font_destroy(f);
	/* Half grey under full alpha: 128. */
	for (size_t i = 0; i < n; i++) {
		ga[2 * i] = 128;
		ga[2 * i + 1] = 255;
	}
	ga[1] = 0; /* one transparent pixel keeps the image from being keyed */
	free(b.d);
	b = png(cw * 16, ch * 16, 2, ga);
	assert_int_equal(load(&f, &b, err), 0);
	assert_int_equal(font_coverage(f, 'A')[0], 128);
	font_destroy(f);
	free(ga);
	free(b.d);
	free(px);
}

static void test_png_white_on_black_keyed(void **st)
{
	(void)st;
	/* The usual libtcod layout: white glyphs on black, tile 0 all black. */
	int cw = 8, ch = 8, w = 128, h = 128;
	uint8_t *px = calloc((size_t)w * h, 3);
	for (int g = 1; g < 256; g++)
		for (int y = 0; y < ch; y++)
			for (int x = 0; x < cw; x++)
				if ((x + y + g) % 3 == 0)
					memset(px + (((g / 16) * ch + y) * w + (g % 16) * cw + x) * 3, 255, 3);
	struct buf b = png(w, h, 3, px);
	struct font *f;
	char err[256];
	assert_int_equal(load(&f, &b, err), 0);
	assert_null(f->colour);
	for (int g = 1; g < 256; g++)
		for (int y = 0; y < ch; y++)
			for (int x = 0; x < cw; x++)
				assert_int_equal(font_coverage(f, g)[y * cw + x], (x + y + g) % 3 == 0 ? 255 : 0);
	font_destroy(f);
	free(b.d);
	free(px);
}

static void test_png_colour_key(void **st)
{
	(void)st;
	/* Magenta background (tile 0 entirely magenta) with red and white
	 * pixels: full colour, magenta becomes transparent. */
	int cw = 4, ch = 4, w = 64, h = 64;
	uint8_t *px = malloc((size_t)w * h * 3);
	for (int i = 0; i < w * h; i++) {
		px[i * 3] = 255;
		px[i * 3 + 1] = 0;
		px[i * 3 + 2] = 255;
	}
	/* tile 'A' (row 4, col 1): pixel (1,1) red, (2,2) white */
	uint8_t *red = px + ((4 * ch + 1) * w + 1 * cw + 1) * 3;
	red[0] = 255, red[1] = 0, red[2] = 0;
	uint8_t *white = px + ((4 * ch + 2) * w + 1 * cw + 2) * 3;
	white[0] = white[1] = white[2] = 255;
	struct buf b = png(w, h, 3, px);
	struct font *f;
	char err[256];
	assert_int_equal(load(&f, &b, err), 0);
	assert_non_null(f->colour);
	const uint32_t *a = f->colour + (size_t)'A' * 16;
	assert_int_equal(a[1 * 4 + 1], 0xFFFF0000u);
	assert_int_equal(a[2 * 4 + 2], 0xFFFFFFFFu);
	assert_int_equal(a[0], 0); /* key colour: transparent */
	assert_int_equal(font_coverage(f, 'A')[0], 0);
	assert_int_equal(font_coverage(f, 'A')[5], 255);
	/* '?' is blank in this tileset: the replacement is a generated box. */
	assert_int_equal(f->nfile, 256);
	int rg = f->nglyphs - 1;
	assert_int_equal(font_glyph(f, 0x4E00), rg);
	assert_false(blank(f, rg));
	assert_int_equal(f->colour[(size_t)rg * 16] >> 24, 0xFF);
	font_destroy(f);

	/* Without the red pixel what is left after keying is grey: coverage. */
	red[0] = 255, red[1] = 0, red[2] = 255;
	free(b.d);
	b = png(w, h, 3, px);
	assert_int_equal(load(&f, &b, err), 0);
	assert_null(f->colour);
	assert_int_equal(font_coverage(f, 'A')[2 * 4 + 2], 255);
	assert_int_equal(font_coverage(f, 'A')[1 * 4 + 1], 0);
	font_destroy(f);

	/* A colour tileset whose tile 0 is not uniform: nothing keyed. */
	px[0] = 0;
	free(b.d);
	b = png(w, h, 3, px);
	assert_int_equal(load(&f, &b, err), 0);
	assert_non_null(f->colour);
	assert_int_equal(f->colour[1], 0xFFFF00FFu);
	assert_int_equal(f->colour[0], 0xFF0000FFu);
	font_destroy(f);
	free(b.d);
	free(px);
}

static void test_bmp_tileset(void **st)
{
	(void)st;
	uint8_t *px = grey_grid(2, 2);
	struct buf b = {0};
	uint8_t rgb[32 * 32 * 3];
	for (int i = 0; i < 32 * 32; i++)
		rgb[i * 3] = rgb[i * 3 + 1] = rgb[i * 3 + 2] = px[i];
	assert_true(stbi_write_bmp_to_func(write_cb, &b, 32, 32, 3, rgb));
	struct font *f;
	char err[256];
	assert_int_equal(load(&f, &b, err), 0);
	assert_int_equal(f->cell_w, 2);
	assert_int_equal(font_coverage(f, 7)[3], (7 + 17 + 31) & 0xFF);
	font_destroy(f);
	free(b.d);
	free(px);
}

static void test_png_errors(void **st)
{
	(void)st;
	uint8_t *px = calloc(300 * 16 * 20, 1);
	struct buf b = png(100, 64, 1, px);
	expect_error(&b, -EINVAL, "image is 100×64 pixels, not a 16×16 grid of tiles");
	free(b.d);
	b = png(8, 8, 1, px);
	expect_error(&b, -EINVAL, "8×8 pixels");
	free(b.d);
	b = png(301 * 16, 16, 1, px);
	expect_error(&b, -EFBIG, "tiles of 301×1 pixels are larger");
	free(b.d);
	/* truncated: header intact, data cut */
	b = png(128, 128, 1, px);
	b.n = 60;
	expect_error(&b, -EINVAL, "PNG");
	/* every truncation either fails cleanly or yields a valid font */
	for (size_t n = 0; n < 60; n++)
		expect_no_font(b.d, n);
	free(b.d);
	free(px);
}

/* ---- PSF -------------------------------------------------------------- */

static void test_psf2_unicode_table(void **st)
{
	(void)st;
	/* 300 glyphs of 10×12; glyph g shows U+0100+g, glyph 1 also 'A' and a
	 * sequence, glyph 2 U+1F600, glyph 299 U+FFFD. */
	struct buf t = {0};
	for (int g = 0; g < 300; g++) {
		if (g == 299)
			put_utf8(&t, 0xFFFD);
		else
			put_utf8(&t, 0x100 + (uint32_t)g);
		if (g == 1) {
			put_utf8(&t, 'A');
			put8(&t, 0xFE);
			put_utf8(&t, 'B'); /* sequence B + combining: not a single cp */
			put_utf8(&t, 0x301);
		}
		if (g == 2)
			put_utf8(&t, 0x1F600);
		if (g == 3)
			put8(&t, 0xC3); /* malformed UTF-8: skipped */
		put8(&t, 0xFF);
	}
	struct buf b = psf2(300, 10, 12, &t);
	struct font *f;
	char err[256];
	assert_int_equal(load(&f, &b, err), 0);
	assert_int_equal(f->cell_w, 10);
	assert_int_equal(f->cell_h, 12);
	assert_int_equal(f->nfile, 300);
	assert_null(f->colour);
	check_pattern(f, 0);
	check_pattern(f, 123);
	check_pattern(f, 299);
	assert_int_equal(font_glyph(f, 0x100), 0);
	assert_int_equal(font_glyph(f, 0x100 + 250), 250);
	assert_int_equal(font_glyph(f, 'A'), 1);
	assert_false(font_has(f, 'B'));
	assert_false(font_has(f, 0x301));
	assert_int_equal(font_glyph(f, 0x1F600), 2);
	assert_int_equal(font_glyph(f, 0x103), 3);
	assert_int_equal(f->replacement, 299);
	assert_int_equal(font_glyph(f, 'B'), 299);
	assert_int_equal(font_glyph(f, 0x1F601), 299);
	assert_int_equal(font_glyph(f, 0x10FFFF), 299);
	assert_int_equal(font_glyph(f, 0xFFFFFFFF), 299);
	font_destroy(f);

	/* gzip-compressed: the same font */
	struct buf z = gzip(&b);
	assert_int_equal(load(&f, &z, err), 0);
	assert_int_equal(f->nfile, 300);
	check_pattern(f, 200);
	assert_int_equal(font_glyph(f, 0x1F600), 2);
	font_destroy(f);

	/* through the file system */
	char path[] = "/tmp/pirogue-test-font-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, z.d, z.n), (ssize_t)z.n);
	close(fd);
	assert_int_equal(font_load(&f, path, err, sizeof err), 0);
	assert_string_equal(f->name, strrchr(path, '/') + 1);
	assert_int_equal(font_glyph(f, 0x100 + 42), 42);
	font_destroy(f);
	unlink(path);
	free(z.d);
	free(b.d);
	free(t.d);
}

static void test_psf_without_replacement_gets_box(void **st)
{
	(void)st;
	/* 4 glyphs mapped to 'a'..'d' only: no U+FFFD, no '?'. */
	struct buf t = {0};
	for (int g = 0; g < 4; g++) {
		put_utf8(&t, 'a' + (uint32_t)g);
		put8(&t, 0xFF);
	}
	struct buf b = psf2(4, 8, 8, &t);
	struct font *f;
	char err[256];
	assert_int_equal(load(&f, &b, err), 0);
	/* after the file's 4 and the box-drawing glyphs pirogue drew */
	assert_int_equal(f->nfile, 4);
	assert_int_equal(f->replacement, f->nglyphs - 1);
	assert_int_equal(font_glyph(f, '?'), f->replacement);
	assert_int_equal(font_glyph(f, 'c'), 2);
	assert_false(blank(f, f->replacement));
	const uint8_t *box = font_coverage(f, f->replacement);
	assert_int_equal(box[1 * 8 + 1], 255); /* outline corner */
	assert_int_equal(box[4 * 8 + 4], 0);   /* hollow */
	font_destroy(f);
	free(b.d);
	free(t.d);

	/* 1×1 glyphs: the box is one lit pixel, still visible. */
	b = psf2(1, 1, 1, NULL);
	assert_int_equal(load(&f, &b, err), 0);
	assert_int_equal(f->nfile, 1);
	assert_int_equal(f->replacement, f->nglyphs - 1);
	assert_int_equal(font_coverage(f, font_glyph(f, 0x4E00))[0], 255);
	font_destroy(f);
	free(b.d);
}

static void test_psf1(void **st)
{
	(void)st;
	/* 256 glyphs of 8×14, mode 0x02 table: glyph g = U+2000+g, glyph 0x3F
	 * also '?', glyph 5 has a sequence. */
	struct buf b = {0};
	put8(&b, 0x36);
	put8(&b, 0x04);
	put8(&b, 0x02);
	put8(&b, 14);
	for (int g = 0; g < 256; g++)
		for (int y = 0; y < 14; y++) {
			unsigned byte = 0;
			for (int x = 0; x < 8; x++)
				if (pat(g, x, y))
					byte |= 0x80u >> x;
			put8(&b, byte);
		}
	size_t bitmaps_end = b.n;
	for (int g = 0; g < 256; g++) {
		put16(&b, 0x2000 + (unsigned)g);
		if (g == 0x3F)
			put16(&b, '?');
		if (g == 5) {
			put16(&b, 0xFFFE);
			put16(&b, 'x');
			put16(&b, 0x308);
		}
		put16(&b, 0xFFFF);
	}
	struct font *f;
	char err[256];
	assert_int_equal(load(&f, &b, err), 0);
	assert_int_equal(f->cell_w, 8);
	assert_int_equal(f->cell_h, 14);
	assert_int_equal(f->nfile, 256);
	check_pattern(f, 77);
	assert_int_equal(font_glyph(f, 0x2000 + 77), 77);
	assert_int_equal(font_glyph(f, 0x2005), 5);
	assert_false(font_has(f, 'x'));
	assert_int_equal(f->replacement, 0x3F);
	assert_int_equal(font_glyph(f, 'x'), 0x3F);
	font_destroy(f);

	/* truncated table */
	struct buf c = b;
	c.n -= 3;
	expect_error(&c, -EINVAL, "Unicode table truncated");
	/* without a table (mode 0): CP437 order */
	b.d[2] = 0x00;
	c.n = bitmaps_end;
	assert_int_equal(load(&f, &c, err), 0);
	assert_int_equal(font_glyph(f, 0x2665), 3);
	assert_int_equal(font_glyph(f, 0x2592), 0xB1);
	assert_int_equal(font_glyph(f, 'Q'), 'Q');
	assert_int_equal(font_glyph(f, 0x2190), 0x1B);
	assert_int_equal(font_glyph(f, 0x25C0), 0x11);
	font_destroy(f);
	/* 512-glyph mode with only 256 glyphs' data: truncated */
	b.d[2] = 0x01;
	expect_error(&c, -EINVAL, "too short for 512 glyphs");
	b.d[2] = 0x00;
	b.d[3] = 0;
	expect_error(&c, -EINVAL, "0 pixels tall");
	b.d[3] = 14;
	b.d[2] = 0x40;
	expect_error(&c, -EINVAL, "mode");
	c.n = 3;
	expect_error(&c, -EINVAL, "PSF1 header truncated");
	free(b.d);
}

static void set32(struct buf *b, size_t off, uint32_t v)
{
	b->d[off] = v & 0xFF;
	b->d[off + 1] = (v >> 8) & 0xFF;
	b->d[off + 2] = (v >> 16) & 0xFF;
	b->d[off + 3] = v >> 24;
}

static void test_psf2_damaged(void **st)
{
	(void)st;
	struct buf t = {0};
	for (int g = 0; g < 8; g++) {
		put_utf8(&t, 'a' + (uint32_t)g);
		put8(&t, 0xFF);
	}
	struct buf good = psf2(8, 8, 16, &t);
	struct buf b = {0};
#define FRESH() (free(b.d), b.n = 0, b.cap = 0, b.d = NULL, put(&b, good.d, good.n))
	/* One header field (at byte off) set to v. */
	static const struct {
		size_t off;
		uint32_t v;
		const char *error;
	} bad_field[] = {
		{16, 0, "0 glyphs"},
		{16, 0x80000000u, "2147483648 glyphs"},
		{16, 0xFFFFFFFFu, "glyphs"},
		{16, 9, "Unicode table truncated"}, /* one glyph more than the data holds */
		{16, 20, "too short for 20 glyphs"},
		{8, 0x7FFFFFFF, "header size"},
		{8, 4, "header size"},
		{20, 15, "do not match"},
		{28, 0, "impossible"},
		{4, 1, "version"},
	};
	for (size_t i = 0; i < sizeof bad_field / sizeof bad_field[0]; i++) {
		FRESH();
		set32(&b, bad_field[i].off, bad_field[i].v);
		expect_error(&b, -EINVAL, bad_field[i].error);
	}
	FRESH();
	set32(&b, 28, 100000);
	set32(&b, 20, 16 * 12500);
	expect_error(&b, -EINVAL, "impossible");
	FRESH();
	b.d[0] = 0x73;
	expect_error(&b, -EINVAL, "bad magic");
	FRESH();
	b.n = 20;
	expect_error(&b, -EINVAL, "PSF2 header truncated");
	FRESH();
	b.n = 0;
	expect_error(&b, -EINVAL, "empty");
	/* Every truncation of the plain and the gzipped font is an error. */
	struct buf z = gzip(&good);
	for (size_t n = 0; n < good.n; n++)
		expect_no_font(good.d, n);
	for (size_t n = 0; n < z.n; n++)
		expect_no_font(z.d, n);
	/* Byte flips anywhere: an error line or a usable font, never a crash. */
	uint32_t s = 12345;
	for (int i = 0; i < 3000; i++) {
		FRESH();
		for (int k = 0; k < 3; k++) {
			s = s * 1103515245u + 12345u;
			b.d[(s >> 8) % b.n] = (uint8_t)(s >> 20);
		}
		struct font *f;
		char err[256];
		int rc = font_load_mem(&f, b.d, b.n, "t", err, sizeof err);
		if (rc == 0) {
			for (uint32_t cp = 0; cp < 0x200; cp++)
				assert_true(font_glyph(f, cp) < f->nglyphs);
			assert_false(blank(f, f->replacement));
			font_destroy(f);
		} else {
			assert_true(strlen(err) > 3);
		}
	}
#undef FRESH
	free(z.d);
	free(b.d);
	free(good.d);
	free(t.d);
}

static void test_gzip_errors(void **st)
{
	(void)st;
	struct buf good = psf2(64, 8, 8, NULL);
	struct buf z = gzip(&good);
	struct buf b = {0};
	put(&b, z.d, z.n);
	b.d[z.n / 2] ^= 0x55;
	b.d[z.n / 2 + 1] ^= 0xAA;
	expect_error(&b, -EINVAL, "gzip");
	b.n = 0;
	put(&b, z.d, z.n / 2);
	expect_error(&b, -EINVAL, "gzip data is truncated");
	/* gzip around something that is not a PSF */
	struct buf junk = {0};
	for (int i = 0; i < 100; i++)
		put8(&junk, 'j');
	struct buf zj = gzip(&junk);
	expect_error(&zj, -EINVAL, "gzip content is not a PSF");
	/* gzip bomb: 20 MiB of zeros */
	struct buf big = {0};
	big.cap = big.n = 20u << 20;
	big.d = calloc(big.n, 1);
	struct buf zb = gzip(&big);
	expect_error(&zb, -EFBIG, "more than 16 MiB");
	free(big.d);
	free(zb.d);
	free(zj.d);
	free(junk.d);
	free(b.d);
	free(z.d);
	free(good.d);
}

static void test_file_errors(void **st)
{
	(void)st;
	struct font *f = (struct font *)1;
	char err[256];
	assert_int_equal(font_load(&f, "/nonexistent/dir/font.psf", err, sizeof err), -ENOENT);
	assert_null(f);
	assert_non_null(strstr(err, "/nonexistent/dir/font.psf: cannot open font"));
	assert_int_equal(font_load(&f, "/tmp", err, sizeof err), -EISDIR);
	assert_non_null(strstr(err, "/tmp: is a directory"));
	/* A tiny error buffer is not overrun. */
	char small[8];
	memset(small, 'Z', sizeof small);
	assert_int_equal(font_load(&f, "/nonexistent", small, 5), -ENOENT);
	assert_int_equal(small[4], 0);
	assert_int_equal(small[5], 'Z');
	font_destroy(NULL);
}

/* ---- issue 11: the table reader, messages, FIFOs, blank sheets ---------- */

/* A maximal PSF2 Unicode table (the whole 16 MiB a font may have): one
 * glyph whose entry is 'A', then bytes that are no UTF-8, then U+263A,
 * with the end marker last. The reader used to scan to the next separator
 * for every code point (hours for this table); linear, it is a fraction of
 * a second (bench_font measures it against a scan of the same bytes). The
 * alarm is only a hang guard, not a timing: it turns a hang into a failure. */
static void test_psf2_maximal_table(void **st)
{
	(void)st;
	struct buf t = {0};
	size_t room = FONT_MAX_FILE - 32 - 1;
	t.cap = room;
	t.d = malloc(room);
	assert_non_null(t.d);
	t.d[0] = 'A';
	memset(t.d + 1, 0x80, room - 1);
	t.n = room;
	uint8_t tail[4] = {0xE2, 0x98, 0xBA, 0xFF}; /* U+263A, end of glyph 0 */
	memcpy(t.d + room - 4, tail, 4);
	struct buf b = psf2(1, 8, 1, &t);
	assert_int_equal(b.n, FONT_MAX_FILE);
	struct font *f;
	char err[256];
	alarm(120);
	int rc = load(&f, &b, err);
	alarm(0);
	if (rc)
		fail_msg("%s", err);
	assert_int_equal(font_glyph(f, 'A'), 0);
	assert_int_equal(font_glyph(f, 0x263A), 0);
	font_destroy(f);
	free(b.d);
	free(t.d);
}

/* A table of a few glyphs mapping one code point over and over, 16 MiB of
 * it (16 KB gzipped): refused with one line, and no allocation bigger than
 * the file (the map of 16 million entries took 216 MB and 1.4 s; measured
 * here by the size of the largest allocation, not by time). At most
 * FONT_MAP_PER_GLYPH (64) code points a glyph on average load. */
static void test_psf2_table_bounded_by_glyphs(void **st)
{
	(void)st;
	if (!ALLOCHOOK_COUNTING) {
		print_message("skipped: built with AddressSanitizer, whose allocator cannot be measured\n");
		skip();
	}
	struct buf t = {0};
	size_t room = FONT_MAX_FILE - 32 - 2 * 16 - 1;
	t.cap = room;
	t.d = malloc(room);
	assert_non_null(t.d);
	memset(t.d, 'A', room - 2);
	t.d[room - 2] = 0xFF; /* end of glyph 0 */
	t.d[room - 1] = 0xFF; /* end of glyph 1 */
	t.n = room;
	struct buf b = psf2(2, 8, 16, &t);
	assert_int_equal(b.n, FONT_MAX_FILE - 1);
	struct buf z = gzip(&b);
	assert_true(z.n < 64 * 1024);
	struct font *f = (struct font *)1;
	char err[256];
	alloc_largest = 0;
	int rc = load(&f, &b, err);
	size_t largest = alloc_largest;
	assert_int_equal(rc, -EINVAL);
	assert_null(f);
	assert_non_null(strstr(err, "x/test.font: Unicode table maps more than 128 code points to its 2 glyphs"));
	if (largest > 64 * 1024)
		fail_msg("loading a 2-glyph font allocated %zu bytes at once", largest);
	/* gzipped: the file itself is the largest allocation */
	alloc_largest = 0;
	rc = load(&f, &z, err);
	largest = alloc_largest;
	assert_int_equal(rc, -EINVAL);
	if (largest > FONT_MAX_FILE + 1)
		fail_msg("loading a 2-glyph gzipped font of %zu bytes allocated %zu bytes at once", b.n, largest);
	free(z.d);
	free(b.d);
	free(t.d);

	/* 128 distinct code points for 2 glyphs: loaded; 129: refused */
	for (int extra = 0; extra <= 1; extra++) {
		struct buf u = {0};
		for (uint32_t cp = 0x100; cp < 0x100 + 100 + (uint32_t)extra; cp++)
			put_utf8(&u, cp);
		put8(&u, 0xFF);
		for (uint32_t cp = 'a'; cp < 'a' + 28; cp++)
			put_utf8(&u, cp);
		put8(&u, 0xFF);
		b = psf2(2, 8, 16, &u);
		rc = load(&f, &b, err);
		if (extra) {
			assert_int_equal(rc, -EINVAL);
			assert_null(f);
		} else {
			if (rc)
				fail_msg("%s", err);
			assert_int_equal(font_glyph(f, 0x100), 0);
			assert_int_equal(font_glyph(f, 0x163), 0);
			assert_int_equal(font_glyph(f, 'a' + 27), 1);
			font_destroy(f);
		}
		free(b.d);
		free(u.d);
	}
}

/* True when s is one line of printable UTF-8. */
static bool printable_line(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7F)
			return false;
	return true;
}

/* Messages that quote a file (its name, stb_image's reason naming an
 * unknown chunk by its bytes) carry no control bytes. */
static void test_messages_have_no_control_bytes(void **st)
{
	(void)st;
	uint8_t *px = calloc(128 * 128, 1);
	for (int i = 0; i < 128 * 128; i++)
		px[i] = (uint8_t)(i % 7 ? 0 : 255);
	struct buf good = png(128, 128, 1, px);
	/* a critical chunk of type ESC [ 2 J before IEND (the last 12 bytes) */
	struct buf b = {0};
	put(&b, good.d, good.n - 12);
	uint8_t chunk[12] = {0, 0, 0, 0, 0x1B, '[', '2', 'J', 0, 0, 0, 0};
	uint32_t crc = (uint32_t)crc32(0, chunk + 4, 4);
	chunk[8] = (uint8_t)(crc >> 24);
	chunk[9] = (uint8_t)(crc >> 16);
	chunk[10] = (uint8_t)(crc >> 8);
	chunk[11] = (uint8_t)crc;
	put(&b, chunk, 12);
	put(&b, good.d + good.n - 12, 12);
	struct font *f;
	char err[256];
	assert_int_equal(load(&f, &b, err), -EINVAL);
	if (!printable_line(err) || !strstr(err, "?[2J"))
		fail_msg("not one printable line: \"%s\"", err);
	/* and a control byte in the name itself */
	assert_int_equal(font_load_mem(&f, "xx", 2, "bad\nname\x1b[1m", err, sizeof err), -EINVAL);
	if (!printable_line(err) || strncmp(err, "bad?name?[1m: ", 14))
		fail_msg("not one printable line: \"%s\"", err);
	/* bytes that are not UTF-8, C1 controls; legitimate UTF-8 (×) stays */
	assert_int_equal(font_load_mem(&f, "xx", 2, "a\xff\xc2\x9b" "b×", err, sizeof err), -EINVAL);
	assert_int_equal(strncmp(err, "a???b×: ", 9), 0);
	free(b.d);
	free(good.d);
	free(px);
}

/* A FIFO with no writer is refused at once (it used to block in open);
 * devices are not fonts; a pipe with a writer is read. */
static void test_fifo_and_devices(void **st)
{
	(void)st;
	char dir[] = "/tmp/pirogue-test-fifo-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof path, "%s/font", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	struct font *f = (struct font *)1;
	char err[256];
	alarm(30); /* hang guard */
	int rc = font_load(&f, path, err, sizeof err);
	alarm(0);
	assert_int_equal(rc, -EINVAL);
	assert_null(f);
	assert_non_null(strstr(err, "is a pipe that nothing was written to"));
	unlink(path);
	rmdir(dir);
	/* a pipe holding a font (--font <(zcat f.psf.gz)) is read */
	struct buf b = psf2(16, 8, 8, NULL);
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], b.d, b.n), (ssize_t)b.n);
	close(p[1]);
	snprintf(path, sizeof path, "/proc/self/fd/%d", p[0]);
	alarm(30);
	rc = font_load(&f, path, err, sizeof err);
	alarm(0);
	if (rc)
		fail_msg("%s", err);
	check_pattern(f, 5);
	font_destroy(f);
	close(p[0]);
	free(b.d);
	assert_int_equal(font_load(&f, "/dev/null", err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "/dev/null: is a character device, not a font file"));
}

/* A sheet whose glyphs are all blank (a truncated BMP decodes as zeros) is
 * refused, not drawn as an invisible font. */
static void test_blank_sheet_refused(void **st)
{
	(void)st;
	uint8_t *px = grey_grid(8, 8);
	uint8_t *rgb = malloc(128 * 128 * 3);
	for (int i = 0; i < 128 * 128; i++)
		rgb[i * 3] = rgb[i * 3 + 1] = rgb[i * 3 + 2] = px[i];
	struct buf b = {0};
	assert_true(stbi_write_bmp_to_func(write_cb, &b, 128, 128, 3, rgb));
	struct font *f;
	char err[256];
	assert_int_equal(load(&f, &b, err), 0);
	font_destroy(f);
	b.n = 54; /* the headers, no pixels */
	expect_error(&b, -EINVAL, "every glyph is blank");
	memset(rgb, 0, 128 * 128 * 3);
	struct buf z = {0};
	assert_true(stbi_write_bmp_to_func(write_cb, &z, 128, 128, 3, rgb));
	expect_error(&z, -EINVAL, "every glyph is blank");
	free(z.d);
	free(b.d);
	free(rgb);
	free(px);
}

/* ---- issue 9: TCOD layout, sheet classification, drawn box glyphs ----- */

/* A 32×8 sheet of cw×ch tiles, tile i filled with pattern value i+1 in
 * its first pixel (white on black otherwise). */
static uint8_t *tcod_sheet(int cw, int ch)
{
	int w = 32 * cw, h = 8 * ch;
	uint8_t *px = calloc((size_t)w * (size_t)h, 1);
	for (int g = 0; g < 256; g++) {
		int x0 = (g % 32) * cw, y0 = (g / 32) * ch;
		px[(size_t)(y0 + 1) * (size_t)w + (size_t)x0 + 1] = (uint8_t)(g + 1);
	}
	return px;
}

static void test_tcod_layout(void **st)
{
	(void)st;
	/* 32×8 tiles of 4×4: 128×32 pixels, by shape TCOD (as 16×16 its
	 * tiles would be 8×2, four times wider than tall) */
	uint8_t *px = tcod_sheet(4, 4);
	struct buf b = png(128, 32, 1, px);
	struct font *f;
	char err[256];
	if (load(&f, &b, err))
		fail_msg("%s", err);
	assert_int_equal(f->cell_w, 4);
	assert_int_equal(f->cell_h, 4);
	assert_int_equal(font_glyph(f, ' '), 0);
	assert_int_equal(font_glyph(f, '0'), 16);
	assert_int_equal(font_glyph(f, '@'), 32);
	assert_int_equal(font_glyph(f, '~'), 42);
	assert_int_equal(font_glyph(f, 0x2591), 43);
	assert_int_equal(font_glyph(f, 0x2500), 47);
	assert_int_equal(font_glyph(f, 0x2597), 63);
	assert_int_equal(font_glyph(f, 0x2191), 64);
	assert_int_equal(font_glyph(f, 0x255D), 88);
	assert_int_equal(font_glyph(f, 'A'), 96);
	assert_int_equal(font_glyph(f, 'Z'), 121);
	assert_int_equal(font_glyph(f, 'a'), 128);
	assert_int_equal(font_glyph(f, 'z'), 153);
	assert_true(font_has(f, 0x2610));
	assert_false(font_has(f, 0x2302)); /* ⌂ is CP437 only */
	assert_int_equal(font_coverage(f, 96)[5], 97);
	font_destroy(f);
	free(b.d);
	free(px);

	/* 32×8 tiles of 8×16 (256×128): both grids divide; tall cells of the
	 * TCOD grid win (as CP437: 16×8 tiles) */
	px = tcod_sheet(8, 16);
	b = png(256, 128, 1, px);
	if (load(&f, &b, err))
		fail_msg("%s", err);
	assert_int_equal(f->cell_w, 8);
	assert_int_equal(f->cell_h, 16);
	assert_int_equal(font_glyph(f, 'A'), 96);
	font_destroy(f);
	/* the layout given overrides the shape */
	assert_int_equal(font_load_mem_as(&f, b.d, b.n, "x", FONT_LAYOUT_CP437, err, sizeof err), 0);
	assert_int_equal(f->cell_w, 16);
	assert_int_equal(f->cell_h, 8);
	assert_int_equal(font_glyph(f, 'A'), 'A');
	font_destroy(f);
	free(b.d);
	free(px);

	/* 512×64: 16×16 tiles of 32×4 or TCOD tiles of 16×8 — the name says */
	px = calloc(512 * 64, 1);
	for (int i = 0; i < 512 * 64; i += 7)
		px[i] = 255;
	b = png(512, 64, 1, px);
	expect_error(&b, -EDOM, "cannot tell the layout of a 512×64-pixel sheet");
	assert_int_equal(font_load_mem(&f, b.d, b.n, "dejavu_gs_tc.png", err, sizeof err), 0);
	assert_int_equal(f->cell_w, 16);
	font_destroy(f);
	assert_int_equal(font_load_mem_as(&f, b.d, b.n, "x", FONT_LAYOUT_TCOD, err, sizeof err), 0);
	assert_int_equal(f->cell_h, 8);
	font_destroy(f);
	free(b.d);
	/* a sheet the named layout does not fit: -EDOM (the layout is what is
	 * wrong) when the other one fits, else -EINVAL (the sheet is) */
	b = png(48, 48, 1, px);
	assert_int_equal(font_load_mem_as(&f, b.d, b.n, "x", FONT_LAYOUT_TCOD, err, sizeof err), -EDOM);
	assert_non_null(strstr(err, "not the 32×8 grid of libtcod's TCOD layout"));
	assert_non_null(strstr(err, "but it fits the 16×16 grid of the CP437 layout"));
	free(b.d);
	b = png(96, 24, 1, px);
	assert_int_equal(font_load_mem_as(&f, b.d, b.n, "x", FONT_LAYOUT_CP437, err, sizeof err), -EDOM);
	assert_non_null(strstr(err, "but it fits the 32×8 grid of the TCOD layout"));
	free(b.d);
	b = png(40, 40, 1, px);
	assert_int_equal(font_load_mem_as(&f, b.d, b.n, "x", FONT_LAYOUT_TCOD, err, sizeof err), -EINVAL);
	assert_null(strstr(err, "but it fits"));
	assert_int_equal(font_load_mem_as(&f, b.d, b.n, "x", FONT_LAYOUT_CP437, err, sizeof err), -EINVAL);
	free(b.d);
	free(px);
}

/* Anti-aliased white glyphs on magenta are coverage, their pink fringe
 * half-covered; black glyphs on white are coverage too, not outlines. */
static void test_sheet_classification(void **st)
{
	(void)st;
	int w = 128, h = 128;
	uint8_t *px = malloc((size_t)w * h * 3);
	for (int i = 0; i < w * h; i++) {
		px[i * 3] = 255;
		px[i * 3 + 1] = 0;
		px[i * 3 + 2] = 255;
	}
	/* every tile but 0: a 4×4 white square with a one-pixel pink fringe */
	for (int g = 1; g < 256; g++)
		for (int y = 1; y < 7; y++)
			for (int x = 1; x < 7; x++) {
				uint8_t *p = px + (((g / 16) * 8 + y) * w + (g % 16) * 8 + x) * 3;
				bool edge = x == 1 || x == 6 || y == 1 || y == 6;
				p[1] = edge ? 128 : 255; /* (255,128,255): halfway to white */
			}
	struct buf b = png(w, h, 3, px);
	struct font *f;
	char err[256];
	if (load(&f, &b, err))
		fail_msg("%s", err);
	assert_null(f->colour);
	const uint8_t *a = font_coverage(f, 'A');
	assert_int_equal(a[0], 0);
	assert_int_equal(a[1 * 8 + 1], 128);
	assert_int_equal(a[3 * 8 + 3], 255);
	font_destroy(f);
	free(b.d);

	/* black on white, grey edges */
	for (int i = 0; i < w * h * 3; i++)
		px[i] = 255;
	for (int g = 1; g < 256; g++)
		for (int y = 1; y < 7; y++)
			for (int x = 1; x < 7; x++) {
				uint8_t *p = px + (((g / 16) * 8 + y) * w + (g % 16) * 8 + x) * 3;
				bool edge = x == 1 || x == 6 || y == 1 || y == 6;
				memset(p, edge ? 192 : 0, 3);
			}
	b = png(w, h, 3, px);
	if (load(&f, &b, err))
		fail_msg("%s", err);
	assert_null(f->colour);
	a = font_coverage(f, 'A');
	assert_int_equal(a[0], 0);
	assert_int_equal(a[1 * 8 + 1], 63);
	assert_int_equal(a[3 * 8 + 3], 255);
	font_destroy(f);
	free(b.d);

	/* and black on white without a key (tile 0 not uniform) */
	px[0] = px[1] = px[2] = 0;
	b = png(w, h, 3, px);
	if (load(&f, &b, err))
		fail_msg("%s", err);
	assert_null(f->colour);
	a = font_coverage(f, 'A');
	assert_int_equal(a[0], 0);
	assert_int_equal(a[3 * 8 + 3], 255);
	font_destroy(f);
	free(b.d);
	free(px);
}

/* Arms of the box-drawing code point cp at the cell's edges: pixel lit at
 * the middle of each edge. */
static bool lit(const struct font *f, uint32_t cp, int x, int y)
{
	return font_coverage(f, font_glyph(f, cp))[y * f->cell_w + x] != 0;
}

/* The box-drawing, block and shade characters a font lacks are drawn by
 * pirogue and join their neighbours without gaps. */
static void check_builtin(int w, int h)
{
	/* a PSF2 with ASCII only */
	struct buf t = {0};
	for (int g = 0; g < 96; g++) {
		put_utf8(&t, 0x20 + (uint32_t)g);
		put8(&t, 0xFF);
	}
	struct buf b = psf2(96, w, h, &t);
	struct font *f;
	char err[256];
	if (load(&f, &b, err))
		fail_msg("%s", err);
	for (uint32_t cp = 0x2500; cp < 0x25A0; cp++) {
		assert_false(font_has(f, cp));
		assert_true(font_glyph(f, cp) >= f->nfile);
		if (cp != 0x2591 && blank(f, font_glyph(f, cp)))
			fail_msg("U+%04X is blank at %dx%d", cp, w, h);
	}
	/* ─ and │ are lit edge to edge, ┼ too */
	for (int x = 0; x < w; x++)
		assert_true(lit(f, 0x2500, x, h / 2) || lit(f, 0x2500, x, h / 2 - 1));
	/* the same weight on both sides: continuous lines */
	static const uint32_t pairs[][2] = {
		{ 0x2500, 0x2500 }, { 0x250C, 0x2500 }, { 0x2500, 0x2510 }, { 0x251C, 0x2524 }, { 0x253C, 0x2534 },
		{ 0x2550, 0x2550 }, { 0x2554, 0x2550 }, { 0x2550, 0x2557 }, { 0x2560, 0x2563 }, { 0x256C, 0x2569 },
		{ 0x2552, 0x2555 }, { 0x255E, 0x2561 }, { 0x2564, 0x2566 }, { 0x2501, 0x2501 }, { 0x250F, 0x2513 },
	};
	for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
		for (int y = 0; y < h; y++)
			if (lit(f, pairs[i][0], w - 1, y) != lit(f, pairs[i][1], 0, y))
				fail_msg("%dx%d: U+%04X then U+%04X leave a gap at row %d", w, h, pairs[i][0],
					 pairs[i][1], y);
	static const uint32_t vpairs[][2] = {
		{ 0x2502, 0x2502 }, { 0x250C, 0x2502 }, { 0x2502, 0x2514 }, { 0x252C, 0x2534 }, { 0x253C, 0x253C },
		{ 0x2551, 0x2551 }, { 0x2554, 0x2551 }, { 0x2551, 0x255A }, { 0x2566, 0x2569 }, { 0x256C, 0x2560 },
	};
	for (size_t i = 0; i < sizeof vpairs / sizeof *vpairs; i++)
		for (int x = 0; x < w; x++)
			if (lit(f, vpairs[i][0], x, h - 1) != lit(f, vpairs[i][1], x, 0))
				fail_msg("%dx%d: U+%04X above U+%04X leave a gap at column %d", w, h, vpairs[i][0],
					 vpairs[i][1], x);
	/* a double line is two strokes with a gap */
	int strokes = 0;
	for (int y = 0; y < h; y++)
		strokes += lit(f, 0x2550, 0, y) && (y == 0 || !lit(f, 0x2550, 0, y - 1));
	assert_int_equal(strokes, 2);
	/* ▄ ▀ █: halves and full; shades even */
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			assert_int_equal(lit(f, 0x2584, x, y), y >= h - (h * 4 + 4) / 8);
			assert_int_equal(lit(f, 0x2580, x, y), y < h / 2);
			assert_true(lit(f, 0x2588, x, y));
			assert_int_equal(font_coverage(f, font_glyph(f, 0x2592))[y * w + x], 128);
		}
	font_destroy(f);
	free(b.d);
	free(t.d);
}

static void test_builtin_box_glyphs(void **st)
{
	(void)st;
	check_builtin(8, 8);
	check_builtin(8, 16);
	check_builtin(10, 10);
	check_builtin(12, 12);
	check_builtin(16, 16);
	check_builtin(16, 32);
}

/* ---- the shipped default fonts --------------------------------------- */

static void check_shipped(const char *path, int cw, int ch)
{
	struct font *f;
	char err[256];
	if (font_load(&f, path, err, sizeof err))
		fail_msg("%s", err);
	assert_int_equal(f->cell_w, cw);
	assert_int_equal(f->cell_h, ch);
	assert_int_equal(f->nfile, 256);
	assert_null(f->colour);
	for (int i = 0; i < 256; i++) {
		assert_true(font_has(f, cp437_to_unicode[i]));
		assert_int_equal(font_glyph(f, cp437_to_unicode[i]), i);
		bool empty = i == 0 || i == 0x20 || i == 0xFF;
		if (blank(f, i) != empty)
			fail_msg("%s: glyph 0x%02X is %s", path, i, empty ? "not blank" : "blank");
		for (int k = 0; k < cw * ch; k++)
			assert_true(font_coverage(f, i)[k] == 0 || font_coverage(f, i)[k] == 255);
	}
	/* Lookups the game relies on. */
	uint32_t want[] = {'@', '#', '.', 'A', 'z', 0x2665, 0x2592, 0x2502, 0x2500, 0x250C, 0x2190, 0x2191};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		assert_false(blank(f, font_glyph(f, want[i])));
	assert_int_equal(font_glyph(f, 0x2665), 0x03);
	assert_int_equal(font_glyph(f, 0x2592), 0xB1);
	assert_int_equal(font_glyph(f, 0x2190), 0x1B);
	assert_int_equal(font_glyph(f, 0x2191), 0x18);
	/* │ has a column lit top to bottom, ─ a row lit edge to edge. */
	const uint8_t *v = font_coverage(f, font_glyph(f, 0x2502));
	const uint8_t *hz = font_coverage(f, font_glyph(f, 0x2500));
	bool col = false, row = false;
	for (int x = 0; x < cw && !col; x++) {
		col = true;
		for (int y = 0; y < ch; y++)
			col = col && v[y * cw + x];
	}
	for (int y = 0; y < ch && !row; y++) {
		row = true;
		for (int x = 0; x < cw; x++)
			row = row && hz[y * cw + x];
	}
	assert_true(col);
	assert_true(row);
	/* ▒ is about half lit. */
	int lit = 0;
	for (int k = 0; k < cw * ch; k++)
		lit += font_coverage(f, 0xB1)[k] != 0;
	assert_in_range(lit, cw * ch / 4, cw * ch * 3 / 4);
	/* A missing code point draws the visible replacement '?'. */
	assert_false(font_has(f, 0x4E00));
	assert_int_equal(font_glyph(f, 0x4E00), '?');
	assert_false(blank(f, font_glyph(f, 0x1F600)));
	font_destroy(f);
}

/* The anti-aliased DejaVu sheets: greyscale coverage, every CP437
 * character, the box-drawing, block and shade tiles left blank in the sheet
 * and drawn by pirogue. */
static void check_shipped_dejavu(const char *path, int cell)
{
	struct font *f;
	char err[256];
	if (font_load(&f, path, err, sizeof err))
		fail_msg("%s", err);
	assert_int_equal(f->cell_w, cell);
	assert_int_equal(f->cell_h, cell);
	assert_int_equal(f->nfile, 256);
	assert_null(f->colour);
	int grey = 0;
	for (int i = 0; i < 256; i++) {
		uint32_t cp = cp437_to_unicode[i];
		bool drawn = cp >= 0x2500 && cp <= 0x259F;
		bool empty = i == 0 || i == 0x20 || i == 0xFF;
		if (drawn) {
			assert_true(blank(f, i));
			assert_true(font_glyph(f, cp) >= f->nfile);
		} else {
			assert_int_equal(font_glyph(f, cp), i);
		}
		if (!drawn && blank(f, i) != empty)
			fail_msg("%s: glyph 0x%02X is %s", path, i, empty ? "not blank" : "blank");
		for (int k = 0; k < cell * cell; k++)
			grey += font_coverage(f, i)[k] != 0 && font_coverage(f, i)[k] != 255;
	}
	assert_true(grey > 1000); /* anti-aliased */
	/* ─ runs edge to edge through pirogue's glyph */
	const uint8_t *hz = font_coverage(f, font_glyph(f, 0x2500));
	int rows_lit = 0;
	for (int y = 0; y < cell; y++) {
		assert_int_equal(hz[y * cell] != 0, hz[y * cell + cell - 1] != 0);
		rows_lit += hz[y * cell] != 0;
	}
	assert_true(rows_lit >= 1);
	font_destroy(f);
}

static void test_shipped_fonts(void **st)
{
	(void)st;
	check_shipped("fonts/cp437-8x8.png", 8, 8);
	check_shipped("fonts/cp437-8x9.png", 8, 9);
	check_shipped("fonts/cp437-8x16.png", 8, 16);
	static const int dejavu[] = { 12, 14, 16, 18, 21, 24 };
	for (size_t i = 0; i < sizeof dejavu / sizeof *dejavu; i++) {
		char path[64];
		snprintf(path, sizeof path, "fonts/dejavu-%dx%d.png", dejavu[i], dejavu[i]);
		check_shipped_dejavu(path, dejavu[i]);
	}
}

/* libtcod's dejavu10x10_gs_tc.png as tools/make-fonts renders it: the TCOD
 * layout told by its shape (320×80), anti-aliased coverage. */
static void test_tcod_sheet_from_make_fonts(void **st)
{
	(void)st;
	struct font *f;
	char err[256];
	if (font_load(&f, TEST_DIR "/fonts/dejavu10x10_gs_tc.png", err, sizeof err))
		fail_msg("%s", err);
	assert_int_equal(f->cell_w, 10);
	assert_int_equal(f->cell_h, 10);
	assert_null(f->colour);
	assert_int_equal(font_glyph(f, 'A'), 96);
	assert_int_equal(font_glyph(f, 'z'), 153);
	assert_int_equal(font_glyph(f, '@'), 32);
	assert_false(blank(f, 96));
	assert_false(blank(f, font_glyph(f, 0x2554))); /* ╔, drawn by pirogue */
	assert_false(font_has(f, 0x2302));
	font_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cp437_table),
		cmocka_unit_test(test_png_greyscale_coverage),
		cmocka_unit_test(test_png_white_on_black_keyed),
		cmocka_unit_test(test_png_colour_key),
		cmocka_unit_test(test_bmp_tileset),
		cmocka_unit_test(test_png_errors),
		cmocka_unit_test(test_psf2_unicode_table),
		cmocka_unit_test(test_psf_without_replacement_gets_box),
		cmocka_unit_test(test_psf1),
		cmocka_unit_test(test_psf2_damaged),
		cmocka_unit_test(test_gzip_errors),
		cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_shipped_fonts),
		cmocka_unit_test(test_psf2_maximal_table),
		cmocka_unit_test(test_psf2_table_bounded_by_glyphs),
		cmocka_unit_test(test_messages_have_no_control_bytes),
		cmocka_unit_test(test_fifo_and_devices),
		cmocka_unit_test(test_blank_sheet_refused),
		cmocka_unit_test(test_tcod_layout),
		cmocka_unit_test(test_sheet_classification),
		cmocka_unit_test(test_builtin_box_glyphs),
		cmocka_unit_test(test_tcod_sheet_from_make_fonts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
