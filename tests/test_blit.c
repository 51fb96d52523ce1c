/* Tests for render/blit: golden frames, a reference blitter, damaged-only == full. */
#include "testutil.h"
#include "blitfont.h"
#include "core/rng.h"
#include "render/blit.h"
#include "render/console.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stb_image.h>
#include <stb_image_write.h>

#define SENTINEL 0xFF00FFu /* what pixels outside the console keep */
#define PAD_BYTE 0xA5

static const enum surf_format formats[] = { SURF_XRGB8888, SURF_RGB565 };
static const char *const format_names[] = { "xrgb8888", "rgb565" };
static const int rotations[] = { 0, 90, 180, 270 };

static bool regen; /* --regen: write the golden files instead of comparing */

/* A surface with its own buffer. Padding bytes are PAD_BYTE, pixels SENTINEL. */
struct tsurf {
	struct surface s;
	size_t size;
};

static void ts_init(struct tsurf *t, enum surf_format fmt, int rot, int lw, int lh, int pad)
{
	bool turned = rot == 90 || rot == 270;
	t->s.format = fmt;
	t->s.rotation = rot;
	t->s.width = turned ? lh : lw;
	t->s.height = turned ? lw : lh;
	t->s.stride = t->s.width * surf_bpp(fmt) + pad;
	t->size = (size_t)t->s.stride * (size_t)t->s.height;
	t->s.pixels = malloc(t->size);
	assert_non_null(t->s.pixels);
	memset(t->s.pixels, PAD_BYTE, t->size);
	blit_clear(&t->s, SENTINEL);
}

static void ts_free(struct tsurf *t)
{
	free(t->s.pixels);
	t->s.pixels = NULL;
}

/* Pixel (x, y) of a surface as 0xRRGGBB (RGB565 expanded by bit replication). */
static uint32_t px_rgb(const struct surface *s, int x, int y)
{
	const uint8_t *row = (const uint8_t *)s->pixels + (size_t)y * (size_t)s->stride;
	if (s->format == SURF_RGB565) {
		uint16_t p;
		memcpy(&p, row + 2 * x, 2);
		uint32_t r = p >> 11, g = (p >> 5) & 63, b = p & 31;
		return (r << 3 | r >> 2) << 16 | (g << 2 | g >> 4) << 8 | (b << 3 | b >> 2);
	}
	uint32_t p;
	memcpy(&p, row + 4 * x, 4);
	return p & 0xFFFFFF;
}

/* The raw pixel as stored (for exact comparisons). */
static uint32_t px_raw(const struct surface *s, int x, int y)
{
	const uint8_t *row = (const uint8_t *)s->pixels + (size_t)y * (size_t)s->stride;
	if (s->format == SURF_RGB565) {
		uint16_t p;
		memcpy(&p, row + 2 * x, 2);
		return p;
	}
	uint32_t p;
	memcpy(&p, row + 4 * x, 4);
	return p;
}

static uint32_t conv(enum surf_format fmt, uint32_t rgb)
{
	if (fmt == SURF_RGB565)
		return ((rgb >> 19) & 31) << 11 | ((rgb >> 10) & 63) << 5 | ((rgb >> 3) & 31);
	return rgb & 0xFFFFFF;
}

/* The fixed console of the golden frames: 7×4 cells. */
static struct console *golden_console(void)
{
	struct console *c;
	assert_int_equal(con_create(&c, 7, 4), 0);
	static const uint32_t pal[] = { 0xFFFFFF, 0x000000, 0xE04020, 0x20C040, 0x3060F0,
					0xF0D000, 0x808080, 0x10A0A0 };
	static const uint32_t chars[4][7] = {
		{ 'F', 'R', '@', 'g', ' ', 0x2588, TF_BLEND_CP },
		{ '@', TF_BLEND_CP, 'F', 0x1F600 /* missing: replacement */, 'R', 'g', ' ' },
		{ 0x2588, 'g', TF_BLEND_CP, 'R', '@', 'F', '?' /* missing */ },
		{ 'R', 'F', 'g', '@', TF_BLEND_CP, 0x2588, 'F' },
	};
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 7; x++)
			con_put(c, x, y, chars[y][x], pal[(x + 2 * y) % 8], pal[(3 * x + y + 1) % 8]);
	return c;
}

/* Logical size of the golden surface at scale s: 5 pixels wider than the
 * console (an untouched strip) and 5 pixels shorter (last row clipped). */
static void golden_size(int s, int *lw, int *lh)
{
	*lw = 7 * TF_W * s + 5;
	*lh = 4 * TF_H * s - 5;
}

/* The map sheet check_reference draws wide map cells with (NULL: none). */
static const struct font *ref_map;

/* Checks every pixel of s against a straightforward model of the contract
 * in blit.h (the logical -> surface mapping, the blend formula, untouched
 * pixels outside the console keep `outside`). */
static void check_reference(const struct surface *s, const struct font *f, int scale, const struct console *c,
			    uint32_t outside)
{
	int W = s->width, H = s->height;
	int cw = f->cell_w * scale, ch = f->cell_h * scale;
	for (int Y = 0; Y < H; Y++)
		for (int X = 0; X < W; X++) {
			int x, y;
			switch (s->rotation) {
			case 0: x = X; y = Y; break;
			case 90: x = Y; y = W - 1 - X; break;
			case 180: x = W - 1 - X; y = H - 1 - Y; break;
			default: x = H - 1 - Y; y = X; break;
			}
			int cx = x / cw, cy = y / ch;
			uint32_t want;
			if (cx >= c->w || cy >= c->h) {
				want = outside;
			} else {
				const struct con_cell *cell = con_at(c, cx, cy);
				/* a half of a wide map cell: that half of the map sheet's
				 * glyph; without a sheet the head's glyph, a blank tail */
				const struct font *gf = f;
				uint32_t cp = cell->ch;
				int gx = (x % cw) / scale;
				if (cell->flags & (CON_WIDE | CON_TAIL)) {
					if (ref_map) {
						gf = ref_map;
						gx += cell->flags & CON_TAIL ? f->cell_w : 0;
					} else if (cell->flags & CON_TAIL) {
						cp = ' ';
					}
				}
				int g = font_glyph(gf, cp);
				int i = g * gf->cell_w * gf->cell_h + (y % ch) / scale * gf->cell_w + gx;
				uint32_t fg = cell->fg, bg = cell->bg, a = gf->coverage[i];
				if (gf->colour) {
					fg = gf->colour[i] & 0xFFFFFF;
					a = gf->colour[i] >> 24;
				}
				want = 0;
				for (int sh = 0; sh <= 16; sh += 8) {
					uint32_t v = (((fg >> sh) & 255) * a + ((bg >> sh) & 255) * (255 - a) + 127) / 255;
					want |= v << sh;
				}
			}
			uint32_t got = px_raw(s, X, Y), exp = conv(s->format, want);
			if (got != exp)
				fail_msg("rotation %d scale %d %s: pixel (%d, %d) = %06x, want %06x", s->rotation, scale,
					 format_names[s->format == SURF_RGB565], X, Y, got, exp);
		}
}

/* Padding bytes must still be PAD_BYTE. */
static void check_padding(const struct surface *s)
{
	int used = s->width * surf_bpp(s->format);
	for (int y = 0; y < s->height; y++) {
		const uint8_t *row = (const uint8_t *)s->pixels + (size_t)y * (size_t)s->stride;
		for (int i = used; i < s->stride; i++)
			if (row[i] != PAD_BYTE)
				fail_msg("padding byte %d of row %d was written", i - used, y);
	}
}

static void golden_path(char *buf, size_t len, const char *fontname, int fi, int scale, int rot)
{
	snprintf(buf, len, TEST_DIR "/golden/blit-%s-%s-s%d-r%d.png", fontname, format_names[fi], scale, rot);
}

