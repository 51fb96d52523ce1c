/* ai: monster turns on the current floor (GAME.md §2). */
#include "game/ai.h"

#include <stdlib.h>
#include <string.h>

#include "game/combat.h"
#include "game/path.h"

static const int dir_dx[8] = {0, 1, 0, -1, 1, 1, -1, -1};
static const int dir_dy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};

/* Cost of entering cell i: 0 for a wall, crowd_cost under another monster
 * (or where one died this phase), 1 otherwise. */
static inline unsigned cell_cost(const struct game *g, const struct map *m, int i)
{
	if (m->tile[i] == TILE_WALL)
		return 0;
	ecs_entity e = g->occ[i];
	if (e != ECS_NULL && e != g->player)
		return (unsigned)content_rules.crowd_cost;
	for (int k = 0; k < g->ai.nghost; k++)
		if (g->ai.ghost[k] == i)
			return (unsigned)content_rules.crowd_cost;
	return 1;
}

void ai_begin_phase(struct game *g)
{
	struct ai_scratch *s = &g->ai;
	s->gen += 2;
	if (s->gen < 2) { /* wrapped (after 2^31 phases): forget every mark */
		memset(s->mark, 0, sizeof(s->mark));
		s->gen = 2;
	}
	s->player_map = false;
	s->nghost = 0;
	s->map = world_floor(g, g->depth);
	const struct c_pos *pp = ecs_get(g->w, g->player, COMP_POS);
	s->px = pp ? pp->x : -1;
	s->py = pp ? pp->y : -1;
}

static inline void bit_clear(uint64_t (*rows)[AI_ROW_WORDS], int x, int y)
{
	rows[y + 1][(x + 1) >> 6] &= ~((uint64_t)1 << ((x + 1) & 63));
}

/* The player's map: starts it (the goal settled at 0). */
static void player_map_start(struct game *g, int gx, int gy)
{
	struct ai_scratch *s = &g->ai;
	const struct map *m = g->ai.map;
	if (s->walk_of != m) { /* a new floor: its walkable cells as bits */
		memset(s->walk, 0, sizeof(s->walk));
		for (int y = 0; y < m->h; y++)
			for (int x = 0; x < m->w; x++)
				if (m->tile[y * m->w + x] != TILE_WALL)
					s->walk[y + 1][(x + 1) >> 6] |= (uint64_t)1 << ((x + 1) & 63);
		s->walk_of = m;
	}
	memcpy(s->open, s->walk, (size_t)(m->h + 2) * sizeof(s->open[0]));
	int i = gy * m->w + gx;
	bit_clear(s->open, gx, gy);
	s->dist[i] = 0;
	s->mark[i] = s->gen;
	s->qa[0] = i;
	s->qa_head = 0;
	s->qa_tail = 1;
	s->qb_head = s->qb_tail = 0;
	s->player_map = true;
	s->dijkstra_runs++;
}

/* Grows the player's map until cell `until` is settled (-1: all of it).
 * Each cell is entered at its own cost, and cells leave the queues in
 * order of distance, so a cell's distance is final when first reached:
 * each is queued once, in the queue of its cost, and both queues stay
 * sorted. */
