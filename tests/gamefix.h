/* gamefix: game fixtures shared by the game tests: a new game, a floor that is one open room, monsters placed by hand. */
#ifndef PIROGUE_GAMEFIX_H
#define PIROGUE_GAMEFIX_H
#include "testutil.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "game/world.h"

/* A new game (seed, map generator k); fails the test if it cannot be made. */
static inline struct game *gamefix_new(uint64_t seed, enum mapgen_kind k)
{
	struct game *g;
	struct game_opts o = {.seed = seed, .mapgen = k};
	assert_int_equal(game_create(&g, &o), 0);
	return g;
}

/* A game (seed, classic generator) whose floor 1 is remade as one open room
 * of floor, x 1..40 and y 1..20, walled around, with no monsters and no
 * items on the floor (the player still carries his dagger and armour). The player
 * is not placed yet: add walls or stairs to world_floor(g, 1), then
 * gamefix_enter. */
static inline struct game *gamefix_room(uint64_t seed)
{
	struct game *g = gamefix_new(seed, MAPGEN_CLASSIC);
	world_clear_monsters(g, 1);
	world_clear_items(g, 1);
	struct map *m = world_floor(g, 1);
	map_init(m);
	for (int y = 1; y <= 20; y++)
		for (int x = 1; x <= 40; x++)
			map_set(m, x, y, TILE_FLOOR);
	m->rooms[0] = (struct room){1, 1, 40, 20};
	m->nrooms = 1;
	return g;
}

/* Puts the player at (x, y) on floor 1 and updates what it sees. */
static inline void gamefix_enter(struct game *g, int x, int y)
{
	world_put_player(g, 1, x, y);
	world_refresh_view(g);
}

/* A monster of kind k at (x, y) on floor 1; fails the test if it cannot be placed. */
static inline ecs_entity gamefix_spawn(struct game *g, enum actor_kind k, int x, int y)
{
	ecs_entity e;
	assert_int_equal(world_spawn_actor(g, k, 1, x, y, &e), 0);
	return e;
}

/* A monster of kind k at (x, y) on floor 1, with the player's view updated
 * (so it is seen when in range). */
static inline ecs_entity gamefix_spawn_seen(struct game *g, enum actor_kind k, int x, int y)
{
	ecs_entity e = gamefix_spawn(g, k, x, y);
	world_refresh_view(g);
	return e;
}

/* Makes (x, y) of floor 1 the down stairs. */
static inline void gamefix_down_stairs(struct game *g, int x, int y)
{
	struct map *m = world_floor(g, 1);
	map_set(m, x, y, TILE_STAIRS_DOWN);
	m->down_x = x;
	m->down_y = y;
}

/* An item of kind lying at (x, y) on floor 1; fails the test if it cannot be made. */
static inline ecs_entity gamefix_item(struct game *g, int kind, int x, int y)
{
	ecs_entity e;
	assert_int_equal(world_spawn_item(g, kind, 1, x, y, &e), 0);
	return e;
}

/* The newest message's text, "" when the log is empty. */
static inline const char *gamefix_last_msg(const struct game *g)
{
	const struct game_msg *m = game_msg_get(g, game_msg_count(g) - 1);
	return m ? m->text : "";
}

/* True when some kept message reads exactly text. */
static inline bool gamefix_has_msg(const struct game *g, const char *text)
{
	for (int i = 0; i < game_msg_count(g); i++)
		if (strcmp(game_msg_get(g, i)->text, text) == 0)
			return true;
	return false;
}

/* g's whole history (game_history), read in chunks of 100 commands, as a
 * new array (free it) of *n commands; fails the test when it cannot be
 * read. */
static inline struct command *gamefix_history(const struct game *g, int *n)
{
	const struct history *h = game_history(g);
	*n = hist_count(h);
	struct command *out = malloc(((size_t)*n + 1) * sizeof(*out));
	assert_non_null(out);
	struct hist_reader r;
	hist_begin(&r, h);
	int got = 0;
	for (int k; (k = hist_next(&r, out + got, 100)) != 0; got += k)
		assert_true(k > 0 && got + k <= *n);
	assert_int_equal(got, *n);
	return out;
}

/* Fails the test unless a and b have the same history. */
static inline void gamefix_same_history(const struct game *a, const struct game *b)
{
	int na, nb;
	struct command *ha = gamefix_history(a, &na), *hb = gamefix_history(b, &nb);
	assert_int_equal(nb, na);
	assert_memory_equal(hb, ha, (size_t)na * sizeof(*ha));
	free(ha);
	free(hb);
}

#endif