/* Compares s with the golden PNG (or writes it with --regen). */
static void check_golden(const struct surface *s, const char *path)
{
	int W = s->width, H = s->height;
	uint8_t *rgb = malloc((size_t)W * (size_t)H * 3);
	assert_non_null(rgb);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint32_t p = px_rgb(s, x, y);
			uint8_t *d = rgb + ((size_t)y * (size_t)W + (size_t)x) * 3;
			d[0] = (uint8_t)(p >> 16);
			d[1] = (uint8_t)(p >> 8);
			d[2] = (uint8_t)p;
		}
	if (regen) {
		if (!stbi_write_png(path, W, H, 3, rgb, W * 3))
			fail_msg("cannot write %s", path);
		printf("wrote %s\n", path);
		free(rgb);
		return;
	}
	int gw, gh, gn;
	uint8_t *g = stbi_load(path, &gw, &gh, &gn, 3);
	if (!g) {
		free(rgb);
		fail_msg("%s: cannot read golden file (%s); run tools/regen-golden if it was never made", path,
			 stbi_failure_reason());
	}
	if (gw != W || gh != H) {
		stbi_image_free(g);
		free(rgb);
		fail_msg("%s: golden is %d×%d, frame is %d×%d", path, gw, gh, W, H);
	}
	for (int i = 0; i < W * H; i++)
		if (memcmp(g + 3 * i, rgb + 3 * i, 3)) {
			int x = i % W, y = i / W;
			uint32_t got = (uint32_t)rgb[3 * i] << 16 | (uint32_t)rgb[3 * i + 1] << 8 | rgb[3 * i + 2];
			uint32_t want = (uint32_t)g[3 * i] << 16 | (uint32_t)g[3 * i + 1] << 8 | g[3 * i + 2];
			stbi_image_free(g);
			free(rgb);
			fail_msg("%s: pixel (%d, %d) is %06x, golden has %06x", path, x, y, got, want);
		}
	stbi_image_free(g);
	free(rgb);
}

static void golden_for_font(int colour)
{
	struct font *f = tf_make(colour);
	assert_non_null(f);
	struct console *c = golden_console();
	for (int fi = 0; fi < 2; fi++)
		for (int scale = 1; scale <= 8; scale++) { /* every scale the blitter takes */
			struct blitter *b;
			assert_int_equal(blit_create(&b, f, scale), 0);
			for (int ri = 0; ri < 4; ri++) {
				int lw, lh;
				golden_size(scale, &lw, &lh);
				char path[256];
				golden_path(path, sizeof path, colour ? "colour" : "coverage", fi, scale, rotations[ri]);
				/* once with a tight stride, once with an odd one and padding */
				for (int pad = 0; pad <= 7; pad += 7) {
					struct tsurf t;
					ts_init(&t, formats[fi], rotations[ri], lw, lh, pad);
					blit_draw(b, c, &t.s, NULL);
					check_reference(&t.s, f, scale, c, SENTINEL);
					check_padding(&t.s);
					if (pad == 0 || !regen)
						check_golden(&t.s, path);
					ts_free(&t);
				}
			}
			blit_destroy(b);
		}
	con_destroy(c);
	tf_free(f);
}

static void test_golden_coverage(void **st)
{
	(void)st;
	golden_for_font(0);
}

static void test_golden_colour(void **st)
{
	(void)st;
	golden_for_font(1);
}

static const uint32_t random_chars[] = { 'F', 'R', '@', 'g', ' ', 0x2588, TF_BLEND_CP, 0x1F600, 'x' };

static void random_cell(struct console *c, struct rng *r, bool rnd_font)
{
	int x = rng_range(r, 0, c->w - 1), y = rng_range(r, 0, c->h - 1);
	uint32_t ch = rnd_font ? (uint32_t)rng_range(r, 0, TF_RND_N + 1) /* the last two are missing */
			       : random_chars[rng_range(r, 0, (int)(sizeof random_chars / sizeof random_chars[0]) - 1)];
	con_put(c, x, y, ch, rng_next(r) & 0xFFFFFF, rng_next(r) & 0xFFFFFF);
}

/* The fonts of the randomised tests: the two golden ones and random ones
 * with 8-pixel sides (the blitter's fastest paths) and 12×24 ones. */
static struct font *test_font(int i)
{
	switch (i) {
	case 0: return tf_make(0);
	case 1: return tf_make(1);
	case 2: return tf_random(8, 16, 11);
	case 3: return tf_random(8, 8, 12);
	case 4: return tf_random(16, 8, 13);
	default: return tf_random(12, 24, 14); /* 1080p's text cells: a group of 8 and 4 more */
	}
}
#define N_TEST_FONTS 6

/* Random edits, redrawn damaged-only over the previous frame, equal a full
 * redraw onto a fresh surface, byte for byte (padding included), and match
 * the reference model. The surface clips the console on one side and leaves
 * an untouched strip on the other. */
static void damaged_equals_full(int first_font, uint64_t seeds)
{
	for (int fno = first_font; fno < N_TEST_FONTS; fno++) {
		struct font *f = test_font(fno);
		assert_non_null(f);
		bool rnd = fno >= 2;
		int cw = f->cell_w, ch = f->cell_h;
		for (uint64_t seed = 1; seed <= seeds; seed++)
			for (int fi = 0; fi < 2; fi++)
				for (int scale = 1; scale <= 3; scale++) {
					struct blitter *b;
					assert_int_equal(blit_create(&b, f, scale), 0);
					for (int ri = 0; ri < 4; ri++) {
						struct rng r;
						rng_seed(&r, seed * 1000 + (uint64_t)(fno * 10000 + fi * 100 + scale * 10 + ri));
						struct console *c;
						int cols = rnd ? 21 : 9, rows = rnd ? 5 : 6;
						assert_int_equal(con_create(&c, cols, rows), 0);
						for (int i = 0; i < 60; i++)
							random_cell(c, &r, rnd);
						int lw = cols * cw * scale - 7 - (int)seed, lh = rows * ch * scale + 3;
						if (seed == 2) { /* the other way round */
							lw = cols * cw * scale + 4;
							lh = rows * ch * scale - 9;
						}
						struct tsurf a, full;
						ts_init(&a, formats[fi], rotations[ri], lw, lh, (int)seed);
						blit_draw(b, c, &a.s, NULL);
						con_clear_damage(c);
						for (int round = 0; round < 6; round++) {
							int edits = rng_range(&r, 1, 12);
							for (int i = 0; i < edits; i++)
								random_cell(c, &r, rnd);
							blit_draw(b, c, &a.s, c->damage);
							con_clear_damage(c);
							ts_init(&full, formats[fi], rotations[ri], lw, lh, (int)seed);
							blit_draw(b, c, &full.s, NULL);
							if (memcmp(a.s.pixels, full.s.pixels, a.size))
								fail_msg("font %s seed %d %s scale %d rotation %d round %d: "
									 "damaged-only redraw differs from a full redraw",
									 f->name, (int)seed, format_names[fi], scale,
									 rotations[ri], round);
							check_reference(&a.s, f, scale, c, SENTINEL);
							ts_free(&full);
						}
						check_padding(&a.s);
						ts_free(&a);
						con_destroy(c);
					}
					blit_destroy(b);
				}
		tf_free(f);
	}
}

/* A map sheet for the test font: cells twice as wide, glyph g being the
 * test font's glyphs g and g + 1 side by side (so the halves differ),
 * coverage or colour. Free with tf_free. */
static struct font *wide_font(int colour)
{
	struct font *t = tf_make(colour);
	assert_non_null(t);
	struct font *f = calloc(1, sizeof *f);
	assert_non_null(f);
	*f = *t;
	f->cell_w = 2 * TF_W;
	f->coverage = calloc(TF_N, 2 * TF_W * TF_H);
	f->colour = colour ? calloc(TF_N, 2 * TF_W * TF_H * sizeof *f->colour) : NULL;
	f->map = malloc(sizeof tf_map);
	assert_true(f->coverage && f->map && (!colour || f->colour));
	memcpy(f->map, tf_map, sizeof tf_map);
	for (int g = 0; g < TF_N; g++)
		for (int y = 0; y < TF_H; y++)
			for (int x = 0; x < 2 * TF_W; x++) {
				int src = (((g + x / TF_W) % TF_N) * TF_H + y) * TF_W + x % TF_W;
				int dst = (g * TF_H + y) * 2 * TF_W + x;
				f->coverage[dst] = t->coverage[src];
				if (colour)
					f->colour[dst] = t->colour[src];
			}
	assert_int_equal(tf_index(f), 0);
	tf_free(t);
	return f;
}

