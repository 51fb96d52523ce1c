/* bench_fov: fov_compute and path_dijkstra per call against naive baselines (ray casting, BFS, binary-heap Dijkstra) measured in the same run. */
#include "bench.h"
#include "benchmaps.h"
#include "core/rng.h"
#include "game/fov.h"
#include "game/map.h"
#include "game/mapgen.h"
#include "game/path.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RADIUS 8
#define ORIGINS 1000
#define PASSES 15
#define GOALS 200

/* Keeps the compiler from dropping work whose result is unused. */
static volatile unsigned sink;

/* ---- baseline FOV: libtcod's FOV_BASIC idea. A Bresenham ray from the
 * origin to every cell on the border of the radius square; each ray lights
 * cells until (and including) the first wall; then the circle is applied. */
static void fov_rays(const uint8_t *opaque, int w, int h, int ox, int oy, int radius, uint8_t *vis)
{
	memset(vis, 0, (size_t)w * (size_t)h);
	vis[oy * w + ox] = 1;
	int r2 = radius * radius + radius;
	for (int side = 0; side < 4; side++) {
		for (int k = -radius; k < radius; k++) {
			int tx, ty;
			switch (side) {
			case 0: tx = ox + k; ty = oy - radius; break;
			case 1: tx = ox + radius; ty = oy + k; break;
			case 2: tx = ox - k; ty = oy + radius; break;
			default: tx = ox - radius; ty = oy - k; break;
			}
			int dx = abs(tx - ox), sx = ox < tx ? 1 : -1;
			int dy = -abs(ty - oy), sy = oy < ty ? 1 : -1;
			int err = dx + dy, x = ox, y = oy;
			while (x != tx || y != ty) {
				int e2 = 2 * err;
				if (e2 >= dy) {
					err += dy;
					x += sx;
				}
				if (e2 <= dx) {
					err += dx;
					y += sy;
				}
				if (x < 0 || y < 0 || x >= w || y >= h)
					break;
				int ddx = x - ox, ddy = y - oy;
				if (ddx * ddx + ddy * ddy > r2)
					break;
				vis[y * w + x] = 1;
				if (opaque[y * w + x])
					break;
			}
		}
	}
}

/* What the game does per turn (map_update_fov): the view, then the walls
 * bounding it. */
static void fov_with_walls(const uint8_t *op, int w, int h, int ox, int oy, int radius, uint8_t *vis)
{
	fov_compute(op, w, h, ox, oy, radius, vis);
	fov_light_walls(op, w, h, ox, oy, radius, vis);
}

typedef void (*fov_fn)(const uint8_t *, int, int, int, int, int, uint8_t *);

/* Best and median ns per call over PASSES passes of all origins. */
static void time_fov(fov_fn f, const uint8_t *op, int w, int h, const int *orig, double *best, double *median,
		     long *seen)
{
	uint8_t *vis = malloc((size_t)w * (size_t)h);
	double t[PASSES];
	if (!vis)
		exit(1);
	*seen = 0;
	for (int p = 0; p < PASSES; p++) {
		double t0 = bench_now();
		for (int i = 0; i < ORIGINS; i++) {
			f(op, w, h, orig[i] % w, orig[i] / w, RADIUS, vis);
			sink += vis[orig[(i + 1) % ORIGINS]];
		}
		t[p] = bench_now() - t0;
	}
	for (int i = 0; i < ORIGINS; i++) { /* how much each one sees */
		f(op, w, h, orig[i] % w, orig[i] / w, RADIUS, vis);
		for (int j = 0; j < w * h; j++)
			*seen += vis[j];
	}
	struct bench_stat s = bench_summarise(t, PASSES);
	*best = s.best * 1e9 / ORIGINS;
	*median = s.median * 1e9 / ORIGINS;
	free(vis);
}

