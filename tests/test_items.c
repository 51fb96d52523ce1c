/* Tests of items: the tables, picking up, dropping, every item's effect, targeting refusals, equipment, levels, history, death cause and kills. */
#include "gamefix.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "game/combat.h"
#include "game/items.h"

/* A game on a walled 40x20 open room, no monsters or items; player at (10,10). */
static struct game *arena(void)
{
	struct game *g = gamefix_room(7);
	gamefix_enter(g, 10, 10);
	return g;
}

static struct command use_at(int slot, int x, int y)
{
	return (struct command){.c = CMD_USE, .item = slot, .x = x, .y = y, .choice = -1};
}

static struct command use(int slot)
{
	return use_at(slot, -1, -1);
}

static struct command drop(int slot)
{
	return (struct command){.c = CMD_DROP, .item = slot, .x = -1, .y = -1, .choice = -1};
}

static struct command level_up(int choice)
{
	return (struct command){.c = CMD_LEVEL_UP, .item = -1, .x = -1, .y = -1, .choice = choice};
}

/* Gives the player an item of kind (not equipped); returns its slot. */
static int give(struct game *g, int kind)
{
	assert_int_equal(items_give(g, kind, false), 0);
	struct game_item_view v[INVENTORY_SLOTS];
	int n = game_inventory(g, v, INVENTORY_SLOTS);
	for (int i = n - 1; i >= 0; i--)
		if (v[i].kind == kind && !v[i].equipped)
			return v[i].slot;
	fail();
	return -1;
}

static int hp_of(struct game *g, ecs_entity e)
{
	const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
	return a ? a->hp : -1;
}

static void set_player_hp(struct game *g, int hp)
{
	((struct c_actor *)ecs_get_mut(g->w, g->player, COMP_ACTOR))->hp = hp;
}

/* Each carried item in exactly one slot and on no floor; equipped ones carried. */
static void check_inventory(const struct game *g)
{
	const struct c_inventory *inv = ecs_get(g->w, g->player, COMP_INVENTORY);
	int count = 0;
	for (int s = 0; s < INVENTORY_SLOTS; s++) {
		if (inv->slot[s] == ECS_NULL)
			continue;
		count++;
		assert_true(ecs_has(g->w, inv->slot[s], COMP_ITEM));
		assert_false(ecs_has(g->w, inv->slot[s], COMP_POS));
		for (int t = s + 1; t < INVENTORY_SLOTS; t++)
			assert_true(inv->slot[t] != inv->slot[s]);
	}
	assert_int_equal(count, inv->count);
	const struct c_equipment *eq = ecs_get(g->w, g->player, COMP_EQUIPMENT);
	for (int k = 0; k < EQUIP_SLOT_COUNT; k++) {
		if (eq->slot[k] == ECS_NULL)
			continue;
		bool carried = false;
		for (int s = 0; s < INVENTORY_SLOTS; s++)
			carried |= inv->slot[s] == eq->slot[k];
		assert_true(carried);
		assert_int_equal(((const struct c_equippable *)ecs_get(g->w, eq->slot[k], COMP_EQUIPPABLE))->slot, k);
	}
}

static void test_tables(void **state)
{
	(void)state;
	/* GAME.md §4: min floor and weight of every item placed on floors. */
	static const struct {
		int kind, from, weight;
	} want[] = {
		{ITEM_HEALTH_POTION, 1, 35}, {ITEM_CONFUSION_SCROLL, 2, 10}, {ITEM_PARALYSIS_SCROLL, 3, 10},
		{ITEM_LIGHTNING_SCROLL, 4, 25}, {ITEM_FIREBALL_SCROLL, 6, 25}, {ITEM_SWORD, 4, 5},
		{ITEM_CHAIN_MAIL, 6, 15},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct floor_table *t = &content_items[want[i].kind].weight;
		assert_int_equal(content_floor_value(t, want[i].from - 1), 0);
		assert_int_equal(content_floor_value(t, want[i].from), want[i].weight);
		assert_int_equal(content_floor_value(t, 99), want[i].weight);
	}
	/* The starting equipment is never placed. */
	assert_int_equal(content_floor_value(&content_items[ITEM_DAGGER].weight, 99), 0);
	assert_int_equal(content_floor_value(&content_items[ITEM_LEATHER_ARMOUR].weight, 99), 0);
	assert_int_equal(content_items[ITEM_DAGGER].power_bonus, 2);
	assert_int_equal(content_items[ITEM_SWORD].power_bonus, 4);
	assert_int_equal(content_items[ITEM_LEATHER_ARMOUR].defense_bonus, 1);
	assert_int_equal(content_items[ITEM_CHAIN_MAIL].defense_bonus, 3);
	for (int k = 0; k < ITEM_COUNT; k++) {
		assert_non_null(content_items[k].name);
		assert_string_equal(content_item_name(k), content_items[k].name);
		assert_true(strlen(content_items[k].name) < NAME_LEN);
	}
	assert_string_equal(content_item_name(ITEM_COUNT), "?");
	assert_string_equal(content_actor_name(ACTOR_TROLL), "troll");
	assert_string_equal(content_actor_name(-1), "?");
	/* §5: items per room. */
	assert_int_equal(content_floor_value(&content_max_items_per_room, 3), 1);
	assert_int_equal(content_floor_value(&content_max_items_per_room, 4), 2);
	assert_int_equal(content_levelups[LEVELUP_HP].max_hp, 20);
	assert_int_equal(content_levelups[LEVELUP_HP].heal, 20);
	assert_int_equal(content_levelups[LEVELUP_POWER].power, 1);
	assert_int_equal(content_levelups[LEVELUP_DEFENSE].defense, 1);
}