/* A wide map cell at (x, y) of c: its head and its tail, as ui_put_map
 * writes them. */
static void put_wide(struct console *c, int x, int y, uint32_t ch, uint32_t fg, uint32_t bg)
{
	struct con_cell v = { ch, fg, bg, 0, CON_MAP | CON_WIDE };
	con_cell_set(c, x, y, v);
	v.flags = CON_MAP | CON_TAIL;
	if (x + 1 < c->w)
		con_cell_set(c, x + 1, y, v);
}

/* Wide map cells (docs/cells.md): with a map sheet each half shows that
 * half of the sheet's glyph, without one the head shows its glyph from the
 * text font and the tail a blank; text cells around them are drawn as
 * ever; drawn damaged-only after random edits (map cells and text over
 * their halves) equals a full draw, at every rotation and both formats. */
static void test_wide_map_cells(void **st)
{
	(void)st;
	struct font *f = tf_make(0);
	assert_non_null(f);
	for (int sheet = 0; sheet < 3; sheet++) { /* none, coverage, colour */
		struct font *m = sheet ? wide_font(sheet - 1) : NULL;
		for (int fi = 0; fi < 2; fi++)
			for (int scale = 1; scale <= 2; scale++) {
				struct blitter *b;
				assert_int_equal(blit_create(&b, f, scale), 0);
				assert_int_equal(blit_set_map(b, m), 0);
				assert_ptr_equal(blit_map(b), m);
				for (int ri = 0; ri < 4; ri++) {
					struct rng r;
					rng_seed(&r, (uint64_t)(sheet * 1000 + fi * 100 + scale * 10 + ri));
					struct console *c;
					assert_int_equal(con_create(&c, 9, 5), 0);
					struct tsurf a, full;
					int lw = 9 * TF_W * scale - 3, lh = 5 * TF_H * scale + 2;
					ts_init(&a, formats[fi], rotations[ri], lw, lh, 3);
					for (int round = 0; round < 8; round++) {
						for (int i = 0; i < 10; i++) {
							int x = rng_range(&r, 0, 8), y = rng_range(&r, 0, 4);
							uint32_t ch = random_chars[rng_range(&r, 0, 8)];
							uint32_t fg = rng_next(&r) & 0xFFFFFF, bg = rng_next(&r) & 0xFFFFFF;
							if (rng_range(&r, 0, 2))
								put_wide(c, x, y, ch, fg, bg);
							else
								con_put(c, x, y, ch, fg, bg);
						}
						blit_draw(b, c, &a.s, round ? c->damage : NULL);
						con_clear_damage(c);
						ts_init(&full, formats[fi], rotations[ri], lw, lh, 3);
						blit_draw(b, c, &full.s, NULL);
						if (memcmp(a.s.pixels, full.s.pixels, a.size))
							fail_msg("sheet %d %s scale %d rotation %d round %d: damaged-only "
								 "differs from full", sheet, format_names[fi], scale,
								 rotations[ri], round);
						ref_map = m;
						check_reference(&full.s, f, scale, c, SENTINEL);
						ref_map = NULL;
						ts_free(&full);
					}
					check_padding(&a.s);
					ts_free(&a);
					con_destroy(c);
				}
				blit_destroy(b);
			}
		tf_free(m);
	}
	/* a sheet whose cells are not two text cells is refused, the old kept */
	struct blitter *b;
	assert_int_equal(blit_create(&b, f, 1), 0);
	struct font *m = wide_font(0);
	assert_int_equal(blit_set_map(b, m), 0);
	assert_int_equal(blit_set_map(b, f), -EINVAL);
	assert_ptr_equal(blit_map(b), m);
	blit_destroy(b);
	tf_free(m);
	tf_free(f);
}

/* The cell cache (issue 22: a cell drawn again is copied, not blended):
 * one blitter with it, kept across rotations, formats (each changed alone)
 * and map sheets (set, swapped, removed), draws exactly what a blitter
 * without it draws, byte for byte: glyphs and colours from small sets, so
 * that cells come back often with one of glyph, fg or bg changed; text and
 * wide map cells; surfaces that clip the console; the default cache and
 * caches of 1 and 4 slots (cells of a band taking one another's slots). */
static void cell_cache_case(int slots, int nch, int ncol)
{
	static const uint32_t pal[] = { 0x000000, 0xFFFFFF, 0x808040, 0x2050A0 };
	for (int fno = 0; fno < N_TEST_FONTS; fno++) {
		struct font *f = test_font(fno);
		assert_non_null(f);
		bool rnd = fno >= 2;
		/* map sheets only fit the golden fonts' cells */
		struct font *sheets[2] = { rnd ? NULL : wide_font(0), rnd ? NULL : wide_font(1) };
		for (int scale = 1; scale <= 2; scale++) {
			struct blitter *b, *ref;
			assert_int_equal(blit_create(&b, f, scale), 0);
			assert_int_equal(blit_create(&ref, f, scale), 0);
			assert_int_equal(blit_set_cell_cache(b, slots), 0);
			assert_int_equal(blit_set_cell_cache(ref, 0), 0);
			struct rng r;
			rng_seed(&r, (uint64_t)(fno * 10 + scale + slots * 100));
			/* the sheet changes alone (each pass starts where the last
			 * ended), then the rotation alone, the format alone */
			static const int seq[][2] = { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 3 },
						      { 1, 2 }, { 1, 1 }, { 1, 0 }, { 0, 0 } };
			for (int pass = 0; pass < 3; pass++) {
				const struct font *m = pass < 2 ? sheets[pass] : NULL;
				assert_int_equal(blit_set_map(b, m), 0);
				assert_int_equal(blit_set_map(ref, m), 0);
				for (int step = 0; step < 9; step++) {
					int fi = seq[step][0], ri = seq[step][1];
					struct console *c;
					int cols = rnd ? 21 : 9, rows = rnd ? 5 : 6, cw = f->cell_w, ch = f->cell_h;
					assert_int_equal(con_create(&c, cols, rows), 0);
					int lw = cols * cw * scale - 5, lh = rows * ch * scale + 2;
					struct tsurf a, want;
					ts_init(&a, formats[fi], rotations[ri], lw, lh, 1);
					for (int round = 0; round < 6; round++) {
						for (int i = 0; i < 40; i++) {
							int x = rng_range(&r, 0, cols - 1), y = rng_range(&r, 0, rows - 1);
							uint32_t cp = rnd ? (uint32_t)rng_range(&r, 0, nch - 1)
									  : random_chars[rng_range(&r, 0, nch - 1)];
							uint32_t fg = pal[rng_range(&r, 0, ncol - 1)];
							uint32_t bg = pal[rng_range(&r, 0, ncol - 1)];
							if (m && rng_range(&r, 0, 1))
								put_wide(c, x, y, cp, fg, bg);
							else
								con_put(c, x, y, cp, fg, bg);
						}
						blit_draw(b, c, &a.s, round ? c->damage : NULL);
						con_clear_damage(c);
						ts_init(&want, formats[fi], rotations[ri], lw, lh, 1);
						blit_draw(ref, c, &want.s, NULL);
						if (memcmp(a.s.pixels, want.s.pixels, a.size))
							fail_msg("font %s %d slots sheet %d %s scale %d rotation %d round %d: "
								 "drawn with the cell cache differs from without",
								 f->name, slots, pass, format_names[fi], scale, rotations[ri],
								 round);
						ts_free(&want);
					}
					ts_free(&a);
					con_destroy(c);
				}
			}
			blit_destroy(b);
			blit_destroy(ref);
		}
		tf_free(sheets[0]);
		tf_free(sheets[1]);
		tf_free(f);
	}
}

