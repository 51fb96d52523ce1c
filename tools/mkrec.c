/* mkrec: plays a game with a simple bot through the public game API and
 * writes it as a recording, to make the recordings in tests/recordings/.
 *
 *   mkrec descend SEED DEPTH OUT.rec   walk to the down stairs and take them
 *                                      until DEPTH is reached (fails if the
 *                                      bot dies first)
 *   mkrec die SEED OUT.rec             dive as deep as possible, fighting
 *                                      what stands in the way, until dead
 *   mkrec play SEED CHOICE OUT.rec     play for the items: explore every
 *                                      floor (auto-explore and travel), pick
 *                                      up everything, read scrolls at
 *                                      monsters, drink when hurt, wear the
 *                                      best gear (after taking the armour off
 *                                      and on once, and dropping and taking
 *                                      back the dagger), level up with the
 *                                      choices in turn from CHOICE (hp, power
 *                                      or defense), until every item kind is
 *                                      used and one level-up made (fails if
 *                                      the bot dies first or takes too long)
 *
 *   mkrec --stacks never ...           any of the above under the rules of
 *                                      before stacks (items of a kind apart
 *                                      in the pack, the recording says
 *                                      "stacks never"): the rules that
 *                                      tests/recordings/items.rec was made
 *                                      under, which its replay keeps
 *
 * The descend and die bots know the whole map (they read the floor's tiles,
 * not only what the player has seen): they generate test input, they are not
 * players. The play bot sees only what the player sees. Level-ups in descend
 * and die take +20 HP. */
#include "botcmd.h"
#include "game/content.h"
#include "game/game.h"
#include "game/map.h"
#include "game/path.h"
#include "save/record.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The descend/die bot: attack an adjacent visible monster, else step towards
 * the down stairs, else take them. */
static struct command dive_cmd(const struct game *g)
{
	if (game_levelup_pending(g)) {
		struct command c = bot_cmd(CMD_LEVEL_UP);
		c.choice = LEVELUP_HP;
		return c;
	}
	const struct map *m = game_map(g);
	int px, py;
	game_player_pos(g, &px, &py);
	struct drawable d[512];
	int n = game_drawables(g, d, 512);
	for (int i = 0; i < n; i++) {
		if (d[i].order != GAME_ORDER_ACTOR || d[i].remembered || (d[i].x == px && d[i].y == py))
			continue;
		int dx = d[i].x - px, dy = d[i].y - py;
		if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1)
			return bot_cmd(bot_step(dx, dy));
	}
	if (px == m->down_x && py == m->down_y)
		return bot_cmd(CMD_DESCEND);
	static uint8_t cost[MAP_W * MAP_H];
	static uint16_t dist[MAP_W * MAP_H];
	for (int i = 0; i < m->w * m->h; i++)
		cost[i] = m->tile[i] == TILE_WALL ? 0 : 1;
	path_dijkstra(cost, m->w, m->h, m->down_x, m->down_y, dist);
	int nx, ny;
	if (path_step(dist, cost, m->w, m->h, px, py, &nx, &ny))
		return bot_cmd(CMD_WAIT);
	return bot_cmd(bot_step(nx - px, ny - py));
}

/* What the play bot has done so far. */
struct play {
	int next_choice;
	int used[ITEM_COUNT];
	int unequipped, dropped, levelups, script;
	int waited; /* turns waited for a monster in view to come */
};

static int carried(const struct game_item_view *v, int n, int kind)
{
	for (int i = 0; i < n; i++)
		if (v[i].kind == kind)
			return i;
	return -1;
}

static struct command use(int slot, int x, int y)
{
	return (struct command){.c = CMD_USE, .item = slot, .x = x, .y = y, .choice = -1};
}

/* One step toward (tx, ty) onto a walkable cell (bumping whatever stands
 * there), greedy; wait if none. */
static struct command toward(const struct game *g, int tx, int ty)
{
	int px, py;
	game_player_pos(g, &px, &py);
	int sx = (tx > px) - (tx < px), sy = (ty > py) - (ty < py);
	const int tries[3][2] = {{sx, sy}, {sx, 0}, {0, sy}};
	for (int i = 0; i < 3; i++)
		if ((tries[i][0] || tries[i][1]) && map_walkable(game_map(g), px + tries[i][0], py + tries[i][1]))
			return bot_cmd(bot_step(tries[i][0], tries[i][1]));
	return bot_cmd(CMD_WAIT);
}