static void test_start_equipment(void **state)
{
	(void)state;
	struct game *g = arena();
	struct game_item_view v[INVENTORY_SLOTS];
	assert_int_equal(game_inventory(g, v, INVENTORY_SLOTS), 2);
	assert_int_equal(v[0].slot, 0);
	assert_string_equal(v[0].name, "dagger");
	assert_true(v[0].equipped);
	assert_int_equal(v[0].glyph, '/');
	assert_int_equal(v[0].target, TARGET_NONE);
	assert_int_equal(v[1].slot, 1);
	assert_string_equal(v[1].name, "leather armour");
	assert_true(v[1].equipped);
	assert_int_equal(game_inventory(g, v, 1), 1);
	struct game_stats s;
	game_stats(g, &s);
	assert_int_equal(s.power, 4);
	assert_int_equal(s.defense, 2);
	assert_int_equal(s.base_power, 2);
	assert_int_equal(s.base_defense, 1);
	check_inventory(g);
	game_destroy(g);
}

static void test_pickup(void **state)
{
	(void)state;
	struct game *g = arena();
	/* Nothing there: free. */
	assert_int_equal(game_apply(g, CMD_PICKUP), 0);
	assert_string_equal(gamefix_last_msg(g), "There is nothing here to pick up.");
	ecs_entity a = gamefix_item(g, ITEM_HEALTH_POTION, 10, 10);
	ecs_entity b = gamefix_item(g, ITEM_SWORD, 10, 10);
	gamefix_item(g, ITEM_CHAIN_MAIL, 11, 10);
	world_refresh_view(g);
	/* Entity order (slot index; freed slots are reused, so not always the
	 * order of creation) decides the order of names and of picking up. */
	if (ECS_INDEX(b) < ECS_INDEX(a)) {
		ecs_entity t = a;
		a = b;
		b = t;
	}
	char buf[80], want[80];
	snprintf(want, sizeof(want), "you, %s, %s", world_name(g, a), world_name(g, b));
	assert_string_equal(game_describe(g, 10, 10, buf, sizeof(buf)), want);
	assert_int_equal(game_apply(g, CMD_PICKUP), 1);
	assert_int_equal(game_turn(g), 1);
	snprintf(want, sizeof(want), "You pick up the %s.", world_name(g, a));
	assert_true(gamefix_has_msg(g, want));
	snprintf(want, sizeof(want), "You pick up the %s.", world_name(g, b));
	assert_string_equal(gamefix_last_msg(g), want);
	assert_false(ecs_has(g->w, a, COMP_POS));
	assert_false(ecs_has(g->w, b, COMP_POS));
	assert_true(items_in_slot(g, 2) == a);
	assert_true(items_in_slot(g, 3) == b);
	assert_false(items_equipped(g, b) || items_equipped(g, a));
	assert_string_equal(game_describe(g, 10, 10, buf, sizeof(buf)), "you");
	assert_string_equal(game_describe(g, 11, 10, buf, sizeof(buf)), "chain mail");
	check_inventory(g);
	game_destroy(g);
}

static void test_inventory_full(void **state)
{
	(void)state;
	struct game *g = arena();
	for (int i = 2; i < INVENTORY_SLOTS - 1; i++)
		give(g, ITEM_DAGGER); /* (daggers do not stack) */
	ecs_entity a = gamefix_item(g, ITEM_SWORD, 10, 10);
	ecs_entity b = gamefix_item(g, ITEM_CHAIN_MAIL, 10, 10);
	/* One free slot: the first item is taken, the second stays. */
	assert_int_equal(game_apply(g, CMD_PICKUP), 1);
	assert_string_equal(gamefix_last_msg(g), "Your inventory is full.");
	assert_true(items_in_slot(g, INVENTORY_SLOTS - 1) == a);
	assert_true(ecs_has(g->w, b, COMP_POS));
	/* Full: nothing taken, no turn. */
	assert_int_equal(game_apply(g, CMD_PICKUP), 0);
	assert_int_equal(game_turn(g), 1);
	assert_string_equal(gamefix_last_msg(g), "Your inventory is full.");
	assert_int_equal(items_give(g, ITEM_SWORD, false), -ENOSPC);
	check_inventory(g);
	game_destroy(g);
}

static struct command drop_all(int slot)
{
	return (struct command){.c = CMD_DROP, .item = slot, .x = -1, .y = -1, .choice = GAME_DROP_ALL};
}

/* The stack in slot: its count (1 for a single item). */
static int count_in(const struct game *g, int slot)
{
	return items_count(g, items_in_slot(g, slot));
}

/* Issue 18, item 1: identical potions and scrolls share a slot with a
 * count; using takes one; weapons and armour never stack. */
static void test_stacks(void **state)
{
	(void)state;
	struct game *g = arena();
	assert_int_equal(give(g, ITEM_HEALTH_POTION), 2);
	assert_int_equal(give(g, ITEM_HEALTH_POTION), 2);
	assert_int_equal(give(g, ITEM_CONFUSION_SCROLL), 3);
	assert_int_equal(give(g, ITEM_HEALTH_POTION), 2);
	assert_int_equal(count_in(g, 2), 3);
	assert_int_equal(count_in(g, 3), 1);
	struct game_item_view v[INVENTORY_SLOTS];
	assert_int_equal(game_inventory(g, v, INVENTORY_SLOTS), 4);
	assert_int_equal(v[2].count, 3);
	assert_string_equal(v[2].label, "3 health potions");
	assert_string_equal(v[2].name, "health potion");
	assert_string_equal(v[3].label, "confusion scroll");
	/* weapons and armour never stack */
	assert_int_equal(give(g, ITEM_DAGGER), 4);
	assert_int_equal(count_in(g, 0), 1);
	assert_int_equal(count_in(g, 4), 1);
	/* using one takes one */
	set_player_hp(g, 10);
	struct command c = use(2);
	assert_int_equal(game_do(g, &c), 1);
	assert_int_equal(count_in(g, 2), 2);
	assert_int_equal(game_do(g, &c), 1);
	assert_int_equal(count_in(g, 2), 1);
	assert_int_equal(game_do(g, &c), 1);
	assert_true(items_in_slot(g, 2) == ECS_NULL);
	check_inventory(g);
	game_destroy(g);
}

/* Picking up merges into a carried stack, also with every slot taken (the
 * 26-slot limit counts slots); a stack lying on the floor comes whole. */
