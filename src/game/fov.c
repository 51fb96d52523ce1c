/* fov: symmetric shadowcasting (Albert Ford, 2021), with slopes as integer fractions.
 *
 * Each of the four quadrants is scanned row by row outwards from the origin.
 * A row is the set of cells at one depth (distance along the quadrant's
 * axis) between a start and an end slope. Floor cells are points at their
 * centres and are visible when their centre lies within the slopes
 * (is_symmetric, which makes the result symmetric); walls are lit when any
 * part of them is inside the row. Slopes are num/den fractions with den > 0.
 *
 * Diagonal gaps: two walls that touch only at a corner are joined by a
 * "bridge" (the segment between their centres), and no floor is seen across
 * a bridge (Ford's algorithm alone sees through such gaps). In a row this
 * shows in mirror-image ways, each checked against the row before:
 *  - wall at col, floor at col + 1, wall at (depth - 1, col + 1): every ray
 *    left in the beam past col crosses the bridge, so no floor in the rest
 *    of the row is visible and it casts nothing further;
 *  - floor at col, wall at col + 1, wall at (depth - 1, col): likewise every
 *    cell of the row up to col is behind the bridge (the beam cannot reach
 *    that floor otherwise), so that prefix shows no floor and casts nothing;
 *  - the same two cases with the first wall just outside the row's ends.
 * Walls are still lit by Ford's rule, so a room's corner (which lies behind
 * the bridge between its two neighbours) is drawn. The result is exactly
 * "Ford's floor visibility, minus the pairs whose centre-to-centre segment
 * crosses a bridge", which is symmetric; tests check it exhaustively.
 *
 * Speed: cells outside the radius circle can neither be seen nor change what
 * is seen inside it (anything they hide lies farther out), so each row is
 * clipped to the circle. */
#include "game/fov.h"
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct frac {
	int num, den;
};

/* Longest clipping table: radius beyond this is scanned unclipped. */
#define LIM_MAX 256
/* Largest radius handled with one 64-bit mask per row (2 * 30 + 1 bits). */
#define MASK_RADIUS 30

struct scan {
	const uint8_t *cells;
	unsigned inv;      /* 0: nonzero blocks sight; 1: zero blocks sight */
	uint8_t *visible;
	int w, h, ox, oy;
	int maxdepth;      /* last row scanned */
	const int *lim;    /* lim[depth]: largest |col| inside the circle; NULL = none */
	int r2;            /* radius * radius + radius, or -1 for unlimited */
	/* fov_update: visible floor as row masks (bit x - ox + mr of row
	 * y - oy + mr), or NULL; and the box of the rows scanned. */
	uint64_t *fmask;
	int mr;
	int fy;          /* mr - oy: the mask of row y is fmask[y + fy] */
	int fx;          /* mr - ox: the bit of column x is x + fx */
	bool track; /* keep the box below */
	int bx0, by0, bx1, by1;
};

/* Cell state. Outside the map counts as wall but is never revealed. */
enum { C_FLOOR = 0, C_WALL = 1, C_OUT = 2 };

static inline bool blocks(const struct scan *s, size_t i)
{
	return (s->cells[i] != 0) ^ s->inv;
}

/* The quadrant q's axes: x = ox + depth * XD(q) + col * XC(q), y likewise
 * (north, east, south, west). The scan is compiled once per quadrant with
 * these as constants. */
#define XD(q) ((q) == 1 ? 1 : (q) == 3 ? -1 : 0)
#define XC(q) ((q) == 0 || (q) == 2 ? 1 : 0)
#define YD(q) ((q) == 0 ? -1 : (q) == 2 ? 1 : 0)
#define YC(q) ((q) == 1 || (q) == 3 ? 1 : 0)

static inline int cell(const struct scan *s, int q, int depth, int col)
{
	int x = s->ox + depth * XD(q) + col * XC(q);
	int y = s->oy + depth * YD(q) + col * YC(q);
	if ((unsigned)x >= (unsigned)s->w || (unsigned)y >= (unsigned)s->h)
		return C_OUT;
	return blocks(s, (size_t)y * (size_t)s->w + (size_t)x) ? C_WALL : C_FLOOR;
}

