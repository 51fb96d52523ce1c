#include "ecs/ecs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NO_DENSE UINT32_MAX
#define GEN_RETIRED UINT32_MAX

/* One component type: a sparse set. sparse[slot] is the index into the
 * dense arrays or NO_DENSE; dense[i] is the entity, data + i*size its struct. */
struct pool {
	size_t size;
	uint32_t *sparse; /* world->cap entries */
	ecs_entity *dense;
	unsigned char *data;
	uint32_t count, cap;
	uint32_t version; /* bumped whenever an entity joins or leaves */
	uint64_t *wbits;  /* while tracking: bit d set when entry d was written */
	uint32_t wwords;  /* words in wbits */
	uint32_t whi;     /* words of wbits that may be nonzero (the rest are 0) */
	bool wall;        /* while tracking: any entry may have been written */
};

struct ecs_world {
	uint32_t *gen;   /* per slot: generation of the living or next entity */
	uint8_t *alive;  /* per slot */
	uint8_t *queued; /* per slot: in the destroy-later queue */
	uint32_t *mask;  /* per slot: component bits */
	uint32_t slots;  /* slots ever used */
	uint32_t cap;    /* allocated slots */
	uint32_t *free_list;
	uint32_t nfree;
	uint32_t living;
	ecs_entity *later;
	uint32_t nlater, caplater;
	struct pool pools[ECS_MAX_COMPONENTS];
	int npools;
	bool track;       /* writes are recorded (ecs_track_writes) */
	uint32_t members; /* bumped with every pool's version (ecs_members_version) */
	uint32_t touched; /* while tracking: bit c set when pool c was written or changed members */
};

int ecs_world_create(struct ecs_world **out)
{
	struct ecs_world *w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	*out = w;
	return 0;
}

void ecs_world_destroy(struct ecs_world *w)
{
	if (!w)
		return;
	for (int i = 0; i < w->npools; i++) {
		free(w->pools[i].sparse);
		free(w->pools[i].dense);
		free(w->pools[i].data);
		free(w->pools[i].wbits);
	}
	free(w->gen);
	free(w->alive);
	free(w->queued);
	free(w->mask);
	free(w->free_list);
	free(w->later);
	free(w);
}

/* Grows every per-slot array to hold at least n slots. */
static int grow_slots(struct ecs_world *w, uint32_t n)
{
	if (n <= w->cap)
		return 0;
	uint64_t nc = w->cap ? (uint64_t)w->cap * 2 : 64;
	while (nc < n)
		nc *= 2;
	if (nc > UINT32_MAX)
		nc = UINT32_MAX;
	uint32_t c = (uint32_t)nc;
	uint32_t *gen = realloc(w->gen, c * sizeof(*gen));
	if (!gen)
		return -ENOMEM;
	w->gen = gen;
	uint8_t *alive = realloc(w->alive, c);
	if (!alive)
		return -ENOMEM;
	w->alive = alive;
	uint8_t *queued = realloc(w->queued, c);
	if (!queued)
		return -ENOMEM;
	w->queued = queued;
	uint32_t *mask = realloc(w->mask, c * sizeof(*mask));
	if (!mask)
		return -ENOMEM;
	w->mask = mask;
	uint32_t *fl = realloc(w->free_list, c * sizeof(*fl));
	if (!fl)
		return -ENOMEM;
	w->free_list = fl;
	for (int i = 0; i < w->npools; i++) {
		uint32_t *sp = realloc(w->pools[i].sparse, c * sizeof(*sp));
		if (!sp)
			return -ENOMEM;
		for (uint32_t j = w->cap; j < c; j++)
			sp[j] = NO_DENSE;
		w->pools[i].sparse = sp;
	}
	for (uint32_t j = w->cap; j < c; j++) {
		w->gen[j] = 1;
		w->alive[j] = 0;
		w->queued[j] = 0;
		w->mask[j] = 0;
	}
	w->cap = c;
	return 0;
}