static void test_pickup_merges(void **state)
{
	(void)state;
	struct game *g = arena();
	give(g, ITEM_HEALTH_POTION);
	for (int i = 3; i < INVENTORY_SLOTS; i++)
		give(g, ITEM_DAGGER);
	ecs_entity p = gamefix_item(g, ITEM_HEALTH_POTION, 10, 10);
	ecs_entity q = gamefix_item(g, ITEM_HEALTH_POTION, 10, 10);
	ecs_entity s = gamefix_item(g, ITEM_SWORD, 10, 10);
	assert_int_equal(game_apply(g, CMD_PICKUP), 1);
	assert_true(gamefix_has_msg(g, "You pick up the health potion."));
	assert_int_equal(count_in(g, 2), 3);
	assert_false(ecs_alive(g->w, p) || ecs_alive(g->w, q));
	/* the sword finds no slot: it stays, said once */
	assert_true(ecs_has(g->w, s, COMP_POS));
	assert_string_equal(gamefix_last_msg(g), "Your inventory is full.");
	assert_int_equal(game_msg_get(g, game_msg_count(g) - 1)->count, 1);
	check_inventory(g);
	game_destroy(g);
}

/* Drop asks one or all: one leaves the stack one smaller and one on the
 * floor; all puts the whole stack down, and it is picked up whole. */
static void test_drop_one_or_all(void **state)
{
	(void)state;
	struct game *g = arena();
	for (int i = 0; i < 4; i++)
		give(g, ITEM_FIREBALL_SCROLL);
	struct command c = drop(2);
	assert_int_equal(game_do(g, &c), 1);
	assert_string_equal(gamefix_last_msg(g), "You drop a fireball scroll.");
	assert_int_equal(count_in(g, 2), 3);
	char buf[80];
	assert_string_equal(game_describe(g, 10, 10, buf, sizeof buf), "you, fireball scroll");
	c = drop_all(2);
	assert_int_equal(game_do(g, &c), 1);
	assert_string_equal(gamefix_last_msg(g), "You drop the 3 fireball scrolls.");
	assert_true(items_in_slot(g, 2) == ECS_NULL);
	assert_string_equal(game_describe(g, 10, 10, buf, sizeof buf), "you, fireball scroll, 3 fireball scrolls");
	assert_int_equal(game_apply(g, CMD_PICKUP), 1);
	assert_true(gamefix_has_msg(g, "You pick up the 3 fireball scrolls."));
	assert_int_equal(count_in(g, 2), 4);
	/* drop all of a single item is the item */
	c = drop_all(0);
	assert_int_equal(game_do(g, &c), 1);
	assert_string_equal(gamefix_last_msg(g), "You drop the dagger.");
	check_inventory(g);
	game_destroy(g);
}

/* A game made before stacks (stacks_from GAME_STACKS_NEVER: an old
 * recording) plays as it did; one whose stacks start after K commands (an
 * old save continued) merges what it carries at that moment. */
static void test_stacks_from(void **state)
{
	(void)state;
	struct game_opts o = {.seed = 3, .mapgen = MAPGEN_CLASSIC, .stacks_from = GAME_STACKS_NEVER};
	struct game *g;
	assert_int_equal(game_create(&g, &o), 0);
	assert_int_equal(items_give(g, ITEM_HEALTH_POTION, false), 0);
	assert_int_equal(items_give(g, ITEM_HEALTH_POTION, false), 0);
	assert_int_equal(count_in(g, 2), 1);
	assert_int_equal(count_in(g, 3), 1);
	game_destroy(g);
	o.stacks_from = 2;
	assert_int_equal(game_create(&g, &o), 0);
	assert_int_equal(items_give(g, ITEM_HEALTH_POTION, false), 0);
	assert_int_equal(items_give(g, ITEM_HEALTH_POTION, false), 0);
	assert_int_equal(game_apply(g, CMD_WAIT), 1);
	assert_int_equal(count_in(g, 3), 1);
	assert_int_equal(game_apply(g, CMD_WAIT), 1);
	assert_int_equal(count_in(g, 2), 2);
	assert_true(items_in_slot(g, 3) == ECS_NULL);
	assert_int_equal(items_give(g, ITEM_HEALTH_POTION, false), 0);
	assert_int_equal(count_in(g, 2), 3);
	check_inventory(g);
	game_destroy(g);
}

static void test_drop(void **state)
{
	(void)state;
	struct game *g = arena();
	ecs_entity dagger = items_in_slot(g, 0);
	struct command c = drop(0);
	assert_int_equal(game_do(g, &c), 1);
	assert_true(gamefix_has_msg(g, "You remove the dagger."));
	assert_string_equal(gamefix_last_msg(g), "You drop the dagger.");
	assert_true(items_in_slot(g, 0) == ECS_NULL);
	assert_false(items_equipped(g, dagger));
	const struct c_pos *p = ecs_get(g->w, dagger, COMP_POS);
	assert_non_null(p);
	assert_int_equal(p->x, 10);
	assert_int_equal(p->y, 10);
	struct game_stats s;
	game_stats(g, &s);
	assert_int_equal(s.power, 2);
	/* An empty or impossible slot: free. */
	assert_int_equal(game_do(g, &c), 0);
	assert_string_equal(gamefix_last_msg(g), "You have no item in that slot.");
	c = drop(26);
	assert_int_equal(game_do(g, &c), 0);
	c = drop(-1);
	assert_int_equal(game_do(g, &c), 0);
	assert_int_equal(game_turn(g), 1);
	/* Walk away: the dropped dagger is remembered where it lies. */
	for (int i = 0; i < 12; i++)
		game_apply(g, CMD_MOVE_E);
	assert_false(world_visible(g, 10, 10));
	char buf[40];
	assert_string_equal(game_describe(g, 10, 10, buf, sizeof(buf)), "dagger");
	struct drawable d[16];
	int n = game_drawables(g, d, 16);
	bool seen = false;
	for (int i = 0; i < n; i++)
		if (d[i].x == 10 && d[i].y == 10 && d[i].glyph == '/' && d[i].remembered)
			seen = true;
	assert_true(seen);
	check_inventory(g);
	game_destroy(g);
}

