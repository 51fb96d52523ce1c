/* bench_font: loading a font with a maximal PSF2 Unicode table (16 MiB) against reading the same bytes once, measured in the same run. */
#include "bench.h"
#include "render/font.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPS 7

/* Keeps the compiler from dropping the baseline's work. */
static volatile unsigned sink;

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int main(void)
{
	/* one 8×1 glyph; its table entry: 'A', bytes that are no UTF-8 up to
	 * the 16 MiB limit, then U+263A and the end marker (the case that was
	 * quadratic: every code point scanned to the separator) */
	size_t len = FONT_MAX_FILE;
	uint8_t *d = malloc(len);
	if (!d)
		return 1;
	memset(d, 0, 32);
	put32(d, 0x864AB572);
	put32(d + 8, 32);
	put32(d + 12, 1);
	put32(d + 16, 1);
	put32(d + 20, 1);
	put32(d + 24, 1);
	put32(d + 28, 8);
	d[32] = 0xA5;
	d[33] = 'A';
	memset(d + 34, 0x80, len - 34);
	memcpy(d + len - 4, "\xE2\x98\xBA\xFF", 4);

	double t[REPS], tb[REPS];
	char err[256];
	for (int i = 0; i < REPS; i++) {
		/* the baseline: one pass over the bytes looking for separators */
		double t0 = bench_now();
		unsigned n = 0;
		for (size_t k = 33; k < len; k++)
			n += d[k] >= 0xFE;
		sink = n;
		tb[i] = bench_now() - t0;
		struct font *f;
		t0 = bench_now();
		if (font_load_mem(&f, d, len, "maximal.psf", err, sizeof err)) {
			fprintf(stderr, "bench_font: %s\n", err);
			return 1;
		}
		t[i] = bench_now() - t0;
		font_destroy(f);
	}
	struct bench_stat load = bench_summarise(t, REPS), base = bench_summarise(tb, REPS);
	double ratio = load.best / base.best;
	printf("PSF2 with a 16 MiB Unicode table, %d reps, best (median)\n", REPS);
	printf("%-34s %8.3f ms (median %8.3f)\n", "one pass over the bytes", base.best * 1e3, base.median * 1e3);
	printf("%-34s %8.3f ms (median %8.3f)  ratio %6.1f\n", "font_load_mem", load.best * 1e3, load.median * 1e3,
	       ratio);
	printf("  target: load <= 100 x one pass (linear; it was quadratic, hours): %s (the ratio %.1f of the bests above, "
	       "this run)\n", bench_met(ratio <= 100), ratio);
	free(d);
	return 0;
}
