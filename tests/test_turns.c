/* Tests of the turn machine: which commands cost a turn, who acts, the log. */
#include "gamefix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/combat.h"

#define UI_TEST_DRAWABLES 512

/* A game on a walled 40x20 open room with no monsters; player at (5,5);
 * down stairs at (38,18). */
static struct game *arena(void)
{
	struct game *g = gamefix_room(7);
	gamefix_down_stairs(g, 38, 18);
	gamefix_enter(g, 5, 5);
	return g;
}

static int hp_of(struct game *g, ecs_entity e)
{
	const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
	return a ? a->hp : -1;
}

static void test_cmd_names(void **state)
{
	(void)state;
	static const char *const want[CMD_COUNT] = {"none", "move_n", "move_ne", "move_e", "move_se",
						    "move_s", "move_sw", "move_w", "move_nw", "wait",
						    "pickup", "descend", "ascend", "use", "drop",
						    "levelup"};
	for (int c = 0; c < CMD_COUNT; c++) {
		assert_string_equal(cmd_name((enum cmd)c), want[c]);
		enum cmd back = CMD_COUNT;
		assert_int_equal(cmd_parse(want[c], &back), 0);
		assert_int_equal(back, c);
	}
	enum cmd keep = CMD_WAIT;
	assert_int_equal(cmd_parse("Wait", &keep), -EINVAL);
	assert_int_equal(cmd_parse("", &keep), -EINVAL);
	assert_int_equal(cmd_parse(NULL, &keep), -EINVAL);
	assert_int_equal(keep, CMD_WAIT);
	assert_string_equal(cmd_name(CMD_COUNT), "?");
	assert_string_equal(cmd_name((enum cmd)-1), "?");
}

static void test_what_costs_a_turn(void **state)
{
	(void)state;
	struct game *g = arena();
	uint64_t sum = game_checksum(g);
	/* Free: nothing, unknown values, pick up with nothing there, stairs
	 * where there are none. */
	assert_int_equal(game_apply(g, CMD_NONE), 0);
	assert_int_equal(game_apply(g, CMD_COUNT), 0);
	assert_int_equal(game_apply(g, (enum cmd)-3), 0);
	assert_int_equal(game_apply(g, (enum cmd)1000), 0);
	assert_int_equal(game_checksum(g), sum); /* really nothing happened */
	assert_int_equal(game_apply(g, CMD_PICKUP), 0);
	assert_int_equal(game_apply(g, CMD_DESCEND), 0);
	assert_int_equal(game_apply(g, CMD_ASCEND), 0);
	assert_int_equal(game_turn(g), 0);
	/* Bumping a wall: free, the player stays. */
	world_put_player(g, 1, 1, 1);
	world_refresh_view(g);
	assert_int_equal(game_apply(g, CMD_MOVE_N), 0);
	assert_int_equal(game_apply(g, CMD_MOVE_W), 0);
	assert_int_equal(game_apply(g, CMD_MOVE_NW), 0);
	assert_int_equal(game_apply(g, CMD_MOVE_NE), 0);
	assert_int_equal(game_apply(g, CMD_MOVE_SW), 0);
	assert_int_equal(game_turn(g), 0);
	int x, y;
	game_player_pos(g, &x, &y);
	assert_int_equal(x, 1);
	assert_int_equal(y, 1);
	/* Costs a turn: moving, waiting, attacking, stairs. */
	assert_int_equal(game_apply(g, CMD_MOVE_SE), 1);
	game_player_pos(g, &x, &y);
	assert_int_equal(x, 2);
	assert_int_equal(y, 2);
	assert_int_equal(game_apply(g, CMD_WAIT), 1);
	gamefix_spawn(g, ACTOR_TROLL, 3, 2);
	assert_int_equal(game_apply(g, CMD_MOVE_E), 1);
	assert_int_equal(game_turn(g), 3);
	world_clear_monsters(g, 1);
	world_put_player(g, 1, 38, 18);
	assert_int_equal(game_apply(g, CMD_DESCEND), 1);
	assert_int_equal(game_depth(g), 2);
	assert_int_equal(game_turn(g), 4);
	game_destroy(g);
}