int ecs_register(struct ecs_world *w, size_t size)
{
	if (size == 0)
		return -EINVAL;
	if (w->npools >= ECS_MAX_COMPONENTS)
		return -ENOSPC;
	struct pool *p = &w->pools[w->npools];
	memset(p, 0, sizeof(*p));
	p->size = size;
	if (w->cap) {
		p->sparse = malloc(w->cap * sizeof(*p->sparse));
		if (!p->sparse)
			return -ENOMEM;
		for (uint32_t j = 0; j < w->cap; j++)
			p->sparse[j] = NO_DENSE;
	}
	return w->npools++;
}

size_t ecs_component_size(const struct ecs_world *w, int c)
{
	if (c < 0 || c >= w->npools)
		return 0;
	return w->pools[c].size;
}

int ecs_create(struct ecs_world *w, ecs_entity *out)
{
	uint32_t idx;
	if (w->nfree) {
		idx = w->free_list[--w->nfree];
	} else {
		if (w->slots == UINT32_MAX)
			return -ENOSPC;
		int rc = grow_slots(w, w->slots + 1);
		if (rc)
			return rc;
		idx = w->slots++;
	}
	w->alive[idx] = 1;
	w->queued[idx] = 0;
	w->mask[idx] = 0;
	w->living++;
	*out = ((ecs_entity)w->gen[idx] << 32) | idx;
	return 0;
}

bool ecs_alive(const struct ecs_world *w, ecs_entity e)
{
	uint32_t idx = ECS_INDEX(e);
	return e != ECS_NULL && idx < w->slots && w->alive[idx] && w->gen[idx] == ECS_GEN(e);
}

static void pool_remove(struct pool *p, uint32_t idx)
{
	uint32_t d = p->sparse[idx];
	uint32_t last = p->count - 1;
	if (d != last) {
		ecs_entity moved = p->dense[last];
		p->dense[d] = moved;
		memcpy(p->data + (size_t)d * p->size, p->data + (size_t)last * p->size, p->size);
		p->sparse[ECS_INDEX(moved)] = d;
	}
	p->sparse[idx] = NO_DENSE;
	p->count--;
	p->version++;
}

/* Room in pool c's bit set for word k (the bits kept 0); false when it
 * cannot grow (then the whole pool counts as written). */
static bool __attribute__((noinline)) mark_grow(struct pool *p, uint32_t k)
{
	uint32_t n = p->cap / 64 + 1;
	if (n <= k)
		n = k + 1;
	uint64_t *b = realloc(p->wbits, sizeof *b * n);
	if (!b) {
		p->wall = true;
		return false;
	}
	memset(b + p->wwords, 0, sizeof *b * (n - p->wwords));
	p->wbits = b;
	p->wwords = n;
	return true;
}

/* Entry d of pool c written: marked while writes are tracked (when the
 * bit set cannot grow, the whole pool counts as written). Inline: every
 * ecs_get_mut pays it. */
static inline void mark(struct ecs_world *w, int c, uint32_t d)
{
	if (!w->track)
		return;
	struct pool *p = &w->pools[c];
	uint32_t k = d / 64;
	w->touched |= ECS_BIT(c);
	if (k >= p->wwords && !mark_grow(p, k))
		return;
	p->wbits[k] |= 1ULL << (d % 64);
	if (k >= p->whi)
		p->whi = k + 1;
}

int ecs_destroy(struct ecs_world *w, ecs_entity e)
{
	if (!ecs_alive(w, e))
		return -ENOENT;
	uint32_t idx = ECS_INDEX(e);
	for (int c = 0; c < w->npools; c++)
		if (w->mask[idx] & ECS_BIT(c)) {
			pool_remove(&w->pools[c], idx);
			w->members++;
			if (w->track)
				w->touched |= ECS_BIT(c);
		}
	w->mask[idx] = 0;
	w->alive[idx] = 0;
	w->queued[idx] = 0;
	w->living--;
	if (w->gen[idx] == GEN_RETIRED - 1) {
		w->gen[idx] = GEN_RETIRED; /* never reused */
	} else {
		w->gen[idx]++;
		w->free_list[w->nfree++] = idx;
	}
	return 0;
}

