#include "testutil.h"
#include "app/idle.h"
#include "game/game.h"
#include <string.h>

static const struct idle_cfg both = { .attract_s = 60, .blank_s = 600 };

/* Nothing armed when nothing is due: idle stays idle. */
static void test_nothing_due(void **state)
{
	(void)state;
	struct idle_cfg off = { 0, 0 };
	struct idle_state s = { .last_input_ms = 1000, .title = true, .step_ms = -1 };
	assert_int_equal(idle_deadline(&off, &s), -1);
	assert_int_equal(idle_due(&off, &s, 1LL << 40), IDLE_NOTHING);
	/* off the title screen, attract alone never comes */
	struct idle_cfg attract = { .attract_s = 60 };
	s.title = false;
	assert_int_equal(idle_deadline(&attract, &s), -1);
	/* blanked: nothing at all, not even blanking again */
	s.title = true;
	s.blanked = true;
	assert_int_equal(idle_deadline(&both, &s), -1);
	assert_int_equal(idle_due(&both, &s, 1LL << 40), IDLE_NOTHING);
}

static void test_deadlines(void **state)
{
	(void)state;
	struct idle_state s = { .last_input_ms = 1000, .title = true, .step_ms = -1 };
	assert_int_equal(idle_deadline(&both, &s), 61000);
	assert_int_equal(idle_due(&both, &s, 60999), IDLE_NOTHING);
	assert_int_equal(idle_due(&both, &s, 61000), IDLE_ATTRACT);
	/* in the demo: its steps, then blanking 10 minutes after the input */
	s.demo = true;
	s.step_ms = 61060;
	assert_int_equal(idle_deadline(&both, &s), 61060);
	assert_int_equal(idle_due(&both, &s, 61060), IDLE_STEP);
	s.step_ms = 601000 + 60;
	assert_int_equal(idle_deadline(&both, &s), 601000);
	assert_int_equal(idle_due(&both, &s, 601000), IDLE_BLANK);
	/* blanking wins over a step due at the same time */
	s.step_ms = 600000;
	assert_int_equal(idle_due(&both, &s, 601000), IDLE_BLANK);
	/* on another screen: only blanking (and an auto-explore step) */
	s = (struct idle_state){ .last_input_ms = 5000, .step_ms = -1 };
	assert_int_equal(idle_deadline(&both, &s), 605000);
	s.step_ms = 5060;
	assert_int_equal(idle_deadline(&both, &s), 5060);
	/* attract sooner than blanking, or later: the earlier one */
	struct idle_cfg quick_blank = { .attract_s = 600, .blank_s = 60 };
	s = (struct idle_state){ .last_input_ms = 0, .title = true, .step_ms = -1 };
	assert_int_equal(idle_deadline(&quick_blank, &s), 60000);
	assert_int_equal(idle_due(&quick_blank, &s, 60000), IDLE_BLANK);
}

/* What an input does: wakes a blank screen, ends a demo, else passes. */
static void test_input(void **state)
{
	(void)state;
	struct idle_state s = { .title = true, .step_ms = -1 };
	assert_int_equal(idle_on_input(&s), IDLE_IN_PASS);
	s.demo = true;
	assert_int_equal(idle_on_input(&s), IDLE_IN_END_DEMO);
	s.demo = false;
	s.blanked = true;
	assert_int_equal(idle_on_input(&s), IDLE_IN_WAKE);
	s.title = false;
	assert_int_equal(idle_on_input(&s), IDLE_IN_WAKE);
}

/* Plays a demo game of seed for at most steps moves; its checksum. */
static uint64_t demo(uint64_t seed, int steps, int *turns, int *depth, bool *over)
{
	struct game *g;
	struct game_opts o = { .seed = seed };
	assert_int_equal(game_create(&g, &o), 0);
	for (int i = 0; i < steps && !game_is_over(g); i++) {
		struct command c = idle_demo_command(g);
		game_do(g, &c);
	}
	uint64_t sum = game_checksum(g);
	*turns = game_turn(g);
	*depth = game_depth(g);
	*over = game_is_over(g);
	game_destroy(g);
	return sum;
}

/* The demo's bot plays: it explores, fights, goes down; the same seed
 * plays the same game. */
static void test_demo_bot(void **state)
{
	(void)state;
	int deepest = 0, ended = 0;
	for (uint64_t seed = 1; seed <= 4; seed++) {
		int t1, d1, t2, d2;
		bool o1, o2;
		uint64_t a = demo(seed, 3000, &t1, &d1, &o1), b = demo(seed, 3000, &t2, &d2, &o2);
		assert_true(a == b && t1 == t2 && d1 == d2 && o1 == o2);
		assert_true(t1 >= 100); /* it does not stand still */
		deepest = d1 > deepest ? d1 : deepest;
		ended += o1;
	}
	print_message("demo: deepest floor %d, %d of 4 games ended in 3000 moves\n", deepest, ended);
	assert_true(deepest >= 2); /* it finds and takes the stairs */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_due),
		cmocka_unit_test(test_deadlines),
		cmocka_unit_test(test_input),
		cmocka_unit_test(test_demo_bot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
