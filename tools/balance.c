/* balance: plays many seeds with a simple bot through the public game API
 * and prints what happened as the tables of docs/balance.md (issue 18,
 * item 7): depth reached, turns per floor, causes of death, items found and
 * used, level at the end.
 *
 *   balance FIRST COUNT [MAX_TURNS [MAX_DEPTH]]
 *       seeds FIRST .. FIRST+COUNT-1; a game still alive after MAX_TURNS
 *       turns (default 20000) is stopped ("alive at the turn limit"), one
 *       that reaches floor MAX_DEPTH (default 12) too ("reached the depth
 *       limit")
 *
 * The bot sees only what the player sees. Each turn, first of these that
 * applies: choose a level-up (+20 HP below level 4, then power, defence and
 * HP in turn); drink a health potion below half HP; with a troll in view,
 * read a scroll at it (lightning within 5, fireball at one 4 or more cells
 * away, paralysis, confusion); attack an adjacent monster; equip a better
 * weapon or armour carried; step toward the nearest monster in view;
 * auto-explore with auto-pickup of everything (game_explore_pickup_step,
 * GAME_PICKUP_ALL); travel to the down stairs and take them. Deterministic:
 * the same seeds print the same tables. Run it at low priority on a shared
 * machine: nice -n 19 build/tools/balance 1 1000. */
#include "botcmd.h"
#include "game/content.h"
#include "game/game.h"
#include "game/map.h"
#include "game/path.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64
#define MAX_CAUSES 16

/* What one game did. */
struct run {
	int depth, level, turns;
	int floor_turns[MAX_DEPTH + 1]; /* turns spent on each depth */
	int found[ITEM_COUNT], used[ITEM_COUNT];
	char cause[64];
	int levelups;
};

/* A visible monster: cell and kind (from the drawables: glyph). */
struct seen {
	int x, y;
	uint32_t glyph;
};

static int monsters(const struct game *g, struct seen *out, int max)
{
	int px, py, n = 0;
	game_player_pos(g, &px, &py);
	static struct drawable d[1024];
	int nd = game_drawables(g, d, 1024);
	for (int i = 0; i < nd && n < max; i++) {
		if (d[i].order != GAME_ORDER_ACTOR || d[i].remembered || (d[i].x == px && d[i].y == py))
			continue;
		out[n++] = (struct seen){d[i].x, d[i].y, d[i].glyph};
	}
	return n;
}

static int slot_of(const struct game_item_view *v, int n, int kind)
{
	for (int i = 0; i < n; i++)
		if (v[i].kind == kind && !v[i].equipped)
			return v[i].slot;
	return -1;
}

static int equipped_bonus(const struct game_item_view *v, int n, int slot_kind)
{
	int best = 0;
	for (int i = 0; i < n; i++) {
		const struct item_def *d = &content_items[v[i].kind];
		if (v[i].equipped && d->effect == EFFECT_EQUIP && d->slot == slot_kind)
			best = d->power_bonus + d->defense_bonus;
	}
	return best;
}

/* One step toward (tx, ty) over the known walkable cells. */
static struct command toward(const struct game *g, int tx, int ty)
{
	const struct map *m = game_map(g);
	static uint8_t cost[MAP_MAX_CELLS];
	static uint16_t dist[MAP_MAX_CELLS];
	for (int i = 0; i < m->w * m->h; i++)
		cost[i] = m->explored[i] && m->tile[i] != TILE_WALL;
	cost[ty * m->w + tx] = 1;
	path_dijkstra(cost, m->w, m->h, tx, ty, dist);
	int px, py, nx, ny;
	game_player_pos(g, &px, &py);
	if (path_step(dist, cost, m->w, m->h, px, py, &nx, &ny))
		return bot_cmd(CMD_WAIT);
	return bot_cmd(bot_step(nx - px, ny - py));
}

