/* world: the game state behind game.h (floors, entities, log) and the helpers the rules share; also used by tests and benches. */
#ifndef PIROGUE_GAME_WORLD_H
#define PIROGUE_GAME_WORLD_H
#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"
#include "ecs/ecs.h"
#include "game/components.h"
#include "game/content.h"
#include "game/game.h"
#include "game/history.h"
#include "game/limits.h"
#include "game/map.h"
#include "game/mapgen.h"

#define WORLD_CELLS MAP_MAX_CELLS
/* Entities with a position one floor can list (struct world_here). */
#define WORLD_HERE_MAX 4096
#define WORLD_HERE_NONE UINT32_MAX
#define AI_GOAL_CACHE 4

/* Scratch of the monster phase: not game state (never hashed or saved). */
#define AI_GHOSTS 8
#define AI_ROW_WORDS ((MAP_MAX_W + 2 + 63) / 64 + 1)
#define AI_LIST_MAX 2048
#define WORLD_MEMO_AT 64 /* cells of world_memo named one by one */
struct ai_scratch {
	/* The player's distance map of this phase (ai.c), grown outwards from
	 * the player only as far as the monsters that ask need: dist[c] holds
	 * when mark[c] is gen (reached) or gen + 1 (settled: final, and every
	 * cell nearer than it is settled too). Two FIFO queues (cells entered at
	 * cost 1, and at crowd cost) stand in for a priority queue. */
	uint16_t dist[WORLD_CELLS];
	uint32_t mark[WORLD_CELLS];
	uint32_t gen;
	int32_t qa[WORLD_CELLS], qb[WORLD_CELLS];
	int qa_head, qa_tail, qb_head, qb_tail;
	bool player_map; /* started this phase */
	/* Walkable cells of the floor walk_of as bit rows (row y + 1, bit
	 * x + 1: a border of zeros all round), made once per floor; open[] is
	 * the walkable cells the player's map has not reached yet, so growing
	 * it looks only at new cells. */
	const struct map *walk_of;
	uint64_t walk[MAP_MAX_H + 2][AI_ROW_WORDS], open[MAP_MAX_H + 2][AI_ROW_WORDS];
	/* Maps towards the places where monsters last saw the player (for those
	 * that lost sight of him): steps over the floor's walls only (other
	 * monsters are not in them), so a map stays true from turn to turn on
	 * its floor. The last AI_GOAL_CACHE goals are kept, each grown breadth
	 * first only as far as the monsters that ask need (dist[c] is
	 * PATH_UNREACHABLE where it has not reached yet; queue[head..tail) are
	 * the cells reached and not expanded). */
	struct ai_goal {
		const struct map *map; /* NULL: a free slot */
		int gx, gy;
		int head, tail;
		uint16_t dist[WORLD_CELLS];
		int32_t queue[WORLD_CELLS];
	} goal[AI_GOAL_CACHE];
	int goal_next;
	/* cells of monsters killed during this phase: still costly for the
	 * player's map if it starts later in it, as the monster's cell was */
	int ghost[AI_GHOSTS];
	int nghost;
	int dijkstra_runs; /* distance maps started (for tests and benches) */
	/* the phase's floor and where the player stands (he does not move
	 * during the monsters' phase) */
	const struct map *map;
	int px, py;
	/* The monsters of the floor in slot order, kept from phase to phase
	 * while no entity gains or loses COMP_AI or COMP_POS and the floor is
	 * the same (monsters never change floors). A floor with more than
	 * AI_LIST_MAX monsters has them listed and acting a list at a time
	 * (list_ok false: nothing is kept). */
	bool list_ok;
	int list_depth;
	uint32_t list_ai, list_pos; /* ecs_pool_version of both when made */
	uint32_t nlist;
	ecs_entity list[AI_LIST_MAX];
	/* list[i]'s places in COMP_AI's and COMP_POS's pools, true while
	 * ecs_members_version is at_members (no entity joined or left any
	 * pool since the list was made) */
	uint32_t list_aiat[AI_LIST_MAX], list_posat[AI_LIST_MAX];
	uint32_t at_members;
	/* Called after each monster's action in ai_take_turns (NULL: nothing).
	 * For tests: no rule of today's makes an entity join a pool during
	 * the phase (a death only leaves them), so this is how a test makes
	 * one join or leave mid-phase, as a rule might. */
	void (*acted)(struct game *g, ecs_entity e);
};

