/* No heap allocation in steady play: malloc, calloc and realloc are counted (this binary replaces them by wrappers around glibc's) while the game runs turns. */
#include "gamefix.h"

#include <stdlib.h>

#include "game/ai.h"

/* glibc's own allocator, under the names it exports for this purpose. */
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

static long allocations; /* the test binary's own counter (not the game's) */

void *malloc(size_t n)
{
	allocations++;
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	allocations++;
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	allocations++;
	return __libc_realloc(p, n);
}

void free(void *p)
{
	__libc_free(p);
}

/* The counter sees the game's allocations at all (or the test proves
 * nothing). */
static void test_hook_counts(void **state)
{
	(void)state;
	long before = allocations;
	struct game *g = gamefix_new(1, MAPGEN_CLASSIC);
	assert_true(allocations > before);
	game_destroy(g);
}

/* After the first turn of a floor, turns (moves, waits, monsters hunting
 * and fighting, the view) allocate nothing, on every generator. The
 * command history grows by doubling from 256 entries (an allocation every
 * 2^k commands, not per turn): the turns here stay within its first block. */
static void test_turns_allocate_nothing(void **state)
{
	(void)state;
	static const enum cmd moves[] = {CMD_MOVE_N, CMD_MOVE_NE, CMD_MOVE_E, CMD_MOVE_SE, CMD_MOVE_S,
					 CMD_MOVE_SW, CMD_MOVE_W, CMD_MOVE_NW, CMD_WAIT};
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		struct game *g = gamefix_new(7 + (uint64_t)k, (enum mapgen_kind)k);
		((struct c_actor *)ecs_get(g->w, g->player, COMP_ACTOR))->defense = 1000; /* lives on */
		struct rng r;
		rng_seed(&r, 3);
		game_apply(g, CMD_WAIT); /* the first turn of the floor */
		long before = allocations;
		int turns = 0;
		for (int t = 0; t < 200; t++)
			turns += game_apply(g, moves[rng_range(&r, 0, 8)]);
		assert_true(turns > 100);
		if (allocations != before)
			print_message("generator %d: %ld allocations in %d turns\n", k, allocations - before, turns);
		assert_int_equal(allocations - before, 0);
		game_destroy(g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hook_counts),
		cmocka_unit_test(test_turns_allocate_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
