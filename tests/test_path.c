#include "testutil.h"
#include "game/path.h"
#include "core/rng.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Reference distances by plain relaxation until nothing changes. */
static void reference(const uint8_t *cost, int w, int h, int gx, int gy, uint32_t *d)
{
	const uint32_t INF = 0xFFFFFFFFu;
	for (int i = 0; i < w * h; i++)
		d[i] = INF;
	d[gy * w + gx] = 0;
	bool changed = true;
	while (changed) {
		changed = false;
		for (int v = 0; v < w * h; v++) {
			if (cost[v] == 0 || v == gy * w + gx)
				continue;
			for (int dy = -1; dy <= 1; dy++) {
				for (int dx = -1; dx <= 1; dx++) {
					int ux = v % w + dx, uy = v / w + dy;
					if ((!dx && !dy) || ux < 0 || uy < 0 || ux >= w || uy >= h)
						continue;
					uint32_t du = d[uy * w + ux];
					if (du != INF && du + cost[v] < d[v]) {
						d[v] = du + cost[v];
						changed = true;
					}
				}
			}
		}
	}
}

static void test_open_grid_is_chebyshev(void **st)
{
	(void)st;
	enum { W = 9, H = 6 };
	uint8_t cost[W * H];
	uint16_t dist[W * H];
	memset(cost, 1, sizeof(cost));
	path_dijkstra(cost, W, H, 2, 3, dist);
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			int dx = abs(x - 2), dy = abs(y - 3);
			assert_int_equal(dist[y * W + x], dx > dy ? dx : dy);
		}
	}
}

static void test_walls_and_unreachable(void **st)
{
	(void)st;
	/* ..#..
	 * ..#..
	 * ..#..   goal (0,0); the right side is walled off */
	enum { W = 5, H = 3 };
	uint8_t cost[W * H];
	uint16_t dist[W * H];
	memset(cost, 1, sizeof(cost));
	for (int y = 0; y < H; y++)
		cost[y * W + 2] = 0;
	path_dijkstra(cost, W, H, 0, 0, dist);
	assert_int_equal(dist[0], 0);
	assert_int_equal(dist[1 * W + 1], 1);
	assert_int_equal(dist[2 * W + 1], 2);
	for (int y = 0; y < H; y++)
		for (int x = 2; x < W; x++)
			assert_int_equal(dist[y * W + x], PATH_UNREACHABLE);
	int nx, ny;
	assert_int_equal(path_step(dist, cost, W, H, 4, 1, &nx, &ny), -1);
	assert_int_equal(path_step(dist, cost, W, H, 0, 0, &nx, &ny), -1); /* at the goal */
	assert_int_equal(path_step(dist, cost, W, H, -1, 0, &nx, &ny), -1);
	/* goal off the array: everything unreachable */
	path_dijkstra(cost, W, H, W, 0, dist);
	for (int i = 0; i < W * H; i++)
		assert_int_equal(dist[i], PATH_UNREACHABLE);
	/* an impassable goal (the player's cell, say) is still the goal */
	cost[0] = 0;
	path_dijkstra(cost, W, H, 0, 0, dist);
	assert_int_equal(dist[0], 0);
	assert_int_equal(dist[1], 1);
	assert_int_equal(path_step(dist, cost, W, H, 1, 1, &nx, &ny), 0);
	assert_int_equal(nx, 0);
	assert_int_equal(ny, 0);
}

static void test_costly_cells_are_routed_around(void **st)
{
	(void)st;
	/* A corridor 3 wide; a "monster" (cost 9) in the middle of the
	 * straight line: the path bends around it. */
	enum { W = 7, H = 3 };
	uint8_t cost[W * H];
	uint16_t dist[W * H];
	memset(cost, 1, sizeof(cost));
	cost[1 * W + 3] = 9;
	path_dijkstra(cost, W, H, 6, 1, dist);
	assert_int_equal(dist[1 * W + 3], 9 + 2); /* its cost + dist of (4,1) */
	int x = 0, y = 1, steps = 0;
	while (path_step(dist, cost, W, H, x, y, &x, &y) == 0) {
		assert_true(!(x == 3 && y == 1));
		steps++;
	}
	assert_int_equal(x, 6);
	assert_int_equal(y, 1);
	assert_int_equal(steps, 6);
}