int ecs_destroy_later(struct ecs_world *w, ecs_entity e)
{
	if (!ecs_alive(w, e))
		return -ENOENT;
	uint32_t idx = ECS_INDEX(e);
	if (w->queued[idx])
		return 0;
	if (w->nlater == w->caplater) {
		uint32_t nc = w->caplater ? w->caplater * 2 : 32;
		ecs_entity *l = realloc(w->later, nc * sizeof(*l));
		if (!l)
			return -ENOMEM;
		w->later = l;
		w->caplater = nc;
	}
	w->later[w->nlater++] = e;
	w->queued[idx] = 1;
	return 0;
}

bool ecs_pending(const struct ecs_world *w, ecs_entity e)
{
	return ecs_alive(w, e) && w->queued[ECS_INDEX(e)];
}

void ecs_flush(struct ecs_world *w)
{
	for (uint32_t i = 0; i < w->nlater; i++)
		(void)ecs_destroy(w, w->later[i]); /* may already be gone */
	w->nlater = 0;
}

uint32_t ecs_count(const struct ecs_world *w)
{
	return w->living;
}

int ecs_reserve(struct ecs_world *w, int c, uint32_t n)
{
	if (c < 0 || c >= w->npools)
		return -EINVAL;
	struct pool *p = &w->pools[c];
	if (n <= p->cap)
		return 0;
	ecs_entity *dense = realloc(p->dense, n * sizeof(*dense));
	if (!dense)
		return -ENOMEM;
	p->dense = dense;
	unsigned char *data = realloc(p->data, (size_t)n * p->size);
	if (!data)
		return -ENOMEM;
	p->data = data;
	p->cap = n;
	return 0;
}

void *ecs_add(struct ecs_world *w, ecs_entity e, int c, const void *init)
{
	if (!ecs_alive(w, e) || c < 0 || c >= w->npools)
		return NULL;
	struct pool *p = &w->pools[c];
	uint32_t idx = ECS_INDEX(e);
	uint32_t d = p->sparse[idx];
	if (d == NO_DENSE) {
		if (p->count == p->cap) {
			uint32_t nc = p->cap ? p->cap * 2 : 16;
			ecs_entity *dense = realloc(p->dense, nc * sizeof(*dense));
			if (!dense)
				return NULL;
			p->dense = dense;
			unsigned char *data = realloc(p->data, (size_t)nc * p->size);
			if (!data)
				return NULL;
			p->data = data;
			p->cap = nc;
		}
		d = p->count++;
		p->dense[d] = e;
		p->sparse[idx] = d;
		p->version++;
		w->members++;
		w->mask[idx] |= ECS_BIT(c);
	}
	mark(w, c, d);
	void *dst = p->data + (size_t)d * p->size;
	if (init)
		memmove(dst, init, p->size);
	else
		memset(dst, 0, p->size);
	return dst;
}

int ecs_remove(struct ecs_world *w, ecs_entity e, int c)
{
	if (!ecs_has(w, e, c))
		return -ENOENT;
	uint32_t idx = ECS_INDEX(e);
	pool_remove(&w->pools[c], idx);
	w->members++;
	if (w->track)
		w->touched |= ECS_BIT(c);
	w->mask[idx] &= ~ECS_BIT(c);
	return 0;
}

const void *ecs_get(const struct ecs_world *w, ecs_entity e, int c)
{
	/* ecs_has, in fewer tests: a slot's mask is 0 unless it lives (made
	 * 0 when it is grown, made and destroyed; only ecs_add, of a living
	 * one, sets it), and no slot's generation is 0 (ECS_NULL's) */
	uint32_t idx = ECS_INDEX(e);
	if ((unsigned)c >= (unsigned)w->npools || idx >= w->slots || w->gen[idx] != ECS_GEN(e) ||
	    !(w->mask[idx] & ECS_BIT(c)))
		return NULL;
	const struct pool *p = &w->pools[c];
	return p->data + (size_t)p->sparse[idx] * p->size;
}

void *ecs_get_mut(struct ecs_world *w, ecs_entity e, int c)
{
	if (!ecs_has(w, e, c))
		return NULL;
	struct pool *p = &w->pools[c];
	uint32_t d = p->sparse[ECS_INDEX(e)];
	mark(w, c, d);
	return p->data + (size_t)d * p->size;
}

