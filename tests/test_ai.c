/* Tests of monster behaviour: sight, hunting, memory, flanking, status effects, the shared distance map. */
#include "gamefix.h"

#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "game/ai.h"
#include "game/combat.h"

/* Open room (1..40, 1..20), plus a wall column at x = 20 from y = 1 to 19
 * when walled (a gap at y = 20). Player at (5,5), no monsters. */
static struct game *arena(bool walled)
{
	struct game *g = gamefix_room(99);
	if (walled)
		for (int y = 1; y <= 19; y++)
			map_set(world_floor(g, 1), 20, y, TILE_WALL);
	gamefix_enter(g, 5, 5);
	return g;
}

static void pos_of(struct game *g, ecs_entity e, int *x, int *y)
{
	const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
	*x = p->x;
	*y = p->y;
}

static int cheb(int ax, int ay, int bx, int by)
{
	int dx = abs(ax - bx), dy = abs(ay - by);
	return dx > dy ? dx : dy;
}

static void test_hunts_when_seen(void **state)
{
	(void)state;
	struct game *g = arena(false);
	ecs_entity orc = gamefix_spawn(g, ACTOR_ORC, 11, 9); /* 6 away: in view */
	world_refresh_view(g);
	int x, y;
	for (int t = 0; t < 5; t++) {
		pos_of(g, orc, &x, &y);
		int before = cheb(x, y, 5, 5);
		assert_int_equal(game_apply(g, CMD_WAIT), 1);
		pos_of(g, orc, &x, &y);
		assert_int_equal(cheb(x, y, 5, 5), before - 1);
	}
	pos_of(g, orc, &x, &y);
	assert_int_equal(cheb(x, y, 5, 5), 1);
	/* Adjacent (diagonal or not): it attacks instead of moving. */
	assert_int_equal(game_apply(g, CMD_WAIT), 1);
	int x2, y2;
	pos_of(g, orc, &x2, &y2);
	assert_int_equal(x2, x);
	assert_int_equal(y2, y);
	const struct game_msg *m = game_msg_get(g, game_msg_count(g) - 1);
	assert_string_equal(m->text, "Orc attacks you for 1 hit point.");
	game_destroy(g);
}

static void test_idle_when_unseen(void **state)
{
	(void)state;
	struct game *g = arena(true);
	ecs_entity orc = gamefix_spawn(g, ACTOR_ORC, 25, 5); /* behind the wall */
	ecs_entity far = gamefix_spawn(g, ACTOR_ORC, 16, 18); /* out of range (11,13) */
	world_refresh_view(g);
	for (int t = 0; t < 10; t++)
		assert_int_equal(game_apply(g, CMD_WAIT), 1);
	int x, y;
	pos_of(g, orc, &x, &y);
	assert_int_equal(x, 25);
	assert_int_equal(y, 5);
	pos_of(g, far, &x, &y);
	assert_int_equal(x, 16);
	assert_int_equal(y, 18);
	const struct c_ai *ai = ecs_get(g->w, orc, COMP_AI);
	assert_int_equal(ai->state, AI_IDLE);
	game_destroy(g);
}

static void test_sight_is_symmetric(void **state)
{
	(void)state;
	/* A monster hunts exactly when the player sees its cell. */
	struct game *g = arena(true);
	for (int y = 1; y <= 20; y += 3) {
		for (int x = 1; x <= 40; x += 3) {
			if (world_blocker_at(g, 1, x, y) != ECS_NULL || !map_walkable(world_floor(g, 1), x, y))
				continue;
			world_clear_monsters(g, 1);
			ecs_entity e = gamefix_spawn(g, ACTOR_GOBLIN, x, y);
			world_refresh_view(g);
			bool seen = world_visible(g, x, y);
			ai_begin_phase(g);
			ai_act(g, e);
			const struct c_ai *ai = ecs_get(g->w, e, COMP_AI);
			assert_int_equal(ai->state == AI_HUNTING, seen);
		}
	}
	game_destroy(g);
}

