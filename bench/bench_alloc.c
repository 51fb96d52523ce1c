/* bench_alloc: heap allocations after the first turn of a floor (the binary's malloc family counted, tests/allochook.h): turns of play, one floor of 20,000 commands with the history file against the history all in memory in one run, and its save. tests/test_alloc.c holds the same at zero, frames and the idle program too. */
#include "bench.h"
#include "../tests/allochook.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/rng.h"
#include "game/world.h"
#include "save/histfile.h"
#include "save/save.h"

/* A new game of seed on the classic generator whose player cannot die,
 * with its history given st (NULL: none). */
static struct game *new_game(uint64_t seed, const struct hist_store *st)
{
	struct game *g;
	struct game_opts o = {.seed = seed, .mapgen = MAPGEN_CLASSIC};
	if (game_create(&g, &o) || (st && game_set_history_store(g, st)))
		exit(1);
	((struct c_actor *)ecs_get_mut(g->w, g->player, COMP_ACTOR))->defense = 1000;
	return g;
}

/* The allocations of n commands (moves and waits drawn with seed 11) given
 * to g after its floor's first turn; *turns: the turns they took. */
static long allocations_of(struct game *g, int n, int *turns)
{
	static const enum cmd moves[] = {CMD_MOVE_N, CMD_MOVE_E, CMD_MOVE_S, CMD_MOVE_W, CMD_WAIT, CMD_WAIT};
	struct rng r;
	rng_seed(&r, 11);
	game_apply(g, CMD_WAIT); /* the floor's first turn */
	long before = allocations;
	*turns = 0;
	for (int i = 0; i < n; i++)
		*turns += game_apply(g, moves[rng_range(&r, 0, 5)]);
	return allocations - before;
}

int main(void)
{
	if (!ALLOCHOOK_COUNTING) {
		printf("allocations: not counted under AddressSanitizer\n");
		return 0;
	}
	int turns;
	struct game *g = new_game(7, NULL);
	long a = allocations_of(g, 200, &turns);
	printf("allocations after a floor's first turn: %ld in %d turns of play (target 0: %s, that count, this run)\n", a, turns,
	       bench_met(a == 0));
	game_destroy(g);

	char dir[] = "/tmp/pirogue-bench-alloc-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	struct histfile *hf;
	if (histfile_open(&hf, dir))
		return 1;
	struct hist_store st;
	histfile_store(hf, &st);
	enum { N = 20000 };
	g = new_game(21, &st);
	long with_file = allocations_of(g, N, &turns);
	long before = allocations;
	if (save_game(dir, g) || save_delete(dir))
		return 1;
	long saving = allocations - before;
	game_destroy(g);
	g = new_game(21, NULL);
	long in_memory = allocations_of(g, N, &turns);
	game_destroy(g);
	histfile_close(hf);
	printf("  a floor of %d commands (%d turns): %ld with the history file (target 0: %s, that count, this run), %ld with the "
	       "whole history in memory (a game without a state directory; the app before the file)\n",
	       N, turns, with_file, bench_met(with_file == 0), in_memory);
	printf("  its save (every 100 turns and on a floor change; streamed to the file): %ld (target 0: %s, that count, this run)\n",
	       saving, bench_met(saving == 0));
	return rmdir(dir) == 0 ? 0 : 1;
}
