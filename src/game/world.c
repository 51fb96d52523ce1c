/* world: game state storage, floors, spawning, occupancy, view memory and the log. */
#include "game/world.h"
#include "game/digest.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"

static const size_t comp_sizes[COMP_COUNT] = {
	[COMP_POS] = sizeof(struct c_pos),
	[COMP_RENDER] = sizeof(struct c_render),
	[COMP_NAME] = sizeof(struct c_name),
	[COMP_ACTOR] = sizeof(struct c_actor),
	[COMP_AI] = sizeof(struct c_ai),
	[COMP_BLOCKS] = sizeof(struct c_blocks),
	[COMP_CORPSE] = sizeof(struct c_corpse),
	[COMP_XP] = sizeof(struct c_xp),
	[COMP_PLAYER] = sizeof(struct c_player),
	[COMP_MEMORY] = sizeof(struct c_memory),
	[COMP_ITEM] = sizeof(struct c_item),
	[COMP_INVENTORY] = sizeof(struct c_inventory),
	[COMP_EQUIPPABLE] = sizeof(struct c_equippable),
	[COMP_EQUIPMENT] = sizeof(struct c_equipment),
	[COMP_STACK] = sizeof(struct c_stack),
	[COMP_DROPPED] = sizeof(struct c_dropped),
};

int world_create(struct game **out, uint64_t seed, enum mapgen_kind k)
{
	struct game *g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	int rc = ecs_world_create(&g->w);
	if (rc || (rc = digest_cache_create(&g->dig)))
		goto fail;
	for (int c = 0; c < COMP_COUNT; c++) {
		rc = ecs_register(g->w, comp_sizes[c]);
		if (rc != c) {
			rc = rc < 0 ? rc : -EINVAL;
			goto fail;
		}
	}
	g->seed = seed;
	g->mapgen = k;
	g->map_w = MAP_W;
	g->map_h = MAP_H;
	rng_seed(&g->rng, seed);
	g->depth = 1;
	g->events.acked = -1;
	*out = g;
	return 0;
fail:
	world_destroy(g);
	return rc;
}

void world_destroy(struct game *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->nfloors; i++)
		free(g->floors[i]);
	free(g->floors);
	hist_free(&g->hist);
	ecs_world_destroy(g->w);
	digest_cache_destroy(g->dig);
	free(g);
}

int world_generate_floor(struct game *g, int depth)
{
	if (depth != g->nfloors + 1)
		return -EINVAL;
	if (g->nfloors == g->capfloors) {
		int nc = g->capfloors ? g->capfloors * 2 : 8;
		struct map **f = realloc(g->floors, (size_t)nc * sizeof(*f));
		if (!f)
			return -ENOMEM;
		g->floors = f;
		g->capfloors = nc;
	}
	struct map *m = malloc(sizeof(*m));
	if (!m)
		return -ENOMEM;
	int rc = mapgen_generate_size(m, g->mapgen, depth, g->map_w, g->map_h, &g->rng);
	if (rc) {
		log_error("game: generating floor %d failed: %s", depth, strerror(-rc));
		free(m);
		return rc;
	}
	g->floors[g->nfloors++] = m;
	int sx, sy;
	map_start(m, &sx, &sy);
	world_populate(g, depth, sx, sy);
	/* every monster may become a corpse: room for them now, so deaths
	 * allocate nothing in play */
	(void)ecs_reserve(g->w, COMP_CORPSE, ecs_pool_count(g->w, COMP_CORPSE) + ecs_pool_count(g->w, COMP_AI));
	return 0;
}

/* Bit i of bits: cell i (y * map_w + x) of a floor. */
#define CELL_WORDS ((WORLD_CELLS + 63) / 64)
static inline bool cell_bit(const uint64_t *bits, int i)
{
	return bits[i / 64] >> (i % 64) & 1;
}
static inline void cell_set(uint64_t *bits, int i)
{
	bits[i / 64] |= (uint64_t)1 << (i % 64);
}

/* The cells of floor `floor` holding a blocker (what world_blocker_at
 * finds there on a floor other than the current one) into blk, and those
 * holding an item (world_item_at) into itm: one walk over the positions
 * instead of one per question. */
