#include "testutil.h"
#include "game/mapgen.h"
#include <errno.h>
#include <string.h>

static void test_parse_and_name(void **st)
{
	(void)st;
	enum mapgen_kind k = MAPGEN_COUNT;
	assert_int_equal(mapgen_parse("classic", &k), 0);
	assert_int_equal(k, MAPGEN_CLASSIC);
	assert_int_equal(mapgen_parse("overlap", &k), 0);
	assert_int_equal(k, MAPGEN_OVERLAP);
	assert_int_equal(mapgen_parse("cave", &k), 0);
	assert_int_equal(k, MAPGEN_CAVE);
	for (int i = 0; i < MAPGEN_COUNT; i++) {
		assert_int_equal(mapgen_parse(mapgen_name((enum mapgen_kind)i), &k), 0);
		assert_int_equal(k, i);
	}
	k = MAPGEN_OVERLAP;
	assert_int_equal(mapgen_parse("Classic", &k), -EINVAL);
	assert_int_equal(mapgen_parse("", &k), -EINVAL);
	assert_int_equal(mapgen_parse("classic ", &k), -EINVAL);
	assert_int_equal(mapgen_parse("bogus", &k), -EINVAL);
	assert_int_equal(mapgen_parse("caves", &k), -EINVAL);
	assert_int_equal(mapgen_parse(NULL, &k), -EINVAL);
	assert_int_equal(k, MAPGEN_OVERLAP); /* untouched */
	assert_string_equal(mapgen_name(MAPGEN_COUNT), "?");
	assert_string_equal(mapgen_name((enum mapgen_kind)-1), "?");
}

static void test_bad_arguments(void **st)
{
	(void)st;
	struct map m;
	struct rng r;
	rng_seed(&r, 1);
	assert_int_equal(mapgen_generate(&m, MAPGEN_CLASSIC, 0, &r), -EINVAL);
	assert_int_equal(mapgen_generate(&m, MAPGEN_COUNT, 1, &r), -EINVAL);
	assert_int_equal(mapgen_generate(&m, (enum mapgen_kind)-1, 1, &r), -EINVAL);
	assert_int_equal(mapgen_generate(NULL, MAPGEN_CLASSIC, 1, &r), -EINVAL);
	assert_int_equal(mapgen_generate(&m, MAPGEN_CLASSIC, 1, NULL), -EINVAL);
}

static void test_deterministic(void **st)
{
	(void)st;
	static struct map a, b;
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		struct rng r1, r2;
		rng_seed(&r1, 77);
		rng_seed(&r2, 77);
		assert_int_equal(mapgen_generate(&a, (enum mapgen_kind)k, 3, &r1), 0);
		assert_int_equal(mapgen_generate(&b, (enum mapgen_kind)k, 3, &r2), 0);
		assert_memory_equal(&a, &b, sizeof(a));
		assert_memory_equal(&r1, &r2, sizeof(r1)); /* same draws taken */
		/* the next floor from the same generator differs */
		assert_int_equal(mapgen_generate(&b, (enum mapgen_kind)k, 3, &r2), 0);
		assert_memory_not_equal(a.tile, b.tile, sizeof(a.tile));
		/* another seed differs */
		rng_seed(&r2, 78);
		assert_int_equal(mapgen_generate(&b, (enum mapgen_kind)k, 3, &r2), 0);
		assert_memory_not_equal(a.tile, b.tile, sizeof(a.tile));
	}
	/* the two generators differ on the same seed */
	struct rng r1, r2;
	rng_seed(&r1, 5);
	rng_seed(&r2, 5);
	mapgen_generate(&a, MAPGEN_CLASSIC, 1, &r1);
	mapgen_generate(&b, MAPGEN_OVERLAP, 1, &r2);
	assert_memory_not_equal(a.tile, b.tile, sizeof(a.tile));
}

/* 4-way flood from (sx,sy); returns the number of cells reached. */
static int flood4(const struct map *m, int sx, int sy)
{
	static const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
	static uint8_t seen[MAP_MAX_CELLS];
	static int queue[MAP_MAX_CELLS];
	int qh = 0, qt = 0, W = m->w, H = m->h;
	memset(seen, 0, (size_t)(W * H));
	if (!map_walkable(m, sx, sy))
		return 0;
	seen[sy * W + sx] = 1;
	queue[qt++] = sy * W + sx;
	while (qh < qt) {
		int u = queue[qh++];
		for (int k = 0; k < 4; k++) {
			int x = u % W + dx[k], y = u / W + dy[k];
			if (x >= 0 && y >= 0 && x < W && y < H &&
			    m->tile[y * W + x] != TILE_WALL && !seen[y * W + x]) {
				seen[y * W + x] = 1;
				queue[qt++] = y * W + x;
			}
		}
	}
	return qt;
}

static bool outer_rects_meet(const struct room *a, const struct room *b)
{
	return a->x - 1 <= b->x + b->w && a->x + a->w >= b->x - 1 &&
	       a->y - 1 <= b->y + b->h && a->y + a->h >= b->y - 1;
}