static void test_walks_to_last_seen(void **state)
{
	(void)state;
	struct game *g = arena(true);
	ecs_entity orc = gamefix_spawn(g, ACTOR_ORC, 24, 19);
	world_put_player(g, 1, 22, 20); /* seen through the gap */
	world_refresh_view(g);
	assert_true(world_visible(g, 24, 19));
	assert_int_equal(game_apply(g, CMD_WAIT), 1);
	const struct c_ai *ai = ecs_get(g->w, orc, COMP_AI);
	assert_int_equal(ai->state, AI_HUNTING);
	assert_int_equal(ai->last_x, 22);
	assert_int_equal(ai->last_y, 20);
	/* The player vanishes behind the wall: the orc goes where he was, then
	 * gives up. */
	world_put_player(g, 1, 5, 5);
	world_refresh_view(g);
	int x, y;
	for (int t = 0; t < 6; t++)
		game_apply(g, CMD_WAIT);
	pos_of(g, orc, &x, &y);
	assert_int_equal(x, 22);
	assert_int_equal(y, 20);
	ai = ecs_get(g->w, orc, COMP_AI);
	assert_int_equal(ai->state, AI_IDLE);
	game_apply(g, CMD_WAIT);
	int x2, y2;
	pos_of(g, orc, &x2, &y2);
	assert_int_equal(x2, x);
	assert_int_equal(y2, y);
	game_destroy(g);
}

static void test_one_distance_map_for_all(void **state)
{
	(void)state;
	struct game *g = arena(false);
	for (int i = 0; i < 6; i++)
		gamefix_spawn(g, ACTOR_ORC, 10 + i, 10);
	world_refresh_view(g);
	int runs = g->ai.dijkstra_runs;
	assert_int_equal(game_apply(g, CMD_WAIT), 1);
	assert_int_equal(g->ai.dijkstra_runs, runs + 1);
	game_destroy(g);
}

/* Monsters out of sight walk to where they last saw the player on a map of
 * the walls alone: one map for one place, kept from turn to turn. */
static void test_lost_sight_map_kept(void **state)
{
	(void)state;
	struct game *g = arena(true);
	ecs_entity e[2] = {gamefix_spawn(g, ACTOR_ORC, 30, 5), gamefix_spawn(g, ACTOR_ORC, 32, 6)};
	for (int i = 0; i < 2; i++) {
		struct c_ai *ai = ecs_get_mut(g->w, e[i], COMP_AI);
		ai->state = AI_HUNTING;
		ai->last_x = 12;
		ai->last_y = 19;
	}
	world_refresh_view(g);
	assert_false(world_visible(g, 30, 5));
	int runs = g->ai.dijkstra_runs;
	assert_int_equal(game_apply(g, CMD_WAIT), 1);
	assert_int_equal(g->ai.dijkstra_runs, runs + 1);
	int x, y;
	pos_of(g, e[0], &x, &y);
	assert_int_equal(cheb(x, y, 21, 20), cheb(30, 5, 21, 20) - 1); /* towards the gap */
	for (int t = 0; t < 3; t++)
		assert_int_equal(game_apply(g, CMD_WAIT), 1);
	assert_int_equal(g->ai.dijkstra_runs, runs + 1);
	game_destroy(g);
}

static void test_flanking(void **state)
{
	(void)state;
	/* Three orcs in a line behind each other: they spread around the
	 * player instead of queueing, so all three are soon adjacent. */
	struct game *g = arena(false);
	ecs_entity e[3] = {gamefix_spawn(g, ACTOR_ORC, 9, 5), gamefix_spawn(g, ACTOR_ORC, 10, 5),
			    gamefix_spawn(g, ACTOR_ORC, 11, 5)};
	world_refresh_view(g);
	for (int t = 0; t < 6; t++)
		game_apply(g, CMD_WAIT);
	for (int i = 0; i < 3; i++) {
		int x, y;
		pos_of(g, e[i], &x, &y);
		assert_int_equal(cheb(x, y, 5, 5), 1);
	}
	game_destroy(g);
}

