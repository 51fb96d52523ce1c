/* Attract mode's demo game (app/demo.c): seeds in turn, the bot's moves,
 * a new game when one ends or grows long, and what its screen says. */
#include "testutil.h"
#include "conrow.h"
#include "app/demo.h"
#include "render/console.h"
#include <string.h>

/* Row y of c as text, trailing blanks cut (tests/conrow.h). */
static const char *row(const struct console *c, int y, char *buf) { return conrow_text(c, y, buf, true); }

/* Seeds 1, 2, 3...: each demo game is the game of that seed, moved by the
 * bot; ending one keeps the count. */
static void test_seeds_and_moves(void **st)
{
	(void)st;
	struct demo d = { 0 };
	assert_false(demo_running(&d));
	for (uint64_t seed = 1; seed <= 3; seed++) {
		assert_int_equal(demo_start(&d, MAPGEN_CLASSIC, NULL), 0);
		assert_true(demo_running(&d));
		struct game_opts o;
		struct game *same;
		o = (struct game_opts){ .seed = seed, .mapgen = MAPGEN_CLASSIC };
		assert_int_equal(game_create(&same, &o), 0);
		assert_int_equal(game_checksum(d.game), game_checksum(same));
		game_destroy(same);
		assert_int_equal(d.ui.screen, UI_PLAY);
		assert_int_equal(d.moves, 0);
	}
	int turn0 = game_turn(d.game);
	for (int i = 0; i < 20; i++)
		assert_int_equal(demo_step(&d), 0);
	assert_int_equal(d.moves, 20);
	assert_true(game_turn(d.game) > turn0);
	demo_end(&d);
	assert_false(demo_running(&d));
	demo_end(&d); /* twice is fine */
	assert_int_equal(demo_start(&d, MAPGEN_CLASSIC, NULL), 0);
	assert_int_equal(d.seed, 4);
	demo_end(&d);
}

/* A long demo game makes way for the next seed after DEMO_MOVES_MAX moves
 * (or sooner, when the bot dies). */
static void test_renewed(void **st)
{
	(void)st;
	struct demo d = { 0 };
	assert_int_equal(demo_start(&d, MAPGEN_CLASSIC, NULL), 0);
	for (int i = 0; i < DEMO_MOVES_MAX && d.seed == 1; i++)
		assert_int_equal(demo_step(&d), 0);
	assert_int_equal(d.seed, 2);
	assert_int_equal(d.moves, 0);
	assert_true(demo_running(&d));
	demo_end(&d);
}

/* Issue 8 item 4: the demo's hint line says what it is and "press any
 * key", never the play screen's keys (a person would try them); the top
 * line says it too. At 80 and at 40 columns. */
static void test_hint_line(void **st)
{
	(void)st;
	struct demo d = { 0 };
	struct console *c;
	char line[256];
	assert_int_equal(demo_start(&d, MAPGEN_CLASSIC, NULL), 0);
	assert_int_equal(con_create(&c, 80, 50), 0);
	ui_draw(&d.ui, d.game, c);
	assert_string_equal(row(c, 49, line), " Demo: the computer is playing  press any key to go back to the title");
	assert_non_null(strstr(row(c, 0, line), "Demo - press any key"));
	assert_int_equal(con_resize(c, 40, 30), 0);
	ui_draw(&d.ui, d.game, c);
	assert_string_equal(row(c, 29, line), " Demo game  press any key");
	/* the player's own play screen keeps its keys */
	d.ui.demo = false;
	ui_draw(&d.ui, d.game, c);
	assert_non_null(strstr(row(c, 29, line), "move"));
	con_destroy(c);
	demo_end(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seeds_and_moves),
		cmocka_unit_test(test_renewed),
		cmocka_unit_test(test_hint_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