static void test_dead_never_act(void **state)
{
	(void)state;
	struct game *g = arena();
	ecs_entity orc = gamefix_spawn(g, ACTOR_ORC, 6, 5);
	((struct c_actor *)ecs_get_mut(g->w, orc, COMP_ACTOR))->hp = 4;
	world_refresh_view(g);
	int n0 = game_msg_count(g);
	assert_int_equal(game_apply(g, CMD_MOVE_E), 1);
	assert_true(ecs_has(g->w, orc, COMP_CORPSE));
	for (int i = n0; i < game_msg_count(g); i++)
		assert_null(strstr(game_msg_get(g, i)->text, "attacks you"));
	assert_int_equal(hp_of(g, g->player), 30);
	/* Nor later. */
	for (int i = 0; i < 5; i++)
		assert_int_equal(game_apply(g, CMD_WAIT), 1);
	assert_int_equal(hp_of(g, g->player), 30);
	const struct c_pos *p = ecs_get(g->w, orc, COMP_POS);
	assert_int_equal(p->x, 6);
	assert_int_equal(p->y, 5);
	game_destroy(g);
}

static void test_nothing_acts_twice(void **state)
{
	(void)state;
	struct game *g = arena();
	/* Four orcs adjacent: each hits once per turn for 1. */
	gamefix_spawn(g, ACTOR_ORC, 4, 4);
	gamefix_spawn(g, ACTOR_ORC, 6, 4);
	gamefix_spawn(g, ACTOR_ORC, 4, 6);
	gamefix_spawn(g, ACTOR_ORC, 6, 6);
	world_refresh_view(g);
	assert_int_equal(game_apply(g, CMD_WAIT), 1);
	assert_int_equal(hp_of(g, g->player), 26);
	const struct game_msg *m = game_msg_get(g, game_msg_count(g) - 1);
	assert_string_equal(m->text, "Orc attacks you for 1 hit point.");
	assert_int_equal(m->count, 4);
	assert_int_equal(game_apply(g, CMD_WAIT), 1);
	assert_int_equal(hp_of(g, g->player), 22);
	assert_int_equal(m->count, 8); /* still the same stacked line */
	game_destroy(g);
}

static void test_monsters_move_at_most_once(void **state)
{
	(void)state;
	struct game *g = arena();
	enum { N = 12 };
	ecs_entity e[N];
	for (int i = 0; i < N; i++)
		e[i] = gamefix_spawn(g, i % 3 ? ACTOR_ORC : ACTOR_GOBLIN, 8 + (i % 4) * 2, 2 + (i / 4) * 3);
	world_refresh_view(g);
	for (int t = 0; t < 15; t++) {
		int ox[N], oy[N];
		for (int i = 0; i < N; i++) {
			const struct c_pos *p = ecs_get(g->w, e[i], COMP_POS);
			ox[i] = p->x;
			oy[i] = p->y;
		}
		int hp = hp_of(g, g->player);
		int seen_attackers = 0;
		for (int i = 0; i < N; i++) {
			const struct c_pos *p = ecs_get(g->w, e[i], COMP_POS);
			if (abs(p->x - 5) <= 1 && abs(p->y - 5) <= 1)
				seen_attackers++;
		}
		assert_int_equal(game_apply(g, CMD_WAIT), 1);
		for (int i = 0; i < N; i++) {
			const struct c_pos *p = ecs_get(g->w, e[i], COMP_POS);
			assert_true(abs(p->x - ox[i]) <= 1 && abs(p->y - oy[i]) <= 1);
		}
		/* Orcs deal 1, goblins 0: at most one blow per adjacent monster. */
		assert_true(hp_of(g, g->player) >= hp - seen_attackers);
		if (game_is_over(g))
			break;
	}
	game_destroy(g);
}

