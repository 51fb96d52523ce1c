#include "testutil.h"
#include "game/map.h"
#include <errno.h>
#include <string.h>

static void test_init_is_solid(void **st)
{
	(void)st;
	struct map m;
	memset(&m, 0x5A, sizeof(m));
	map_init(&m);
	assert_int_equal(m.w, MAP_W);
	assert_int_equal(m.h, MAP_H);
	assert_int_equal(m.nrooms, 0);
	assert_int_equal(m.up_x, -1);
	assert_int_equal(m.up_y, -1);
	assert_int_equal(m.down_x, -1);
	for (int i = 0; i < MAP_W * MAP_H; i++) {
		assert_int_equal(m.tile[i], TILE_WALL);
		assert_int_equal(m.visible[i], 0);
		assert_int_equal(m.explored[i], 0);
	}
	int x, y;
	map_start(&m, &x, &y);
	assert_int_equal(x, -1);
	assert_int_equal(y, -1);
}

static void test_bounds_and_kinds(void **st)
{
	(void)st;
	struct map m;
	map_init(&m);
	assert_true(map_in(&m, 0, 0));
	assert_true(map_in(&m, MAP_W - 1, MAP_H - 1));
	assert_false(map_in(&m, -1, 0));
	assert_false(map_in(&m, 0, -1));
	assert_false(map_in(&m, MAP_W, 0));
	assert_false(map_in(&m, 0, MAP_H));
	map_set(&m, 3, 4, TILE_FLOOR);
	map_set(&m, 5, 4, TILE_STAIRS_DOWN);
	map_set(&m, 6, 4, TILE_STAIRS_UP);
	map_set(&m, -1, 4, TILE_FLOOR);     /* ignored */
	map_set(&m, MAP_W, 4, TILE_FLOOR);  /* ignored */
	assert_int_equal(m.tile[4 * MAP_W + 3], TILE_FLOOR);
	assert_int_equal(map_tile(&m, 3, 4), TILE_FLOOR);
	assert_int_equal(map_tile(&m, 4, 4), TILE_WALL);
	assert_int_equal(map_tile(&m, -5, 4), TILE_WALL);
	assert_true(map_walkable(&m, 3, 4));
	assert_true(map_walkable(&m, 5, 4));
	assert_true(map_walkable(&m, 6, 4));
	assert_false(map_walkable(&m, 4, 4));
	assert_false(map_walkable(&m, -1, 4));
	assert_false(map_opaque(&m, 3, 4));
	assert_false(map_opaque(&m, 5, 4));
	assert_true(map_opaque(&m, 4, 4));
	assert_true(map_opaque(&m, -1, -1));
	assert_true(map_opaque(&m, MAP_W, MAP_H));
	uint8_t op[MAP_W * MAP_H];
	map_opacity(&m, op);
	int clear = 0;
	for (int i = 0; i < MAP_W * MAP_H; i++)
		clear += !op[i];
	assert_int_equal(clear, 3);
	assert_int_equal(op[4 * MAP_W + 3], 0);
	assert_int_equal(op[4 * MAP_W + 4], 1);
}

static void test_room_center_and_start(void **st)
{
	(void)st;
	struct room r = { 10, 5, 5, 4 }; /* x 10..14, y 5..8 */
	int x, y;
	map_room_center(&r, &x, &y);
	assert_int_equal(x, 12);
	assert_int_equal(y, 6);
	struct map m;
	map_init(&m);
	m.rooms[0] = r;
	m.nrooms = 1;
	map_start(&m, &x, &y);
	assert_int_equal(x, 12);
	assert_int_equal(y, 6);
	m.up_x = 3;
	m.up_y = 2;
	map_start(&m, &x, &y);
	assert_int_equal(x, 3);
	assert_int_equal(y, 2);
}

