#include "testutil.h"
#include "game/fov.h"
#include "game/map.h"
#include "game/mapgen.h"
#include "core/rng.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A hand-made map as text: '#' wall, '.' floor, '@' the origin (floor).
 * The expected picture shows what is visible: visible cells keep their
 * character, hidden ones are spaces. */
#define HMAX 16
#define WMAX 32

struct hmap {
	int w, h, ox, oy;
	uint8_t opaque[HMAX * WMAX];
	char ch[HMAX * WMAX];
};

static void parse(struct hmap *m, const char *const *rows)
{
	memset(m, 0, sizeof(*m));
	m->ox = m->oy = -1;
	for (m->h = 0; rows[m->h]; m->h++) {
		int len = (int)strlen(rows[m->h]);
		if (m->h == 0)
			m->w = len;
		assert_int_equal(len, m->w);
		for (int x = 0; x < len; x++) {
			char c = rows[m->h][x];
			m->ch[m->h * m->w + x] = c;
			m->opaque[m->h * m->w + x] = c == '#';
			if (c == '@') {
				m->ox = x;
				m->oy = m->h;
			}
		}
	}
	assert_true(m->ox >= 0);
}

/* Renders what fov_compute shows into out (h lines of w chars, '\n' after each). */
static void render(const struct hmap *m, int radius, char *out)
{
	uint8_t vis[HMAX * WMAX];
	fov_compute(m->opaque, m->w, m->h, m->ox, m->oy, radius, vis);
	char *p = out;
	for (int y = 0; y < m->h; y++) {
		for (int x = 0; x < m->w; x++)
			*p++ = vis[y * m->w + x] ? m->ch[y * m->w + x] : ' ';
		*p++ = '\n';
	}
	*p = 0;
}

static void expect(const char *const *rows, int radius, const char *const *want)
{
	struct hmap m;
	parse(&m, rows);
	char got[HMAX * (WMAX + 1) + 1], exp[HMAX * (WMAX + 1) + 1];
	render(&m, radius, got);
	char *p = exp;
	for (int y = 0; want[y]; y++) {
		size_t n = strlen(want[y]);
		memcpy(p, want[y], n);
		p += n;
		*p++ = '\n';
	}
	*p = 0;
	if (strcmp(got, exp) != 0)
		print_message("got:\n%s\nwanted:\n%s\n", got, exp);
	assert_string_equal(got, exp);
}

static void test_open_room_radius(void **st)
{
	(void)st;
	/* radius 2: dx*dx+dy*dy <= 2*2+2 = 6, a round disc, walls out of reach */
	static const char *const map[] = {
		"#########",
		"#.......#",
		"#.......#",
		"#...@...#",
		"#.......#",
		"#.......#",
		"#########", NULL };
	static const char *const want[] = {
		"         ",
		"   ...   ",
		"  .....  ",
		"  ..@..  ",
		"  .....  ",
		"   ...   ",
		"         ", NULL };
	expect(map, 2, want);
	/* unlimited: a convex room shows all of itself and all its walls */
	expect(map, -1, map);
	expect(map, 8, map);
}

static void test_corridor_radius(void **st)
{
	(void)st;
	static const char *const map[] = {
		"#############",
		"#@..........#",
		"#############", NULL };
	/* radius 3: (3,0) in (9 <= 12), (3,1) in (10), (4,0) out (16) */
	static const char *const want[] = {
		"#####        ",
		"#@...        ",
		"#####        ", NULL };
	expect(map, 3, want);
}

static void test_doorway_cone(void **st)
{
	(void)st;
	/* Looking out of a corridor into a room: a widening cone. (4,3) is
	 * hidden because the line to it passes inside the wall at (4,4);
	 * (4,2) is seen because its line only grazes that wall's corner. */
	static const char *const map[] = {
		"###########",
		"#.........#",
		"#.........#",
		"#.........#",
		"#####.#####",
		"    #.#    ",
		"    #@#    ",
		"    ###    ", NULL };
	static const char *const want[] = {
		"    ###    ",
		"    ...    ",
		"    ...    ",
		"     .     ",
		"    #.#    ",
		"    #.#    ",
		"    #@#    ",
		"    ###    ", NULL };
	expect(map, -1, want);
}