static void test_step_ties_prefer_orthogonal(void **st)
{
	(void)st;
	enum { W = 5, H = 5 };
	uint8_t cost[W * H];
	uint16_t dist[W * H];
	int nx, ny;
	memset(cost, 1, sizeof(cost));
	/* goal (2,0): from (1,2) N (1,1) and NE (2,1) are both at 1 */
	path_dijkstra(cost, W, H, 2, 0, dist);
	assert_int_equal(path_step(dist, cost, W, H, 1, 2, &nx, &ny), 0);
	assert_int_equal(nx, 1);
	assert_int_equal(ny, 1);
	/* from (0,2) only the diagonal NE (1,1) is lower than its rivals */
	assert_int_equal(path_step(dist, cost, W, H, 0, 2, &nx, &ny), 0);
	assert_int_equal(nx, 1);
	assert_int_equal(ny, 1);
	/* goal (4,0), wall at (3,1): from (2,2) N and E tie at 2: N first */
	cost[1 * W + 3] = 0;
	path_dijkstra(cost, W, H, 4, 0, dist);
	assert_int_equal(dist[1 * W + 2], 2);
	assert_int_equal(dist[2 * W + 3], 2);
	assert_int_equal(path_step(dist, cost, W, H, 2, 2, &nx, &ny), 0);
	assert_int_equal(nx, 2);
	assert_int_equal(ny, 1);
	/* a cell with no distance of its own (the mover stands on a cell
	 * marked impassable) still steps to its lowest neighbour */
	cost[2 * W + 2] = 0;
	path_dijkstra(cost, W, H, 4, 0, dist);
	assert_int_equal(dist[2 * W + 2], PATH_UNREACHABLE);
	assert_int_equal(path_step(dist, cost, W, H, 2, 2, &nx, &ny), 0);
	assert_int_equal(nx, 2);
	assert_int_equal(ny, 1);
}

/* Random cost maps against the reference; every downhill walk reaches the
 * goal paying exactly dist. */
static void test_random_against_reference(void **st)
{
	(void)st;
	struct rng r;
	rng_seed(&r, 2024);
	uint8_t cost[40 * 30];
	uint16_t dist[40 * 30];
	uint32_t ref[40 * 30];
	for (int round = 0; round < 40; round++) {
		int w = rng_range(&r, 1, 40), h = rng_range(&r, 1, 30);
		int maxc = round % 4 == 0 ? 255 : rng_range(&r, 1, 9);
		int holes = rng_range(&r, 0, 40);
		for (int i = 0; i < w * h; i++)
			cost[i] = rng_range(&r, 0, 99) < holes ? 0 : (uint8_t)rng_range(&r, 1, maxc);
		int gx = rng_range(&r, 0, w - 1), gy = rng_range(&r, 0, h - 1);
		path_dijkstra(cost, w, h, gx, gy, dist);
		reference(cost, w, h, gx, gy, ref);
		for (int i = 0; i < w * h; i++) {
			uint32_t want = ref[i] == 0xFFFFFFFFu ? PATH_UNREACHABLE : ref[i];
			assert_int_equal(dist[i], want);
		}
		for (int i = 0; i < w * h; i++) {
			if (dist[i] == PATH_UNREACHABLE || i == gy * w + gx)
				continue;
			int x = i % w, y = i / w, steps = 0;
			uint32_t paid = cost[i];
			while (path_step(dist, cost, w, h, x, y, &x, &y) == 0) {
				assert_true(steps++ < w * h);
				if (x != gx || y != gy)
					paid += cost[y * w + x];
			}
			assert_int_equal(x, gx);
			assert_int_equal(y, gy);
			assert_int_equal(paid, dist[i]);
		}
	}
}

static void test_saturation_and_large_maps(void **st)
{
	(void)st;
	/* a 400-cell line of cost 255: sums pass 65534 and saturate there */
	enum { N = 400 };
	uint8_t cost[N];
	uint16_t dist[N];
	memset(cost, 255, sizeof(cost));
	path_dijkstra(cost, N, 1, 0, 0, dist);
	assert_int_equal(dist[0], 0);
	assert_int_equal(dist[1], 255);
	assert_int_equal(dist[256], 65280);
	assert_int_equal(dist[257], PATH_UNREACHABLE - 1);
	assert_int_equal(dist[N - 1], PATH_UNREACHABLE - 1);
	/* a map above the no-allocation size */
	enum { BW = 200, BH = 100 };
	uint8_t *big = malloc(BW * BH);
	uint16_t *bd = malloc(sizeof(*bd) * BW * BH);
	assert_non_null(big);
	assert_non_null(bd);
	memset(big, 1, BW * BH);
	path_dijkstra(big, BW, BH, 0, 0, bd);
	assert_int_equal(bd[(BH - 1) * BW + BW - 1], BW - 1);
	assert_int_equal(bd[(BH - 1) * BW + 5], BH - 1);
	free(big);
	free(bd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_grid_is_chebyshev),
		cmocka_unit_test(test_walls_and_unreachable),
		cmocka_unit_test(test_costly_cells_are_routed_around),
		cmocka_unit_test(test_step_ties_prefer_orthogonal),
		cmocka_unit_test(test_random_against_reference),
		cmocka_unit_test(test_saturation_and_large_maps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
