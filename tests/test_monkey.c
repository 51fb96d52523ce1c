/* The monkey: a bot plays random legal commands for 10,000 turns on each of 20 seeds (MONKEY_SEEDS, MONKEY_TURNS: make soak), checking the world's invariants every turn and the heap flat between games; plus determinism. */
#include "gamefix.h"

#include <malloc.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "game/items.h"
#include "game/path.h"
#include "game/serial.h"
#include "save/save.h"

/* How long the monkey plays: 20 seeds of 10,000 turns in make test;
 * make soak sets MONKEY_SEEDS and MONKEY_TURNS for a long run (and
 * MONKEY_FIRST_SEED to start elsewhere). */
static int monkey_seeds = 20, monkey_turns = 10000;
static uint64_t monkey_first_seed = 1;
#define SEEDS monkey_seeds
#define TURNS monkey_turns

/* The heap's live bytes: the sanitizer's count under ASan, glibc's
 * otherwise. make soak checks they stay flat from game to game. */
size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));
static size_t live_bytes(void)
{
	if (__sanitizer_get_current_allocated_bytes)
		return __sanitizer_get_current_allocated_bytes();
	return mallinfo2().uordblks;
}

/* Live heap bytes after each seed's games, all destroyed. */
static size_t *mem_after;

static void mem_sample(int slot)
{
	if (mem_after)
		mem_after[slot] = live_bytes();
}

/* Flat: after the first tenth of the seeds (first-use buffers), the live
 * bytes between games never grow by more than 64 KiB. Checked with ASan's
 * exact count (make asan, make soak); glibc's also counts the freed chunks
 * its per-thread cache keeps, so there it is only printed. */
static void mem_check(void)
{
	if (!mem_after || SEEDS < 2)
		return;
	int from = SEEDS / 10;
	size_t lo = mem_after[from], hi = lo;
	for (int i = from; i < SEEDS; i++) {
		lo = mem_after[i] < lo ? mem_after[i] : lo;
		hi = mem_after[i] > hi ? mem_after[i] : hi;
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	print_message("monkey: live heap between games: %zu bytes after seed %d, %zu after the last; "
		      "range %zu..%zu over seeds %d..%d; peak RSS %ld KiB%s\n",
		      mem_after[0], 1, mem_after[SEEDS - 1], lo, hi, from + 1, SEEDS, ru.ru_maxrss,
		      __sanitizer_get_current_allocated_bytes ? " (ASan's count: checked flat)"
							      : " (glibc's count, with its caches: not checked)");
	if (__sanitizer_get_current_allocated_bytes)
		assert_true(hi - lo <= 64 * 1024);
}

static int env_int(const char *name, int def, int lo, int hi)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return def;
	char *end;
	long v = strtol(s, &end, 10);
	if (*end || v < lo || v > hi) {
		fprintf(stderr, "%s=%s: expected an integer from %d to %d\n", name, s, lo, hi);
		exit(2);
	}
	return (int)v;
}