static struct command play_cmd(const struct game *g, struct play *p)
{
	if (game_levelup_pending(g)) {
		struct command c = bot_cmd(CMD_LEVEL_UP);
		c.choice = p->next_choice++ % LEVELUP_COUNT;
		p->levelups++;
		return c;
	}
	struct game_item_view v[26];
	int n = game_inventory(g, v, 26);
	struct game_stats s;
	game_stats(g, &s);
	int px, py;
	game_player_pos(g, &px, &py);
	/* The scripted part: armour off and on, the dagger dropped and taken back. */
	if (p->script < 5) {
		int step = p->script++;
		if (step == 0 || step == 1) {
			if (step == 0)
				p->unequipped++;
			return use(carried(v, n, ITEM_LEATHER_ARMOUR) >= 0 ? v[carried(v, n, ITEM_LEATHER_ARMOUR)].slot : 0,
				   -1, -1);
		}
		if (step == 2) {
			p->dropped++;
			struct command c = bot_cmd(CMD_DROP);
			c.item = v[carried(v, n, ITEM_DAGGER)].slot;
			return c;
		}
		if (step == 3)
			return bot_cmd(CMD_PICKUP);
		return use(v[carried(v, n, ITEM_DAGGER)].slot, -1, -1);
	}
	struct drawable d[512];
	int nd = game_drawables(g, d, 512);
	for (int i = 0; i < nd && n < 26; i++)
		if (d[i].order == GAME_ORDER_ITEM && d[i].x == px && d[i].y == py)
			return bot_cmd(CMD_PICKUP);
	char buf[160];
	int potion = carried(v, n, ITEM_HEALTH_POTION);
	if (potion >= 0 && (s.hp * 2 < s.max_hp || (!p->used[ITEM_HEALTH_POTION] && s.hp < s.max_hp))) {
		p->used[ITEM_HEALTH_POTION]++;
		return use(v[potion].slot, -1, -1);
	}
	/* Better gear. */
	static const int better[] = {ITEM_SWORD, ITEM_CHAIN_MAIL};
	for (int i = 0; i < 2; i++) {
		int k = carried(v, n, better[i]);
		if (k >= 0 && !v[k].equipped) {
			p->used[better[i]]++;
			return use(v[k].slot, -1, -1);
		}
	}
	int mx, my;
	if (game_nearest_monster(g, &mx, &my) == 0) {
		int d2 = (mx - px) * (mx - px) + (my - py) * (my - py);
		static const int scrolls[] = {ITEM_LIGHTNING_SCROLL, ITEM_FIREBALL_SCROLL, ITEM_PARALYSIS_SCROLL,
					      ITEM_CONFUSION_SCROLL};
		for (int i = 0; i < 4; i++) {
			int k = carried(v, n, scrolls[i]);
			if (k < 0 || (scrolls[i] == ITEM_FIREBALL_SCROLL && d2 <= 9))
				continue;
			if (game_target_check(g, v[k].slot, mx, my, buf, sizeof(buf)) == 0) {
				p->used[scrolls[i]]++;
				return use(v[k].slot, mx, my);
			}
		}
		if (abs(mx - px) <= 1 && abs(my - py) <= 1)
			return bot_cmd(bot_step(mx - px, my - py));
		/* Let it come: whoever steps next to the other gives the first blow. */
		if (p->waited++ < 8)
			return bot_cmd(CMD_WAIT);
		return toward(g, mx, my);
	}
	p->waited = 0;
	{
	}
	/* Go for the nearest item seen (or remembered) on this floor. */
	const struct map *mm = game_map(g);
	static uint8_t cost[MAP_W * MAP_H];
	static uint16_t dist[MAP_W * MAP_H];
	for (int i = 0; i < MAP_W * MAP_H; i++)
		cost[i] = mm->explored[i] && mm->tile[i] != TILE_WALL;
	path_dijkstra(cost, MAP_W, MAP_H, px, py, dist);
	int best = -1;
	for (int i = 0; i < nd && n < 26; i++)
		if (d[i].order == GAME_ORDER_ITEM && dist[d[i].y * MAP_W + d[i].x] != PATH_UNREACHABLE &&
		    (best < 0 || dist[d[i].y * MAP_W + d[i].x] < dist[d[best].y * MAP_W + d[best].x]))
			best = i;
	if (best >= 0) {
		path_dijkstra(cost, MAP_W, MAP_H, d[best].x, d[best].y, dist);
		int nx, ny;
		if (path_step(dist, cost, MAP_W, MAP_H, px, py, &nx, &ny) == 0)
			return bot_cmd(bot_step(nx - px, ny - py));
	}
	struct command step;
	char why[80];
	for (int tries = 0; tries < 3; tries++) {
		if (game_explore_step(g, &step, why, sizeof(why)))
			return step;
		if (strcmp(why, "Explored this floor.") == 0)
			break;
	}
	if (game_travel_step(g, true, &step, why, sizeof(why)))
		return step;
	if (px == mm->down_x && py == mm->down_y)
		return bot_cmd(CMD_DESCEND);
	return bot_cmd(CMD_WAIT);
}