static void test_message_stacking(void **state)
{
	(void)state;
	struct game *g = arena();
	int n0 = game_msg_count(g);
	world_msg(g, GAME_MSG_DEFAULT, "Alpha.");
	world_msg(g, GAME_MSG_DEFAULT, "Alpha.");
	world_msg(g, GAME_MSG_DEFAULT, "Alpha.");
	assert_int_equal(game_msg_count(g), n0 + 1);
	const struct game_msg *m = game_msg_get(g, n0);
	assert_int_equal(m->count, 3);
	char buf[128];
	assert_string_equal(game_msg_format(m, buf, sizeof(buf)), "Alpha. (x3)");
	world_msg(g, GAME_MSG_DEFAULT, "Beta.");
	world_msg(g, GAME_MSG_DEFAULT, "Alpha.");
	assert_int_equal(game_msg_count(g), n0 + 3);
	assert_string_equal(game_msg_format(game_msg_get(g, n0 + 2), buf, sizeof(buf)), "Alpha.");
	/* Same text, other colour: not the same message. */
	world_msg(g, GAME_MSG_IMPOSSIBLE, "Alpha.");
	assert_int_equal(game_msg_count(g), n0 + 4);
	assert_null(game_msg_get(g, -1));
	assert_null(game_msg_get(g, game_msg_count(g)));
	/* Truncated formatting stays terminated. */
	assert_string_equal(game_msg_format(m, buf, 5), "Alph");
	/* The wall bump message stacks too. */
	world_put_player(g, 1, 1, 1);
	game_apply(g, CMD_MOVE_N);
	game_apply(g, CMD_MOVE_N);
	assert_string_equal(game_msg_format(game_msg_get(g, game_msg_count(g) - 1), buf, sizeof(buf)),
			    "That way is blocked. (x2)");
	game_destroy(g);
}

static void test_log_bounded(void **state)
{
	(void)state;
	struct game *g = arena();
	for (int i = 0; i < GAME_LOG_MAX + 100; i++)
		world_msg(g, GAME_MSG_DEFAULT, "Message %d.", i);
	assert_int_equal(game_msg_count(g), GAME_LOG_MAX);
	assert_string_equal(game_msg_get(g, GAME_LOG_MAX - 1)->text, "Message 611.");
	assert_string_equal(game_msg_get(g, 0)->text, "Message 100.");
	game_destroy(g);
}

static void test_welcome_and_create_errors(void **state)
{
	(void)state;
	struct game *g;
	struct game_opts o = {.seed = 1, .mapgen = MAPGEN_COUNT};
	assert_int_equal(game_create(&g, &o), -EINVAL);
	o.mapgen = MAPGEN_OVERLAP;
	assert_int_equal(game_create(&g, &o), 0);
	assert_int_equal(game_msg_count(g), 1);
	assert_int_equal(game_turn(g), 0);
	assert_int_equal(game_depth(g), 1);
	assert_true(game_seed(g) == 1);
	assert_false(game_is_over(g));
	const struct map *m = game_map(g);
	int x, y;
	game_player_pos(g, &x, &y);
	assert_true(map_walkable(m, x, y));
	assert_true(m->visible[y * m->w + x]);
	assert_true(m->explored[y * m->w + x]);
	game_destroy(g);
	game_destroy(NULL);
}

/* Several items first seen on the same turn: the turn's new item (what
 * auto-explore stops for) is the first of them in the order a query of
 * positions and memories visits them, however the floor's entities are
 * walked to find them. */
static void test_first_new_item_in_query_order(void **state)
{
	(void)state;
	struct game *g = arena();
	ecs_entity e[6];
	for (int i = 0; i < 6; i++)
		e[i] = gamefix_item(g, ITEM_HEALTH_POTION, 30 + i % 3, 4 + i / 3); /* out of view */
	assert_int_equal(ecs_destroy(g->w, e[1]), 0); /* the pools' order is no longer the order made */
	world_refresh_view(g);
	assert_true(g->events.new_item == ECS_NULL);
	ecs_entity want = ECS_NULL;
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_POS) | ECS_BIT(COMP_MEMORY));
	for (ecs_entity it; want == ECS_NULL && ecs_query_next(&q, &it);)
		for (int i = 0; i < 6; i++)
			if (i != 1 && it == e[i])
				want = it;
	assert_true(want != ECS_NULL && want != e[0]); /* not simply the first made */
	world_put_player(g, 1, 28, 5);
	world_refresh_view(g);
	for (int i = 0; i < 6; i++)
		if (i != 1)
			assert_true(((const struct c_item *)ecs_get(g->w, e[i], COMP_ITEM))->seen);
	assert_true(g->events.new_item == want);
	game_destroy(g);
}

/* What the player remembers is updated by walking the floor's corpses and
 * items only when something is to be remembered anew: an item first coming
 * into view, a corpse, a pick-up; not on a turn where nothing new is seen
 * (it used to walk them all twice a turn). With few items unseen (the
 * cells to look at named one by one) and with many (the view's box
 * scanned). */
