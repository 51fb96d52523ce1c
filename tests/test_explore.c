/* Tests of auto-explore and travel: the steps proposed, every reason to stop, exploring a whole floor. */
#include "gamefix.h"

#include <string.h>

#include "game/explore.h"
#include "game/items.h"

/* The open 40x20 room with the player at (5, 5). */
static struct game *arena(void)
{
	struct game *g = gamefix_room(11);
	gamefix_enter(g, 5, 5);
	return g;
}

/* Steps auto-explore until it stops (at most limit steps); returns the steps
 * taken, the reason in why. Every step proposed is a move onto a known
 * walkable cell next to the player and costs a turn. */
static int explore(struct game *g, int limit, char *why, int len)
{
	int n = 0;
	struct command step;
	while (n < limit && game_explore_step(g, &step, why, len)) {
		assert_true(step.c >= CMD_MOVE_N && step.c <= CMD_MOVE_NW);
		int t = game_turn(g);
		assert_int_equal(game_do(g, &step), 1);
		assert_int_equal(game_turn(g), t + 1);
		n++;
	}
	return n;
}

static void test_explores_the_floor(void **state)
{
	(void)state;
	struct game *g = arena();
	char why[80];
	int n = explore(g, 2000, why, sizeof(why));
	assert_string_equal(why, "Explored this floor.");
	assert_true(n > 10 && n < 400);
	const struct map *m = game_map(g);
	for (int i = 0; i < WORLD_CELLS; i++)
		if (m->tile[i] != TILE_WALL)
			assert_true(m->explored[i]);
	/* Asked again: the same answer, and nothing changed. */
	uint64_t sum = game_checksum(g);
	struct command step;
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 0);
	assert_string_equal(why, "Explored this floor.");
	assert_true(game_checksum(g) == sum);
	game_destroy(g);
}

static void test_goes_to_the_nearest_frontier(void **state)
{
	(void)state;
	struct game *g = arena();
	uint8_t cost[WORLD_CELLS];
	uint16_t dist[WORLD_CELLS];
	explore_distances(g, cost, dist);
	int fx, fy;
	assert_int_equal(explore_frontier(dist, game_map(g), &fx, &fy), 0);
	/* The room's unexplored part is east and south of (5, 5). */
	const struct map *m = game_map(g);
	assert_true(m->explored[fy * MAP_W + fx]);
	int px, py;
	game_player_pos(g, &px, &py);
	struct command step;
	char why[80];
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 1);
	game_do(g, &step);
	uint16_t d2[WORLD_CELLS];
	int qx, qy;
	game_player_pos(g, &qx, &qy);
	/* The step went one cell closer to that frontier cell. */
	explore_distances(g, cost, d2);
	assert_int_equal(d2[fy * MAP_W + fx] + 1, dist[fy * MAP_W + fx]);
	game_destroy(g);
}

static void test_stops_for_monsters(void **state)
{
	(void)state;
	struct game *g = arena();
	gamefix_spawn(g, ACTOR_TROLL, 25, 15);
	char why[80];
	int n = explore(g, 2000, why, sizeof(why));
	assert_true(n > 0);
	assert_string_equal(why, "You see a troll.");
	/* It stays stopped while the monster is in view. */
	struct command step;
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 0);
	assert_string_equal(why, "You see a troll.");
	game_destroy(g);
	g = arena();
	gamefix_spawn(g, ACTOR_ORC, 8, 5);
	world_refresh_view(g);
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 0);
	assert_string_equal(why, "You see an orc.");
	assert_int_equal(game_travel_step(g, true, &step, why, sizeof(why)), 0);
	assert_string_equal(why, "There are no stairs down on this floor."); /* the arena has none */
	game_destroy(g);
}

static void test_stops_once_for_items(void **state)
{
	(void)state;
	struct game *g = arena();
	gamefix_item(g, ITEM_HEALTH_POTION, 30, 15);
	char why[80];
	int n = explore(g, 2000, why, sizeof(why));
	assert_true(n > 0);
	assert_string_equal(why, "You see a health potion.");
	assert_true(world_visible(g, 30, 15));
	/* Asked again at once, it goes on (the stop was told). */
	struct command step;
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 1);
	n = explore(g, 2000, why, sizeof(why));
	assert_string_equal(why, "Explored this floor.");
	/* An item seen before (dropped by the player) is no news. */
	game_destroy(g);
	g = arena();
	struct command d = {.c = CMD_DROP, .item = 0, .x = -1, .y = -1, .choice = -1};
	assert_int_equal(game_do(g, &d), 1);
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 1);
	game_destroy(g);
}

