/* bench_ai: one whole game turn (the player waits, every monster acts, the view brought up to date, which for a player who waits is kept as it was: map_view) with 10, 100 and 1,000 monsters hunting on 80x43 and 200x200 floors: how the cost grows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "core/rng.h"
#include "game/ai.h"
#include "game/path.h"
#include "game/world.h"

#define SEEDS 3
#define ROUNDS 10
#define TURNS 10 /* consecutive turns per round */
#define MAXM 1000

struct start {
	ecs_entity e;
	int x, y;
};

/* A generated floor with n monsters on random free cells, all hunting the
 * player (they saw him where he stands); he cannot be hurt, so every turn
 * runs to the end. */
static struct game *setup(uint64_t seed, int n, struct start *st, int near, int mw, int mh)
{
	struct game *g;
	struct game_opts o = {.seed = seed, .mapgen = MAPGEN_CLASSIC, .map_w = mw, .map_h = mh};
	if (game_create(&g, &o)) {
		fprintf(stderr, "bench_ai: cannot create a game\n");
		exit(1);
	}
	world_clear_monsters(g, 1);
	((struct c_actor *)ecs_get_mut(g->w, g->player, COMP_ACTOR))->defense = 1000;
	const struct map *m = game_map(g);
	struct rng r;
	rng_seed(&r, seed);
	/* near > 0: only cells within that many steps of the player */
	static uint8_t cost[MAP_MAX_CELLS];
	static uint16_t dist[MAP_MAX_CELLS];
	for (int i = 0; i < mw * mh; i++)
		cost[i] = m->tile[i] != TILE_WALL;
	int px, py;
	game_player_pos(g, &px, &py);
	path_dijkstra(cost, mw, mh, px, py, dist);
	for (int i = 0, tries = 0; i < n && tries < 1000000; tries++) {
		int x = rng_range(&r, 0, mw - 1), y = rng_range(&r, 0, mh - 1);
		if (!map_walkable(m, x, y) || world_blocker_at(g, 1, x, y) != ECS_NULL)
			continue;
		if (near > 0 && dist[y * mw + x] > near)
			continue;
		enum actor_kind k = (enum actor_kind)(ACTOR_GOBLIN + i % 3);
		if (world_spawn_actor(g, k, 1, x, y, &st[i].e)) {
			fprintf(stderr, "bench_ai: cannot spawn\n");
			exit(1);
		}
		st[i].x = x;
		st[i].y = y;
		i++;
	}
	world_refresh_view(g);
	return g;
}

/* Puts every monster back where it started, hunting the player. */
static void reset(struct game *g, const struct start *st, int n)
{
	int px, py;
	game_player_pos(g, &px, &py);
	for (int i = 0; i < n; i++) {
		world_move(g, st[i].e, st[i].x, st[i].y);
		struct c_ai *ai = ecs_get_mut(g->w, st[i].e, COMP_AI);
		ai->state = AI_HUNTING;
		ai->last_x = px;
		ai->last_y = py;
	}
	world_rebuild_occ(g);
}

static void turns(struct game *g)
{
	for (int t = 0; t < TURNS; t++)
		if (game_apply(g, CMD_WAIT) != 1) {
			fprintf(stderr, "bench_ai: the turn did not happen\n");
			exit(1);
		}
}

int main(int argc, char **argv)
{
	bool ir = bench_ir_mode(argc, argv);
	static struct start st[MAXM];
	/* monsters: spread over the floor (the map must reach the farthest),
	 * or within 12 steps of the player (a pack that has seen him) */
	static const struct {
		int n, near;
	} cases[] = { { 10, 0 }, { 100, 0 }, { 1000, 0 }, { 10, 12 }, { 100, 12 } };
	static const int sizes[][2] = { { MAP_W, MAP_H }, { 200, 200 } };
	for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
		int mw = sizes[z][0], mh = sizes[z][1];
		if (!ir)
			printf("one whole turn (player waits, monsters act, view), monsters hunting on a %dx%d floor:\n",
			       mw, mh);
		for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
			int n = cases[c].n;
			long placed = 0;
			double best = 1e30;
			char key[96];
			snprintf(key, sizeof key, "whole turn, %d monsters %s, %dx%d", n,
				 cases[c].near ? "within 12 steps" : "anywhere", mw, mh);
			for (uint64_t s = 1; s <= SEEDS; s++) {
				struct game *g = setup(s * 101, n, st, cases[c].near, mw, mh);
				int k = (int)(ecs_pool_count(g->w, COMP_AI));
				placed += k;
				if (ir) {
					reset(g, st, k);
					turns(g); /* warm-up */
					reset(g, st, k);
					bench_ir_start();
					turns(g);
					bench_ir_stop(key, "pirogue", TURNS, n == 100 && z == 0 ? 100000 : 0);
				} else {
					for (int r = 0; r < ROUNDS; r++) {
						reset(g, st, k);
						double t0 = bench_now();
						turns(g);
						double t = (bench_now() - t0) / TURNS;
						if (t < best)
							best = t;
					}
				}
				game_destroy(g);
			}
			/* issue 10: 1,000 monsters on 200x200 in under 1 ms per turn */
			bool big = mw * mh >= 200 * 200 && n == 1000 && !cases[c].near;
			if (!ir)
				printf("  %s (%.0f placed): best %8.1f us/turn%s%s%s\n", key, (double)placed / SEEDS,
				       best * 1e6, big ? "; target < 1000 us: " : "", big ? bench_met(best < 1e-3) : "",
				       big ? " (that best turn, this run)" : "");
		}
	}
	return 0;
}
