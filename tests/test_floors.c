/* Tests of floors: persistence up and down, arrival on the stairs, monster placement by the spawn tables. */
#include "gamefix.h"

#include <stdlib.h>
#include <string.h>


struct snap {
	ecs_entity e;
	int x, y, floor, hp;
	uint32_t mask;
};

/* Every entity of floor f but the player, in slot order; returns the count. */
static int snapshot(struct game *g, int f, struct snap *out, int max)
{
	int n = 0;
	for (uint32_t i = 0; i < ecs_slots(g->w); i++) {
		ecs_entity e = ecs_slot_entity(g->w, i);
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		if (!p || p->floor != f || e == g->player)
			continue;
		assert_true(n < max);
		const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
		out[n++] = (struct snap){e, p->x, p->y, p->floor, a ? a->hp : -1, ecs_mask(g->w, e)};
	}
	return n;
}

static void go_to_stairs_and(struct game *g, bool down)
{
	const struct map *m = game_map(g);
	world_put_player(g, game_depth(g), down ? m->down_x : m->up_x, down ? m->down_y : m->up_y);
	world_refresh_view(g);
	assert_int_equal(game_apply(g, down ? CMD_DESCEND : CMD_ASCEND), 1);
}

static void test_persistence(void **state)
{
	(void)state;
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		struct game *g = gamefix_new(5 + (uint64_t)k, (enum mapgen_kind)k);
		const struct map *f1 = world_floor(g, 1);
		assert_int_equal(f1->up_x, -1); /* floor 1 has no way up */
		assert_int_equal(game_apply(g, CMD_ASCEND), 0);
		static struct snap a[512], b[512];
		static uint8_t tiles1[WORLD_CELLS], tiles2[WORLD_CELLS], expl1[WORLD_CELLS];
		/* Snapshot floor 1 as the player leaves it (the stairs move first). */
		world_put_player(g, 1, f1->down_x, f1->down_y);
		world_refresh_view(g);
		memcpy(tiles1, f1->tile, sizeof(tiles1));
		int na = snapshot(g, 1, a, 512);
		int n0 = game_msg_count(g);
		assert_int_equal(game_apply(g, CMD_DESCEND), 1);
		memcpy(expl1, f1->explored, sizeof(expl1));
		assert_int_equal(game_depth(g), 2);
		assert_int_equal(g->nfloors, 2);
		const struct map *f2 = game_map(g);
		assert_ptr_equal(f2, world_floor(g, 2));
		int x, y;
		game_player_pos(g, &x, &y);
		assert_int_equal(x, f2->up_x);
		assert_int_equal(y, f2->up_y);
		assert_int_equal(map_tile(f2, x, y), TILE_STAIRS_UP);
		assert_string_equal(game_msg_get(g, n0)->text, "You descend the staircase.");
		memcpy(tiles2, f2->tile, sizeof(tiles2));
		for (int t = 0; t < 8; t++)
			assert_int_equal(game_apply(g, CMD_WAIT), 1);
		/* Floor 1 stood still while the player was away. */
		int nb = snapshot(g, 1, b, 512);
		assert_int_equal(nb, na);
		assert_memory_equal(a, b, (size_t)na * sizeof(a[0]));
		/* Back up: same floor, arriving on its down stairs. */
		game_player_pos(g, &x, &y);
		if (x != f2->up_x || y != f2->up_y) {
			world_put_player(g, 2, f2->up_x, f2->up_y);
			world_refresh_view(g);
		}
		assert_int_equal(game_apply(g, CMD_ASCEND), 1);
		assert_int_equal(game_depth(g), 1);
		game_player_pos(g, &x, &y);
		assert_int_equal(x, f1->down_x);
		assert_int_equal(y, f1->down_y);
		assert_ptr_equal(game_map(g), f1);
		assert_memory_equal(f1->tile, tiles1, sizeof(tiles1));
		for (int i = 0; i < WORLD_CELLS; i++)
			if (expl1[i])
				assert_true(f1->explored[i]); /* memory kept */
		/* Down again: the same floor 2, not a new one. */
		assert_int_equal(game_apply(g, CMD_DESCEND), 1);
		assert_int_equal(g->nfloors, 2);
		assert_memory_equal(world_floor(g, 2)->tile, tiles2, sizeof(tiles2));
		game_destroy(g);
	}
}