static void floor_cells(const struct game *g, int floor, uint64_t *blk, uint64_t *itm)
{
	memset(blk, 0, CELL_WORDS * sizeof(blk[0]));
	memset(itm, 0, CELL_WORDS * sizeof(itm[0]));
	const ecs_entity *ents;
	const void *data;
	uint32_t n = ecs_pool_view(g->w, COMP_POS, &ents, &data);
	const struct c_pos *pos = data;
	for (uint32_t i = 0; i < n; i++) {
		if (pos[i].floor != floor || !world_on_floor(g, pos[i].x, pos[i].y))
			continue;
		uint32_t mk = ecs_mask(g->w, ents[i]);
		int c = pos[i].y * g->map_w + pos[i].x;
		if (mk & ECS_BIT(COMP_BLOCKS))
			cell_set(blk, c);
		if (mk & ECS_BIT(COMP_ITEM))
			cell_set(itm, c);
	}
}

void world_populate(struct game *g, int depth, int avoid_x, int avoid_y)
{
	const struct map *m = world_floor(g, depth);
	/* who stands and what lies where on the floor, kept as spawned: the
	 * current floor's blockers are asked of its occupancy as before */
	uint64_t blk[CELL_WORDS], itm[CELL_WORDS];
	const bool here = depth == g->depth;
	floor_cells(g, depth, blk, itm);
	int weights[ACTOR_COUNT];
	for (int k = 0; k < ACTOR_COUNT; k++)
		weights[k] = content_floor_value(&content_monster_weight[k], depth);
	int max = content_floor_value(&content_max_monsters_per_room, depth);
	int iweights[ITEM_COUNT];
	for (int k = 0; k < ITEM_COUNT; k++)
		iweights[k] = content_floor_value(&content_items[k].weight, depth);
	int max_items = content_floor_value(&content_max_items_per_room, depth);
	for (int r = 0; r < m->nrooms; r++) {
		const struct room *room = &m->rooms[r];
		int n = rng_range(&g->rng, 0, max);
		for (int i = 0; i < n; i++) {
			int x = rng_range(&g->rng, room->x, room->x + room->w - 1);
			int y = rng_range(&g->rng, room->y, room->y + room->h - 1);
			int kind = rng_weighted(&g->rng, weights, ACTOR_COUNT);
			if (kind <= ACTOR_PLAYER)
				continue;
			/* A taken cell loses its monster (as in the tutorials). */
			if (!map_walkable(m, x, y) || map_tile(m, x, y) != TILE_FLOOR)
				continue;
			if ((x == avoid_x && y == avoid_y) ||
			    (here ? world_blocker_at(g, depth, x, y) != ECS_NULL : cell_bit(blk, y * g->map_w + x)))
				continue;
			if (world_spawn_actor(g, (enum actor_kind)kind, depth, x, y, NULL) == 0)
				cell_set(blk, y * g->map_w + x);
		}
		int ni = rng_range(&g->rng, 0, max_items);
		for (int i = 0; i < ni; i++) {
			int x = rng_range(&g->rng, room->x, room->x + room->w - 1);
			int y = rng_range(&g->rng, room->y, room->y + room->h - 1);
			int kind = rng_weighted(&g->rng, iweights, ITEM_COUNT);
			if (kind < 0 || !map_walkable(m, x, y) || map_tile(m, x, y) != TILE_FLOOR)
				continue;
			if ((x == avoid_x && y == avoid_y) ||
			    (here ? world_blocker_at(g, depth, x, y) != ECS_NULL : cell_bit(blk, y * g->map_w + x)) ||
			    cell_bit(itm, y * g->map_w + x))
				continue;
			if (world_spawn_item(g, kind, depth, x, y, NULL) == 0)
				cell_set(itm, y * g->map_w + x);
		}
	}
}

/* Creates an entity at (x, y) of floor with its look and name (what every
 * spawned thing has). Returns 0 or -errno (then nothing is left). */
static int spawn_base(struct game *g, int floor, int x, int y, uint32_t glyph, uint32_t fg, int order,
		      const char *name, ecs_entity *out)
{
	ecs_entity e;
	int rc = ecs_create(g->w, &e);
	if (rc)
		return rc;
	struct c_pos pos = {.x = x, .y = y, .floor = floor};
	struct c_render ren = {.glyph = glyph, .fg = fg, .order = order};
	struct c_name nm = {{0}};
	snprintf(nm.s, sizeof(nm.s), "%s", name);
	if (!ecs_add(g->w, e, COMP_POS, &pos) || !ecs_add(g->w, e, COMP_RENDER, &ren) ||
	    !ecs_add(g->w, e, COMP_NAME, &nm)) {
		ecs_destroy(g->w, e);
		return -ENOMEM;
	}
	*out = e;
	return 0;
}