static void test_pillars(void **st)
{
	(void)st;
	/* A lone pillar casts a shadow straight behind it (the cells whose
	 * line passes through its centre), widening with distance. */
	static const char *const map[] = {
		"##########",
		"#........#",
		"#...#....#",
		"#........#",
		"#.@......#",
		"##########", NULL };
	static const char *const want[] = {
		"###### ###",
		"#.... ...#",
		"#...#....#",
		"#........#",
		"#.@......#",
		"##########", NULL };
	expect(map, -1, want);
	/* A block of wall next to the eye: the room corner behind it is hidden */
	static const char *const map2[] = {
		"######",
		"#....#",
		"#.##.#",
		"#.#@.#",
		"#....#",
		"######", NULL };
	static const char *const want2[] = {
		"     #",
		"    .#",
		"  ##.#",
		"  #@.#",
		" ....#",
		"######", NULL };
	expect(map2, -1, want2);
}

static void test_room_corner(void **st)
{
	(void)st;
	/* Standing at the end of a corridor that runs along a room's outer
	 * wall into the room: the corridor is a narrow beam, so the room's
	 * cells beside the corridor mouth stay hidden ((7,2): its line passes
	 * inside the wall at (6,2)), while the far wall (9,2) is lit by the
	 * edge of the beam. */
	static const char *const map[] = {
		"##########",
		"#@.......#",
		"#######..#",
		"      #..#",
		"      #..#",
		"      ####", NULL };
	static const char *const want[] = {
		"##########",
		"#@.......#",
		"#######  #",
		"          ",
		"          ",
		"          ", NULL };
	expect(map, -1, want);
	/* One step into the room: the whole room and its walls. */
	static const char *const map2[] = {
		"##########",
		"#.......@#",
		"#######..#",
		"      #..#",
		"      #..#",
		"      ####", NULL };
	expect(map2, -1, map2);
}

/* The diagonal gap between two walls touching at a corner, in all eight
 * orientations: the cell through the gap and everything behind it stay
 * hidden; the two walls themselves are lit. */
static void test_diagonal_gap(void **st)
{
	(void)st;
	static const char *const base[] = {
		"#######",
		"#@#...#",
		"##....#",
		"#.....#",
		"#.....#",
		"#######", NULL };
	struct hmap m;
	parse(&m, base);
	for (int t = 0; t < 8; t++) {
		/* transform: t&1 mirror x, t&2 mirror y, t&4 transpose */
		struct hmap n;
		memset(&n, 0, sizeof(n));
		n.w = (t & 4) ? m.h : m.w;
		n.h = (t & 4) ? m.w : m.h;
		for (int y = 0; y < m.h; y++) {
			for (int x = 0; x < m.w; x++) {
				int tx = (t & 1) ? m.w - 1 - x : x;
				int ty = (t & 2) ? m.h - 1 - y : y;
				if (t & 4) {
					int s = tx;
					tx = ty;
					ty = s;
				}
				n.ch[ty * n.w + tx] = m.ch[y * m.w + x];
				n.opaque[ty * n.w + tx] = m.opaque[y * m.w + x];
				if (x == m.ox && y == m.oy) {
					n.ox = tx;
					n.oy = ty;
				}
			}
		}
		uint8_t vis[HMAX * WMAX];
		fov_compute(n.opaque, n.w, n.h, n.ox, n.oy, -1, vis);
		for (int y = 0; y < n.h; y++) {
			for (int x = 0; x < n.w; x++) {
				int dx = abs(x - n.ox), dy = abs(y - n.oy);
				/* visible: the origin and the 8 cells around it (all walls
				 * but the one through the gap); nothing else */
				bool want = dx <= 1 && dy <= 1 && !(dx == 1 && dy == 1 && !n.opaque[y * n.w + x]);
				if (vis[y * n.w + x] != want)
					print_message("orientation %d cell %d,%d\n", t, x, y);
				assert_int_equal(vis[y * n.w + x], want);
			}
		}
	}
	/* A gap farther off: walls (5,3) and (4,4) touch at a corner; (5,4)
	 * lies behind that gap, and so does everything past it. (Plain Ford
	 * shadowcasting would show (5,4), (6,5) and (7,5) through the gap.) */
	static const char *const map[] = {
		"########",
		"#@.....#",
		"#......#",
		"#....#.#",
		"#...#..#",
		"#......#",
		"########", NULL };
	static const char *const want[] = {
		"########",
		"#@.....#",
		"#......#",
		"#....# #",
		"#...#   ",
		"#....   ",
		"######  ", NULL };
	expect(map, -1, want);
}