/* floor(sqrt(v)) for v >= 0. */
static int isqrt(int v)
{
	unsigned r = 0, bit = 1u << 30, x = (unsigned)v;
	while (bit > x)
		bit >>= 2;
	for (; bit; bit >>= 2) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
	}
	return (int)r;
}

/* Longest row kept in a local array; rows are clipped to it (only reachable
 * with unlimited radius on maps over 500 cells a side). */
#define ROW_MAX 1024

static void scan_q0(struct scan *s, int depth, struct frac start, struct frac end);
static void scan_q1(struct scan *s, int depth, struct frac start, struct frac end);
static void scan_q2(struct scan *s, int depth, struct frac start, struct frac end);
static void scan_q3(struct scan *s, int depth, struct frac start, struct frac end);

static inline void scan_q(int q, struct scan *s, int depth, struct frac start, struct frac end)
{
	switch (q) {
	case 0: scan_q0(s, depth, start, end); break;
	case 1: scan_q1(s, depth, start, end); break;
	case 2: scan_q2(s, depth, start, end); break;
	default: scan_q3(s, depth, start, end); break;
	}
}

/* Scans one row of quadrant q and, recursively, the rows behind it. */
static inline __attribute__((always_inline)) void scan_row(const int q, struct scan *s, int depth, struct frac start,
							    struct frac end)
{
	if (depth > s->maxdepth)
		return;
	/* round_ties_up(depth * start) .. round_ties_down(depth * end) */
	/* (one unsigned division each: the numerators are offset by a multiple
	 * of the divisor that makes them positive; |num| <= den, so
	 * 2 * depth * num >= -2 * depth * den) */
	int min_col = (int)((unsigned)(2 * depth * start.num + start.den + 2 * start.den * (depth + 1)) /
			    (unsigned)(2 * start.den)) - (depth + 1);
	int max_col = (int)((unsigned)(2 * depth * end.num - end.den + 2 * end.den * (depth + 1) + 2 * end.den - 1) /
			    (unsigned)(2 * end.den)) - (depth + 1);
	if (max_col < min_col)
		return;
	/* A bridge just outside either end of the row, anchored in the row
	 * before: the beam that reached this row passed under (or over) that
	 * row's wall, so if it also lies inside the gap, all of it is behind
	 * the bridge. (Depth 1 has no such case: its beam is the whole quadrant
	 * and row 0 holds only the eye and its neighbours.) */
	bool dark = false;
	if (depth >= 2) {
		int m = min_col, M = max_col;
		/* end <= (2m - 1) / (2 depth - 2) */
		if (end.num * (2 * depth - 2) <= (2 * m - 1) * end.den && cell(s, q, depth, m - 1) != C_FLOOR &&
		    cell(s, q, depth - 1, m) != C_FLOOR)
			dark = true;
		/* start >= (2M + 1) / (2 depth - 2) */
		else if (start.num * (2 * depth - 2) >= (2 * M + 1) * start.den && cell(s, q, depth, M + 1) != C_FLOOR &&
			 cell(s, q, depth - 1, M) != C_FLOOR)
			dark = true;
	}
	/* Clip to the circle: what lies outside is neither seen nor casts a
	 * shadow on anything inside. */
	int lo = min_col, hi = max_col;
	if (s->r2 >= 0) {
		int l;
		if (s->lim) {
			l = s->lim[depth];
		} else { /* beyond the table: the integer square root */
			l = isqrt(s->r2 - depth * depth);
		}
		if (lo < -l)
			lo = -l;
		if (hi > l)
			hi = l;
		if (hi < lo)
			return;
	}
	int n = hi - lo + 1;
	if (n > ROW_MAX)
		n = ROW_MAX;
	/* The row, and the one before it, are straight lines of the map: one
	 * coordinate is fixed, the other runs with col. */
	const bool horiz = XC(q) != 0;
	int x0 = s->ox + depth * XD(q) + lo * XC(q);
	int y0 = s->oy + depth * YD(q) + lo * YC(q);
	int fixed = horiz ? y0 : x0, fixed_n = horiz ? s->h : s->w;
	int pfixed = fixed - (horiz ? YD(q) : XD(q)); /* the row before */
	int var = horiz ? x0 : y0, var_n = horiz ? s->w : s->h;
	ptrdiff_t step = horiz ? 1 : s->w;
	ptrdiff_t back = horiz ? (ptrdiff_t)YD(q) * s->w : XD(q); /* one row nearer the eye */
	ptrdiff_t base = (ptrdiff_t)y0 * s->w + x0;  /* index of col lo */
	bool row_in = (unsigned)fixed < (unsigned)fixed_n;
	bool prow_in = (unsigned)pfixed < (unsigned)fixed_n;
	if (s->track && row_in) { /* the box of what this call may set */
		int xa = x0, ya = y0, xb = x0 + (n - 1) * XC(q), yb = y0 + (n - 1) * YC(q);
		if (xb < xa) {
			int t = xa;
			xa = xb;
			xb = t;
		}
		if (yb < ya) {
			int t = ya;
			ya = yb;
			yb = t;
		}
		s->bx0 = xa < s->bx0 ? xa : s->bx0;
		s->bx1 = xb > s->bx1 ? xb : s->bx1;
		s->by0 = ya < s->by0 ? ya : s->by0;
		s->by1 = yb > s->by1 ? yb : s->by1;
	}
	/* Whether the cell of the row before at index i anchors a bridge (any
	 * opaque cell but the eye's own). */
#define ANCHORS(i)                                                                                  \
	(!prow_in || (unsigned)(var + (i)) >= (unsigned)var_n ? true                                  \
	 : (depth == 1 && lo + (i) == 0)                   ? false                                 \
							   : blocks(s, (size_t)(base + (i) * step - back)))
	/* st[]: the row's cells; cells off the map are C_OUT. On the way, the
	 * dark prefix: up to the last floor cell followed by a wall whose
	 * diagonal partner in the row before closes the gap. */
	uint8_t st[ROW_MAX + 1];
	int ia = 0, ib = n; /* the part on the map: [ia, ib) */
	if (!row_in) {
		ib = 0;
	} else {
		if (var < 0)
			ia = -var < n ? -var : n;
		if (var + n > var_n)
			ib = var_n - var > ia ? var_n - var : ia;
	}
	int lit_to = 0; /* cells before this index only light walls */
	for (int i = 0; i < ia; i++)
		st[i] = C_OUT;
	const uint8_t *cp = s->cells + base;
	unsigned inv = s->inv, pv = C_WALL;
	for (int i = ia; i < ib; i++) {
		unsigned v = (cp[i * step] != 0) ^ inv;
		st[i] = (uint8_t)v;
		if (v > pv && ANCHORS(i - 1)) /* floor, then wall */
			lit_to = i;
		pv = v;
	}
	for (int i = ib; i < n; i++)
		st[i] = C_OUT;
	if (ib < n && ib > ia && pv == C_FLOOR && ANCHORS(ib - 1))
		lit_to = ib;
	if (dark)
		lit_to = n;
	uint8_t *vp = s->visible + base;
	for (int i = 0; i < lit_to; i++) {
		/* Walls are lit as in Ford's algorithm (any part of them in the
		 * row's range), even behind a gap, so room corners show. */
		if (st[i] == C_WALL)
			vp[i * step] = 1;
	}
	/* A floor cell's centre is within the slopes except perhaps at the
	 * row's two ends (symmetric: start <= col/depth <= end). */
	int vis_lo = (min_col * start.den >= depth * start.num ? min_col : min_col + 1) - lo;
	int vis_hi = (max_col * end.den <= depth * end.num ? max_col : max_col - 1) - lo;
	/* fov_update's floor masks: this row's bits */
	uint64_t *fm = NULL, fbit = 0;
	ptrdiff_t fstep = 0;
	int fsh = 0;
	if (s->fmask) {
		fm = s->fmask + (y0 + s->fy);
		fbit = (uint64_t)1 << (x0 + s->fx);
		fstep = horiz ? 0 : YC(q);
		fsh = horiz ? XC(q) : 0;
	}
	int prev = -1; /* none yet */
	for (int i = lit_to; i < n; i++) {
		int c = st[i];
		if (c != C_FLOOR) {
			if (c == C_WALL)
				vp[i * step] = 1;
			if (prev == C_FLOOR && depth < s->maxdepth)
				scan_q(q, s, depth + 1, start, (struct frac){ 2 * (lo + i) - 1, 2 * depth });
			prev = c;
			continue;
		}
		if (prev > C_FLOOR) {
			if (ANCHORS(i)) { /* the rest of the row lies behind a bridge */
				for (; i < n; i++)
					if (st[i] == C_WALL)
						vp[i * step] = 1;
				return;
			}
			start = (struct frac){ 2 * (lo + i) - 1, 2 * depth };
		}
		if (i >= vis_lo && i <= vis_hi) {
			vp[i * step] = 1;
			if (fm)
				fm[i * fstep] |= fbit << (i * fsh);
		}
		prev = C_FLOOR;
	}
#undef ANCHORS
	if (prev == C_FLOOR && depth < s->maxdepth)
		scan_q(q, s, depth + 1, start, end);
}

