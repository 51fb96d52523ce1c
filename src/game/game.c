/* game: the public API of the rules engine (commands in, messages and state out). */
#include "game/game.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "game/ai.h"
#include "game/combat.h"
#include "game/items.h"
#include "game/serial.h"
#include "game/world.h"

static const char *const cmd_names[CMD_COUNT] = {
	[CMD_NONE] = "none",
	[CMD_MOVE_N] = "move_n",
	[CMD_MOVE_NE] = "move_ne",
	[CMD_MOVE_E] = "move_e",
	[CMD_MOVE_SE] = "move_se",
	[CMD_MOVE_S] = "move_s",
	[CMD_MOVE_SW] = "move_sw",
	[CMD_MOVE_W] = "move_w",
	[CMD_MOVE_NW] = "move_nw",
	[CMD_WAIT] = "wait",
	[CMD_PICKUP] = "pickup",
	[CMD_DESCEND] = "descend",
	[CMD_ASCEND] = "ascend",
	[CMD_USE] = "use",
	[CMD_DROP] = "drop",
	[CMD_LEVEL_UP] = "levelup",
};

const char *cmd_name(enum cmd c)
{
	if ((int)c < 0 || c >= CMD_COUNT)
		return "?";
	return cmd_names[c];
}

int cmd_parse(const char *name, enum cmd *out)
{
	if (!name)
		return -EINVAL;
	for (int i = 0; i < CMD_COUNT; i++) {
		if (strcmp(name, cmd_names[i]) == 0) {
			*out = (enum cmd)i;
			return 0;
		}
	}
	return -EINVAL;
}

int game_create(struct game **out, const struct game_opts *o)
{
	if (!o || (int)o->mapgen < 0 || o->mapgen >= MAPGEN_COUNT) {
		log_error("game: unknown map generator %d (expected classic, overlap or cave)", o ? (int)o->mapgen : -1);
		return -EINVAL;
	}
	int mw = o->map_w ? o->map_w : MAP_W, mh = o->map_h ? o->map_h : MAP_H;
	if (!map_size_ok(mw, mh)) {
		log_error("game: a floor of %dx%d cells cannot be made (%dx%d to %dx%d)", mw, mh, MAP_MIN_W, MAP_MIN_H,
			  MAP_MAX_W, MAP_MAX_H);
		return -EINVAL;
	}
	struct game *g = NULL;
	int rc = world_create(&g, o->seed, o->mapgen);
	if (rc)
		goto fail;
	g->map_w = mw;
	g->map_h = mh;
	g->stacks_from = o->stacks_from < 0 ? GAME_STACKS_NEVER : o->stacks_from;
	g->stacking = g->stacks_from == 0;
	rc = world_generate_floor(g, 1);
	if (rc)
		goto fail;
	int sx, sy;
	map_start(world_floor(g, 1), &sx, &sy);
	rc = world_spawn_actor(g, ACTOR_PLAYER, 1, sx, sy, NULL);
	if (rc)
		goto fail;
	for (int i = 0; i < CONTENT_START_ITEMS; i++) {
		rc = items_give(g, content_start_items[i], true);
		if (rc)
			goto fail;
	}
	world_put_player(g, 1, sx, sy);
	world_refresh_view(g);
	world_msg(g, GAME_MSG_WELCOME, "Hello and welcome, adventurer, to the dungeons of pirogue!");
	*out = g;
	return 0;
fail:
	if (rc == -ENOMEM)
		log_error("game: out of memory creating a game");
	world_destroy(g);
	return rc;
}

void game_destroy(struct game *g)
{
	world_destroy(g);
}

/* Player bumps towards (dx, dy): attack a blocker, move, or refuse. */
static int player_move(struct game *g, int dx, int dy)
{
	const struct c_pos *p = ecs_get(g->w, g->player, COMP_POS);
	const struct map *m = world_floor(g, g->depth);
	int nx = p->x + dx, ny = p->y + dy;
	if (!map_walkable(m, nx, ny)) {
		world_msg(g, GAME_MSG_IMPOSSIBLE, "That way is blocked.");
		return 0;
	}
	ecs_entity target = world_blocker_at(g, g->depth, nx, ny);
	if (target != ECS_NULL) {
		combat_attack(g, g->player, target);
		return 1;
	}
	world_move(g, g->player, nx, ny);
	return 1;
}