static void test_edges_and_bad_input(void **st)
{
	(void)st;
	/* No walls at all: the array edge bounds the view, nothing is written
	 * outside it, and everything in radius is seen. */
	uint8_t op[5 * 4] = { 0 }, vis[5 * 4 + 1];
	vis[20] = 0xAA;
	fov_compute(op, 5, 4, 0, 0, -1, vis);
	for (int i = 0; i < 20; i++)
		assert_int_equal(vis[i], 1);
	assert_int_equal(vis[20], 0xAA);
	/* radius 0: the origin only */
	fov_compute(op, 5, 4, 2, 2, 0, vis);
	for (int i = 0; i < 20; i++)
		assert_int_equal(vis[i], i == 2 * 5 + 2);
	/* origin off the array: nothing visible */
	memset(vis, 7, 20);
	fov_compute(op, 5, 4, 5, 0, 8, vis);
	for (int i = 0; i < 20; i++)
		assert_int_equal(vis[i], 0);
	/* an opaque origin still sees itself */
	op[2 * 5 + 2] = 1;
	fov_compute(op, 5, 4, 2, 2, 8, vis);
	assert_int_equal(vis[2 * 5 + 2], 1);
	/* empty array: nothing touched */
	vis[0] = 9;
	fov_compute(op, 0, 4, 0, 0, 8, vis);
	assert_int_equal(vis[0], 9);
}

/* For every floor cell A, the view from A; then A sees B <=> B sees A for
 * every pair of floor cells. Also checks the radius bound and that the
 * origin is always seen. */
static void check_symmetry(const uint8_t *opaque, int w, int h, int radius)
{
	int n = w * h;
	uint8_t *all = calloc((size_t)n * (size_t)n, 1);
	assert_non_null(all);
	int floors = 0;
	for (int i = 0; i < n; i++) {
		if (opaque[i])
			continue;
		floors++;
		uint8_t *v = all + (size_t)i * (size_t)n;
		fov_compute(opaque, w, h, i % w, i / w, radius, v);
		assert_int_equal(v[i], 1);
		for (int j = 0; j < n; j++) {
			if (!v[j] || radius < 0)
				continue;
			int dx = j % w - i % w, dy = j / w - i / w;
			assert_true(dx * dx + dy * dy <= radius * radius + radius);
		}
	}
	assert_true(floors > 0);
	long pairs = 0;
	for (int i = 0; i < n; i++) {
		if (opaque[i])
			continue;
		for (int j = i + 1; j < n; j++) {
			if (opaque[j])
				continue;
			uint8_t ab = all[(size_t)i * (size_t)n + (size_t)j];
			uint8_t ba = all[(size_t)j * (size_t)n + (size_t)i];
			if (ab != ba)
				print_message("asymmetric: (%d,%d) %s (%d,%d)\n", i % w, i / w,
					      ab ? "sees" : "does not see", j % w, j / w);
			assert_int_equal(ab, ba);
			pairs += ab;
		}
	}
	assert_true(pairs > 0);
	free(all);
}

static void test_symmetry_generated_maps(void **st)
{
	(void)st;
	struct map m;
	struct rng r;
	uint8_t op[MAP_W * MAP_H];
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		for (uint64_t seed = 1; seed <= 3; seed++) {
			rng_seed(&r, seed * 7919 + (uint64_t)k);
			assert_int_equal(mapgen_generate(&m, (enum mapgen_kind)k, (int)seed, &r), 0);
			map_opacity(&m, op);
			check_symmetry(op, m.w, m.h, 8);
		}
	}
}