static void test_routes_around_a_blocker(void **state)
{
	(void)state;
	/* A paralysed orc plugs a 1-wide corridor; the other orc sees the
	 * player but takes a slightly longer side passage rather than wait
	 * behind it. */
	struct game *g = arena(false);
	struct map *m = world_floor(g, 1);
	map_init(m);
	for (int x = 2; x <= 10; x++)
		map_set(m, x, 5, TILE_FLOOR); /* corridor y = 5 */
	for (int x = 4; x <= 6; x++)
		map_set(m, x, 7, TILE_FLOOR); /* side passage */
	map_set(m, 7, 6, TILE_FLOOR);
	map_set(m, 3, 6, TILE_FLOOR);
	world_put_player(g, 1, 2, 5);
	ecs_entity plug = gamefix_spawn(g, ACTOR_ORC, 5, 5);
	((struct c_ai *)ecs_get_mut(g->w, plug, COMP_AI))->paralysed = 100;
	ecs_entity orc = gamefix_spawn(g, ACTOR_ORC, 7, 5);
	world_refresh_view(g);
	assert_true(world_visible(g, 7, 5));
	int x, y;
	for (int t = 0; t < 30; t++) {
		game_apply(g, CMD_WAIT);
		pos_of(g, orc, &x, &y);
		if (cheb(x, y, 2, 5) == 1)
			break;
	}
	pos_of(g, orc, &x, &y);
	assert_int_equal(cheb(x, y, 2, 5), 1);
	assert_int_equal(x, 3); /* came through the side passage */
	assert_int_equal(y, 6);
	game_destroy(g);
}

static void test_paralysed(void **state)
{
	(void)state;
	struct game *g = arena(false);
	ecs_entity orc = gamefix_spawn(g, ACTOR_ORC, 6, 5);
	((struct c_ai *)ecs_get_mut(g->w, orc, COMP_AI))->paralysed = 2;
	world_refresh_view(g);
	game_apply(g, CMD_WAIT);
	game_apply(g, CMD_WAIT);
	struct game_stats s;
	game_stats(g, &s);
	assert_int_equal(s.hp, 30);
	assert_int_equal(((const struct c_ai *)ecs_get(g->w, orc, COMP_AI))->paralysed, 0);
	game_apply(g, CMD_WAIT);
	game_stats(g, &s);
	assert_int_equal(s.hp, 29);
	game_destroy(g);
}

static void test_confused(void **state)
{
	(void)state;
	/* A confused orc ringed by goblins hits one of them every turn
	 * (whatever direction it stumbles), then recovers. The player is out of
	 * sight so nobody else acts. */
	struct game *g = arena(true);
	ecs_entity orc = gamefix_spawn(g, ACTOR_ORC, 30, 10);
	ecs_entity ring[8];
	int k = 0;
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++)
			if (dx || dy)
				ring[k++] = gamefix_spawn(g, ACTOR_GOBLIN, 30 + dx, 10 + dy);
	((struct c_ai *)ecs_get_mut(g->w, orc, COMP_AI))->confused = 2;
	world_refresh_view(g);
	assert_false(world_visible(g, 30, 10));
	game_apply(g, CMD_WAIT);
	int lost = 0;
	for (int i = 0; i < 8; i++)
		lost += 6 - ((const struct c_actor *)ecs_get(g->w, ring[i], COMP_ACTOR))->hp;
	assert_int_equal(lost, 3);
	game_apply(g, CMD_WAIT);
	lost = 0;
	for (int i = 0; i < 8; i++) {
		const struct c_actor *a = ecs_get(g->w, ring[i], COMP_ACTOR);
		lost += a ? 6 - a->hp : 6;
	}
	assert_int_equal(lost, 6);
	assert_int_equal(((const struct c_ai *)ecs_get(g->w, orc, COMP_AI))->confused, 0);
	int x, y;
	pos_of(g, orc, &x, &y);
	assert_int_equal(x, 30);
	assert_int_equal(y, 10);
	game_destroy(g);
}