int world_spawn_item(struct game *g, int kind, int floor, int x, int y, ecs_entity *out)
{
	if (kind < 0 || kind >= ITEM_COUNT)
		return -EINVAL;
	const struct item_def *d = &content_items[kind];
	ecs_entity e;
	int rc = spawn_base(g, floor, x, y, d->glyph, d->fg, GAME_ORDER_ITEM, d->name, &e);
	if (rc)
		return rc;
	struct c_item it = {.kind = kind};
	bool ok = ecs_add(g->w, e, COMP_ITEM, &it) && ecs_add(g->w, e, COMP_MEMORY, NULL);
	if (ok && d->effect == EFFECT_EQUIP) {
		struct c_equippable eq = {.slot = d->slot, .power_bonus = d->power_bonus,
					  .defense_bonus = d->defense_bonus};
		ok = ecs_add(g->w, e, COMP_EQUIPPABLE, &eq) != NULL;
	}
	if (!ok) {
		ecs_destroy(g->w, e);
		return -ENOMEM;
	}
	if (out)
		*out = e;
	return 0;
}

ecs_entity world_item_at(const struct game *g, int floor, int x, int y)
{
	ecs_entity found = ECS_NULL;
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_POS) | ECS_BIT(COMP_ITEM));
	for (ecs_entity e; ecs_query_next(&q, &e);) {
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		if (p->floor == floor && p->x == x && p->y == y &&
		    (found == ECS_NULL || ECS_INDEX(e) < ECS_INDEX(found)))
			found = e;
	}
	return found;
}

void world_clear_items(struct game *g, int floor)
{
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_POS) | ECS_BIT(COMP_ITEM));
	for (ecs_entity e; ecs_query_next(&q, &e);) {
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		if (p->floor == floor)
			ecs_destroy(g->w, e);
	}
}

int world_spawn_actor(struct game *g, enum actor_kind kind, int floor, int x, int y, ecs_entity *out)
{
	const struct actor_def *d = &content_actors[kind];
	ecs_entity e;
	int rc = spawn_base(g, floor, x, y, d->glyph, d->fg, GAME_ORDER_ACTOR, d->name, &e);
	if (rc)
		return rc;
	struct c_actor act = {.kind = kind, .hp = d->hp, .max_hp = d->hp, .power = d->power, .defense = d->defense};
	struct c_blocks blk = {.on = 1};
	bool ok = ecs_add(g->w, e, COMP_ACTOR, &act) && ecs_add(g->w, e, COMP_BLOCKS, &blk);
	if (ok && kind == ACTOR_PLAYER) {
		struct c_player pl = {.level = content_rules.start_level, .xp = 0};
		ok = ecs_add(g->w, e, COMP_PLAYER, &pl) && ecs_add(g->w, e, COMP_INVENTORY, NULL) &&
		     ecs_add(g->w, e, COMP_EQUIPMENT, NULL);
		if (ok)
			g->player = e;
	} else if (ok) {
		struct c_ai ai = {.state = AI_IDLE, .last_x = -1, .last_y = -1};
		struct c_xp xp = {.value = d->xp};
		ok = ecs_add(g->w, e, COMP_AI, &ai) && ecs_add(g->w, e, COMP_XP, &xp);
	}
	if (!ok) {
		ecs_destroy(g->w, e);
		return -ENOMEM;
	}
	if (floor == g->depth && world_on_floor(g, x, y))
		g->occ[y * g->map_w + x] = e;
	if (out)
		*out = e;
	return 0;
}

void world_clear_monsters(struct game *g, int floor)
{
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_POS));
	for (ecs_entity e; ecs_query_next(&q, &e);) {
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		if (p->floor == floor && e != g->player &&
		    (ecs_has(g->w, e, COMP_AI) || ecs_has(g->w, e, COMP_CORPSE)))
			ecs_destroy(g->w, e);
	}
	world_rebuild_occ(g);
}