/* Exact integer test: do the closed segments ab and cd meet? */
static int orient(int ax, int ay, int bx, int by, int cx, int cy)
{
	long v = (long)(bx - ax) * (cy - ay) - (long)(by - ay) * (cx - ax);
	return (v > 0) - (v < 0);
}

static bool within(int ax, int ay, int bx, int by, int cx, int cy)
{
	return cx >= (ax < bx ? ax : bx) && cx <= (ax > bx ? ax : bx) &&
	       cy >= (ay < by ? ay : by) && cy <= (ay > by ? ay : by);
}

static bool segments_meet(int ax, int ay, int bx, int by, int cx, int cy, int dx, int dy)
{
	int o1 = orient(ax, ay, bx, by, cx, cy), o2 = orient(ax, ay, bx, by, dx, dy);
	int o3 = orient(cx, cy, dx, dy, ax, ay), o4 = orient(cx, cy, dx, dy, bx, by);
	if (o1 != o2 && o3 != o4)
		return true;
	return (!o1 && within(ax, ay, bx, by, cx, cy)) || (!o2 && within(ax, ay, bx, by, dx, dy)) ||
	       (!o3 && within(cx, cy, dx, dy, ax, ay)) || (!o4 && within(cx, cy, dx, dy, bx, by));
}

static bool opaque_at(const uint8_t *op, int w, int h, int x, int y)
{
	return x < 0 || y < 0 || x >= w || y >= h || op[y * w + x];
}

/* Does the line between the centres of a and b cross the segment joining
 * two walls that touch at a corner (a diagonal gap)? */
static bool crosses_gap(const uint8_t *op, int w, int h, int ax, int ay, int bx, int by)
{
	int x0 = (ax < bx ? ax : bx) - 1, x1 = (ax > bx ? ax : bx) + 1;
	int y0 = (ay < by ? ay : by) - 1, y1 = (ay > by ? ay : by) + 1;
	for (int y = y0; y <= y1; y++) {
		for (int x = x0; x <= x1; x++) {
			if (!opaque_at(op, w, h, x, y))
				continue;
			if (opaque_at(op, w, h, x + 1, y + 1) && segments_meet(ax, ay, bx, by, x, y, x + 1, y + 1))
				return true;
			if (opaque_at(op, w, h, x + 1, y - 1) && segments_meet(ax, ay, bx, by, x, y, x + 1, y - 1))
				return true;
		}
	}
	return false;
}

/* Random dense clutter: many pillars, diagonal gaps and odd corners.
 * Symmetry, and no floor cell ever seen across a diagonal gap. */
static void test_symmetry_random_clutter(void **st)
{
	(void)st;
	struct rng r;
	rng_seed(&r, 12345);
	enum { W = 40, H = 25 };
	uint8_t op[W * H], vis[W * H];
	long gaps_checked = 0;
	for (int round = 0; round < 6; round++) {
		int pct = 15 + 6 * round;
		int radius = round % 2 ? 8 : -1;
		for (int i = 0; i < W * H; i++)
			op[i] = rng_range(&r, 0, 99) < pct;
		check_symmetry(op, W, H, radius);
		for (int a = 0; a < W * H; a += 7) {
			if (op[a])
				continue;
			fov_compute(op, W, H, a % W, a / W, radius, vis);
			for (int b = 0; b < W * H; b++) {
				if (op[b] || b == a)
					continue;
				bool gap = crosses_gap(op, W, H, a % W, a / W, b % W, b / W);
				gaps_checked += gap;
				if (gap && vis[b])
					print_message("(%d,%d) sees (%d,%d) across a diagonal gap\n",
						      a % W, a / W, b % W, b / W);
				assert_false(gap && vis[b]);
			}
		}
	}
	assert_true(gaps_checked > 1000);
}

/* fov_light_walls: afterwards no visible floor has an unlit wall beside it
 * (within range); only walls were added; and it does add some (Ford's rule
 * alone misses e.g. the walls beside a doorway seen from the side). */