static void test_cell_cache(void **st)
{
	(void)st;
	cell_cache_case(-1, 9, 4);
	cell_cache_case(1, 2, 2);
	cell_cache_case(4, 3, 2);
	/* counts that are not a power of two are refused */
	struct font *f = tf_make(0);
	struct blitter *b;
	assert_int_equal(blit_create(&b, f, 1), 0);
	assert_int_equal(blit_set_cell_cache(b, 3), -EINVAL);
	assert_int_equal(blit_set_cell_cache(b, -2), -EINVAL);
	blit_destroy(b);
	tf_free(f);
}

/* The cell cache's wide slots (a whole map cell two text cells wide,
 * made from its halves' slots, copied with one look-up): damaged draws at
 * rotation 0 of a few wide cells that come back over and over, at even
 * and odd columns, some tails overwritten by text (a head without its
 * tail) and some heads by text (a tail without its head), with caches
 * small enough that cells take one another's slots within a band (a kept
 * wide cell copied, then its slot made again for another before the band
 * is drawn), draw exactly what a blitter without the cache draws, in both
 * formats, with a mask and a colour map sheet; then the rotation changes
 * (the wide slots emptied with the others). */
static void test_wide_cells(void **st)
{
	(void)st;
	static const uint32_t pal[] = { 0xFFFFFF, 0x808040 };
	static const int slots[] = { 4, 16, 64, -1 };
	struct font *f = test_font(0);
	assert_non_null(f);
	for (int sh = 0; sh < 2; sh++) {
		struct font *m = wide_font(sh);
		for (int si = 0; si < 4; si++)
			for (int fi = 0; fi < 2; fi++) {
				struct blitter *b, *ref;
				assert_int_equal(blit_create(&b, f, 1), 0);
				assert_int_equal(blit_create(&ref, f, 1), 0);
				assert_int_equal(blit_set_cell_cache(b, slots[si]), 0);
				assert_int_equal(blit_set_cell_cache(ref, 0), 0);
				assert_int_equal(blit_set_map(b, m), 0);
				assert_int_equal(blit_set_map(ref, m), 0);
				struct console *c;
				int cols = 16, rows = 3, lw = cols * f->cell_w + 3, lh = rows * f->cell_h;
				assert_int_equal(con_create(&c, cols, rows), 0);
				struct rng r;
				rng_seed(&r, (uint64_t)(sh * 100 + si * 10 + fi));
				for (int ri = 0; ri < 4; ri += 2) {
					struct tsurf a, want;
					ts_init(&a, formats[fi], rotations[ri], lw, lh, 1);
					for (int round = 0; round < 150; round++) {
						for (int i = rng_range(&r, 1, 10); i > 0; i--) {
							int x = rng_range(&r, 0, cols - 1), y = rng_range(&r, 0, rows - 1);
							int k = rng_range(&r, 0, 9);
							if (k == 0) /* text over a half */
								con_put(c, x, y, 'a' + (uint32_t)rng_range(&r, 0, 2), pal[0], 0);
							else
								put_wide(c, k < 7 ? x & ~1 : x, y, random_chars[rng_range(&r, 0, 2)],
									 pal[rng_range(&r, 0, 1)], 0);
						}
						blit_draw(b, c, &a.s, round ? c->damage : NULL);
						con_clear_damage(c);
						ts_init(&want, formats[fi], rotations[ri], lw, lh, 1);
						blit_draw(ref, c, &want.s, NULL);
						if (memcmp(a.s.pixels, want.s.pixels, a.size))
							fail_msg("sheet %d, %d slots, %s rotation %d round %d: wide cells drawn with "
								 "the cell cache differ from without", sh, slots[si], format_names[fi],
								 rotations[ri], round);
						ts_free(&want);
					}
					ts_free(&a);
				}
				con_destroy(c);
				blit_destroy(b);
				blit_destroy(ref);
			}
		tf_free(m);
	}
	tf_free(f);
}

/* Tile pictures (issue 17): a blitter with a map sheet and a tile sheet
 * (a colour sheet of the map cells' size) draws, with the cell cache of
 * 1, 4 slots and the default, exactly what one without the cache draws;
 * so many pictures that the composed slots are let go and made again
 * (BLIT_TSLOTS); wide cells whose every layer the sheet has show the
 * picture, blended over bg (not the glyph: it differs from a blitter
 * without tiles), those with a layer it lacks their glyph (the same as
 * without tiles); drawn on black equals a full draw. */
static void put_picture(struct console *c, int x, int y, uint32_t ch, uint32_t fg, uint32_t bg, uint16_t tile,
			uint16_t pic)
{
	struct con_cell v = { ch, fg, bg, tile, (uint16_t)(CON_MAP | CON_WIDE | pic) };
	con_cell_set(c, x, y, v);
	v.flags = (uint16_t)(CON_MAP | CON_TAIL | pic);
	if (x + 1 < c->w)
		con_cell_set(c, x + 1, y, v);
}

static void test_tiles(void **st)
{
	(void)st;
	static const uint32_t pal[] = { 0x000000, 0xFFFFFF, 0x808040 };
	struct font *f = test_font(0), *map = wide_font(0), *tiles = wide_font(1);
	assert_non_null(f);
	/* tile 7 left out of the sheet: a cell with it shows its glyph */
	memset(tiles->colour + 7 * 2 * TF_W * TF_H, 0, 2 * TF_W * TF_H * sizeof *tiles->colour);
	memset(tiles->coverage + 7 * 2 * TF_W * TF_H, 0, 2 * TF_W * TF_H);
	static const int slots[] = { -1, 1, 4 };
	for (int si = 0; si < 3; si++)
		for (int scale = 1; scale <= 2; scale++) {
			struct blitter *b, *ref, *glyphs;
			assert_int_equal(blit_create(&b, f, scale), 0);
			assert_int_equal(blit_create(&ref, f, scale), 0);
			assert_int_equal(blit_create(&glyphs, f, scale), 0);
			assert_int_equal(blit_set_cell_cache(b, slots[si]), 0);
			assert_int_equal(blit_set_cell_cache(ref, 0), 0);
			for (int k = 0; k < 3; k++)
				assert_int_equal(blit_set_map((struct blitter *[]){ b, ref, glyphs }[k], map), 0);
			assert_int_equal(blit_set_tiles(b, tiles), 0);
			assert_int_equal(blit_set_tiles(ref, tiles), 0);
			assert_ptr_equal(blit_tiles(b), tiles);
			struct rng r;
			rng_seed(&r, (uint64_t)(si * 10 + scale));
			for (int ri = 0; ri < 4; ri++) {
				struct console *c;
				int cols = 12, rows = 6;
				assert_int_equal(con_create(&c, cols, rows), 0);
				int lw = cols * TF_W * scale - 3, lh = rows * TF_H * scale + 2;
				struct tsurf a, want, gl;
				ts_init(&a, formats[0], rotations[ri], lw, lh, 1);
				for (int round = 0; round < 40; round++) {
					for (int i = 0; i < 30; i++) {
						int x = rng_range(&r, 0, cols - 2), y = rng_range(&r, 0, rows - 1);
						uint16_t tile = CON_TILE(rng_range(&r, 0, 6), rng_range(&r, 0, 7));
						uint16_t pic = (uint16_t)(CON_MARK(rng_range(&r, 0, 3)) | CON_OVER(rng_range(&r, 0, 3)) |
									  (rng_range(&r, 0, 1) ? CON_DIM : 0));
						put_picture(c, x, y, random_chars[rng_range(&r, 0, 3)], pal[rng_range(&r, 0, 2)],
							    pal[rng_range(&r, 0, 2)], tile, pic);
					}
					blit_draw(b, c, &a.s, round ? c->damage : NULL);
					con_clear_damage(c);
					ts_init(&want, formats[0], rotations[ri], lw, lh, 1);
					blit_draw(ref, c, &want.s, NULL);
					if (memcmp(a.s.pixels, want.s.pixels, a.size))
						fail_msg("%d slots scale %d rotation %d round %d: tiles drawn with the cell "
							 "cache differ from without", slots[si], scale, rotations[ri], round);
					ts_free(&want);
				}
				/* one picture cell and one with a layer the sheet lacks */
				con_clear(c, 0);
				put_picture(c, 0, 0, 'A', 0xFFFFFF, 0, CON_TILE(1, 2), 0);
				put_picture(c, 2, 0, 'A', 0xFFFFFF, 0, CON_TILE(1, 7), 0);
				ts_init(&want, formats[0], rotations[ri], lw, lh, 1);
				ts_init(&gl, formats[0], rotations[ri], lw, lh, 1);
				blit_draw(ref, c, &want.s, NULL);
				blit_draw(glyphs, c, &gl.s, NULL);
				assert_int_not_equal(memcmp(want.s.pixels, gl.s.pixels, want.size), 0);
				c->cells[0].tile = c->cells[1].tile = CON_TILE(1, 7);
				blit_draw(ref, c, &want.s, NULL);
				if (memcmp(want.s.pixels, gl.s.pixels, want.size))
					fail_msg("rotation %d: a picture the sheet lacks a layer of is not its glyph",
						 rotations[ri]);
				/* on black: the same as a full draw */
				blit_clear(&want.s, 0);
				blit_clear(&gl.s, 0);
				put_picture(c, 4, 1, 'A', 0xFFFFFF, 0, CON_TILE(3, 0), CON_OVER(2));
				assert_int_equal(blit_draw_on_black(ref, c, &want.s), 0);
				blit_draw(ref, c, &gl.s, NULL);
				assert_memory_equal(want.s.pixels, gl.s.pixels, want.size);
				ts_free(&want);
				ts_free(&gl);
				ts_free(&a);
				con_destroy(c);
			}
			/* a sheet of other cells is refused; NULL takes it away */
			assert_int_equal(blit_set_tiles(b, f), -EINVAL);
			assert_ptr_equal(blit_tiles(b), tiles);
			assert_int_equal(blit_set_tiles(b, NULL), 0);
			assert_null(blit_tiles(b));
			blit_destroy(b);
			blit_destroy(ref);
			blit_destroy(glyphs);
		}
	tf_free(map);
	tf_free(tiles);
	tf_free(f);
}