static bool play_done(const struct play *p)
{
	for (int k = 0; k < ITEM_COUNT; k++)
		if (k != ITEM_DAGGER && k != ITEM_LEATHER_ARMOUR && !p->used[k])
			return false;
	return p->levelups > 0 && p->unequipped && p->dropped;
}

int main(int argc, char **argv)
{
	int stacks_from = 0; /* stacks from the first command: the rules of today */
	if (argc > 2 && !strcmp(argv[1], "--stacks")) {
		if (strcmp(argv[2], "never")) {
			fprintf(stderr, "mkrec: --stacks takes 'never' (the rules before stacks), not '%s'\n", argv[2]);
			return 2;
		}
		stacks_from = GAME_STACKS_NEVER;
		argv += 2;
		argc -= 2;
	}
	int descend = argc == 5 && !strcmp(argv[1], "descend");
	int die = argc == 4 && !strcmp(argv[1], "die");
	int playing = argc == 5 && !strcmp(argv[1], "play");
	if (!descend && !die && !playing) {
		fprintf(stderr, "usage: mkrec [--stacks never] descend SEED DEPTH OUT.rec | die SEED OUT.rec | "
				"play SEED hp|power|defense OUT.rec\n");
		return 2;
	}
	uint64_t seed = strtoull(argv[2], NULL, 10);
	int depth = descend ? atoi(argv[3]) : 1000;
	struct play p = {0};
	if (playing) {
		static const char *const names[LEVELUP_COUNT] = {"hp", "power", "defense"};
		p.next_choice = -1;
		for (int i = 0; i < LEVELUP_COUNT; i++)
			if (!strcmp(argv[3], names[i]))
				p.next_choice = i;
		if (p.next_choice < 0) {
			fprintf(stderr, "mkrec: unknown level-up choice '%s' (expected hp, power or defense)\n", argv[3]);
			return 2;
		}
	}
	const char *out = argv[argc - 1];
	struct game *g;
	struct game_opts o = {.seed = seed, .mapgen = 0, .stacks_from = stacks_from};
	if (game_create(&g, &o))
		return 1;
	struct rec_writer *w;
	if (rec_writer_open_opts(&w, out, &o))
		return 1;
	int steps = 0;
	while (!game_is_over(g) && game_depth(g) < depth && steps < 20000 && !(playing && play_done(&p))) {
		struct command c = playing ? play_cmd(g, &p) : dive_cmd(g);
		game_do(g, &c);
		rec_writer_command(w, &c, game_turn(g), game_checksum(g));
		steps++;
	}
	rec_writer_close(w);
	fprintf(stderr, "mkrec: %d commands, depth %d, turn %d, %s\n", steps, game_depth(g), game_turn(g),
		game_is_over(g) ? "dead" : "alive");
	if (playing) {
		fprintf(stderr, "mkrec: %d level-ups, used:", p.levelups);
		for (int k = 0; k < ITEM_COUNT; k++)
			fprintf(stderr, " %s %d,", content_item_name(k), p.used[k]);
		fprintf(stderr, "\n");
	}
	int ok = descend ? !game_is_over(g) && game_depth(g) >= depth : playing ? play_done(&p) : game_is_over(g);
	game_destroy(g);
	return ok ? 0 : 1;
}