/* Cheap checks for the hot loop: cmocka is only called on a failure. */
#define CHECK(c) do { if (!(c)) fail_msg("%s:%d: %s (kind %d depth %d)", __FILE__, __LINE__, #c, (int)k, depth); } while (0)
#define CHECK_NOT(c) CHECK(!(c))
#define CHECK_EQ(a, b) CHECK((long)(a) == (long)(b))

/* Every invariant of one generated floor. */
/* A floor of w x h: its tiles, stairs, connection and rooms. */
static void check_floor_size(const struct map *m, enum mapgen_kind k, int depth, int W, int H)
{
	CHECK_EQ(m->w, W);
	CHECK_EQ(m->h, H);
	long area = (long)W * H, scale = area > 80 * 43 ? area : 80 * 43;
	int walkable = 0, ups = 0, downs = 0;
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			int t = m->tile[y * W + x];
			CHECK(t <= TILE_STAIRS_UP);
			CHECK_EQ(m->visible[y * W + x], 0);
			CHECK_EQ(m->explored[y * W + x], 0);
			if (x == 0 || y == 0 || x == W - 1 || y == H - 1)
				CHECK_EQ(t, TILE_WALL);
			walkable += t != TILE_WALL;
			ups += t == TILE_STAIRS_UP;
			downs += t == TILE_STAIRS_DOWN;
			/* no diagonal squeeze */
			if (x + 1 < W && y + 1 < H) {
				const uint8_t *p = &m->tile[y * W + x];
				bool a = p[0] != TILE_WALL, b = p[1] != TILE_WALL;
				bool c = p[W] != TILE_WALL, d = p[W + 1] != TILE_WALL;
				CHECK_NOT(a && d && !b && !c);
				CHECK_NOT(b && c && !a && !d);
			}
		}
	}
	/* stairs */
	CHECK_EQ(downs, 1);
	CHECK_EQ(map_tile(m, m->down_x, m->down_y), TILE_STAIRS_DOWN);
	int cx, cy;
	map_room_center(&m->rooms[0], &cx, &cy);
	if (depth == 1) {
		CHECK_EQ(ups, 0);
		CHECK_EQ(m->up_x, -1);
		CHECK_EQ(m->up_y, -1);
	} else {
		CHECK_EQ(ups, 1);
		CHECK_EQ(map_tile(m, m->up_x, m->up_y), TILE_STAIRS_UP);
		CHECK_EQ(m->up_x, cx);
		CHECK_EQ(m->up_y, cy);
	}
	int sx, sy;
	map_start(m, &sx, &sy);
	CHECK_EQ(sx, cx);
	CHECK_EQ(sy, cy);
	CHECK_NOT(m->down_x == sx && m->down_y == sy);
	int lx, ly;
	map_room_center(&m->rooms[m->nrooms - 1], &lx, &ly);
	if (!(lx == sx && ly == sy)) {
		CHECK_EQ(m->down_x, lx);
		CHECK_EQ(m->down_y, ly);
	}
	/* connected: every walkable cell reached by 4-way steps from the start */
	CHECK_EQ(flood4(m, sx, sy), walkable);
	/* rooms */
	CHECK(m->nrooms >= 1);
	for (int i = 0; i < m->nrooms; i++) {
		const struct room *r = &m->rooms[i];
		CHECK(r->x >= 1 && r->y >= 1);
		CHECK(r->x + r->w <= W - 1 && r->y + r->h <= H - 1);
		int rcx, rcy;
		map_room_center(r, &rcx, &rcy);
		CHECK(m->tile[rcy * W + rcx] != TILE_WALL);
		if (k == MAPGEN_CAVE) { /* a patch of cave around a floor cell */
			CHECK(r->w >= 1 && r->w <= 7 && r->h >= 1 && r->h <= 7);
			continue;
		}
		for (int y = r->y; y < r->y + r->h; y++)
			for (int x = r->x; x < r->x + r->w; x++)
				CHECK(m->tile[y * W + x] != TILE_WALL);
		if (k == MAPGEN_CLASSIC) {
			CHECK(r->w >= 5 && r->w <= 9);
			CHECK(r->h >= 5 && r->h <= 9);
			for (int j = 0; j < i; j++)
				CHECK_NOT(outer_rects_meet(r, &m->rooms[j]));
		} else {
			CHECK(r->w >= 4 && r->w <= 14);
			CHECK(r->h >= 3 && r->h <= 9);
		}
	}
	if (k == MAPGEN_CLASSIC)
		CHECK(m->nrooms <= 30 * scale / (80 * 43));
	else if (k == MAPGEN_OVERLAP)
		CHECK_EQ(m->nrooms, 16 * scale / (80 * 43) < MAP_MAX_ROOMS ? 16 * scale / (80 * 43) : MAP_MAX_ROOMS);
	else /* a cave holds at least 30% of the inside */
		CHECK(m->nrooms <= 15 && walkable * 100 >= (W - 2) * (H - 2) * 30);
}

static void check_floor(const struct map *m, enum mapgen_kind k, int depth)
{
	check_floor_size(m, k, depth, MAP_W, MAP_H);
}

/* 500 seeds x the room generators x depths 1..10; 100 seeds for caves
 * (slower to make). */