/* blit_draw_on_black (issue 22: a first frame pays only for what it
 * shows) on a black surface gives the pixels of blit_draw(NULL) on the same
 * black surface, byte for byte: consoles with black and other backgrounds,
 * blank and drawn glyphs, wide map cells from a map sheet, every test font
 * (a full-colour one too), both formats, every rotation, scales 1-2. */
static void test_on_black_equals_full(void **st)
{
	(void)st;
	for (int fno = 0; fno < N_TEST_FONTS; fno++) {
		struct font *f = test_font(fno);
		assert_non_null(f);
		bool rnd = fno >= 2;
		for (int fi = 0; fi < 2; fi++)
			for (int scale = 1; scale <= 2; scale++) {
				struct blitter *b;
				assert_int_equal(blit_create(&b, f, scale), 0);
				struct font *wide = fno < 2 && scale == 1 ? wide_font(fno) : NULL; /* map cells too */
				if (wide)
					assert_int_equal(blit_set_map(b, wide), 0);
				for (int ri = 0; ri < 4; ri++) {
					struct rng r;
					rng_seed(&r, (uint64_t)(fno * 1000 + fi * 100 + scale * 10 + ri));
					struct console *c;
					int cols = rnd ? 21 : 9, rows = rnd ? 5 : 6;
					assert_int_equal(con_create(&c, cols, rows), 0);
					for (int i = 0; i < 40; i++) { /* most on black, some blank */
						random_cell(c, &r, rnd);
						int x = rng_range(&r, 0, cols - 1), y = rng_range(&r, 0, rows - 1);
						con_put(c, x, y, i % 3 ? con_at(c, x, y)->ch : ' ', rng_next(&r) & 0xFFFFFF, 0);
						if (wide && i % 4 == 0) /* a wide map cell, blank or not, on black or not */
							put_wide(c, rng_range(&r, 0, cols - 2), y, i % 8 ? 'F' : ' ',
								 0xFFFFFF, i % 3 ? 0 : 0x203040);
					}
					int lw = f->cell_w * cols * scale + 3, lh = f->cell_h * rows * scale - 5;
					struct tsurf a, full;
					ts_init(&a, formats[fi], rotations[ri], lw, lh, 2);
					ts_init(&full, formats[fi], rotations[ri], lw, lh, 2);
					blit_clear(&a.s, 0);
					blit_clear(&full.s, 0);
					assert_int_equal(blit_draw_on_black(b, c, &a.s), 0);
					blit_draw(b, c, &full.s, NULL);
					if (memcmp(a.s.pixels, full.s.pixels, a.size))
						fail_msg("font %s %s scale %d rotation %d: drawn on black differs from a "
							 "full draw", f->name, format_names[fi], scale, rotations[ri]);
					ts_free(&a);
					ts_free(&full);
					con_destroy(c);
				}
				blit_destroy(b);
				if (wide)
					tf_free(wide);
			}
		tf_free(f);
	}
}

/* blit_set_map_later (issue 22: a first frame without map cells does not
 * decode the map sheet): drawing a console without wide map cells decodes
 * nothing; the first with them decodes the sheet once, and the pixels are
 * those of a blitter given the decoded sheet by blit_set_map, byte for
 * byte, in both formats. A sheet of the wrong cell size is refused at once. */
static void test_map_sheet_later(void **st)
{
	(void)st;
	char err[256];
	struct font_cands c = { 0 };
	assert_int_equal(font_cands_add(&c, "fonts/dejavu-text-12x24.png", err, sizeof err), 0);
	assert_int_equal(font_cands_add(&c, "fonts/dejavu-24x24.png", err, sizeof err), 0);
	assert_int_equal(font_cands_add(&c, "fonts/dejavu-21x21.png", err, sizeof err), 0);
	const struct font *text, *map;
	assert_int_equal(font_cands_get(&c, 0, &text, err, sizeof err), 0);
	int before = c.decodes;
	struct blitter *lazy, *now;
	assert_int_equal(blit_create(&lazy, text, 1), 0);
	assert_int_equal(blit_set_map_later(lazy, &c, 2), -EINVAL); /* 21x21: not two text cells */
	assert_int_equal(blit_set_map_later(lazy, &c, 1), 0);
	assert_null(blit_map(lazy));
	struct console *con;
	assert_int_equal(con_create(&con, 12, 5), 0);
	con_put(con, 1, 1, 'F', 0xFFFFFF, 0x203040);
	for (int fi = 0; fi < 2; fi++) {
		struct tsurf a;
		ts_init(&a, formats[fi], 0, 12 * 12, 5 * 24, 0);
		blit_draw(lazy, con, &a.s, NULL);
		ts_free(&a);
	}
	assert_int_equal(c.decodes, before); /* no map cell yet: not decoded */
	struct con_cell v = { '#', 0xC0A080, 0x302010, 0, CON_MAP | CON_WIDE };
	con_cell_set(con, 4, 2, v);
	v.flags = CON_MAP | CON_TAIL;
	con_cell_set(con, 5, 2, v);
	for (int fi = 0; fi < 2; fi++) {
		struct tsurf a, b;
		ts_init(&a, formats[fi], 0, 12 * 12, 5 * 24, 0);
		ts_init(&b, formats[fi], 0, 12 * 12, 5 * 24, 0);
		blit_draw(lazy, con, &a.s, NULL);
		assert_int_equal(c.decodes, before + 1);
		assert_int_equal(font_cands_get(&c, 1, &map, err, sizeof err), 0);
		assert_ptr_equal(blit_map(lazy), map);
		assert_int_equal(blit_create(&now, text, 1), 0);
		assert_int_equal(blit_set_map(now, map), 0);
		blit_draw(now, con, &b.s, NULL);
		assert_memory_equal(a.s.pixels, b.s.pixels, a.size);
		blit_destroy(now);
		ts_free(&a);
		ts_free(&b);
	}
	assert_int_equal(c.decodes, before + 1);
	con_destroy(con);
	blit_destroy(lazy);
	font_cands_clear(&c);
}

