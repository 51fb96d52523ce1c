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
 * clipped to the circle. fov_update (what the game runs) does the same scan
 * on bit masks for radius <= MASK_RADIUS (mrow: a row in a few word
 * operations, the east and west quadrants on the window transposed). */
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
_Static_assert(FOV_ROWS_MAX >= 2 * MASK_RADIUS + 1, "fov_rows holds a view's rows");
_Static_assert(FOV_WALLS_RADIUS == MASK_RADIUS, "fov_update_walls scans on masks");

struct scan {
	const uint8_t *cells;
	unsigned inv;      /* 0: nonzero blocks sight; 1: zero blocks sight */
	uint8_t *visible;
	int w, h, ox, oy;
	int maxdepth;      /* last row scanned */
	const int *lim;    /* lim[depth]: largest |col| inside the circle; NULL = none */
	int r2;            /* radius * radius + radius, or -1 for unlimited */
	int mr;            /* fov_light_walls' masks: bit x - ox + mr of row y - oy + mr */
	const struct fov_walls *walls; /* fov_rows_of_bits: the walls as bits (cells, visible unused) */
	bool track;        /* fov_update: keep the box of the rows scanned below */
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

/* A row's first and last col: round_ties_up(depth * start) and
 * round_ties_down(depth * end), one unsigned division each (the numerators
 * are offset by a multiple of the divisor that makes them positive;
 * |num| <= den, so 2 * depth * num >= -2 * depth * den). */
static inline __attribute__((always_inline)) int row_first(int depth, struct frac start)
{
	return (int)((unsigned)(2 * depth * start.num + start.den + 2 * start.den * (depth + 1)) /
		     (unsigned)(2 * start.den)) - (depth + 1);
}

static inline __attribute__((always_inline)) int row_last(int depth, struct frac end)
{
	return (int)((unsigned)(2 * depth * end.num - end.den + 2 * end.den * (depth + 1) + 2 * end.den - 1) /
		     (unsigned)(2 * end.den)) - (depth + 1);
}

/* Scans one row of quadrant q and, recursively, the rows behind it. */
static inline __attribute__((always_inline)) void scan_row(const int q, struct scan *s, int depth, struct frac start,
							    struct frac end)
{
	if (depth > s->maxdepth)
		return;
	int min_col = row_first(depth, start), max_col = row_last(depth, end);
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
#ifdef __clang_analyzer__
	/* scan-build does not follow that [0, ia), [ia, ib) and [ib, n) below
	 * cover the row (ia <= ib <= n); the game's build leaves this out */
	memset(st, C_OUT, sizeof st);
#endif
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
		if (i >= vis_lo && i <= vis_hi)
			vp[i * step] = 1;
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

/* ---- fov_update's bit-parallel scan (radius <= MASK_RADIUS) ----
 *
 * The same scan as scan_row, a row at a time instead of a cell at a time.
 * The square window of side n = 2 * radius + 3 around the eye (one cell of
 * margin: the bridge checks look one cell past a row's ends) is read once
 * into bit masks: word j is the row y = oy - c + j, bit i the column
 * x = ox - c + i (c = radius + 1 is the eye's index); a set bit blocks
 * sight, and cells off the map block it. The north and south quadrants scan
 * the window's rows, the east and west ones its columns (the window
 * transposed), so in every quadrant the row at depth d is one word, and the
 * cell at col is bit c + col of it. */

#define WIN_MAX (2 * MASK_RADIUS + 3) /* 63 bits: a row fits one word */
#define WIN_PAD 64                    /* words per window (8 x 8 blocks) */

struct mq { /* one quadrant */
	const uint64_t *b; /* the row at depth d is b[sg * d]: what blocks sight */
	uint64_t *v;       /* what is visible, likewise */
	ptrdiff_t sg;
	int c;             /* bit of col 0 */
	int maxdepth;      /* the last row in range and on the map */
	const int *lim;    /* lim[d]: largest |col| inside the circle */
	uint64_t cross;    /* bits off the map along every row */
	uint64_t p1;       /* the row at depth 0, the eye not blocking */
};

/* One row of a quadrant at depth d between the slopes start and end, and the
 * rows behind it (the last beam of a row is followed in the loop). */
static void mrow(const struct mq *q, int d, struct frac start, struct frac end)
{
	const int c = q->c;
	for (;;) {
		int min_col = row_first(d, start), max_col = row_last(d, end);
		if (max_col < min_col)
			return;
		const uint64_t B = q->b[q->sg * d], P = d == 1 ? q->p1 : q->b[q->sg * (d - 1)];
		/* the whole row behind a bridge just outside one of its ends */
		bool dark = d >= 2 &&
			    ((end.num * (2 * d - 2) <= (2 * min_col - 1) * end.den && (B >> (c + min_col - 1) & 1) &&
			      (P >> (c + min_col) & 1)) ||
			     (start.num * (2 * d - 2) >= (2 * max_col + 1) * start.den && (B >> (c + max_col + 1) & 1) &&
			      (P >> (c + max_col) & 1)));
		int l = q->lim[d], lo = min_col < -l ? -l : min_col, hi = max_col > l ? l : max_col;
		if (hi < lo)
			return;
		const uint64_t row = (~(uint64_t)0 >> (63 - (hi - lo))) << (c + lo);
		uint64_t *vr = q->v + q->sg * d;
		const uint64_t wall = B & row; /* walls and cells off the map */
		*vr |= wall & ~q->cross;       /* every wall of the row is lit */
		if (dark)
			return;
		const uint64_t floor = row & ~B;
		/* the dark prefix: up to the last floor followed by a wall whose
		 * diagonal partner in the row before closes the gap */
		uint64_t act = row, m = floor & (wall >> 1) & P;
		if (m)
			act &= ~(uint64_t)1 << (63 - __builtin_clzll(m));
		/* the rest of the row behind a bridge: from the first floor after
		 * a wall of act whose partner in the row before is opaque */
		m = floor & act & ((wall & act) << 1) & P;
		if (m)
			act &= (m & -m) - 1;
		uint64_t fl = floor & act;
		/* floor centres inside the slopes: all but perhaps the two ends */
		uint64_t in = fl;
		if (min_col * start.den < d * start.num)
			in &= ~((uint64_t)1 << (c + min_col));
		if (max_col * end.den > d * end.num)
			in &= ~((uint64_t)1 << (c + max_col));
		*vr |= in;
		if (d >= q->maxdepth || !fl)
			return;
		/* each run of floor casts a beam into the next row */
		const uint64_t first = (uint64_t)1 << (c + lo);
		for (;;) {
			uint64_t low = fl & -fl, above = fl + low; /* the run's first bit, the bit past it */
			int a = __builtin_ctzll(low) - c, e = __builtin_ctzll(above) - c; /* cols a .. e - 1 */
			struct frac s2 = low == first ? start : (struct frac){ 2 * a - 1, 2 * d };
			struct frac e2 = e - 1 == hi ? end : (struct frac){ 2 * e - 1, 2 * d };
			fl &= above;
			if (!fl) {
				start = s2;
				end = e2;
				break;
			}
			mrow(q, d + 1, s2, e2);
		}
		d++;
	}
}

/* The 8 x 8 bit block x (bit 8 r + k = row r, column k) transposed. */
static inline uint64_t transpose8(uint64_t x)
{
	uint64_t t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
	x ^= t ^ (t << 7);
	t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
	x ^= t ^ (t << 14);
	t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
	return x ^ t ^ (t << 28);
}

/* Loops over the NB bytes of a window row, unrolled (NB is a constant). */
#define UNROLL _Pragma("GCC unroll 8")

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FOV_LE 1 /* eight bytes in one load, byte k = bits 8k..8k+7 */
#else
#define FOV_LE 0
#endif

static inline uint64_t load8(const uint8_t *p)
{
	uint64_t v = 0;
#if FOV_LE
	memcpy(&v, p, 8);
#else
	for (int k = 0; k < 8; k++)
		v |= (uint64_t)p[k] << (8 * k);
#endif
	return v;
}

static inline void store8(uint8_t *p, uint64_t v)
{
#if FOV_LE
	memcpy(p, &v, 8);
#else
	for (int k = 0; k < 8; k++)
		p[k] = (uint8_t)(v >> (8 * k));
#endif
}

/* out[i] bit j = in[j] bit i for i, j < 8 * NB, in 8 x 8 blocks: col[I][j]
 * holds byte I of in[j] (rows from n to 8 * NB are 0). */
static inline __attribute__((always_inline)) void transpose_nb(uint8_t (*col)[WIN_PAD], int n, uint64_t *out,
								const int NB)
{
	uint8_t row[8][WIN_PAD]; /* row[J][i]: byte J of out[i] */
	UNROLL for (int I = 0; I < NB; I++)
		UNROLL for (int J = 0; J < NB; J++)
			store8(&row[J][8 * I], transpose8(load8(&col[I][8 * J])));
	for (int i = 0; i < n; i++) {
		uint64_t v = 0;
		UNROLL for (int J = 0; J < NB; J++)
			v |= (uint64_t)row[J][i] << (8 * J);
		out[i] = v;
	}
}

/* col[I][j] = byte I of v (the row j of a window being transposed). */
static inline __attribute__((always_inline)) void split(uint8_t (*col)[WIN_PAD], int j, uint64_t v, const int NB)
{
	UNROLL for (int I = 0; I < NB; I++)
		col[I][j] = (uint8_t)(v >> (8 * I));
}

/* Bits 0..n-1 (n <= 8 * NB) of which cells of p[0..n-1] block sight; p + n
 * may run to at most end. Eight cells at a time where the bytes exist. */
static inline __attribute__((always_inline)) uint64_t read_bits(const uint8_t *p, int n, const uint8_t *end,
								 unsigned inv, const int NB)
{
	uint64_t bits = 0;
	if (end - p >= 8 * NB) {
		const uint64_t lo7 = 0x7F7F7F7F7F7F7F7Full, hi = 0x8080808080808080ull, flip = inv ? hi : 0;
		UNROLL for (int k = 0; k < NB; k++) {
			uint64_t v = load8(p + 8 * k);
			v = ((v | ((v & lo7) + lo7)) & hi) ^ flip;               /* high bit of each byte: blocks */
			bits |= ((v * 0x0002040810204081ull) >> 56) << (8 * k); /* the eight gathered */
		}
	} else {
		for (int k = 0; k < n; k++)
			bits |= (uint64_t)((p[k] != 0) ^ inv) << k;
	}
	return bits & (~(uint64_t)0 >> (64 - n));
}

/* Writes bits 0..n-1 as n bytes 0/1 at p; the bytes after them (to
 * p + 8 * NB, never past end) may be written with the bits above n. */
static inline __attribute__((always_inline)) void write_bits(uint8_t *p, int n, uint8_t *end, uint64_t bits,
							     const int NB)
{
	if (end - p >= 8 * NB) {
		UNROLL for (int k = 0; k < NB; k++) {
			uint64_t v = ((bits >> (8 * k)) & 0xFF) * 0x0101010101010101ull & 0x8040201008040201ull;
			store8(p + 8 * k, ((v + 0x00406070787C7E7Full) >> 7) & 0x0101010101010101ull); /* bit k: byte k */
		}
	} else {
		for (int k = 0; k < n; k++)
			p[k] = (uint8_t)(bits >> k & 1);
	}
}

/* fov_update's view for 0 <= radius <= MASK_RADIUS, NB = (2 * radius + 3 +
 * 7) / 8: what scan_all and light_walls_masked set (s->visible is all 0
 * on entry), written row by row into the box of the disc. */
/* The 64 bits of the words at p from bit b on (b >= 0; word b / 64 + 1
 * read only when b is not a multiple of 64). */
static inline uint64_t bits_at(const uint64_t *p, int b)
{
	int k = b >> 6, sh = b & 63;
	return sh ? p[k] >> sh | p[k + 1] << (64 - sh) : p[k];
}

/* B: the window from s->walls' bits, else from s->cells. */
static inline __attribute__((always_inline)) void view_nb(const struct scan *s, int radius, struct fov_rows *rows,
							   const int NB, const bool R, const bool B)
{
	const int c = radius + 1, n = 2 * radius + 3, w = s->w, h = s->h, ox = s->ox, oy = s->oy;
	const int *lim = lim_tab[radius];
	const uint64_t all = ((uint64_t)1 << n) - 1;
	/* columns and rows of the window on the map */
	int xa = ox - c < 0 ? 0 : ox - c, xb = ox - c + n - 1 >= w ? w - 1 : ox - c + n - 1;
	int ya = oy - c < 0 ? 0 : oy - c, yb = oy - c + n - 1 >= h ? h - 1 : oy - c + n - 1;
	uint64_t colout = all & ~((~(uint64_t)0 >> (63 - (xb - xa))) << (xa - (ox - c)));
	uint64_t rowout = all & ~((~(uint64_t)0 >> (63 - (yb - ya))) << (ya - (oy - c)));
	uint64_t H[WIN_PAD], V[WIN_PAD], vh[WIN_PAD], vv[WIN_PAD];
	uint8_t col[8][WIN_PAD];
	for (int j = 0; j < n; j++)
		vh[j] = vv[j] = 0;
	if (B) { /* rows and columns of the window as kept: off the map set */
		const struct fov_walls *wb = s->walls;
		for (int j = 0; j < n; j++) {
			int y = oy - c + j, x = ox - c + j;
			H[j] = y < ya || y > yb ? all
						: bits_at(wb->rows + (size_t)y * (size_t)wb->rstride, FOV_PAD + ox - c) & all;
			V[j] = x < xa || x > xb ? all
						: bits_at(wb->cols + (size_t)x * (size_t)wb->cstride, FOV_PAD + oy - c) & all;
		}
	} else {
		for (int j = 0; j < n; j++) {
			int y = oy - c + j;
			if (y < ya || y > yb) {
				H[j] = all;
			} else {
				const uint8_t *p = s->cells + (size_t)y * (size_t)w + (size_t)xa;
				H[j] = colout | read_bits(p, xb - xa + 1, s->cells + (size_t)w * (size_t)h, s->inv, NB)
							<< (xa - (ox - c));
			}
			split(col, j, H[j], NB);
		}
		for (int j = n; j < 8 * NB; j++)
			split(col, j, 0, NB);
		transpose_nb(col, n, V, NB);
	}
	struct mq q[4] = {
		{ H + c, vh + c, -1, c, oy, lim, colout, 0 },        /* north */
		{ V + c, vv + c, 1, c, w - 1 - ox, lim, rowout, 0 }, /* east */
		{ H + c, vh + c, 1, c, h - 1 - oy, lim, colout, 0 }, /* south */
		{ V + c, vv + c, -1, c, ox, lim, rowout, 0 },        /* west */
	};
	for (int k = 0; k < 4; k++) {
		q[k].maxdepth = q[k].maxdepth > radius ? radius : q[k].maxdepth;
		q[k].p1 = q[k].b[0] & ~((uint64_t)1 << c);
		if (q[k].maxdepth >= 1)
			mrow(&q[k], 1, (struct frac){ -1, 1 }, (struct frac){ 1, 1 });
	}
	/* east and west back into rows */
	for (int j = 0; j < 8 * NB; j++)
		split(col, j, j < n ? vv[j] : 0, NB);
	transpose_nb(col, n, V, NB);
	vh[c] |= (uint64_t)1 << c; /* the eye */
	/* the visible floor, and the walls of the disc next to it */
	uint64_t fl[WIN_PAD];
	for (int j = c - radius - 1; j <= c + radius + 1; j++) {
		vh[j] |= V[j];
		fl[j] = vh[j] & ~H[j];
	}
	int x0 = ox - radius < 0 ? 0 : ox - radius, x1 = ox + radius >= w ? w - 1 : ox + radius;
	int ja = oy - radius < 0 ? c - oy : c - radius, jb = oy + radius >= h ? c + h - 1 - oy : c + radius;
	uint8_t *out = s->visible + (size_t)(oy - c + ja) * (size_t)w + (size_t)x0;
	uint8_t *vend = s->visible + (size_t)w * (size_t)h;
	if (R) {
		rows->x0 = x0;
		rows->y0 = oy - c + ja;
		rows->n = jb - ja + 1;
	}
	for (int j = ja; j <= jb; j++, out += w) {
		int dy = j - c, span = lim[dy < 0 ? -dy : dy];
		uint64_t disc = (~(uint64_t)0 >> (63 - 2 * span)) << (c - span);
		/* ja - 1 >= c - radius - 1 and jb + 1 <= c + radius + 1: all set above */
		/* cppcheck-suppress uninitvar */
		uint64_t near = fl[j - 1] | fl[j] | fl[j + 1];
		uint64_t v = vh[j] | ((near | near << 1 | near >> 1) & disc & ~colout & H[j]);
		write_bits(out, x1 - x0 + 1, vend, v >> (x0 - (ox - c)), NB);
		if (R)
			rows->bits[j - ja] = (v >> (x0 - (ox - c))) & (~(uint64_t)0 >> (63 - (x1 - x0)));
	}
}

/* view_nb with NB, whether rows are wanted and where the walls come from
 * as constants. */
#define VIEW_NB(R, B)                                                                                                  \
	switch ((2 * radius + 3 + 7) / 8) {                                                                            \
	case 1: view_nb(s, radius, rows, 1, R, B); break;                                                              \
	case 2: view_nb(s, radius, rows, 2, R, B); break;                                                              \
	case 3: view_nb(s, radius, rows, 3, R, B); break;                                                              \
	case 4: view_nb(s, radius, rows, 4, R, B); break;                                                              \
	case 5: view_nb(s, radius, rows, 5, R, B); break;                                                              \
	case 6: view_nb(s, radius, rows, 6, R, B); break;                                                              \
	case 7: view_nb(s, radius, rows, 7, R, B); break;                                                              \
	default: view_nb(s, radius, rows, 8, R, B); break;                                                             \
	}

static void view_masked(const struct scan *s, int radius)
{
	struct fov_rows *rows = NULL;
	VIEW_NB(false, false)
}

static void view_masked_rows(const struct scan *s, int radius, struct fov_rows *rows)
{
	VIEW_NB(true, false)
}

static void clear_last(int w, int h, uint8_t *visible, struct fov_box *last);

static void view_bits_rows(const struct scan *s, int radius, struct fov_rows *rows)
{
	VIEW_NB(true, true)
}

void fov_update_walls(const struct fov_walls *walls, int w, int h, int ox, int oy, int radius, uint8_t *visible,
		      struct fov_box *last, struct fov_rows *rows)
{
	clear_last(w, h, visible, last);
	struct scan s = { .walls = walls, .visible = visible, .w = w, .h = h, .ox = ox, .oy = oy };
	view_bits_rows(&s, radius, rows);
	*last = (struct fov_box){ ox - radius < 0 ? 0 : ox - radius, oy - radius < 0 ? 0 : oy - radius,
				  ox + radius >= w ? w - 1 : ox + radius, oy + radius >= h ? h - 1 : oy + radius };
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

/* Clears in visible (w x h, w, h > 0) the box *last (clipped to the
 * array), then empties *last. */
static void clear_last(int w, int h, uint8_t *visible, struct fov_box *last)
{
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
}

/* fov_update and fov_update_rows (rows NULL: none wanted). */
static inline __attribute__((always_inline)) void update(const uint8_t *cells, enum fov_cells kind, int w, int h,
							  int ox, int oy, int radius, uint8_t *visible,
							  struct fov_box *last, struct fov_rows *rows)
{
	if (rows)
		rows->n = -1;
	if (w <= 0 || h <= 0)
		return;
	clear_last(w, h, visible, last);
	struct fov_box b;
	if (ox < 0 || oy < 0 || ox >= w || oy >= h) {
		if (rows)
			rows->n = 0; /* nothing set */
		return;
	}
	struct scan s = { .cells = cells, .inv = kind == FOV_OPAQUE_ZERO, .visible = visible,
			  .w = w, .h = h, .ox = ox, .oy = oy };
	int lim[LIM_MAX + 1];
	if (radius >= 0 && radius <= MASK_RADIUS) {
		if (rows)
			view_masked_rows(&s, radius, rows);
		else
			view_masked(&s, radius);
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

void fov_update(const uint8_t *cells, enum fov_cells kind, int w, int h, int ox, int oy, int radius,
		uint8_t *visible, struct fov_box *last)
{
	update(cells, kind, w, h, ox, oy, radius, visible, last, NULL);
}

void fov_update_rows(const uint8_t *cells, enum fov_cells kind, int w, int h, int ox, int oy, int radius,
		     uint8_t *visible, struct fov_box *last, struct fov_rows *rows)
{
	update(cells, kind, w, h, ox, oy, radius, visible, last, rows);
}

void fov_set_rows(const struct fov_rows *rows, const struct fov_box *box, int w, int h, uint8_t *visible,
		  struct fov_box *last)
{
	if (w <= 0 || h <= 0)
		return;
	clear_last(w, h, visible, last);
	const int nx = box->x1 - box->x0 + 1;
	const uint8_t *end = visible + (size_t)w * (size_t)h;
	for (int k = 0; k < rows->n; k++) {
		uint8_t *p = visible + (size_t)(rows->y0 + k) * (size_t)w + (size_t)rows->x0;
		const uint64_t bits = rows->bits[k];
		/* eight cells at a time (bit i of the eight gives byte i 0 or
		 * 1), as fov_update writes them: the bytes past the box's end
		 * take the 0 bits above its width (those cells are 0 already),
		 * never past the array */
		for (int x = 0; x < nx; x += 8) {
			uint64_t v = ((bits >> x) & 0xFF) * 0x0101010101010101ull & 0x8040201008040201ull;
			v = ((v + 0x00406070787C7E7Full) >> 7) & 0x0101010101010101ull;
			if (end - (p + x) >= 8) {
				store8(p + x, v);
				continue;
			}
			for (int i = 0; i < nx - x; i++)
				p[x + i] = (uint8_t)(v >> (8 * i));
		}
	}
	*last = *box;
}