struct game {
	struct ecs_world *w;
	struct rng rng;
	uint64_t seed;
	enum mapgen_kind mapgen;
	int map_w, map_h; /* the size of every floor of this game */
	struct map **floors; /* floors[d-1] for depth d; generated on first visit */
	int nfloors, capfloors;
	int depth;
	int turn;
	bool over;
	ecs_entity player;
	struct game_msg log[GAME_LOG_MAX]; /* ring: oldest at log_start */
	int log_start, log_count;
	uint32_t log_seq; /* writes to log[] (world_msg's; wraps): game_digest's cue */
	struct history hist; /* every command given since the seed (game_history) */
	int stacks_from; /* struct game_opts; GAME_STACKS_NEVER or >= 0 */
	bool stacking;   /* stacks apply now: the history has reached stacks_from (derived) */
	/* Derived, rebuilt from the state (never hashed or saved): */
	struct game_dig *dig; /* what the last game_digest saw (game/digest.h) */
	ecs_entity occ[WORLD_CELLS]; /* blocker on each cell of the current floor (y * map_w + x) */
	struct ai_scratch ai;
	/* Where what the player remembers of corpses and items can change
	 * (world_update_memory): the cells of floor `map` (the current one)
	 * where an entity lies or is remembered that is not settled (settled:
	 * known, remembered where it lies, and if an item, seen), as the last
	 * walk over them left them. Valid while no entity gains or loses
	 * COMP_POS, COMP_MEMORY or COMP_ITEM (v). */
	struct world_memo {
		bool ok;
		const struct map *map;
		uint32_t v; /* ecs_pools_version of WORLD_MEMO_POOLS when made */
		int unsettled; /* entities not settled on the floor */
		int walks;     /* walks made (for tests and benches) */
		uint8_t cell[WORLD_CELLS];
		/* the cells marked (indices into cell[]), as many as were marked;
		 * the first WORLD_MEMO_AT of them in at[] */
		int nat;
		int32_t at[WORLD_MEMO_AT];
		/* cell[] is 0 past the first `dirty` bytes (what the next walk
		 * clears when more than WORLD_MEMO_AT are marked) */
		int dirty;
	} memo;
	/* The entities with a position on the current floor, as their indices
	 * in COMP_POS's pool (pool order) and in COMP_RENDER's, COMP_MEMORY's,
	 * COMP_ACTOR's, COMP_ITEM's, COMP_AI's and COMP_CORPSE's
	 * (WORLD_HERE_NONE: without one), listed by world_refresh_view so that
	 * what walks the floor's entities (game_drawables) need not pass over
	 * every other floor's nor look each one up. Valid while the current
	 * floor is `depth` and no entity has gained or lost any of the seven
	 * (their versions): only the player changes floors, and the current
	 * floor with him. A floor with more than WORLD_HERE_MAX is not listed
	 * (ok false: walked whole). draw[0..n) is the list's places in drawing
	 * order (world_draw_key as the looks were when listed; an entity
	 * without a look last): a look's order may change in place (a monster
	 * dies), so a reader checks the keys still rise. */
	struct world_here {
		bool ok;
		int depth;
		uint32_t v, n; /* v: ecs_pools_version of WORLD_HERE_POOLS when made */
		uint32_t members; /* ecs_members_version when made or last found valid */
		uint32_t pos[WORLD_HERE_MAX], render[WORLD_HERE_MAX], memory[WORLD_HERE_MAX];
		uint32_t actor[WORLD_HERE_MAX], item[WORLD_HERE_MAX], ai[WORLD_HERE_MAX], corpse[WORLD_HERE_MAX];
		uint32_t draw[WORLD_HERE_MAX];
		/* The places with a look in drawing order, packed for the walk
		 * of every frame (game_drawables): place j = draw[jd] as its
		 * indices in COMP_POS's, COMP_RENDER's and COMP_MEMORY's pools,
		 * and its look's order when listed (while every order is as
		 * listed, so are the keys: they rise); ndrawn of them. */
		uint32_t ndrawn;
		struct world_here_drawn {
			uint32_t pos, render, memory, j;
			int order;
		} drawn[WORLD_HERE_MAX];
	} here;
	/* What the last command did, for the stops of auto-explore (scratch: a
	 * loaded game starts with none): */
	struct {
		int hp_before;       /* the player's HP before the last command */
		ecs_entity new_item; /* an item first seen during it, or ECS_NULL */
		int acked;           /* hist.n when an event stop was last reported */
	} events;
};

/* Creates the state without any floor (game_create then enters floor 1). */
int world_create(struct game **out, uint64_t seed, enum mapgen_kind k);
/* Frees the state, every floor and entity with it; accepts NULL. */
void world_destroy(struct game *g);

/* Where entity e, drawn as r, comes in the drawing order of the floor's
 * drawables (game_drawables): by its look's order (corpses, items,
 * actors), the player last of the actors, then by its slot. */
static inline uint64_t world_draw_key(const struct game *g, ecs_entity e, const struct c_render *r)
{
	return ((uint64_t)(uint32_t)r->order << 40) | ((uint64_t)(e == g->player) << 32) | ECS_INDEX(e);
}