static void player_map_grow(struct game *g, int until)
{
	struct ai_scratch *s = &g->ai;
	const struct map *m = g->ai.map;
	const uint32_t gen = s->gen;
	const ecs_entity player = g->player;
	const unsigned crowd = (unsigned)content_rules.crowd_cost;
	const bool ghosts = s->nghost > 0;
	/* the 3x3 block's bits: bit k is (k % 3 - 1, k / 3 - 1) */
	const int W = m->w, off9[9] = {-W - 1, -W, -W + 1, -1, 0, 1, W - 1, W, W + 1};
	while (until < 0 || s->mark[until] != gen + 1) {
		int u;
		if (s->qa_head < s->qa_tail &&
		    (s->qb_head == s->qb_tail || s->dist[s->qa[s->qa_head]] <= s->dist[s->qb[s->qb_head]]))
			u = s->qa[s->qa_head++];
		else if (s->qb_head < s->qb_tail)
			u = s->qb[s->qb_head++];
		else
			return; /* all reachable cells settled */
		s->mark[u] = gen + 1;
		unsigned du = s->dist[u];
		int uy = u / W, ux = u - uy * W;
		/* the neighbours not reached yet (walls and the map's outside are
		 * never open): columns ux - 1 .. ux + 1 are bits ux .. ux + 2 of
		 * rows uy .. uy + 2 */
		int wi = ux >> 6, o = ux & 63;
		uint64_t *r0 = s->open[uy], *r1 = s->open[uy + 1], *r2 = s->open[uy + 2];
		uint64_t a0 = r0[wi] >> o, a1 = r1[wi] >> o, a2 = r2[wi] >> o;
		if (o > 61) {
			a0 |= r0[wi + 1] << (64 - o);
			a1 |= r1[wi + 1] << (64 - o);
			a2 |= r2[wi + 1] << (64 - o);
		}
		unsigned nb = (unsigned)(a0 & 7) | (unsigned)(a1 & 7) << 3 | (unsigned)(a2 & 7) << 6;
		if (!nb)
			continue;
		/* all of them are reached now */
		r0[wi] &= ~((a0 & 7) << o);
		r1[wi] &= ~((a1 & 7) << o);
		r2[wi] &= ~((a2 & 7) << o);
		if (o > 61) {
			r0[wi + 1] &= ~((a0 & 7) >> (64 - o));
			r1[wi + 1] &= ~((a1 & 7) >> (64 - o));
			r2[wi + 1] &= ~((a2 & 7) >> (64 - o));
		}
		while (nb) {
			int k = __builtin_ctz(nb);
			nb &= nb - 1;
			int v = u + off9[k];
			ecs_entity e = g->occ[v];
			unsigned c = (e != ECS_NULL && e != player) || (ghosts && cell_cost(g, m, v) != 1) ? crowd : 1;
			unsigned nd = du + c;
			s->dist[v] = (uint16_t)(nd < PATH_UNREACHABLE - 1 ? nd : PATH_UNREACHABLE - 1);
			s->mark[v] = gen;
			if (c == 1)
				s->qa[s->qa_tail++] = v;
			else
				s->qb[s->qb_tail++] = v;
		}
	}
}

/* Settles the rest of the player's map (if one is under way): before a
 * confused monster stumbles (it may kill, and moves anywhere). Otherwise a
 * cell's cost is read when the map first reaches it: the hunters step only
 * between cells it has settled, and those out of sight (which do not use
 * it) may move where it has not reached yet. */
static void player_map_finish(struct game *g)
{
	if (g->ai.player_map)
		player_map_grow(g, -1);
}

/* Distance from cell i to the player on his map (settled up to i first). */
static unsigned player_dist_at(struct game *g, int i)
{
	struct ai_scratch *s = &g->ai;
	if (!s->player_map)
		player_map_start(g, s->px, s->py);
	player_map_grow(g, i);
	return s->mark[i] == s->gen + 1 || s->mark[i] == s->gen ? s->dist[i] : PATH_UNREACHABLE;
}

/* The map towards (gx, gy) over the walls of the phase's floor (one of
 * the kept ones, or a new one), grown until it reaches cell until (or all it
 * can reach): then every cell nearer to the goal than until is in it. */