static void test_damaged_equals_full(void **st)
{
	(void)st;
	damaged_equals_full(0, 3);
}

/* Every cell anti-aliased (or a colour tile), side by side: the blend
 * paths of both formats, including RGB565's two rows at a step of 8-pixel
 * cells (an odd last row), cells wider than 16 pixels and tails under 8,
 * with and without AVX2 and AVX-512, match the reference model. */
static void test_blend_every_cell(void **st)
{
	(void)st;
	static const int widths[] = { 8, 6, 12, 16, 21 };
	for (int base = 0; base < 3; base++) { /* the best code, the baseline, AVX2 without AVX-512 */
		if (base)
			setenv("PIROGUE_BLIT_BASELINE", base == 1 ? "1" : "2", 1);
		for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++)
			for (int colour = 0; colour < 2; colour++) {
				int cw = widths[wi], ch = 7;
				struct font *f = tf_random(cw, ch, (uint32_t)(31 * wi + 7));
				assert_non_null(f);
				uint32_t seed = (uint32_t)wi * 977u + 5u;
				size_t n = (size_t)TF_RND_N * (size_t)(cw * ch);
				if (colour) {
					f->colour = malloc(n * sizeof *f->colour);
					assert_non_null(f->colour);
				}
				for (size_t i = 0; i < n; i++) {
					seed = seed * 1103515245u + 12345u;
					f->coverage[i] = (uint8_t)(seed >> 16);
					if (colour)
						f->colour[i] = (uint32_t)f->coverage[i] << 24 |
							       ((seed >> 4) * 2654435761u >> 8 & 0xFFFFFF);
				}
				struct rng r;
				rng_seed(&r, 40 + wi);
				struct console *c;
				assert_int_equal(con_create(&c, 9, 4), 0);
				for (int y = 0; y < 4; y++)
					for (int x = 0; x < 9; x++)
						con_put(c, x, y, (uint32_t)rng_range(&r, 0, TF_RND_N - 1),
							rng_next(&r) & 0xFFFFFF, rng_next(&r) & 0xFFFFFF);
				for (int fi = 0; fi < 2; fi++)
					for (int scale = 1; scale <= 2; scale++)
						for (int ri = 0; ri < 4; ri++) {
							struct blitter *b;
							assert_int_equal(blit_create(&b, f, scale), 0);
							struct tsurf t;
							ts_init(&t, formats[fi], rotations[ri], 9 * cw * scale,
								4 * ch * scale + 2, 1);
							blit_draw(b, c, &t.s, NULL);
							check_reference(&t.s, f, scale, c, SENTINEL);
							check_padding(&t.s);
							ts_free(&t);
							blit_destroy(b);
						}
				con_destroy(c);
				tf_free(f);
			}
	}
	unsetenv("PIROGUE_BLIT_BASELINE");
}

/* A whole draw of 8-pixel anti-aliased and colour cells onto a surface
 * whose rows are 32-byte aligned (as a display's buffer is): the blend
 * path then streams its rows past the cache (AVX2, AVX-512), and the
 * pixels still match the reference model, in every code variant. */
static void test_streamed_whole_draw(void **st)
{
	(void)st;
	for (int base = 0; base < 3; base++) {
		if (base)
			setenv("PIROGUE_BLIT_BASELINE", base == 1 ? "1" : "2", 1);
		for (int colour = 0; colour < 2; colour++) {
			struct font *f = tf_random(8, 16, 99u + (uint32_t)colour);
			assert_non_null(f);
			size_t n = (size_t)TF_RND_N * 8 * 16;
			uint32_t seed = 7;
			if (colour) {
				f->colour = malloc(n * sizeof *f->colour);
				assert_non_null(f->colour);
			}
			for (size_t i = 0; i < n; i++) {
				seed = seed * 1103515245u + 12345u;
				f->coverage[i] = (uint8_t)(seed >> 16);
				if (colour)
					f->colour[i] = (uint32_t)f->coverage[i] << 24 | (seed * 2654435761u >> 8 & 0xFFFFFF);
			}
			struct console *c;
			assert_int_equal(con_create(&c, 20, 3), 0);
			struct rng r;
			rng_seed(&r, 3);
			for (int y = 0; y < 3; y++)
				for (int x = 0; x < 20; x++)
					con_put(c, x, y, (uint32_t)rng_range(&r, 0, TF_RND_N - 1), rng_next(&r) & 0xFFFFFF,
						rng_next(&r) & 0xFFFFFF);
			struct blitter *b;
			assert_int_equal(blit_create(&b, f, 1), 0);
			struct surface sf = { .width = 160, .height = 48, .stride = 160 * 4, .format = SURF_XRGB8888 };
			sf.pixels = aligned_alloc(64, (size_t)sf.stride * 48);
			assert_non_null(sf.pixels);
			memset(sf.pixels, PAD_BYTE, (size_t)sf.stride * 48);
			blit_draw(b, c, &sf, NULL);
			check_reference(&sf, f, 1, c, SENTINEL);
			free(sf.pixels);
			blit_destroy(b);
			con_destroy(c);
			tf_free(f);
		}
	}
	unsetenv("PIROGUE_BLIT_BASELINE");
}

/* Whole draws of the 1080p look with the map in pictures (the shipped
 * 12x24 text font, 24x24 map sheet and tiles), again and again with the
 * cell cache (the pictures noted, then kept, then copied: streamed past
 * the cache in groups of four halves on a 64-byte aligned surface),
 * equal a whole draw without the cache, in every code variant; some
 * cells are glyphs, some pictures, runs of them broken at odd places. */
static void test_streamed_pictures(void **st)
{
	(void)st;
	char err[256];
	struct font *text, *map, *tiles;
	assert_int_equal(font_load(&text, "fonts/dejavu-text-12x24.png", err, sizeof err), 0);
	assert_int_equal(font_load(&map, "fonts/dejavu-24x24.png", err, sizeof err), 0);
	assert_int_equal(font_load_tiles(&tiles, "tiles/dcss-24.png", err, sizeof err), 0);
	struct console *c;
	int cols = 40, rows = 6;
	assert_int_equal(con_create(&c, cols, rows), 0);
	struct rng r;
	rng_seed(&r, 22);
	for (int y = 0; y < rows; y++)
		for (int x = 0; x < cols; x += 2) {
			if (rng_range(&r, 0, 4) == 0) { /* text over the map's row */
				con_put(c, x, y, 'a' + (uint32_t)rng_range(&r, 0, 25), 0xE0E0E0, 0x102030);
				con_put(c, x + 1, y, 'A' + (uint32_t)rng_range(&r, 0, 25), 0xE0E0E0, 0);
				continue;
			}
			int wall = rng_range(&r, 0, 2) == 0;
			uint16_t tile = CON_TILE((wall ? 25 : 21) + rng_range(&r, 0, 3), wall ? 0 : rng_range(&r, 0, 1) * 7);
			put_picture(c, x, y, wall ? '#' : '.', 0xB4A878, 0x201C14, tile,
				    (uint16_t)(rng_range(&r, 0, 1) ? CON_DIM : 0));
		}
	int w = cols * 12, h = rows * 24;
	size_t size = (size_t)w * 4 * (size_t)h;
	for (int base = 0; base < 3; base++) {
		if (base)
			setenv("PIROGUE_BLIT_BASELINE", base == 1 ? "1" : "2", 1);
		struct blitter *b, *ref;
		assert_int_equal(blit_create(&b, text, 1), 0);
		assert_int_equal(blit_create(&ref, text, 1), 0);
		assert_int_equal(blit_set_cell_cache(ref, 0), 0);
		assert_int_equal(blit_set_map(b, map), 0);
		assert_int_equal(blit_set_map(ref, map), 0);
		assert_int_equal(blit_set_tiles(b, tiles), 0);
		assert_int_equal(blit_set_tiles(ref, tiles), 0);
		struct surface a = { .width = w, .height = h, .stride = w * 4, .format = SURF_XRGB8888 };
		struct surface want = a;
		a.pixels = aligned_alloc(64, size);
		want.pixels = aligned_alloc(64, size);
		assert_true(a.pixels && want.pixels);
		memset(want.pixels, PAD_BYTE, size);
		blit_draw(ref, c, &want, NULL);
		for (int round = 0; round < 4; round++) {
			memset(a.pixels, PAD_BYTE, size);
			blit_draw(b, c, &a, NULL);
			if (memcmp(a.pixels, want.pixels, size))
				fail_msg("code %d, whole draw %d with the cell cache differs from without", base, round);
		}
		free(a.pixels);
		free(want.pixels);
		blit_destroy(b);
		blit_destroy(ref);
	}
	unsetenv("PIROGUE_BLIT_BASELINE");
	con_destroy(c);
	font_destroy(text);
	font_destroy(map);
	font_destroy(tiles);
}

