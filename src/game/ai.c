/* ai: monster turns on the current floor (GAME.md §2). */
#include "game/ai.h"

#include <stdlib.h>
#include <string.h>

#include "game/combat.h"
#include "game/path.h"

static const int dir_dx[8] = {0, 1, 0, -1, 1, 1, -1, -1};
static const int dir_dy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};

/* Path costs of the current floor: walls impassable, monsters crowd_cost. */
static void build_cost(struct game *g)
{
	const struct map *m = world_floor(g, g->depth);
	uint8_t *cost = g->ai.cost;
	for (int i = 0; i < WORLD_CELLS; i++)
		cost[i] = m->tile[i] != TILE_WALL ? 1 : 0;
	for (int i = 0; i < WORLD_CELLS; i++) {
		ecs_entity e = g->occ[i];
		if (e != ECS_NULL && e != g->player && cost[i])
			cost[i] = (uint8_t)content_rules.crowd_cost;
	}
}

void ai_begin_phase(struct game *g)
{
	build_cost(g);
	g->ai.player_dist_ok = false;
	for (int i = 0; i < AI_GOAL_CACHE; i++)
		g->ai.goal[i].ok = false;
	g->ai.goal_next = 0;
}

/* Distance map towards (gx, gy), computed at most once per phase per goal
 * (the player's own map is shared by every monster that sees him). */
static const uint16_t *dist_to(struct game *g, int gx, int gy, bool player)
{
	struct ai_scratch *s = &g->ai;
	if (s->naive) {
		/* Baseline for the bench: a fresh map for every monster. */
		path_dijkstra(s->cost, MAP_W, MAP_H, gx, gy, s->player_dist);
		s->dijkstra_runs++;
		return s->player_dist;
	}
	const struct c_pos *pp = ecs_get(g->w, g->player, COMP_POS);
	if (player || (pp && pp->x == gx && pp->y == gy)) {
		if (!s->player_dist_ok) {
			path_dijkstra(s->cost, MAP_W, MAP_H, gx, gy, s->player_dist);
			s->player_dist_ok = true;
			s->dijkstra_runs++;
		}
		return s->player_dist;
	}
	for (int i = 0; i < AI_GOAL_CACHE; i++)
		if (s->goal[i].ok && s->goal[i].gx == gx && s->goal[i].gy == gy)
			return s->goal[i].dist;
	int i = s->goal_next;
	s->goal_next = (i + 1) % AI_GOAL_CACHE;
	s->goal[i].gx = gx;
	s->goal[i].gy = gy;
	s->goal[i].ok = true;
	path_dijkstra(s->cost, MAP_W, MAP_H, gx, gy, s->goal[i].dist);
	s->dijkstra_runs++;
	return s->goal[i].dist;
}

/* Moves e one step down dist, onto a free cell only (the map is from the
 * start of the phase; monsters that moved since are checked live). Returns
 * true when it moved. */
static bool step_down(struct game *g, ecs_entity e, struct c_pos *p, const uint16_t *dist)
{
	const struct map *m = world_floor(g, g->depth);
	int here = dist[p->y * MAP_W + p->x];
	int best = -1, bestd = here;
	for (int d = 0; d < 8; d++) {
		int nx = p->x + dir_dx[d], ny = p->y + dir_dy[d];
		if (!map_walkable(m, nx, ny))
			continue;
		int i = ny * MAP_W + nx;
		if (dist[i] >= bestd || g->occ[i] != ECS_NULL)
			continue;
		best = d;
		bestd = dist[i];
	}
	if (best < 0)
		return false;
	int ox = p->x, oy = p->y;
	world_move(g, e, ox + dir_dx[best], oy + dir_dy[best]);
	/* The cell it left is cheap again, the one it took costly, for
	 * distance maps computed later in this phase. */
	g->ai.cost[oy * MAP_W + ox] = 1;
	g->ai.cost[p->y * MAP_W + p->x] = (uint8_t)content_rules.crowd_cost;
	return true;
}

