/* ecs: entities as generational ids, components as plain structs in dense sparse-set pools, queries. */
#ifndef PIROGUE_ECS_ECS_H
#define PIROGUE_ECS_ECS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An entity id: slot index in the low 32 bits, the slot's generation in the
 * high 32 bits. Generations start at 1, so 0 (ECS_NULL) is never an entity.
 * Destroying an entity bumps its slot's generation; a slot whose generation
 * would wrap is retired for good, so a stale id never names a new entity. */
typedef uint64_t ecs_entity;
#define ECS_NULL ((ecs_entity)0)
#define ECS_INDEX(e) ((uint32_t)((e) & 0xFFFFFFFFu))
#define ECS_GEN(e) ((uint32_t)((e) >> 32))

/* At most this many component types per world (a query is a bit mask). */
#define ECS_MAX_COMPONENTS 32

struct ecs_world;

/* Creates an empty world. Returns 0 or -ENOMEM. */
int ecs_world_create(struct ecs_world **out);
/* Frees w, every entity and every component; accepts NULL. */
void ecs_world_destroy(struct ecs_world *w);

/* Registers a component type of size bytes (> 0). Returns its id (0, 1, 2 ...
 * in registration order), or -EINVAL (size 0) / -ENOSPC (ECS_MAX_COMPONENTS
 * reached). */
int ecs_register(struct ecs_world *w, size_t size);
/* Size in bytes of component type c (0 for an unknown type). */
size_t ecs_component_size(const struct ecs_world *w, int c);

/* Creates an entity with no components. Returns 0 with *out set, or
 * -ENOMEM / -ENOSPC (2^32-1 slots in use). */
int ecs_create(struct ecs_world *w, ecs_entity *out);
/* True when e names a living entity (not destroyed, not stale, not ECS_NULL).
 * An entity queued by ecs_destroy_later stays alive until ecs_flush. */
bool ecs_alive(const struct ecs_world *w, ecs_entity e);
/* Destroys e now with all its components. Returns 0, or -ENOENT when e is not
 * alive. Inside a query loop only the entity the query just returned may be
 * destroyed this way; use ecs_destroy_later for any other. */
int ecs_destroy(struct ecs_world *w, ecs_entity e);
/* Queues e for destruction at the next ecs_flush (safe at any time, also
 * while iterating; queuing twice is harmless). Returns 0, -ENOENT (not alive)
 * or -ENOMEM. */
int ecs_destroy_later(struct ecs_world *w, ecs_entity e);
/* True when e is queued by ecs_destroy_later. */
bool ecs_pending(const struct ecs_world *w, ecs_entity e);
/* Destroys every queued entity still alive, in the order queued. */
void ecs_flush(struct ecs_world *w);
/* Number of living entities (queued ones included). */
uint32_t ecs_count(const struct ecs_world *w);

/* Adds component c to e (or overwrites it when e already has it) with a copy
 * of init (size bytes of the registered size), or zeroed when init is NULL.
 * Returns a pointer to the stored component, valid until the next add or
 * remove of type c, or NULL when e is not alive, c is unknown, or on -ENOMEM. */
void *ecs_add(struct ecs_world *w, ecs_entity e, int c, const void *init);
/* Makes room for n entities having component c, so that adding c to that
 * many allocates nothing. Returns 0, -EINVAL for an unknown c, or -ENOMEM. */
int ecs_reserve(struct ecs_world *w, int c, uint32_t n);
/* Removes component c from e. Returns 0, or -ENOENT when e is not alive or
 * does not have c. Inside a query loop only the entity just returned may
 * lose components. */
int ecs_remove(struct ecs_world *w, ecs_entity e, int c);
/* Component c of e for reading, or NULL when e is not alive or lacks c. */
const void *ecs_get(const struct ecs_world *w, ecs_entity e, int c);
/* Component c of e for writing (the same entry ecs_get reads), or NULL when
 * e is not alive or lacks c; while writes are tracked (ecs_track_writes),
 * the entry is marked written. Write a component only through a pointer
 * from here, ecs_add or ecs_pool_view_mut, and only until the next
 * ecs_written_clear or ecs_pool_take_marks of its pool. */