static void memory_walks_on_change(int unseen)
{
	struct game *g = arena();
	ecs_entity far = gamefix_item(g, ITEM_HEALTH_POTION, 30, 5); /* out of view */
	ecs_entity near = gamefix_item(g, ITEM_HEALTH_POTION, 8, 5);
	for (int i = 0; i < unseen; i++) /* rows 16 .. 20: never in view below */
		(void)gamefix_item(g, ITEM_HEALTH_POTION, 1 + i % 35, 16 + i / 35);
	assert_int_equal(game_apply(g, CMD_WAIT), 1); /* new items: a walk */
	/* the cells to look at named one by one, or too many: the view's box scanned */
	assert_true(unseen > WORLD_MEMO_AT ? g->memo.nat > WORLD_MEMO_AT : g->memo.nat <= WORLD_MEMO_AT);
	const struct c_item *fi = ecs_get(g->w, far, COMP_ITEM), *ni = ecs_get(g->w, near, COMP_ITEM);
	assert_true(ni->seen);
	assert_false(fi->seen);
	int walks = g->memo.walks;
	for (int t = 0; t < 5; t++)
		assert_int_equal(game_apply(g, CMD_WAIT), 1);
	assert_int_equal(g->memo.walks, walks); /* nothing new */
	/* east until the far one comes into view (radius 8): one walk, the
	 * turn it does, and it is the new item of that turn */
	int turns = 0;
	while (!fi->seen) {
		assert_true(turns++ < 20);
		int before = g->memo.walks;
		assert_int_equal(game_apply(g, CMD_MOVE_E), 1);
		fi = ecs_get(g->w, far, COMP_ITEM);
		assert_int_equal(g->memo.walks, before + (fi->seen ? 1 : 0));
	}
	assert_true(g->events.new_item == far);
	walks = g->memo.walks;
	assert_int_equal(game_apply(g, CMD_MOVE_W), 1);
	assert_int_equal(game_apply(g, CMD_MOVE_E), 1);
	assert_int_equal(g->memo.walks, walks);
	/* a monster killed in view leaves a corpse: a walk, remembered */
	int px, py;
	game_player_pos(g, &px, &py);
	ecs_entity orc = gamefix_spawn_seen(g, ACTOR_ORC, px + 1, py);
	((struct c_actor *)ecs_get_mut(g->w, orc, COMP_ACTOR))->hp = 1;
	assert_int_equal(game_apply(g, CMD_MOVE_E), 1);
	assert_true(ecs_has(g->w, orc, COMP_CORPSE));
	assert_true(g->memo.walks > walks);
	const struct c_memory *mem = ecs_get(g->w, orc, COMP_MEMORY);
	assert_true(mem->known);
	game_destroy(g);
}

static void test_memory_walks_on_change(void **state)
{
	(void)state;
	memory_walks_on_change(0);
	memory_walks_on_change(2 * 35); /* more unseen items than world_memo names */
}

