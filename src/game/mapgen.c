/* mapgen: dungeon floor generators.
 *
 * classic: the Complete Roguelike Tutorial's generator (python-tcod part 3):
 *   up to 30 attempts at a room whose rectangle measures 6..10 cells from its
 *   left wall to its right wall (and top to bottom), so its interior is 5..9
 *   cells a side; a room touching or intersecting an earlier one is dropped;
 *   each new room is joined to the previous one by an L-shaped 1-wide tunnel
 *   between the centres, horizontal-first or vertical-first at random.
 * overlap: the Phaser tutorial's variant: every room is kept even where it
 *   overlaps others (which merges them into irregular halls), room sizes
 *   scaled from its 20x15 grid to 80x43, 16 rooms, tunnels horizontal-first.
 *
 * Stairs: up stairs at the centre of the first room (floors 2+), down stairs
 * at the centre of the last room (as in the tutorial); should that be the
 * start cell, the walkable cell farthest from the start (first in scan order
 * on ties) takes the down stairs instead.
 * Connectivity: every room's centre lies in its interior and every tunnel
 * joins two centres, so all floor is one 4-connected region.
 * Diagonal squeezes (two floor cells touching only at a corner between two
 * walls) are opened by turning one of the walls into floor, so a floor
 * never has a passage that sight (game/fov.h) does not follow. */
#include "game/mapgen.h"
#include <errno.h>
#include <stdbool.h>
#include <string.h>

struct mapgen_params {
	const char *name;
	int attempts;       /* rooms tried */
	int min_w, max_w;   /* wall-to-wall width (interior = this - 1) */
	int min_h, max_h;
	bool keep_overlap;  /* overlapping rooms kept (else dropped) */
	bool random_bend;   /* tunnel bend chosen at random (else horizontal first) */
};

static const struct mapgen_params params[MAPGEN_COUNT] = {
	[MAPGEN_CLASSIC] = { .name = "classic", .attempts = 30, .min_w = 6, .max_w = 10,
			     .min_h = 6, .max_h = 10, .keep_overlap = false, .random_bend = true },
	[MAPGEN_OVERLAP] = { .name = "overlap", .attempts = 16, .min_w = 5, .max_w = 15,
			     .min_h = 4, .max_h = 10, .keep_overlap = true, .random_bend = false },
};

int mapgen_parse(const char *name, enum mapgen_kind *out)
{
	if (!name)
		return -EINVAL;
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		if (strcmp(name, params[k].name) == 0) {
			*out = (enum mapgen_kind)k;
			return 0;
		}
	}
	return -EINVAL;
}

const char *mapgen_name(enum mapgen_kind k)
{
	if ((int)k < 0 || k >= MAPGEN_COUNT)
		return "?";
	return params[k].name;
}

static void carve_room(struct map *m, const struct room *r)
{
	for (int y = r->y; y < r->y + r->h; y++)
		for (int x = r->x; x < r->x + r->w; x++)
			map_set(m, x, y, TILE_FLOOR);
}

static void carve_h(struct map *m, int x0, int x1, int y)
{
	if (x0 > x1) {
		int t = x0;
		x0 = x1;
		x1 = t;
	}
	for (int x = x0; x <= x1; x++)
		map_set(m, x, y, TILE_FLOOR);
}

static void carve_v(struct map *m, int y0, int y1, int x)
{
	if (y0 > y1) {
		int t = y0;
		y0 = y1;
		y1 = t;
	}
	for (int y = y0; y <= y1; y++)
		map_set(m, x, y, TILE_FLOOR);
}

/* L-shaped tunnel between two room centres. */
static void tunnel(struct map *m, const struct room *a, const struct room *b, bool horizontal_first)
{
	int ax, ay, bx, by;
	map_room_center(a, &ax, &ay);
	map_room_center(b, &bx, &by);
	if (horizontal_first) { /* bend at (bx, ay) */
		carve_h(m, ax, bx, ay);
		carve_v(m, ay, by, bx);
	} else { /* bend at (ax, by) */
		carve_v(m, ay, by, ax);
		carve_h(m, ax, bx, by);
	}
}

/* Outer rectangles (walls included) of two interiors touch or intersect. */
static bool rooms_meet(const struct room *a, const struct room *b)
{
	return a->x - 1 <= b->x + b->w && a->x + a->w >= b->x - 1 &&
	       a->y - 1 <= b->y + b->h && a->y + a->h >= b->y - 1;
}

