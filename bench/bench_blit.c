/* bench_blit: full-frame and one-cell blit times against a memcpy of the same frame, measured in the same run. */
#include "bench.h"
#include "core/rng.h"
#include "render/blit.h"
#include "render/console.h"
#include "render/font.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FW 1920
#define FH 1080
#define REPS 41

/* Times full draws and one-cell draws of c on a FW×FH surface. */
static void run(const char *label, struct font *f, int scale, enum surf_format fmt, int rot, double memcpy_best,
		struct console *c, double verdict)
{
	struct blitter *b;
	if (blit_create(&b, f, scale)) {
		printf("%s: blit_create failed\n", label);
		exit(1);
	}
	struct surface s = { 0 };
	s.width = FW;
	s.height = FH;
	s.format = fmt;
	s.rotation = rot;
	s.stride = FW * surf_bpp(fmt);
	s.pixels = malloc((size_t)s.stride * FH);
	uint8_t *damage = calloc((size_t)c->w * (size_t)c->h, 1);
	if (!s.pixels || !damage)
		exit(1);
	memset(s.pixels, 0, (size_t)s.stride * FH);
	double t[REPS], t1[REPS];
	blit_draw(b, c, &s, NULL); /* warm up */
	for (int i = 0; i < REPS; i++) {
		double t0 = bench_now();
		blit_draw(b, c, &s, NULL);
		t[i] = bench_now() - t0;
	}
	/* one changed cell, a different one each time */
	struct rng r;
	rng_seed(&r, 7);
	for (int i = 0; i < REPS; i++) {
		int x = rng_range(&r, 0, c->w - 1), y = rng_range(&r, 0, c->h - 1);
		size_t ci = (size_t)y * (size_t)c->w + (size_t)x;
		con_put(c, x, y, c->cells[ci].ch == 'A' ? 'B' : 'A', c->cells[ci].fg, c->cells[ci].bg);
		damage[ci] = 1;
		double t0 = bench_now();
		blit_draw(b, c, &s, damage);
		t1[i] = bench_now() - t0;
		damage[ci] = 0;
	}
	struct bench_stat full = bench_summarise(t, REPS), one = bench_summarise(t1, REPS);
	printf("%-34s full %7.3f ms (median %7.3f)  ratio vs memcpy %5.2f", label, full.best * 1e3,
	       full.median * 1e3, full.best / memcpy_best);
	printf("  one cell %6.2f us = %5.3f%% of full\n", one.best * 1e6, 100.0 * one.best / full.best);
	if (verdict > 0) {
		printf("  target: full <= %.1f x memcpy: %s; one cell <= 1%% of full: %s\n", verdict,
		       bench_met(full.best / memcpy_best <= verdict), bench_met(one.best / full.best <= 0.01));
	}
	free(damage);
	free(s.pixels);
	blit_destroy(b);
}

/* The best and median time of a memcpy of n bytes. */
static struct bench_stat time_memcpy(size_t n)
{
	uint8_t *src = malloc(n), *dst = malloc(n);
	if (!src || !dst)
		exit(1);
	for (size_t i = 0; i < n; i++)
		src[i] = (uint8_t)(i * 31);
	memset(dst, 0, n);
	double t[REPS];
	memcpy(dst, src, n);
	for (int i = 0; i < REPS; i++) {
		double t0 = bench_now();
		memcpy(dst, src, n);
		t[i] = bench_now() - t0;
		__asm__ volatile("" : : "r"(dst) : "memory");
	}
	free(src);
	free(dst);
	return bench_summarise(t, REPS);
}

