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

/* Builds the direct index font_glyph() uses below U+10000 (font.h: every
 * page pointer valid, absent code points give the replacement). */
static inline int tf_index(struct font *f)
{
	f->pagemem = malloc(256 * 256 * sizeof *f->pagemem);
	if (!f->pagemem)
		return -1;
	for (int i = 0; i < 256 * 256; i++)
		f->pagemem[i] = (uint16_t)f->replacement;
	for (size_t i = 0; i < f->map_len; i++)
		if (f->map[i].cp < 0x10000)
			f->pagemem[f->map[i].cp] = (uint16_t)f->map[i].glyph;
	for (int p = 0; p < 256; p++)
		f->page[p] = f->pagemem + p * 256;
	return 0;
}

static inline void tf_free(struct font *f)
{
	if (!f)
		return;
	free(f->pagemem);
	free(f->coverage);
	free(f->colour);
	free(f->map);
	free(f);
}

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
	if (tf_index(f))
		goto fail;
	return f;
fail:
	tf_free(f);
	return NULL;
}

/* A cw×ch font of TF_RND_N glyphs of random 0/255 pixels (glyph 5 with
 * random intermediate coverage), code point i = glyph i, seeded. */
#define TF_RND_N 32
static inline struct font *tf_random(int cw, int ch, uint32_t seed)
{
	struct font *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	f->cell_w = cw;
	f->cell_h = ch;
	f->nglyphs = TF_RND_N;
	f->coverage = malloc((size_t)TF_RND_N * (size_t)(cw * ch));
	f->map = malloc(TF_RND_N * sizeof *f->map);
	if (!f->coverage || !f->map) {
		free(f->coverage);
		free(f->map);
		free(f);
		return NULL;
	}
	for (int i = 0; i < TF_RND_N; i++)
		f->map[i] = (struct font_map_entry){ (uint32_t)i, i };
	f->map_len = TF_RND_N;
	snprintf(f->name, sizeof f->name, "random-%dx%d", cw, ch);
	for (int i = 0; i < TF_RND_N * cw * ch; i++) {
		seed = seed * 1103515245u + 12345u;
		uint8_t v = (uint8_t)(seed >> 16);
		f->coverage[i] = i / (cw * ch) == 5 ? v : (v & 1) ? 255 : 0;
	}
	if (tf_index(f)) {
		tf_free(f);
		return NULL;
	}
	return f;
}

#endif