static void test_stops_when_hp_falls_below_half(void **state)
{
	(void)state;
	struct game *g = arena();
	assert_int_equal(items_give(g, ITEM_FIREBALL_SCROLL, false), 0);
	assert_int_equal(items_give(g, ITEM_FIREBALL_SCROLL, false), 0);
	/* 30 - 12 = 18: still half or more, no stop. */
	struct command c = {.c = CMD_USE, .item = 2, .x = 5, .y = 5, .choice = -1};
	assert_int_equal(game_do(g, &c), 1);
	struct command step;
	char why[80];
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 1);
	/* 18 - 12 = 6: fell below half (the second scroll of the stack). */
	assert_int_equal(game_do(g, &c), 1);
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 0);
	assert_string_equal(why, "Your health is below half.");
	/* Told once; then it goes on, also with HP below half. */
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 1);
	assert_int_equal(game_do(g, &step), 1);
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 1);
	game_destroy(g);
}

static void test_travel(void **state)
{
	(void)state;
	struct game *g = gamefix_room(11);
	struct map *m = world_floor(g, 1);
	gamefix_down_stairs(g, 38, 18);
	gamefix_enter(g, 5, 5);
	struct command step;
	char why[80];
	uint64_t sum = game_checksum(g);
	assert_int_equal(game_travel_step(g, true, &step, why, sizeof(why)), 0);
	assert_string_equal(why, "You don't know where the stairs are.");
	assert_int_equal(game_travel_step(g, false, &step, why, sizeof(why)), 0);
	assert_string_equal(why, "There are no stairs up on this floor.");
	assert_true(game_checksum(g) == sum);
	/* Explore until the stairs are seen, then travel there. */
	while (!m->explored[18 * MAP_W + 38]) {
		assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 1);
		game_do(g, &step);
	}
	int n = 0;
	while (game_travel_step(g, true, &step, why, sizeof(why))) {
		assert_int_equal(game_do(g, &step), 1);
		assert_true(++n < 100);
	}
	assert_string_equal(why, "You are on the stairs.");
	int x, y;
	game_player_pos(g, &x, &y);
	assert_int_equal(x, 38);
	assert_int_equal(y, 18);
	/* A wall cutting the known way: no way known. */
	assert_int_equal(game_apply(g, CMD_DESCEND), 1);
	game_destroy(g);
	g = gamefix_room(11);
	m = world_floor(g, 1);
	gamefix_down_stairs(g, 12, 5);
	for (int yy = 1; yy <= 20; yy++)
		map_set(m, 10, yy, TILE_WALL);
	map_set(m, 10, 5, TILE_FLOOR);
	gamefix_enter(g, 5, 5);
	assert_true(m->explored[5 * MAP_W + 12]);
	assert_int_equal(game_travel_step(g, true, &step, why, sizeof(why)), 1);
	assert_int_equal(step.c, CMD_MOVE_E);
	map_set(m, 10, 5, TILE_WALL);
	assert_int_equal(game_travel_step(g, true, &step, why, sizeof(why)), 0);
	assert_string_equal(why, "You know no way to the stairs.");
	game_destroy(g);
}

/* HP at exactly half after the last command is not below half: no stop;
 * one point less is (docs/rules.md: "HP fell below half"; a stop at
 * exactly half passed every other test). From exactly half down is a fall
 * below half too. */
static void test_hp_stop_at_exactly_half(void **state)
{
	(void)state;
	struct game *g = arena();
	struct c_actor *pa = ecs_get_mut(g->w, g->player, COMP_ACTOR);
	assert_int_equal(pa->max_hp, 30);
	struct command wait = {.c = CMD_WAIT, .item = -1, .x = -1, .y = -1, .choice = -1};
	struct command step;
	char why[80] = "";
	/* the last command took the player from 30 to 15 HP: exactly half */
	assert_int_equal(game_do(g, &wait), 1);
	pa->hp = 15;
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 1);
	/* ... and then from 15 to 14: below half, for the first time */
	assert_int_equal(game_do(g, &wait), 1);
	pa->hp = 14;
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 0);
	assert_string_equal(why, "Your health is below half.");
	/* from 30 straight to 14 stops too */
	game_destroy(g);
	g = arena();
	pa = ecs_get_mut(g->w, g->player, COMP_ACTOR);
	assert_int_equal(game_do(g, &wait), 1);
	pa->hp = 14;
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 0);
	assert_string_equal(why, "Your health is below half.");
	game_destroy(g);
}

/* The player at (10, 10) knowing only the cells explored[] below: the
 * frontier chosen and the step proposed. */