static void test_deep_descent(void **state)
{
	(void)state;
	struct game *g = gamefix_new(1234, MAPGEN_CLASSIC);
	for (int d = 2; d <= 12; d++) {
		go_to_stairs_and(g, true);
		assert_int_equal(game_depth(g), d);
		struct game_stats s;
		game_stats(g, &s);
		assert_int_equal(s.depth, d);
		int x, y;
		game_player_pos(g, &x, &y);
		assert_int_equal(map_tile(game_map(g), x, y), TILE_STAIRS_UP);
		/* Monsters of other floors never share the player's cell map. */
		for (uint32_t i = 0; i < ecs_slots(g->w); i++) {
			ecs_entity e = ecs_slot_entity(g->w, i);
			const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
			if (p && e != g->player && ecs_has(g->w, e, COMP_BLOCKS) && p->floor == d)
				assert_false(p->x == x && p->y == y);
		}
	}
	/* All the way back up, each floor as left. */
	for (int d = 11; d >= 1; d--) {
		go_to_stairs_and(g, false);
		assert_int_equal(game_depth(g), d);
		int x, y;
		game_player_pos(g, &x, &y);
		assert_int_equal(map_tile(game_map(g), x, y), TILE_STAIRS_DOWN);
		if (game_is_over(g))
			break;
	}
	assert_int_equal(g->nfloors, 12);
	game_destroy(g);
}

static void test_placement(void **state)
{
	(void)state;
	int kinds[ACTOR_COUNT][16] = {{0}};
	for (uint64_t seed = 1; seed <= 25; seed++) {
		for (int k = 0; k < MAPGEN_COUNT; k++) {
			struct game *g;
			assert_int_equal(world_create(&g, seed, (enum mapgen_kind)k), 0);
			for (int d = 1; d <= 10; d++) {
				assert_int_equal(world_generate_floor(g, d), 0);
				const struct map *m = world_floor(g, d);
				int sx, sy;
				map_start(m, &sx, &sy);
				static uint8_t taken[WORLD_CELLS];
				memset(taken, 0, sizeof(taken));
				int n = 0;
				for (uint32_t i = 0; i < ecs_slots(g->w); i++) {
					ecs_entity e = ecs_slot_entity(g->w, i);
					const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
					if (!p || p->floor != d || ecs_has(g->w, e, COMP_ITEM))
						continue;
					assert_true(ecs_has(g->w, e, COMP_BLOCKS));
					assert_true(ecs_has(g->w, e, COMP_AI));
					assert_true(map_in(m, p->x, p->y));
					assert_int_equal(map_tile(m, p->x, p->y), TILE_FLOOR); /* not on stairs */
					assert_false(p->x == sx && p->y == sy);
					assert_int_equal(taken[p->y * MAP_W + p->x], 0);
					taken[p->y * MAP_W + p->x] = 1;
					bool in_room = false;
					for (int r = 0; r < m->nrooms; r++) {
						const struct room *rm = &m->rooms[r];
						if (p->x >= rm->x && p->x < rm->x + rm->w && p->y >= rm->y &&
						    p->y < rm->y + rm->h)
							in_room = true;
					}
					assert_true(in_room);
					const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
					assert_true(a->kind > ACTOR_PLAYER && a->kind < ACTOR_COUNT);
					kinds[a->kind][d]++;
					n++;
				}
				assert_true(n <= m->nrooms * content_floor_value(&content_max_monsters_per_room, d));
			}
			world_destroy(g);
		}
	}
	/* The weights of GAME.md §5. */
	for (int d = 1; d <= 10; d++) {
		assert_int_equal(kinds[ACTOR_GOBLIN][d] > 0, d <= 2);
		assert_int_equal(kinds[ACTOR_TROLL][d] > 0, d >= 3);
		assert_true(kinds[ACTOR_ORC][d] > 0);
	}
	/* Trolls grow commoner with depth (15 -> 30 -> 60 against orcs' 80). */
	assert_true(kinds[ACTOR_TROLL][3] * 3 < kinds[ACTOR_ORC][3]);
	assert_true(kinds[ACTOR_TROLL][8] * 3 > kinds[ACTOR_ORC][8]);
}