/* Takes the stairs under the player to floor depth + delta. */
static int player_stairs(struct game *g, int delta)
{
	const struct c_pos *p = ecs_get(g->w, g->player, COMP_POS);
	const struct map *m = world_floor(g, g->depth);
	enum tile want = delta > 0 ? TILE_STAIRS_DOWN : TILE_STAIRS_UP;
	if (map_tile(m, p->x, p->y) != want) {
		world_msg(g, GAME_MSG_IMPOSSIBLE, delta > 0 ? "There are no stairs down here." : "There are no stairs up here.");
		return 0;
	}
	int to = g->depth + delta;
	if (to > g->nfloors) {
		int rc = world_generate_floor(g, to);
		if (rc) {
			world_msg(g, GAME_MSG_IMPOSSIBLE, "The stairs are blocked.");
			return 0;
		}
	}
	const struct map *dst = world_floor(g, to);
	int x = delta > 0 ? dst->up_x : dst->down_x;
	int y = delta > 0 ? dst->up_y : dst->down_y;
	world_put_player(g, to, x, y);
	/* Should anything ever stand on the arrival stairs, it is pushed to the
	 * nearest free cell (it cannot happen with the current rules: monsters
	 * act only on the player's floor, and he left by these stairs). */
	ecs_entity in_way = ECS_NULL;
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_POS) | ECS_BIT(COMP_BLOCKS));
	for (ecs_entity e; ecs_query_next(&q, &e);) {
		const struct c_pos *ep = ecs_get(g->w, e, COMP_POS);
		if (e != g->player && ep->floor == to && ep->x == x && ep->y == y)
			in_way = e;
	}
	if (in_way != ECS_NULL) {
		for (int r = 1; r < (dst->w > dst->h ? dst->w : dst->h); r++) {
			for (int yy = y - r; yy <= y + r; yy++) {
				for (int xx = x - r; xx <= x + r; xx++) {
					if (map_walkable(dst, xx, yy) && world_blocker_at(g, to, xx, yy) == ECS_NULL &&
					    !(xx == x && yy == y)) {
						world_move(g, in_way, xx, yy);
						goto moved;
					}
				}
			}
		}
	moved:
		world_rebuild_occ(g);
		world_move(g, g->player, x, y);
	}
	world_msg(g, GAME_MSG_STAIRS, delta > 0 ? "You descend the staircase." : "You ascend the staircase.");
	return 1;
}

static const int cmd_dx[CMD_COUNT] = {[CMD_MOVE_NE] = 1, [CMD_MOVE_E] = 1, [CMD_MOVE_SE] = 1,
				      [CMD_MOVE_SW] = -1, [CMD_MOVE_W] = -1, [CMD_MOVE_NW] = -1};
static const int cmd_dy[CMD_COUNT] = {[CMD_MOVE_N] = -1, [CMD_MOVE_NE] = -1, [CMD_MOVE_NW] = -1,
				      [CMD_MOVE_S] = 1, [CMD_MOVE_SE] = 1, [CMD_MOVE_SW] = 1};

/* Appends cmd, its unused fields set to -1, to the history: see hist_add
 * for when that allocates (never with a store). */
static int history_add(struct game *g, const struct command *cmd)
{
	struct command c = {.c = cmd->c, .item = -1, .x = -1, .y = -1, .choice = -1};
	if (cmd->c == CMD_USE) {
		c.item = cmd->item;
		c.x = cmd->x;
		c.y = cmd->y;
	} else if (cmd->c == CMD_DROP) {
		c.item = cmd->item;
		c.choice = cmd->choice == GAME_DROP_ALL ? GAME_DROP_ALL : -1;
	} else if (cmd->c == CMD_LEVEL_UP) {
		c.choice = cmd->choice;
	}
	return hist_add(&g->hist, &c);
}

const struct history *game_history(const struct game *g)
{
	return &g->hist;
}

int game_set_history_store(struct game *g, const struct hist_store *s)
{
	return hist_set_store(&g->hist, s);
}

int game_apply(struct game *g, enum cmd c)
{
	struct command cmd = {.c = c, .item = -1, .x = -1, .y = -1, .choice = -1};
	return game_do(g, &cmd);
}

