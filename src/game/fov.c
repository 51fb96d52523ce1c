/* fov: symmetric shadowcasting (Albert Ford, 2021), with slopes as integer fractions.
 *
 * Each of the four quadrants is scanned row by row outwards from the origin.
 * A row is the set of cells at one depth (distance along the quadrant's
 * axis) between a start and an end slope. Floor cells are points at their
 * centres and are visible when their centre lies within the slopes
 * (is_symmetric, which makes the result symmetric); walls are lit when any
 * part of them is inside the row. Slopes are num/den fractions with den > 0. */
#include "game/fov.h"
#include <stdbool.h>
#include <string.h>

struct frac {
	int num, den;
};

struct scan {
	const uint8_t *opaque;
	uint8_t *visible;
	int w, h, ox, oy, radius;
	int quadrant; /* 0 north, 1 east, 2 south, 3 west */
};

/* Cell of the quadrant's (depth, col) in map coordinates. */
static void to_map(const struct scan *s, int depth, int col, int *x, int *y)
{
	switch (s->quadrant) {
	case 0: *x = s->ox + col; *y = s->oy - depth; break;
	case 1: *x = s->ox + depth; *y = s->oy + col; break;
	case 2: *x = s->ox + col; *y = s->oy + depth; break;
	default: *x = s->ox - depth; *y = s->oy + col; break;
	}
}

/* Floor division for den > 0. */
static int floor_div(int a, int b)
{
	int q = a / b;
	if ((a % b != 0) && (a < 0))
		q--;
	return q;
}

static int ceil_div(int a, int b)
{
	return -floor_div(-a, b);
}

/* Cell state: 0 = outside the map (opaque, never revealed), 1 = wall, 2 = floor. */
enum { C_OUT, C_WALL, C_FLOOR };

static int cell(const struct scan *s, int depth, int col)
{
	int x, y;
	to_map(s, depth, col, &x, &y);
	if (x < 0 || y < 0 || x >= s->w || y >= s->h)
		return C_OUT;
	return s->opaque[y * s->w + x] ? C_WALL : C_FLOOR;
}

static void reveal(const struct scan *s, int depth, int col)
{
	int x, y;
	to_map(s, depth, col, &x, &y);
	if (x < 0 || y < 0 || x >= s->w || y >= s->h)
		return;
	if (s->radius >= 0) {
		int dx = x - s->ox, dy = y - s->oy;
		if (dx * dx + dy * dy > s->radius * s->radius + s->radius)
			return;
	}
	s->visible[y * s->w + x] = 1;
}

/* Longest row a scan can meet: 2 * depth + 1 cells, depth <= max(w, h). */
#define ROW_MAX 1024

static bool blocks(int c)
{
	return c != C_FLOOR;
}

/* Whether the cell at (depth, col) can anchor a diagonal bridge: any
 * opaque cell except the origin itself (which is where the eye is). */
static bool anchors(const struct scan *s, int depth, int col)
{
	if (depth == 0 && col == 0)
		return false;
	return blocks(cell(s, depth, col));
}

/* Scans one row and, recursively, the rows behind it.
 *
 * Diagonal gaps: two walls that touch only at a corner are joined by a
 * "bridge" (the segment between their centres), and sight never crosses a
 * bridge. In a row this shows in two mirror-image ways, both checked against
 * the row before (depth - 1):
 *  - wall at col, floor at col + 1, wall at (depth - 1, col + 1): every ray
 *    left in the beam past col passes through the gap, so no floor in the
 *    rest of the row is visible and it casts nothing further;
 *  - floor at col, wall at col + 1, wall at (depth - 1, col): likewise every
 *    cell of the row up to col is behind the bridge (the beam cannot reach
 *    that floor otherwise), so that prefix shows no floor and casts nothing;
 *  - the same two cases with the first wall just outside the row's ends.
 * Walls are still lit by Ford's rule, so a room's corner (which lies behind
 * the bridge between its two neighbours) is drawn.
 * Both rules are geometric (a segment between two floor centres crosses a
 * bridge or it does not), so symmetry is kept; tests check it. */