bool ecs_has(const struct ecs_world *w, ecs_entity e, int c)
{
	return c >= 0 && c < w->npools && ecs_alive(w, e) && (w->mask[ECS_INDEX(e)] & ECS_BIT(c));
}

uint32_t ecs_mask(const struct ecs_world *w, ecs_entity e)
{
	return ecs_alive(w, e) ? w->mask[ECS_INDEX(e)] : 0;
}

uint32_t ecs_pool_count(const struct ecs_world *w, int c)
{
	if (c < 0 || c >= w->npools)
		return 0;
	return w->pools[c].count;
}

uint32_t ecs_pool_version(const struct ecs_world *w, int c)
{
	return c >= 0 && c < w->npools ? w->pools[c].version : 0;
}

uint32_t ecs_members_version(const struct ecs_world *w)
{
	return w->members;
}

const uint32_t *ecs_members_at(const struct ecs_world *w)
{
	return &w->members;
}

uint32_t ecs_pools_version(const struct ecs_world *w, uint32_t mask)
{
	uint32_t v = 0;
	if (w->npools < 32)
		mask &= ECS_BIT(w->npools) - 1; /* (the pools there are) */
	for (; mask; mask &= mask - 1)
		v += w->pools[__builtin_ctz(mask)].version;
	return v;
}

uint32_t ecs_index(const struct ecs_world *w, ecs_entity e, int c)
{
	return ecs_has(w, e, c) ? w->pools[c].sparse[ECS_INDEX(e)] : UINT32_MAX;
}

uint32_t ecs_pool_view(const struct ecs_world *w, int c, const ecs_entity **ents, const void **data)
{
	if (c < 0 || c >= w->npools) {
		*ents = NULL;
		*data = NULL;
		return 0;
	}
	*ents = w->pools[c].dense;
	*data = w->pools[c].data;
	return w->pools[c].count;
}

uint32_t ecs_pool_view_mut(struct ecs_world *w, int c, const ecs_entity **ents, void **data)
{
	if (c < 0 || c >= w->npools) {
		*ents = NULL;
		*data = NULL;
		return 0;
	}
	if (w->track) {
		w->pools[c].wall = true;
		w->touched |= ECS_BIT(c);
	}
	*ents = w->pools[c].dense;
	*data = w->pools[c].data;
	return w->pools[c].count;
}

void ecs_track_writes(struct ecs_world *w)
{
	w->track = true;
}

bool ecs_tracks_writes(const struct ecs_world *w)
{
	return w->track;
}

uint32_t ecs_touched(const struct ecs_world *w)
{
	return w->touched;
}

bool ecs_written(const struct ecs_world *w, int c, const uint64_t **bits, uint32_t *nwords)
{
	*bits = NULL;
	*nwords = 0;
	if (c < 0 || c >= w->npools)
		return false;
	const struct pool *p = &w->pools[c];
	if (!w->track || p->wall)
		return true;
	*bits = p->wbits;
	*nwords = p->whi;
	return false;
}

void ecs_pool_take_marks(struct ecs_world *w, int c, struct ecs_pool_marks *m)
{
	if (c < 0 || c >= w->npools) {
		*m = (struct ecs_pool_marks){ 0 };
		return;
	}
	struct pool *p = &w->pools[c];
	m->ents = p->dense;
	m->data = p->data;
	m->count = p->count;
	m->version = p->version;
	m->all = !w->track || p->wall;
	m->bits = p->wbits;
	m->nwords = p->whi;
	p->whi = 0;
	p->wall = false;
	w->touched &= ~ECS_BIT(c);
}

void ecs_written_clear(struct ecs_world *w)
{
	/* only the pools touched, only the words that may hold a mark */
	for (uint32_t t = w->touched; t; t &= t - 1) {
		struct pool *p = &w->pools[__builtin_ctz(t)];
		for (uint32_t k = 0; k < p->whi; k++)
			p->wbits[k] = 0;
		p->whi = 0;
		p->wall = false;
	}
	w->touched = 0;
}

uint32_t ecs_slots(const struct ecs_world *w)
{
	return w->slots;
}

