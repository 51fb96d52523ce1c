/* Tests of melee: damage, exact messages, corpses, experience, the player's death. */
#include "gamefix.h"

#include <string.h>

#include "game/combat.h"

/* A game on a walled 40x20 open room with no monsters; player at (5,5). */
static struct game *arena(void)
{
	struct game *g = gamefix_room(42);
	gamefix_enter(g, 5, 5);
	return g;
}


static void test_player_stats(void **state)
{
	(void)state;
	struct game *g = arena();
	struct game_stats s;
	game_stats(g, &s);
	assert_int_equal(s.hp, 30);
	assert_int_equal(s.max_hp, 30);
	assert_int_equal(s.power, 4);   /* 2 + dagger */
	assert_int_equal(s.defense, 2); /* 1 + leather armour */
	assert_int_equal(s.level, 1);
	assert_int_equal(s.xp, 0);
	assert_int_equal(s.xp_next, 350); /* 200 + 1 * 150 */
	assert_int_equal(s.depth, 1);
	assert_int_equal(s.turn, 0);
	game_destroy(g);
}

static void test_table_stats(void **state)
{
	(void)state;
	struct game *g = arena();
	static const struct {
		enum actor_kind k;
		int hp, def, pow, xp;
		uint32_t glyph, fg;
	} want[] = {
		{ACTOR_GOBLIN, 6, 0, 2, 20, 'g', 0x00C000},
		{ACTOR_ORC, 10, 0, 3, 35, 'o', 0x3F7F3F},
		{ACTOR_TROLL, 16, 1, 4, 100, 'T', 0x007F00},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ecs_entity e = gamefix_spawn_seen(g, want[i].k, 10 + (int)i, 10);
		const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
		assert_int_equal(a->hp, want[i].hp);
		assert_int_equal(a->max_hp, want[i].hp);
		assert_int_equal(combat_defense(g, e), want[i].def);
		assert_int_equal(combat_power(g, e), want[i].pow);
		int pw, df;
		combat_power_defense(g, e, &pw, &df);
		assert_int_equal(pw, want[i].pow);
		assert_int_equal(df, want[i].def);
		assert_int_equal(((const struct c_xp *)ecs_get(g->w, e, COMP_XP))->value, want[i].xp);
		const struct c_render *r = ecs_get(g->w, e, COMP_RENDER);
		assert_int_equal(r->glyph, want[i].glyph);
		assert_int_equal(r->fg, want[i].fg);
		assert_true(ecs_has(g->w, e, COMP_BLOCKS));
	}
	/* the player's, with his starting equipment, and game_stats' */
	int pw, df;
	combat_power_defense(g, g->player, &pw, &df);
	assert_int_equal(pw, combat_power(g, g->player));
	assert_int_equal(df, combat_defense(g, g->player));
	struct game_stats st;
	game_stats(g, &st);
	assert_int_equal(st.power, pw);
	assert_int_equal(st.defense, df);
	assert_int_equal(st.xp_next, combat_xp_next(g));
	/* the log's number moves with each write, a repeat's too */
	uint32_t seq = game_msg_seq(g);
	world_msg(g, GAME_MSG_DEFAULT, "A test.");
	assert_true(game_msg_seq(g) != seq);
	seq = game_msg_seq(g);
	world_msg(g, GAME_MSG_DEFAULT, "A test.");
	assert_true(game_msg_seq(g) != seq);
	assert_int_equal(game_msg_get(g, game_msg_count(g) - 1)->count, 2);
	game_destroy(g);
}

static void test_player_hits(void **state)
{
	(void)state;
	struct game *g = arena();
	ecs_entity orc = gamefix_spawn_seen(g, ACTOR_ORC, 6, 5);
	ecs_entity troll = gamefix_spawn_seen(g, ACTOR_TROLL, 4, 4);
	assert_int_equal(combat_attack(g, g->player, orc), 4);
	assert_string_equal(gamefix_last_msg(g), "You attack the orc for 4 hit points.");
	assert_int_equal(((const struct c_actor *)ecs_get(g->w, orc, COMP_ACTOR))->hp, 6);
	assert_int_equal(combat_attack(g, g->player, troll), 3);
	assert_string_equal(gamefix_last_msg(g), "You attack the troll for 3 hit points.");
	/* No damage. */
	((struct c_actor *)ecs_get_mut(g->w, troll, COMP_ACTOR))->defense = 9;
	assert_int_equal(combat_attack(g, g->player, troll), 0);
	assert_string_equal(gamefix_last_msg(g), "You attack the troll but do no damage.");
	assert_int_equal(((const struct c_actor *)ecs_get(g->w, troll, COMP_ACTOR))->hp, 13);
	game_destroy(g);
}

static void test_monster_hits(void **state)
{
	(void)state;
	struct game *g = arena();
	ecs_entity orc = gamefix_spawn_seen(g, ACTOR_ORC, 6, 5);
	ecs_entity gob = gamefix_spawn_seen(g, ACTOR_GOBLIN, 6, 6);
	ecs_entity troll = gamefix_spawn_seen(g, ACTOR_TROLL, 4, 5);
	assert_int_equal(combat_attack(g, orc, g->player), 1);
	assert_string_equal(gamefix_last_msg(g), "Orc attacks you for 1 hit point.");
	assert_int_equal(combat_attack(g, troll, g->player), 2);
	assert_string_equal(gamefix_last_msg(g), "Troll attacks you for 2 hit points.");
	assert_int_equal(combat_attack(g, gob, g->player), 0);
	assert_string_equal(gamefix_last_msg(g), "Goblin attacks you but does no damage.");
	struct game_stats s;
	game_stats(g, &s);
	assert_int_equal(s.hp, 27);
	/* Monster on monster, in view. */
	assert_int_equal(combat_attack(g, troll, orc), 4);
	assert_string_equal(gamefix_last_msg(g), "Troll attacks the orc for 4 hit points.");
	game_destroy(g);
}

