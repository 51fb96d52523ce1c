/* test_tiles: the tile sheets (render/font_tiles.c): the shipped ones and their index, bad sheets refused in one line, pictures composed exactly. */
#include "testutil.h"
#include "render/font.h"
#include "game/content.h"
#include "ui/scr.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stb_image_write.h>

static void write_cb(void *ctx, void *data, int size)
{
	struct {
		uint8_t *d;
		size_t n;
	} *b = ctx;
	b->d = realloc(b->d, b->n + (size_t)size);
	assert_non_null(b->d);
	memcpy(b->d + b->n, data, (size_t)size);
	b->n += (size_t)size;
}

/* A w×h RGBA PNG of the pixels px, loaded as a tile sheet: its rc, the
 * sheet in *out, the message in err. */
static int load_png_as(struct font **out, int w, int h, const uint8_t *px, const char *name, char *err, size_t len)
{
	struct {
		uint8_t *d;
		size_t n;
	} b = { 0 };
	assert_true(stbi_write_png_to_func(write_cb, &b, w, h, 4, px, w * 4));
	int rc = font_load_tiles_mem(out, b.d, b.n, name, err, len);
	free(b.d);
	return rc;
}

static int load_png(struct font **out, int w, int h, const uint8_t *px, char *err, size_t len)
{
	return load_png_as(out, w, h, px, "sheet.png", err, len);
}

/* The mean colour (0xRRGGBB) of tile t's pixels in f, weighted by their
 * alpha. */
static uint32_t mean_rgb(const struct font *f, int t)
{
	size_t n = (size_t)f->cell_w * (size_t)f->cell_h;
	const uint32_t *p = f->colour + (size_t)t * n;
	unsigned long long sum[3] = { 0 }, wt = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned a = p[i] >> 24;
		for (int c = 0; c < 3; c++)
			sum[c] += (unsigned long long)(p[i] >> (16 - 8 * c) & 0xFF) * a;
		wt += a;
	}
	if (!wt)
		return 0;
	return (uint32_t)(sum[0] / wt << 16 | sum[1] / wt << 8 | sum[2] / wt);
}

/* Every shipped sheet loads, at its size, with every tile the game draws;
 * the index names the tiles the game numbers, in its order. */
static void test_shipped(void **st)
{
	(void)st;
	/* every map cell of the automatic look: the square ones, and the 8x9
	 * of the VGA font at 320x240 */
	static const int sizes[][2] = { { 8, 8 },   { 12, 12 }, { 14, 14 }, { 16, 16 }, { 18, 18 },
					{ 20, 20 }, { 21, 21 }, { 24, 24 }, { 48, 48 }, { 8, 9 } };
	char err[256], path[64];
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		struct font *f;
		if (sizes[i][0] == sizes[i][1])
			snprintf(path, sizeof path, "tiles/dcss-%d.png", sizes[i][0]);
		else
			snprintf(path, sizeof path, "tiles/dcss-%dx%d.png", sizes[i][0], sizes[i][1]);
		if (font_load_tiles(&f, path, err, sizeof err))
			fail_msg("%s", err);
		assert_int_equal(f->cell_w, sizes[i][0]);
		assert_int_equal(f->cell_h, sizes[i][1]);
		assert_true(f->nglyphs >= UI_TILE_COUNT);
		assert_false(font_tile_has(f, UI_TILE_NONE));
		for (int t = 1; t < UI_TILE_COUNT; t++)
			if (!font_tile_has(f, t))
				fail_msg("%s lacks tile %d (%s)", path, t, ui_tile_names[t]);
		assert_false(font_tile_has(f, UI_TILE_COUNT));
		/* kinds that share a glyph have pictures of their own */
		size_t px = (size_t)f->cell_w * (size_t)f->cell_h * sizeof *f->colour;
		static const int pairs[][2] = { { UI_TILE_DAGGER, UI_TILE_SWORD },
						{ UI_TILE_LEATHER_ARMOUR, UI_TILE_CHAIN_MAIL },
						{ UI_TILE_SCROLL_CONFUSION, UI_TILE_SCROLL_PARALYSIS },
						{ UI_TILE_SCROLL_LIGHTNING, UI_TILE_SCROLL_FIREBALL },
						{ UI_TILE_FLOOR, UI_TILE_FLOOR + 1 }, { UI_TILE_WALL, UI_TILE_WALL + 1 },
						{ UI_TILE_STAIRS_DOWN, UI_TILE_STAIRS_UP },
						{ UI_TILE_CORPSE, UI_TILE_PLAYER_CORPSE } };
		for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
			if (!memcmp(f->colour + (size_t)pairs[k][0] * px / sizeof *f->colour,
				    f->colour + (size_t)pairs[k][1] * px / sizeof *f->colour, px))
				fail_msg("%s: %s and %s are the same picture", path, ui_tile_names[pairs[k][0]],
					 ui_tile_names[pairs[k][1]]);
		/* the stairs read apart at a glance (they were the same green
		 * box, a few steps differing, means 16410D and 1A4913 at 8x8):
		 * their mean colours differ by a quarter of the range in a
		 * channel */
		uint32_t down = mean_rgb(f, UI_TILE_STAIRS_DOWN), up = mean_rgb(f, UI_TILE_STAIRS_UP);
		int most = 0;
		for (int sh = 0; sh <= 16; sh += 8) {
			int d = abs((int)(down >> sh & 0xFF) - (int)(up >> sh & 0xFF));
			most = d > most ? d : most;
		}
		if (most < 64)
			fail_msg("%s: the stairs down (mean %06X) and up (%06X) differ by %d at most in a channel", path,
				 down, up, most);
		font_destroy(f);
	}
	FILE *in = fopen("tiles/index.txt", "r");
	assert_non_null(in);
	char line[128];
	int n = 0;
	while (fgets(line, sizeof line, in)) {
		if (line[0] == '#')
			continue;
		line[strcspn(line, "\n")] = 0;
		assert_true(n < UI_TILE_COUNT);
		assert_string_equal(line, ui_tile_names[n]);
		n++;
	}
	fclose(in);
	assert_int_equal(n, UI_TILE_COUNT);
}