static void test_confused_wanders(void **state)
{
	(void)state;
	/* In the open a confused monster moves at random, not towards the
	 * player, and says when it recovers if seen. */
	struct game *g = arena(false);
	gamefix_enter(g, 20, 10); /* in the middle, so the orc stays in view */
	ecs_entity orc = gamefix_spawn(g, ACTOR_ORC, 24, 10);
	((struct c_ai *)ecs_get_mut(g->w, orc, COMP_AI))->confused = 10;
	world_refresh_view(g);
	int moved = 0, px = 24, py = 10;
	for (int t = 0; t < 10; t++) {
		game_apply(g, CMD_WAIT);
		int x, y;
		pos_of(g, orc, &x, &y);
		assert_true(cheb(x, y, px, py) <= 1);
		moved += x != px || y != py;
		px = x;
		py = y;
	}
	assert_true(moved >= 5);
	assert_true(world_visible(g, px, py));
	const struct game_msg *m = game_msg_get(g, game_msg_count(g) - 1);
	assert_string_equal(m->text, "The orc is no longer confused.");
	game_destroy(g);
}

/* The phase's list of monsters is kept from turn to turn: one spawned after
 * a turn acts in the next, one killed between turns does not. */
static void test_list_follows_spawns_and_deaths(void **state)
{
	(void)state;
	struct game *g = arena(false);
	ecs_entity a = gamefix_spawn(g, ACTOR_ORC, 11, 9);
	world_refresh_view(g);
	assert_int_equal(game_apply(g, CMD_WAIT), 1);
	int ax, ay;
	pos_of(g, a, &ax, &ay);
	assert_int_equal(cheb(ax, ay, 5, 5), 5); /* it came one step nearer */
	ecs_entity b = gamefix_spawn(g, ACTOR_ORC, 5, 11);
	world_refresh_view(g);
	assert_int_equal(game_apply(g, CMD_WAIT), 1);
	int bx, by;
	pos_of(g, b, &bx, &by);
	assert_int_equal(cheb(bx, by, 5, 5), 5); /* the new one acted */
	/* a dies (as combat kills): it acts no more */
	combat_kill(g, a, g->player);
	pos_of(g, a, &ax, &ay);
	assert_int_equal(game_apply(g, CMD_WAIT), 1);
	int ax2, ay2;
	pos_of(g, a, &ax2, &ay2);
	assert_int_equal(ax2, ax);
	assert_int_equal(ay2, ay);
	game_destroy(g);
}

/* What the hook below does after the phase's first action, as rules
 * might (none does today: a death only leaves pools), in each mode:
 * MID_SPAWN kills victim (it leaves COMP_AI's pool, whose last entry moves
 * into its place) and spawns `spawns` idle orcs out of sight (they join
 * the pools at their ends, where that entry was, and may make them grow);
 * MID_RISE kills victim and its remains rise idle (COMP_AI's pool only);
 * MID_LEAVE takes victim off the map (it leaves COMP_POS's pool only) and
 * puts a new thing on floor 2 (joining COMP_POS's at its end). */
enum mid_mode { MID_SPAWN, MID_RISE, MID_LEAVE };
static struct {
	enum mid_mode mode;
	ecs_entity victim;
	int spawns, calls;
} mid;

static void mid_phase(struct game *g, ecs_entity e)
{
	(void)e;
	if (mid.calls++)
		return;
	if (mid.mode == MID_LEAVE) {
		world_unblock(g, mid.victim);
		assert_int_equal(ecs_remove(g->w, mid.victim, COMP_POS), 0);
		ecs_entity t;
		assert_int_equal(ecs_create(g->w, &t), 0);
		assert_non_null(ecs_add(g->w, t, COMP_POS, &(struct c_pos){.floor = 2, .x = 1, .y = 1}));
		return;
	}
	combat_kill(g, mid.victim, g->player);
	if (mid.mode == MID_RISE)
		assert_non_null(ecs_add(g->w, mid.victim, COMP_AI,
					&(struct c_ai){.state = AI_IDLE, .last_x = -1, .last_y = -1}));
	for (int i = 0; i < mid.spawns; i++)
		gamefix_spawn(g, ACTOR_ORC, 22 + i % 18, 11 + i / 18);
}

/* The phase passes over monsters from the list's places in the pools only
 * while no entity joined or left a pool. After one leaves and another
 * joins COMP_AI's pool (and COMP_POS's), in the middle of it, a paralysed
 * monster out of sight whose place moved still counts down, as ai_act
 * finds (its old place now holds another's idle, unparalysed state); after
 * the same in COMP_POS's pool only, an idle monster that has just come
 * into sight starts hunting (its old place now holds a position on
 * another floor); pools that grow mid-phase are not read where they were
 * (ASan). Then the next phase lists them all again. */
