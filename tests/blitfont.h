/* blitfont: small in-memory test fonts (coverage and full colour, 10×12 cells) for the blitter and pixel backends' tests. */
#ifndef PIROGUE_TESTS_BLITFONT_H
#define PIROGUE_TESTS_BLITFONT_H
#include "render/font.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TF_W 10
#define TF_H 12
#define TF_N 8
#define TF_BLEND_CP 0x2591u /* the glyph with intermediate coverage */

/* Glyph art, '#' = 255. Index 7 (blended) is computed. */
static const char *const tf_art[TF_N - 1][TF_H] = {
	{ /* 0: replacement */
	  "##########", "##.......#", "#.#......#", "#..#.....#", "#...#....#", "#....#...#",
	  "#.....#..#", "#......#.#", "#.......##", "#........#", "#........#", "##########" },
	{ /* 1: space */
	  "..........", "..........", "..........", "..........", "..........", "..........",
	  "..........", "..........", "..........", "..........", "..........", ".........." },
	{ /* 2: F */
	  "..........", ".########.", ".##.......", ".##.......", ".##.......", ".######...",
	  ".##.......", ".##.......", ".##.......", ".##.......", "..........", ".........." },
	{ /* 3: R */
	  "..........", ".######...", ".##...##..", ".##...##..", ".##...##..", ".######...",
	  ".##.##....", ".##..##...", ".##...##..", ".##....##.", "..........", ".........." },
	{ /* 4: @ */
	  "..........", "...####...", "..#....#..", ".#..##..#.", ".#.#.#..#.", ".#.#.#..#.",
	  ".#..###.#.", ".#........", "..#.....#.", "...#####..", "..........", ".........." },
	{ /* 5: g */
	  "..........", "..........", "..........", "...####.#.", "..#....##.", "..#.....#.",
	  "..#....##.", "...####.#.", "........#.", "..#.....#.", "...#####..", ".........." },
	{ /* 6: full block */
	  "##########", "##########", "##########", "##########", "##########", "##########",
	  "##########", "##########", "##########", "##########", "##########", "##########" },
};

static const struct font_map_entry tf_map[] = {
	{ ' ', 1 }, { '@', 4 }, { 'F', 2 }, { 'R', 3 }, { 'g', 5 },
	{ 0x2588, 6 }, { TF_BLEND_CP, 7 }, { 0xFFFD, 0 },
};

/* A coverage font (colour == false) or a full-colour tileset with the same
 * shapes (alpha = coverage, RGB a gradient, the replacement glyph's inside
 * half transparent). Free with tf_free. */
static inline struct font *tf_make(int colour)
{
	struct font *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	f->cell_w = TF_W;
	f->cell_h = TF_H;
	f->nglyphs = TF_N;
	f->coverage = calloc(TF_N, TF_W * TF_H);
	f->map = malloc(sizeof tf_map);
	if (!f->coverage || !f->map)
		goto fail;
	memcpy(f->map, tf_map, sizeof tf_map);
	f->map_len = sizeof tf_map / sizeof tf_map[0];
	f->replacement = 0;
	snprintf(f->name, sizeof f->name, "%s", colour ? "test-colour" : "test-coverage");
	for (int g = 0; g < TF_N; g++)
		for (int y = 0; y < TF_H; y++)
			for (int x = 0; x < TF_W; x++)
				f->coverage[(g * TF_H + y) * TF_W + x] = (uint8_t)(g == 7 ? x * y * 255 / ((TF_W - 1) * (TF_H - 1))
								: tf_art[g][y][x] == '#' ? 255 : 0);
	if (colour) {
		f->colour = calloc(TF_N, TF_W * TF_H * sizeof *f->colour);
		if (!f->colour)
			goto fail;
		for (int g = 0; g < TF_N; g++)
			for (int y = 0; y < TF_H; y++)
				for (int x = 0; x < TF_W; x++) {
					int i = (g * TF_H + y) * TF_W + x;
					uint32_t a = f->coverage[i];
					if (g == 0 && !a)
						a = 96;
					f->colour[i] = a << 24 | (uint32_t)(40 + x * 20) << 16 |
						       (uint32_t)(30 + y * 18) << 8 | (uint32_t)(60 + g * 24);
				}
	}
	return f;
fail:
	free(f->coverage);
	free(f->map);
	free(f);
	return NULL;
}

#ifndef TF_HAVE_FONT_C
/* Until src/render/font.c lands on main: a lookup with font_glyph()'s
 * contract over the sorted map (weak, so the real one wins once linked). */
__attribute__((weak)) int font_glyph(const struct font *f, uint32_t cp)
{
	size_t lo = 0, hi = f->map_len;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->map[mid].cp == cp)
			return f->map[mid].glyph;
		if (f->map[mid].cp < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return f->replacement;
}
#endif

static inline void tf_free(struct font *f)
{
	if (!f)
		return;
	free(f->coverage);
	free(f->colour);
	free(f->map);
	free(f);
}

#endif