ecs_entity ecs_slot_entity(const struct ecs_world *w, uint32_t i)
{
	if (i >= w->slots || !w->alive[i])
		return ECS_NULL;
	return ((ecs_entity)w->gen[i] << 32) | i;
}

void ecs_query_init(struct ecs_query *q, const struct ecs_world *w, uint32_t mask)
{
	q->w = w;
	q->mask = mask;
	q->pool = -1;
	q->pos = w->slots;
	uint32_t best = UINT32_MAX;
	for (int c = 0; c < w->npools; c++) {
		if ((mask & ECS_BIT(c)) && w->pools[c].count < best) {
			best = w->pools[c].count;
			q->pool = c;
		}
	}
	/* A bit for an unregistered type matches nothing. */
	if (w->npools < 32 && (mask >> w->npools)) {
		q->pool = -1;
		q->pos = 0;
		return;
	}
	if (q->pool >= 0)
		q->pos = w->pools[q->pool].count;
}

bool ecs_query_next(struct ecs_query *q, ecs_entity *e)
{
	const struct ecs_world *w = q->w;
	if (q->pool < 0) {
		while (q->pos > 0) {
			uint32_t i = --q->pos;
			if (i < w->slots && w->alive[i] && (w->mask[i] & q->mask) == q->mask) {
				*e = ((ecs_entity)w->gen[i] << 32) | i;
				return true;
			}
		}
		return false;
	}
	const struct pool *p = &w->pools[q->pool];
	while (q->pos > 0) {
		uint32_t d = --q->pos;
		if (d >= p->count)
			continue; /* entries removed behind us */
		ecs_entity cand = p->dense[d];
		if ((w->mask[ECS_INDEX(cand)] & q->mask) == q->mask) {
			*e = cand;
			return true;
		}
	}
	return false;
}

uint32_t ecs_slot_gen(const struct ecs_world *w, uint32_t i)
{
	return i < w->slots ? w->gen[i] : 0;
}

uint32_t ecs_free_count(const struct ecs_world *w)
{
	return w->nfree;
}

uint32_t ecs_free_at(const struct ecs_world *w, uint32_t i)
{
	return i < w->nfree ? w->free_list[i] : UINT32_MAX;
}

int ecs_restore_slots(struct ecs_world *w, uint32_t nslots, const uint32_t *gen, const uint32_t *free_idx,
		      uint32_t nfree)
{
	if (w->slots != 0 || w->nlater != 0)
		return -EBUSY;
	if (nfree > nslots)
		return -EINVAL;
	int rc = grow_slots(w, nslots);
	if (rc)
		return rc;
	for (uint32_t i = 0; i < nslots; i++) {
		if (gen[i] == 0)
			return -EINVAL;
		w->gen[i] = gen[i];
		w->queued[i] = 0; /* marks "listed free" while checking below */
	}
	for (uint32_t k = 0; k < nfree; k++) {
		uint32_t i = free_idx[k];
		if (i >= nslots || w->queued[i] || gen[i] == GEN_RETIRED) {
			for (uint32_t j = 0; j < nslots; j++)
				w->queued[j] = 0;
			return -EINVAL;
		}
		w->queued[i] = 1;
	}
	for (uint32_t i = 0; i < nslots; i++)
		w->queued[i] = 0;
	if (nfree) /* (no free list is allocated for a world of no slots) */
		memcpy(w->free_list, free_idx, nfree * sizeof(*free_idx));
	w->nfree = nfree;
	w->slots = nslots;
	return 0;
}

int ecs_create_at(struct ecs_world *w, ecs_entity e)
{
	uint32_t idx = ECS_INDEX(e);
	if (e == ECS_NULL || idx >= w->slots || w->alive[idx] || w->gen[idx] != ECS_GEN(e) ||
	    ECS_GEN(e) == GEN_RETIRED)
		return -EINVAL;
	for (uint32_t k = 0; k < w->nfree; k++)
		if (w->free_list[k] == idx)
			return -EINVAL;
	w->alive[idx] = 1;
	w->queued[idx] = 0;
	w->mask[idx] = 0;
	w->living++;
	return 0;
}