static void test_light_walls(void **st)
{
	(void)st;
	struct map m;
	struct rng r;
	uint8_t op[MAP_W * MAP_H], v1[MAP_W * MAP_H], v2[MAP_W * MAP_H];
	long added = 0;
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		rng_seed(&r, 99 + (uint64_t)k);
		assert_int_equal(mapgen_generate(&m, (enum mapgen_kind)k, 1, &r), 0);
		map_opacity(&m, op);
		for (int o = 0; o < MAP_W * MAP_H; o += 5) {
			if (op[o])
				continue;
			int ox = o % MAP_W, oy = o / MAP_W;
			fov_compute(op, MAP_W, MAP_H, ox, oy, 8, v1);
			memcpy(v2, v1, sizeof(v2));
			fov_light_walls(op, MAP_W, MAP_H, ox, oy, 8, v2);
			for (int i = 0; i < MAP_W * MAP_H; i++) {
				if (v1[i] != v2[i]) {
					assert_true(op[i] && v2[i] && !v1[i]); /* a wall turned on */
					added++;
				}
				if (!v2[i] || op[i])
					continue;
				for (int dy = -1; dy <= 1; dy++)
					for (int dx = -1; dx <= 1; dx++) {
						int x = i % MAP_W + dx, y = i / MAP_W + dy;
						int ddx = x - ox, ddy = y - oy;
						if (ddx * ddx + ddy * ddy <= 72 && op[y * MAP_W + x])
							assert_int_equal(v2[y * MAP_W + x], 1);
					}
			}
			/* nothing out of range */
			for (int i = 0; i < MAP_W * MAP_H; i++) {
				int ddx = i % MAP_W - ox, ddy = i / MAP_W - oy;
				if (v2[i])
					assert_true(ddx * ddx + ddy * ddy <= 72);
			}
		}
	}
	assert_true(added > 100);
	/* by hand: leaving a room's east side, the corridor cell (11,3) is
	 * seen; Ford's rule leaves the wall (12,4) beside it dark */
	static const char *const rows[] = {
		"#############",
		"#.........###",
		"#.........###",
		"#............",
		"#.........#.#",
		"#....@....#.#",
		"#####.#####.#", NULL };
	struct hmap hm;
	parse(&hm, rows);
	fov_compute(hm.opaque, hm.w, hm.h, hm.ox, hm.oy, 8, v1);
	assert_int_equal(v1[3 * hm.w + 11], 1);
	assert_int_equal(v1[4 * hm.w + 12], 0);
	memcpy(v2, v1, (size_t)(hm.w * hm.h));
	fov_light_walls(hm.opaque, hm.w, hm.h, hm.ox, hm.oy, 8, v2);
	assert_int_equal(v2[4 * hm.w + 12], 1);
	for (int i = 0; i < hm.w * hm.h; i++)
		if (i != 4 * hm.w + 12)
			assert_int_equal(v1[i], v2[i]);
	/* the same with unlimited radius (the cell-by-cell path) */
	fov_compute(hm.opaque, hm.w, hm.h, hm.ox, hm.oy, -1, v1);
	memcpy(v2, v1, (size_t)(hm.w * hm.h));
	fov_light_walls(hm.opaque, hm.w, hm.h, hm.ox, hm.oy, -1, v2);
	assert_int_equal(v1[4 * hm.w + 12], 0);
	assert_int_equal(v2[4 * hm.w + 12], 1);
	/* bad input: nothing happens */
	fov_light_walls(hm.opaque, 0, 5, 0, 0, 8, v1);
	fov_light_walls(hm.opaque, hm.w, hm.h, -1, 0, 8, v1);
}

/* The walls of a w x h opacity array as fov_update_walls reads them
 * (struct fov_walls), made here bit by bit. */
struct walls_of {
	uint64_t *rows, *cols;
	struct fov_walls fw;
};

static void walls_of(struct walls_of *wo, const uint8_t *op, int w, int h)
{
	int rs = FOV_WORDS(w), cs = FOV_WORDS(h);
	wo->rows = malloc((size_t)h * (size_t)rs * sizeof(uint64_t));
	wo->cols = malloc((size_t)w * (size_t)cs * sizeof(uint64_t));
	assert_true(wo->rows && wo->cols);
	for (int y = 0; y < h; y++)
		for (int b = 0; b < 64 * rs; b++) {
			int x = b - FOV_PAD;
			uint64_t *word = &wo->rows[y * rs + b / 64], bit = (uint64_t)1 << (b % 64);
			*word = (x < 0 || x >= w || op[y * w + x]) ? *word | bit : *word & ~bit;
		}
	for (int x = 0; x < w; x++)
		for (int b = 0; b < 64 * cs; b++) {
			int y = b - FOV_PAD;
			uint64_t *word = &wo->cols[x * cs + b / 64], bit = (uint64_t)1 << (b % 64);
			*word = (y < 0 || y >= h || op[y * w + x]) ? *word | bit : *word & ~bit;
		}
	wo->fw = (struct fov_walls){ wo->rows, wo->cols, rs, cs };
}