bool game_levelup_pending(const struct game *g)
{
	return combat_levelup_pending(g);
}

static int do_command(struct game *g, const struct command *cmd);

int game_do(struct game *g, const struct command *cmd)
{
	if (!cmd || history_add(g, cmd))
		return 0;
	int rc = do_command(g, cmd);
	/* stacks start once the history holds stacks_from commands: the same
	 * moment as when a save of a game without them is loaded (serial.c) */
	if (!g->stacking && g->stacks_from >= 0 && hist_count(&g->hist) == g->stacks_from) {
		items_merge_all(g);
		g->stacking = true;
	}
	return rc;
}

/* game_do's command, already in the history. */
static int do_command(struct game *g, const struct command *cmd)
{
	enum cmd c = cmd->c;
	const struct c_actor *pa = ecs_get(g->w, g->player, COMP_ACTOR);
	g->events.hp_before = pa ? pa->hp : 0;
	g->events.new_item = ECS_NULL;
	if (g->over || (int)c <= CMD_NONE || c >= CMD_COUNT)
		return 0;
	if (combat_levelup_pending(g)) {
		if (c == CMD_LEVEL_UP)
			combat_level_up(g, cmd->choice);
		return 0;
	}
	/* g->occ is kept up to date by every move, spawn and death (not rebuilt
	 * per command: that was a tenth of a turn with 100 monsters) */
	int cost = 0;
	switch (c) {
	case CMD_MOVE_N:
	case CMD_MOVE_NE:
	case CMD_MOVE_E:
	case CMD_MOVE_SE:
	case CMD_MOVE_S:
	case CMD_MOVE_SW:
	case CMD_MOVE_W:
	case CMD_MOVE_NW:
		cost = player_move(g, cmd_dx[c], cmd_dy[c]);
		break;
	case CMD_WAIT:
		cost = 1;
		break;
	case CMD_PICKUP:
		cost = items_pickup(g);
		break;
	case CMD_DESCEND:
		cost = player_stairs(g, +1);
		break;
	case CMD_ASCEND:
		cost = player_stairs(g, -1);
		break;
	case CMD_USE:
		cost = items_use(g, cmd->item, cmd->x, cmd->y);
		break;
	case CMD_DROP:
		cost = items_drop(g, cmd->item, cmd->choice == GAME_DROP_ALL);
		break;
	default: /* CMD_LEVEL_UP with nothing pending */
		break;
	}
	if (!cost)
		return 0;
	if (g->turn < GAME_TURN_MAX) /* a billion turns: the counter stops (game/limits.h) */
		g->turn++;
	world_refresh_view(g); /* monsters see the player where he is now */
	ai_take_turns(g);
	ecs_flush(g->w);
	/* The player did not move during the monsters' phase and nothing they
	 * do changes what blocks sight, so his FOV stands; what he remembers
	 * (new corpses) is updated. */
	world_update_memory(g);
	return 1;
}

bool game_is_over(const struct game *g)
{
	return g->over;
}

int game_turn(const struct game *g)
{
	return g->turn;
}

int game_depth(const struct game *g)
{
	return g->depth;
}

uint64_t game_seed(const struct game *g)
{
	return g->seed;
}

const struct map *game_map(const struct game *g)
{
	return world_floor(g, g->depth);
}

void game_player_pos(const struct game *g, int *x, int *y)
{
	const struct c_pos *p = ecs_get(g->w, g->player, COMP_POS);
	*x = p->x;
	*y = p->y;
}

void game_stats(const struct game *g, struct game_stats *s)
{
	const struct c_actor *a = ecs_get(g->w, g->player, COMP_ACTOR);
	const struct c_player *pl = ecs_get(g->w, g->player, COMP_PLAYER);
	memset(s, 0, sizeof(*s));
	s->hp = a->hp;
	s->max_hp = a->max_hp;
	combat_power_defense(g, g->player, &s->power, &s->defense);
	s->base_power = a->power;
	s->base_defense = a->defense;
	s->level = pl->level;
	s->xp = pl->xp;
	s->xp_next = content_rules.xp_base + pl->level * content_rules.xp_per_level; /* (combat_xp_next's) */
	s->depth = g->depth;
	s->turn = g->turn;
}