ecs_entity world_blocker_at(const struct game *g, int floor, int x, int y)
{
	if (!world_on_floor(g, x, y))
		return ECS_NULL;
	if (floor == g->depth) {
		ecs_entity e = g->occ[y * g->map_w + x];
		return ecs_alive(g->w, e) ? e : ECS_NULL;
	}
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_POS) | ECS_BIT(COMP_BLOCKS));
	for (ecs_entity e; ecs_query_next(&q, &e);) {
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		if (p->floor == floor && p->x == x && p->y == y)
			return e;
	}
	return ECS_NULL;
}

bool world_on_floor(const struct game *g, int x, int y)
{
	return x >= 0 && y >= 0 && x < g->map_w && y < g->map_h;
}

void world_move(struct game *g, ecs_entity e, int x, int y)
{
	struct c_pos *p = ecs_get_mut(g->w, e, COMP_POS);
	if (!p)
		return;
	if (ecs_has(g->w, e, COMP_BLOCKS)) {
		world_move_pos(g, e, p, x, y);
	} else {
		p->x = x;
		p->y = y;
	}
}

void world_move_pos(struct game *g, ecs_entity e, struct c_pos *p, int x, int y)
{
	bool here = p->floor == g->depth;
	if (here && g->occ[p->y * g->map_w + p->x] == e)
		g->occ[p->y * g->map_w + p->x] = ECS_NULL;
	p->x = x;
	p->y = y;
	if (here)
		g->occ[y * g->map_w + x] = e;
}

void world_unblock(struct game *g, ecs_entity e)
{
	const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
	if (p && p->floor == g->depth && world_on_floor(g, p->x, p->y) && g->occ[p->y * g->map_w + p->x] == e)
		g->occ[p->y * g->map_w + p->x] = ECS_NULL;
	ecs_remove(g->w, e, COMP_BLOCKS);
}

void world_put_player(struct game *g, int depth, int x, int y)
{
	struct c_pos *p = ecs_get_mut(g->w, g->player, COMP_POS);
	p->floor = depth;
	p->x = x;
	p->y = y;
	g->depth = depth;
	world_rebuild_occ(g);
	(void)hist_reserve(&g->hist, HIST_RESERVE); /* a failure: hist_add grows it later or says so */
}

void world_rebuild_occ(struct game *g)
{
	memset(g->occ, 0, (size_t)g->map_w * (size_t)g->map_h * sizeof(g->occ[0]));
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_POS) | ECS_BIT(COMP_BLOCKS));
	for (ecs_entity e; ecs_query_next(&q, &e);) {
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		if (p->floor == g->depth && world_on_floor(g, p->x, p->y))
			g->occ[p->y * g->map_w + p->x] = e;
	}
}

/* The pools whose members the floor's list (struct world_here) holds. */
#define WORLD_HERE_POOLS                                                                                   \
	(ECS_BIT(COMP_POS) | ECS_BIT(COMP_RENDER) | ECS_BIT(COMP_MEMORY) | ECS_BIT(COMP_ACTOR) |          \
	 ECS_BIT(COMP_ITEM) | ECS_BIT(COMP_AI) | ECS_BIT(COMP_CORPSE))
/* The pools whose members world_update_memory's memo (struct world_memo)
 * depends on. */
#define WORLD_MEMO_POOLS (ECS_BIT(COMP_POS) | ECS_BIT(COMP_MEMORY) | ECS_BIT(COMP_ITEM))
_Static_assert(WORLD_HERE_NONE == UINT32_MAX, "ecs_index's none is the list's");

/* The index of e's component c in its pool, or WORLD_HERE_NONE. */
static uint32_t pool_index(const struct game *g, ecs_entity e, uint32_t mask, int c)
{
	if (!(mask & ECS_BIT(c))) /* (e's parts, looked up once: no call for a part it lacks) */
		return WORLD_HERE_NONE;
	return ecs_index(g->w, e, c);
}

/* The key of place j of h for its drawing order (world_draw_key; without a
 * look, after every key a look has). */
static uint64_t here_key(const struct game *g, const struct world_here *h, const ecs_entity *ents,
			 const struct c_render *looks, uint32_t j)
{
	ecs_entity e = ents[h->pos[j]];
	return h->render[j] == WORLD_HERE_NONE ? UINT64_MAX - ECS_INDEX(e) : world_draw_key(g, e, &looks[h->render[j]]);
}