/* The walkable cell farthest (4-way steps) from (sx,sy); first in scan order on ties. */
static void farthest_cell(const struct map *m, int sx, int sy, int *fx, int *fy)
{
	static const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
	int16_t dist[MAP_H * MAP_W];
	int16_t queue[MAP_H * MAP_W];
	int qh = 0, qt = 0, n = m->w * m->h;
	for (int i = 0; i < n; i++)
		dist[i] = -1;
	dist[sy * m->w + sx] = 0;
	queue[qt++] = (int16_t)(sy * m->w + sx);
	while (qh < qt) {
		int u = queue[qh++];
		int ux = u % m->w, uy = u / m->w;
		for (int k = 0; k < 4; k++) {
			int vx = ux + dx[k], vy = uy + dy[k];
			if (!map_walkable(m, vx, vy) || dist[vy * m->w + vx] >= 0)
				continue;
			dist[vy * m->w + vx] = (int16_t)(dist[u] + 1);
			queue[qt++] = (int16_t)(vy * m->w + vx);
		}
	}
	int best = 0;
	*fx = sx;
	*fy = sy;
	for (int i = 0; i < n; i++) {
		if (dist[i] > best) {
			best = dist[i];
			*fx = i % m->w;
			*fy = i / m->w;
		}
	}
}

/* Opens every diagonal squeeze: in a 2x2 block whose floors touch only at
 * a corner, the upper wall becomes floor. Repeats until none is left (each
 * pass only adds floor, so it ends). Never touches the map's border. */
static void open_squeezes(struct map *m)
{
	bool again = true;
	while (again) {
		again = false;
		for (int y = 1; y + 2 < m->h; y++) {
			const uint8_t *row = &m->tile[y * m->w];
			const uint8_t *below = row + m->w;
			for (int x = 1; x + 2 < m->w; x++) {
				bool a = row[x] != TILE_WALL, b = row[x + 1] != TILE_WALL;
				bool c = below[x] != TILE_WALL, d = below[x + 1] != TILE_WALL;
				if (a == d && b == c && a != b) {
					/* a squeeze: open its upper wall */
					map_set(m, a ? x + 1 : x, y, TILE_FLOOR);
					again = true;
				}
			}
		}
	}
}

int mapgen_generate(struct map *m, enum mapgen_kind k, int depth, struct rng *r)
{
	if (!m || !r || (int)k < 0 || k >= MAPGEN_COUNT || depth < 1)
		return -EINVAL;
	const struct mapgen_params *p = &params[k];
	map_init(m);
	for (int i = 0; i < p->attempts && m->nrooms < MAP_MAX_ROOMS; i++) {
		int w = rng_range(r, p->min_w, p->max_w);
		int h = rng_range(r, p->min_h, p->max_h);
		int x = rng_range(r, 0, m->w - w - 1);
		int y = rng_range(r, 0, m->h - h - 1);
		/* outer rectangle x..x+w, y..y+h; interior inside it */
		struct room nr = { x + 1, y + 1, w - 1, h - 1 };
		bool meets = false;
		for (int j = 0; j < m->nrooms && !meets; j++)
			meets = rooms_meet(&nr, &m->rooms[j]);
		if (meets && !p->keep_overlap)
			continue;
		carve_room(m, &nr);
		if (m->nrooms > 0) {
			bool hfirst = p->random_bend ? rng_range(r, 0, 1) == 0 : true;
			tunnel(m, &m->rooms[m->nrooms - 1], &nr, hfirst);
		}
		m->rooms[m->nrooms++] = nr;
	}
	open_squeezes(m);
	/* The first attempt always succeeds, so there is at least one room. */
	int sx, sy;
	map_room_center(&m->rooms[0], &sx, &sy);
	if (depth > 1) {
		m->up_x = sx;
		m->up_y = sy;
		map_set(m, sx, sy, TILE_STAIRS_UP);
	}
	int dx, dy;
	map_room_center(&m->rooms[m->nrooms - 1], &dx, &dy);
	if (dx == sx && dy == sy)
		farthest_cell(m, sx, sy, &dx, &dy);
	m->down_x = dx;
	m->down_y = dy;
	map_set(m, dx, dy, TILE_STAIRS_DOWN);
	return 0;
}