static void stumble(struct game *g, ecs_entity e, struct c_pos *p)
{
	const struct map *m = world_floor(g, g->depth);
	int d = rng_range(&g->rng, 0, 7);
	int nx = p->x + dir_dx[d], ny = p->y + dir_dy[d];
	if (!map_walkable(m, nx, ny))
		return; /* bumps into the wall */
	ecs_entity other = world_blocker_at(g, g->depth, nx, ny);
	if (other != ECS_NULL) {
		combat_attack(g, e, other);
		return;
	}
	int ox = p->x, oy = p->y;
	world_move(g, e, nx, ny);
	g->ai.cost[oy * MAP_W + ox] = 1;
	g->ai.cost[ny * MAP_W + nx] = (uint8_t)content_rules.crowd_cost;
}

void ai_act(struct game *g, ecs_entity e)
{
	struct c_ai *ai = ecs_get(g->w, e, COMP_AI);
	struct c_pos *p = ecs_get(g->w, e, COMP_POS);
	const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
	if (!ai || !p || !a || a->hp <= 0 || p->floor != g->depth || g->over)
		return;
	if (ai->paralysed > 0) {
		ai->paralysed--;
		return;
	}
	if (ai->confused > 0) {
		ai->confused--;
		stumble(g, e, p);
		/* e may have died attacking (never: attacks do not rebound), but
		 * its components may have moved in memory: fetch again. */
		ai = ecs_get(g->w, e, COMP_AI);
		p = ecs_get(g->w, e, COMP_POS);
		if (ai && ai->confused == 0 && p && world_visible(g, p->x, p->y))
			world_msg(g, GAME_MSG_DEFAULT, "The %s is no longer confused.", world_name(g, e));
		return;
	}
	const struct c_pos *pp = ecs_get(g->w, g->player, COMP_POS);
	if (world_visible(g, p->x, p->y)) {
		ai->state = AI_HUNTING;
		ai->last_x = pp->x;
		ai->last_y = pp->y;
		int dx = abs(pp->x - p->x), dy = abs(pp->y - p->y);
		if ((dx > dy ? dx : dy) <= 1) {
			combat_attack(g, e, g->player);
			return;
		}
		(void)step_down(g, e, p, dist_to(g, pp->x, pp->y, true));
		return;
	}
	if (ai->state != AI_HUNTING)
		return;
	if (p->x == ai->last_x && p->y == ai->last_y) {
		ai->state = AI_IDLE; /* nobody here any more */
		return;
	}
	int lx = ai->last_x, ly = ai->last_y;
	if (!step_down(g, e, p, dist_to(g, lx, ly, false))) {
		ai = ecs_get(g->w, e, COMP_AI);
		ai->state = AI_IDLE; /* cannot get there: give up */
	}
}

/* Orders monsters by slot index so the phase order is plain to read. */
static int cmp_entity(const void *a, const void *b)
{
	uint32_t x = ECS_INDEX(*(const ecs_entity *)a), y = ECS_INDEX(*(const ecs_entity *)b);
	return x < y ? -1 : x > y;
}

void ai_take_turns(struct game *g)
{
	uint32_t n = ecs_pool_count(g->w, COMP_AI);
	if (n == 0 || g->over)
		return;
	ecs_entity stack[256];
	ecs_entity *list = n <= 256 ? stack : malloc(n * sizeof(*list));
	if (!list)
		list = stack, n = 256; /* degrade: the first 256 act */
	uint32_t k = 0;
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_AI) | ECS_BIT(COMP_POS));
	for (ecs_entity e; ecs_query_next(&q, &e) && k < n;) {
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		if (p->floor == g->depth)
			list[k++] = e;
	}
	qsort(list, k, sizeof(*list), cmp_entity);
	ai_begin_phase(g);
	for (uint32_t i = 0; i < k && !g->over; i++)
		ai_act(g, list[i]); /* the dead (no COMP_AI/ACTOR) are skipped */
	if (list != stack)
		free(list);
}
