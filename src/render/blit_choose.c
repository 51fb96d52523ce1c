/* blit_choose: the automatic choice of font and scale for a surface (blit_fit_scale, blit_choose, blit_choose_cands in blit.h): policy, not pixels. */
#include "render/blit.h"
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int blit_fit_scale(const struct font *f, const struct surface *s, int cols, int rows)
{
	bool turned = s->rotation == 90 || s->rotation == 270;
	int lw = turned ? s->height : s->width, lh = turned ? s->width : s->height;
	for (int scale = 8; scale > 1; scale--)
		if (lw / (f->cell_w * scale) >= cols && lh / (f->cell_h * scale) >= rows)
			return scale;
	return 1;
}

/* The choice of blit_choose over n candidates whose cell sizes cell(ctx, i)
 * gives; apart(ctx, i) says whether candidate i's lines keep a gap (1 or 0,
 * or a negative errno, which is returned) and is asked only when no
 * candidate shows cols × rows: in order of the cells shown (most first,
 * then the earlier), until one says 1. */
static int choose(void *ctx, int n, void (*cell)(void *ctx, int i, int *w, int *h), int (*apart)(void *ctx, int i),
		  const struct surface *s, int cols, int rows, int min_cols, int min_rows, int fixed_scale, int *scale)
{
	bool turned = s->rotation == 90 || s->rotation == 270;
	long lw = turned ? s->height : s->width, lh = turned ? s->width : s->height;
	int best = -1, best_scale = 1, most = -1;
	long best_area = -1, most_cells = -1;
	int lo = fixed_scale >= 1 && fixed_scale <= 8 ? fixed_scale : 1;
	int hi = fixed_scale >= 1 && fixed_scale <= 8 ? fixed_scale : 8;
	for (int i = 0; i < n; i++) {
		int w, h;
		cell(ctx, i, &w, &h);
		for (int sc = hi; sc >= lo; sc--) {
			long cw = (long)w * sc, ch = (long)h * sc;
			if (lw / cw >= cols && lh / ch >= rows) {
				long area = cols * cw * rows * ch;
				if (area > best_area || (area == best_area && sc < best_scale)) {
					best = i;
					best_scale = sc;
					best_area = area;
				}
				break; /* the largest scale that fits */
			}
		}
		long fc = lw / ((long)w * lo), fr = lh / ((long)h * lo);
		if (fc * fr > most_cells) {
			most = i;
			most_cells = fc * fr;
		}
	}
	*scale = lo;
	if (best >= 0) {
		*scale = best_scale;
		return best;
	}
	/* a small panel: the fonts that show min_cols × min_rows, by the cells
	 * they show; the first whose lines keep a gap */
	long prev_cells = LONG_MAX;
	int prev = -1;
	for (;;) {
		int next = -1;
		long next_cells = -1;
		for (int i = 0; i < n; i++) {
			int w, h;
			cell(ctx, i, &w, &h);
			long fc = lw / ((long)w * lo), fr = lh / ((long)h * lo), cells = fc * fr;
			bool after = cells < prev_cells || (cells == prev_cells && i > prev);
			if (fc >= min_cols && fr >= min_rows && after && cells > next_cells) {
				next = i;
				next_cells = cells;
			}
		}
		if (next < 0)
			return most < 0 ? 0 : most;
		int a = apart(ctx, next);
		if (a != 0)
			return a > 0 ? next : a;
		prev = next;
		prev_cells = next_cells;
	}
}

static void font_cell(void *ctx, int i, int *w, int *h)
{
	const struct font *f = ((const struct font *const *)ctx)[i];
	*w = f->cell_w;
	*h = f->cell_h;
}

static int font_apart(void *ctx, int i)
{
	return font_lines_apart(((const struct font *const *)ctx)[i]);
}

int blit_choose(const struct font *const *fonts, int n, const struct surface *s, int cols, int rows, int min_cols,
		int min_rows, int fixed_scale, int *scale)
{
	return choose((void *)(uintptr_t)fonts, n, font_cell, font_apart, s, cols, rows, min_cols, min_rows,
		      fixed_scale, scale);
}

struct cands_ctx {
	struct font_cands *c;
	char *err;
	size_t errlen;
};

static void cand_cell(void *ctx, int i, int *w, int *h)
{
	const struct font_cand *k = &((struct cands_ctx *)ctx)->c->c[i];
	*w = k->cell_w;
	*h = k->cell_h;
}

static int cand_apart(void *ctx, int i)
{
	struct cands_ctx *x = ctx;
	const struct font *f;
	int rc = font_cands_get(x->c, i, &f, x->err, x->errlen);
	return rc ? rc : font_lines_apart(f);
}

int blit_choose_cands(struct font_cands *c, const struct surface *s, int cols, int rows, int min_cols, int min_rows,
		      int fixed_scale, const struct font **font, int *scale, char *err, size_t errlen)
{
	struct cands_ctx x = { c, err, errlen };
	int i = choose(&x, c->n, cand_cell, cand_apart, s, cols, rows, min_cols, min_rows, fixed_scale, scale);
	return i < 0 ? i : font_cands_get(c, i, font, err, errlen);
}
