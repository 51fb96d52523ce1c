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
 * cave: cellular automaton (the RogueBasin recipe): 45% of the inside walls
 *   at random, four rounds of "wall if 5+ walls in the 3x3 block or at most
 *   2 in the 5x5 block" then three of "wall if 5+ in the 3x3 block"; only
 *   the largest 8-connected region is kept (tried again while it holds less
 *   than 30% of the inside; after 50 tries the classic generator is used).
 *   Rooms, for spawning, are 7x7 patches centred on the floor cell nearest
 *   the centre of each block of a 5x3 grid holding 12+ floor cells.
 *
 * Stairs: up stairs at the centre of the first room (floors 2+), down stairs
 * at the centre of the last room (as in the tutorial); should that be the
 * start cell, the walkable cell farthest from the start (first in scan order
 * on ties) takes the down stairs instead.
 * Connectivity: every room's centre lies in its interior and every tunnel
 * joins two centres, so all floor is one 4-connected region; a cave keeps
 * one 8-connected region, which opening its squeezes makes 4-connected.
 * Diagonal squeezes (two floor cells touching only at a corner between two
 * walls) are opened by turning one of the walls into floor, so a floor
 * never has a passage that sight (game/fov.h) does not follow. */
#include "game/mapgen.h"
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[MAPGEN_COUNT] = {
	[MAPGEN_CLASSIC] = "classic",
	[MAPGEN_OVERLAP] = "overlap",
	[MAPGEN_CAVE] = "cave",
};

/* Rooms-and-tunnels generators. */
struct rooms_params {
	int attempts;       /* rooms tried */
	int min_w, max_w;   /* wall-to-wall width (interior = this - 1) */
	int min_h, max_h;
	bool keep_overlap;  /* overlapping rooms kept (else dropped) */
	bool random_bend;   /* tunnel bend chosen at random (else horizontal first) */
};

static const struct rooms_params rooms_params[] = {
	[MAPGEN_CLASSIC] = { .attempts = 30, .min_w = 6, .max_w = 10, .min_h = 6, .max_h = 10,
			     .keep_overlap = false, .random_bend = true },
	[MAPGEN_OVERLAP] = { .attempts = 16, .min_w = 5, .max_w = 15, .min_h = 4, .max_h = 10,
			     .keep_overlap = true, .random_bend = false },
};

/* The cave generator. */
static const struct {
	int fill_pct;              /* walls at the start, percent of the inside */
	int rounds_open, rounds;   /* rounds with the 5x5 rule, then without */
	int min_region_pct;        /* smallest kept region, percent of the inside */
	int tries;                 /* before falling back to classic */
	int blocks_x, blocks_y;    /* spawning grid */
	int block_min_floor;       /* floor cells for a block to get a room */
	int room_half;             /* room patch: (2 * half + 1) a side */
} cave = { 45, 4, 3, 30, 50, 5, 3, 12, 3 };