static void scan_q0(struct scan *s, int depth, struct frac start, struct frac end)
{
	scan_row(0, s, depth, start, end);
}

static void scan_q1(struct scan *s, int depth, struct frac start, struct frac end)
{
	scan_row(1, s, depth, start, end);
}

static void scan_q2(struct scan *s, int depth, struct frac start, struct frac end)
{
	scan_row(2, s, depth, start, end);
}

static void scan_q3(struct scan *s, int depth, struct frac start, struct frac end)
{
	scan_row(3, s, depth, start, end);
}

/* Walls in range (r2 < 0: any) among the 8 neighbours of a visible floor
 * cell of the box x0..x1, y0..y1, cell by cell. */
static void light_walls_box(const struct scan *s, int x0, int y0, int x1, int y1, int r2)
{
	int w = s->w, h = s->h, ox = s->ox, oy = s->oy;
	for (int y = y0; y <= y1; y++) {
		for (int x = x0; x <= x1; x++) {
			if (!s->visible[y * w + x] || blocks(s, (size_t)(y * w + x)))
				continue;
			for (int ny = y - 1; ny <= y + 1; ny++) {
				if (ny < 0 || ny >= h)
					continue;
				for (int nx = x - 1; nx <= x + 1; nx++) {
					if (nx < 0 || nx >= w)
						continue;
					int i = ny * w + nx;
					if (s->visible[i] || !blocks(s, (size_t)i))
						continue;
					int ddx = nx - ox, ddy = ny - oy;
					if (r2 >= 0 && ddx * ddx + ddy * ddy > r2)
						continue;
					s->visible[i] = 1;
				}
			}
		}
	}
}