/* Sifts place `at` of the heap draw[0..n) down (the largest key on top). */
static void sift_down(const struct game *g, struct world_here *h, const ecs_entity *ents, const struct c_render *looks,
		      uint32_t at, uint32_t n)
{
	uint32_t v = h->draw[at];
	uint64_t kv = here_key(g, h, ents, looks, v);
	for (;;) {
		uint32_t c = 2 * at + 1;
		if (c >= n)
			break;
		uint64_t kc = here_key(g, h, ents, looks, h->draw[c]);
		if (c + 1 < n) {
			uint64_t k2 = here_key(g, h, ents, looks, h->draw[c + 1]);
			if (k2 > kc) {
				c++;
				kc = k2;
			}
		}
		if (kc <= kv)
			break;
		h->draw[at] = h->draw[c];
		at = c;
	}
	h->draw[at] = v;
}

/* h->draw: the list's places in drawing order (the keys differ, by slot).
 * The list is in pool order, mostly slot order: its four layers (corpses,
 * items, actors, the player) are split out in that order first, then
 * finished by insertion, about linear; if that would take many moves (a
 * floor's pools reordered by removals), a heap sort: no call, no
 * allocation, n log n however many. */
static void sort_here(const struct game *g, struct world_here *h, const ecs_entity *ents, const void *render)
{
	const struct c_render *looks = render;
	uint32_t n = h->n, at[5] = { 0 }, moves = 0;
	for (uint32_t j = 0; j < n; j++) { /* a layer's key >> 32: order << 8 | player; no look: last */
		uint64_t lk = here_key(g, h, ents, looks, j) >> 32;
		at[lk == (2u << 8 | 1) ? 4 : lk <= 2u << 8 && !(lk & 0xFF) ? (lk >> 8) + 1 : 4]++;
	}
	for (int b = 1; b <= 4; b++)
		at[b] += at[b - 1];
	for (uint32_t j = 0; j < n; j++) {
		uint64_t lk = here_key(g, h, ents, looks, j) >> 32;
		h->draw[at[lk == (2u << 8 | 1) ? 3 : lk <= 2u << 8 && !(lk & 0xFF) ? lk >> 8 : 3]++] = j;
	}
	for (uint32_t i = 1; i < n && moves <= 8 * n; i++) {
		uint32_t v = h->draw[i], j = i;
		uint64_t kv = here_key(g, h, ents, looks, v);
		for (; j > 0 && here_key(g, h, ents, looks, h->draw[j - 1]) > kv; j--, moves++)
			h->draw[j] = h->draw[j - 1];
		h->draw[j] = v;
	}
	if (moves <= 8 * n)
		return;
	for (uint32_t i = n / 2; i-- > 0;)
		sift_down(g, h, ents, looks, i, n);
	for (uint32_t end = n; end > 1; end--) {
		uint32_t top = h->draw[0];
		h->draw[0] = h->draw[end - 1];
		h->draw[end - 1] = top;
		sift_down(g, h, ents, looks, 0, end - 1);
	}
}

/* Lists the current floor's entities (struct world_here) unless the list
 * made before still holds. */
static void list_here(struct game *g)
{
	struct world_here *h = &g->here;
	if (world_here(g)) {
		h->members = ecs_members_version(g->w); /* (no pool of the list's changed) */
		return;
	}
	const ecs_entity *ents, *unused;
	const void *data, *render;
	uint32_t n = ecs_pool_view(g->w, COMP_POS, &ents, &data);
	(void)ecs_pool_view(g->w, COMP_RENDER, &unused, &render);
	const struct c_pos *pos = data;
	h->n = 0;
	h->ok = false;
	for (uint32_t i = 0; i < n; i++) {
		if (pos[i].floor != g->depth)
			continue;
		if (h->n == WORLD_HERE_MAX)
			return;
		h->pos[h->n] = i;
		uint32_t mk = ecs_mask(g->w, ents[i]);
		h->render[h->n] = pool_index(g, ents[i], mk, COMP_RENDER);
		h->memory[h->n] = pool_index(g, ents[i], mk, COMP_MEMORY);
		h->actor[h->n] = pool_index(g, ents[i], mk, COMP_ACTOR);
		h->item[h->n] = pool_index(g, ents[i], mk, COMP_ITEM);
		h->ai[h->n] = pool_index(g, ents[i], mk, COMP_AI);
		h->corpse[h->n] = pool_index(g, ents[i], mk, COMP_CORPSE);
		h->n++;
	}
	sort_here(g, h, ents, render);
	h->ndrawn = 0;
	const struct c_render *looks = render;
	for (uint32_t jd = 0; jd < h->n; jd++) {
		uint32_t j = h->draw[jd];
		if (h->render[j] != WORLD_HERE_NONE)
			h->drawn[h->ndrawn++] = (struct world_here_drawn){ h->pos[j], h->render[j], h->memory[j], j,
									   looks[h->render[j]].order };
	}
	h->ok = true;
	h->depth = g->depth;
	h->v = ecs_pools_version(g->w, WORLD_HERE_POOLS);
	h->members = ecs_members_version(g->w);
}