static void frontier_among(const int (*cells)[2], int n, int wx, int wy, enum cmd want)
{
	struct game *g = gamefix_room(11);
	gamefix_enter(g, 10, 10);
	struct map *m = world_floor(g, g->depth);
	memset(m->explored, 0, sizeof m->explored);
	m->explored[10 * m->w + 10] = 1;
	for (int i = 0; i < n; i++)
		m->explored[cells[i][1] * m->w + cells[i][0]] = 1;
	uint8_t cost[WORLD_CELLS];
	uint16_t dist[WORLD_CELLS];
	explore_distances(g, cost, dist);
	int fx, fy;
	assert_int_equal(explore_frontier(dist, m, &fx, &fy), 0);
	assert_int_equal(fx, wx);
	assert_int_equal(fy, wy);
	struct command step;
	char why[80];
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 1);
	assert_int_equal(step.c, want);
	game_destroy(g);
}

/* Frontier cells at the same distance: the one of the lowest cell index
 * (y * width + x) wins (docs/rules.md; the tie going to the other passed
 * every other test). */
static void test_frontier_tie_to_lowest_index(void **state)
{
	(void)state;
	static const int row[][2] = {{9, 10}, {11, 10}};
	frontier_among(row, 2, 9, 10, CMD_MOVE_W);
	static const int column[][2] = {{10, 11}, {10, 9}};
	frontier_among(column, 2, 10, 9, CMD_MOVE_N);
	/* (11, 9) comes before (9, 11): the row first */
	static const int diagonal[][2] = {{9, 11}, {11, 9}};
	frontier_among(diagonal, 2, 11, 9, CMD_MOVE_NE);
	/* a nearer one wins over a lower index */
	static const int nearer[][2] = {{10, 9}, {10, 8}, {11, 10}};
	frontier_among(nearer, 3, 10, 9, CMD_MOVE_N);
}

static void test_dead_and_levelup(void **state)
{
	(void)state;
	struct game *g = arena();
	struct command step;
	char why[80];
	((struct c_player *)ecs_get_mut(g->w, g->player, COMP_PLAYER))->xp = 400;
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 0);
	assert_string_equal(why, "Choose how to level up first.");
	g->over = true;
	assert_int_equal(game_explore_step(g, &step, why, sizeof(why)), 0);
	assert_string_equal(why, "You are dead.");
	game_destroy(g);
}

/* Auto-explore with auto-pickup of the classes in pickup until it stops
 * (at most limit steps): moves and pickups, each costing a turn. Returns
 * the pickups made. */
static int explore_pickup(struct game *g, unsigned pickup, int limit, char *why, int len)
{
	int picked = 0;
	struct command step;
	for (int n = 0; n < limit && game_explore_pickup_step(g, pickup, &step, why, len); n++) {
		assert_true((step.c >= CMD_MOVE_N && step.c <= CMD_MOVE_NW) || step.c == CMD_PICKUP);
		picked += step.c == CMD_PICKUP;
		assert_int_equal(game_do(g, &step), 1);
	}
	return picked;
}

/* The number of messages of the log that read text (repeats counted). */
static int said(const struct game *g, const char *text)
{
	int n = 0;
	for (int i = 0; i < game_msg_count(g); i++)
		if (!strcmp(game_msg_get(g, i)->text, text))
			n += game_msg_get(g, i)->count;
	return n;
}

/* Issue 18, item 2: auto-explore walks to the potions and scrolls it sees
 * and picks them up, then goes on; weapons and armour (off by default)
 * still stop it once, and are left. */
static void test_auto_pickup(void **state)
{
	(void)state;
	struct game *g = arena();
	gamefix_item(g, ITEM_HEALTH_POTION, 12, 6);
	gamefix_item(g, ITEM_HEALTH_POTION, 30, 15);
	gamefix_item(g, ITEM_CONFUSION_SCROLL, 35, 3);
	ecs_entity sword = gamefix_item(g, ITEM_SWORD, 20, 18);
	char why[80];
	int picked = 0, stops = 0;
	for (int k = 0; k < 10; k++) {
		picked += explore_pickup(g, GAME_PICKUP_DEFAULT, 3000, why, sizeof why);
		if (!strcmp(why, "Explored this floor."))
			break;
		assert_string_equal(why, "You see a sword.");
		stops++;
	}
	assert_string_equal(why, "Explored this floor.");
	assert_int_equal(picked, 3);
	assert_int_equal(stops, 1);
	assert_int_equal(items_count(g, items_in_slot(g, 2)), 2);
	assert_int_equal(content_items[((const struct c_item *)ecs_get(g->w, items_in_slot(g, 3), COMP_ITEM))->kind].effect,
			 EFFECT_CONFUSE);
	assert_true(ecs_has(g->w, sword, COMP_POS));
	/* asked for weapons too, it goes for the sword */
	assert_int_equal(explore_pickup(g, GAME_PICKUP_ALL, 3000, why, sizeof why), 1);
	assert_false(ecs_has(g->w, sword, COMP_POS));
	assert_string_equal(why, "Explored this floor.");
	/* what the player put down himself stays down */
	struct command d = {.c = CMD_DROP, .item = 2, .x = -1, .y = -1, .choice = GAME_DROP_ALL};
	assert_int_equal(game_do(g, &d), 1);
	assert_int_equal(explore_pickup(g, GAME_PICKUP_ALL, 3000, why, sizeof why), 0);
	assert_string_equal(why, "Explored this floor.");
	assert_true(items_in_slot(g, 2) == ECS_NULL);
	game_destroy(g);
}