/* lim[d] for d = 0..radius: the largest |col| with d * d + col * col <= r2. */
static void make_lim(int *lim, int radius, int r2)
{
	int l = radius;
	for (int d = 0; d <= radius; d++) {
		while (l > 0 && d * d + l * l > r2)
			l--;
		lim[d] = l;
	}
}

/* lim_tab[r][d] = make_lim for radius r <= MASK_RADIUS, precomputed (the
 * test checks it against make_lim). */
static const int lim_tab[MASK_RADIUS + 1][MASK_RADIUS + 1] = {
	{ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 2, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 3, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 4, 4, 4, 3, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 5, 5, 5, 4, 3, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 6, 6, 6, 5, 5, 4, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 7, 7, 7, 6, 6, 5, 4, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 8, 8, 8, 7, 7, 6, 6, 4, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 9, 9, 9, 9, 8, 8, 7, 6, 5, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 10, 10, 10, 10, 9, 9, 8, 7, 6, 5, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 11, 11, 11, 11, 10, 10, 9, 9, 8, 7, 5, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 12, 12, 12, 12, 11, 11, 10, 10, 9, 8, 7, 5, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 13, 13, 13, 13, 12, 12, 12, 11, 10, 10, 9, 7, 6, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 14, 14, 14, 14, 13, 13, 13, 12, 12, 11, 10, 9, 8, 6, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 15, 15, 15, 15, 14, 14, 14, 13, 13, 12, 11, 10, 9, 8, 6, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 16, 16, 16, 16, 16, 15, 15, 14, 14, 13, 13, 12, 11, 10, 8, 6, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 17, 17, 17, 17, 17, 16, 16, 16, 15, 15, 14, 13, 12, 11, 10, 9, 7, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 18, 18, 18, 18, 18, 17, 17, 17, 16, 16, 15, 14, 14, 13, 12, 10, 9, 7, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 19, 19, 19, 19, 19, 18, 18, 18, 17, 17, 16, 16, 15, 14, 13, 12, 11, 9, 7, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 20, 20, 20, 20, 20, 19, 19, 19, 18, 18, 17, 17, 16, 15, 14, 13, 12, 11, 9, 7, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 21, 21, 21, 21, 21, 20, 20, 20, 19, 19, 19, 18, 17, 17, 16, 15, 14, 13, 11, 10, 7, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 22, 22, 22, 22, 22, 21, 21, 21, 21, 20, 20, 19, 19, 18, 17, 16, 15, 14, 13, 12, 10, 8, 4, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 23, 23, 23, 23, 23, 22, 22, 22, 22, 21, 21, 20, 20, 19, 18, 18, 17, 16, 15, 13, 12, 10, 8, 4, 0, 0, 0, 0, 0, 0, 0 },
	{ 24, 24, 24, 24, 24, 23, 23, 23, 23, 22, 22, 21, 21, 20, 20, 19, 18, 17, 16, 15, 14, 12, 10, 8, 4, 0, 0, 0, 0, 0, 0 },
	{ 25, 25, 25, 25, 25, 25, 24, 24, 24, 23, 23, 23, 22, 21, 21, 20, 19, 19, 18, 17, 15, 14, 12, 11, 8, 5, 0, 0, 0, 0, 0 },
	{ 26, 26, 26, 26, 26, 26, 25, 25, 25, 24, 24, 24, 23, 23, 22, 21, 21, 20, 19, 18, 17, 16, 14, 13, 11, 8, 5, 0, 0, 0, 0 },
	{ 27, 27, 27, 27, 27, 27, 26, 26, 26, 25, 25, 25, 24, 24, 23, 23, 22, 21, 20, 19, 18, 17, 16, 15, 13, 11, 8, 5, 0, 0, 0 },
	{ 28, 28, 28, 28, 28, 28, 27, 27, 27, 27, 26, 26, 25, 25, 24, 24, 23, 22, 22, 21, 20, 19, 18, 16, 15, 13, 11, 9, 5, 0, 0 },
	{ 29, 29, 29, 29, 29, 29, 28, 28, 28, 28, 27, 27, 26, 26, 25, 25, 24, 24, 23, 22, 21, 20, 19, 18, 17, 15, 13, 11, 9, 5, 0 },
	{ 30, 30, 30, 30, 30, 30, 29, 29, 29, 29, 28, 28, 28, 27, 27, 26, 25, 25, 24, 23, 23, 22, 21, 20, 18, 17, 15, 14, 12, 9, 5 },
};

