/* bench_blit: full-frame and one-cell blit times against a memcpy of a frame of the same format timed beside each draw (medians, one process), with the instructions a pixel of a full draw (callgrind). */
#include "bench.h"
#include "benchrun.h"
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

static uint8_t *mc_src, *mc_dst; /* a frame's memcpy, timed beside each draw */

/* One case: a full redraw of the 240x67-cell console at 1920x1080. */
struct bcase {
	const char *label;
	int font;     /* 0: the 1-bit 8x16 font, 1: greyscale (anti-aliased), 2: colour tileset, 3: the 1080p look
		       * with tiles (12x24 text, 24x24 map cells in pictures: tiles/dcss-24.png) */
	int scale, rot;
	enum surf_format fmt;
	double target; /* most median time per median memcpy of a frame of the same format; 0: none */
};

/* Times full draws and one-cell draws of c on a FW×FH surface, each full
 * draw beside a memcpy of a frame of the same format (the baseline, same
 * run, same load): the verdict is on the median of the REPS ratios' parts
 * (median draw / median memcpy). ir_px: the case's instructions per pixel
 * of a full draw (callgrind, this run), or < 0. */
/* The 1080p look with tiles (case font 3): its fonts, sheet and console. */
static struct font *hd_text, *hd_map, *hd_tiles;
static struct console *hd_con;

/* A blitter for case k with font f (the 1080p look's map and tiles for font 3). */
static struct blitter *make_blitter(const struct bcase *k, struct font *f)
{
	struct blitter *b;
	if (blit_create(&b, f, k->scale) ||
	    (k->font == 3 && (blit_set_map(b, hd_map) || blit_set_tiles(b, hd_tiles)))) {
		printf("%s: blit_create failed\n", k->label);
		exit(1);
	}
	return b;
}

/* The 1080p look: 160x45 text cells of 12x24, the top 38 rows the map (80
 * map cells a row: floor and wall variants, a thing on one cell in 7, the
 * fireball's area over some), the rest text. */
static void load_hd(void)
{
	char err[256];
	if (font_load(&hd_text, "fonts/dejavu-text-12x24.png", err, sizeof err) ||
	    font_load(&hd_map, "fonts/dejavu-24x24.png", err, sizeof err) ||
	    font_load_tiles(&hd_tiles, "tiles/dcss-24.png", err, sizeof err) || con_create(&hd_con, 160, 45)) {
		fprintf(stderr, "bench_blit: %s (run from the repository root)\n", err);
		exit(1);
	}
	struct rng r;
	rng_seed(&r, 17);
	for (int y = 0; y < 45; y++)
		for (int x = 0; x < 160; x += 2) {
			if (y >= 38) {
				con_put(hd_con, x, y, 'a' + (uint32_t)(x + y) % 26, 0xE0E0E0, 0);
				con_put(hd_con, x + 1, y, 'A' + (uint32_t)(x * y) % 26, 0xE0E0E0, 0);
				continue;
			}
			int v = rng_range(&r, 0, 3), wall = rng_range(&r, 0, 3) == 0, thing = rng_range(&r, 0, 6) == 0;
			struct con_cell c = { wall ? '#' : '.', 0xB4A878, 0x201C14,
					      CON_TILE((wall ? 25 : 21) + v, !wall && thing ? rng_range(&r, 5, 18) : 0),
					      (uint16_t)(CON_MAP | CON_WIDE | (y > 30 ? CON_DIM : 0) |
							 (y > 10 && y < 16 && x > 40 && x < 60 ? CON_OVER(1) : 0)) };
			con_cell_set(hd_con, x, y, c);
			c.flags = (uint16_t)((c.flags & ~CON_WIDE) | CON_TAIL);
			con_cell_set(hd_con, x + 1, y, c);
		}
}