static void test_list_places_after_mid_phase_changes(void **state)
{
	(void)state;
	static const struct {
		enum mid_mode mode;
		int spawns;
	} cases[] = { { MID_SPAWN, 1 }, { MID_SPAWN, 150 }, { MID_RISE, 0 }, { MID_LEAVE, 0 } };
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct game *g = arena(true);
		bool leave = cases[k].mode == MID_LEAVE;
		/* roles by slot (the list's order; freed slots are taken first):
		 * c the last spawned (last in COMP_AI's and COMP_POS's pools), a
		 * one listed before it, b another one before c in the pools */
		ecs_entity e[40], a = ECS_NULL, b = ECS_NULL, c = ECS_NULL;
		for (int n = 0; a == ECS_NULL; n++) {
			assert_true(n < 40);
			e[n] = gamefix_spawn(g, ACTOR_ORC, 22 + n % 18, 1 + n / 18);
			for (int i = 0; n >= 2 && i < n && a == ECS_NULL; i++)
				if (ECS_INDEX(e[i]) < ECS_INDEX(e[n])) {
					a = e[i];
					b = e[i == 0 ? 1 : 0];
					c = e[n];
				}
		}
		world_move(g, a, 8, 5); /* seen: acts first */
		world_move(g, b, 30, 3);
		world_move(g, c, 30, 10);
		if (!leave)
			((struct c_ai *)ecs_get_mut(g->w, c, COMP_AI))->paralysed = 3;
		world_refresh_view(g);
		assert_true(world_visible(g, 8, 5));
		assert_false(world_visible(g, 30, 10));
		assert_true(ecs_index(g->w, c, COMP_AI) == ecs_pool_count(g->w, COMP_AI) - 1);
		assert_true(ecs_index(g->w, c, COMP_POS) == ecs_pool_count(g->w, COMP_POS) - 1);
		/* a turn without the hook: the list is made, c counts down or
		 * stays idle */
		assert_int_equal(game_apply(g, CMD_WAIT), 1);
		const struct c_ai *cai = ecs_get(g->w, c, COMP_AI);
		assert_int_equal(cai->paralysed, leave ? 0 : 2);
		assert_int_equal(cai->state, AI_IDLE);
		int ax, ay, cx, cy;
		pos_of(g, a, &ax, &ay);
		assert_int_equal(cheb(ax, ay, 5, 5), 2);
		if (leave) { /* c comes into sight (no pool changes) */
			world_move(g, c, 11, 9);
			world_refresh_view(g);
			assert_true(world_visible(g, 11, 9));
		}
		/* the kept list, and the changes mid-phase */
		mid.mode = cases[k].mode;
		mid.victim = b;
		mid.spawns = cases[k].spawns;
		mid.calls = 0;
		g->ai.acted = mid_phase;
		int moved = leave ? COMP_POS : COMP_AI;
		uint32_t was = ecs_index(g->w, c, moved);
		assert_int_equal(game_apply(g, CMD_WAIT), 1);
		assert_true(mid.calls >= 1);
		assert_true(ecs_index(g->w, c, moved) != was); /* its place moved */
		cai = ecs_get(g->w, c, COMP_AI);
		pos_of(g, c, &cx, &cy);
		if (leave) {
			assert_int_equal(cai->state, AI_HUNTING);
			assert_int_equal(cheb(cx, cy, 5, 5), 5);
		} else {
			assert_int_equal(cai->paralysed, 1);
		}
		pos_of(g, a, &ax, &ay);
		assert_int_equal(cheb(ax, ay, 5, 5), 1);
		g->ai.acted = NULL;
		assert_int_equal(game_apply(g, CMD_WAIT), 1);
		if (!leave)
			assert_int_equal(((const struct c_ai *)ecs_get(g->w, c, COMP_AI))->paralysed, 0);
		game_destroy(g);
	}
}