/* Populating a floor again (the current one and another) puts no monster
 * where one stands and no item where one lies, whoever put them there: on
 * every floor no cell holds two blockers or two items. */
static void test_populate_again(void **state)
{
	(void)state;
	int again = 0;
	for (uint64_t seed = 1; seed <= 10; seed++) {
		struct game *g;
		assert_int_equal(world_create(&g, seed, MAPGEN_CLASSIC), 0);
		for (int d = 1; d <= 3; d++)
			assert_int_equal(world_generate_floor(g, d), 0);
		world_rebuild_occ(g); /* (floor 1 is the current one) */
		for (int round = 0; round < 3; round++)
			for (int d = 1; d <= 3; d++)
				world_populate(g, d, -1, -1);
		for (int d = 1; d <= 3; d++) {
			static uint8_t blk[WORLD_CELLS], itm[WORLD_CELLS];
			memset(blk, 0, sizeof(blk));
			memset(itm, 0, sizeof(itm));
			for (uint32_t i = 0; i < ecs_slots(g->w); i++) {
				ecs_entity e = ecs_slot_entity(g->w, i);
				const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
				if (!p || p->floor != d)
					continue;
				int c = p->y * g->map_w + p->x;
				if (ecs_has(g->w, e, COMP_BLOCKS))
					assert_int_equal(blk[c]++, 0);
				if (ecs_has(g->w, e, COMP_ITEM))
					assert_int_equal(itm[c]++, 0);
				again++;
			}
		}
		world_destroy(g);
	}
	assert_true(again > 500);
}

static void test_tables(void **state)
{
	(void)state;
	assert_int_equal(content_floor_value(&content_max_monsters_per_room, 1), 2);
	assert_int_equal(content_floor_value(&content_max_monsters_per_room, 3), 2);
	assert_int_equal(content_floor_value(&content_max_monsters_per_room, 4), 3);
	assert_int_equal(content_floor_value(&content_max_monsters_per_room, 5), 3);
	assert_int_equal(content_floor_value(&content_max_monsters_per_room, 6), 5);
	assert_int_equal(content_floor_value(&content_max_monsters_per_room, 60), 5);
	assert_int_equal(content_floor_value(&content_monster_weight[ACTOR_GOBLIN], 2), 60);
	assert_int_equal(content_floor_value(&content_monster_weight[ACTOR_GOBLIN], 3), 0);
	assert_int_equal(content_floor_value(&content_monster_weight[ACTOR_TROLL], 2), 0);
	assert_int_equal(content_floor_value(&content_monster_weight[ACTOR_TROLL], 4), 15);
	assert_int_equal(content_floor_value(&content_monster_weight[ACTOR_TROLL], 6), 30);
	assert_int_equal(content_floor_value(&content_monster_weight[ACTOR_TROLL], 7), 60);
	assert_int_equal(content_floor_value(&content_monster_weight[ACTOR_ORC], 9), 80);
	assert_int_equal(content_floor_value(&content_max_items_per_room, 3), 1);
	assert_int_equal(content_floor_value(&content_max_items_per_room, 4), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_persistence),
		cmocka_unit_test(test_deep_descent),
		cmocka_unit_test(test_placement),
		cmocka_unit_test(test_populate_again),
		cmocka_unit_test(test_tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