/* fov_update, called again and again on one array (clearing only what it set
 * before), leaves exactly what fov_compute + fov_light_walls leave on a
 * fresh one: generated floors read as tiles (wall = 0) and random clutter
 * read as opacity, radii on both sides of the mask and table limits. */
static void check_update(const uint8_t *cells, enum fov_cells kind, int w, int h, uint64_t seed)
{
	static const int radii[] = { 8, 0, 1, 5, 8, 29, 30, 31, 45, -1, 300 };
	size_t n = (size_t)w * (size_t)h;
	uint8_t *op = malloc(n), *want = malloc(n), *got = malloc(n);
	assert_true(op && want && got);
	for (size_t i = 0; i < n; i++)
		op[i] = kind == FOV_OPAQUE_ZERO ? cells[i] == 0 : cells[i] != 0;
	memset(got, 1, n); /* garbage: the first call clears all of it */
	struct walls_of wb;
	walls_of(&wb, op, w, h);
	struct fov_box box = fov_box_all(w, h);
	struct rng r;
	rng_seed(&r, seed);
	for (int k = 0; k < 300; k++) {
		int radius = radii[k % (int)(sizeof radii / sizeof radii[0])];
		int ox = rng_range(&r, -1, w), oy = rng_range(&r, -1, h); /* sometimes off the array */
		fov_compute(op, w, h, ox, oy, radius, want);
		fov_light_walls(op, w, h, ox, oy, radius, want);
		/* a call in three through fov_update_rows, one through
		 * fov_update_walls (when it applies): what they say they set */
		struct fov_rows rows;
		int mode = k % 3;
		bool walls_apply = radius >= 0 && radius <= 30 && ox >= 0 && oy >= 0 && ox < w && oy < h;
		if (mode == 2 && walls_apply)
			fov_update_walls(&wb.fw, w, h, ox, oy, radius, got, &box, &rows);
		else if (mode)
			fov_update_rows(cells, kind, w, h, ox, oy, radius, got, &box, &rows);
		else
			fov_update(cells, kind, w, h, ox, oy, radius, got, &box);
		if (memcmp(want, got, n) != 0)
			print_message("fov_update differs: %dx%d from (%d,%d) radius %d\n", w, h, ox, oy, radius);
		if (mode && radius >= 0 && radius <= 30)
			assert_true(rows.n >= 0); /* the scan's rows: every view it makes */
		if (mode && rows.n >= 0) {
			/* the rows hold exactly the cells set (every other is 0) */
			size_t set = 0;
			for (int i = 0; i < rows.n; i++)
				for (int b = 0; b < 64; b++)
					if (rows.bits[i] >> b & 1) {
						int x = rows.x0 + b, y = rows.y0 + i;
						assert_true(x >= 0 && x < w && y >= 0 && y < h);
						assert_int_equal(got[y * w + x], 1);
						set++;
					}
			size_t all = 0;
			for (size_t i = 0; i < n; i++)
				all += got[i] != 0;
			assert_int_equal(set, all);
		}
		assert_memory_equal(want, got, n);
		for (int y = 0; y < h; y++) /* nothing set outside the box */
			for (int x = 0; x < w; x++)
				if (got[y * w + x])
					assert_true(x >= box.x0 && x <= box.x1 && y >= box.y0 && y <= box.y1);
	}
	free(op);
	free(want);
	free(got);
	free(wb.rows);
	free(wb.cols);
}