const char *game_death_cause(const struct game *g)
{
	const struct c_player *pl = ecs_get(g->w, g->player, COMP_PLAYER);
	return pl && g->over ? pl->cause : "";
}

int game_kills(const struct game *g, int kind)
{
	const struct c_player *pl = ecs_get(g->w, g->player, COMP_PLAYER);
	return pl && kind >= 0 && kind < ACTOR_COUNT ? pl->kills[kind] : 0;
}

/* ---- inventory and targeting ---- */

int game_inventory(const struct game *g, struct game_item_view *out, int max)
{
	int n = 0;
	for (int s = 0; s < INVENTORY_SLOTS && n < max; s++) {
		ecs_entity e = items_in_slot(g, s);
		if (e == ECS_NULL)
			continue;
		const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
		const struct c_render *r = ecs_get(g->w, e, COMP_RENDER);
		const struct item_def *d = &content_items[it->kind];
		struct game_item_view *v = &out[n++];
		memset(v, 0, sizeof(*v));
		v->slot = s;
		v->glyph = r->glyph;
		v->fg = r->fg;
		snprintf(v->name, sizeof(v->name), "%s", world_name(g, e));
		v->equipped = items_equipped(g, e);
		v->kind = it->kind;
		v->target = (enum target_kind)d->target;
		v->radius = d->target == TARGET_CELL ? d->radius : 0;
		v->count = items_count(g, e);
		if (v->count > 1)
			snprintf(v->label, sizeof(v->label), "%d %s", v->count, d->plural);
		else
			snprintf(v->label, sizeof(v->label), "%s", v->name);
	}
	return n;
}

int game_target_check(const struct game *g, int slot, int x, int y, char *why, int len)
{
	return items_check(g, slot, x, y, why, len);
}

int game_nearest_monster(const struct game *g, int *x, int *y)
{
	ecs_entity e = items_nearest_monster(g, -1);
	if (e == ECS_NULL)
		return -1;
	const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
	*x = p->x;
	*y = p->y;
	return 0;
}

/* ---- drawing ---- */

struct keyed {
	uint64_t key;
	struct drawable d;
};

static int cmp_keyed(const void *a, const void *b)
{
	uint64_t x = ((const struct keyed *)a)->key, y = ((const struct keyed *)b)->key;
	return x < y ? -1 : x > y;
}

/* Where e (at p, drawn as r) is drawn now, if at all: in view, or
 * remembered (items/corpses); m is the current floor; mem is e's memory
 * when mem_known (else looked up when needed). (Inline: a frame asks it
 * for every entity of the floor.) */
static inline bool drawn_at_on(const struct game *g, const struct map *m, ecs_entity e, const struct c_pos *p,
			       const struct c_render *r, const struct c_memory *mem, bool mem_known, int *x, int *y,
			       bool *remembered)
{
	if (!p || !r || p->floor != g->depth)
		return false;
	if (e == g->player || (m && map_in(m, p->x, p->y) && m->visible[p->y * m->w + p->x])) {
		*x = p->x;
		*y = p->y;
		*remembered = false;
		return true;
	}
	if (r->order == GAME_ORDER_ACTOR)
		return false;
	if (!mem_known)
		mem = ecs_get(g->w, e, COMP_MEMORY);
	if (!mem || !mem->known)
		return false;
	*x = mem->x;
	*y = mem->y;
	*remembered = true;
	return true;
}

/* Where e is drawn now, if at all: in view, or remembered (items/corpses). */
static bool drawn_at(const struct game *g, ecs_entity e, int *x, int *y, bool *remembered)
{
	return drawn_at_on(g, world_floor(g, g->depth), e, ecs_get(g->w, e, COMP_POS), ecs_get(g->w, e, COMP_RENDER),
			   NULL, false, x, y, remembered);
}

/* Drawables of the current floor into k (room for cap) when the floor's
 * list is not at hand (collect_listed, below, when it is); returns how many are
 * drawn, which may exceed cap (then k holds the first cap of them). The
 * positions are walked where they are stored, so k is in the pool's
 * order, which is mostly the order the entities were made in (slot
 * order): *sorted false, game_drawables sorts it. */