static void test_kill_corpse_xp(void **state)
{
	(void)state;
	struct game *g = arena();
	ecs_entity orc = gamefix_spawn_seen(g, ACTOR_ORC, 6, 5);
	combat_attack(g, g->player, orc);
	combat_attack(g, g->player, orc);
	assert_true(ecs_has(g->w, orc, COMP_ACTOR));
	assert_int_equal(combat_attack(g, g->player, orc), 4);
	assert_true(gamefix_has_msg(g, "You attack the orc for 4 hit points."));
	assert_true(gamefix_has_msg(g, "Orc is dead!"));
	assert_string_equal(gamefix_last_msg(g), "You gain 35 experience points.");
	/* The corpse: same entity, no longer an actor, blocker or mind. */
	assert_true(ecs_alive(g->w, orc));
	assert_false(ecs_has(g->w, orc, COMP_BLOCKS));
	assert_false(ecs_has(g->w, orc, COMP_AI));
	assert_false(ecs_has(g->w, orc, COMP_ACTOR));
	assert_true(ecs_has(g->w, orc, COMP_CORPSE));
	assert_string_equal(world_name(g, orc), "remains of orc");
	const struct c_render *r = ecs_get(g->w, orc, COMP_RENDER);
	assert_int_equal(r->glyph, '%');
	assert_int_equal(r->order, GAME_ORDER_CORPSE);
	assert_true(world_blocker_at(g, 1, 6, 5) == ECS_NULL);
	struct game_stats s;
	game_stats(g, &s);
	assert_int_equal(s.xp, 35);
	assert_int_equal(s.level, 1); /* no level-ups yet */
	/* The cell is walkable now: the player steps onto the corpse. */
	assert_int_equal(game_apply(g, CMD_MOVE_E), 1);
	int x, y;
	game_player_pos(g, &x, &y);
	assert_int_equal(x, 6);
	assert_int_equal(y, 5);
	char buf[64];
	assert_string_equal(game_describe(g, 6, 5, buf, sizeof(buf)), "you, remains of orc");
	/* Corpses under the player are drawn below him. */
	struct drawable d[8];
	int n = game_drawables(g, d, 8);
	assert_int_equal(n, 2);
	assert_int_equal(d[0].glyph, '%');
	assert_int_equal(d[1].glyph, '@');
	game_destroy(g);
}

static void test_monster_kill_gives_no_xp(void **state)
{
	(void)state;
	struct game *g = arena();
	ecs_entity troll = gamefix_spawn_seen(g, ACTOR_TROLL, 8, 8);
	ecs_entity gob = gamefix_spawn_seen(g, ACTOR_GOBLIN, 9, 8);
	combat_attack(g, troll, gob);
	combat_attack(g, troll, gob);
	assert_true(ecs_has(g->w, gob, COMP_CORPSE));
	assert_string_equal(gamefix_last_msg(g), "Goblin is dead!");
	struct game_stats s;
	game_stats(g, &s);
	assert_int_equal(s.xp, 0);
	game_destroy(g);
}

static void test_player_death(void **state)
{
	(void)state;
	struct game *g = arena();
	ecs_entity troll = gamefix_spawn_seen(g, ACTOR_TROLL, 6, 5);
	((struct c_actor *)ecs_get_mut(g->w, g->player, COMP_ACTOR))->hp = 2;
	assert_false(game_is_over(g));
	assert_int_equal(combat_attack(g, troll, g->player), 2);
	assert_true(game_is_over(g));
	assert_string_equal(gamefix_last_msg(g), "You died!");
	struct game_stats s;
	game_stats(g, &s);
	assert_int_equal(s.hp, 0);
	/* Game over: nothing costs a turn any more. */
	int turn = game_turn(g);
	assert_int_equal(game_apply(g, CMD_WAIT), 0);
	assert_int_equal(game_apply(g, CMD_MOVE_W), 0);
	assert_int_equal(game_turn(g), turn);
	/* The player is drawn as a corpse. */
	struct drawable d[8];
	int n = game_drawables(g, d, 8);
	bool found = false;
	for (int i = 0; i < n; i++)
		if (d[i].x == 5 && d[i].y == 5 && d[i].glyph == '%')
			found = true;
	assert_true(found);
	game_destroy(g);
}

static void test_bump_attack_via_apply(void **state)
{
	(void)state;
	struct game *g = arena();
	ecs_entity gob = gamefix_spawn_seen(g, ACTOR_GOBLIN, 5, 4);
	assert_int_equal(game_apply(g, CMD_MOVE_N), 1);
	assert_true(gamefix_has_msg(g, "You attack the goblin for 4 hit points."));
	/* The goblin (2 power vs 2 defence) strikes back for nothing. */
	assert_string_equal(gamefix_last_msg(g), "Goblin attacks you but does no damage.");
	assert_int_equal(game_apply(g, CMD_MOVE_N), 1);
	assert_true(ecs_has(g->w, gob, COMP_CORPSE));
	int x, y;
	game_player_pos(g, &x, &y);
	assert_int_equal(x, 5); /* attacking does not move */
	assert_int_equal(y, 5);
	game_destroy(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_player_stats),
		cmocka_unit_test(test_table_stats),
		cmocka_unit_test(test_player_hits),
		cmocka_unit_test(test_monster_hits),
		cmocka_unit_test(test_kill_corpse_xp),
		cmocka_unit_test(test_monster_kill_gives_no_xp),
		cmocka_unit_test(test_player_death),
		cmocka_unit_test(test_bump_attack_via_apply),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