static void test_invariants_many_seeds(void **st)
{
	(void)st;
	static struct map m;
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		long rooms = 0, maps = 0, overlaps = 0;
		uint64_t seeds = k == MAPGEN_CAVE ? 100 : 500;
		for (uint64_t seed = 0; seed < seeds; seed++) {
			struct rng r;
			rng_seed(&r, seed);
			for (int depth = 1; depth <= 10; depth++) {
				assert_int_equal(mapgen_generate(&m, (enum mapgen_kind)k, depth, &r), 0);
				check_floor(&m, (enum mapgen_kind)k, depth);
				rooms += m.nrooms;
				maps++;
				for (int i = 1; i < m.nrooms; i++)
					for (int j = 0; j < i; j++)
						overlaps += outer_rects_meet(&m.rooms[i], &m.rooms[j]);
			}
		}
		/* shape of the floors: classic keeps roughly a dozen of its 30
		 * tries; overlap keeps all 16 and they do overlap */
		long avg10 = rooms * 10 / maps;
		if (k == MAPGEN_CLASSIC) {
			assert_true(avg10 >= 80 && avg10 <= 200);
			assert_int_equal(overlaps, 0);
		} else if (k == MAPGEN_OVERLAP) {
			assert_int_equal(avg10, 160);
			assert_true(overlaps > maps);
		} else {
			assert_true(avg10 >= 80 && avg10 <= 150);
		}
	}
}

/* Floors of other sizes (the least, odd ones, the largest): the same
 * invariants, every generator; a size out of range is refused. */
static void test_sizes(void **st)
{
	(void)st;
	static struct map m;
	static const int sizes[][2] = { { MAP_MIN_W, MAP_MIN_H }, { 33, 71 }, { 123, 57 }, { MAP_MAX_W, MAP_MAX_H } };
	for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
		for (int k = 0; k < MAPGEN_COUNT; k++)
			for (uint64_t seed = 0; seed < 6; seed++) {
				struct rng r;
				rng_seed(&r, seed);
				int w = sizes[z][0], h = sizes[z][1], depth = 1 + (int)seed % 3;
				assert_int_equal(mapgen_generate_size(&m, (enum mapgen_kind)k, depth, w, h, &r), 0);
				check_floor_size(&m, (enum mapgen_kind)k, depth, w, h);
			}
	struct rng r;
	rng_seed(&r, 1);
	assert_int_equal(mapgen_generate_size(&m, MAPGEN_CLASSIC, 1, MAP_MIN_W - 1, MAP_H, &r), -EINVAL);
	assert_int_equal(mapgen_generate_size(&m, MAPGEN_CLASSIC, 1, MAP_W, MAP_MAX_H + 1, &r), -EINVAL);
}

/* Classic tunnels bend both ways: some joins are horizontal-first (the
 * cell at (new.x, prev.y) carved) and some vertical-first. */
static void test_classic_bends_both_ways(void **st)
{
	(void)st;
	static struct map m;
	int hfirst = 0, vfirst = 0;
	for (uint64_t seed = 0; seed < 20; seed++) {
		struct rng r;
		rng_seed(&r, seed);
		mapgen_generate(&m, MAPGEN_CLASSIC, 1, &r);
		for (int i = 1; i < m.nrooms; i++) {
			int ax, ay, bx, by;
			map_room_center(&m.rooms[i - 1], &ax, &ay);
			map_room_center(&m.rooms[i], &bx, &by);
			if (ax == bx || ay == by)
				continue;
			bool h = map_walkable(&m, bx, ay), v = map_walkable(&m, ax, by);
			assert_true(h || v);
			hfirst += h && !v;
			vfirst += v && !h;
		}
	}
	assert_true(hfirst > 10);
	assert_true(vfirst > 10);
}

/* The generators' exact output is pinned: a seed's dungeon is part of every
 * recorded game, so a change here is a deliberate, visible decision (update
 * the values and the recordings together). */
static uint32_t tiles_hash(const struct map *m)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (int i = 0; i < MAP_W * MAP_H; i++) {
		h ^= m->tile[i];
		h *= 16777619u;
	}
	return h;
}

static void test_pinned_output(void **st)
{
	(void)st;
	static const uint32_t want[MAPGEN_COUNT][2] = {
		[MAPGEN_CLASSIC] = { 0xb8a429ccu, 0xe20a4e1cu },
		[MAPGEN_OVERLAP] = { 0xafc791c8u, 0x56955db7u },
		[MAPGEN_CAVE] = { 0x232361a6u, 0xbbd2bd0au },
	};
	static struct map m;
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		struct rng r;
		rng_seed(&r, 2026);
		assert_int_equal(mapgen_generate(&m, (enum mapgen_kind)k, 1, &r), 0);
		assert_int_equal(tiles_hash(&m), want[k][0]);
		assert_int_equal(mapgen_generate(&m, (enum mapgen_kind)k, 3, &r), 0);
		assert_int_equal(tiles_hash(&m), want[k][1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_and_name),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_invariants_many_seeds),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_classic_bends_both_ways),
		cmocka_unit_test(test_pinned_output),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