void *ecs_get_mut(struct ecs_world *w, ecs_entity e, int c);
/* True when e is alive and has component c. */
bool ecs_has(const struct ecs_world *w, ecs_entity e, int c);
/* Bit mask (1u << c) of the component types e has; 0 when not alive. */
uint32_t ecs_mask(const struct ecs_world *w, ecs_entity e);
/* Number of entities having component c. */
uint32_t ecs_pool_count(const struct ecs_world *w, int c);
/* A number that changes whenever an entity gains or loses component c
 * (not when its data is written): a list of the entities having c stays
 * valid while it is unchanged. 0 for an unknown c. */
uint32_t ecs_pool_version(const struct ecs_world *w, int c);
/* The sum (wrapping) of ecs_pool_version over the pools c with
 * ECS_BIT(c) in mask: as each version only grows, it changes whenever an
 * entity gains or loses any of those components (short of 2^32 such
 * changes between two looks), so one number stands for them all. */
uint32_t ecs_pools_version(const struct ecs_world *w, uint32_t mask);
/* A number that changes whenever any entity gains or loses any component
 * (short of 2^32 such changes between two looks): while it is unchanged,
 * so is every ecs_pools_version. */
uint32_t ecs_members_version(const struct ecs_world *w);
/* Where ecs_members_version is kept: *it is that number for as long as w
 * lives (a loop reads it there, without a call each time). */
const uint32_t *ecs_members_at(const struct ecs_world *w);
/* Where e's component c is in its pool: the index of its entry in
 * ecs_pool_view's arrays (valid as they are), or UINT32_MAX when e is not
 * alive or lacks c. */
uint32_t ecs_index(const struct ecs_world *w, ecs_entity e, int c);
/* The entities having c and their components, side by side: sets *ents to
 * the entities and *data to their components of type c (entry i of each is
 * the same entity; ecs_component_size(w, c) bytes an entry) and returns
 * how many there are (0, both NULL, for an unknown c). For walking a whole
 * pool without a look-up per entity; valid until an entity gains or loses c
 * or ecs_reserve(w, c, ...) makes room. */
uint32_t ecs_pool_view(const struct ecs_world *w, int c, const ecs_entity **ents, const void **data);
/* The same for writing: while writes are tracked, the whole pool counts as
 * written (see ecs_written). */
uint32_t ecs_pool_view_mut(struct ecs_world *w, int c, const ecs_entity **ents, void **data);

/* Tracking writes, for one reader that keeps a copy of the pools up to date
 * (the game's digest) without comparing them whole: from this call on,
 * ecs_get_mut, ecs_add and ecs_pool_view_mut mark what they hand out for
 * writing, and adds and removes mark their pools; ecs_written_clear forgets
 * the marks. A world not tracked pays one test per write. */
void ecs_track_writes(struct ecs_world *w);
/* Whether ecs_track_writes was called on w. */
bool ecs_tracks_writes(const struct ecs_world *w);
/* Bit mask (ECS_BIT(c)) of the pools written or having gained or lost an
 * entity since tracking began or the last ecs_written_clear. */
uint32_t ecs_touched(const struct ecs_world *w);
/* The entries of pool c written since then: returns true when any entry may
 * have been (not tracked, a mutable view taken, or the marks could not be
 * kept); else false with *bits set to a bit set over the dense indices of
 * ecs_pool_view (bit i % 64 of word i / 64) of *nwords words (entries past
 * them were not written). Valid until the next write or clear. Gains and
 * losses are seen with ecs_pool_version, not here. */