static struct command bot(const struct game *g, struct run *r)
{
	if (game_levelup_pending(g)) {
		struct game_stats s;
		game_stats(g, &s);
		struct command c = bot_cmd(CMD_LEVEL_UP);
		static const int order[3] = {LEVELUP_POWER, LEVELUP_DEFENSE, LEVELUP_HP};
		c.choice = s.level <= 4 ? LEVELUP_HP : order[r->levelups % 3];
		r->levelups++;
		return c;
	}
	struct game_item_view v[26];
	int n = game_inventory(g, v, 26);
	struct game_stats s;
	game_stats(g, &s);
	int px, py;
	game_player_pos(g, &px, &py);
	int potion = slot_of(v, n, ITEM_HEALTH_POTION);
	if (potion >= 0 && s.hp * 2 < s.max_hp)
		return (struct command){.c = CMD_USE, .item = potion, .x = -1, .y = -1, .choice = -1};
	struct seen mon[64];
	int nm = monsters(g, mon, 64);
	for (int i = 0; i < nm; i++) {
		if (mon[i].glyph != content_actors[ACTOR_TROLL].glyph)
			continue;
		int dx = mon[i].x - px, dy = mon[i].y - py, d2 = dx * dx + dy * dy;
		static const int scrolls[4] = {ITEM_LIGHTNING_SCROLL, ITEM_FIREBALL_SCROLL, ITEM_PARALYSIS_SCROLL,
					       ITEM_CONFUSION_SCROLL};
		for (int k = 0; k < 4; k++) {
			int sl = slot_of(v, n, scrolls[k]);
			if (sl < 0 || (scrolls[k] == ITEM_LIGHTNING_SCROLL && d2 > 25) ||
			    (scrolls[k] == ITEM_FIREBALL_SCROLL && d2 <= 9))
				continue;
			struct command c = {.c = CMD_USE, .item = sl, .x = mon[i].x, .y = mon[i].y, .choice = -1};
			if (scrolls[k] == ITEM_LIGHTNING_SCROLL)
				c.x = c.y = -1;
			char why[120];
			if (game_target_check(g, sl, c.x, c.y, why, sizeof why) == 0)
				return c;
		}
	}
	for (int i = 0; i < nm; i++) {
		int dx = mon[i].x - px, dy = mon[i].y - py;
		if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1)
			return bot_cmd(bot_step(dx, dy));
	}
	for (int i = 0; i < n; i++) {
		const struct item_def *d = &content_items[v[i].kind];
		if (d->effect == EFFECT_EQUIP && !v[i].equipped &&
		    d->power_bonus + d->defense_bonus > equipped_bonus(v, n, d->slot))
			return (struct command){.c = CMD_USE, .item = v[i].slot, .x = -1, .y = -1, .choice = -1};
	}
	if (nm > 0) {
		int best = 0;
		for (int i = 1; i < nm; i++) {
			int a = abs(mon[i].x - px) + abs(mon[i].y - py), b = abs(mon[best].x - px) + abs(mon[best].y - py);
			if (a < b)
				best = i;
		}
		return toward(g, mon[best].x, mon[best].y);
	}
	struct command step;
	char why[128];
	for (int tries = 0; tries < 3; tries++) {
		/* an event stop (an item seen, HP) is told once: asked again it goes on */
		if (game_explore_pickup_step(g, GAME_PICKUP_ALL, &step, why, sizeof why))
			return step;
		if (!strcmp(why, "Explored this floor."))
			break;
	}
	if (game_travel_step(g, true, &step, why, sizeof why))
		return step;
	if (!strcmp(why, "You are on the stairs."))
		return bot_cmd(CMD_DESCEND);
	return bot_cmd(CMD_WAIT);
}