static void test_health_potion(void **state)
{
	(void)state;
	struct game *g = arena();
	int slot = give(g, ITEM_HEALTH_POTION);
	struct command c = use(slot);
	char why[120];
	/* Full HP: refused, no turn, the potion kept. */
	assert_int_equal(game_target_check(g, slot, -1, -1, why, sizeof(why)), -1);
	assert_string_equal(why, "Your health is already full.");
	assert_int_equal(game_do(g, &c), 0);
	assert_string_equal(gamefix_last_msg(g), "Your health is already full.");
	assert_true(items_in_slot(g, slot) != ECS_NULL);
	set_player_hp(g, 20);
	assert_int_equal(game_target_check(g, slot, -1, -1, why, sizeof(why)), 0);
	assert_int_equal(game_do(g, &c), 1);
	assert_string_equal(gamefix_last_msg(g), "You drink the health potion and recover 4 HP.");
	assert_int_equal(hp_of(g, g->player), 24);
	assert_true(items_in_slot(g, slot) == ECS_NULL);
	/* Healing stops at the maximum. */
	slot = give(g, ITEM_HEALTH_POTION);
	set_player_hp(g, 28);
	c = use(slot);
	assert_int_equal(game_do(g, &c), 1);
	assert_int_equal(hp_of(g, g->player), 30);
	assert_string_equal(gamefix_last_msg(g), "You drink the health potion and recover 2 HP.");
	check_inventory(g);
	game_destroy(g);
}

static void test_lightning(void **state)
{
	(void)state;
	struct game *g = arena();
	int slot = give(g, ITEM_LIGHTNING_SCROLL);
	struct command c = use(slot);
	char why[120];
	/* No monster: refused. */
	assert_int_equal(game_do(g, &c), 0);
	assert_string_equal(gamefix_last_msg(g), "No enemy is close enough to strike.");
	/* Out of range (6 > 5), and (4, 4) at distance sqrt(32) > 5. */
	ecs_entity far = gamefix_spawn_seen(g, ACTOR_TROLL, 16, 10);
	ecs_entity diag = gamefix_spawn_seen(g, ACTOR_TROLL, 14, 14);
	assert_int_equal(game_target_check(g, slot, -1, -1, why, sizeof(why)), -1);
	assert_string_equal(why, "No enemy is close enough to strike.");
	assert_int_equal(game_do(g, &c), 0);
	assert_int_equal(game_turn(g), 0);
	/* Within 5: struck for 20, the nearest one only (the troll at sqrt(18), not the orc at 5). */
	ecs_entity near = gamefix_spawn_seen(g, ACTOR_TROLL, 13, 13);
	ecs_entity nearer = gamefix_spawn_seen(g, ACTOR_ORC, 15, 10);
	assert_int_equal(game_target_check(g, slot, -1, -1, why, sizeof(why)), 0);
	assert_int_equal(game_do(g, &c), 1);
	assert_true(gamefix_has_msg(g, "A lightning bolt strikes the troll with a loud thunder, for 20 damage!"));
	assert_true(gamefix_has_msg(g, "Troll is dead!"));
	assert_true(ecs_has(g->w, near, COMP_CORPSE));
	assert_int_equal(hp_of(g, nearer), 10);
	assert_int_equal(hp_of(g, far), 16);
	assert_int_equal(hp_of(g, diag), 16);
	assert_true(items_in_slot(g, slot) == ECS_NULL);
	assert_int_equal(game_kills(g, ACTOR_TROLL), 1);
	struct game_stats s;
	game_stats(g, &s);
	assert_int_equal(s.xp, 100);
	/* A monster behind a wall is not seen, so not struck. */
	game_destroy(g);
	g = arena();
	for (int y = 1; y <= 20; y++)
		map_set(world_floor(g, 1), 12, y, TILE_WALL);
	gamefix_spawn_seen(g, ACTOR_ORC, 13, 10);
	slot = give(g, ITEM_LIGHTNING_SCROLL);
	c = use(slot);
	assert_int_equal(game_do(g, &c), 0);
	assert_string_equal(gamefix_last_msg(g), "No enemy is close enough to strike.");
	game_destroy(g);
}

/* "Within 5" takes in distance exactly 5 (dx^2 + dy^2 = 25, straight or
 * 3-4 diagonal) and nothing past it (26); a bolt that left out exactly 5
 * was seen only by a golden file. */
static void test_lightning_at_exactly_range(void **state)
{
	(void)state;
	static const int at[][2] = {{15, 10}, {13, 14}, {10, 5}, {6, 7}};
	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
		struct game *g = arena();
		ecs_entity orc = gamefix_spawn_seen(g, ACTOR_ORC, at[i][0], at[i][1]);
		int slot = give(g, ITEM_LIGHTNING_SCROLL);
		struct command c = use(slot);
		char why[120];
		assert_int_equal(game_target_check(g, slot, -1, -1, why, sizeof(why)), 0);
		assert_int_equal(game_do(g, &c), 1);
		assert_true(gamefix_has_msg(g, "A lightning bolt strikes the orc with a loud thunder, for 20 damage!"));
		assert_true(ecs_has(g->w, orc, COMP_CORPSE));
		game_destroy(g);
	}
	/* sqrt(26): out of range */
	struct game *g = arena();
	ecs_entity orc = gamefix_spawn_seen(g, ACTOR_ORC, 15, 11);
	int slot = give(g, ITEM_LIGHTNING_SCROLL);
	struct command c = use(slot);
	char why[120];
	assert_int_equal(game_target_check(g, slot, -1, -1, why, sizeof(why)), -1);
	assert_string_equal(why, "No enemy is close enough to strike.");
	assert_int_equal(game_do(g, &c), 0);
	assert_int_equal(hp_of(g, orc), 10);
	game_destroy(g);
}

