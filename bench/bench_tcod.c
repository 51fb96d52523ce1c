/* bench_tcod: pirogue against Debian's libtcod on exactly the same maps, origins and goals: FOV (symmetric and shadow), distance maps against libtcod's Dijkstra, a monster step each for 100 monsters against libtcod at its best (one Dijkstra map, each step read off it), then against 100 A* paths. */
#include <libtcod/fov.h>
#include <libtcod/path.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "benchmaps.h"
#include "game/fov.h"
#include "game/map.h"
#include "game/mapgen.h"
#include "game/path.h"

#define RADIUS 8
#define ORIGINS 1000
#define PASSES 9

static volatile unsigned sink;
static bool ir;

/* ---- one map, both libraries' views of it ---- */
struct fmap {
	const char *label;
	int w, h;
	uint8_t *opaque;
	TCOD_Map *tm;
	uint8_t *vis;
	struct fov_box box;
	int orig[ORIGINS];
};

static void fmap_init(struct fmap *m, const char *label, int w, int h, uint8_t *opaque)
{
	m->label = label;
	m->w = w;
	m->h = h;
	m->opaque = opaque;
	m->tm = TCOD_map_new(w, h);
	m->vis = calloc((size_t)w * (size_t)h, 1);
	if (!m->tm || !m->vis) {
		fprintf(stderr, "bench_tcod: out of memory\n");
		exit(1);
	}
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			TCOD_map_set_properties(m->tm, x, y, !opaque[y * w + x], !opaque[y * w + x]);
	benchmap_origins(opaque, w, h, m->orig, ORIGINS, 99);
	m->box = fov_box_all(w, h);
}

/* The sides of a FOV case: one call for origin i. */
typedef void (*fov_side)(struct fmap *m, int i, int radius);

static void p_compute(struct fmap *m, int i, int radius)
{
	fov_compute(m->opaque, m->w, m->h, m->orig[i] % m->w, m->orig[i] / m->w, radius, m->vis);
}

/* What the game runs each turn. */
static void p_game(struct fmap *m, int i, int radius)
{
	fov_update(m->opaque, FOV_OPAQUE_NONZERO, m->w, m->h, m->orig[i] % m->w, m->orig[i] / m->w, radius, m->vis,
		   &m->box);
}

static void t_sym(struct fmap *m, int i, int radius)
{
	TCOD_map_compute_fov(m->tm, m->orig[i] % m->w, m->orig[i] / m->w, radius < 0 ? 0 : radius, true,
			     FOV_SYMMETRIC_SHADOWCAST);
}

static void t_shadow(struct fmap *m, int i, int radius)
{
	TCOD_map_compute_fov(m->tm, m->orig[i] % m->w, m->orig[i] / m->w, radius < 0 ? 0 : radius, true, FOV_SHADOW);
}

static double time_fov(struct fmap *m, fov_side f, int radius)
{
	double best = 1e30;
	for (int p = 0; p < PASSES; p++) {
		double t0 = bench_now();
		for (int i = 0; i < ORIGINS; i++) {
			f(m, i, radius);
			sink += m->vis[m->orig[(i + 1) % ORIGINS]];
		}
		double t = bench_now() - t0;
		if (t < best)
			best = t;
	}
	return best * 1e9 / ORIGINS;
}

static void ir_fov(struct fmap *m, const char *key, const char *side, fov_side f, int radius, long target)
{
	for (int i = 0; i < 4; i++) /* warm-up: lazy binding, first clear */
		f(m, i, radius);
	bench_ir_start();
	for (int i = 0; i < ORIGINS; i++)
		f(m, i, radius);
	bench_ir_stop(key, side, ORIGINS, target);
}

/* One comparison line: pirogue's side a against libtcod's b. */
static void fov_case(struct fmap *m, const char *what, fov_side a, const char *bname, fov_side b, int radius,
		     long target)
{
	char key[160];
	snprintf(key, sizeof key, "FOV %s, %s", what, m->label);
	if (ir) {
		ir_fov(m, key, "pirogue", a, radius, target);
		ir_fov(m, key, bname, b, radius, 0);
		return;
	}
	(void)time_fov(m, a, radius); /* warm-up */
	double ta = time_fov(m, a, radius), tb = time_fov(m, b, radius);
	printf("  %s: pirogue %.0f ns, %s %.0f ns, ratio %.2f\n", key, ta, bname, tb, ta / tb);
}

/* How the visible sets differ, over every origin: floor and wall cells seen
 * by one side only. */