const struct world_here *world_here(const struct game *g)
{
	const struct world_here *h = &g->here;
	if (!h->ok || h->depth != g->depth)
		return NULL;
	if (h->members != ecs_members_version(g->w) && h->v != ecs_pools_version(g->w, WORLD_HERE_POOLS))
		return NULL; /* (no entity joined or left any pool: none of the list's) */
	return h;
}

void world_refresh_view(struct game *g)
{
	struct map *m = world_floor(g, g->depth);
	const struct c_pos *pp = ecs_get(g->w, g->player, COMP_POS);
	if (!m || !pp)
		return;
	map_view(m, pp->x, pp->y, content_rules.fov_radius); /* the player stayed put: the view is the same */
	world_update_memory(g);
	list_here(g);
}

/* Whether a walk of world_update_memory may change anything: the memo is
 * not for this floor and these entities, or a cell it marks is in view
 * (visible[] is 0 outside m->seen). Settled entities need no walk: one in
 * view is remembered where it is already, one out of view is remembered
 * out of view. */
static bool memory_may_change(const struct game *g, const struct map *m)
{
	const struct world_memo *mo = &g->memo;
	if (!mo->ok || mo->map != m || mo->v != ecs_pools_version(g->w, WORLD_MEMO_POOLS))
		return true;
	if (mo->unsettled == 0)
		return false;
	if (mo->nat <= WORLD_MEMO_AT) { /* the few cells marked, one by one */
		for (int k = 0; k < mo->nat; k++)
			if (m->visible[mo->at[k]])
				return true;
		return false;
	}
	int x0 = m->seen.x0 > 0 ? m->seen.x0 : 0, x1 = m->seen.x1 < m->w - 1 ? m->seen.x1 : m->w - 1;
	int y0 = m->seen.y0 > 0 ? m->seen.y0 : 0, y1 = m->seen.y1 < m->h - 1 ? m->seen.y1 : m->h - 1;
	for (int y = y0; y <= y1; y++) {
		const uint8_t *v = m->visible + y * m->w, *c = mo->cell + y * m->w;
		int x = x0;
		for (; x + 8 <= x1 + 1; x += 8) { /* eight cells at a time (both are 0 or 1) */
			uint64_t a, b;
			memcpy(&a, v + x, sizeof(a));
			memcpy(&b, c + x, sizeof(b));
			if (a & b)
				return true;
		}
		for (; x <= x1; x++)
			if (v[x] & c[x])
				return true;
	}
	return false;
}

static void memo_mark(struct world_memo *mo, const struct map *m, int x, int y)
{
	if (!map_in(m, x, y))
		return;
	int i = y * m->w + x;
	if (mo->cell[i])
		return;
	mo->cell[i] = 1;
	if (mo->nat < WORLD_MEMO_AT)
		mo->at[mo->nat] = i;
	mo->nat++;
}

/* What the player remembers of e (at p on the current floor m, its memory
 * mem) brought up to date, and marked in mo when it is not settled.
 * Returns true when e is an item seen now for the first time. */