static void bench_fov_on(const char *label, const uint8_t *op, int w, int h)
{
	static int orig[ORIGINS];
	benchmap_origins(op, w, h, orig, ORIGINS, 99);
	double sb, sm, rb, rm, wb, wm;
	long ss, rs, ws;
	time_fov(fov_compute, op, w, h, orig, &sb, &sm, &ss); /* warm-up */
	time_fov(fov_rays, op, w, h, orig, &rb, &rm, &rs);
	time_fov(fov_compute, op, w, h, orig, &sb, &sm, &ss);
	time_fov(fov_with_walls, op, w, h, orig, &wb, &wm, &ws);
	printf("FOV radius %d on %s, %d origins on floor, best (median) of %d passes:\n", RADIUS, label, ORIGINS,
	       PASSES);
	printf("  fov_compute (symmetric shadowcasting): %7.0f ns/call (%7.0f), %5.1f cells seen/call\n", sb, sm,
	       (double)ss / ORIGINS);
	printf("  baseline rays to the square's border:  %7.0f ns/call (%7.0f), %5.1f cells seen/call\n", rb, rm,
	       (double)rs / ORIGINS);
	printf("  fov_compute + fov_light_walls:         %7.0f ns/call (%7.0f), %5.1f cells seen/call\n", wb, wm,
	       (double)ws / ORIGINS);
	printf("  ratio shadowcasting/rays: %.2f, with fov_light_walls %.2f (below 1 = faster than the baseline)\n",
	       sb / rb, wb / rb);
}

/* ---- baseline distance maps ---- */
static const int DX[8] = { 0, 1, 0, -1, 1, 1, -1, -1 }, DY[8] = { -1, 0, 1, 0, -1, 1, 1, -1 };

/* Plain breadth-first search, every passable cell costing 1 (ignores the
 * higher costs, so it is the floor any distance map can hope for). */
static void bfs(const uint8_t *cost, int w, int h, int gx, int gy, uint16_t *dist)
{
	static int queue[1 << 16];
	int qh = 0, qt = 0;
	for (int i = 0; i < w * h; i++)
		dist[i] = PATH_UNREACHABLE;
	dist[gy * w + gx] = 0;
	queue[qt++] = gy * w + gx;
	while (qh < qt) {
		int u = queue[qh++], ux = u % w, uy = u / w;
		for (int k = 0; k < 8; k++) {
			int x = ux + DX[k], y = uy + DY[k];
			if (x < 0 || y < 0 || x >= w || y >= h)
				continue;
			int v = y * w + x;
			if (!cost[v] || dist[v] != PATH_UNREACHABLE)
				continue;
			dist[v] = (uint16_t)(dist[u] + 1);
			queue[qt++] = v;
		}
	}
}

/* Textbook Dijkstra with a binary heap and lazy deletion, same costs and
 * same result as path_dijkstra. */
static void heap_dijkstra(const uint8_t *cost, int w, int h, int gx, int gy, uint16_t *dist)
{
	static uint32_t heap[8 * (1 << 14)]; /* (dist << 16 | cell) */
	int n = 0;
	for (int i = 0; i < w * h; i++)
		dist[i] = PATH_UNREACHABLE;
	dist[gy * w + gx] = 0;
	heap[n++] = (uint32_t)(gy * w + gx);
	while (n > 0) {
		uint32_t top = heap[0];
		heap[0] = heap[--n];
		for (int i = 0;;) { /* sift down */
			int l = 2 * i + 1, s = i;
			if (l < n && heap[l] < heap[s])
				s = l;
			if (l + 1 < n && heap[l + 1] < heap[s])
				s = l + 1;
			if (s == i)
				break;
			uint32_t t = heap[i];
			heap[i] = heap[s];
			heap[s] = t;
			i = s;
		}
		int u = (int)(top & 0xFFFF);
		unsigned du = top >> 16;
		if (du != dist[u])
			continue;
		int ux = u % w, uy = u / w;
		for (int k = 0; k < 8; k++) {
			int x = ux + DX[k], y = uy + DY[k];
			if (x < 0 || y < 0 || x >= w || y >= h)
				continue;
			int v = y * w + x;
			if (!cost[v])
				continue;
			unsigned nd = du + cost[v];
			if (nd > PATH_UNREACHABLE - 1)
				nd = PATH_UNREACHABLE - 1;
			if (nd >= dist[v])
				continue;
			dist[v] = (uint16_t)nd;
			int i = n++;
			heap[i] = (uint32_t)(nd << 16 | (unsigned)v);
			while (i > 0 && heap[(i - 1) / 2] > heap[i]) { /* sift up */
				uint32_t t = heap[i];
				heap[i] = heap[(i - 1) / 2];
				heap[(i - 1) / 2] = t;
				i = (i - 1) / 2;
			}
		}
	}
}

