/* explore: auto-explore and travel, one proposed step at a time (GAME.md §7, docs/rules.md). */
#include "game/explore.h"

#include <errno.h>
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
static bool wanted(const struct game *g, unsigned pickup, ecs_entity e);

static bool interrupted(const struct game *g, bool items, unsigned pickup, char *why, int len)
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
	if (items && ip && ip->floor == g->depth && world_visible(g, ip->x, ip->y) && !wanted(g, pickup, it)) {
		mut->events.acked = hist_count(&g->hist);
		const struct c_item *ci = ecs_get(g->w, it, COMP_ITEM);
		bool full = ci && (pickup & game_pickup_class(ci->kind)) && !items_room_for(g, it);
		stop(why, len, "You see %s %s.%s", article(world_name(g, it)), world_name(g, it),
		     full ? " Your inventory is full." : "");
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

unsigned game_pickup_class(int kind)
{
	if (kind < 0 || kind >= ITEM_COUNT)
		return 0;
	const struct item_def *d = &content_items[kind];
	if (d->effect == EFFECT_EQUIP)
		return d->slot == EQUIP_WEAPON ? GAME_PICKUP_WEAPONS : GAME_PICKUP_ARMOUR;
	return d->effect == EFFECT_HEAL ? GAME_PICKUP_POTIONS : GAME_PICKUP_SCROLLS;
}

int game_pickup_parse(const char *s, unsigned *out)
{
	static const struct {
		const char *name;
		unsigned bits;
	} words[] = {
		{ "potions", GAME_PICKUP_POTIONS }, { "scrolls", GAME_PICKUP_SCROLLS }, { "weapons", GAME_PICKUP_WEAPONS },
		{ "armour", GAME_PICKUP_ARMOUR },   { "armor", GAME_PICKUP_ARMOUR },     { "all", GAME_PICKUP_ALL },
		{ "none", 0 },
	};
	unsigned bits = 0;
	const char *p = s;
	do {
		size_t n = strcspn(p, ",");
		size_t i = 0;
		while (i < sizeof words / sizeof words[0] && (strlen(words[i].name) != n || strncmp(words[i].name, p, n)))
			i++;
		if (i == sizeof words / sizeof words[0])
			return -EINVAL;
		bits |= words[i].bits;
		p += n;
	} while (*p++ == ',');
	*out = bits;
	return 0;
}

/* An item auto-pickup goes for: lying on the current floor, where the
 * player remembers it, of a class asked for, not put down by the player,
 * with room for it. */
static bool wanted(const struct game *g, unsigned pickup, ecs_entity e)
{
	const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
	const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
	const struct c_memory *m = ecs_get(g->w, e, COMP_MEMORY);
	return it && p && m && p->floor == g->depth && m->known && m->x == p->x && m->y == p->y &&
	       (pickup & game_pickup_class(it->kind)) && !ecs_has(g->w, e, COMP_DROPPED) && items_room_for(g, e);
}

/* The nearest item auto-pickup goes for, by dist (ties to the lowest
 * entity index): 0 with its cell, -1 when none is reachable. */
static int nearest_wanted(const struct game *g, unsigned pickup, const uint16_t *dist, int *x, int *y)
{
	const struct map *m = world_floor(g, g->depth);
	int best = -1;
	uint32_t best_index = 0;
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_POS) | ECS_BIT(COMP_ITEM));
	for (ecs_entity e; ecs_query_next(&q, &e);) {
		if (!wanted(g, pickup, e))
			continue;
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		int i = p->y * m->w + p->x;
		if (dist[i] == PATH_UNREACHABLE)
			continue;
		if (best < 0 || dist[i] < dist[best] || (dist[i] == dist[best] && ECS_INDEX(e) < best_index)) {
			best = i;
			best_index = ECS_INDEX(e);
		}
	}
	if (best < 0)
		return -1;
	*x = best % m->w;
	*y = best / m->w;
	return 0;
}

int game_explore_step(const struct game *g, struct command *step, char *why, int len)
{
	return game_explore_pickup_step(g, 0, step, why, len);
}

int game_explore_pickup_step(const struct game *g, unsigned pickup, struct command *step, char *why, int len)
{
	if (interrupted(g, true, pickup, why, len))
		return 0;
	uint8_t cost[WORLD_CELLS];
	uint16_t dist[WORLD_CELLS];
	explore_distances(g, cost, dist);
	int tx, ty, px, py;
	game_player_pos(g, &px, &py);
	if (pickup && nearest_wanted(g, pickup, dist, &tx, &ty) == 0) {
		if (tx == px && ty == py) {
			*step = (struct command){.c = CMD_PICKUP, .item = -1, .x = -1, .y = -1, .choice = -1};
			return 1;
		}
		first_step(world_floor(g, g->depth), dist, cost, px, py, tx, ty, step);
		return 1;
	}
	if (explore_frontier(dist, world_floor(g, g->depth), &tx, &ty))
		return stop(why, len, "Explored this floor.");
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
	if (interrupted(g, false, 0, why, len))
		return 0;
	uint8_t cost[WORLD_CELLS];
	uint16_t dist[WORLD_CELLS];
	explore_distances(g, cost, dist);
	if (dist[ty * m->w + tx] == PATH_UNREACHABLE)
		return stop(why, len, "You know no way to the stairs.");
	first_step(m, dist, cost, px, py, tx, ty, step);
	return 1;
}