static void test_drawables_and_memory(void **state)
{
	(void)state;
	struct game *g = arena();
	/* A wall column at x = 10 hides the east side. */
	struct map *m = world_floor(g, 1);
	for (int y = 1; y <= 19; y++)
		map_set(m, 10, y, TILE_WALL);
	ecs_entity orc = gamefix_spawn(g, ACTOR_ORC, 7, 5);
	gamefix_spawn(g, ACTOR_TROLL, 15, 5); /* unseen */
	((struct c_actor *)ecs_get_mut(g->w, orc, COMP_ACTOR))->hp = 1;
	world_refresh_view(g);
	struct drawable d[16];
	int n = game_drawables(g, d, 16);
	assert_int_equal(n, 2); /* orc, then the player last among actors */
	assert_int_equal(d[0].glyph, 'o');
	assert_int_equal(d[0].fg, 0x3F7F3F);
	assert_int_equal(d[1].glyph, '@');
	assert_int_equal(d[1].order, GAME_ORDER_ACTOR);
	char buf[64];
	assert_string_equal(game_describe(g, 7, 5, buf, sizeof(buf)), "orc");
	assert_null(game_describe(g, 15, 5, buf, sizeof(buf))); /* never seen */
	assert_null(game_describe(g, 8, 8, buf, sizeof(buf)));  /* seen, empty */
	assert_null(game_describe(g, -1, 0, buf, sizeof(buf)));
	/* Kill it: the corpse is drawn in view, below the actors. */
	world_put_player(g, 1, 6, 5);
	world_refresh_view(g);
	assert_int_equal(game_apply(g, CMD_MOVE_E), 1);
	n = game_drawables(g, d, 16);
	assert_int_equal(n, 2);
	assert_int_equal(d[0].glyph, '%');
	assert_int_equal(d[0].order, GAME_ORDER_CORPSE);
	assert_false(d[0].remembered);
	/* Out of view: the corpse stays drawn where it was seen, remembered. */
	world_put_player(g, 1, 12, 5);
	world_refresh_view(g);
	assert_false(world_visible(g, 7, 5));
	n = game_drawables(g, d, 16);
	bool corpse = false, troll = false;
	for (int i = 0; i < n; i++) {
		if (d[i].glyph == '%') {
			corpse = true;
			assert_true(d[i].remembered);
			assert_int_equal(d[i].x, 7);
		}
		troll |= d[i].glyph == 'T';
	}
	assert_true(corpse);
	assert_true(troll); /* in view now */
	assert_string_equal(game_describe(g, 7, 5, buf, sizeof(buf)), "remains of orc");
	/* Actors are not remembered: the troll vanishes once out of view. */
	world_put_player(g, 1, 5, 5);
	world_refresh_view(g);
	n = game_drawables(g, d, 16);
	for (int i = 0; i < n; i++)
		assert_true(d[i].glyph != 'T');
	/* max limits the output. */
	assert_int_equal(game_drawables(g, d, 1), 1);
	assert_int_equal(d[0].glyph, '@'); /* the corpse is dropped first */
	assert_int_equal(game_drawables(g, d, 0), 0);
	/* Truncated descriptions stay terminated. */
	assert_string_equal(game_describe(g, 7, 5, buf, 8), "remains");
	game_destroy(g);
}

/* game_drawables walks the floor's list in the drawing order it keeps
 * (world_here's draw[]): what it gives is what the walk over every
 * position without the list gives, item by item, also after a look's order
 * changed in place (no pool's version moved: the kept order is stale) and
 * on a floor whose entities were made out of drawing order. */
static void test_drawables_from_ordered_list(void **state)
{
	(void)state;
	struct game *g = arena();
	/* items and corpses after the actors in slot order; a monster between */
	ecs_entity orc = gamefix_spawn(g, ACTOR_ORC, 7, 5);
	for (int i = 0; i < 6; i++)
		assert_int_equal(world_spawn_item(g, i % 3, 1, 8 + i, 6, NULL), 0);
	ecs_entity goblin = gamefix_spawn(g, ACTOR_GOBLIN, 9, 7);
	assert_int_equal(world_spawn_item(g, 0, 1, 6, 7, NULL), 0);
	struct drawable a[32], b[32];
	for (int round = 0; round < 3; round++) {
		world_refresh_view(g);
		assert_non_null(world_here(g));
		if (round == 1) /* the orc drawn as a corpse, its look changed in place */
			((struct c_render *)ecs_get_mut(g->w, orc, COMP_RENDER))->order = GAME_ORDER_CORPSE;
		if (round == 2) /* and the goblin as an item */
			((struct c_render *)ecs_get_mut(g->w, goblin, COMP_RENDER))->order = GAME_ORDER_ITEM;
		assert_non_null(world_here(g)); /* (no version moved: the list's order is stale) */
		int n = game_drawables(g, a, 32);
		g->here.ok = false; /* the walk without the list */
		assert_null(world_here(g));
		int n2 = game_drawables(g, b, 32);
		assert_int_equal(n, 10);
		assert_int_equal(n, n2);
		assert_memory_equal(a, b, (size_t)n * sizeof a[0]);
		for (int i = 1; i < n; i++)
			assert_true(a[i - 1].order <= a[i].order);
		assert_int_equal(a[n - 1].glyph, '@');
	}
	game_destroy(g);
}

/* The floor's list (collect_listed) and the walk without it give the same
 * drawables, item by item, on every turn of a played game: monsters in and
 * out of view, items seen and remembered, corpses, the stairs taken down. */