int mapgen_parse(const char *name, enum mapgen_kind *out)
{
	if (!name)
		return -EINVAL;
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		if (strcmp(name, names[k]) == 0) {
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
	return names[k];
}

static void carve_room(struct map *m, const struct room *r)
{
	for (int y = r->y; y < r->y + r->h; y++)
		for (int x = r->x; x < r->x + r->w; x++)
			map_set(m, x, y, TILE_FLOOR);
}

/* Carves the straight corridor from (x0, y0) to (x1, y1), which share a
 * row or a column. */
static void carve_line(struct map *m, int x0, int y0, int x1, int y1)
{
	struct room r = {x0 < x1 ? x0 : x1, y0 < y1 ? y0 : y1, abs(x1 - x0) + 1, abs(y1 - y0) + 1};
	carve_room(m, &r);
}

/* L-shaped tunnel between two room centres. */
static void tunnel(struct map *m, const struct room *a, const struct room *b, bool horizontal_first)
{
	int ax, ay, bx, by;
	map_room_center(a, &ax, &ay);
	map_room_center(b, &bx, &by);
	if (horizontal_first) { /* bend at (bx, ay) */
		carve_line(m, ax, ay, bx, ay);
		carve_line(m, bx, ay, bx, by);
	} else { /* bend at (ax, by) */
		carve_line(m, ax, ay, ax, by);
		carve_line(m, ax, by, bx, by);
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
	int32_t dist[MAP_MAX_CELLS];
	int32_t queue[MAP_MAX_CELLS];
	int qh = 0, qt = 0, n = m->w * m->h;
	for (int i = 0; i < n; i++)
		dist[i] = -1;
	dist[sy * m->w + sx] = 0;
	queue[qt++] = (int32_t)(sy * m->w + sx);
	while (qh < qt) {
		int u = queue[qh++];
		int ux = u % m->w, uy = u / m->w;
		for (int k = 0; k < 4; k++) {
			int vx = ux + dx[k], vy = uy + dy[k];
			if (!map_walkable(m, vx, vy) || dist[vy * m->w + vx] >= 0)
				continue;
			dist[vy * m->w + vx] = (int32_t)(dist[u] + 1);
			queue[qt++] = (int32_t)(vy * m->w + vx);
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

/* Rooms joined by tunnels (classic, overlap). */
static void gen_rooms(struct map *m, const struct rooms_params *p, struct rng *r)
{
	/* as many tries per cell as on the default floor when it is larger */
	long area = (long)m->w * m->h, attempts = p->attempts;
	if (area > MAP_W * MAP_H)
		attempts = attempts * area / (MAP_W * MAP_H);
	for (long i = 0; i < attempts && m->nrooms < MAP_MAX_ROOMS; i++) {
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
	/* The first attempt always succeeds, so there is at least one room. */
}

/* One cave attempt: returns the size of the region kept. */
static int cave_attempt(struct map *m, struct rng *r)
{
	int w = m->w, h = m->h;
	/* The automaton runs on a copy padded by 2 cells of wall on every side
	 * (1 = wall), with a summed-area table for the 3x3 and 5x5 counts:
	 * sat[y][x] = walls in padded rows < y, columns < x. */
	enum { PAD = 2 };
	const int PW = w + 2 * PAD, PH = h + 2 * PAD, SW = PW + 1;
	uint8_t g[(MAP_MAX_H + 2 * PAD) * (MAP_MAX_W + 2 * PAD)];
	uint16_t sat[(MAP_MAX_H + 2 * PAD + 1) * (MAP_MAX_W + 2 * PAD + 1)];
	memset(g, 1, (size_t)(PH * PW));
	for (int y = 1; y < h - 1; y++)
		for (int x = 1; x < w - 1; x++)
			g[(y + PAD) * PW + x + PAD] = rng_range(r, 0, 99) < cave.fill_pct;
	for (int round = 0; round < cave.rounds_open + cave.rounds; round++) {
		memset(sat, 0, SW * sizeof(sat[0]));
		for (int y = 1; y <= PH; y++) {
			int rowsum = 0;
			sat[y * SW] = 0;
			for (int x = 1; x <= PW; x++) {
				rowsum += g[(y - 1) * PW + x - 1];
				sat[y * SW + x] = (uint16_t)(sat[(y - 1) * SW + x] + rowsum);
			}
		}
		/* walls in the block of radius rr around padded (px, py) */
#define BLOCK(px, py, rr)                                                                           \
	(sat[((py) + (rr) + 1) * SW + (px) + (rr) + 1] - sat[((py) - (rr)) * SW + (px) + (rr) + 1] -       \
	 sat[((py) + (rr) + 1) * SW + (px) - (rr)] + sat[((py) - (rr)) * SW + (px) - (rr)])
		/* every cell reads only sat, so g can be rewritten in place */
		for (int y = 1 + PAD; y < h - 1 + PAD; y++) {
			for (int x = 1 + PAD; x < w - 1 + PAD; x++) {
				bool wall = BLOCK(x, y, 1) >= 5;
				if (round < cave.rounds_open && BLOCK(x, y, 2) <= 2)
					wall = true;
				g[y * PW + x] = wall;
			}
		}
#undef BLOCK
	}
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			m->tile[y * w + x] = g[(y + PAD) * PW + x + PAD] ? TILE_WALL : TILE_FLOOR;
	/* label 8-connected regions; keep the largest (first found on ties) */
	int32_t label[MAP_MAX_CELLS];
	int32_t queue[MAP_MAX_CELLS];
	int best = -1, best_size = 0, nlabels = 0;
	for (int i = 0; i < w * h; i++)
		label[i] = -1;
	for (int i = 0; i < w * h; i++) {
		if (m->tile[i] == TILE_WALL || label[i] >= 0)
			continue;
		int qh = 0, qt = 0;
		label[i] = (int32_t)nlabels;
		queue[qt++] = (int32_t)i;
		while (qh < qt) { /* floor lies inside the wall border: no bounds to check */
			int u = queue[qh++];
			static const int dx8[8] = { -1, 0, 1, -1, 1, -1, 0, 1 }, dy8[8] = { -1, -1, -1, 0, 0, 1, 1, 1 };
			for (int k = 0; k < 8; k++) {
				int v = u + dy8[k] * w + dx8[k];
				if (m->tile[v] == TILE_WALL || label[v] >= 0)
					continue;
				label[v] = (int32_t)nlabels;
				queue[qt++] = (int32_t)v;
			}
		}
		if (qt > best_size) {
			best_size = qt;
			best = nlabels;
		}
		nlabels++;
	}
	for (int i = 0; i < w * h; i++)
		if (label[i] != best)
			m->tile[i] = TILE_WALL;
	return best_size;
}

/* Rooms for a cave: a patch around the floor cell nearest each block's centre. */
static void cave_rooms(struct map *m)
{
	int iw = m->w - 2, ih = m->h - 2;
	for (int by = 0; by < cave.blocks_y; by++) {
		for (int bx = 0; bx < cave.blocks_x; bx++) {
			int x0 = 1 + bx * iw / cave.blocks_x, x1 = 1 + (bx + 1) * iw / cave.blocks_x;
			int y0 = 1 + by * ih / cave.blocks_y, y1 = 1 + (by + 1) * ih / cave.blocks_y;
			int mx = (x0 + x1 - 1) / 2, my = (y0 + y1 - 1) / 2;
			int floors = 0, cx = -1, cy = -1, bestd = 1 << 30;
			for (int y = y0; y < y1; y++)
				for (int x = x0; x < x1; x++) {
					if (m->tile[y * m->w + x] == TILE_WALL)
						continue;
					floors++;
					int d = (x - mx) * (x - mx) + (y - my) * (y - my);
					if (d < bestd) {
						bestd = d;
						cx = x;
						cy = y;
					}
				}
			if (floors < cave.block_min_floor || m->nrooms >= MAP_MAX_ROOMS)
				continue;
			/* a square room, each half clipped to the map on its own */
			/* cppcheck-suppress duplicateAssignExpression */
			int hx = cave.room_half, hy = cave.room_half;
			if (hx > cx - 1)
				hx = cx - 1;
			if (hx > m->w - 2 - cx)
				hx = m->w - 2 - cx;
			if (hy > cy - 1)
				hy = cy - 1;
			if (hy > m->h - 2 - cy)
				hy = m->h - 2 - cy;
			m->rooms[m->nrooms++] = (struct room){ cx - hx, cy - hy, 2 * hx + 1, 2 * hy + 1 };
		}
	}
}

/* A cave; false if no attempt kept enough (m is then left for the caller to redo). */
static bool gen_cave(struct map *m, struct rng *r)
{
	int inside = (m->w - 2) * (m->h - 2);
	for (int t = 0; t < cave.tries; t++) {
		if (cave_attempt(m, r) * 100 < inside * cave.min_region_pct)
			continue;
		cave_rooms(m);
		if (m->nrooms > 0)
			return true;
	}
	return false;
}

int mapgen_generate(struct map *m, enum mapgen_kind k, int depth, struct rng *r)
{
	return mapgen_generate_size(m, k, depth, MAP_W, MAP_H, r);
}

int mapgen_generate_size(struct map *m, enum mapgen_kind k, int depth, int w, int h, struct rng *r)
{
	if (!m || !r || (int)k < 0 || k >= MAPGEN_COUNT || depth < 1 || !map_size_ok(w, h))
		return -EINVAL;
	map_init_size(m, w, h);
	if (k == MAPGEN_CAVE) {
		if (!gen_cave(m, r)) {
			map_init_size(m, w, h);
			gen_rooms(m, &rooms_params[MAPGEN_CLASSIC], r);
		}
	} else {
		gen_rooms(m, &rooms_params[k], r);
	}
	open_squeezes(m);
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