/* The dead player has a picture of its own; a monster's corpse is the
 * corpse (the two were the same picture). */
static void test_player_corpse(void **st)
{
	(void)st;
	struct ui_layout l;
	ui_layout(80, 50, 1, &l);
	l.pictures = true;
	struct drawable d = { .glyph = content_rules.corpse_glyph, .fg = content_rules.player_corpse_fg,
			      .corpse = true, .actor = -1, .item = -1 };
	struct con_cell v = { 0 };
	ui_put_drawable(&l, &d, &v);
	assert_int_equal(v.tile >> 8, UI_TILE_PLAYER_CORPSE);
	d.fg = content_rules.corpse_fg;
	ui_put_drawable(&l, &d, &v);
	assert_int_equal(v.tile >> 8, UI_TILE_CORPSE);
}

/* What is not a sheet is refused with one line naming the file. */
static void test_bad(void **st)
{
	(void)st;
	char err[256];
	struct font *f;
	assert_int_equal(font_load_tiles_mem(&f, "hello, world", 12, "x.png", err, sizeof err), -EINVAL);
	assert_null(f);
	assert_non_null(strstr(err, "x.png: not a tile sheet"));
	uint8_t *px = calloc(100 * 64, 4);
	assert_non_null(px);
	assert_int_equal(load_png(&f, 100, 64, px, err, sizeof err), -EDOM);
	assert_non_null(strstr(err, "not a tile sheet (16 columns"));
	/* right size, nothing in it */
	assert_int_equal(load_png(&f, 64, 8, px, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "transparent"));
	free(px);
	assert_true(font_load_tiles(&f, "tests/no-such-sheet.png", err, sizeof err) < 0);
	assert_non_null(strstr(err, "no-such-sheet.png"));
	/* the set: a user's sheet decoded at once, the same errors */
	struct font_tilesets t = { 0 };
	assert_int_equal(font_tilesets_add(&t, "README.md", true, err, sizeof err), -EINVAL);
	assert_int_equal(font_tilesets_add(&t, "README.md", false, err, sizeof err), -EINVAL);
	assert_int_equal(t.n, 0);
	assert_int_equal(font_tilesets_add(&t, "tiles/dcss-24.png", false, err, sizeof err), 0);
	assert_int_equal(t.n, 1);
	assert_null(t.s[0].font); /* only its header read */
	assert_null(font_tilesets_get(&t, 16, 16));
	const struct font *s24 = font_tilesets_get(&t, 24, 24);
	assert_non_null(s24);
	assert_int_equal(s24->cell_w, 24);
	font_tilesets_clear(&t);
	assert_int_equal(t.n, 0);
}

/* Tiles that are not square: their size is in the sheet's name (-WxH.png);
 * without it, or with a size the image does not hold, refused in one line
 * that says so. */