/* Walls in the disc next to a visible floor cell, from fmask (rows -1 and
 * 2 * mr + 1 are padding and hold 0): each row's visible floor, dilated by
 * one cell in the 8 directions, minus itself, gives the few cells to look
 * at; of those the walls are lit. */
static void light_walls_masked(const struct scan *s, const uint64_t *fmask, const int *lim)
{
	int mr = s->mr, w = s->w;
	/* bits of the columns on the map */
	int b0 = mr - s->ox < 0 ? 0 : mr - s->ox, b1 = mr - s->ox + w - 1 > 2 * mr ? 2 * mr : mr - s->ox + w - 1;
	uint64_t onmap = ((~(uint64_t)0) >> (63 - b1)) & ~(((uint64_t)1 << b0) - 1);
	int ja = mr - s->oy < 0 ? 0 : mr - s->oy, jb = mr - s->oy + s->h - 1 > 2 * mr ? 2 * mr : mr - s->oy + s->h - 1;
	for (int j = ja; j <= jb; j++) {
		int dy = j - mr, span = lim[dy < 0 ? -dy : dy];
		uint64_t disc = ((~(uint64_t)0) >> (63 - 2 * span)) << (mr - span);
		uint64_t near = fmask[j - 1] | fmask[j] | fmask[j + 1];
		uint64_t cand = (near | near << 1 | near >> 1) & ~fmask[j] & disc & onmap;
		if (!cand)
			continue;
		size_t row = (size_t)(s->oy + dy) * (size_t)w + (size_t)(s->ox - mr);
		while (cand) {
			int b = __builtin_ctzll(cand);
			cand &= cand - 1;
			s->visible[row + (size_t)b] |= (uint8_t)blocks(s, row + (size_t)b);
		}
	}
}