/* The code used without AVX2 (and on other CPUs) draws the same pixels;
 * so does AVX2 without AVX-512. */
static void test_baseline_code(void **st)
{
	(void)st;
	for (int k = 0; k < 2; k++) {
		setenv("PIROGUE_BLIT_BASELINE", k ? "2" : "1", 1);
		golden_for_font(0);
		golden_for_font(1);
		damaged_equals_full(0, 1);
	}
	unsetenv("PIROGUE_BLIT_BASELINE");
}

/* The output does not depend on what the surface held before. */
static void test_never_reads_surface(void **st)
{
	(void)st;
	struct font *f = tf_make(0);
	struct console *c = golden_console();
	struct blitter *b;
	assert_int_equal(blit_create(&b, f, 2), 0);
	for (int fi = 0; fi < 2; fi++) {
		struct tsurf t1, t2;
		ts_init(&t1, formats[fi], 90, 7 * TF_W * 2, 4 * TF_H * 2, 0);
		ts_init(&t2, formats[fi], 90, 7 * TF_W * 2, 4 * TF_H * 2, 0);
		for (size_t i = 0; i < t2.size; i++)
			((uint8_t *)t2.s.pixels)[i] = (uint8_t)(i * 7 + 3);
		blit_draw(b, c, &t1.s, NULL);
		blit_draw(b, c, &t2.s, NULL);
		assert_memory_equal(t1.s.pixels, t2.s.pixels, t1.size);
		ts_free(&t1);
		ts_free(&t2);
	}
	blit_destroy(b);
	con_destroy(c);
	tf_free(f);
}

static void test_console_size(void **st)
{
	(void)st;
	struct font *f = tf_make(0);
	struct blitter *b;
	assert_int_equal(blit_create(&b, f, 2), 0);
	struct surface s = { NULL, 645, 100, 645 * 4, SURF_XRGB8888, 0 };
	int cols, rows;
	blit_console_size(b, &s, &cols, &rows);
	assert_int_equal(cols, 32); /* 645 / 20 */
	assert_int_equal(rows, 4);  /* 100 / 24 */
	s.rotation = 90;
	blit_console_size(b, &s, &cols, &rows);
	assert_int_equal(cols, 5);  /* 100 / 20 */
	assert_int_equal(rows, 26); /* 645 / 24 */
	s.rotation = 270;
	blit_console_size(b, &s, &cols, &rows);
	assert_int_equal(cols, 5);
	assert_int_equal(rows, 26);
	s.rotation = 180;
	s.width = 19;
	blit_console_size(b, &s, &cols, &rows);
	assert_int_equal(cols, 0);
	assert_int_equal(rows, 4);
	blit_destroy(b);
	tf_free(f);
}

static void test_fit_scale(void **st)
{
	(void)st;
	struct font *f = tf_make(0); /* 10×12 */
	struct surface s = { NULL, 1920, 1080, 1920 * 4, SURF_XRGB8888, 0 };
	assert_int_equal(blit_fit_scale(f, &s, 80, 50), 1); /* 192×90 at 1, 96×45 at 2 */
	assert_int_equal(blit_fit_scale(f, &s, 80, 40), 2);
	assert_int_equal(blit_fit_scale(f, &s, 1, 1), 8);
	s.rotation = 90; /* 1080 wide, 1920 tall */
	assert_int_equal(blit_fit_scale(f, &s, 50, 80), 2); /* 54×80 at 2 */
	s.width = 10;
	assert_int_equal(blit_fit_scale(f, &s, 80, 50), 1);
	tf_free(f);
}

/* The shipped fonts, in the order the game offers them to blit_choose. */
static const char *const shipped[] = { "fonts/cp437-8x8.png",	 "fonts/cp437-8x9.png",	   "fonts/cp437-8x16.png",
				       "fonts/dejavu-12x12.png", "fonts/dejavu-14x14.png", "fonts/dejavu-16x16.png",
				       "fonts/dejavu-18x18.png", "fonts/dejavu-21x21.png", "fonts/dejavu-24x24.png" };
#define NSHIPPED ((int)(sizeof shipped / sizeof *shipped))

static void load_shipped(struct font **fonts)
{
	char err[256];
	for (int i = 0; i < NSHIPPED; i++)
		if (font_load(&fonts[i], shipped[i], err, sizeof err))
			fail_msg("%s", err);
}

/* Which fonts keep a gap between lines of text: all but the 8×8. */
static void test_lines_apart(void **st)
{
	(void)st;
	struct font *fonts[NSHIPPED];
	load_shipped(fonts);
	for (int i = 0; i < NSHIPPED; i++) {
		if (font_lines_apart(fonts[i]) != (i != 0))
			fail_msg("%s: lines apart %d", shipped[i], font_lines_apart(fonts[i]));
		font_destroy(fonts[i]);
	}
}

/* The choose_cases of the automatic choice among the shipped fonts. */
enum { F8, F9, F816, D12, D14, D16, D18, D21, D24 };
static const struct {
	int w, h, rot, fixed, font, scale;
} choose_cases[] = {
	{ 640, 400, 0, 0, F8, 1 },     /* 80×50 of 8×8 exactly: only it shows 80×50 */
	{ 640, 480, 0, 0, F9, 1 },     /* 80×53 of 8×9: fills more than 8×8's 80×60 */
	{ 800, 480, 0, 0, F9, 1 },     /* 100×53 */
	{ 1280, 800, 0, 0, D16, 1 },   /* 80×50 of 16×16 exactly; 8×8 at 2 ties: the font's own pixels */
	{ 1920, 1080, 0, 0, D21, 1 },  /* 91×51 */
	{ 1366, 768, 0, 0, D14, 1 },   /* 97×54 */
	{ 1280, 720, 0, 0, D14, 1 },   /* 91×51 */
	{ 1024, 768, 0, 0, D12, 1 },   /* 85×64 */
	{ 1440, 900, 0, 0, D18, 1 },   /* 80×50 */
	{ 1920, 1200, 0, 0, D24, 1 },  /* 80×50 */
	{ 3840, 2160, 0, 0, D21, 2 },  /* 91×51 */
	{ 2560, 1600, 0, 0, D16, 2 },  /* 16×16 at 2 ties 8×8 at 4: the smaller scale */
	{ 800, 1280, 90, 0, D16, 1 },  /* a portrait panel turned: 1280×800 */
	{ 1920, 1080, 0, 2, F9, 2 },   /* --scale 2: only 8×8 and 8×9 show 80×50; 8×9 fills more */
	/* nothing shows 80×50: the most cells of a font whose lines
	 * keep a gap and that shows 40×24 ... */
	{ 320, 240, 0, 0, F9, 1 },     /* 40×26 (the 8×8's 40×30 has touching lines) */
	{ 480, 320, 0, 0, F9, 1 },     /* 60×35 */
	{ 1920, 1080, 0, 3, F9, 3 },   /* --scale 3: 80×40 */
	/* ... else the most cells */
	{ 640, 192, 0, 0, F8, 1 },     /* 80×24 (8×9: 80×21) */
	{ 200, 100, 0, 0, F8, 1 },     /* 25×12: too small for any */
};