/* Confusion and paralysis share their targeting rules. */
static void check_monster_targeting(int kind, const char *self_msg)
{
	struct game *g = arena();
	for (int y = 1; y <= 20; y++)
		map_set(world_floor(g, 1), 25, y, TILE_WALL);
	world_refresh_view(g);
	ecs_entity hidden = gamefix_spawn_seen(g, ACTOR_ORC, 30, 10);
	int slot = give(g, kind);
	char why[120];
	struct {
		int x, y;
		const char *msg;
	} refused[] = {
		{30, 10, "You cannot target an area that you cannot see."}, /* behind the wall */
		{-1, -1, "You cannot target an area that you cannot see."}, /* off the map */
		{12, 10, "You must select an enemy to target."},            /* nobody there */
		{10, 10, self_msg},
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		assert_int_equal(game_target_check(g, slot, refused[i].x, refused[i].y, why, sizeof(why)), -1);
		assert_string_equal(why, refused[i].msg);
		struct command c = use_at(slot, refused[i].x, refused[i].y);
		assert_int_equal(game_do(g, &c), 0);
		assert_string_equal(gamefix_last_msg(g), refused[i].msg);
	}
	assert_int_equal(game_turn(g), 0);
	assert_int_equal(((struct c_ai *)ecs_get_mut(g->w, hidden, COMP_AI))->confused, 0);
	/* A corpse is not an enemy. */
	ecs_entity dead = gamefix_spawn_seen(g, ACTOR_GOBLIN, 12, 12);
	combat_kill(g, dead, ECS_NULL);
	assert_int_equal(game_target_check(g, slot, 12, 12, why, sizeof(why)), -1);
	assert_string_equal(why, "You must select an enemy to target.");
	game_destroy(g);
}

static void test_confusion(void **state)
{
	(void)state;
	check_monster_targeting(ITEM_CONFUSION_SCROLL, "You cannot confuse yourself!");
	struct game *g = arena();
	ecs_entity orc = gamefix_spawn_seen(g, ACTOR_ORC, 14, 10);
	int slot = give(g, ITEM_CONFUSION_SCROLL);
	struct command c = use_at(slot, 14, 10);
	assert_int_equal(game_do(g, &c), 1);
	assert_true(gamefix_has_msg(g, "The eyes of the orc look vacant, as it starts to stumble around!"));
	assert_true(items_in_slot(g, slot) == ECS_NULL);
	/* It took its first confused turn already. */
	const struct c_ai *ai = ecs_get(g->w, orc, COMP_AI);
	assert_int_equal(ai->confused, 9);
	char buf[40];
	const struct c_pos *p = ecs_get(g->w, orc, COMP_POS);
	assert_string_equal(game_describe(g, p->x, p->y, buf, sizeof(buf)), "confused orc");
	for (int i = 0; i < 9; i++)
		game_apply(g, CMD_WAIT);
	ai = ecs_get(g->w, orc, COMP_AI);
	assert_int_equal(ai->confused, 0);
	p = ecs_get(g->w, orc, COMP_POS);
	assert_string_equal(game_describe(g, p->x, p->y, buf, sizeof(buf)), "orc");
	game_destroy(g);
}

static void test_paralysis(void **state)
{
	(void)state;
	check_monster_targeting(ITEM_PARALYSIS_SCROLL, "You cannot paralyse yourself!");
	struct game *g = arena();
	ecs_entity orc = gamefix_spawn_seen(g, ACTOR_ORC, 11, 10); /* adjacent: would attack */
	int slot = give(g, ITEM_PARALYSIS_SCROLL);
	struct command c = use_at(slot, 11, 10);
	assert_int_equal(game_do(g, &c), 1);
	assert_string_equal(gamefix_last_msg(g), "The orc is paralysed and cannot move!");
	char buf[40];
	assert_string_equal(game_describe(g, 11, 10, buf, sizeof(buf)), "paralysed orc");
	/* 5 turns without acting (the one of the scroll included), then it attacks. */
	for (int i = 0; i < 4; i++)
		assert_int_equal(game_apply(g, CMD_WAIT), 1);
	assert_int_equal(hp_of(g, g->player), 30);
	assert_int_equal(((struct c_ai *)ecs_get_mut(g->w, orc, COMP_AI))->paralysed, 0);
	assert_string_equal(game_describe(g, 11, 10, buf, sizeof(buf)), "orc");
	game_apply(g, CMD_WAIT);
	assert_int_equal(hp_of(g, g->player), 29); /* 3 - 2 */
	game_destroy(g);
}

static void test_fireball(void **state)
{
	(void)state;
	struct game *g = arena();
	int slot = give(g, ITEM_FIREBALL_SCROLL);
	struct game_item_view v[INVENTORY_SLOTS];
	int n = game_inventory(g, v, INVENTORY_SLOTS);
	assert_int_equal(v[n - 1].target, TARGET_CELL);
	assert_int_equal(v[n - 1].radius, 3);
	char why[120];
	/* Out of view: refused. */
	assert_int_equal(game_target_check(g, slot, 30, 10, why, sizeof(why)), -1);
	assert_string_equal(why, "You cannot target an area that you cannot see.");
	struct command c = use_at(slot, 30, 10);
	assert_int_equal(game_do(g, &c), 0);
	/* Centre (13, 10): the orc at distance 0, the troll at (15, 12) at
	 * sqrt(8), the player at 3 are hit; the goblin at (16, 11) (sqrt(10)) not. */
	ecs_entity orc = gamefix_spawn_seen(g, ACTOR_ORC, 13, 10);
	ecs_entity troll = gamefix_spawn_seen(g, ACTOR_TROLL, 15, 12);
	ecs_entity gob = gamefix_spawn_seen(g, ACTOR_GOBLIN, 16, 11);
	c = use_at(slot, 13, 10);
	assert_int_equal(game_target_check(g, slot, 13, 10, why, sizeof(why)), 0);
	assert_int_equal(game_do(g, &c), 1);
	assert_true(gamefix_has_msg(g, "The fireball explodes, burning everything within 3 tiles!"));
	assert_true(gamefix_has_msg(g, "The orc is engulfed in a fiery explosion, taking 12 damage!"));
	assert_true(gamefix_has_msg(g, "The troll is engulfed in a fiery explosion, taking 12 damage!"));
	assert_true(gamefix_has_msg(g, "You are engulfed in the fiery explosion, taking 12 damage!"));
	assert_true(ecs_has(g->w, orc, COMP_CORPSE));
	assert_int_equal(hp_of(g, troll), 4);
	assert_int_equal(hp_of(g, gob), 6);
	assert_int_equal(hp_of(g, g->player), 18);
	assert_int_equal(game_kills(g, ACTOR_ORC), 1);
	assert_true(items_in_slot(g, slot) == ECS_NULL);
	game_destroy(g);
	/* A fireball at one's feet can kill: the cause of death says so. */
	g = arena();
	set_player_hp(g, 5);
	slot = give(g, ITEM_FIREBALL_SCROLL);
	c = use_at(slot, 10, 10);
	assert_string_equal(game_death_cause(g), "");
	assert_int_equal(game_do(g, &c), 1);
	assert_true(game_is_over(g));
	assert_string_equal(game_death_cause(g), "killed by your own fireball");
	game_destroy(g);
}