static void test_flood(void **st)
{
	(void)st;
	struct map m;
	map_init(&m);
	uint8_t out[MAP_W * MAP_H];
	assert_int_equal(map_flood(&m, 5, 5, out), 0); /* start in rock */
	/* a 3-cell corridor, a cell joined only diagonally, and an island */
	map_set(&m, 5, 5, TILE_FLOOR);
	map_set(&m, 6, 5, TILE_FLOOR);
	map_set(&m, 7, 5, TILE_STAIRS_DOWN);
	map_set(&m, 8, 6, TILE_FLOOR);  /* diagonal from (7,5) */
	map_set(&m, 20, 20, TILE_FLOOR); /* island */
	assert_int_equal(map_flood(&m, 5, 5, out), 4);
	assert_int_equal(out[6 * MAP_W + 8], 1);
	assert_int_equal(out[20 * MAP_W + 20], 0);
	assert_int_equal(out[5 * MAP_W + 4], 0);
	assert_int_equal(map_flood(&m, 20, 20, out), 1);
	assert_int_equal(map_flood(&m, -1, 0, out), 0);
}

static void test_update_fov_remembers(void **st)
{
	(void)st;
	struct map m;
	map_init(&m);
	/* two rooms 5x3 joined by a corridor */
	for (int y = 2; y <= 4; y++)
		for (int x = 2; x <= 6; x++) {
			map_set(&m, x, y, TILE_FLOOR);
			map_set(&m, x + 20, y, TILE_FLOOR);
		}
	for (int x = 7; x < 22; x++)
		map_set(&m, x, 3, TILE_FLOOR);
	map_update_fov(&m, 4, 3, 8);
	assert_int_equal(m.visible[3 * MAP_W + 4], 1);
	assert_int_equal(m.visible[2 * MAP_W + 2], 1);
	assert_int_equal(m.visible[1 * MAP_W + 1], 1); /* the corner wall is lit */
	assert_int_equal(m.visible[3 * MAP_W + 24], 0); /* far room: out of radius */
	assert_int_equal(m.explored[2 * MAP_W + 2], 1);
	map_update_fov(&m, 24, 3, 8);
	assert_int_equal(m.visible[2 * MAP_W + 2], 0);  /* no longer in view */
	assert_int_equal(m.explored[2 * MAP_W + 2], 1); /* but remembered */
	assert_int_equal(m.visible[3 * MAP_W + 24], 1);
	assert_int_equal(m.explored[3 * MAP_W + 24], 1);
	for (int i = 0; i < MAP_W * MAP_H; i++)
		assert_true(!m.visible[i] || m.explored[i]);
}

/* map_view takes a view only when it would differ: from the same cell and
 * radius with no tile set since it leaves everything as it is; after a
 * tile is set, or from elsewhere, it is map_update_fov's view. */
static void test_view_only_when_it_differs(void **st)
{
	(void)st;
	static struct map m, want;
	map_init(&m);
	for (int y = 2; y <= 4; y++)
		for (int x = 2; x <= 12; x++)
			map_set(&m, x, y, TILE_FLOOR);
	want = m;
	map_view(&m, 4, 3, 8);
	map_update_fov(&want, 4, 3, 8);
	assert_int_equal(m.views, 1);
	assert_memory_equal(m.visible, want.visible, sizeof m.visible);
	map_view(&m, 4, 3, 8); /* the same: nothing to do */
	assert_int_equal(m.views, 1);
	map_view(&m, 4, 3, 6); /* another radius */
	map_update_fov(&want, 4, 3, 6);
	assert_int_equal(m.views, 2);
	assert_memory_equal(m.visible, want.visible, sizeof m.visible);
	/* a wall put between: the same cell sees less */
	for (int y = 2; y <= 4; y++) {
		map_set(&m, 7, y, TILE_WALL);
		map_set(&want, 7, y, TILE_WALL);
	}
	map_view(&m, 4, 3, 6);
	map_update_fov(&want, 4, 3, 6);
	assert_int_equal(m.views, 3);
	assert_int_equal(m.visible[3 * MAP_W + 9], 0);
	assert_memory_equal(m.visible, want.visible, sizeof m.visible);
	assert_memory_equal(m.explored, want.explored, sizeof m.explored);
	/* a view taken by map_update_fov from elsewhere: the next map_view takes its own */
	map_update_fov(&m, 10, 3, 6);
	map_view(&m, 4, 3, 6);
	assert_int_equal(m.views, 5);
	assert_int_equal(m.visible[3 * MAP_W + 4], 1);
	assert_int_equal(m.visible[3 * MAP_W + 10], 0);
}