static void fov_compare(struct fmap *m, const char *what, fov_side a, fov_side b, int radius)
{
	long same = 0, pf = 0, pw = 0, tf = 0, tw = 0;
	for (int i = 0; i < ORIGINS; i++) {
		a(m, i, radius);
		b(m, i, radius);
		for (int y = 0; y < m->h; y++)
			for (int x = 0; x < m->w; x++) {
				int pv = m->vis[y * m->w + x] != 0, tv = TCOD_map_is_in_fov(m->tm, x, y);
				int wall = m->opaque[y * m->w + x] != 0;
				if (pv == tv)
					same += pv;
				else if (pv)
					*(wall ? &pw : &pf) += 1;
				else
					*(wall ? &tw : &tf) += 1;
			}
	}
	printf("  visible sets, %s, %s: both %.1f cells/call; pirogue only %.2f floor + %.2f wall; libtcod only "
	       "%.2f floor + %.2f wall\n",
	       what, m->label, (double)same / ORIGINS, (double)pf / ORIGINS, (double)pw / ORIGINS,
	       (double)tf / ORIGINS, (double)tw / ORIGINS);
}

static void bench_fov(void)
{
	static uint8_t rooms[80 * 50], big[200 * 200], cave[200 * 200];
	benchmap_rooms(rooms, 80, 50, 1);
	benchmap_rooms(big, 200, 200, 1);
	benchmap_cave(cave, 200, 200, 3);
	static struct fmap a, b, c;
	fmap_init(&a, "80x50 rooms", 80, 50, rooms);
	fmap_init(&b, "200x200 rooms", 200, 200, big);
	fmap_init(&c, "200x200 cave", 200, 200, cave);
	if (!ir)
		printf("FOV, %d origins on floor, best of %d passes (ns per call):\n", ORIGINS, PASSES);
	/* libtcod at its best first: its fastest FOV (not symmetric), then the same algorithm as pirogue's */
	fov_case(&a, "r8 (fov_compute) vs libtcod's fastest", p_compute, "libtcod-shadow", t_shadow, RADIUS, 0);
	fov_case(&a, "r8 symmetric (fov_compute) vs libtcod's same algorithm", p_compute, "libtcod-symmetric", t_sym,
		 RADIUS, 0);
	fov_case(&a, "r8 as the game runs it (fov_update, walls lit)", p_game, "libtcod-symmetric", t_sym, RADIUS,
		 8800);
	fov_case(&b, "r8 as the game runs it", p_game, "libtcod-symmetric", t_sym, RADIUS, 0);
	fov_case(&c, "unlimited as the game runs it", p_game, "libtcod-shadow", t_shadow, -1, 0);
	fov_case(&c, "unlimited as the game runs it (symmetric)", p_game, "libtcod-symmetric", t_sym, -1, 0);
	if (ir)
		return;
	fov_compare(&a, "r8 symmetric (game) vs libtcod symmetric", p_game, t_sym, RADIUS);
	fov_compare(&a, "r8 symmetric (game) vs libtcod shadow", p_game, t_shadow, RADIUS);
	fov_compare(&c, "unlimited (game) vs libtcod symmetric", p_game, t_sym, -1);
}

/* ---- paths on a generated 80x43 floor: 1 per floor cell, 10 under each of
 * 100 monsters (the game's crowd cost), 8-way, diagonals cost the same ---- */
#define MONSTERS 100
static uint8_t pcost[MAP_W * MAP_H];
static uint16_t pdist[MAP_W * MAP_H];
static int mon[MONSTERS], goal_cell;
static TCOD_Dijkstra *tdij;
static TCOD_path_t tpath;

static float tcod_cost(int xf, int yf, int xt, int yt, void *data)
{
	(void)xf, (void)yf, (void)data;
	return (float)pcost[yt * MAP_W + xt];
}

/* pirogue: one distance map from the player, then each monster's step */
static void p_steps(void)
{
	path_dijkstra(pcost, MAP_W, MAP_H, goal_cell % MAP_W, goal_cell / MAP_W, pdist);
	for (int i = 0; i < MONSTERS; i++) {
		int nx, ny;
		if (path_step(pdist, pcost, MAP_W, MAP_H, mon[i] % MAP_W, mon[i] / MAP_W, &nx, &ny) == 0)
			sink += (unsigned)nx;
	}
}

/* libtcod at its best for many chasers (its docs: one Dijkstra map from
 * the target, then each chaser's path read off it): the map, then each
 * monster's first step (TCOD_dijkstra_path_set + TCOD_dijkstra_path_walk) */