static void test_equipment(void **state)
{
	(void)state;
	struct game *g = arena();
	int sword = give(g, ITEM_SWORD);
	int mail = give(g, ITEM_CHAIN_MAIL);
	struct game_stats s;
	/* Equipping into a full slot swaps. */
	struct command c = use(sword);
	assert_int_equal(game_do(g, &c), 1);
	assert_true(gamefix_has_msg(g, "You remove the dagger."));
	assert_string_equal(gamefix_last_msg(g), "You equip the sword.");
	assert_false(items_equipped(g, items_in_slot(g, 0)));
	assert_true(items_equipped(g, items_in_slot(g, sword)));
	game_stats(g, &s);
	assert_int_equal(s.power, 6);
	assert_int_equal(s.base_power, 2);
	c = use(mail);
	assert_int_equal(game_do(g, &c), 1);
	game_stats(g, &s);
	assert_int_equal(s.defense, 4);
	/* Using it again takes it off. */
	c = use(sword);
	assert_int_equal(game_do(g, &c), 1);
	assert_string_equal(gamefix_last_msg(g), "You remove the sword.");
	game_stats(g, &s);
	assert_int_equal(s.power, 2);
	struct game_item_view v[INVENTORY_SLOTS];
	int n = game_inventory(g, v, INVENTORY_SLOTS);
	int equipped = 0;
	for (int i = 0; i < n; i++)
		equipped += v[i].equipped;
	assert_int_equal(equipped, 1); /* the chain mail */
	/* Combat uses the equipment: a troll (def 1) takes power 2 + 4 - 1. */
	c = use(sword);
	game_do(g, &c);
	ecs_entity troll = gamefix_spawn_seen(g, ACTOR_TROLL, 11, 10);
	assert_int_equal(game_apply(g, CMD_MOVE_E), 1);
	assert_int_equal(hp_of(g, troll), 11);
	/* and hits back for 4 - (1 + 3) = 0. */
	assert_int_equal(hp_of(g, g->player), 30);
	check_inventory(g);
	game_destroy(g);
}

static void test_level_up(void **state)
{
	(void)state;
	for (int choice = 0; choice < LEVELUP_COUNT; choice++) {
		struct game *g = arena();
		assert_false(game_levelup_pending(g));
		struct command c = level_up(choice);
		assert_int_equal(game_do(g, &c), 0); /* nothing pending: nothing happens */
		struct game_stats s0, s;
		game_stats(g, &s0);
		/* Kill for XP past 350: 340 plus a goblin's 20 (exactly 350: test_level_up_at_exact_threshold). */
		((struct c_player *)ecs_get_mut(g->w, g->player, COMP_PLAYER))->xp = 340;
		set_player_hp(g, 5);
		ecs_entity gob = gamefix_spawn_seen(g, ACTOR_GOBLIN, 11, 10);
		((struct c_actor *)ecs_get_mut(g->w, gob, COMP_ACTOR))->hp = 1;
		assert_int_equal(game_apply(g, CMD_MOVE_E), 1);
		assert_true(game_levelup_pending(g));
		assert_string_equal(gamefix_last_msg(g), "Your battle skills grow stronger! You reach level 2!");
		/* Every other command does nothing while it is pending. */
		uint64_t sum = game_checksum(g);
		int turn = game_turn(g);
		static const enum cmd others[] = {CMD_WAIT, CMD_MOVE_W, CMD_PICKUP, CMD_DESCEND};
		for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
			assert_int_equal(game_apply(g, others[i]), 0);
		struct command d = drop(0);
		assert_int_equal(game_do(g, &d), 0);
		struct command bad = level_up(LEVELUP_COUNT);
		assert_int_equal(game_do(g, &bad), 0);
		bad = level_up(-1);
		assert_int_equal(game_do(g, &bad), 0);
		assert_int_equal(game_turn(g), turn);
		assert_true(game_checksum(g) == sum);
		assert_true(game_levelup_pending(g));
		/* The choice costs no turn. */
		assert_int_equal(game_do(g, &c), 0);
		assert_false(game_levelup_pending(g));
		assert_int_equal(game_turn(g), turn);
		assert_string_equal(gamefix_last_msg(g), content_levelups[choice].msg);
		game_stats(g, &s);
		assert_int_equal(s.level, 2);
		assert_int_equal(s.xp, 10);
		assert_int_equal(s.xp_next, 500);
		assert_int_equal(s.max_hp, s0.max_hp + (choice == LEVELUP_HP ? 20 : 0));
		assert_int_equal(s.hp, choice == LEVELUP_HP ? 25 : 5);
		assert_int_equal(s.base_power, s0.base_power + (choice == LEVELUP_POWER));
		assert_int_equal(s.power, s0.power + (choice == LEVELUP_POWER));
		assert_int_equal(s.base_defense, s0.base_defense + (choice == LEVELUP_DEFENSE));
		assert_int_equal(s.defense, s0.defense + (choice == LEVELUP_DEFENSE));
		game_destroy(g);
	}
	/* Enough XP for two levels: two choices in a row; the heal is capped. */
	struct game *g = arena();
	((struct c_player *)ecs_get_mut(g->w, g->player, COMP_PLAYER))->xp = 900;
	assert_true(game_levelup_pending(g));
	struct command c = level_up(LEVELUP_HP);
	game_do(g, &c);
	assert_true(game_levelup_pending(g));
	assert_string_equal(gamefix_last_msg(g), "Your battle skills grow stronger! You reach level 3!");
	game_do(g, &c);
	assert_false(game_levelup_pending(g));
	struct game_stats s;
	game_stats(g, &s);
	assert_int_equal(s.level, 3);
	assert_int_equal(s.xp, 900 - 350 - 500);
	assert_int_equal(s.max_hp, 70);
	assert_int_equal(s.hp, 70);
	game_destroy(g);
}