static uint32_t collect_drawables(const struct game *g, struct keyed *k, uint32_t cap, bool *sorted)
{
	const struct map *m = world_floor(g, g->depth);
	const ecs_entity *ents;
	const void *data;
	uint32_t n = ecs_pool_view(g->w, COMP_POS, &ents, &data), cnt = 0;
	const struct c_pos *pos = data;
	*sorted = false;
	for (uint32_t i = 0; i < n; i++) {
		if (pos[i].floor != g->depth)
			continue;
		ecs_entity e = ents[i];
		const struct c_render *r = ecs_get(g->w, e, COMP_RENDER);
		int x, y;
		bool rem;
		if (!r || !drawn_at_on(g, m, e, &pos[i], r, NULL, false, &x, &y, &rem))
			continue;
		if (cnt < cap) {
			k[cnt].key = world_draw_key(g, e, r);
			k[cnt].d = (struct drawable){.x = x, .y = y, .glyph = r->glyph, .fg = r->fg, .order = r->order,
						     .remembered = rem, .actor = -1, .item = -1};
			const struct c_actor *ac = ecs_get(g->w, e, COMP_ACTOR);
			const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
			const struct c_ai *ai = ecs_get(g->w, e, COMP_AI);
			/* the dead player keeps his fighter but is drawn as a corpse */
			k[cnt].d.corpse = ecs_get(g->w, e, COMP_CORPSE) != NULL || (ac && ac->hp <= 0);
			if (ac && !k[cnt].d.corpse)
				k[cnt].d.actor = (int8_t)ac->kind;
			if (it)
				k[cnt].d.item = (int8_t)it->kind;
			if (ai)
				k[cnt].d.status = (uint8_t)((ai->confused > 0 ? GAME_STATUS_CONFUSED : 0) |
							    (ai->paralysed > 0 ? GAME_STATUS_PARALYSED : 0));
		}
		cnt++;
	}
	return cnt;
}

/* The drawables of the current floor from its list h (world_here), in the
 * list's drawing order, into k (room for cap), or when k is NULL their
 * drawables alone into out (room for cap): each entity's parts at hand,
 * what is out of view and not remembered passed over first (most of a
 * floor's entities: monsters out of sight, items not seen); as
 * collect_drawables, but *sorted is set only when the keys came out in
 * order (a look's order changed in place since the list was made: not;
 * into out, told by the orders alone: as listed, the keys rise). */