/* The map of floor depth (1-based) or NULL when not generated yet. */
static inline struct map *world_floor(const struct game *g, int depth)
{
	return depth >= 1 && depth <= g->nfloors ? g->floors[depth - 1] : NULL;
}
/* Generates floor depth (which must be nfloors + 1) and places its monsters
 * (none on either stairs or on (avoid_x, avoid_y)). Returns 0 or -errno. */
int world_generate_floor(struct game *g, int depth);
/* Places monsters, then items, per room on floor depth by the spawn tables
 * (GAME.md §5): randint(0, max) of each per room, on a random cell of the
 * room, kind by the floor's weights; a draw that falls on a staircase, on
 * (avoid_x, avoid_y) or on a cell already holding a monster (an item draw:
 * a monster or an item) is dropped. */
void world_populate(struct game *g, int depth, int avoid_x, int avoid_y);
/* Spawns an item of kind on floor at (x, y). Returns 0 or -errno. */
int world_spawn_item(struct game *g, int kind, int floor, int x, int y, ecs_entity *out);
/* The first item lying at (x, y) of floor (entity order), or ECS_NULL. */
ecs_entity world_item_at(const struct game *g, int floor, int x, int y);

/* Spawns an actor of kind on floor at (x, y) with its table stats. The
 * player kind makes the player (only once). Returns 0 or -errno. */
int world_spawn_actor(struct game *g, enum actor_kind kind, int floor, int x, int y, ecs_entity *out);
/* Destroys every item lying on floor (not the carried ones). */
void world_clear_items(struct game *g, int floor);
/* Destroys every monster (living or dead) of floor. */
void world_clear_monsters(struct game *g, int floor);
/* The entity blocking (x, y) on floor, or ECS_NULL. */
ecs_entity world_blocker_at(const struct game *g, int floor, int x, int y);
/* True when (x, y) lies on this game's floors (all of them map_w x
 * map_h): the cells the occupancy grid holds and a saved position may name. */
bool world_on_floor(const struct game *g, int x, int y);
/* Moves e (on the current floor) to (x, y), keeping the occupancy grid. */
void world_move(struct game *g, ecs_entity e, int x, int y);
/* The same for an e that blocks (has COMP_BLOCKS) whose position p (its
 * COMP_POS) is at hand: moves it to (x, y) of its floor, and on the current
 * floor keeps the occupancy grid. */
void world_move_pos(struct game *g, ecs_entity e, struct c_pos *p, int x, int y);
/* Makes e stop blocking (a monster dying): removes its COMP_BLOCKS and its
 * mark in the occupancy grid. */
void world_unblock(struct game *g, ecs_entity e);
/* Moves the player to (x, y) of floor depth (which must exist) and makes
 * it the current floor, with room for a floor's commands in a history
 * without a store (hist_reserve, HIST_RESERVE). */
void world_put_player(struct game *g, int depth, int x, int y);
/* Rebuilds the occupancy grid of the current floor. */
void world_rebuild_occ(struct game *g);
/* Recomputes the player's FOV on the current floor and updates what the
 * player remembers of corpses and items. */
void world_refresh_view(struct game *g);
/* The list of the current floor's entities (struct world_here: their
 * indices in the pools of COMP_POS, COMP_RENDER, COMP_MEMORY, COMP_ACTOR,
 * COMP_ITEM, COMP_AI and COMP_CORPSE, as ecs_pool_view gives them, in
 * COMP_POS's order), or NULL when it is not at hand (not made since the
 * floor or the entities having any of the seven last changed, or too
 * long): then walk the pools. */
const struct world_here *world_here(const struct game *g);
/* Updates only what the player remembers of corpses and items from the
 * current visible[] (enough when the player has not moved): every one
 * lying in view is remembered there (an item is then seen, the first one
 * newly seen noted in events.new_item), and one remembered at a cell in
 * view where it no longer lies is forgotten. The work is the view's box
 * while nothing is to be remembered anew; a walk over the corpses and
 * items when something is, or when an entity gained or lost COMP_POS, COMP_MEMORY
 * or COMP_ITEM. Expects that an entity with COMP_MEMORY changes its
 * position, memory or seen flag only through those (an item picked up
 * loses COMP_POS, one dropped gains it) or through this function. */
void world_update_memory(struct game *g);
/* True when (x, y) of the current floor is in the player's view (inline:
 * every monster asks it every turn). */
static inline bool world_visible(const struct game *g, int x, int y)
{
	const struct map *m = world_floor(g, g->depth);
	return m && map_in(m, x, y) && m->visible[y * m->w + x];
}
/* The name of e ("orc"), "" when it has none. */
const char *world_name(const struct game *g, ecs_entity e);

/* Appends a message (printf format) to the log; identical to the newest
 * message (text and colour) it raises that message's count instead. */
void world_msg(struct game *g, uint32_t fg, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