/* Auto-pickup still stops for a monster in view and for HP below half. */
static void test_auto_pickup_stops(void **state)
{
	(void)state;
	struct game *g = arena();
	gamefix_item(g, ITEM_HEALTH_POTION, 30, 15);
	gamefix_spawn(g, ACTOR_ORC, 8, 8);
	world_refresh_view(g);
	char why[80];
	struct command step;
	assert_int_equal(game_explore_pickup_step(g, GAME_PICKUP_DEFAULT, &step, why, sizeof why), 0);
	assert_string_equal(why, "You see an orc.");
	game_destroy(g);
	g = arena();
	assert_int_equal(items_give(g, ITEM_FIREBALL_SCROLL, false), 0);
	assert_int_equal(items_give(g, ITEM_FIREBALL_SCROLL, false), 0);
	gamefix_item(g, ITEM_HEALTH_POTION, 30, 15);
	struct command c = {.c = CMD_USE, .item = 2, .x = 5, .y = 5, .choice = -1};
	assert_int_equal(game_do(g, &c), 1);
	assert_int_equal(game_do(g, &c), 1);
	assert_int_equal(game_explore_pickup_step(g, GAME_PICKUP_DEFAULT, &step, why, sizeof why), 0);
	assert_string_equal(why, "Your health is below half.");
	game_destroy(g);
}

/* With no room, an item auto-pickup would take stops it once, saying so,
 * and is left: never walked to, never tried, so "Your inventory is full."
 * is never logged over and over (the "(x148)"). */
static void test_auto_pickup_full(void **state)
{
	(void)state;
	struct game *g = arena();
	for (int i = 2; i < INVENTORY_SLOTS; i++)
		assert_int_equal(items_give(g, ITEM_DAGGER, false), 0);
	ecs_entity p = gamefix_item(g, ITEM_HEALTH_POTION, 12, 6);
	gamefix_item(g, ITEM_CONFUSION_SCROLL, 30, 15);
	char why[80];
	int stops = 0;
	for (int k = 0; k < 10; k++) {
		assert_int_equal(explore_pickup(g, GAME_PICKUP_DEFAULT, 3000, why, sizeof why), 0);
		if (!strcmp(why, "Explored this floor."))
			break;
		assert_true(!strcmp(why, "You see a health potion. Your inventory is full.") ||
			    !strcmp(why, "You see a confusion scroll. Your inventory is full."));
		stops++;
	}
	assert_int_equal(stops, 2);
	assert_int_equal(said(g, "Your inventory is full."), 0);
	assert_true(ecs_has(g->w, p, COMP_POS));
	/* picking up by hand on a full cell: said once for the command */
	int px, py;
	game_player_pos(g, &px, &py);
	ecs_entity s1, s2;
	assert_int_equal(world_spawn_item(g, ITEM_SWORD, 1, px, py, &s1), 0);
	assert_int_equal(world_spawn_item(g, ITEM_CHAIN_MAIL, 1, px, py, &s2), 0);
	assert_int_equal(game_apply(g, CMD_PICKUP), 0);
	assert_int_equal(said(g, "Your inventory is full."), 1);
	game_destroy(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_explores_the_floor),
		cmocka_unit_test(test_goes_to_the_nearest_frontier),
		cmocka_unit_test(test_stops_for_monsters),
		cmocka_unit_test(test_stops_once_for_items),
		cmocka_unit_test(test_stops_when_hp_falls_below_half),
		cmocka_unit_test(test_hp_stop_at_exactly_half),
		cmocka_unit_test(test_frontier_tie_to_lowest_index),
		cmocka_unit_test(test_auto_pickup),
		cmocka_unit_test(test_auto_pickup_stops),
		cmocka_unit_test(test_auto_pickup_full),
		cmocka_unit_test(test_travel),
		cmocka_unit_test(test_dead_and_levelup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