static const uint16_t *goal_dist(struct game *g, int gx, int gy, int until)
{
	struct ai_scratch *s = &g->ai;
	const struct map *m = s->map;
	struct ai_goal *gl = NULL;
	for (int i = 0; i < AI_GOAL_CACHE && !gl; i++)
		if (s->goal[i].map == m && s->goal[i].gx == gx && s->goal[i].gy == gy)
			gl = &s->goal[i];
	if (!gl) { /* the oldest goal makes room */
		gl = &s->goal[s->goal_next];
		s->goal_next = (s->goal_next + 1) % AI_GOAL_CACHE;
		gl->map = m;
		gl->gx = gx;
		gl->gy = gy;
		memset(gl->dist, 0xFF, (size_t)m->w * (size_t)m->h * sizeof(gl->dist[0]));
		gl->dist[gy * m->w + gx] = 0;
		gl->queue[0] = gy * m->w + gx;
		gl->head = 0;
		gl->tail = 1;
		s->dijkstra_runs++;
	}
	while (gl->dist[until] == PATH_UNREACHABLE && gl->head < gl->tail) {
		int u = gl->queue[gl->head++], uy = u / m->w, ux = u - uy * m->w;
		uint16_t du = (uint16_t)(gl->dist[u] + 1);
		for (int d = 0; d < 8; d++) {
			int nx = ux + dir_dx[d], ny = uy + dir_dy[d], v = ny * m->w + nx;
			if ((unsigned)nx >= (unsigned)m->w || (unsigned)ny >= (unsigned)m->h || m->tile[v] == TILE_WALL ||
			    gl->dist[v] != PATH_UNREACHABLE)
				continue;
			gl->dist[v] = du;
			gl->queue[gl->tail++] = v;
		}
	}
	return gl->dist;
}

/* Moves e one step down a distance map (the player's when dist is NULL),
 * onto a free cell only (the map is from its start in this phase; monsters
 * that moved since are checked live). Returns true when it moved. */
static bool step_down(struct game *g, ecs_entity e, const struct c_pos *p, const uint16_t *dist)
{
	const struct map *m = g->ai.map;
	int at = p->y * m->w + p->x;
	int here = dist ? dist[at] : (int)player_dist_at(g, at);
	int best = -1, bestd = here;
	for (int d = 0; d < 8; d++) {
		int nx = p->x + dir_dx[d], ny = p->y + dir_dy[d];
		if ((unsigned)nx >= (unsigned)m->w || (unsigned)ny >= (unsigned)m->h)
			continue;
		int i = ny * m->w + nx;
		if (m->tile[i] == TILE_WALL)
			continue;
		/* on the player's map, a neighbour nearer than here is settled;
		 * one not reached yet is not nearer */
		int di = dist ? dist[i]
			      : (g->ai.mark[i] == g->ai.gen || g->ai.mark[i] == g->ai.gen + 1 ? g->ai.dist[i]
											   : PATH_UNREACHABLE);
		if (di >= bestd || g->occ[i] != ECS_NULL)
			continue;
		best = d;
		bestd = di;
	}
	if (best < 0)
		return false;
	world_move_pos(g, e, ecs_get_mut(g->w, e, COMP_POS), p->x + dir_dx[best], p->y + dir_dy[best]);
	return true;
}

static void stumble(struct game *g, ecs_entity e, const struct c_pos *p)
{
	const struct map *m = g->ai.map;
	int d = rng_range(&g->rng, 0, 7);
	int nx = p->x + dir_dx[d], ny = p->y + dir_dy[d];
	if (!map_walkable(m, nx, ny))
		return; /* bumps into the wall */
	player_map_finish(g); /* this may change costs anywhere */
	ecs_entity other = world_blocker_at(g, g->depth, nx, ny);
	if (other != ECS_NULL) {
		combat_attack(g, e, other);
		int i = ny * m->w + nx;
		if (other != g->player && g->occ[i] == ECS_NULL && g->ai.nghost < AI_GHOSTS)
			g->ai.ghost[g->ai.nghost++] = i; /* killed it */
		return;
	}
	world_move_pos(g, e, ecs_get_mut(g->w, e, COMP_POS), nx, ny);
}