static void test_named_size(void **st)
{
	(void)st;
	char err[512];
	struct font *f;
	uint8_t *px = calloc(128 * 27, 4);
	assert_non_null(px);
	/* tile 1 (column 1, row 0) opaque in its last row: row 8 of 8x9 tiles */
	for (int x = 8; x < 16; x++)
		px[4 * (8 * 128 + x) + 3] = 255;
	assert_int_equal(load_png_as(&f, 128, 27, px, "dir-1x1/my-8x9.png", err, sizeof err), 0);
	assert_int_equal(f->cell_w, 8);
	assert_int_equal(f->cell_h, 9);
	assert_int_equal(f->nglyphs, 48); /* three rows */
	assert_true(font_tile_has(f, 1));
	assert_false(font_tile_has(f, 17)); /* as square 8x8 tiles it would be row 1 */
	assert_int_equal(font_coverage(f, 1)[8 * 8], 255);
	font_destroy(f);
	/* the same image, its name without the size: 27 rows are not square tiles */
	assert_int_equal(load_png_as(&f, 128, 27, px, "my.png", err, sizeof err), -EDOM);
	assert_null(f);
	assert_non_null(strstr(err, "my.png: image is 128×27 pixels, not a tile sheet"));
	assert_non_null(strstr(err, "need their size in the file name"));
	/* a name whose size the image does not hold */
	assert_int_equal(load_png_as(&f, 128, 27, px, "my-8x10.png", err, sizeof err), -EDOM);
	assert_non_null(strstr(err, "my-8x10.png: image is 128×27 pixels, not a sheet of the 8×10 tiles its name says"));
	assert_int_equal(load_png_as(&f, 128, 27, px, "my-9x9.png", err, sizeof err), -EDOM);
	assert_non_null(strstr(err, "not a sheet of the 9×9 tiles"));
	/* not a size: a name like any other (square tiles: 27 rows refused) */
	assert_int_equal(load_png_as(&f, 128, 27, px, "my-+8x9.png", err, sizeof err), -EDOM);
	assert_non_null(strstr(err, "not a tile sheet (16 columns of square"));
	assert_int_equal(load_png_as(&f, 128, 27, px, "my-8x9-old.png", err, sizeof err), -EDOM);
	assert_int_equal(load_png_as(&f, 128, 27, px, "my-8x9.png.bak", err, sizeof err), -EDOM);
	free(px);
	/* the set reads the size from the header and the name, and gives the
	 * sheet for those cells only */
	struct font_tilesets t = { 0 };
	assert_int_equal(font_tilesets_add(&t, "tiles/dcss-8x9.png", false, err, sizeof err), 0);
	assert_int_equal(t.s[0].w, 8);
	assert_int_equal(t.s[0].h, 9);
	assert_null(font_tilesets_get(&t, 8, 8));
	assert_null(font_tilesets_get(&t, 9, 8));
	const struct font *s89 = font_tilesets_get(&t, 8, 9);
	assert_non_null(s89);
	assert_int_equal(s89->cell_h, 9);
	font_tilesets_clear(&t);
}

/* Layers are laid over each other by straight-alpha src-over in integers;
 * dim darkens; halves are the picture's left and right halves. */
static void test_compose(void **st)
{
	(void)st;
	/* 16 tiles of 4×4: tile 1 opaque red, tile 2 half-transparent blue,
	 * tile 3 transparent but one pixel */
	uint8_t px[64 * 4 * 4] = { 0 };
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 4; x++) {
			uint8_t *p1 = px + 4 * (y * 64 + 4 + x), *p2 = px + 4 * (y * 64 + 8 + x);
			p1[0] = 255, p1[3] = 255;
			p2[2] = 255, p2[3] = 128;
		}
	uint8_t *p3 = px + 4 * (0 * 64 + 12 + 3);
	p3[1] = 200, p3[3] = 255;
	char err[256];
	struct font *sheet, *slots;
	assert_int_equal(load_png(&sheet, 64, 4, px, err, sizeof err), 0);
	assert_true(font_tile_has(sheet, 3));
	assert_false(font_tile_has(sheet, 4));
	assert_int_equal(font_tiles_slots(&slots, sheet, 4, true), 0);
	assert_int_equal(slots->cell_w, 2);
	assert_int_equal(slots->nglyphs, 8);
	font_tiles_compose(slots, 1, sheet, (const int[]){ 1, 2, 3 }, 3, false);
	/* (255 * 32385 + 32512) / 65025 = 127, (255 * 32640 + 32512) / 65025 = 128 */
	assert_int_equal(slots->colour[2 * 2 * 4 + 0], 0xFF7F0080u); /* slot 1's left half, pixel (0, 0) */
	assert_int_equal(slots->coverage[2 * 2 * 4 + 0], 255);
	assert_int_equal(slots->colour[3 * 2 * 4 + 1], 0xFF00C800u); /* its right half: tile 3's pixel on top */
	font_tiles_compose(slots, 2, sheet, (const int[]){ 0, 2, 0 }, 3, true);
	assert_int_equal(slots->colour[4 * 2 * 4 + 0], 0x80000000u | 255 * 52 / 100); /* alone: its own colour, dimmed; alpha kept */
	font_destroy(slots);
	assert_int_equal(font_tiles_slots(&slots, sheet, 2, false), 0);
	assert_int_equal(slots->cell_w, 4);
	font_tiles_compose(slots, 0, sheet, (const int[]){ 1 }, 1, false);
	assert_int_equal(slots->colour[0], 0xFFFF0000u);
	font_destroy(slots);
	font_destroy(sheet);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped),
		cmocka_unit_test(test_player_corpse),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_named_size),
		cmocka_unit_test(test_compose),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