int main(void)
{
	struct rng r;
	rng_seed(&r, 42);
	const char *path = "fonts/cp437-8x16.png";
	char err[256];
	struct font *f;
	if (font_load(&f, path, err, sizeof err)) {
		fprintf(stderr, "bench_blit: %s (run from the repository root)\n", err);
		return 1;
	}
	if (f->cell_w != 8 || f->cell_h != 16) {
		fprintf(stderr, "bench_blit: %s is %dx%d, not 8x16\n", path, f->cell_w, f->cell_h);
		return 1;
	}
	/* 240×67 cells of 8×16 on 1920×1080, every cell its own glyph and colours */
	struct console *c;
	if (con_create(&c, FW / 8, FH / 16))
		return 1;
	for (int y = 0; y < c->h; y++)
		for (int x = 0; x < c->w; x++)
			con_put(c, x, y, cp437_to_unicode[(x * 7 + y * 13) & 255], rng_next(&r) & 0xFFFFFF,
				rng_next(&r) & 0xFFFFFF);

	size_t frame = (size_t)FW * FH * 4;
	struct bench_stat mc = time_memcpy(frame), mc565 = time_memcpy(frame / 2);
	printf("frame 1920x1080 XRGB8888 (%zu bytes), font %s, 240x67 cells, %d reps, best (median)\n", frame, path, REPS);
	printf("%-34s      %7.3f ms (median %7.3f)\n", "memcpy of one frame", mc.best * 1e3, mc.median * 1e3);
	printf("%-34s      %7.3f ms (median %7.3f)\n", "memcpy of one RGB565 frame", mc565.best * 1e3,
	       mc565.median * 1e3);

	run("blit 8x16 xrgb8888 scale 1 rot 0", f, 1, SURF_XRGB8888, 0, mc.best, c, 1.5);
	setenv("PIROGUE_BLIT_BASELINE", "1", 1);
	run("same, baseline code (no AVX2)", f, 1, SURF_XRGB8888, 0, mc.best, c, 0);
	unsetenv("PIROGUE_BLIT_BASELINE");
	run("blit 8x16 rgb565   scale 1 rot 0", f, 1, SURF_RGB565, 0, mc.best, c, 0);
	run("blit 8x16 xrgb8888 scale 1 rot 90", f, 1, SURF_XRGB8888, 90, mc.best, c, 0);
	run("blit 8x16 xrgb8888 scale 1 rot 180", f, 1, SURF_XRGB8888, 180, mc.best, c, 0);
	run("blit 8x16 xrgb8888 scale 2 rot 0", f, 2, SURF_XRGB8888, 0, mc.best, c, 0);
	run("blit 8x16 xrgb8888 scale 2 rot 270", f, 2, SURF_XRGB8888, 270, mc.best, c, 0);

	/* the per-pixel paths: a full-colour tileset and a greyscale (blended)
	 * one, made from the same glyphs (a copy of the font with other pixels) */
	size_t npx = (size_t)f->nglyphs * 8 * 16;
	struct font colour = *f, grey = *f;
	colour.colour = malloc(npx * sizeof *colour.colour);
	grey.coverage = malloc(npx);
	if (!colour.colour || !grey.coverage)
		return 1;
	for (size_t i = 0; i < npx; i++) {
		uint32_t a = f->coverage[i] ? 255 : (i % 3 ? 0 : 128);
		colour.colour[i] = a << 24 | (uint32_t)(i * 2654435761u >> 8 & 0xFFFFFF);
		grey.coverage[i] = (uint8_t)(f->coverage[i] ? 255 - (i % 5) * 40 : 0);
	}
	printf("tilesets (issue 9: greyscale <= 1.5 x memcpy, colour <= 2 x; the 1-bit font's ratio is above;\n"
	       "RGB565 against the memcpy of an RGB565 frame)\n");
	run("greyscale font xrgb8888 scale 1 rot 0", &grey, 1, SURF_XRGB8888, 0, mc.best, c, 1.5);
	run("colour tileset xrgb8888 scale 1 rot 0", &colour, 1, SURF_XRGB8888, 0, mc.best, c, 2.0);
	run("1-bit font rgb565       scale 1 rot 0", f, 1, SURF_RGB565, 0, mc565.best, c, 0);
	run("greyscale font rgb565   scale 1 rot 0", &grey, 1, SURF_RGB565, 0, mc565.best, c, 1.5);
	run("colour tileset rgb565   scale 1 rot 0", &colour, 1, SURF_RGB565, 0, mc565.best, c, 2.0);
	run("greyscale font xrgb8888 scale 2 rot 90", &grey, 2, SURF_XRGB8888, 90, mc.best, c, 0);
	free(colour.colour);
	free(grey.coverage);
	con_destroy(c);
	font_destroy(f);
	return 0;
}