static void test_update_matches(void **st)
{
	(void)st;
	struct map m;
	struct rng r;
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		rng_seed(&r, 7 + (uint64_t)k);
		assert_int_equal(mapgen_generate(&m, (enum mapgen_kind)k, 1, &r), 0);
		check_update(m.tile, FOV_OPAQUE_ZERO, MAP_W, MAP_H, 11 + (uint64_t)k);
	}
	static uint8_t clutter[70 * 90];
	rng_seed(&r, 5);
	for (int i = 0; i < 70 * 90; i++)
		clutter[i] = rng_range(&r, 0, 99) < 20 ? (uint8_t)rng_range(&r, 1, 255) : 0;
	check_update(clutter, FOV_OPAQUE_NONZERO, 70, 90, 3);
	check_update(clutter, FOV_OPAQUE_NONZERO, 90, 70, 4);
	/* a long thin array (the unlimited radius reaches rows of any length) */
	check_update(clutter, FOV_OPAQUE_NONZERO, 700, 9, 5);
}

/* The same on small arrays, every origin and every radius the bit masks
 * handle: rows shorter than a word, views cut by every edge, the last
 * bytes of the array read and written one by one. */
static void test_update_small_maps(void **st)
{
	(void)st;
	static const int size[][2] = { { 1, 1 }, { 3, 5 }, { 7, 2 }, { 9, 9 }, { 17, 3 }, { 2, 23 }, { 40, 31 } };
	struct rng r;
	rng_seed(&r, 77);
	for (size_t k = 0; k < sizeof size / sizeof size[0]; k++) {
		int w = size[k][0], h = size[k][1];
		size_t n = (size_t)w * (size_t)h;
		uint8_t *cells = malloc(n), *want = malloc(n), *got = malloc(n);
		assert_true(cells && want && got);
		for (size_t i = 0; i < n; i++)
			cells[i] = rng_range(&r, 0, 99) < 30 ? 0 : (uint8_t)rng_range(&r, 1, 3);
		uint8_t *op = malloc(n);
		assert_non_null(op);
		for (size_t i = 0; i < n; i++)
			op[i] = cells[i] == 0;
		struct fov_box box = fov_box_all(w, h);
		memset(got, 1, n);
		for (int radius = 0; radius <= 31; radius++)
			for (int o = 0; o < w * h; o++) {
				fov_compute(op, w, h, o % w, o / w, radius, want);
				fov_light_walls(op, w, h, o % w, o / w, radius, want);
				fov_update(cells, FOV_OPAQUE_ZERO, w, h, o % w, o / w, radius, got, &box);
				if (memcmp(want, got, n) != 0)
					print_message("fov_update differs: %dx%d from (%d,%d) radius %d\n", w, h, o % w,
						      o / w, radius);
				assert_memory_equal(want, got, n);
			}
		free(cells);
		free(op);
		free(want);
		free(got);
	}
}

/* With no walls, every radius up to the masks' limit shows exactly the disc
 * dx*dx + dy*dy <= r*r + r (checks the precomputed row lengths). */
static void test_disc_every_radius(void **st)
{
	(void)st;
	enum { S = 65 };
	static uint8_t op[S * S], vis[S * S];
	struct fov_box box = fov_box_all(S, S);
	for (int radius = 0; radius <= 32; radius++) {
		fov_update(op, FOV_OPAQUE_NONZERO, S, S, S / 2, S / 2, radius, vis, &box);
		for (int y = 0; y < S; y++)
			for (int x = 0; x < S; x++) {
				int dx = x - S / 2, dy = y - S / 2;
				assert_int_equal(vis[y * S + x], dx * dx + dy * dy <= radius * radius + radius);
			}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_room_radius),
		cmocka_unit_test(test_corridor_radius),
		cmocka_unit_test(test_doorway_cone),
		cmocka_unit_test(test_pillars),
		cmocka_unit_test(test_room_corner),
		cmocka_unit_test(test_diagonal_gap),
		cmocka_unit_test(test_edges_and_bad_input),
		cmocka_unit_test(test_symmetry_generated_maps),
		cmocka_unit_test(test_symmetry_random_clutter),
		cmocka_unit_test(test_light_walls),
		cmocka_unit_test(test_update_matches),
		cmocka_unit_test(test_update_small_maps),
		cmocka_unit_test(test_disc_every_radius),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