typedef void (*path_fn)(const uint8_t *, int, int, int, int, uint16_t *);

static double time_path(path_fn f, const uint8_t *cost, const int *goal, uint16_t *dist)
{
	double t[PASSES];
	for (int p = 0; p < PASSES; p++) {
		double t0 = bench_now();
		for (int i = 0; i < GOALS; i++) {
			f(cost, MAP_W, MAP_H, goal[i] % MAP_W, goal[i] / MAP_W, dist);
			sink += dist[goal[(i + 1) % GOALS]];
		}
		t[p] = bench_now() - t0;
	}
	return bench_summarise(t, PASSES).best * 1e9 / GOALS;
}

static void bench_path(void)
{
	static struct map m;
	struct rng r;
	rng_seed(&r, 4242);
	mapgen_generate(&m, MAPGEN_CLASSIC, 1, &r);
	/* cost 1 on floor, 5 on 60 cells standing for monsters */
	static uint8_t cost[MAP_W * MAP_H];
	static int goal[GOALS];
	static uint16_t d1[MAP_W * MAP_H], d2[MAP_W * MAP_H];
	for (int i = 0; i < MAP_W * MAP_H; i++)
		cost[i] = m.tile[i] != TILE_WALL;
	for (int placed = 0; placed < 60;) {
		int c = rng_range(&r, 0, MAP_W * MAP_H - 1);
		if (cost[c] == 1) {
			cost[c] = 5;
			placed++;
		}
	}
	for (int i = 0; i < GOALS;) {
		int c = rng_range(&r, 0, MAP_W * MAP_H - 1);
		if (cost[c])
			goal[i++] = c;
	}
	/* the same answers as the textbook algorithm, or the figures mean nothing */
	for (int i = 0; i < GOALS; i++) {
		path_dijkstra(cost, MAP_W, MAP_H, goal[i] % MAP_W, goal[i] / MAP_W, d1);
		heap_dijkstra(cost, MAP_W, MAP_H, goal[i] % MAP_W, goal[i] / MAP_W, d2);
		if (memcmp(d1, d2, sizeof d1) != 0) {
			fprintf(stderr, "bench_fov: path_dijkstra disagrees with the binary-heap Dijkstra\n");
			exit(1);
		}
	}
	(void)time_path(path_dijkstra, cost, goal, d1); /* warm-up */
	double tb = time_path(bfs, cost, goal, d1);
	double th = time_path(heap_dijkstra, cost, goal, d1);
	double tp = time_path(path_dijkstra, cost, goal, d1);
	printf("distance map on a generated 80x43 floor (60 costly cells), %d goals, best of %d passes:\n", GOALS,
	       PASSES);
	printf("  path_dijkstra (bucket queue):        %7.0f ns/call\n", tp);
	printf("  baseline binary-heap Dijkstra:       %7.0f ns/call  ratio bucket/heap %.2f\n", th, tp / th);
	printf("  baseline plain BFS (all costs 1):    %7.0f ns/call  ratio bucket/BFS  %.2f\n", tb, tp / tb);
}

int main(void)
{
	static uint8_t op[80 * 50];
	benchmap_rooms(op, 80, 50, 1);
	bench_fov_on("a generated 80x50 rooms map", op, 80, 50);
	static struct map m;
	struct rng r;
	rng_seed(&r, 7);
	mapgen_generate(&m, MAPGEN_OVERLAP, 1, &r);
	static uint8_t op2[MAP_W * MAP_H];
	map_opacity(&m, op2);
	bench_fov_on("an 80x43 'overlap' floor", op2, MAP_W, MAP_H);
	bench_path();
	return 0;
}
