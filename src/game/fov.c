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

/* Scans one row and, recursively, the rows behind it. */
static void scan_row(const struct scan *s, int depth, struct frac start, struct frac end)
{
	if (s->radius >= 0 && depth > s->radius)
		return;
	/* round_ties_up(depth * start) .. round_ties_down(depth * end) */
	int min_col = floor_div(2 * depth * start.num + start.den, 2 * start.den);
	int max_col = ceil_div(2 * depth * end.num - end.den, 2 * end.den);
	int prev = -1; /* none yet */
	for (int col = min_col; col <= max_col; col++) {
		int c = cell(s, depth, col);
		bool wall = c != C_FLOOR;
		/* symmetric: start <= col/depth <= end */
		bool sym = col * start.den >= depth * start.num && col * end.den <= depth * end.num;
		if (wall || sym)
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