void fov_light_walls(const uint8_t *opaque, int w, int h, int ox, int oy, int radius, uint8_t *visible)
{
	if (w <= 0 || h <= 0 || ox < 0 || oy < 0 || ox >= w || oy >= h)
		return;
	struct scan s = { .cells = opaque, .visible = visible, .w = w, .h = h, .ox = ox, .oy = oy };
	int r2 = radius >= 0 ? radius * radius + radius : -1;
	if (radius >= 0 && radius <= MASK_RADIUS) {
		/* the visible floor of the disc as masks */
		uint64_t fmask[2 * MASK_RADIUS + 3] = { 0 };
		const int *lim = lim_tab[radius];
		s.mr = radius;
		for (int j = 0; j <= 2 * radius; j++) {
			int y = oy - radius + j, span = lim[j > radius ? j - radius : radius - j];
			if (y < 0 || y >= h)
				continue;
			int x0 = ox - span < 0 ? 0 : ox - span, x1 = ox + span >= w ? w - 1 : ox + span;
			const uint8_t *vrow = visible + y * w, *orow = opaque + y * w;
			uint64_t f = 0;
			for (int x = x0; x <= x1; x++)
				f |= (uint64_t)(vrow[x] && !orow[x]) << (x - ox + radius);
			fmask[j + 1] = f;
		}
		light_walls_masked(&s, fmask + 1, lim);
		return;
	}
	int reach = radius >= 0 ? radius : (w > h ? w : h);
	light_walls_box(&s, ox - reach < 0 ? 0 : ox - reach, oy - reach < 0 ? 0 : oy - reach,
			ox + reach >= w ? w - 1 : ox + reach, oy + reach >= h ? h - 1 : oy + reach, r2);
}

/* Fills s for a view from (ox, oy) (on the array) and scans the four
 * quadrants; lim must hold LIM_MAX + 1 ints. */
static void scan_all(struct scan *s, int radius, int *lim)
{
	s->maxdepth = s->w > s->h ? s->w : s->h; /* no row beyond this can hold a cell of the map */
	s->r2 = -1;
	if (radius >= 0) {
		s->r2 = radius * radius + radius;
		if (radius < s->maxdepth)
			s->maxdepth = radius;
		if (radius <= MASK_RADIUS) {
			s->lim = lim_tab[radius];
		} else if (radius <= LIM_MAX) {
			make_lim(lim, radius, s->r2);
			s->lim = lim;
		}
	}
	s->visible[s->oy * s->w + s->ox] = 1;
	for (int q = 0; q < 4; q++)
		scan_q(q, s, 1, (struct frac){ -1, 1 }, (struct frac){ 1, 1 });
}