static inline __attribute__((always_inline)) uint32_t collect_listed_to(const struct game *g,
									  const struct world_here *h,
									  struct keyed *k, struct drawable *out,
									  uint32_t cap, bool *sorted)
{
	const struct map *m = world_floor(g, g->depth);
	const ecs_entity *ents, *unused;
	const void *data, *rdata, *mdata, *adata, *idata, *aidata;
	(void)ecs_pool_view(g->w, COMP_POS, &ents, &data);
	(void)ecs_pool_view(g->w, COMP_RENDER, &unused, &rdata);
	(void)ecs_pool_view(g->w, COMP_MEMORY, &unused, &mdata);
	(void)ecs_pool_view(g->w, COMP_ACTOR, &unused, &adata);
	(void)ecs_pool_view(g->w, COMP_ITEM, &unused, &idata);
	(void)ecs_pool_view(g->w, COMP_AI, &unused, &aidata);
	const struct c_pos *pos = data;
	const struct c_render *looks = rdata;
	const struct c_memory *mems = mdata;
	const struct c_actor *actors = adata;
	const struct c_item *items = idata;
	const struct c_ai *ais = aidata;
	/* the player's place in COMP_POS's pool (pool places are the
	 * entities': ents[i] == player exactly there) */
	const uint32_t player_at = ecs_index(g->w, g->player, COMP_POS);
	const int depth = g->depth, mw = m ? m->w : 0;
	const unsigned uw = m ? (unsigned)m->w : 0, uh = m ? (unsigned)m->h : 0;
	const uint8_t *vis = m ? m->visible : NULL;
	uint64_t last = 0;
	bool in_order = true;
	uint32_t cnt = 0;
	/* the places with a look, in drawing order, packed (h->drawn): most
	 * are passed over on their position and the view alone */
	const struct world_here_drawn *dr = h->drawn;
	for (uint32_t jd = 0, nd = h->ndrawn; jd < nd; jd++) {
		const uint32_t i = dr[jd].pos;
		const struct c_pos *p = &pos[i];
		if (p->floor != depth)
			continue;
		int x = p->x, y = p->y;
		bool rem = false;
		/* (as drawn_at_on: in view, or an item or corpse remembered) */
		if (i != player_at && !((unsigned)x < uw && (unsigned)y < uh && vis[y * mw + x])) {
			const uint32_t mi = dr[jd].memory;
			if (mi == WORLD_HERE_NONE || looks[dr[jd].render].order == GAME_ORDER_ACTOR || !mems[mi].known)
				continue;
			x = mems[mi].x;
			y = mems[mi].y;
			rem = true;
		}
		const uint32_t j = dr[jd].j;
		const ecs_entity e = ents[i];
		const struct c_render *r = &looks[dr[jd].render];
		if (cnt < cap) {
			if (k) {
				const uint64_t key = world_draw_key(g, e, r);
				in_order = in_order && (cnt == 0 || key > last);
				last = key;
				k[cnt].key = key;
			} else { /* the keys as listed (they rise) while the orders are */
				in_order = in_order && r->order == dr[jd].order;
			}
			struct drawable *o = k ? &k[cnt].d : &out[cnt];
			*o = (struct drawable){.x = x, .y = y, .glyph = r->glyph, .fg = r->fg, .order = r->order,
					       .remembered = rem, .actor = -1, .item = -1};
			const uint32_t ac = h->actor[j], it = h->item[j], ai = h->ai[j];
			/* the dead player keeps his fighter but is drawn as a corpse */
			o->corpse = h->corpse[j] != WORLD_HERE_NONE || (ac != WORLD_HERE_NONE && actors[ac].hp <= 0);
			if (ac != WORLD_HERE_NONE && !o->corpse)
				o->actor = (int8_t)actors[ac].kind;
			if (it != WORLD_HERE_NONE)
				o->item = (int8_t)items[it].kind;
			if (ai != WORLD_HERE_NONE)
				o->status = (uint8_t)((ais[ai].confused > 0 ? GAME_STATUS_CONFUSED : 0) |
						      (ais[ai].paralysed > 0 ? GAME_STATUS_PARALYSED : 0));
		}
		cnt++;
	}
	*sorted = in_order;
	return cnt;
}

/* collect_listed_to into k (keys and drawables). */
static uint32_t collect_listed(const struct game *g, const struct world_here *h, struct keyed *k, uint32_t cap,
			       bool *sorted)
{
	return collect_listed_to(g, h, k, NULL, cap, sorted);
}

/* collect_listed_to straight into out (the drawables alone: what
 * game_drawables hands over when they come in order and fit). */
static uint32_t collect_listed_out(const struct game *g, const struct world_here *h, struct drawable *out,
				   uint32_t cap, bool *sorted)
{
	return collect_listed_to(g, h, NULL, out, cap, sorted);
}

/* Sorts k[0..n) by key. A floor's few drawables (the usual case) are put
 * in layers first, keeping their order (corpses, items, actors, the
 * player), which leaves each layer in about slot order, then finished by
 * insertion: no call, about linear. Many, or layers outside 0..2: qsort. */
static void sort_keyed(struct keyed *k, uint32_t n)
{
	enum { SMALL = 64, LAYERS = 4 };
	struct keyed tmp[SMALL];
	uint32_t at[LAYERS + 1] = {0};
	bool small = n <= SMALL;
	for (uint32_t i = 0; i < n && small; i++) {
		uint64_t layer = k[i].key >> 32; /* order << 8 | player */
		if (layer == ((uint64_t)GAME_ORDER_ACTOR << 8 | 1))
			at[LAYERS]++;
		else if (layer <= (uint64_t)GAME_ORDER_ACTOR << 8 && !(layer & 0xFF))
			at[(layer >> 8) + 1]++;
		else
			small = false;
	}
	if (!small) {
		qsort(k, n, sizeof(*k), cmp_keyed);
		return;
	}
	for (int b = 1; b <= LAYERS; b++) /* at[b]: where layer b starts (3: the player) */
		at[b] += at[b - 1];
	for (uint32_t i = 0; i < n; i++) {
		uint64_t layer = k[i].key >> 32;
		tmp[at[layer & 1 ? LAYERS - 1 : layer >> 8]++] = k[i];
	}
	for (uint32_t i = 0; i < n; i++) {
		struct keyed v = tmp[i];
		uint32_t j = i;
		for (; j > 0 && k[j - 1].key > v.key; j--)
			k[j] = k[j - 1];
		k[j] = v;
	}
}