static void run(const struct bcase *k, struct font *f, struct console *c, double ir_px)
{
	struct blitter *b = make_blitter(k, f);
	struct surface s = { 0 };
	s.width = FW;
	s.height = FH;
	s.format = k->fmt;
	s.rotation = k->rot;
	s.stride = FW * surf_bpp(k->fmt);
	size_t bytes = (size_t)s.stride * FH;
	s.pixels = aligned_alloc(64, bytes); /* as a display's buffer is (DRM's are page-aligned) */
	uint8_t *damage = calloc((size_t)c->w * (size_t)c->h, 1);
	if (!s.pixels || !damage)
		exit(1);
	memset(s.pixels, 0, bytes);
	double t[REPS], tm[REPS], t1[REPS];
	blit_draw(b, c, &s, NULL); /* warm up */
	memcpy(mc_dst, mc_src, bytes);
	for (int i = 0; i < REPS; i++) {
		double t0 = bench_now();
		blit_draw(b, c, &s, NULL);
		double t1_ = bench_now();
		memcpy(mc_dst, mc_src, bytes);
		__asm__ volatile("" : : "r"(mc_dst) : "memory");
		t[i] = t1_ - t0;
		tm[i] = bench_now() - t1_;
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
	struct bench_stat full = bench_summarise(t, REPS), mc = bench_summarise(tm, REPS), one = bench_summarise(t1, REPS);
	double ratio = full.median / mc.median;
	printf("%-38s full median %7.3f ms (best %7.3f), memcpy median %6.3f ms: ratio %5.2f", k->label,
	       full.median * 1e3, full.best * 1e3, mc.median * 1e3, ratio);
	if (ir_px >= 0)
		printf("; %.2f instructions a pixel", ir_px);
	printf("; one cell %6.2f us = %5.3f%% of full\n", one.best * 1e6, 100.0 * one.best / full.best);
	if (k->target > 0)
		printf("  target: full <= %.1f x memcpy: %s (the median ratio %.3f of %d draws beside %d memcpys, this "
		       "run); one cell <= 1%% of full: %s (%.3f%%, the best one-cell draw of %d over the best full draw, "
		       "this run)\n", k->target, bench_met(ratio <= k->target), ratio, REPS, REPS,
		       bench_met(one.best / full.best <= 0.01), 100.0 * one.best / full.best, REPS);
	free(damage);
	free(s.pixels);
	blit_destroy(b);
}

static const struct bcase cases[] = {
	{ "blit 8x16 xrgb8888 scale 1 rot 0", 0, 1, 0, SURF_XRGB8888, 1.5 },
	{ "same, baseline code (no AVX2)", 0, 1, 0, SURF_XRGB8888, 0 },
	{ "blit 8x16 rgb565   scale 1 rot 0", 0, 1, 0, SURF_RGB565, 0 },
	{ "blit 8x16 xrgb8888 scale 1 rot 90", 0, 1, 90, SURF_XRGB8888, 0 },
	{ "blit 8x16 xrgb8888 scale 1 rot 180", 0, 1, 180, SURF_XRGB8888, 0 },
	{ "blit 8x16 xrgb8888 scale 2 rot 0", 0, 2, 0, SURF_XRGB8888, 0 },
	{ "blit 8x16 xrgb8888 scale 2 rot 270", 0, 2, 270, SURF_XRGB8888, 0 },
	/* issue 22: anti-aliased (greyscale) <= 1.2 x memcpy, colour <= 1.6 x */
	{ "greyscale font xrgb8888 scale 1 rot 0", 1, 1, 0, SURF_XRGB8888, 1.2 },
	{ "colour tileset xrgb8888 scale 1 rot 0", 2, 1, 0, SURF_XRGB8888, 1.6 },
	{ "1-bit font rgb565       scale 1 rot 0", 0, 1, 0, SURF_RGB565, 0 },
	/* RGB565 (against a memcpy of a frame half the size): issue 9's targets */
	{ "greyscale font rgb565   scale 1 rot 0", 1, 1, 0, SURF_RGB565, 1.5 },
	{ "colour tileset rgb565   scale 1 rot 0", 2, 1, 0, SURF_RGB565, 2.0 },
	{ "greyscale font xrgb8888 scale 2 rot 90", 1, 2, 90, SURF_XRGB8888, 0 },
	/* issue 17: a full 1080p redraw with tiles <= 2 x memcpy */
	{ "1080p look, map in tiles xrgb8888", 3, 1, 0, SURF_XRGB8888, 2.0 },
};
#define NCASES (int)(sizeof cases / sizeof cases[0])

/* The instructions of one full draw of case i, alone (collection toggled
 * on around it: run under a callgrind started with collection off). */
static void draw_collected(const struct bcase *k, struct font *f, struct console *c)
{
	struct blitter *b;
	struct surface s = { .width = FW, .height = FH, .format = k->fmt, .rotation = k->rot };
	s.stride = FW * surf_bpp(k->fmt);
	s.pixels = calloc((size_t)FH, (size_t)s.stride);
	if (!s.pixels)
		exit(1);
	b = make_blitter(k, f);
	blit_draw(b, c, &s, NULL); /* its tables built: what every later frame costs */
	CALLGRIND_TOGGLE_COLLECT;
	blit_draw(b, c, &s, NULL);
	CALLGRIND_TOGGLE_COLLECT;
	blit_destroy(b);
	free(s.pixels);
}

/* Whether i is one of the comma-separated numbers of list. */
static int in_list(const char *list, int i)
{
	for (const char *p = list; *p;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p)
			return 0;
		if (v == i)
			return 1;
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

int main(int argc, char **argv)
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
	load_hd();
	struct font *fonts[4] = { f, &grey, &colour, hd_text };
#define CASE_CON(i) (cases[i].font == 3 ? hd_con : c)
	if (argc > 2 && !strcmp(argv[1], "--ir-case")) {
		int i = atoi(argv[2]);
		if (i < 0 || i >= NCASES)
			return 2;
		if (i == 1)
			setenv("PIROGUE_BLIT_BASELINE", "1", 1);
		draw_collected(&cases[i], fonts[cases[i].font], CASE_CON(i));
		return 0;
	}
	size_t frame = (size_t)FW * FH * 4;
	mc_src = malloc(frame);
	mc_dst = malloc(frame);
	if (!mc_src || !mc_dst)
		return 1;
	for (size_t i = 0; i < frame; i++)
		mc_src[i] = (uint8_t)(i * 31);
	memset(mc_dst, 0, frame);
	if (bench_ir_mode(argc, argv)) {
		/* instructions per pixel: calls = pixels (bench/ir.sh divides) */
		for (int i = 0; i < NCASES; i++) {
			const struct bcase *k = &cases[i];
			if (i == 1)
				setenv("PIROGUE_BLIT_BASELINE", "1", 1);
			struct blitter *b;
			struct surface s = { .width = FW, .height = FH, .format = k->fmt, .rotation = k->rot };
			s.stride = FW * surf_bpp(k->fmt);
			s.pixels = calloc((size_t)FH, (size_t)s.stride);
			if (!s.pixels)
				return 1;
			b = make_blitter(k, fonts[k->font]);
			blit_draw(b, CASE_CON(i), &s, NULL);
			bench_ir_start();
			blit_draw(b, CASE_CON(i), &s, NULL);
			bench_ir_stop(k->label, "blit, a pixel", (long)FW * FH, 0);
			bench_ir_start();
			memcpy(mc_dst, mc_src, (size_t)s.stride * FH);
			__asm__ volatile("" : : "r"(mc_dst) : "memory");
			bench_ir_stop(k->label, "memcpy of the frame, a pixel", (long)FW * FH, 0);
			blit_destroy(b);
			free(s.pixels);
			unsetenv("PIROGUE_BLIT_BASELINE");
		}
		return 0;
	}
	/* --only N,M,...: just those cases (by their index in cases[]) */
	const char *only = argc > 2 && !strcmp(argv[1], "--only") ? argv[2] : NULL;
	char self[PATH_MAX];
	int have_self = bench_self(self, sizeof self) == 0;
	printf("frame 1920x1080 (XRGB8888 %zu bytes), font %s, 240x67 cells; %d full draws, each beside a memcpy of "
	       "a frame of its format (medians); instructions a pixel: callgrind of one full draw, this run\n",
	       frame, path, REPS);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
		printf("(this CPU has AVX-512, which valgrind lacks: the times below are of the AVX-512 blend code, the "
		       "instructions a pixel of the AVX2 code)\n");
#endif
	for (int i = 0; i < NCASES; i++) {
		if (only && !in_list(only, i))
			continue;
		char arg[16];
		snprintf(arg, sizeof arg, "%d", i);
		const char *av[] = { self, "--ir-case", arg, NULL };
		long ir = have_self ? bench_ir_exec(av, 0, NULL, "--collect-atstart=no") : -1;
		if (i == 7)
			printf("tilesets (issue 22, XRGB8888 at 1080p: greyscale (anti-aliased) <= 1.2 x memcpy, colour <= "
			       "1.6 x; RGB565: issue 9's 1.5 x and 2 x)\n");
		if (i == 1)
			setenv("PIROGUE_BLIT_BASELINE", "1", 1);
		if (cases[i].font == 3)
			printf("the 1080p look with the map in pictures (issue 17: a full redraw <= 2 x memcpy; "
			       "160x45 cells, 38 rows of map)\n");
		run(&cases[i], fonts[cases[i].font], CASE_CON(i), ir < 0 ? -1.0 : (double)ir / ((double)FW * FH));
		unsetenv("PIROGUE_BLIT_BASELINE");
	}
	free(mc_src);
	free(mc_dst);
	free(colour.colour);
	free(grey.coverage);
	con_destroy(c);
	font_destroy(f);
	con_destroy(hd_con);
	font_destroy(hd_text);
	font_destroy(hd_map);
	font_destroy(hd_tiles);
	return 0;
}
