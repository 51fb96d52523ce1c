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

struct scan {
	const uint8_t *opaque;
	uint8_t *visible;
	int w, h, ox, oy;
	int maxdepth;      /* last row scanned */
	const int *lim;    /* lim[depth]: largest |col| inside the circle; NULL = none */
	int r2;            /* radius * radius + radius, or -1 for unlimited */
	int xd, xc, yd, yc; /* x = ox + depth * xd + col * xc; y likewise */
};

/* Cell state. Outside the map counts as wall but is never revealed. */
enum { C_FLOOR = 0, C_WALL = 1, C_OUT = 2 };

static inline int cell(const struct scan *s, int depth, int col)
{
	int x = s->ox + depth * s->xd + col * s->xc;
	int y = s->oy + depth * s->yd + col * s->yc;
	if ((unsigned)x >= (unsigned)s->w || (unsigned)y >= (unsigned)s->h)
		return C_OUT;
	return s->opaque[y * s->w + x] ? C_WALL : C_FLOOR;
}

/* Longest row kept in a local array; rows are clipped to it (only reachable
 * with unlimited radius on maps over 500 cells a side). */
#define ROW_MAX 1024

/* Scans one row and, recursively, the rows behind it. */
static void scan_row(const struct scan *s, int depth, struct frac start, struct frac end)
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
		if (end.num * (2 * depth - 2) <= (2 * m - 1) * end.den && cell(s, depth, m - 1) != C_FLOOR &&
		    cell(s, depth - 1, m) != C_FLOOR)
			dark = true;
		/* start >= (2M + 1) / (2 depth - 2) */
		else if (start.num * (2 * depth - 2) >= (2 * M + 1) * start.den && cell(s, depth, M + 1) != C_FLOOR &&
			 cell(s, depth - 1, M) != C_FLOOR)
			dark = true;
	}
	/* Clip to the circle: what lies outside is neither seen nor casts a
	 * shadow on anything inside. */
	int lo = min_col, hi = max_col;
	if (s->lim) {
		int l = s->lim[depth];
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
	int x0 = s->ox + depth * s->xd + lo * s->xc;
	int y0 = s->oy + depth * s->yd + lo * s->yc;
	int fixed = s->xc ? y0 : x0, fixed_n = s->xc ? s->h : s->w;
	int pfixed = fixed - (s->xc ? s->yd : s->xd); /* the row before */
	int var = s->xc ? x0 : y0, var_n = s->xc ? s->w : s->h;
	ptrdiff_t step = s->xc ? 1 : s->w;
	ptrdiff_t back = s->xc ? (ptrdiff_t)s->yd * s->w : s->xd; /* one row nearer the eye */
	ptrdiff_t base = (ptrdiff_t)y0 * s->w + x0;  /* index of col lo */
	bool row_in = (unsigned)fixed < (unsigned)fixed_n;
	bool prow_in = (unsigned)pfixed < (unsigned)fixed_n;
	uint8_t st[ROW_MAX];
	if (!row_in) {
		memset(st, C_OUT, (size_t)n);
	} else {
		for (int i = 0; i < n; i++)
			st[i] = (unsigned)(var + i) >= (unsigned)var_n ? C_OUT
										: (s->opaque[base + i * step] ? C_WALL : C_FLOOR);
	}
	/* Whether the cell of the row before at index i anchors a bridge (any
	 * opaque cell but the eye's own). */
#define ANCHORS(i)                                                                                  \
	(!prow_in || (unsigned)(var + (i)) >= (unsigned)var_n ? true                                  \
	 : (depth == 1 && lo + (i) == 0)                   ? false                                 \
							   : s->opaque[base + (i) * step - back] != 0)
	/* Dark prefix: up to the last floor cell followed by a wall whose
	 * diagonal partner in the row before closes the gap. */
	int dark_to = -1; /* index */
	if (!dark)
		for (int i = 0; i + 1 < n; i++)
			if (st[i] == C_FLOOR && st[i + 1] != C_FLOOR && ANCHORS(i))
				dark_to = i;
	bool check_r = !s->lim && s->r2 >= 0;
	int prev = -1; /* none yet, or in the dark */
	for (int i = 0; i < n; i++) {
		int col = lo + i;
		int c = st[i];
		bool wall = c != C_FLOOR;
		/* Walls are lit as in Ford's algorithm (any part of them in the
		 * row's range), even behind a gap, so room corners show. */
		if (wall) {
			if (c == C_WALL && (!check_r || depth * depth + col * col <= s->r2))
				s->visible[base + i * step] = 1;
		} else if (prev > C_FLOOR && ANCHORS(i)) {
			dark = true; /* the rest of the row lies behind a bridge */
		}
		if (dark || i <= dark_to) {
			prev = -1;
			continue;
		}
		if (!wall) {
			/* symmetric: start <= col/depth <= end */
			if (col * start.den >= depth * start.num && col * end.den <= depth * end.num &&
			    (!check_r || depth * depth + col * col <= s->r2))
				s->visible[base + i * step] = 1;
			if (prev > C_FLOOR)
				start = (struct frac){ 2 * col - 1, 2 * depth };
		} else if (prev == C_FLOOR) {
			scan_row(s, depth + 1, start, (struct frac){ 2 * col - 1, 2 * depth });
		}
		prev = c;
	}
#undef ANCHORS
	if (prev == C_FLOOR)
		scan_row(s, depth + 1, start, end);
}

