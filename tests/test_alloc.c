/* No heap allocation in steady play: malloc, calloc and realloc are counted (this binary replaces them by wrappers around glibc's) while the game runs turns. */
#include "gamefix.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "game/ai.h"
#include "platform/display.h"
#include "platform/headless.h"
#include "platform/term.h"
#include "render/console.h"
#include "render/font.h"
#include "ui/ui.h"

/* AddressSanitizer brings its own allocator: the counters cannot stand in
 * for it, so under it these tests skip. */
#if defined(__SANITIZE_ADDRESS__)
#define COUNTING 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COUNTING 0
#endif
#endif
#ifndef COUNTING
#define COUNTING 1
#endif

static long allocations; /* the test binary's own counter (not the game's) */

#if COUNTING
/* glibc's own allocator, under the names it exports for this purpose. */
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t align, size_t n);

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

void *aligned_alloc(size_t align, size_t n)
{
	allocations++;
	return __libc_memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	allocations++;
	void *p = __libc_memalign(align, n);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}
#endif

static void skip_unless_counting(void)
{
	if (!COUNTING) {
		print_message("skipped: built with AddressSanitizer (its allocator cannot be counted)\n");
		skip();
	}
}

/* The counter sees the game's allocations at all (or the test proves
 * nothing). */
static void test_hook_counts(void **state)
{
	(void)state;
	skip_unless_counting();
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
	skip_unless_counting();
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

/* The app's frame (app.c): draw, diff into the shown console, present. */
static void frame(struct display *d, const struct ui *u, const struct game *g, struct console *con,
		  struct console *scratch)
{
	ui_draw(u, g, scratch);
	assert_int_equal(con_copy(con, scratch), 0);
	if (con->damaged)
		assert_int_equal(d->ops->present(d, con), 0);
	con_clear_damage(con);
}

/* Turns with their frames, after the first frame, on the terminal backend
 * (into a memfd) and on the headless one (the blitter into a 1920x1080
 * surface, as drm's frames): no allocation. */
static void check_frames(struct display *d, int cols, int rows)
{
	struct game *g = gamefix_new(5, MAPGEN_CLASSIC);
	((struct c_actor *)ecs_get(g->w, g->player, COMP_ACTOR))->defense = 1000;
	struct ui u;
	memset(&u, 0, sizeof(u));
	u.screen = UI_PLAY;
	u.hover_x = u.hover_y = -1;
	u.score_rank = -1;
	struct console *con, *scratch;
	assert_int_equal(con_create(&con, cols, rows), 0);
	assert_int_equal(con_create(&scratch, cols, rows), 0);
	game_apply(g, CMD_WAIT);
	frame(d, &u, g, con, scratch); /* the first */
	long before = allocations;
	int dir = 1, turns = 0;
	for (int t = 0; t < 100; t++) {
		int done = game_apply(g, dir > 0 ? CMD_MOVE_E : CMD_MOVE_W);
		if (!done)
			dir = -dir;
		turns += done;
		ui_after_command(&u, g);
		frame(d, &u, g, con, scratch);
	}
	assert_true(turns > 10);
	if (allocations != before)
		print_message("%s: %ld allocations in %d frames\n", d->ops->name, allocations - before, 100);
	assert_int_equal(allocations - before, 0);
	con_destroy(con);
	con_destroy(scratch);
	game_destroy(g);
}

static void test_frames_allocate_nothing(void **state)
{
	(void)state;
	skip_unless_counting();
	char err[256];
	struct font *f;
	assert_int_equal(font_load(&f, "fonts/cp437-8x16.png", err, sizeof err), 0);
	struct display *d;
	struct display_opts o = {.font = f, .width = 1920, .height = 1080, .scale = 1};
	assert_int_equal(headless_display_ops.open(&d, &o), 0);
	int cols, rows;
	d->ops->console_size(d, &cols, &rows);
	check_frames(d, cols, rows);
	d->ops->close(d);
	int fd = memfd_create("test_alloc", 0);
	assert_true(fd >= 0);
	assert_int_equal(term_open_fds(&d, -1, fd, 80, 30), 0);
	check_frames(d, 80, 30);
	d->ops->close(d);
	close(fd);
	font_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hook_counts),
		cmocka_unit_test(test_turns_allocate_nothing),
		cmocka_unit_test(test_frames_allocate_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