int game_drawables(const struct game *g, struct drawable *out, int max)
{
	uint32_t n = ecs_pool_count(g->w, COMP_RENDER);
	if (max <= 0 || n == 0)
		return 0;
	/* on the stack: a frame allocates nothing unless a floor shows more
	 * (a 200x200 floor explored far can show hundreds of items) */
	enum { STACK_DRAWABLES = 1024 };
	struct keyed stack[STACK_DRAWABLES], *k = stack, *heap = NULL;
	uint32_t cap = STACK_DRAWABLES;
	bool sorted;
	const struct world_here *h = world_here(g);
	if (h) { /* (the usual frame: in order, and all of them fit) */
		uint32_t all = collect_listed_out(g, h, out, (uint32_t)max, &sorted);
		if (sorted && all <= (uint32_t)max)
			return (int)all;
	}
	uint32_t cnt = h ? collect_listed(g, h, k, cap, &sorted) : collect_drawables(g, k, cap, &sorted);
	if (cnt > cap) {
		heap = malloc(n * sizeof(*k));
		if (!heap) {
			log_error("game: out of memory listing drawables");
			return 0;
		}
		cap = n;
		cnt = h ? collect_listed(g, h, heap, cap, &sorted) : collect_drawables(g, heap, cap, &sorted);
		k = heap;
	}
	if (!sorted)
		sort_keyed(k, cnt);
	/* Too many: the lowest layers (corpses first) are left out, never the
	 * actors and the player. */
	uint32_t first = cnt > (uint32_t)max ? cnt - (uint32_t)max : 0;
	int w = 0;
	for (uint32_t i = first; i < cnt; i++)
		out[w++] = k[i].d;
	free(heap);
	return w;
}

int game_msg_count(const struct game *g)
{
	return g->log_count;
}

uint32_t game_msg_seq(const struct game *g)
{
	return g->log_seq;
}

const struct game_msg *game_msg_get(const struct game *g, int i)
{
	if (i < 0 || i >= g->log_count)
		return NULL;
	return &g->log[(g->log_start + i) % GAME_LOG_MAX];
}

const char *game_msg_format(const struct game_msg *m, char *buf, int len)
{
	if (len <= 0)
		return buf;
	if (m->count > 1)
		snprintf(buf, (size_t)len, "%s (x%d)", m->text, m->count);
	else
		snprintf(buf, (size_t)len, "%s", m->text);
	return buf;
}

const char *game_describe(const struct game *g, int x, int y, char *buf, int len)
{
	const struct map *m = world_floor(g, g->depth);
	if (len <= 0 || !map_in(m, x, y) || !m->explored[y * m->w + x])
		return NULL;
	buf[0] = 0;
	int used = 0;
	/* Two passes in entity order: actors first, then corpses and items. */
	uint32_t slots = ecs_slots(g->w);
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < slots; i++) {
			ecs_entity e = ecs_slot_entity(g->w, i);
			if (!ecs_has(g->w, e, COMP_NAME))
				continue;
			int ex, ey;
			bool rem;
			if (!drawn_at(g, e, &ex, &ey, &rem) || ex != x || ey != y)
				continue;
			const struct c_render *r = ecs_get(g->w, e, COMP_RENDER);
			if ((r->order == GAME_ORDER_ACTOR) != (pass == 0))
				continue;
			const struct c_ai *ai = ecs_get(g->w, e, COMP_AI);
			const char *state = !ai ? "" : ai->paralysed > 0 ? "paralysed " : ai->confused > 0 ? "confused " : "";
			/* the player is "you" (the look cursor starts there); a stack
			 * "3 health potions" */
			char what[64];
			const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
			int count = it ? items_count(g, e) : 1;
			if (count > 1)
				snprintf(what, sizeof what, "%d %s", count, content_items[it->kind].plural);
			else
				snprintf(what, sizeof what, "%s", e == g->player ? "you" : world_name(g, e));
			int n = snprintf(buf + used, (size_t)(len - used), "%s%s%s", used ? ", " : "", state, what);
			if (n < 0 || used + n >= len) {
				buf[len - 1] = 0;
				return buf;
			}
			used += n;
		}
	}
	return used ? buf : NULL;
}