static const int dx8[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int dy8[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
static const enum cmd move8[8] = {CMD_MOVE_N, CMD_MOVE_NE, CMD_MOVE_E, CMD_MOVE_SE,
				  CMD_MOVE_S, CMD_MOVE_SW, CMD_MOVE_W, CMD_MOVE_NW};

/* The bot: walks to the down stairs most of the time (so it goes deep and
 * meets trolls), wanders otherwise, takes stairs both ways now and then,
 * picks up what it stands on, drinks when hurt, reads scrolls at monsters
 * (and sometimes at nothing, to be refused), toggles and drops equipment,
 * auto-explores, levels up with every choice in turn, and sometimes presses
 * something useless. */
struct bot {
	struct rng r;
	int depth;
	const struct map *map;
	uint8_t cost[WORLD_CELLS];
	uint16_t to_down[WORLD_CELLS];
	int next_choice;      /* level-up choices in turn */
	int levelups;         /* counters over every game (they steer nothing) */
	int uses[ITEM_COUNT]; /* accepted uses by kind */
	int found[ITEM_COUNT]; /* carried at some time, by kind */
	int refused, equips, drops, explores;
};

/* The bot starts afresh, its own generator seeded with seed. */
static void bot_reset(struct bot *b, uint64_t seed)
{
	rng_seed(&b->r, seed);
	b->depth = 0;
	b->map = NULL;
	b->next_choice = 0;
}

static struct command plain(enum cmd c)
{
	return (struct command){.c = c, .item = -1, .x = -1, .y = -1, .choice = -1};
}

/* What the bot chose and what it expects. */
struct pick {
	struct command cmd;
	bool useless; /* must cost nothing and leave the player where he is */
	bool refused; /* game_target_check said no: must cost nothing, log why */
	char why[120];
};

/* A carried item of kind (any of kinds when kind < 0: random), or -1. */
static int find_item(struct bot *b, const struct game_item_view *v, int n, int kind)
{
	if (n == 0)
		return -1;
	if (kind < 0)
		return v[rng_range(&b->r, 0, n - 1)].slot;
	for (int i = 0; i < n; i++)
		if (v[i].kind == kind)
			return v[i].slot;
	return -1;
}

/* A use of an item: targeted ones at the nearest monster, or at a random
 * cell near the player (often refused, that is the point). */
static void use_item(struct bot *b, const struct game *g, int slot, const struct game_item_view *v, int n,
		     struct pick *p)
{
	int px, py, mx, my;
	game_player_pos(g, &px, &py);
	p->cmd = (struct command){.c = CMD_USE, .item = slot, .x = -1, .y = -1, .choice = -1};
	enum target_kind t = TARGET_NONE;
	for (int i = 0; i < n; i++)
		if (v[i].slot == slot)
			t = v[i].target;
	if (t != TARGET_NONE) {
		if (game_nearest_monster(g, &mx, &my) == 0 && rng_range(&b->r, 0, 3)) {
			p->cmd.x = mx;
			p->cmd.y = my;
		} else {
			p->cmd.x = px + rng_range(&b->r, -10, 10);
			p->cmd.y = py + rng_range(&b->r, -10, 10);
		}
	}
	p->refused = game_target_check(g, slot, p->cmd.x, p->cmd.y, p->why, sizeof(p->why)) != 0;
}

static struct pick bot_pick(struct bot *b, const struct game *g)
{
	struct pick p = {.cmd = plain(CMD_WAIT)};
	const struct map *m = game_map(g);
	int x, y;
	game_player_pos(g, &x, &y);
	if (b->depth != game_depth(g) || b->map != m) {
		b->depth = game_depth(g);
		b->map = m;
		for (int i = 0; i < WORLD_CELLS; i++)
			b->cost[i] = m->tile[i] != TILE_WALL;
		path_dijkstra(b->cost, MAP_W, MAP_H, m->down_x, m->down_y, b->to_down);
	}
	if (game_levelup_pending(g)) {
		p.cmd = plain(CMD_LEVEL_UP);
		p.cmd.choice = b->next_choice++ % LEVELUP_COUNT;
		b->levelups++;
		return p;
	}
	struct game_item_view v[INVENTORY_SLOTS];
	int n = game_inventory(g, v, INVENTORY_SLOTS);
	for (int i = 0; i < n; i++)
		b->found[v[i].kind]++;
	struct game_stats s;
	game_stats(g, &s);
	int roll = rng_range(&b->r, 0, 99);
	char buf[160];
	const char *here = game_describe(g, x, y, buf, sizeof(buf));
	if (here && strcmp(here, "you") != 0 && roll < 90 && !strstr(here, "remains"))
		return (struct pick){.cmd = plain(CMD_PICKUP)};
	int potion = find_item(b, v, n, ITEM_HEALTH_POTION);
	if (s.hp * 2 < s.max_hp && potion >= 0 && roll < 90) {
		use_item(b, g, potion, v, n, &p);
		return p;
	}
	/* Wear the best weapon and armour carried (the sword and chain mail
	 * come after the dagger and leather in the item table). */
	for (int k = ITEM_COUNT - 1; k >= 0 && roll < 70; k--) {
		if (content_items[k].effect != EFFECT_EQUIP)
			continue;
		int slot = find_item(b, v, n, k);
		int worn = -1;
		for (int i = 0; i < n; i++)
			if (v[i].equipped && content_items[v[i].kind].slot == content_items[k].slot)
				worn = v[i].kind;
		if (slot >= 0 && (worn < 0 || worn < k)) {
			use_item(b, g, slot, v, n, &p);
			return p;
		}
	}
	int mx, my;
	bool seen = game_nearest_monster(g, &mx, &my) == 0;
	if (seen && roll < 60 && n > 0) {
		static const int scrolls[] = {ITEM_LIGHTNING_SCROLL, ITEM_CONFUSION_SCROLL, ITEM_PARALYSIS_SCROLL,
					      ITEM_FIREBALL_SCROLL};
		int slot = find_item(b, v, n, scrolls[rng_range(&b->r, 0, 3)]);
		if (slot >= 0) {
			use_item(b, g, slot, v, n, &p);
			return p;
		}
	}
	if (seen && roll < 85 && abs(mx - x) <= 1 && abs(my - y) <= 1) {
		for (int d = 0; d < 8; d++)
			if (x + dx8[d] == mx && y + dy8[d] == my)
				return (struct pick){.cmd = plain(move8[d])};
	}
	if (roll < 2 && n > 0) { /* any item, anywhere: equipment toggles, refusals */
		use_item(b, g, find_item(b, v, n, -1), v, n, &p);
		b->equips++;
		return p;
	}
	if (roll == 2 && n > 0 && rng_range(&b->r, 0, 3) == 0) {
		p.cmd = plain(CMD_DROP);
		p.cmd.item = find_item(b, v, n, -1);
		b->drops++;
		return p;
	}
	enum tile t = map_tile(m, x, y);
	if (t == TILE_STAIRS_DOWN && roll < 50)
		return (struct pick){.cmd = plain(CMD_DESCEND)};
	if (t == TILE_STAIRS_UP && roll < 15)
		return (struct pick){.cmd = plain(CMD_ASCEND)};
	if (roll < 8) {
		p.useless = true;
		if (roll == 7) { /* an empty or impossible slot */
			p.cmd = plain(rng_range(&b->r, 0, 1) ? CMD_USE : CMD_DROP);
			p.cmd.item = rng_range(&b->r, 0, 1) ? -1 : INVENTORY_SLOTS;
			for (int sl = INVENTORY_SLOTS - 1; sl >= 0; sl--)
				if (items_in_slot(g, sl) == ECS_NULL)
					p.cmd.item = sl;
			return p;
		}
		if (roll < 6) {
			static const enum cmd free_cmds[] = {CMD_NONE, CMD_LEVEL_UP, CMD_COUNT};
			p.cmd = plain(free_cmds[roll % 3]);
			return p;
		}
		/* Into a wall if there is one next to the player. */
		for (int d = 0; d < 8; d++)
			if (!map_walkable(m, x + dx8[d], y + dy8[d]))
				return (struct pick){.cmd = plain(move8[d]), .useless = true};
		return (struct pick){.cmd = plain(CMD_NONE), .useless = true};
	}
	if (roll < 20) {
		struct command step;
		char why[80];
		if (game_explore_step(g, &step, why, sizeof(why))) {
			b->explores++;
			return (struct pick){.cmd = step};
		}
	}
	if (roll < 85) {
		int nx, ny;
		if (path_step(b->to_down, b->cost, MAP_W, MAP_H, x, y, &nx, &ny) == 0)
			for (int d = 0; d < 8; d++)
				if (x + dx8[d] == nx && y + dy8[d] == ny)
					return (struct pick){.cmd = plain(move8[d])};
	}
	if (roll < 88)
		return p;
	int start = rng_range(&b->r, 0, 7);
	for (int k = 0; k < 8; k++) {
		int d = (start + k) % 8;
		if (map_walkable(m, x + dx8[d], y + dy8[d]))
			return (struct pick){.cmd = plain(move8[d])};
	}
	return p;
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

	/* What the player remembers is up to date (world_update_memory walks
	 * only when something may change): every corpse and item of this floor
	 * in view is remembered where it lies (an item: seen), and none is
	 * remembered at a cell in view where it does not lie. */
	struct ecs_query mq;
	ecs_query_init(&mq, g->w, ECS_BIT(COMP_POS) | ECS_BIT(COMP_MEMORY));
	for (ecs_entity e; ecs_query_next(&mq, &e);) {
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		const struct c_memory *mem = ecs_get(g->w, e, COMP_MEMORY);
		const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
		if (p->floor != g->depth)
			continue;
		if (world_visible(g, p->x, p->y)) {
			assert_true(mem->known && mem->x == p->x && mem->y == p->y);
			assert_true(!it || it->seen);
		} else if (mem->known) {
			assert_false(world_visible(g, mem->x, mem->y));
		}
	}

	/* The list of the floor's entities, when at hand, is exactly those of
	 * COMP_POS's pool on this floor, in pool order, with their looks',
	 * memories', fighters', items', minds' and corpses' places in those
	 * pools (world_here). */
	const struct world_here *here = world_here(g);
	if (here) {
		const ecs_entity *pents, *unused;
		const void *pdata, *rdata, *mdata;
		uint32_t np = ecs_pool_view(g->w, COMP_POS, &pents, &pdata), k = 0;
		(void)ecs_pool_view(g->w, COMP_RENDER, &unused, &rdata);
		(void)ecs_pool_view(g->w, COMP_MEMORY, &unused, &mdata);
		const struct c_pos *hp = pdata;
		for (uint32_t i = 0; i < np; i++)
			if (hp[i].floor == g->depth) {
				assert_true(k < here->n);
				assert_int_equal(here->pos[k], i);
				const struct c_render *r = ecs_get(g->w, pents[i], COMP_RENDER);
				const struct c_memory *mem = ecs_get(g->w, pents[i], COMP_MEMORY);
				assert_true(r ? here->render[k] != WORLD_HERE_NONE && (const struct c_render *)rdata + here->render[k] == r
					      : here->render[k] == WORLD_HERE_NONE);
				assert_true(mem ? here->memory[k] != WORLD_HERE_NONE && (const struct c_memory *)mdata + here->memory[k] == mem
						: here->memory[k] == WORLD_HERE_NONE);
				/* the other parts: each at its place in its pool, or none */
				static const int comps[] = { COMP_ACTOR, COMP_ITEM, COMP_AI, COMP_CORPSE };
				const uint32_t *at[] = { here->actor, here->item, here->ai, here->corpse };
				for (int ci = 0; ci < 4; ci++) {
					const void *cdata;
					(void)ecs_pool_view(g->w, comps[ci], &unused, &cdata);
					const unsigned char *got = ecs_get(g->w, pents[i], comps[ci]);
					size_t sz = ecs_component_size(g->w, comps[ci]);
					assert_true(got ? at[ci][k] != WORLD_HERE_NONE &&
							      (const unsigned char *)cdata + (size_t)at[ci][k] * sz == got
							: at[ci][k] == WORLD_HERE_NONE);
				}
				k++;
			}
		assert_int_equal(k, here->n);
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
	assert_true(s.power >= s.base_power && s.defense >= s.base_defense);

	/* Items: each carried one in exactly one inventory slot and on no
	 * floor; equipped ones carried, in their own slot kind; every item is
	 * either carried or on a floor. */
	const struct c_inventory *inv = ecs_get(g->w, g->player, COMP_INVENTORY);
	const struct c_equipment *eq = ecs_get(g->w, g->player, COMP_EQUIPMENT);
	assert_non_null(inv);
	assert_non_null(eq);
	int carried = 0;
	for (int i = 0; i < INVENTORY_SLOTS; i++) {
		ecs_entity e = inv->slot[i];
		if (e == ECS_NULL)
			continue;
		carried++;
		assert_true(ecs_has(g->w, e, COMP_ITEM));
		assert_false(ecs_has(g->w, e, COMP_POS));
		for (int j = i + 1; j < INVENTORY_SLOTS; j++)
			assert_true(inv->slot[j] != e);
	}
	assert_int_equal(carried, inv->count);
	for (int k = 0; k < EQUIP_SLOT_COUNT; k++) {
		if (eq->slot[k] == ECS_NULL)
			continue;
		bool in = false;
		for (int i = 0; i < INVENTORY_SLOTS; i++)
			in |= inv->slot[i] == eq->slot[k];
		assert_true(in);
		const struct c_equippable *ep = ecs_get(g->w, eq->slot[k], COMP_EQUIPPABLE);
		assert_non_null(ep);
		assert_int_equal(ep->slot, k);
	}
	int on_floor = 0;
	struct ecs_query iq;
	ecs_query_init(&iq, g->w, ECS_BIT(COMP_ITEM));
	for (ecs_entity e; ecs_query_next(&iq, &e);) {
		if (ecs_has(g->w, e, COMP_POS))
			on_floor++;
		assert_false(ecs_has(g->w, e, COMP_ACTOR) || ecs_has(g->w, e, COMP_BLOCKS));
	}
	assert_int_equal((int)ecs_pool_count(g->w, COMP_ITEM), on_floor + carried);
	assert_int_equal(game_inventory(g, (struct game_item_view[INVENTORY_SLOTS]){0}, INVENTORY_SLOTS), carried);
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
	gamefix_same_history(h, g);
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
	uint64_t seed = monkey_first_seed;
	int games = 0, deaths = 0, max_depth = 0, kills_total = 0;
	for (int slot = 0; slot < SEEDS; slot++) {
		struct game *g = new_game(seed, &b, &c);
		games++;
		for (int turn = 0; turn < TURNS; turn++) {
			struct pick pk = bot_pick(&b, g);
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
			bool pending = game_levelup_pending(g);
			int kind = -1;
			if (pk.cmd.c == CMD_USE && items_in_slot(g, pk.cmd.item) != ECS_NULL)
				kind = ((const struct c_item *)ecs_get(g->w, items_in_slot(g, pk.cmd.item), COMP_ITEM))->kind;
			bool nothing_to_choose = pk.cmd.c == CMD_LEVEL_UP && !pending;
			uint64_t sum0 = nothing_to_choose ? game_checksum(g) : 0;
			int cost = game_do(g, &pk.cmd);
			assert_int_equal(game_turn(g), t0 + cost);
			if (pending) {
				assert_int_equal(pk.cmd.c, CMD_LEVEL_UP);
				assert_int_equal(cost, 0);
			}
			if (pk.useless || pk.refused) {
				assert_int_equal(cost, 0);
				int x, y;
				game_player_pos(g, &x, &y);
				assert_int_equal(x, px);
				assert_int_equal(y, py);
			}
			if (pk.refused) {
				b.refused++;
				assert_string_equal(game_msg_get(g, game_msg_count(g) - 1)->text, pk.why);
			} else if (pk.cmd.c == CMD_USE && kind >= 0) {
				assert_int_equal(cost, 1);
				b.uses[kind]++;
			}
			if (nothing_to_choose) /* nothing happens */
				assert_true(game_checksum(g) == sum0);
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
		mem_sample(slot);
	}
	free(c.keys);
	mem_check();
	print_message("monkey: %lld turns, %d games, %d deaths, deepest floor %d, %d level-ups, %d refusals, "
		      "%d equipment uses, %d drops, %d explore steps\n",
		      (long long)SEEDS * TURNS, games, deaths, max_depth, b.levelups, b.refused, b.equips, b.drops, b.explores);
	for (int k = 0; k < ITEM_COUNT; k++)
		print_message("monkey: %s used %d times\n", content_item_name(k), b.uses[k]);
	/* The bot really explored the game, and every item. */
	assert_true(deaths > 0);
	assert_true(max_depth >= 6);
	assert_true(kills_total > 0);
	assert_true(monkey_loads >= SEEDS * 10);
	assert_true(b.levelups >= LEVELUP_COUNT);
	assert_true(b.refused > 0 && b.drops > 0 && b.explores > 0);
	/* Every kind it ever carried it also used (the deepest kinds may not
	 * be found: tests/test_items.c and the recordings cover them), and it
	 * found most kinds. */
	int kinds = 0;
	for (int k = 0; k < ITEM_COUNT; k++) {
		if (b.found[k])
			assert_true(b.uses[k] > 0);
		kinds += b.found[k] > 0;
	}
	assert_true(kinds >= ITEM_COUNT - 2);
}

/* Same seed and commands: the same checksum after every command. */
static void run_recorded(uint64_t seed, enum mapgen_kind k, uint64_t *sums, int n)
{
	struct game *g = gamefix_new(seed, k);
	static struct bot b;
	bot_reset(&b, 4242);
	for (int i = 0; i < n; i++) {
		struct pick pk = bot_pick(&b, g);
		game_do(g, &pk.cmd);
		sums[i] = game_checksum(g);
	}
	game_destroy(g);
}

/* The floor's list (world_here) is dropped when an entity gains or loses
 * any of the parts it holds the places of, each alone, and made again by
 * the next view: the places game_drawables reads never go stale. */
static void test_here_follows_each_part(void **state)
{
	(void)state;
	struct game *g = gamefix_new(5, MAPGEN_CLASSIC);
	world_refresh_view(g);
	assert_non_null(world_here(g));
	static const int comps[] = { COMP_POS, COMP_RENDER, COMP_MEMORY, COMP_ACTOR, COMP_ITEM, COMP_AI, COMP_CORPSE };
	for (int twice = 0; twice < 2; twice++)
		for (size_t ci = 0; ci < sizeof comps / sizeof comps[0]; ci++) {
			int c = comps[ci];
			if (c == COMP_POS)
				continue; /* (the player keeps his place) */
			ecs_entity p = g->player;
			if (ecs_get(g->w, p, c))
				assert_int_equal(ecs_remove(g->w, p, c), 0);
			else
				assert_non_null(ecs_add(g->w, p, c, NULL));
			assert_null(world_here(g));
			world_refresh_view(g);
			assert_non_null(world_here(g));
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
	monkey_seeds = env_int("MONKEY_SEEDS", monkey_seeds, 1, 1000000);
	monkey_turns = env_int("MONKEY_TURNS", monkey_turns, 1, 100000000);
	monkey_first_seed = (uint64_t)env_int("MONKEY_FIRST_SEED", 1, 1, 1000000000);
	mem_after = calloc((size_t)monkey_seeds, sizeof *mem_after);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_here_follows_each_part),
		cmocka_unit_test(test_monkey),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	free(mem_after);
	return rc;
}