void fov_compute(const uint8_t *opaque, int w, int h, int ox, int oy, int radius, uint8_t *visible)
{
	if (w <= 0 || h <= 0)
		return;
	memset(visible, 0, (size_t)w * (size_t)h);
	if (ox < 0 || oy < 0 || ox >= w || oy >= h)
		return;
	struct scan s = { .cells = opaque, .visible = visible, .w = w, .h = h, .ox = ox, .oy = oy };
	int lim[LIM_MAX + 1];
	scan_all(&s, radius, lim);
}

struct fov_box fov_box_all(int w, int h)
{
	return (struct fov_box){ 0, 0, w - 1, h - 1 };
}

void fov_update(const uint8_t *cells, enum fov_cells kind, int w, int h, int ox, int oy, int radius,
		uint8_t *visible, struct fov_box *last)
{
	if (w <= 0 || h <= 0)
		return;
	/* clear what the last call set */
	struct fov_box b = *last;
	b.x0 = b.x0 < 0 ? 0 : b.x0;
	b.y0 = b.y0 < 0 ? 0 : b.y0;
	b.x1 = b.x1 >= w ? w - 1 : b.x1;
	b.y1 = b.y1 >= h ? h - 1 : b.y1;
	if (b.x1 >= b.x0) {
		/* eight bytes at a time: a store may run past the box (never
		 * past the array), onto cells that are 0 already */
		size_t bw = (size_t)(b.x1 - b.x0 + 1), n = (size_t)w * (size_t)h;
		const uint64_t zero = 0;
		for (int y = b.y0; y <= b.y1; y++) {
			size_t at = (size_t)y * (size_t)w + (size_t)b.x0;
			if (bw <= 24 && at + 24 <= n) {
				memcpy(visible + at, &zero, 8);
				memcpy(visible + at + 8, &zero, 8);
				memcpy(visible + at + 16, &zero, 8);
			} else {
				memset(visible + at, 0, bw);
			}
		}
	}
	*last = (struct fov_box){ 0, 0, -1, -1 };
	if (ox < 0 || oy < 0 || ox >= w || oy >= h)
		return;
	struct scan s = { .cells = cells, .inv = kind == FOV_OPAQUE_ZERO, .visible = visible,
			  .w = w, .h = h, .ox = ox, .oy = oy };
	int lim[LIM_MAX + 1];
	if (radius >= 0 && radius <= MASK_RADIUS) {
		uint64_t fmask[2 * MASK_RADIUS + 3];
		memset(fmask, 0, sizeof(uint64_t) * (size_t)(2 * radius + 3));
		s.fmask = fmask + 1;
		s.mr = radius;
		s.fy = radius - oy;
		s.fx = radius - ox;
		if (!blocks(&s, (size_t)oy * (size_t)w + (size_t)ox))
			s.fmask[radius] = (uint64_t)1 << radius;
		scan_all(&s, radius, lim);
		light_walls_masked(&s, s.fmask, s.lim);
		b = (struct fov_box){ ox - radius, oy - radius, ox + radius, oy + radius };
	} else {
		s.track = true;
		s.bx0 = s.bx1 = ox;
		s.by0 = s.by1 = oy;
		scan_all(&s, radius, lim);
		/* the walls lit next to visible floor lie at most one cell out */
		light_walls_box(&s, s.bx0 < 0 ? 0 : s.bx0, s.by0 < 0 ? 0 : s.by0, s.bx1 >= w ? w - 1 : s.bx1,
				s.by1 >= h ? h - 1 : s.by1, s.r2);
		b = (struct fov_box){ s.bx0 - 1, s.by0 - 1, s.bx1 + 1, s.by1 + 1 };
	}
	b.x0 = b.x0 < 0 ? 0 : b.x0;
	b.y0 = b.y0 < 0 ? 0 : b.y0;
	b.x1 = b.x1 >= w ? w - 1 : b.x1;
	b.y1 = b.y1 >= h ? h - 1 : b.y1;
	*last = b;
}