/* What map_update_fov must leave in visible[]: fov_compute then
 * fov_light_walls over the floor's walls. */
static void scanned_view(const struct map *m, int ox, int oy, int r, uint8_t *out)
{
	static uint8_t op[MAP_MAX_CELLS];
	map_opacity(m, op);
	fov_compute(op, m->w, m->h, ox, oy, r, out);
	fov_light_walls(op, m->w, m->h, ox, oy, r, out);
}

/* Views from cells seen from before are set from the ones kept (struct
 * map's kept): over 800 views from 40 cells (corners and edges among
 * them) of a floor of random walls, at radii kept and not, with and
 * without a digest kept, each view's visible[] is the scan's, explored[]
 * all the views' union, the digest map_digest_full's and the view's bits
 * kept (vrows) visible[]; and views were set from kept ones. */
static void test_kept_views_as_scanned(void **st)
{
	(void)st;
	static struct map m;
	static uint8_t want[MAP_MAX_CELLS], explored[MAP_MAX_CELLS];
	for (int digest = 0; digest <= 1; digest++) {
		uint32_t seed = 12345u + (uint32_t)digest;
		map_init_size(&m, 60, 30);
		for (int i = 0; i < m.w * m.h; i++) {
			seed = seed * 1103515245u + 12345u;
			m.tile[i] = (seed >> 16) % 100 < 30 ? TILE_WALL : TILE_FLOOR;
		}
		if (digest)
			(void)map_digest(&m);
		int cx[40], cy[40];
		for (int k = 0; k < 40; k++) {
			seed = seed * 1103515245u + 12345u;
			cx[k] = (int)((seed >> 16) % (unsigned)m.w);
			seed = seed * 1103515245u + 12345u;
			cy[k] = (int)((seed >> 16) % (unsigned)m.h);
		}
		cx[0] = 0, cy[0] = 0;
		cx[1] = m.w - 1, cy[1] = m.h - 1;
		cx[2] = m.w - 1, cy[2] = 0;
		cx[3] = 0, cy[3] = m.h - 1;
		cx[4] = m.w - 2, cy[4] = m.h - 1;
		memset(explored, 0, sizeof explored);
		int kept = 0;
		static const int radii[] = { 8, 8, 8, 6, 10, MAP_KEPT_RADIUS + 2 };
		for (int step = 0; step < 800; step++) {
			seed = seed * 1103515245u + 12345u;
			int k = (int)((seed >> 16) % 40), r = radii[(seed >> 8) % 6];
			const struct map_kept_view *kv = &m.kept[(cy[k] * m.w + cx[k]) % MAP_KEPT_VIEWS];
			kept += kv->r == r && kv->x == cx[k] && kv->y == cy[k];
			uint32_t views = m.views;
			map_update_fov(&m, cx[k], cy[k], r);
			scanned_view(&m, cx[k], cy[k], r, want);
			assert_int_equal(m.views, views + 1);
			assert_memory_equal(m.visible, want, (size_t)(m.w * m.h));
			for (int i = 0; i < m.w * m.h; i++)
				explored[i] |= want[i];
			assert_memory_equal(m.explored, explored, (size_t)(m.w * m.h));
			for (int y = 0; y < m.h; y++) /* nothing visible outside the box seen */
				for (int x = 0; x < m.w; x++)
					if (m.visible[y * m.w + x])
						assert_true(x >= m.seen.x0 && x <= m.seen.x1 && y >= m.seen.y0 && y <= m.seen.y1);
			if (digest)
				assert_true(map_digest(&m) == map_digest_full(&m));
			/* the view's bits as map_update_fov keeps them: visible[] exactly */
			if (r <= MAP_KEPT_RADIUS) /* (a view scanned as bits: known) */
				assert_int_equal(m.vrows_views, m.views);
			if (m.vrows_views == m.views) {
				for (int y = 0; y < m.h; y++)
					for (int x = 0; x < m.w; x++) {
						int j = y - m.vrows.y0, i = x - m.vrows.x0;
						bool bit = j >= 0 && j < m.vrows.n && i >= 0 && i < 64 && (m.vrows.bits[j] >> i & 1);
						assert_int_equal(m.visible[y * m.w + x], bit);
					}
			}
		}
		print_message("digest %d: %d of 800 views set from kept ones\n", digest, kept);
		assert_true(kept > 150);
	}
}