static void scan_row(const struct scan *s, int depth, struct frac start, struct frac end)
{
	if (s->radius >= 0 && depth > s->radius)
		return;
	/* round_ties_up(depth * start) .. round_ties_down(depth * end) */
	int min_col = floor_div(2 * depth * start.num + start.den, 2 * start.den);
	int max_col = ceil_div(2 * depth * end.num - end.den, 2 * end.den);
	int n = max_col - min_col + 1;
	if (n <= 0)
		return;
	if (n > ROW_MAX)
		n = ROW_MAX; /* cannot happen for maps up to 511 cells a side */
	/* A bridge just outside either end of the row, anchored in the row
	 * before: the beam that reached this row passed under (or over) that
	 * row's wall, so if it also lies inside the gap, all of it is behind
	 * the bridge. (Depth 1 has no such case: its beam is the whole quadrant
	 * and row 0 holds only the eye and its neighbours.) */
	bool dark = false;
	if (depth >= 2) {
		int m = min_col, M = max_col;
		/* end <= (2m - 1) / (2 depth - 2) */
		if (blocks(cell(s, depth, m - 1)) && blocks(cell(s, depth - 1, m)) &&
		    end.num * (2 * depth - 2) <= (2 * m - 1) * end.den)
			dark = true;
		/* start >= (2M + 1) / (2 depth - 2) */
		if (blocks(cell(s, depth, M + 1)) && blocks(cell(s, depth - 1, M)) &&
		    start.num * (2 * depth - 2) >= (2 * M + 1) * start.den)
			dark = true;
	}
	uint8_t st[ROW_MAX];
	for (int i = 0; i < n; i++)
		st[i] = (uint8_t)cell(s, depth, min_col + i);
	/* Dark prefix: up to the last floor cell followed by a wall whose
	 * diagonal partner in the row before closes the gap. */
	int dark_to = -1; /* index */
	for (int i = 0; i + 1 < n && !dark; i++)
		if (st[i] == C_FLOOR && blocks(st[i + 1]) && anchors(s, depth - 1, min_col + i))
			dark_to = i;
	int prev = -1; /* none yet, or in the dark */
	for (int i = 0; i < n; i++) {
		int col = min_col + i;
		int c = st[i];
		bool wall = blocks(c);
		/* Walls are lit as in Ford's algorithm (any part of them in the
		 * row's range), even behind a gap, so room corners show. */
		if (wall)
			reveal(s, depth, col);
		if (!wall && prev >= 0 && prev != C_FLOOR && anchors(s, depth - 1, col))
			dark = true; /* the rest of the row lies behind a diagonal bridge */
		if (dark || i <= dark_to) {
			prev = -1;
			continue;
		}
		/* symmetric: start <= col/depth <= end */
		bool sym = col * start.den >= depth * start.num && col * end.den <= depth * end.num;
		if (!wall && sym)
			reveal(s, depth, col);
		if (prev >= 0 && prev != C_FLOOR && !wall)
			start = (struct frac){ 2 * col - 1, 2 * depth };
		if (prev == C_FLOOR && wall)
			scan_row(s, depth + 1, start, (struct frac){ 2 * col - 1, 2 * depth });
		prev = c;
	}
	if (prev == C_FLOOR)
		scan_row(s, depth + 1, start, end);
}

void fov_compute(const uint8_t *opaque, int w, int h, int ox, int oy, int radius, uint8_t *visible)
{
	if (w <= 0 || h <= 0)
		return;
	memset(visible, 0, (size_t)w * (size_t)h);
	if (ox < 0 || oy < 0 || ox >= w || oy >= h)
		return;
	visible[oy * w + ox] = 1;
	struct scan s = { opaque, visible, w, h, ox, oy, radius, 0 };
	for (int q = 0; q < 4; q++) {
		s.quadrant = q;
		scan_row(&s, 1, (struct frac){ -1, 1 }, (struct frac){ 1, 1 });
	}
}
