/* The monkey: a bot plays random legal commands for 10,000 turns on each of 20 seeds, checking the world's invariants every turn; plus determinism. */
#include "gamefix.h"

#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "game/path.h"
#include "game/serial.h"
#include "save/save.h"

#define SEEDS 20
#define TURNS 10000

static const int dx8[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int dy8[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
static const enum cmd move8[8] = {CMD_MOVE_N, CMD_MOVE_NE, CMD_MOVE_E, CMD_MOVE_SE,
				  CMD_MOVE_S, CMD_MOVE_SW, CMD_MOVE_W, CMD_MOVE_NW};

/* The bot: walks to the down stairs most of the time (so it goes deep and
 * meets trolls), wanders otherwise, takes stairs both ways now and then, and
 * sometimes presses something useless. */
struct bot {
	struct rng r;
	int depth;
	const struct map *map;
	uint8_t cost[WORLD_CELLS];
	uint16_t to_down[WORLD_CELLS];
};

/* The bot starts afresh, its own generator seeded with seed. */
static void bot_reset(struct bot *b, uint64_t seed)
{
	rng_seed(&b->r, seed);
	b->depth = 0;
	b->map = NULL;
}

static enum cmd bot_pick(struct bot *b, const struct game *g, bool *useless)
{
	const struct map *m = game_map(g);
	int x, y;
	game_player_pos(g, &x, &y);
	*useless = false;
	if (b->depth != game_depth(g) || b->map != m) {
		b->depth = game_depth(g);
		b->map = m;
		for (int i = 0; i < WORLD_CELLS; i++)
			b->cost[i] = m->tile[i] != TILE_WALL;
		path_dijkstra(b->cost, MAP_W, MAP_H, m->down_x, m->down_y, b->to_down);
	}
	int roll = rng_range(&b->r, 0, 99);
	enum tile t = map_tile(m, x, y);
	if (t == TILE_STAIRS_DOWN && roll < 50)
		return CMD_DESCEND;
	if (t == TILE_STAIRS_UP && roll < 15)
		return CMD_ASCEND;
	if (roll < 4) {
		*useless = true;
		static const enum cmd free_cmds[] = {CMD_NONE, CMD_LEVEL_UP, CMD_COUNT};
		if (roll < 3)
			return free_cmds[roll];
		/* Into a wall if there is one next to the player. */
		for (int d = 0; d < 8; d++)
			if (!map_walkable(m, x + dx8[d], y + dy8[d]))
				return move8[d];
		return CMD_NONE;
	}
	if (roll < 60) {
		int nx, ny;
		if (path_step(b->to_down, b->cost, MAP_W, MAP_H, x, y, &nx, &ny) == 0)
			for (int d = 0; d < 8; d++)
				if (x + dx8[d] == nx && y + dy8[d] == ny)
					return move8[d];
	}
	if (roll < 66)
		return CMD_WAIT;
	int start = rng_range(&b->r, 0, 7);
	for (int k = 0; k < 8; k++) {
		int d = (start + k) % 8;
		if (map_walkable(m, x + dx8[d], y + dy8[d]))
			return move8[d];
	}
	return CMD_WAIT;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

struct checker {
	uint64_t *keys;
	size_t cap;
	const struct map *labelled; /* floor the labels belong to */
	uint16_t label[WORLD_CELLS]; /* connected part of each walkable cell, 1.. */
	int queue[WORLD_CELLS];
};

/* Every invariant of the world, checked after every turn. */
static void check_world(struct checker *c, const struct game *g)
{
	const struct map *cur = game_map(g);
	assert_non_null(cur);
	assert_true(g->depth >= 1 && g->depth <= g->nfloors);
	/* The player. */
	const struct c_pos *pp = ecs_get(g->w, g->player, COMP_POS);
	const struct c_actor *pa = ecs_get(g->w, g->player, COMP_ACTOR);
	assert_non_null(pp);
	assert_non_null(pa);
	assert_int_equal(pp->floor, g->depth);
	assert_true(map_walkable(cur, pp->x, pp->y));
	assert_true(pa->hp >= 0 && pa->hp <= pa->max_hp);
	assert_int_equal(pa->hp == 0, game_is_over(g));
	assert_true(cur->visible[pp->y * MAP_W + pp->x]);

	/* Every entity: on a walkable cell of an existing floor; sane HP; the
	 * dead neither block nor think; at most one blocker per cell. */
	size_t nk = 0;
	uint32_t slots = ecs_slots(g->w);
	if (c->cap < slots) {
		c->cap = slots * 2;
		c->keys = realloc(c->keys, c->cap * sizeof(*c->keys));
		assert_non_null(c->keys);
	}
	for (uint32_t i = 0; i < slots; i++) {
		ecs_entity e = ecs_slot_entity(g->w, i);
		if (e == ECS_NULL)
			continue;
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		if (!p)
			continue;
		const struct map *m = world_floor(g, p->floor);
		assert_non_null(m);
		assert_true(map_walkable(m, p->x, p->y));
		const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
		if (a && e != g->player)
			assert_true(a->hp > 0 && a->hp <= a->max_hp);
		if (ecs_has(g->w, e, COMP_CORPSE)) {
			assert_false(ecs_has(g->w, e, COMP_BLOCKS));
			assert_false(ecs_has(g->w, e, COMP_AI));
			assert_null(a);
		}
		if (ecs_has(g->w, e, COMP_AI))
			assert_non_null(a);
		if (ecs_has(g->w, e, COMP_BLOCKS) && !(e == g->player && game_is_over(g))) {
			c->keys[nk++] = ((uint64_t)p->floor << 32) | (uint64_t)(p->y * MAP_W + p->x);
			if (p->floor == g->depth)
				assert_true(world_blocker_at(g, p->floor, p->x, p->y) == e);
		}
	}
	qsort(c->keys, nk, sizeof(*c->keys), cmp_u64);
	for (size_t i = 1; i < nk; i++)
		assert_true(c->keys[i] != c->keys[i - 1]);

	/* Every living monster of this floor is reachable from the player over
	 * walkable cells, or walled in where it stands. Tiles never change, so
	 * the floor's connected parts are labelled once per floor. */
	if (c->labelled != cur) {
		c->labelled = cur;
		memset(c->label, 0, sizeof(c->label));
		int nlabel = 0;
		for (int s0 = 0; s0 < WORLD_CELLS; s0++) {
			if (c->label[s0] || cur->tile[s0] == TILE_WALL)
				continue;
			nlabel++;
			int head = 0, tail = 0;
			c->queue[tail++] = s0;
			c->label[s0] = (uint16_t)nlabel;
			while (head < tail) {
				int i = c->queue[head++], x = i % MAP_W, y = i / MAP_W;
				for (int d = 0; d < 8; d++) {
					int nx = x + dx8[d], ny = y + dy8[d];
					if (map_walkable(cur, nx, ny) && !c->label[ny * MAP_W + nx]) {
						c->label[ny * MAP_W + nx] = (uint16_t)nlabel;
						c->queue[tail++] = ny * MAP_W + nx;
					}
				}
			}
		}
	}
	uint16_t plabel = c->label[pp->y * MAP_W + pp->x];
	assert_true(plabel > 0);
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_AI) | ECS_BIT(COMP_POS));
	for (ecs_entity e; ecs_query_next(&q, &e);) {
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		if (p->floor != g->depth || c->label[p->y * MAP_W + p->x] == plabel)
			continue;
		for (int d = 0; d < 8; d++)
			assert_false(map_walkable(cur, p->x + dx8[d], p->y + dy8[d]) &&
				     world_blocker_at(g, g->depth, p->x + dx8[d], p->y + dy8[d]) == ECS_NULL);
	}

	/* What the UI gets is consistent. */
	static struct drawable dr[2048];
	int n = game_drawables(g, dr, 2048);
	for (int i = 0; i < n; i++) {
		assert_true(map_in(cur, dr[i].x, dr[i].y));
		if (i)
			assert_true(dr[i - 1].order <= dr[i].order);
		if (dr[i].order == GAME_ORDER_ACTOR)
			assert_true(cur->visible[dr[i].y * MAP_W + dr[i].x]);
		if (dr[i].remembered)
			assert_true(cur->explored[dr[i].y * MAP_W + dr[i].x]);
	}
	struct game_stats s;
	game_stats(g, &s);
	assert_int_equal(s.hp, pa->hp);
	assert_int_equal(s.depth, g->depth);
}

/* A new game for seed (the map generators in turn), the bot and the checker
 * starting afresh; the world is checked before the first turn. */
static struct game *new_game(uint64_t seed, struct bot *b, struct checker *c)
{
	struct game *g = gamefix_new(seed, (enum mapgen_kind)(seed % MAPGEN_COUNT));
	bot_reset(b, seed * 7919);
	c->labelled = NULL;
	check_world(c, g);
	return g;
}

struct mpos {
	ecs_entity e;
	int x, y;
};

/* g saved and loaded through the save file's bytes (save_encode and
 * save_decode): the same checksum, the same history; g is freed. */
static int monkey_loads;
static struct game *reloaded(struct game *g)
{
	struct serial_buf b = {0};
	struct game *h;
	char why[SAVE_WHY_MAX];
	assert_int_equal(save_encode(g, &b), 0);
	if (save_decode(b.data, b.len, &h, why, sizeof why))
		fail_msg("monkey: the save at turn %d is refused: %s", game_turn(g), why);
	free(b.data);
	assert_true(game_checksum(h) == game_checksum(g));
	const struct command *hg, *hh;
	assert_int_equal(game_history(h, &hh), game_history(g, &hg));
	assert_memory_equal(hh, hg, (size_t)game_history(g, &hg) * sizeof(*hg));
	game_destroy(g);
	monkey_loads++;
	return h;
}

static void test_monkey(void **state)
{
	(void)state;
	static struct bot b;
	static struct checker c;
	static struct mpos before[4096];
	uint64_t seed = 1;
	int games = 0, deaths = 0, max_depth = 0, kills_total = 0;
	for (int slot = 0; slot < SEEDS; slot++) {
		struct game *g = new_game(seed, &b, &c);
		games++;
		for (int turn = 0; turn < TURNS; turn++) {
			bool useless;
			enum cmd cmd = bot_pick(&b, g, &useless);
			int px, py, depth = game_depth(g), t0 = game_turn(g);
			game_player_pos(g, &px, &py);
			/* Where every monster of this floor stands before the turn. */
			int nb = 0;
			struct ecs_query q;
			ecs_query_init(&q, g->w, ECS_BIT(COMP_AI) | ECS_BIT(COMP_POS));
			for (ecs_entity e; ecs_query_next(&q, &e) && nb < 4096;) {
				const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
				if (p->floor == depth)
					before[nb++] = (struct mpos){e, p->x, p->y};
			}
			int cost;
			if (game_levelup_pending(g)) {
				struct command lv = {.c = CMD_LEVEL_UP, .item = -1, .x = -1, .y = -1,
						     .choice = rng_range(&b.r, 0, LEVELUP_COUNT - 1)};
				assert_int_equal(game_apply(g, cmd), 0);
				assert_int_equal(game_do(g, &lv), 0);
				assert_false(game_levelup_pending(g));
				cost = 0;
				useless = false;
			} else {
				cost = game_apply(g, cmd);
			}
			assert_int_equal(game_turn(g), t0 + cost);
			if (useless) {
				assert_int_equal(cost, 0);
				int x, y;
				game_player_pos(g, &x, &y);
				assert_int_equal(x, px);
				assert_int_equal(y, py);
			}
			/* Nothing moves more than one step a turn (the dead not at all). */
			for (int i = 0; i < nb; i++) {
				const struct c_pos *p = ecs_get(g->w, before[i].e, COMP_POS);
				assert_non_null(p);
				assert_int_equal(p->floor, depth);
				assert_true(abs(p->x - before[i].x) <= 1 && abs(p->y - before[i].y) <= 1);
				if (ecs_has(g->w, before[i].e, COMP_CORPSE)) {
					kills_total++;
					assert_true(p->x == before[i].x && p->y == before[i].y);
				}
			}
			check_world(&c, g);
			if (turn % 250 == 249 && !game_is_over(g)) {
				g = reloaded(g); /* saved and loaded every few hundred turns */
				b.map = NULL;    /* new floors: what the bot and checker */
				c.labelled = NULL; /* keep per floor pointer is stale */
			}
			if (game_depth(g) > max_depth)
				max_depth = game_depth(g);
			if (game_is_over(g)) {
				deaths++;
				assert_int_equal(game_apply(g, CMD_WAIT), 0);
				game_destroy(g);
				seed++;
				g = new_game(seed, &b, &c);
				games++;
			}
		}
		game_destroy(g);
		seed++;
	}
	free(c.keys);
	print_message("monkey: %d turns, %d games, %d deaths, deepest floor %d\n", SEEDS * TURNS, games, deaths,
		      max_depth);
	/* The bot really explored the game. */
	assert_true(deaths > 0);
	assert_true(max_depth >= 4);
	assert_true(kills_total > 0);
	assert_true(monkey_loads >= SEEDS * 10);
}

/* Same seed and commands: the same checksum after every command. */
static void run_recorded(uint64_t seed, enum mapgen_kind k, uint64_t *sums, int n)
{
	struct game *g = gamefix_new(seed, k);
	static struct bot b;
	bot_reset(&b, 4242);
	for (int i = 0; i < n; i++) {
		bool useless;
		game_apply(g, bot_pick(&b, g, &useless));
		sums[i] = game_checksum(g);
	}
	game_destroy(g);
}

static void test_determinism(void **state)
{
	(void)state;
	enum { N = 3000 };
	static uint64_t a[N], b[N], c[N];
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		run_recorded(31337, (enum mapgen_kind)k, a, N);
		run_recorded(31337, (enum mapgen_kind)k, b, N);
		assert_memory_equal(a, b, sizeof(a));
		run_recorded(31338, (enum mapgen_kind)k, c, N);
		assert_true(a[0] != c[0]);
	}
	/* Every command that costs a turn changes the state. */
	struct game *g = gamefix_new(3, MAPGEN_CLASSIC);
	uint64_t s0 = game_checksum(g);
	assert_int_equal(game_apply(g, CMD_WAIT), 1);
	assert_true(game_checksum(g) != s0);
	game_destroy(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_monkey),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