/* A view kept is forgotten when the walls change: after map_set, after
 * tiles written directly and map_changed, and on a floor made again in
 * the same memory (map_init_size), the view from a cell seen from before
 * is what the walls now give. */
static void test_kept_views_forgotten(void **st)
{
	(void)st;
	static struct map m;
	static uint8_t want[MAP_MAX_CELLS];
	map_init(&m);
	for (int y = 2; y <= 8; y++)
		for (int x = 2; x <= 20; x++)
			map_set(&m, x, y, TILE_FLOOR);
	map_update_fov(&m, 4, 5, 8);
	map_update_fov(&m, 15, 5, 8);
	/* a wall put in the room: the view from (4, 5) sees less */
	map_set(&m, 6, 5, TILE_WALL);
	map_update_fov(&m, 4, 5, 8);
	scanned_view(&m, 4, 5, 8, want);
	assert_int_equal(m.visible[5 * MAP_W + 8], 0);
	assert_memory_equal(m.visible, want, sizeof m.visible);
	/* tiles written as they lie, and said so */
	map_update_fov(&m, 15, 5, 8);
	m.tile[5 * MAP_W + 6] = TILE_FLOOR;
	m.tile[4 * MAP_W + 5] = TILE_WALL;
	map_changed(&m);
	map_update_fov(&m, 4, 5, 8);
	scanned_view(&m, 4, 5, 8, want);
	assert_int_equal(m.visible[5 * MAP_W + 8], 1);
	assert_memory_equal(m.visible, want, sizeof m.visible);
	/* another floor in the same memory: from (4, 5) a corridor */
	map_update_fov(&m, 15, 5, 8);
	assert_true(map_init_size(&m, MAP_W, MAP_H));
	for (int x = 2; x <= 20; x++)
		m.tile[5 * MAP_W + x] = TILE_FLOOR;
	map_update_fov(&m, 4, 5, 8);
	scanned_view(&m, 4, 5, 8, want);
	assert_int_equal(m.visible[3 * MAP_W + 4], 0);
	assert_memory_equal(m.visible, want, sizeof m.visible);
}

/* Floor sizes: "WxH" within MAP_MIN_* .. MAP_MAX_*, nothing else; a map
 * made at a size reads walls inside it and outside it. */
/* The walls struct map keeps as bits (wrows, wcols) for its views: on
 * floors of several sizes written at will, then changed by thousands of
 * map_set (walls put and taken, stairs, off the map) between views, and
 * after map_changed and map_init_size, they are what the tiles give, bit
 * for bit, each time a view is taken, every view is the scan's and
 * explored[] the union of the views since map_init_size (written from
 * the views' bits and dexp, no digest kept). */