void ai_act(struct game *g, ecs_entity e)
{
	/* read here, written only where it changes (ecs_get_mut marks what it
	 * hands out: most monsters, asleep or on other floors, write nothing) */
	const struct c_ai *ai = ecs_get(g->w, e, COMP_AI);
	const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
	if (!ai || !p || p->floor != g->depth || g->over)
		return;
	/* asleep or idle, out of sight, neither paralysed nor confused (most
	 * monsters, most turns): nothing below would happen, alive or not */
	if (ai->state != AI_HUNTING && ai->paralysed <= 0 && ai->confused <= 0 && !world_visible(g, p->x, p->y))
		return;
	const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
	if (!a || a->hp <= 0)
		return;
	if (ai->paralysed > 0) {
		((struct c_ai *)ecs_get_mut(g->w, e, COMP_AI))->paralysed--;
		return;
	}
	if (ai->confused > 0) {
		((struct c_ai *)ecs_get_mut(g->w, e, COMP_AI))->confused--;
		stumble(g, e, p);
		/* e may have died attacking (never: attacks do not rebound), but
		 * its components may have moved in memory: fetch again. */
		ai = ecs_get(g->w, e, COMP_AI);
		p = ecs_get(g->w, e, COMP_POS);
		if (ai && ai->confused == 0 && p && world_visible(g, p->x, p->y))
			world_msg(g, GAME_MSG_DEFAULT, "The %s is no longer confused.", world_name(g, e));
		return;
	}
	const int px = g->ai.px, py = g->ai.py;
	if (world_visible(g, p->x, p->y)) {
		if (ai->state != AI_HUNTING || ai->last_x != px || ai->last_y != py) {
			struct c_ai *w = ecs_get_mut(g->w, e, COMP_AI);
			w->state = AI_HUNTING;
			w->last_x = px;
			w->last_y = py;
		}
		int dx = abs(px - p->x), dy = abs(py - p->y);
		if ((dx > dy ? dx : dy) <= 1) {
			combat_attack(g, e, g->player);
			return;
		}
		(void)step_down(g, e, p, NULL);
		return;
	}
	if (ai->state != AI_HUNTING)
		return;
	if (p->x == ai->last_x && p->y == ai->last_y) {
		((struct c_ai *)ecs_get_mut(g->w, e, COMP_AI))->state = AI_IDLE; /* nobody here any more */
		return;
	}
	/* out of sight: to where it saw him last, around the walls */
	if (!step_down(g, e, p, goal_dist(g, ai->last_x, ai->last_y, p->y * g->map_w + p->x)))
		((struct c_ai *)ecs_get_mut(g->w, e, COMP_AI))->state = AI_IDLE; /* cannot get there: give up */
}

/* Slots handled per pass of the phase's list (a bit each, on the stack). */
#define PHASE_CHUNK 4096

/* Sets in bits (nw words, slots base .. base + 64 nw - 1) the slots of
 * the monsters on the current floor. */
static void floor_monster_bits(const struct game *g, uint32_t base, uint64_t *bits, uint32_t nw)
{
	memset(bits, 0, nw * sizeof(bits[0]));
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_AI) | ECS_BIT(COMP_POS));
	for (ecs_entity e; ecs_query_next(&q, &e);) {
		uint32_t i = ECS_INDEX(e) - base;
		if (i >= nw * 64)
			continue;
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		if (p->floor == g->depth)
			bits[i / 64] |= (uint64_t)1 << (i % 64);
	}
}

/* Words of the bit map for the slots from base (at most PHASE_CHUNK bits). */
static uint32_t chunk_words(uint32_t slots, uint32_t base)
{
	return (slots - base < PHASE_CHUNK ? slots - base + 63 : PHASE_CHUNK) / 64;
}

/* Makes the phase's list (see struct ai_scratch): the monsters of the floor
 * in slot order from slot `from` on, read from bit maps (no sort, no
 * allocation), until AI_LIST_MAX of them. Returns the slot to go on from
 * (ecs_slots when the list holds all the rest). A list from slot 0 that
 * holds them all is kept for the next phase. */