static void t_steps_dijkstra(void)
{
	TCOD_dijkstra_compute(tdij, goal_cell % MAP_W, goal_cell / MAP_W);
	for (int i = 0; i < MONSTERS; i++) {
		int nx, ny;
		if (TCOD_dijkstra_path_set(tdij, mon[i] % MAP_W, mon[i] / MAP_W) &&
		    TCOD_dijkstra_path_walk(tdij, &nx, &ny))
			sink += (unsigned)nx;
	}
}

/* libtcod: an A* path from each monster to the player, its first step */
static void t_steps(void)
{
	for (int i = 0; i < MONSTERS; i++) {
		int nx, ny;
		if (TCOD_path_compute(tpath, mon[i] % MAP_W, mon[i] / MAP_W, goal_cell % MAP_W, goal_cell / MAP_W) &&
		    TCOD_path_walk(tpath, &nx, &ny, false))
			sink += (unsigned)nx;
	}
}

static void p_map(void)
{
	path_dijkstra(pcost, MAP_W, MAP_H, goal_cell % MAP_W, goal_cell / MAP_W, pdist);
}

static void t_map(void)
{
	TCOD_dijkstra_compute(tdij, goal_cell % MAP_W, goal_cell / MAP_W);
}

static void path_case(const char *key, void (*a)(void), const char *bname, void (*b)(void))
{
	if (ir) {
		a();
		b();
		bench_ir_start();
		a();
		bench_ir_stop(key, "pirogue", 1, 0);
		bench_ir_start();
		b();
		bench_ir_stop(key, bname, 1, 0);
		return;
	}
	double ta = 1e30, tb = 1e30;
	for (int p = 0; p < PASSES * 5; p++) {
		double t0 = bench_now();
		a();
		double t1 = bench_now();
		b();
		double t2 = bench_now();
		ta = t1 - t0 < ta ? t1 - t0 : ta;
		tb = t2 - t1 < tb ? t2 - t1 : tb;
	}
	printf("  %s: pirogue %.0f ns, %s %.0f ns, ratio %.2f\n", key, ta * 1e9, bname, tb * 1e9, ta / tb);
}

static void bench_paths(void)
{
	static struct map m;
	struct rng r;
	rng_seed(&r, 4242);
	mapgen_generate(&m, MAPGEN_CLASSIC, 1, &r);
	for (int i = 0; i < MAP_W * MAP_H; i++)
		pcost[i] = m.tile[i] != TILE_WALL;
	int sx, sy;
	map_start(&m, &sx, &sy);
	goal_cell = sy * MAP_W + sx;
	for (int i = 0; i < MONSTERS;) {
		int c = rng_range(&r, 0, MAP_W * MAP_H - 1);
		if (pcost[c] == 1 && c != goal_cell) {
			pcost[c] = 10;
			mon[i++] = c;
		}
	}
	tdij = TCOD_dijkstra_new_using_function(MAP_W, MAP_H, tcod_cost, NULL, 1.0f);
	tpath = TCOD_path_new_using_function(MAP_W, MAP_H, tcod_cost, NULL, 1.0f);
	/* the same distances, or the figures mean nothing (libtcod's exclude
	 * the goal's cost too, and count the cell entered) */
	p_map();
	t_map();
	long differ = 0;
	for (int i = 0; i < MAP_W * MAP_H; i++) {
		float td = TCOD_dijkstra_get_distance(tdij, i % MAP_W, i / MAP_W);
		if (pdist[i] != PATH_UNREACHABLE && (long)td != (long)pdist[i])
			differ++;
	}
	if (!ir) {
		printf("paths on a generated 80x43 floor, 100 monsters costing 10 (distances differing from libtcod's: "
		       "%ld cells):\n", differ);
	}
	path_case("distance map from the player (path_dijkstra vs TCOD_dijkstra_compute)", p_map, "libtcod", t_map);
	/* the fair comparison first: libtcod used as its docs advise for many
	 * chasers; 100 A* searches after it, for reference only */
	path_case("100 monsters' steps: one map + 100 steps each side (libtcod at its best: TCOD_dijkstra_compute + "
		  "TCOD_dijkstra_path_set/walk)", p_steps, "libtcod", t_steps_dijkstra);
	path_case("100 monsters' steps, libtcod used per monster (100 A* paths; for reference, not a fair comparison)",
		  p_steps, "libtcod", t_steps);
}

int main(int argc, char **argv)
{
	ir = bench_ir_mode(argc, argv);
	bench_fov();
	bench_paths();
	return 0;
}
