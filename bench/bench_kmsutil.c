/* bench_kmsutil: a double-buffered DRM frame as the drm backend draws it (stale-map bookkeeping + damaged-cell blit) against a full redraw, measured in the same run. */
#include "bench.h"
#include "core/rng.h"
#include "platform/kmsutil.h"
#include "render/blit.h"
#include "render/console.h"
#include "render/font.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FW 1920
#define FH 1080
#define REPS 61
#define CHANGED 40 /* cells changed per frame: a typical turn (player, monsters, log line) */

int main(void)
{
	char err[256];
	struct font *f;
	if (font_load(&f, "fonts/cp437-8x16.png", err, sizeof err)) {
		fprintf(stderr, "bench_kmsutil: %s (run from the repository root)\n", err);
		return 1;
	}
	struct blitter *b;
	struct console *c;
	if (blit_create(&b, f, 1) || con_create(&c, FW / 8, FH / 16))
		return 1;
	struct surface s[2];
	for (int i = 0; i < 2; i++) {
		s[i] = (struct surface){ malloc((size_t)FW * 4 * FH), FW, FH, FW * 4, SURF_XRGB8888, 0 };
		if (!s[i].pixels)
			return 1;
		blit_clear(&s[i], 0);
	}
	struct rng r;
	rng_seed(&r, 3);
	for (int y = 0; y < c->h; y++)
		for (int x = 0; x < c->w; x++)
			con_put(c, x, y, cp437_to_unicode[(x * 7 + y * 13) & 255], rng_next(&r) & 0xFFFFFF, 0);
	struct kms_stale ks = { 0 };
	if (kms_stale_resize(&ks, c->w, c->h))
		return 1;
	double tfull[REPS], tbook[REPS], tframe[REPS];
	int front = 0;
	for (int i = 0; i < REPS; i++) {
		for (int k = 0; k < CHANGED; k++)
			con_put(c, rng_range(&r, 0, c->w - 1), rng_range(&r, 0, c->h - 1), '@' + (i & 7), rng_next(&r) & 0xFFFFFF, 0);
		int back = 1 - front;
		double t0 = bench_now();
		kms_stale_add(&ks, c->damage, c->row_damage);
		int any = kms_stale_any(&ks, back);
		double t1 = bench_now();
		if (any)
			blit_draw_rows(b, c, &s[back], ks.map[back], ks.rows[back]);
		double t2 = bench_now();
		kms_stale_clear(&ks, back);
		double t3 = bench_now();
		tbook[i] = (t1 - t0) + (t3 - t2);
		tframe[i] = t3 - t0;
		con_clear_damage(c);
		front = back;
		t0 = bench_now();
		blit_draw(b, c, &s[front], NULL);
		tfull[i] = bench_now() - t0;
	}
	double full = bench_summarise(tfull, REPS).best, book = bench_summarise(tbook, REPS).best,
	       frame = bench_summarise(tframe, REPS).best;
	printf("1920x1080 XRGB8888, 240x67 cells of 8x16, %d changed cells per frame, best of %d\n", CHANGED, REPS);
	printf("full redraw (baseline)                 %8.3f ms  ratio 1.000\n", full * 1e3);
	printf("double-buffered frame (union damage)   %8.3f ms  ratio %.4f\n", frame * 1e3, frame / full);
	printf("  of which stale-map bookkeeping       %8.3f ms  ratio %.4f\n", book * 1e3, book / full);
	printf("  target: bookkeeping <= 2%% of a full redraw: %s (ratio %.4f above); frame <= 15%%: %s (ratio %.4f above; "
	       "bests of %d, this run)\n", bench_met(book / full <= 0.02), book / full, bench_met(frame / full <= 0.15),
	       frame / full, REPS);
	kms_stale_free(&ks);
	free(s[0].pixels);
	free(s[1].pixels);
	con_destroy(c);
	blit_destroy(b);
	font_destroy(f);
	return 0;
}