static void test_drawables_listed_as_walked(void **state)
{
	(void)state;
	struct game *g = gamefix_new(3, MAPGEN_CLASSIC);
	struct drawable a[UI_TEST_DRAWABLES], b[UI_TEST_DRAWABLES];
	uint64_t r = 0x9E3779B97F4A7C15ull;
	int remembered = 0, corpses = 0, actors = 0, items = 0, listed = 0, px, py;
	game_player_pos(g, &px, &py);
	for (int k = 0; k < 3; k++) /* items where he starts: seen, then remembered */
		gamefix_item(g, k, px, py);
	for (int turn = 0; turn < 1500 && !game_is_over(g); turn++) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		struct command c = {.c = (enum cmd)(CMD_MOVE_N + (int)(r % 8)), .item = -1, .choice = -1};
		if (turn % 150 == 149)
			c.c = CMD_DESCEND; /* refused off the stairs */
		(void)game_do(g, &c);
		listed += world_here(g) != NULL;
		int n = game_drawables(g, a, UI_TEST_DRAWABLES);
		g->here.ok = false; /* the walk without the list */
		int n2 = game_drawables(g, b, UI_TEST_DRAWABLES);
		world_refresh_view(g); /* the list made again */
		assert_int_equal(n, n2);
		for (int i = 0; i < n; i++) {
			assert_memory_equal(&a[i], &b[i], sizeof a[i]);
			remembered += a[i].remembered;
			corpses += a[i].corpse;
			actors += a[i].actor >= 0;
			items += a[i].item >= 0;
		}
	}
	/* (the game showed every kind, mostly from the list) */
	assert_true(listed > 1000);
	assert_true(remembered > 0 && corpses > 0 && actors > 1500 && items > 0);
	game_destroy(g);
}

/* The memory memo's cells (struct world_memo) are cleared cell by cell
 * when few were marked: after every walk of a played game (three floors),
 * cell[] is nonzero exactly at the cells named in at[] (when they are all
 * named), and nowhere past the floor's cells. */
static void test_memo_cells_exact(void **state)
{
	(void)state;
	struct game *g = gamefix_new(5, MAPGEN_CLASSIC);
	uint64_t r = 0x2545F4914F6CDD1Dull;
	int walks = 0, named = 0;
	for (int turn = 0; turn < 1500 && !game_is_over(g); turn++) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		struct command c = {.c = (enum cmd)(CMD_MOVE_N + (int)(r % 8)), .item = -1, .choice = -1};
		if (turn % 300 == 299)
			c.c = CMD_DESCEND;
		if (turn % 10 == 0) { /* an item somewhere (seen or not: marked) */
			const struct map *m = world_floor(g, g->depth);
			for (int tries = 0; tries < 200; tries++) {
				r ^= r << 13, r ^= r >> 7, r ^= r << 17;
				int x = (int)((r >> 20) % (uint64_t)m->w), y = (int)((r >> 40) % (uint64_t)m->h);
				if (map_walkable(m, x, y)) {
					(void)gamefix_item(g, ITEM_HEALTH_POTION, x, y);
					break;
				}
			}
		}
		struct c_actor *pa = ecs_get_mut(g->w, g->player, COMP_ACTOR);
		pa->hp = pa->max_hp; /* (he lives on) */
		int before = g->memo.walks;
		(void)game_do(g, &c);
		if (g->memo.walks == before)
			continue;
		walks++;
		const struct world_memo *mo = &g->memo;
		int set = 0, past = 0, cells = g->map_w * g->map_h;
		for (int i = 0; i < WORLD_CELLS; i++) {
			set += mo->cell[i] != 0;
			past += i >= cells && mo->cell[i];
		}
		assert_int_equal(past, 0);
		if (mo->nat <= WORLD_MEMO_AT) {
			named++;
			assert_int_equal(set, mo->nat);
			for (int k = 0; k < mo->nat; k++)
				assert_int_equal(mo->cell[mo->at[k]], 1);
		}
	}
	assert_true(walks > 50 && named > 50);
	game_destroy(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmd_names),
		cmocka_unit_test(test_what_costs_a_turn),
		cmocka_unit_test(test_dead_never_act),
		cmocka_unit_test(test_nothing_acts_twice),
		cmocka_unit_test(test_monsters_move_at_most_once),
		cmocka_unit_test(test_message_stacking),
		cmocka_unit_test(test_log_bounded),
		cmocka_unit_test(test_welcome_and_create_errors),
		cmocka_unit_test(test_drawables_and_memory),
		cmocka_unit_test(test_drawables_from_ordered_list),
		cmocka_unit_test(test_drawables_listed_as_walked),
		cmocka_unit_test(test_memory_walks_on_change),
		cmocka_unit_test(test_memo_cells_exact),
		cmocka_unit_test(test_first_new_item_in_query_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