/* The general case of fov_light_walls: cell by cell. */
static void light_walls_slow(const uint8_t *opaque, int w, int h, int ox, int oy, int reach, int r2,
			     uint8_t *visible)
{
	int y0 = oy - reach < 0 ? 0 : oy - reach, y1 = oy + reach >= h ? h - 1 : oy + reach;
	for (int y = y0; y <= y1; y++) {
		int x0 = ox - reach < 0 ? 0 : ox - reach, x1 = ox + reach >= w ? w - 1 : ox + reach;
		for (int x = x0; x <= x1; x++) {
			if (!visible[y * w + x] || opaque[y * w + x])
				continue;
			for (int ny = y - 1; ny <= y + 1; ny++) {
				if (ny < 0 || ny >= h)
					continue;
				for (int nx = x - 1; nx <= x + 1; nx++) {
					if (nx < 0 || nx >= w)
						continue;
					int i = ny * w + nx;
					if (visible[i] || !opaque[i])
						continue;
					int ddx = nx - ox, ddy = ny - oy;
					if (r2 >= 0 && ddx * ddx + ddy * ddy > r2)
						continue;
					visible[i] = 1;
				}
			}
		}
	}
}

/* Largest radius handled with one 64-bit mask per row (2 * 30 + 1 bits). */
#define MASK_RADIUS 30

void fov_light_walls(const uint8_t *opaque, int w, int h, int ox, int oy, int radius, uint8_t *visible)
{
	if (w <= 0 || h <= 0 || ox < 0 || oy < 0 || ox >= w || oy >= h)
		return;
	int far = w > h ? w : h;
	int reach = radius >= 0 && radius < far ? radius : far;
	int r2 = radius >= 0 ? radius * radius + radius : -1;
	if (radius < 0 || reach > MASK_RADIUS) {
		light_walls_slow(opaque, w, h, ox, oy, reach, r2, visible);
		return;
	}
	/* Row masks over x in [ox - reach, ox + reach] (bit = x - ox + reach),
	 * rows oy - reach - 1 .. oy + reach + 1 (index + 1): floor[] = visible
	 * floor, dark[] = unlit walls inside the disc. A dark wall next to a
	 * visible floor (8-way) is the dilated floor mask AND dark. */
	uint64_t floor[2 * MASK_RADIUS + 3] = { 0 }, dark[2 * MASK_RADIUS + 3] = { 0 };
	int n = 2 * reach + 1;
	int span = reach;
	for (int j = 0; j < n; j++) {
		int y = oy - reach + j, dy = y - oy;
		while (span > 0 && span * span + dy * dy > r2)
			span--;
		while (span < reach && (span + 1) * (span + 1) + dy * dy <= r2)
			span++;
		if (y < 0 || y >= h)
			continue;
		int x0 = ox - span < 0 ? 0 : ox - span, x1 = ox + span >= w ? w - 1 : ox + span;
		const uint8_t *vrow = visible + y * w, *orow = opaque + y * w;
		uint64_t f = 0, d = 0;
		for (int x = x0; x <= x1; x++) { /* branch-free: the cells are noise to a predictor */
			unsigned v = vrow[x] != 0, o = orow[x] != 0;
			f |= (uint64_t)(v & !o) << (x - ox + reach);
			d |= (uint64_t)(o & !v) << (x - ox + reach);
		}
		floor[j + 1] = f;
		dark[j + 1] = d;
	}
	for (int j = 0; j < n; j++) {
		uint64_t near = floor[j] | floor[j + 1] | floor[j + 2];
		uint64_t lit = (near | near << 1 | near >> 1) & dark[j + 1];
		int y = oy - reach + j;
		while (lit) {
			int b = __builtin_ctzll(lit);
			lit &= lit - 1;
			visible[y * w + ox - reach + b] = 1;
		}
	}
}

void fov_compute(const uint8_t *opaque, int w, int h, int ox, int oy, int radius, uint8_t *visible)
{
	static const int tf[4][4] = {
		{ 0, 1, -1, 0 }, /* north: x = ox + col, y = oy - depth */
		{ 1, 0, 0, 1 },  /* east:  x = ox + depth, y = oy + col */
		{ 0, 1, 1, 0 },  /* south: x = ox + col, y = oy + depth */
		{ -1, 0, 0, 1 }, /* west:  x = ox - depth, y = oy + col */
	};
	if (w <= 0 || h <= 0)
		return;
	memset(visible, 0, (size_t)w * (size_t)h);
	if (ox < 0 || oy < 0 || ox >= w || oy >= h)
		return;
	visible[oy * w + ox] = 1;
	struct scan s = { .opaque = opaque, .visible = visible, .w = w, .h = h, .ox = ox, .oy = oy };
	int far = w > h ? w : h; /* no row beyond this can hold a cell of the map */
	int lim[LIM_MAX + 1];
	s.maxdepth = far;
	s.r2 = -1;
	if (radius >= 0) {
		s.r2 = radius * radius + radius;
		if (radius < s.maxdepth)
			s.maxdepth = radius;
		if (radius <= LIM_MAX) {
			int l = radius;
			for (int d = 0; d <= radius; d++) {
				while (l > 0 && d * d + l * l > s.r2)
					l--;
				lim[d] = l;
			}
			s.lim = lim;
		}
	}
	for (int q = 0; q < 4; q++) {
		s.xd = tf[q][0];
		s.xc = tf[q][1];
		s.yd = tf[q][2];
		s.yc = tf[q][3];
		scan_row(&s, 1, (struct frac){ -1, 1 }, (struct frac){ 1, 1 });
	}
}
