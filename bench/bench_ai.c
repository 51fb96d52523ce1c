/* bench_ai: the whole monster turn for 100 monsters on one floor, one shared distance map against a map per monster, in the same run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "core/rng.h"
#include "game/ai.h"
#include "game/world.h"

#define MONSTERS 100
#define SEEDS 5
#define ROUNDS 40
#define TURNS 10 /* consecutive monster turns per round */

struct start {
	ecs_entity e;
	int x, y;
};

/* A generated floor with MONSTERS monsters on random free cells, all
 * hunting the player (they saw him where he stands); the player cannot be
 * hurt, so the phase always runs to the end. */
static struct game *setup(uint64_t seed, struct start *st)
{
	struct game *g;
	struct game_opts o = {.seed = seed, .mapgen = MAPGEN_CLASSIC};
	if (game_create(&g, &o)) {
		fprintf(stderr, "bench_ai: cannot create a game\n");
		exit(1);
	}
	world_clear_monsters(g, 1);
	((struct c_actor *)ecs_get(g->w, g->player, COMP_ACTOR))->defense = 1000;
	const struct map *m = game_map(g);
	int px, py;
	game_player_pos(g, &px, &py);
	struct rng r;
	rng_seed(&r, seed);
	for (int i = 0; i < MONSTERS;) {
		int x = rng_range(&r, 0, MAP_W - 1), y = rng_range(&r, 0, MAP_H - 1);
		if (!map_walkable(m, x, y) || world_blocker_at(g, 1, x, y) != ECS_NULL)
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
static void reset(struct game *g, const struct start *st)
{
	int px, py;
	game_player_pos(g, &px, &py);
	for (int i = 0; i < MONSTERS; i++) {
		struct c_pos *p = ecs_get(g->w, st[i].e, COMP_POS);
		p->x = st[i].x;
		p->y = st[i].y;
		struct c_ai *ai = ecs_get(g->w, st[i].e, COMP_AI);
		ai->state = AI_HUNTING;
		ai->last_x = px;
		ai->last_y = py;
	}
	world_rebuild_occ(g);
}

/* Seconds for all rounds, the number of turns, and distance maps made. */
static double run(bool naive, int *turns, long *maps)
{
	static struct start st[MONSTERS];
	double total = 0;
	*turns = 0;
	*maps = 0;
	for (uint64_t s = 1; s <= SEEDS; s++) {
		struct game *g = setup(s * 101, st);
		g->ai.naive = naive;
		for (int r = 0; r < ROUNDS; r++) {
			reset(g, st);
			int runs0 = g->ai.dijkstra_runs;
			double t0 = bench_now();
			for (int t = 0; t < TURNS; t++)
				ai_take_turns(g);
			total += bench_now() - t0;
			*turns += TURNS;
			*maps += g->ai.dijkstra_runs - runs0;
		}
		game_destroy(g);
	}
	return total;
}

int main(void)
{
	int tn, ts;
	long mn, ms;
	(void)run(false, &ts, &ms); /* warm-up */
	double shared = run(false, &ts, &ms);
	double naive = run(true, &tn, &mn);
	double us_shared = shared * 1e6 / ts, us_naive = naive * 1e6 / tn;
	printf("monster turn, %d monsters hunting on an 80x43 floor (%d turns):\n", MONSTERS, ts);
	printf("  shared distance map (pirogue): %8.1f us/turn, %5.1f distance maps/turn\n", us_shared,
	       (double)ms / ts);
	printf("  one map per monster (naive):   %8.1f us/turn, %5.1f distance maps/turn\n", us_naive,
	       (double)mn / tn);
	printf("  ratio naive/shared: %.1fx\n", us_naive / us_shared);
	return 0;
}