/* The next level is reached when the XP is at least the threshold: exactly
 * 350 at level 1 and 500 at level 2 is enough, one less is not (a level-up
 * only above the threshold was seen by a golden file alone). */
static void test_level_up_at_exact_threshold(void **state)
{
	(void)state;
	for (int before = 329; before <= 330; before++) {
		struct game *g = arena();
		((struct c_player *)ecs_get_mut(g->w, g->player, COMP_PLAYER))->xp = before;
		ecs_entity gob = gamefix_spawn_seen(g, ACTOR_GOBLIN, 11, 10);
		((struct c_actor *)ecs_get_mut(g->w, gob, COMP_ACTOR))->hp = 1;
		assert_int_equal(game_apply(g, CMD_MOVE_E), 1);
		assert_true(gamefix_has_msg(g, "You gain 20 experience points."));
		struct game_stats s;
		game_stats(g, &s);
		assert_int_equal(s.xp, before + 20);
		assert_int_equal(game_levelup_pending(g), before + 20 == 350);
		assert_int_equal(gamefix_has_msg(g, "Your battle skills grow stronger! You reach level 2!"),
				 before + 20 == 350);
		game_destroy(g);
	}
	struct game *g = arena();
	struct c_player *pl = ecs_get_mut(g->w, g->player, COMP_PLAYER);
	pl->xp = 349;
	assert_false(game_levelup_pending(g));
	pl->xp = 350;
	assert_true(game_levelup_pending(g));
	struct command c = level_up(LEVELUP_POWER);
	assert_int_equal(game_do(g, &c), 0);
	struct game_stats s;
	game_stats(g, &s);
	assert_int_equal(s.level, 2);
	assert_int_equal(s.xp, 0);
	assert_false(game_levelup_pending(g));
	pl->xp = 499;
	assert_false(game_levelup_pending(g));
	pl->xp = 500;
	assert_true(game_levelup_pending(g));
	game_destroy(g);
}

static void test_history(void **state)
{
	(void)state;
	struct game *g = arena();
	assert_int_equal(hist_count(game_history(g)), 0);
	game_apply(g, CMD_WAIT);
	struct command c = {.c = CMD_USE, .item = 0, .x = 3, .y = 4, .choice = 7};
	game_do(g, &c);
	c = (struct command){.c = CMD_DROP, .item = 5, .x = 3, .y = 4, .choice = 7};
	game_do(g, &c);
	c = (struct command){.c = CMD_MOVE_N, .item = 5, .x = 3, .y = 4, .choice = 7};
	game_do(g, &c);
	c = (struct command){.c = CMD_LEVEL_UP, .item = 5, .x = 3, .y = 4, .choice = 2};
	game_do(g, &c);
	game_apply(g, CMD_NONE);
	assert_int_equal(game_do(g, NULL), 0);
	int n;
	struct command *h = gamefix_history(g, &n);
	assert_int_equal(n, 6);
	struct command want[] = {
		{CMD_WAIT, -1, -1, -1, -1},   {CMD_USE, 0, 3, 4, -1},       {CMD_DROP, 5, -1, -1, -1},
		{CMD_MOVE_N, -1, -1, -1, -1}, {CMD_LEVEL_UP, -1, -1, -1, 2}, {CMD_NONE, -1, -1, -1, -1},
	};
	for (int i = 0; i < 6; i++) {
		assert_int_equal(h[i].c, want[i].c);
		assert_int_equal(h[i].item, want[i].item);
		assert_int_equal(h[i].x, want[i].x);
		assert_int_equal(h[i].y, want[i].y);
		assert_int_equal(h[i].choice, want[i].choice);
	}
	/* Replaying the history from the seed gives the same game. */
	struct game *r = gamefix_room(7);
	gamefix_enter(r, 10, 10);
	for (int i = 0; i < 6; i++)
		game_do(r, &h[i]);
	assert_true(game_checksum(r) == game_checksum(g));
	free(h);
	game_destroy(r);
	game_destroy(g);
}

static void test_death_cause_and_kills(void **state)
{
	(void)state;
	struct game *g = arena();
	assert_int_equal(game_kills(g, ACTOR_ORC), 0);
	assert_int_equal(game_kills(g, -1), 0);
	assert_int_equal(game_kills(g, ACTOR_COUNT), 0);
	/* A kill by another monster is not the player's. */
	ecs_entity gob = gamefix_spawn_seen(g, ACTOR_GOBLIN, 20, 10);
	ecs_entity orc = gamefix_spawn_seen(g, ACTOR_ORC, 21, 10);
	combat_kill(g, gob, orc);
	assert_int_equal(game_kills(g, ACTOR_GOBLIN), 0);
	combat_kill(g, orc, g->player);
	assert_int_equal(game_kills(g, ACTOR_ORC), 1);
	set_player_hp(g, 1);
	gamefix_spawn_seen(g, ACTOR_ORC, 11, 10);
	game_apply(g, CMD_WAIT);
	assert_true(game_is_over(g));
	assert_string_equal(game_death_cause(g), "killed by an orc");
	game_destroy(g);
}