static void test_wall_bits_kept(void **st)
{
	(void)st;
	static struct map m;
	static uint8_t want[MAP_MAX_CELLS], seen[MAP_MAX_CELLS];
	static const int sizes[][2] = { { MAP_W, MAP_H }, { MAP_MIN_W, MAP_MIN_H }, { MAP_MAX_W, MAP_MAX_H }, { 63, 65 } };
	uint64_t r = 0x9E3779B97F4A7C15ull;
	int checked = 0;
	memset(&m, 0xA5, sizeof m); /* (garbage: nothing is kept yet) */
	for (int sz = 0; sz < 4; sz++) {
		int w = sizes[sz][0], h = sizes[sz][1];
		assert_true(map_init_size(&m, w, h));
		memset(seen, 0, sizeof seen);
		for (int i = 0; i < w * h; i++) { /* written as they lie */
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			m.tile[i] = r % 3 ? TILE_FLOOR : TILE_WALL;
		}
		for (int step = 0; step < 400; step++) {
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			int ox = (int)(r % (uint64_t)w), oy = (int)((r >> 20) % (uint64_t)h), radius = (int)((r >> 40) % 31);
			if (step == 0)
				radius = 8; /* (the first view after map_init_size given as rows) */
			if (step == 200) { /* tiles written as they lie, and said so */
				for (int i = 0; i < w * h; i += 7)
					m.tile[i] = m.tile[i] == TILE_WALL ? TILE_FLOOR : TILE_WALL;
				map_changed(&m);
			}
			map_update_fov(&m, ox, oy, radius);
			scanned_view(&m, ox, oy, radius, want);
			assert_memory_equal(m.visible, want, (size_t)w * (size_t)h);
			for (int i = 0; i < w * h; i++) /* explored: every view's cells since map_init_size */
				seen[i] |= want[i];
			assert_memory_equal(m.explored, seen, (size_t)w * (size_t)h);
			if (m.walls_ok) {
				for (int y = 0; y < h; y++)
					for (int b = 0; b < 64 * FOV_WORDS(w); b++) {
						int x = b - FOV_PAD;
						bool wall = x < 0 || x >= w || m.tile[y * w + x] == TILE_WALL;
						assert_int_equal(m.wrows[y][b / 64] >> (b % 64) & 1, wall);
					}
				for (int x = 0; x < w; x++)
					for (int b = 0; b < 64 * FOV_WORDS(h); b++) {
						int y = b - FOV_PAD;
						bool wall = y < 0 || y >= h || m.tile[y * w + x] == TILE_WALL;
						assert_int_equal(m.wcols[x][b / 64] >> (b % 64) & 1, wall);
					}
				checked++;
			}
			for (int k = 0; k < 10; k++) { /* then some cells set */
				r ^= r << 13, r ^= r >> 7, r ^= r << 17;
				int x = (int)(r % (uint64_t)(w + 4)) - 2, y = (int)((r >> 20) % (uint64_t)(h + 4)) - 2;
				map_set(&m, x, y, (enum tile)((r >> 40) % 4));
			}
		}
	}
	assert_true(checked > 1500);
}

static void test_sizes(void **st)
{
	(void)st;
	int w = -1, h = -1;
	assert_int_equal(map_size_parse("120x60", &w, &h), 0);
	assert_int_equal(w, 120);
	assert_int_equal(h, 60);
	assert_int_equal(map_size_parse("200X200", &w, &h), 0);
	assert_int_equal(map_size_parse("20x15", &w, &h), 0);
	static const char *const bad[] = { "19x15", "20x14", "201x50", "80x201", "80x", "x43", "80x43x1", "-80x43",
					   "80 x43", "80x+43", "", "99999999999999999999x43", "80x43 " };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		w = h = -1;
		assert_int_equal(map_size_parse(bad[i], &w, &h), -EINVAL);
		assert_int_equal(w, -1);
	}
	assert_int_equal(map_size_parse(NULL, &w, &h), -EINVAL);
	static struct map m;
	assert_false(map_init_size(&m, 10, 10));
	assert_true(map_init_size(&m, 33, 21));
	assert_int_equal(m.w, 33);
	assert_int_equal(m.h, 21);
	map_set(&m, 32, 20, TILE_FLOOR);
	assert_int_equal(map_tile(&m, 32, 20), TILE_FLOOR);
	assert_int_equal(m.tile[20 * 33 + 32], TILE_FLOOR);
	assert_int_equal(map_tile(&m, 33, 20), TILE_WALL);
	assert_false(map_in(&m, 0, 21));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_is_solid),
		cmocka_unit_test(test_bounds_and_kinds),
		cmocka_unit_test(test_room_center_and_start),
		cmocka_unit_test(test_flood),
		cmocka_unit_test(test_update_fov_remembers),
		cmocka_unit_test(test_view_only_when_it_differs),
		cmocka_unit_test(test_kept_views_as_scanned),
		cmocka_unit_test(test_kept_views_forgotten),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_wall_bits_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