/* More monsters than the phase's list holds (AI_LIST_MAX) act a list at a
 * time: on a floor with 2,500 of them (and 300 on another floor), every one
 * of the floor acts exactly once a turn and the others never. */
static void test_more_monsters_than_the_list(void **state)
{
	(void)state;
	struct game *g = arena(false);
	enum { HERE = 2500, AWAY = 300 };
	static ecs_entity here[HERE], away[AWAY];
	for (int i = 0, k = 0; i < HERE + AWAY; i++) {
		/* interleaved, so the floors' monsters share slot chunks */
		bool on_floor = i % 9 != 4 || k >= AWAY;
		ecs_entity e;
		assert_int_equal(world_spawn_actor(g, ACTOR_ORC, on_floor ? 1 : 2, 1 + i % 40, 1 + (i / 40) % 20, &e), 0);
		((struct c_ai *)ecs_get_mut(g->w, e, COMP_AI))->paralysed = 10;
		if (on_floor)
			here[i - k] = e;
		else
			away[k++] = e;
	}
	assert_true(ecs_pool_count(g->w, COMP_AI) > AI_LIST_MAX);
	for (int t = 1; t <= 3; t++) {
		assert_int_equal(game_apply(g, CMD_WAIT), 1);
		for (int i = 0; i < HERE; i++)
			assert_int_equal(((struct c_ai *)ecs_get_mut(g->w, here[i], COMP_AI))->paralysed, 10 - t);
		for (int i = 0; i < AWAY; i++)
			assert_int_equal(((struct c_ai *)ecs_get_mut(g->w, away[i], COMP_AI))->paralysed, 10);
	}
	game_destroy(g);
}

/* The occupancy grid is kept up to date by every move, spawn and death (no
 * longer rebuilt per command): after every command of long random games on
 * every generator, down several floors, it equals a rebuilt one. */
static void test_occupancy_kept(void **state)
{
	(void)state;
	static ecs_entity kept[WORLD_CELLS];
	static const enum cmd moves[] = {CMD_MOVE_N, CMD_MOVE_NE, CMD_MOVE_E, CMD_MOVE_SE, CMD_MOVE_S,
					 CMD_MOVE_SW, CMD_MOVE_W, CMD_MOVE_NW, CMD_WAIT, CMD_PICKUP,
					 CMD_DESCEND, CMD_ASCEND};
	long checked = 0;
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		struct game *g = gamefix_new(31 + (uint64_t)k, (enum mapgen_kind)k);
		((struct c_actor *)ecs_get_mut(g->w, g->player, COMP_ACTOR))->defense = 1000; /* lives on */
		struct rng r;
		rng_seed(&r, 5 + (uint64_t)k);
		for (int t = 0; t < 3000 && !game_is_over(g); t++) {
			/* mostly towards the stairs, so floors change too */
			int px, py;
			game_player_pos(g, &px, &py);
			const struct map *m = game_map(g);
			enum cmd c = moves[rng_range(&r, 0, 11)];
			if (px == m->down_x && py == m->down_y && rng_range(&r, 0, 1))
				c = CMD_DESCEND;
			game_apply(g, c);
			memcpy(kept, g->occ, sizeof(kept));
			world_rebuild_occ(g);
			assert_memory_equal(kept, g->occ, sizeof(kept));
			checked++;
		}
		game_destroy(g);
	}
	assert_true(checked > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hunts_when_seen),
		cmocka_unit_test(test_idle_when_unseen),
		cmocka_unit_test(test_sight_is_symmetric),
		cmocka_unit_test(test_walks_to_last_seen),
		cmocka_unit_test(test_one_distance_map_for_all),
		cmocka_unit_test(test_occupancy_kept),
		cmocka_unit_test(test_list_follows_spawns_and_deaths),
		cmocka_unit_test(test_more_monsters_than_the_list),
		cmocka_unit_test(test_list_places_after_mid_phase_changes),
		cmocka_unit_test(test_lost_sight_map_kept),
		cmocka_unit_test(test_flanking),
		cmocka_unit_test(test_routes_around_a_blocker),
		cmocka_unit_test(test_paralysed),
		cmocka_unit_test(test_confused),
		cmocka_unit_test(test_confused_wanders),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