static void test_nearest_monster(void **state)
{
	(void)state;
	struct game *g = arena();
	int x = 99, y = 98;
	assert_int_equal(game_nearest_monster(g, &x, &y), -1);
	assert_int_equal(x, 99);
	assert_int_equal(y, 98);
	for (int yy = 1; yy <= 20; yy++)
		map_set(world_floor(g, 1), 12, yy, TILE_WALL);
	gamefix_spawn_seen(g, ACTOR_ORC, 13, 10); /* nearest, but behind the wall */
	assert_int_equal(game_nearest_monster(g, &x, &y), -1);
	gamefix_spawn_seen(g, ACTOR_TROLL, 4, 4);
	gamefix_spawn_seen(g, ACTOR_GOBLIN, 7, 12);
	ecs_entity dead = gamefix_spawn_seen(g, ACTOR_GOBLIN, 9, 10);
	combat_kill(g, dead, ECS_NULL);
	assert_int_equal(game_nearest_monster(g, &x, &y), 0);
	assert_int_equal(x, 7); /* 9 + 4 = 13 < 36 + 36 */
	assert_int_equal(y, 12);
	game_destroy(g);
}

static void test_describe_items(void **state)
{
	(void)state;
	struct game *g = arena();
	gamefix_item(g, ITEM_HEALTH_POTION, 12, 10);
	ecs_entity orc = gamefix_spawn_seen(g, ACTOR_ORC, 12, 10);
	char buf[64];
	/* Drawn under the actor, named after it. */
	assert_string_equal(game_describe(g, 12, 10, buf, sizeof(buf)), "orc, health potion");
	struct drawable d[8];
	int n = game_drawables(g, d, 8);
	assert_int_equal(n, 3);
	assert_int_equal(d[0].glyph, '!');
	assert_int_equal(d[0].order, GAME_ORDER_ITEM);
	assert_int_equal(d[1].glyph, 'o');
	(void)orc;
	game_destroy(g);
}

/* GAME.md §5 by statistics: 120 games of 8 floors (fixed seeds, every map
 * generator, so the counts are always the same); each kind's share of the
 * monsters and items placed must be within 4 standard deviations of its
 * weight's share (a correct table passes for nearly every seed, a wrong one
 * fails), and kinds of weight 0 never appear. */
static void check_share(int count, int total, int weight, int wsum)
{
	if (weight == 0) {
		assert_int_equal(count, 0);
		return;
	}
	/* |count - total * p| <= 4 sqrt(total p (1 - p)), in integers squared. */
	int64_t dev = (int64_t)count * wsum - (int64_t)total * weight; /* wsum * (count - total p) */
	int64_t var = (int64_t)total * weight * (wsum - weight);       /* wsum^2 * total p (1 - p) */
	if (dev * dev > 16 * var)
		print_error("count %d of %d for weight %d/%d\n", count, total, weight, wsum);
	assert_true(dev * dev <= 16 * var);
}

static void test_spawn_frequencies(void **state)
{
	(void)state;
	enum { DEPTHS = 8, GAMES = 120 };
	static int mon[DEPTHS + 1][ACTOR_COUNT], item[DEPTHS + 1][ITEM_COUNT], rooms[DEPTHS + 1];
	for (uint64_t seed = 1; seed <= GAMES; seed++) {
		struct game *g;
		assert_int_equal(world_create(&g, seed * 7717, (enum mapgen_kind)(seed % MAPGEN_COUNT)), 0);
		for (int d = 1; d <= DEPTHS; d++) {
			assert_int_equal(world_generate_floor(g, d), 0);
			rooms[d] += world_floor(g, d)->nrooms;
		}
		struct ecs_query q;
		ecs_query_init(&q, g->w, ECS_BIT(COMP_POS));
		for (ecs_entity e; ecs_query_next(&q, &e);) {
			const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
			const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
			const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
			if (a)
				mon[p->floor][a->kind]++;
			else if (it)
				item[p->floor][it->kind]++;
		}
		world_destroy(g);
	}
	for (int d = 1; d <= DEPTHS; d++) {
		int nmon = 0, nitem = 0, wsum = 0;
		for (int k = 0; k < ACTOR_COUNT; k++) {
			nmon += mon[d][k];
			wsum += content_floor_value(&content_monster_weight[k], d);
		}
		for (int k = 0; k < ACTOR_COUNT; k++)
			check_share(mon[d][k], nmon, content_floor_value(&content_monster_weight[k], d), wsum);
		wsum = 0;
		for (int k = 0; k < ITEM_COUNT; k++) {
			nitem += item[d][k];
			wsum += content_floor_value(&content_items[k].weight, d);
		}
		for (int k = 0; k < ITEM_COUNT; k++)
			check_share(item[d][k], nitem, content_floor_value(&content_items[k].weight, d), wsum);
		/* Counts per room: randint(0, max) drawn (mean max / 2), a few
		 * dropped on taken cells: between a third and 0.55 of max. */
		int maxm = content_floor_value(&content_max_monsters_per_room, d);
		int maxi = content_floor_value(&content_max_items_per_room, d);
		print_message("floor %d: %d monsters, %d items in %d rooms\n", d, nmon, nitem, rooms[d]);
		assert_true(20 * nmon <= 11 * rooms[d] * maxm && 3 * nmon >= rooms[d] * maxm);
		assert_true(20 * nitem <= 11 * rooms[d] * maxi && 3 * nitem >= rooms[d] * maxi);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_start_equipment),
		cmocka_unit_test(test_pickup),
		cmocka_unit_test(test_inventory_full),
		cmocka_unit_test(test_drop),
		cmocka_unit_test(test_stacks),
		cmocka_unit_test(test_pickup_merges),
		cmocka_unit_test(test_drop_one_or_all),
		cmocka_unit_test(test_stacks_from),
		cmocka_unit_test(test_health_potion),
		cmocka_unit_test(test_lightning),
		cmocka_unit_test(test_lightning_at_exactly_range),
		cmocka_unit_test(test_level_up_at_exact_threshold),
		cmocka_unit_test(test_confusion),
		cmocka_unit_test(test_paralysis),
		cmocka_unit_test(test_fireball),
		cmocka_unit_test(test_equipment),
		cmocka_unit_test(test_level_up),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_death_cause_and_kills),
		cmocka_unit_test(test_nearest_monster),
		cmocka_unit_test(test_describe_items),
		cmocka_unit_test(test_spawn_frequencies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
