/* mkkeys: plays a game with the demo's bot (idle_demo_command) through the
 * public game API and writes the keys a player would press for the same
 * commands, one a line, for pirogue --keys: the key script of the turn
 * benchmark (bench/turn.keys, docs/perf.md "A whole turn").
 *
 *   mkkeys SEED N OUT.keys   N keys of the game of SEED; fails (exit 1) if
 *                            the bot dies before N keys (a benchmark of
 *                            turns wants turns, not the game-over screen)
 *
 * Keys: h j k l y u b n for the moves, '.' wait, '>' descend, '<' ascend,
 * a-c for a level-up's choice (the level-up screen comes up by itself). */
#include "app/idle.h"
#include "game/game.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *key_of(const struct command *c)
{
	static const char *const moves[8] = { "k", "u", "l", "n", "j", "b", "h", "y" };
	static const char *const choices[3] = { "a", "b", "c" };
	if (c->c >= CMD_MOVE_N && c->c <= CMD_MOVE_NW)
		return moves[c->c - CMD_MOVE_N];
	switch (c->c) {
	case CMD_WAIT:
		return ".";
	case CMD_DESCEND:
		return ">";
	case CMD_ASCEND:
		return "<";
	case CMD_PICKUP:
		return "g";
	case CMD_LEVEL_UP:
		return c->choice >= 0 && c->choice < 3 ? choices[c->choice] : NULL;
	default:
		return NULL;
	}
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: mkkeys SEED N OUT.keys\n");
		return 2;
	}
	uint64_t seed = strtoull(argv[1], NULL, 10);
	long n = strtol(argv[2], NULL, 10);
	if (n <= 0) {
		fprintf(stderr, "mkkeys: N '%s' is not a positive number of keys\n", argv[2]);
		return 2;
	}
	FILE *f = fopen(argv[3], "w");
	if (!f) {
		perror(argv[3]);
		return 1;
	}
	struct game *g;
	struct game_opts o = { .seed = seed };
	if (game_create(&g, &o)) {
		fclose(f);
		return 1;
	}
	fprintf(f, "# pirogue --seed %llu: %ld keys of the demo bot (tools/mkkeys)\n", (unsigned long long)seed, n);
	long i;
	for (i = 0; i < n && !game_is_over(g); i++) {
		struct command c = idle_demo_command(g);
		const char *k = key_of(&c);
		if (!k) {
			fprintf(stderr, "mkkeys: the bot chose a command with no key (%s)\n", cmd_name(c.c));
			break;
		}
		game_do(g, &c);
		fprintf(f, "%s\n", k);
	}
	int ok = i == n && !game_is_over(g);
	fprintf(stderr, "mkkeys: seed %llu: %ld keys, depth %d, turn %d, %s\n", (unsigned long long)seed, i,
		game_depth(g), game_turn(g), game_is_over(g) ? "dead" : "alive");
	game_destroy(g);
	return fclose(f) == 0 && ok ? 0 : 1;
}