static void play(uint64_t seed, int max_turns, int max_depth, struct run *r)
{
	memset(r, 0, sizeof *r);
	struct game_opts o = {.seed = seed, .mapgen = MAPGEN_CLASSIC};
	struct game *g;
	if (game_create(&g, &o)) {
		fprintf(stderr, "balance: cannot create the game of seed %llu\n", (unsigned long long)seed);
		exit(1);
	}
	int idle = 0;
	while (!game_is_over(g) && game_turn(g) < max_turns && game_depth(g) < max_depth && idle < 50) {
		struct command c = bot(g, r);
		struct game_item_view before[26], after[26];
		int nb = game_inventory(g, before, 26);
		int depth = game_depth(g), turn0 = game_turn(g);
		int gear = -1; /* equipment put on or off: counted as used */
		for (int i = 0; c.c == CMD_USE && i < nb; i++)
			if (before[i].slot == c.item && content_items[before[i].kind].effect == EFFECT_EQUIP &&
			    !before[i].equipped)
				gear = before[i].kind;
		int cost = game_do(g, &c);
		idle = cost || c.c == CMD_LEVEL_UP ? 0 : idle + 1;
		if (cost)
			r->floor_turns[depth < MAX_DEPTH ? depth : MAX_DEPTH] += game_turn(g) - turn0;
		int na = game_inventory(g, after, 26);
		if (!cost)
			continue;
		if (gear >= 0)
			r->used[gear]++;
		/* found: what a pickup added; used: a consumable's count that fell */
		int delta[ITEM_COUNT] = {0};
		for (int i = 0; i < na; i++)
			delta[after[i].kind] += after[i].count;
		for (int i = 0; i < nb; i++)
			delta[before[i].kind] -= before[i].count;
		for (int k = 0; k < ITEM_COUNT; k++) {
			if (c.c == CMD_PICKUP && delta[k] > 0)
				r->found[k] += delta[k];
			if (c.c == CMD_USE && delta[k] < 0)
				r->used[k] -= delta[k];
		}
	}
	struct game_stats s;
	game_stats(g, &s);
	r->depth = s.depth;
	for (int d = 1; d <= MAX_DEPTH; d++)
		if (r->floor_turns[d] && d > r->depth)
			r->depth = d;
	r->level = s.level;
	r->turns = game_turn(g);
	snprintf(r->cause, sizeof r->cause, "%s",
		 game_is_over(g)		   ? game_death_cause(g)
		 : game_depth(g) >= max_depth ? "reached the depth limit"
		 : idle >= 50		   ? "alive, stuck"
					   : "alive at the turn limit");
	game_destroy(g);
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: %s FIRST COUNT [MAX_TURNS [MAX_DEPTH]]\n", argv[0]);
		return 2;
	}
	uint64_t first = strtoull(argv[1], NULL, 10);
	int count = atoi(argv[2]), max_turns = argc >= 4 ? atoi(argv[3]) : 20000;
	int max_depth = argc == 5 ? atoi(argv[4]) : 12;
	if (count < 1 || max_turns < 1 || max_depth < 2 || max_depth > MAX_DEPTH) {
		fprintf(stderr, "balance: COUNT and MAX_TURNS must be positive, MAX_DEPTH 2 to %d\n", MAX_DEPTH);
		return 2;
	}
	int by_depth[MAX_DEPTH + 1] = {0}, by_level[64] = {0};
	long floor_turns[MAX_DEPTH + 1] = {0}, floor_games[MAX_DEPTH + 1] = {0};
	long found[ITEM_COUNT] = {0}, used[ITEM_COUNT] = {0};
	char causes[MAX_CAUSES][64];
	int cause_n[MAX_CAUSES] = {0}, ncauses = 0;
	long total_turns = 0;
	struct run r;
	for (int i = 0; i < count; i++) {
		play(first + (uint64_t)i, max_turns, max_depth, &r);
		by_depth[r.depth < MAX_DEPTH ? r.depth : MAX_DEPTH]++;
		by_level[r.level < 63 ? r.level : 63]++;
		total_turns += r.turns;
		for (int d = 1; d <= MAX_DEPTH; d++)
			if (r.floor_turns[d]) {
				floor_turns[d] += r.floor_turns[d];
				floor_games[d]++;
			}
		for (int k = 0; k < ITEM_COUNT; k++) {
			found[k] += r.found[k];
			used[k] += r.used[k];
		}
		int c = 0;
		while (c < ncauses && strcmp(causes[c], r.cause))
			c++;
		if (c == ncauses && ncauses < MAX_CAUSES)
			snprintf(causes[ncauses++], sizeof causes[0], "%s", r.cause);
		if (c < ncauses)
			cause_n[c]++;
	}
	printf("Seeds %llu to %llu (%d games), each until death, %d turns or floor %d; %.1f turns a game on "
	       "average.\n\n",
	       (unsigned long long)first, (unsigned long long)(first + (uint64_t)count - 1), count, max_turns, max_depth,
	       (double)total_turns / count);
	printf("### Depth reached\n\n| depth | games | share | reached at least |\n|---:|---:|---:|---:|\n");
	int at_least = count;
	for (int d = 1; d <= MAX_DEPTH; d++) {
		if (by_depth[d] || at_least)
			printf("| %d | %d | %.1f %% | %.1f %% |\n", d, by_depth[d], 100.0 * by_depth[d] / count,
			       100.0 * at_least / count);
		at_least -= by_depth[d];
		if (at_least <= 0)
			break;
	}
	printf("\n### Turns per floor (games that reached it)\n\n| depth | games | turns there, mean |\n|---:|---:|---:|\n");
	for (int d = 1; d <= MAX_DEPTH; d++)
		if (floor_games[d])
			printf("| %d | %ld | %.0f |\n", d, floor_games[d], (double)floor_turns[d] / floor_games[d]);
	printf("\n### How the games ended\n\n| cause | games | share |\n|---|---:|---:|\n");
	for (int c = 0; c < ncauses; c++)
		printf("| %s | %d | %.1f %% |\n", causes[c], cause_n[c], 100.0 * cause_n[c] / count);
	printf("\n### Items found and used (all games; equipment: used = put on)\n\n| item | found | used | found a "
	       "game |\n|---|---:|---:|---:|\n");
	for (int k = 0; k < ITEM_COUNT; k++)
		printf("| %s | %ld | %ld | %.2f |\n", content_items[k].name, found[k], used[k], (double)found[k] / count);
	printf("\n### Level at the end\n\n| level | games | share |\n|---:|---:|---:|\n");
	for (int l = 1; l < 64; l++)
		if (by_level[l])
			printf("| %d | %d | %.1f %% |\n", l, by_level[l], 100.0 * by_level[l] / count);
	return 0;
}