static bool remember(struct game *g, struct world_memo *mo, const struct map *m, ecs_entity e, const struct c_pos *p,
		     const struct c_memory *mem)
{
	const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
	bool first = false;
	/* written only where it changes (ecs_get_mut marks what it hands out) */
	if (world_visible(g, p->x, p->y)) {
		if (it && !it->seen) {
			((struct c_item *)ecs_get_mut(g->w, e, COMP_ITEM))->seen = 1;
			first = true;
		}
		if (mem->x != p->x || mem->y != p->y || !mem->known) {
			struct c_memory *w = ecs_get_mut(g->w, e, COMP_MEMORY);
			w->x = p->x;
			w->y = p->y;
			w->known = 1;
		}
	} else if (mem->known && world_visible(g, mem->x, mem->y)) {
		((struct c_memory *)ecs_get_mut(g->w, e, COMP_MEMORY))->known = 0; /* seen that it is gone from there */
	}
	if (!mem->known || mem->x != p->x || mem->y != p->y || (it && !it->seen)) {
		memo_mark(mo, m, p->x, p->y);
		if (mem->known)
			memo_mark(mo, m, mem->x, mem->y);
		mo->unsettled++;
	}
	return first;
}

void world_update_memory(struct game *g)
{
	const struct map *m = world_floor(g, g->depth);
	if (!m || !memory_may_change(g, m))
		return;
	struct world_memo *mo = &g->memo;
	/* cell[] back to 0: the few cells marked, one by one, or all that may
	 * be marked */
	if (mo->nat <= WORLD_MEMO_AT) {
		for (int k = 0; k < mo->nat; k++)
			mo->cell[mo->at[k]] = 0;
	} else {
		memset(mo->cell, 0, (size_t)mo->dirty);
	}
	mo->dirty = m->w * m->h;
	mo->nat = 0;
	mo->unsettled = 0;
	mo->walks++;
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_POS) | ECS_BIT(COMP_MEMORY));
	list_here(g);
	const struct world_here *h = world_here(g);
	if (h && (q.pool == COMP_POS || q.pool == COMP_MEMORY)) {
		/* the floor's own entities from its list; the item first seen is
		 * the one the query would have met first: it walks q.pool's
		 * entries from the last down */
		const ecs_entity *ents, *unused;
		const void *pdata, *mdata;
		(void)ecs_pool_view(g->w, COMP_POS, &ents, &pdata);
		(void)ecs_pool_view(g->w, COMP_MEMORY, &unused, &mdata);
		const struct c_pos *pos = pdata;
		const struct c_memory *mems = mdata;
		ecs_entity first = ECS_NULL;
		uint32_t first_at = 0;
		for (uint32_t j = 0; j < h->n; j++) {
			if (h->memory[j] == WORLD_HERE_NONE)
				continue;
			uint32_t at = q.pool == COMP_POS ? h->pos[j] : h->memory[j];
			ecs_entity e = ents[h->pos[j]];
			if (remember(g, mo, m, e, &pos[h->pos[j]], &mems[h->memory[j]]) && (first == ECS_NULL || at > first_at)) {
				first = e;
				first_at = at;
			}
		}
		if (g->events.new_item == ECS_NULL)
			g->events.new_item = first;
	} else {
		for (ecs_entity e; ecs_query_next(&q, &e);) {
			const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
			if (p->floor == g->depth && remember(g, mo, m, e, p, ecs_get(g->w, e, COMP_MEMORY)) &&
			    g->events.new_item == ECS_NULL)
				g->events.new_item = e;
		}
	}
	mo->ok = true;
	mo->map = m;
	mo->v = ecs_pools_version(g->w, WORLD_MEMO_POOLS);
}

const char *world_name(const struct game *g, ecs_entity e)
{
	const struct c_name *n = ecs_get(g->w, e, COMP_NAME);
	return n ? n->s : "";
}

void world_msg(struct game *g, uint32_t fg, const char *fmt, ...)
{
	char text[sizeof(g->log[0].text)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	g->log_seq++;
	if (g->log_count > 0) {
		struct game_msg *last = &g->log[(g->log_start + g->log_count - 1) % GAME_LOG_MAX];
		if (last->fg == fg && strcmp(last->text, text) == 0) {
			last->count = limits_add(last->count, 1, GAME_REPEAT_MAX);
			return;
		}
	}
	struct game_msg *m;
	if (g->log_count < GAME_LOG_MAX) {
		m = &g->log[(g->log_start + g->log_count) % GAME_LOG_MAX];
		g->log_count++;
	} else {
		m = &g->log[g->log_start];
		g->log_start = (g->log_start + 1) % GAME_LOG_MAX;
	}
	memset(m, 0, sizeof(*m));
	memcpy(m->text, text, strlen(text) + 1); /* not the stack's bytes after it: saves are the same bytes every time */
	m->fg = fg;
	m->count = 1;
}
