/* explore: auto-explore and travel, one proposed step at a time (GAME.md §7, docs/rules.md). */
#include "game/explore.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "game/combat.h"
#include "game/items.h"
#include "game/path.h"

_Static_assert(WORLD_CELLS <= PATH_STACK_CELLS, "auto-explore's distance maps would allocate on the largest floor");

static const enum cmd move_cmd[3][3] = {
	{CMD_MOVE_NW, CMD_MOVE_N, CMD_MOVE_NE},
	{CMD_MOVE_W, CMD_NONE, CMD_MOVE_E},
	{CMD_MOVE_SW, CMD_MOVE_S, CMD_MOVE_SE},
};

void explore_distances(const struct game *g, uint8_t *cost, uint16_t *dist)
{
	const struct map *m = world_floor(g, g->depth);
	for (int i = 0; i < m->w * m->h; i++)
		cost[i] = m->explored[i] && m->tile[i] != TILE_WALL;
	int px, py;
	game_player_pos(g, &px, &py);
	path_dijkstra(cost, m->w, m->h, px, py, dist);
}

int explore_frontier(const uint16_t *dist, const struct map *m, int *x, int *y)
{
	int best = -1;
	for (int i = 0; i < m->w * m->h; i++) {
		if (dist[i] == PATH_UNREACHABLE || dist[i] == 0 || (best >= 0 && dist[i] >= dist[best]))
			continue;
		int cx = i % m->w, cy = i / m->w;
		bool frontier = false;
		for (int dy = -1; dy <= 1 && !frontier; dy++)
			for (int dx = -1; dx <= 1 && !frontier; dx++)
				if (map_in(m, cx + dx, cy + dy) && !m->explored[(cy + dy) * m->w + cx + dx])
					frontier = true;
		if (frontier)
			best = i;
	}
	if (best < 0)
		return -1;
	*x = best % m->w;
	*y = best / m->w;
	return 0;
}

/* Writes the reason to stop into why; returns 0 (the step functions' "stop"). */
__attribute__((format(printf, 3, 4))) static int stop(char *why, int len, const char *fmt, ...)
{
	if (why && len > 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, (size_t)len, fmt, ap);
		va_end(ap);
	}
	return 0;
}

static const char *article(const char *name)
{
	return name[0] && strchr("aeiou", name[0]) ? "an" : "a";
}

/* The stops shared by explore and travel (items only for explore): true,
 * with why set, when the walk must stop before its next step. An event stop
 * (an item first seen, HP fallen below half, both by the last command) is
 * reported once: it is then marked acknowledged (scratch, so the const game
 * is written through a cast: the acknowledgement is not game state). */
static bool interrupted(const struct game *g, bool items, char *why, int len)
{
	if (g->over) {
		stop(why, len, "You are dead.");
		return true;
	}
	if (combat_levelup_pending(g)) {
		stop(why, len, "Choose how to level up first.");
		return true;
	}
	ecs_entity mon = items_nearest_monster(g, -1);
	if (mon != ECS_NULL) {
		stop(why, len, "You see %s %s.", article(world_name(g, mon)), world_name(g, mon));
		return true;
	}
	if (g->events.acked == hist_count(&g->hist))
		return false;
	struct game *mut = (struct game *)g;
	ecs_entity it = g->events.new_item;
	const struct c_pos *ip = ecs_get(g->w, it, COMP_POS);
	if (items && ip && ip->floor == g->depth && world_visible(g, ip->x, ip->y)) {
		mut->events.acked = hist_count(&g->hist);
		stop(why, len, "You see %s %s.", article(world_name(g, it)), world_name(g, it));
		return true;
	}
	const struct c_actor *pa = ecs_get(g->w, g->player, COMP_ACTOR);
	if (pa->hp * 2 < pa->max_hp && g->events.hp_before * 2 >= pa->max_hp) {
		mut->events.acked = hist_count(&g->hist);
		stop(why, len, "Your health is below half.");
		return true;
	}
	return false;
}

/* The first step from the player toward (tx, ty) down dist (the player's own
 * distance map): walks back from the target to the player. */
static void first_step(const struct map *m, const uint16_t *dist, const uint8_t *cost, int px, int py, int tx,
		       int ty, struct command *step)
{
	int x = tx, y = ty;
	for (int guard = 0; guard < m->w * m->h; guard++) {
		int nx, ny;
		if (path_step(dist, cost, m->w, m->h, x, y, &nx, &ny) != 0 || (nx == px && ny == py))
			break;
		x = nx;
		y = ny;
	}
	*step = (struct command){.c = move_cmd[y - py + 1][x - px + 1], .item = -1, .x = -1, .y = -1,
				 .choice = -1};
}

int game_explore_step(const struct game *g, struct command *step, char *why, int len)
{
	if (interrupted(g, true, why, len))
		return 0;
	uint8_t cost[WORLD_CELLS];
	uint16_t dist[WORLD_CELLS];
	explore_distances(g, cost, dist);
	int tx, ty, px, py;
	if (explore_frontier(dist, world_floor(g, g->depth), &tx, &ty))
		return stop(why, len, "Explored this floor.");
	game_player_pos(g, &px, &py);
	first_step(world_floor(g, g->depth), dist, cost, px, py, tx, ty, step);
	return 1;
}

int game_travel_step(const struct game *g, bool down, struct command *step, char *why, int len)
{
	const struct map *m = world_floor(g, g->depth);
	int tx = down ? m->down_x : m->up_x, ty = down ? m->down_y : m->up_y;
	if (tx < 0)
		return stop(why, len, down ? "There are no stairs down on this floor." : "There are no stairs up on this floor.");
	if (!m->explored[ty * m->w + tx])
		return stop(why, len, "You don't know where the stairs are.");
	int px, py;
	game_player_pos(g, &px, &py);
	if (px == tx && py == ty)
		return stop(why, len, "You are on the stairs.");
	if (interrupted(g, false, why, len))
		return 0;
	uint8_t cost[WORLD_CELLS];
	uint16_t dist[WORLD_CELLS];
	explore_distances(g, cost, dist);
	if (dist[ty * m->w + tx] == PATH_UNREACHABLE)
		return stop(why, len, "You know no way to the stairs.");
	first_step(m, dist, cost, px, py, tx, ty, step);
	return 1;
}
