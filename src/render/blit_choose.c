/* blit_choose: the automatic choice of font and scale for a surface (blit_fit_scale, blit_choose, blit_choose_cands, blit_choose_look in blit.h): policy, not pixels. */
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

/* Whether a w×h cell has a monospace font's proportions (0.45..0.65). */
static bool text_shaped(int w, int h)
{
	return (long)w * 100 >= 45L * h && (long)w * 100 <= 65L * h;
}

/* Whether text cell i at scale sc (the pair's map sheet m) shows a console
 * the screens take on lw×lh, leaving at most 3% of each side unused; its
 * cell height in *ch. */
static bool look_fits(const int (*cells)[3], int i, int sc, int lw, int lh, long *ch)
{
	long cw = (long)cells[i][0] * sc;
	*ch = (long)cells[i][1] * sc;
	long cols = lw / cw, rows = lh / *ch;
	long mw = lw - cols * cw, mh = lh - rows * *ch;
	return cols >= 40 && rows >= 24 && mw * 100 <= 3L * lw && mh * 100 <= 3L * lh;
}

/* The square map sheet among cells exactly twice as wide as text font i,
 * or -1. */
static int look_map(const int (*cells)[3], int n, int i)
{
	for (int j = 0; j < n; j++)
		if (cells[j][0] == 2 * cells[i][0] && cells[j][1] == cells[i][1])
			return j;
	return -1;
}

int blit_look_pick(const int (*cells)[3], int n, int lw, int lh, int fixed_scale, int step, int *text, int *map,
		   int *scale)
{
	int lo = fixed_scale >= 1 && fixed_scale <= 8 ? fixed_scale : 1;
	int hi = fixed_scale >= 1 && fixed_scale <= 8 ? fixed_scale : 8;
	/* tiers, best first: readable from a sofa (the cell at least 1/45 of
	 * a height of 720 rows or more: the smallest such), then a full
	 * 80×30 console (the largest cells), then the least console the
	 * screens take (the largest cells) */
	int best = -1, best_map = -1, best_scale = 0;
	long best_h = 0;
	for (int tier = lh >= 720 ? 0 : 1; tier < 3 && best < 0; tier++) {
		for (int i = 0; i < n; i++) {
			if (!cells[i][2] || !text_shaped(cells[i][0], cells[i][1]))
				continue;
			int m = look_map(cells, n, i);
			if (m < 0)
				continue; /* no square map sheet to go with it */
			for (int sc = lo; sc <= hi; sc++) {
				long ch, cols = lw / ((long)cells[i][0] * sc), rows = lh / ((long)cells[i][1] * sc);
				if (!look_fits(cells, i, sc, lw, lh, &ch))
					continue;
				if (tier == 0 && ch * 45 < lh)
					continue;
				if (tier == 1 && (cols < 80 || rows < 30))
					continue;
				bool better = best < 0 || (tier == 0 ? ch < best_h : ch > best_h) ||
					      (ch == best_h && sc < best_scale);
				if (better) {
					best = i;
					best_map = m;
					best_scale = sc;
					best_h = ch;
				}
			}
		}
	}
	if (best < 0)
		return -1;
	/* one step larger (smaller): of every pair that fits, the next cell
	 * height above (below) the automatic one; none: the automatic one */
	if (step) {
		int pick = -1, pick_map = -1, pick_scale = 0;
		long pick_h = 0;
		for (int i = 0; i < n; i++) {
			int m = cells[i][2] && text_shaped(cells[i][0], cells[i][1]) ? look_map(cells, n, i) : -1;
			for (int sc = lo; m >= 0 && sc <= hi; sc++) {
				long ch;
				if (!look_fits(cells, i, sc, lw, lh, &ch) || (step > 0 ? ch <= best_h : ch >= best_h))
					continue;
				if (pick < 0 || (step > 0 ? ch < pick_h : ch > pick_h) || (ch == pick_h && sc < pick_scale)) {
					pick = i;
					pick_map = m;
					pick_scale = sc;
					pick_h = ch;
				}
			}
		}
		if (pick >= 0) {
			best = pick;
			best_map = pick_map;
			best_scale = pick_scale;
		}
	}
	*text = best;
	*map = best_map;
	*scale = best_scale;
	return 0;
}

int blit_choose_look(struct font_cands *c, const struct surface *s, int fixed_scale, int step, const struct font **font,
		     const struct font **map, int *scale, char *err, size_t errlen)
{
	int m;
	int rc = blit_choose_look_later(c, s, fixed_scale, step, font, &m, scale, err, errlen);
	*map = NULL;
	if (!rc && m >= 0)
		rc = font_cands_get(c, m, map, err, errlen);
	return rc;
}

int blit_choose_look_later(struct font_cands *c, const struct surface *s, int fixed_scale, int step,
			   const struct font **font, int *map_i, int *scale, char *err, size_t errlen)
{
	bool turned = s->rotation == 90 || s->rotation == 270;
	int lw = turned ? s->height : s->width, lh = turned ? s->width : s->height;
	int cells[FONT_CANDS_MAX][3];
	for (int i = 0; i < c->n && i < FONT_CANDS_MAX; i++) {
		cells[i][0] = c->c[i].cell_w;
		cells[i][1] = c->c[i].cell_h;
		cells[i][2] = c->c[i].text;
	}
	int t, m;
	*map_i = -1;
	if (blit_look_pick(cells, c->n < FONT_CANDS_MAX ? c->n : FONT_CANDS_MAX, lw, lh, fixed_scale, step, &t, &m,
			   scale) == 0) {
		int rc = font_cands_get(c, t, font, err, errlen);
		if (!rc)
			*map_i = m;
		return rc;
	}
	return blit_choose_cands(c, s, 80, 50, 40, 24, fixed_scale, font, scale, err, errlen);
}