/* The automatic choice of font and scale among the shipped fonts. */
static void test_choose(void **st)
{
	(void)st;
	struct font *fonts[NSHIPPED];
	load_shipped(fonts);
	for (size_t i = 0; i < sizeof choose_cases / sizeof *choose_cases; i++) {
		struct surface s = { .width = choose_cases[i].w, .height = choose_cases[i].h, .rotation = choose_cases[i].rot };
		int scale = -1;
		int got = blit_choose((const struct font *const *)fonts, NSHIPPED, &s, 80, 50, 40, 24, choose_cases[i].fixed,
				      &scale);
		if (got != choose_cases[i].font || scale != choose_cases[i].scale)
			fail_msg("%dx%d rot %d fixed %d: %s scale %d, want %s scale %d", choose_cases[i].w, choose_cases[i].h,
				 choose_cases[i].rot, choose_cases[i].fixed, shipped[got], scale, shipped[choose_cases[i].font],
				 choose_cases[i].scale);
	}
	/* one candidate: blit_fit_scale's answer */
	struct surface s = { .width = 1280, .height = 800 };
	int scale;
	assert_int_equal(blit_choose((const struct font *const *)fonts, 1, &s, 80, 50, 40, 24, 0, &scale), 0);
	assert_int_equal(scale, blit_fit_scale(fonts[0], &s, 80, 50));
	for (int i = 0; i < NSHIPPED; i++)
		font_destroy(fonts[i]);
}

/* The same choice from candidates known by their headers decodes the chosen
 * sheet alone, and on a small panel also those it looks at for a gap
 * between lines, most cells first (the 8×8 before the 8×9): never the
 * other sheets (a start used to decode all nine). */
static void test_choose_cands(void **st)
{
	(void)st;
	for (size_t i = 0; i < sizeof choose_cases / sizeof *choose_cases; i++) {
		struct font_cands c = { 0 };
		char err[512];
		for (int k = 0; k < NSHIPPED; k++)
			if (font_cands_add(&c, shipped[k], err, sizeof err))
				fail_msg("%s", err);
		assert_int_equal(c.decodes, 0);
		struct surface s = { .width = choose_cases[i].w, .height = choose_cases[i].h, .rotation = choose_cases[i].rot };
		const struct font *f = NULL;
		int scale = -1;
		assert_int_equal(blit_choose_cands(&c, &s, 80, 50, 40, 24, choose_cases[i].fixed, &f, &scale, err, sizeof err), 0);
		assert_non_null(f);
		assert_ptr_equal(f, c.c[choose_cases[i].font].font);
		assert_int_equal(scale, choose_cases[i].scale);
		/* looked at for its lines: the 8×8 when the 8×9 is taken on a
		 * small panel (it shows more cells there) */
		bool small = choose_cases[i].font == F9 && (choose_cases[i].w < 640 || choose_cases[i].fixed == 3);
		for (int k = 0; k < NSHIPPED; k++)
			if ((c.c[k].font != NULL) != (k == choose_cases[i].font || (small && k == F8)))
				fail_msg("%dx%d fixed %d: %s decoded %d", choose_cases[i].w, choose_cases[i].h, choose_cases[i].fixed, shipped[k],
					 c.c[k].font != NULL);
		assert_int_equal(c.decodes, small ? 2 : 1);
		font_cands_clear(&c);
	}
}

static void test_create_rejects(void **st)
{
	(void)st;
	struct font *f = tf_make(0);
	struct blitter *b = (struct blitter *)&b;
	assert_int_equal(blit_create(&b, f, 0), -EINVAL);
	assert_null(b);
	assert_int_equal(blit_create(&b, f, 9), -EINVAL);
	assert_int_equal(blit_create(&b, NULL, 1), -EINVAL);
	f->replacement = TF_N;
	assert_int_equal(blit_create(&b, f, 1), -EINVAL);
	f->replacement = 0;
	for (int s = 1; s <= 8; s++) {
		assert_int_equal(blit_create(&b, f, s), 0);
		blit_destroy(b);
	}
	blit_destroy(NULL);
	tf_free(f);
}

/* Scale 8 and a bad rotation: the big path is right, the bad one draws nothing. */
static void test_scale8_and_bad_rotation(void **st)
{
	(void)st;
	struct font *f = tf_make(0);
	struct console *c = golden_console();
	struct blitter *b;
	assert_int_equal(blit_create(&b, f, 8), 0);
	for (int ri = 0; ri < 4; ri++) {
		struct tsurf t;
		ts_init(&t, SURF_RGB565, rotations[ri], 7 * TF_W * 8 - 3, 4 * TF_H * 8 + 1, 2);
		blit_draw(b, c, &t.s, NULL);
		check_reference(&t.s, f, 8, c, SENTINEL);
		ts_free(&t);
	}
	struct tsurf t;
	ts_init(&t, SURF_XRGB8888, 0, 100, 100, 0);
	t.s.rotation = 45;
	blit_draw(b, c, &t.s, NULL);
	t.s.rotation = 0;
	for (int y = 0; y < 100; y++)
		for (int x = 0; x < 100; x++)
			assert_int_equal(px_raw(&t.s, x, y), SENTINEL);
	ts_free(&t);
	blit_destroy(b);
	con_destroy(c);
	tf_free(f);
}

static void test_clear(void **st)
{
	(void)st;
	struct tsurf t;
	const uint32_t colours[] = { 0x123456, 0, 0xFFFFFF, 0x010101, 0xFF00FF };
	for (int fi = 0; fi < 2; fi++)
		for (size_t ci = 0; ci < sizeof colours / sizeof *colours; ci++)
			for (int w = 1; w <= 37; w += 9) {
				ts_init(&t, formats[fi], 0, w, 3, 3);
				blit_clear(&t.s, colours[ci]);
				for (int y = 0; y < 3; y++)
					for (int x = 0; x < w; x++)
						assert_int_equal(px_raw(&t.s, x, y), conv(formats[fi], colours[ci]));
				check_padding(&t.s);
				ts_free(&t);
			}
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--regen")) {
		regen = true;
		const struct CMUnitTest gen[] = {
			cmocka_unit_test(test_golden_coverage),
			cmocka_unit_test(test_golden_colour),
		};
		return cmocka_run_group_tests(gen, NULL, NULL);
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_coverage),
		cmocka_unit_test(test_golden_colour),
		cmocka_unit_test(test_lines_apart),
		cmocka_unit_test(test_choose),
		cmocka_unit_test(test_choose_cands),
		cmocka_unit_test(test_damaged_equals_full),
		cmocka_unit_test(test_on_black_equals_full),
		cmocka_unit_test(test_map_sheet_later),
		cmocka_unit_test(test_wide_map_cells),
		cmocka_unit_test(test_cell_cache),
		cmocka_unit_test(test_wide_cells),
		cmocka_unit_test(test_tiles),
		cmocka_unit_test(test_blend_every_cell),
		cmocka_unit_test(test_streamed_whole_draw),
		cmocka_unit_test(test_streamed_pictures),
		cmocka_unit_test(test_baseline_code),
		cmocka_unit_test(test_never_reads_surface),
		cmocka_unit_test(test_console_size),
		cmocka_unit_test(test_fit_scale),
		cmocka_unit_test(test_create_rejects),
		cmocka_unit_test(test_scale8_and_bad_rotation),
		cmocka_unit_test(test_clear),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
