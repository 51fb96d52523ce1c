/* savefix: games in many states for the save tests: a bot that heads down the stairs, fights what it meets and wanders. */
#ifndef PIROGUE_SAVEFIX_H
#define PIROGUE_SAVEFIX_H
#include "gamefix.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/rng.h"
#include "game/path.h"

/* A fresh directory /tmp/pirogue-NAME-XXXXXX into dir (len >= 64): 0 or -1,
 * for a cmocka group setup. */
static inline int savefix_mkdtemp(char *dir, size_t len, const char *name)
{
	snprintf(dir, len, "/tmp/pirogue-%s-XXXXXX", name);
	return mkdtemp(dir) ? 0 : -1;
}

/* Removes dir and everything in it: 0 or -1, for a group teardown. */
static inline int savefix_rmtree(const char *dir)
{
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

struct savefix_bot {
	struct rng r;
	const struct map *map;
	int depth;
	uint8_t cost[WORLD_CELLS];
	uint16_t to_down[WORLD_CELLS];
};

static inline void savefix_bot_init(struct savefix_bot *b, uint64_t seed)
{
	rng_seed(&b->r, seed);
	b->map = NULL;
	b->depth = 0;
}

/* The bot's next command for g: mostly towards the down stairs (taking them),
 * sometimes a random step, a wait or back up the stairs. */
static inline enum cmd savefix_pick(struct savefix_bot *b, const struct game *g)
{
	static const int dx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
	static const int dy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
	const struct map *m = game_map(g);
	int x, y;
	game_player_pos(g, &x, &y);
	if (b->map != m || b->depth != game_depth(g)) {
		b->map = m;
		b->depth = game_depth(g);
		for (int i = 0; i < m->w * m->h; i++)
			b->cost[i] = m->tile[i] != TILE_WALL;
		path_dijkstra(b->cost, m->w, m->h, m->down_x, m->down_y, b->to_down);
	}
	int roll = rng_range(&b->r, 0, 99);
	enum tile t = map_tile(m, x, y);
	if (t == TILE_STAIRS_DOWN && roll < 60)
		return CMD_DESCEND;
	if (t == TILE_STAIRS_UP && roll < 10)
		return CMD_ASCEND;
	if (roll < 5)
		return CMD_WAIT;
	if (roll < 70) {
		int nx, ny;
		if (path_step(b->to_down, b->cost, m->w, m->h, x, y, &nx, &ny) == 0)
			for (int d = 0; d < 8; d++)
				if (x + dx[d] == nx && y + dy[d] == ny)
					return (enum cmd)(CMD_MOVE_N + d);
	}
	return (enum cmd)(CMD_MOVE_N + rng_range(&b->r, 0, 7));
}

/* Plays n bot commands on g (fewer if the game ends). */
static inline void savefix_play(struct savefix_bot *b, struct game *g, int n)
{
	for (int i = 0; i < n && !game_is_over(g); i++)
		game_apply(g, savefix_pick(b, g));
}

#endif