/* ---- checksum: FNV-1a over integers, fed byte by byte little-endian ---- */

struct hash {
	uint64_t h;
};

static inline void h_u64(struct hash *h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h->h ^= (v >> (8 * i)) & 0xFF;
		h->h *= 0x100000001B3ULL;
	}
}

static inline void h_i(struct hash *h, int v)
{
	h_u64(h, (uint64_t)(int64_t)v);
}

static inline void h_bytes(struct hash *h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		h->h ^= b[i];
		h->h *= 0x100000001B3ULL;
	}
}

static inline void h_str(struct hash *h, const char *s)
{
	size_t n = strlen(s);
	h_u64(h, n);
	h_bytes(h, s, n);
}

/* One field of a component: each value widened as serial_value does, a
 * string as its length and bytes. */
static inline void hash_field(struct hash *h, const struct serial_field *f, const unsigned char *p)
{
	if (f->kind == SERIAL_CHARS) {
		h_str(h, (const char *)p);
		return;
	}
	for (int k = 0; k < f->n; k++)
		h_u64(h, serial_value(f, p, k));
}

/* The entity's id, its component set, and every field the save holds of
 * each of its components (serial_fields: one list of them for both). */
static inline void hash_entity(struct hash *h, const struct game *g, ecs_entity e)
{
	uint32_t mask = ecs_mask(g->w, e);
	h_u64(h, e);
	h_u64(h, mask);
	for (int c = 0; c < COMP_COUNT; c++) {
		if (!(mask & ECS_BIT(c)))
			continue;
		const unsigned char *s = ecs_get(g->w, e, c);
		int nf;
		const struct serial_field *f = serial_fields(c, &nf);
		for (int i = 0; i < nf; i++)
			hash_field(h, &f[i], s + f[i].off);
	}
}

uint64_t game_checksum(const struct game *g)
{
	struct hash h = { 0xCBF29CE484222325ULL };
	h_u64(&h, g->seed);
	h_i(&h, g->mapgen);
	h_u64(&h, g->rng.state);
	h_u64(&h, g->rng.inc);
	h_i(&h, g->turn);
	h_i(&h, g->depth);
	h_i(&h, g->over);
	h_u64(&h, g->player);
	/* where stacks started, when not at the start (an old save continued):
	 * a game with stacks from the start, or none ever, hashes as a game
	 * before stacks did, so they are told apart only once they differ */
	if (g->stacks_from > 0)
		h_i(&h, g->stacks_from);
	h_i(&h, g->nfloors);
	for (int f = 0; f < g->nfloors; f++) {
		const struct map *m = g->floors[f];
		h_i(&h, m->w);
		h_i(&h, m->h);
		size_t cells = (size_t)m->w * (size_t)m->h;
		h_bytes(&h, m->tile, cells);
		h_bytes(&h, m->visible, cells);
		h_bytes(&h, m->explored, cells);
		h_i(&h, m->nrooms);
		for (int r = 0; r < m->nrooms; r++) {
			h_i(&h, m->rooms[r].x);
			h_i(&h, m->rooms[r].y);
			h_i(&h, m->rooms[r].w);
			h_i(&h, m->rooms[r].h);
		}
		h_i(&h, m->up_x);
		h_i(&h, m->up_y);
		h_i(&h, m->down_x);
		h_i(&h, m->down_y);
	}
	uint32_t slots = ecs_slots(g->w);
	h_u64(&h, slots);
	for (uint32_t i = 0; i < slots; i++) {
		ecs_entity e = ecs_slot_entity(g->w, i);
		if (e != ECS_NULL)
			hash_entity(&h, g, e);
	}
	h_i(&h, g->log_count);
	for (int i = 0; i < g->log_count; i++) {
		const struct game_msg *m = game_msg_get(g, i);
		h_str(&h, m->text);
		h_u64(&h, m->fg);
		h_i(&h, m->count);
	}
	return h.h;
}