bool ecs_written(const struct ecs_world *w, int c, const uint64_t **bits, uint32_t *nwords);
/* What ecs_pool_take_marks tells of a pool. */
struct ecs_pool_marks {
	const ecs_entity *ents;
	const void *data;
	uint32_t count, version;
	bool all;
	uint64_t *bits;
	uint32_t nwords;
};
/* All a reader of the marks needs of pool c in one call, the marks taken:
 * ecs_pool_view's entities, data and count, ecs_pool_version, and
 * ecs_written's answer (all: any entry may have been written; else bits
 * and nwords), after which pool c counts as unwritten and untouched
 * (ecs_touched). The bits are the pool's own, handed over: the caller sets
 * each of the nwords words to 0 (once read) before w is written again (a
 * word left set marks its entries again). For an unknown c: count 0, all
 * false. */
void ecs_pool_take_marks(struct ecs_world *w, int c, struct ecs_pool_marks *m);
/* Forgets every mark: the pools count as unwritten from here. */
void ecs_written_clear(struct ecs_world *w);

/* Enumeration of every slot for saving and hashing: slots 0..ecs_slots()-1;
 * ecs_slot_entity returns the living entity in slot i, or ECS_NULL. */
uint32_t ecs_slots(const struct ecs_world *w);
ecs_entity ecs_slot_entity(const struct ecs_world *w, uint32_t i);

/* Restoring a saved world exactly (ids, and the order in which freed slots
 * are reused, so that a loaded game goes on as the saved one would):
 * ecs_slot_gen is the generation of slot i (of its living entity, or the one
 * it will give next; 0xFFFFFFFF once retired); ecs_free_count/ecs_free_at
 * list the free slots, the last one reused first. */
uint32_t ecs_slot_gen(const struct ecs_world *w, uint32_t i);
uint32_t ecs_free_count(const struct ecs_world *w);
uint32_t ecs_free_at(const struct ecs_world *w, uint32_t i);
/* On an empty world (no slot used yet), sets up nslots dead slots with the
 * given generations and free list (every other slot counts as retired until
 * ecs_create_at revives it). Returns 0, -EBUSY (world not empty), -EINVAL
 * (a free index out of range, listed twice, or with a retired or zero
 * generation) or -ENOMEM. */
int ecs_restore_slots(struct ecs_world *w, uint32_t nslots, const uint32_t *gen, const uint32_t *free_idx,
		      uint32_t nfree);
/* Brings entity e back to life under its exact id: its slot must exist, not
 * be alive or in the free list, and have generation ECS_GEN(e). Returns 0,
 * or -EINVAL. */
int ecs_create_at(struct ecs_world *w, ecs_entity e);

/* A query: the entities having every component of a set. Usage:
 *     struct ecs_query q;
 *     ecs_query_init(&q, w, ECS_BIT(POS) | ECS_BIT(AI));
 *     for (ecs_entity e; ecs_query_next(&q, &e);) { ... }
 * Entities are visited in a fixed order that depends only on the history of
 * operations (deterministic). During the loop the current entity may be
 * destroyed or lose components, and components may be added to any entity
 * (entities gaining the set during the loop may or may not be visited);
 * anything else (destroying or removing from other entities) must go through
 * ecs_destroy_later. A mask of 0 visits every living entity. */
#define ECS_BIT(c) (1u << (c))
struct ecs_query {
	const struct ecs_world *w;
	uint32_t mask;
	int pool;     /* smallest pool of the set, -1 for all slots */
	uint32_t pos; /* next index to look at, counting down */
};
/* Starts a query over w for the entities having every component in mask
 * (ECS_BIT(c) | ...); it walks the smallest of those pools, or every slot for
 * an empty mask. No allocation; w must outlive the query. */
void ecs_query_init(struct ecs_query *q, const struct ecs_world *w, uint32_t mask);
/* Sets *e to the next matching entity and returns true, or returns false at
 * the end. */
bool ecs_query_next(struct ecs_query *q, ecs_entity *e);

#endif
