/* Auto-explore and travel as the app drives them (app/walk.c): what the
 * player is told when a walk cannot start. */
#include "testutil.h"
#include "gamefix.h"
#include "app/walk.h"
#include <string.h>

static int give(void *ctx, const struct command *c)
{
	return game_do(ctx, c);
}

static int request(void *ctx, enum ui_request r)
{
	(void)ctx;
	(void)r;
	return 0;
}

/* A monster in view: o (and travel) refused at once says what to do, as
 * pressing it again would only repeat the stop (issue 9, played in the
 * terminal: o pressed again and again said "You see an orc." each time);
 * a walk that stopped after steps keeps the game's reason alone. */
static void test_refused_for_a_monster(void **st)
{
	(void)st;
	struct game *g = gamefix_room(1);
	gamefix_enter(g, 10, 10);
	gamefix_spawn_seen(g, ACTOR_ORC, 14, 10);
	struct ui u = { .screen = UI_PLAY, .hover_x = -1, .hover_y = -1 };
	struct ui_host h = { .ctx = g, .command = give, .request = request };
	struct walk w = { 0 };
	int turn = game_turn(g);
	assert_false(walk_start(&w, WALK_EXPLORE, false, g, &u, &h));
	assert_string_equal(u.status, "You see an orc. Deal with it first.");
	assert_int_equal(w.kind, WALK_NONE);
	/* another reason is left as it is */
	assert_false(walk_start(&w, WALK_DOWN, true, g, &u, &h));
	assert_string_equal(u.status, "There are no stairs down on this floor.");
	assert_int_equal(game_turn(g), turn); /* nothing was played */
	game_destroy(g);
	/* no monster: exploring walks and stops with the game's reason only */
	g = gamefix_room(1);
	gamefix_enter(g, 10, 10);
	h.ctx = g;
	u.status[0] = 0;
	assert_false(walk_start(&w, WALK_EXPLORE, true, g, &u, &h));
	assert_true(game_turn(g) > 0);
	assert_null(strstr(u.status, "Deal with it"));
	assert_true(u.status[0] != 0);
	game_destroy(g);
}

/* Issue 18, item 2: the walk's pickup classes reach auto-explore: with
 * potions asked for, o gathers the potion on its way; with none, it stops
 * when it sees it, as before. */
static void test_walk_picks_up(void **st)
{
	(void)st;
	struct ui u = { .screen = UI_PLAY, .hover_x = -1, .hover_y = -1 };
	for (int k = 0; k < 2; k++) {
		struct game *g = gamefix_room(1);
		gamefix_enter(g, 10, 10);
		ecs_entity p = gamefix_item(g, ITEM_HEALTH_POTION, 30, 15);
		struct ui_host h = { .ctx = g, .command = give, .request = request };
		struct walk w = { .pickup = k ? GAME_PICKUP_DEFAULT : 0 };
		u.status[0] = 0;
		assert_false(walk_start(&w, WALK_EXPLORE, true, g, &u, &h));
		if (k) {
			assert_false(ecs_has(g->w, p, COMP_POS));
			assert_string_equal(u.status, "Explored this floor.");
		} else {
			assert_true(ecs_has(g->w, p, COMP_POS));
			assert_string_equal(u.status, "You see a health potion.");
		}
		game_destroy(g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused_for_a_monster),
		cmocka_unit_test(test_walk_picks_up),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
