/* mkrec: plays a game with a simple bot through the public game API and
 * writes it as a recording, to make the recordings in tests/recordings/.
 *
 *   mkrec descend SEED DEPTH OUT.rec   walk to the down stairs and take them
 *                                      until DEPTH is reached (fails if the
 *                                      bot dies first)
 *   mkrec die SEED OUT.rec             dive as deep as possible, fighting
 *                                      what stands in the way, until dead
 *
 * The bot knows the whole map (it reads the floor's tiles, not only what the
 * player has seen): it is a generator of test input, not a player. */
#include "game/game.h"
#include "game/map.h"
#include "game/path.h"
#include "save/record.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int dirs[8][2] = { { 0, -1 }, { 1, -1 }, { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 }, { -1, 0 }, { -1, -1 } };

static enum cmd dir_cmd(int dx, int dy)
{
	for (int i = 0; i < 8; i++)
		if (dirs[i][0] == dx && dirs[i][1] == dy)
			return (enum cmd)(CMD_MOVE_N + i);
	return CMD_WAIT;
}

/* The next command: attack an adjacent visible monster, else step towards
 * the down stairs, else take them. */
static enum cmd next_cmd(const struct game *g)
{
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
			return dir_cmd(dx, dy);
	}
	if (px == m->down_x && py == m->down_y)
		return CMD_DESCEND;
	static uint8_t cost[MAP_W * MAP_H];
	static uint16_t dist[MAP_W * MAP_H];
	for (int i = 0; i < m->w * m->h; i++)
		cost[i] = m->tile[i] == TILE_WALL ? 0 : 1;
	path_dijkstra(cost, m->w, m->h, m->down_x, m->down_y, dist);
	int nx, ny;
	if (path_step(dist, cost, m->w, m->h, px, py, &nx, &ny))
		return CMD_WAIT;
	return dir_cmd(nx - px, ny - py);
}

int main(int argc, char **argv)
{
	int descend = argc == 5 && !strcmp(argv[1], "descend");
	int die = argc == 4 && !strcmp(argv[1], "die");
	if (!descend && !die) {
		fprintf(stderr, "usage: mkrec descend SEED DEPTH OUT.rec | mkrec die SEED OUT.rec\n");
		return 2;
	}
	uint64_t seed = strtoull(argv[2], NULL, 10);
	int depth = descend ? atoi(argv[3]) : 1000;
	const char *out = argv[argc - 1];
	struct game *g;
	struct game_opts o = { .seed = seed, .mapgen = 0 };
	if (game_create(&g, &o))
		return 1;
	struct rec_writer *w;
	if (rec_writer_open(&w, out, seed, "classic"))
		return 1;
	int steps = 0;
	while (!game_is_over(g) && game_depth(g) < depth && steps < 20000) {
		if (game_levelup_pending(g)) {
			fprintf(stderr, "mkrec: a level-up is pending (this bot cannot choose one)\n");
			break;
		}
		enum cmd c = next_cmd(g);
		game_apply(g, c);
		rec_writer_add(w, c, game_turn(g), game_checksum(g));
		steps++;
	}
	rec_writer_close(w);
	fprintf(stderr, "mkrec: %d commands, depth %d, turn %d, %s\n", steps, game_depth(g), game_turn(g),
		game_is_over(g) ? "dead" : "alive");
	int ok = descend ? !game_is_over(g) && game_depth(g) >= depth : game_is_over(g);
	game_destroy(g);
	return ok ? 0 : 1;
}