static uint32_t make_list(struct game *g, uint32_t from)
{
	struct ai_scratch *s = &g->ai;
	uint32_t slots = ecs_slots(g->w);
	s->nlist = 0;
	s->list_ok = false;
	s->at_members = ecs_members_version(g->w);
	for (uint32_t base = from; base < slots; base += PHASE_CHUNK) {
		uint64_t bits[PHASE_CHUNK / 64];
		uint32_t nw = chunk_words(slots, base);
		floor_monster_bits(g, base, bits, nw);
		for (uint32_t k = 0; k < nw; k++)
			for (uint64_t b = bits[k]; b; b &= b - 1) {
				uint32_t slot = base + k * 64 + (uint32_t)__builtin_ctzll(b);
				if (s->nlist == AI_LIST_MAX)
					return slot;
				ecs_entity e = ecs_slot_entity(g->w, slot);
				s->list_aiat[s->nlist] = ecs_index(g->w, e, COMP_AI);
				s->list_posat[s->nlist] = ecs_index(g->w, e, COMP_POS);
				s->list[s->nlist++] = e;
			}
	}
	s->list_ok = from == 0;
	s->list_depth = g->depth;
	s->list_ai = ecs_pool_version(g->w, COMP_AI);
	s->list_pos = ecs_pool_version(g->w, COMP_POS);
	return slots;
}

void ai_take_turns(struct game *g)
{
	if (ecs_pool_count(g->w, COMP_AI) == 0 || g->over)
		return;
	struct ai_scratch *s = &g->ai;
	ai_begin_phase(g);
	/* The list is kept while it holds the same monsters as last turn;
	 * monsters dying during the phase change the versions, so it is remade
	 * next turn (now the dead are skipped). More than AI_LIST_MAX monsters
	 * act a list at a time, each list made when the one before has acted. */
	uint32_t next = ecs_slots(g->w);
	if (!s->list_ok || s->list_depth != g->depth || s->list_ai != ecs_pool_version(g->w, COMP_AI) ||
	    s->list_pos != ecs_pool_version(g->w, COMP_POS))
		next = make_list(g, 0);
	else
		s->at_members = ecs_members_version(g->w); /* (the places hold as both pools are unchanged) */
	for (;;) {
		const ecs_entity *unused;
		const void *adata, *pdata;
		(void)ecs_pool_view(g->w, COMP_AI, &unused, &adata);
		(void)ecs_pool_view(g->w, COMP_POS, &unused, &pdata);
		const struct c_ai *ais = adata;
		const struct c_pos *pos = pdata;
		/* while no entity joined or left any pool (a death does; only
		 * ai_act can, so it is looked at again only after each), the
		 * list's places hold: one asleep or idle, neither paralysed nor
		 * confused, on another floor or out of sight, does nothing (as
		 * ai_act would find); a hunting one is handed to ai_act without
		 * its position read (the list holds this floor's only) */
		const uint32_t *members = ecs_members_at(g->w);
		bool placed = *members == s->at_members;
		for (uint32_t i = 0; i < s->nlist && !g->over; i++) {
			if (placed) {
				const struct c_ai *ai = &ais[s->list_aiat[i]];
				if (ai->state != AI_HUNTING && ai->paralysed <= 0 && ai->confused <= 0) {
					const struct c_pos *p = &pos[s->list_posat[i]];
					if (p->floor != g->depth || !world_visible(g, p->x, p->y))
						continue;
				}
			}
			ai_act(g, s->list[i]); /* the dead are skipped */
			if (s->acted)
				s->acted(g, s->list[i]);
			placed = placed && *members == s->at_members;
		}
		if (next >= ecs_slots(g->w) || g->over)
			break;
		next = make_list(g, next);
	}
}
