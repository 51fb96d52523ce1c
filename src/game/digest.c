/* game_digest: a chain over the game's few scalar fields and a handful of
 * sums (one per floor, one per component pool, one for the log), each sum
 * of parts (digest_mix) of which a turn changes only a few. The floors keep
 * their own sums up to date (map_digest); the pools keep a copy of
 * themselves as the last digest saw them, and the entries the world marked
 * written since (ecs_track_writes: every write goes through ecs_get_mut,
 * ecs_add or ecs_pool_view_mut) are compared with it; the log is only ever
 * appended to (world_msg counts its writes in log_seq). game_digest_full
 * makes the same value from scratch. */
#include "game/digest.h"
#include "game/serial.h"
#include "game/world.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct dig_pool {
	bool ok;           /* data, ents, part and sum hold the pool as last seen */
	uint32_t version;  /* ecs_pool_version then */
	uint32_t n, cap;   /* entries then, room for */
	unsigned char *data;
	ecs_entity *ents;
	uint64_t *part;    /* each entry's part of sum */
	uint64_t sum;
};

/* How a component is hashed: when its fields are all 32-bit (ints and
 * unsigneds, arrays of them) and fill it from byte 0 to its end, as n4
 * words, each its own part (words_part: a turn that changes two of them
 * pays for two); else (n4 = 0) as one chain over its fields (comp_part). */
struct comp_plan {
	int n4;
};

struct game_dig {
	const struct ecs_world *w; /* the world the pools were seen in */
	size_t size[COMP_COUNT];   /* its components' sizes */
	struct comp_plan plan[COMP_COUNT];
	struct dig_pool pool[COMP_COUNT];
	uint32_t stale; /* bit c: pool c is not ok (brought up to date next time, touched or not) */
	bool sum_ok;       /* pools_sum is the sum of the pools' sums */
	uint64_t pools_sum;
	bool log_ok;
	uint32_t log_seq; /* g->log_seq when log_part was last brought up to date */
	uint64_t log_sum;
	uint64_t log_part[GAME_LOG_MAX]; /* each ring slot's part of log_sum (0: not in use) */
};

int digest_cache_create(struct game_dig **out)
{
	struct game_dig *d = calloc(1, sizeof *d);
	if (!d)
		return -ENOMEM;
	*out = d;
	return 0;
}

void digest_cache_destroy(struct game_dig *d)
{
	if (!d)
		return;
	for (int c = 0; c < COMP_COUNT; c++) {
		free(d->pool[c].data);
		free(d->pool[c].ents);
		free(d->pool[c].part);
	}
	free(d);
}

/* A string: its length, then its bytes as little-endian words (the tail
 * zero-padded). */
static uint64_t chain_str(uint64_t h, const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	h = digest_step(h, n);
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t v;
		memcpy(&v, s + i, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v = __builtin_bswap64(v);
#endif
		h = digest_step(h, v);
	}
	if (i < n) {
		uint64_t v = 0;
		for (size_t k = 0; i + k < n; k++)
			v |= (uint64_t)(unsigned char)s[i + k] << (8 * k);
		h = digest_step(h, v);
	}
	return h;
}

/* Entity e's component c (its bytes at s) as a part: every field the save
 * holds of it (serial_fields), each value widened as serial_value does, a
 * string as its length and bytes. */
static uint64_t comp_part(int c, ecs_entity e, const unsigned char *s)
{
	int nf;
	const struct serial_field *f = serial_fields(c, &nf);
	uint64_t h = 0xCBF29CE484222325ULL ^ (uint64_t)c;
	for (int i = 0; i < nf; i++) {
		if (f[i].kind == SERIAL_CHARS) {
			h = chain_str(h, (const char *)s + f[i].off, (size_t)f[i].n);
			continue;
		}
		for (int k = 0; k < f[i].n; k++)
			h = digest_step(h, serial_value(&f[i], s + f[i].off, k));
	}
	return digest_mix(digest_mix(e, (uint64_t)c + 1), h);
}

/* The plan of component c of size bytes (struct comp_plan). */
static struct comp_plan comp_plan_of(int c, size_t size)
{
	int nf;
	const struct serial_field *f = serial_fields(c, &nf);
	struct comp_plan pl = { 0 };
	size_t at = 0;
	for (int i = 0; i < nf; i++) {
		if ((f[i].kind != SERIAL_I32 && f[i].kind != SERIAL_U32) || f[i].off != at)
			return pl;
		at += 4 * (size_t)f[i].n;
	}
	if (at == size && at > 0)
		pl.n4 = (int)(at / 4);
	return pl;
}

/* Entity e's component c as a part of its pool's sum: for a component of
 * words (struct comp_plan), a part for being there, digest_mix(e, c + 1),
 * plus one for each word k, digest_part(word_key(that, k), the word as an
 * unsigned); else comp_part. */
static inline uint64_t word_key(uint64_t base, int k)
{
	return base + (uint64_t)(k + 1) * 0xD6E8FEB86659FD93ULL;
}

static inline uint32_t word_at(const unsigned char *s, int k)
{
	uint32_t v;
	memcpy(&v, s + 4 * k, 4); /* the CPU's order: the value, as serial_value reads it */
	return v;
}

static uint64_t entry_part(const struct comp_plan *pl, int c, ecs_entity e, const unsigned char *s)
{
	if (!pl->n4)
		return comp_part(c, e, s);
	uint64_t base = digest_mix(e, (uint64_t)c + 1), sum = base;
	for (int k = 0; k < pl->n4; k++)
		sum += digest_part(word_key(base, k), word_at(s, k));
	return sum;
}

/* A message in ring slot s as a part. */
static uint64_t msg_part(int s, const struct game_msg *m)
{
	uint64_t h = chain_str(0xCBF29CE484222325ULL, m->text, sizeof m->text);
	h = digest_step(h, m->fg);
	h = digest_step(h, (uint64_t)(int64_t)m->count);
	return digest_mix((uint64_t)s + 0x100, h);
}

/* The chain over the game's scalars and its sums, the same for both: the
 * floors' sums from map_digest (full: map_digest_full, from scratch). */
static uint64_t with_floors(const struct game *g, bool full, uint64_t pools_sum, uint64_t log_sum)
{
	uint64_t h = 0xCBF29CE484222325ULL;
	h = digest_step(h, g->seed);
	h = digest_step(h, (uint64_t)(int64_t)g->mapgen);
	h = digest_step(h, g->rng.state);
	h = digest_step(h, g->rng.inc);
	h = digest_step(h, (uint64_t)(int64_t)g->turn);
	h = digest_step(h, (uint64_t)(int64_t)g->depth);
	h = digest_step(h, (uint64_t)g->over);
	h = digest_step(h, g->player);
	h = digest_step(h, (uint64_t)(int64_t)g->stacks_from);
	h = digest_step(h, (uint64_t)(int64_t)g->nfloors);
	for (int f = 0; f < g->nfloors; f++)
		h = digest_step(h, full ? map_digest_full(g->floors[f]) : map_digest(g->floors[f]));
	h = digest_step(h, ecs_slots(g->w));
	h = digest_step(h, ecs_count(g->w));
	h = digest_step(h, pools_sum); /* (each part is keyed by its component) */
	h = digest_step(h, (uint64_t)(int64_t)g->log_start);
	h = digest_step(h, (uint64_t)(int64_t)g->log_count);
	return digest_step(h, log_sum);
}

uint64_t game_digest_full(const struct game *g)
{
	uint64_t pools_sum = 0;
	for (int c = 0; c < COMP_COUNT; c++) {
		const ecs_entity *ents;
		const void *data;
		uint32_t n = ecs_pool_view(g->w, c, &ents, &data);
		size_t size = ecs_component_size(g->w, c);
		struct comp_plan pl = comp_plan_of(c, size);
		for (uint32_t i = 0; i < n; i++)
			pools_sum += entry_part(&pl, c, ents[i], (const unsigned char *)data + i * size);
	}
	uint64_t log_sum = 0;
	for (int i = 0; i < g->log_count; i++) {
		int s = (g->log_start + i) % GAME_LOG_MAX;
		log_sum += msg_part(s, &g->log[s]);
	}
	return with_floors(g, true, pools_sum, log_sum);
}

/* The pool made anew: copied, every entry's part made. False when out of
 * memory (then the pool is not ok). */
static bool pool_rebuild(struct dig_pool *p, const struct comp_plan *pl, int c, uint32_t n, uint32_t version,
			 const ecs_entity *ents, const unsigned char *data, size_t size)
{
	p->ok = false;
	if (n > p->cap) {
		uint32_t cap = n + n / 2 + 16;
		unsigned char *d = realloc(p->data, (size_t)cap * size);
		if (d)
			p->data = d;
		ecs_entity *e = realloc(p->ents, sizeof *e * cap);
		if (e)
			p->ents = e;
		uint64_t *pt = realloc(p->part, sizeof *pt * cap);
		if (pt)
			p->part = pt;
		if (!d || !e || !pt)
			return false;
		p->cap = cap;
	}
	if (n) {
		memcpy(p->data, data, (size_t)n * size);
		memcpy(p->ents, ents, sizeof *ents * n);
	}
	p->sum = 0;
	for (uint32_t i = 0; i < n; i++)
		p->sum += p->part[i] = entry_part(pl, c, ents[i], data + i * size);
	p->n = n;
	p->version = version;
	p->ok = true;
	return true;
}

/* Entry j of pool c made anew from data (its copy and its part). */
static void entry_update(struct dig_pool *p, const struct comp_plan *pl, int c, const ecs_entity *ents,
			 const unsigned char *data, size_t size, uint32_t j)
{
	size_t o = (size_t)j * size;
	memcpy(p->data + o, data + o, size);
	uint64_t part = entry_part(pl, c, ents[j], data + o);
	p->sum += part - p->part[j];
	p->part[j] = part;
}

/* The words of entry j (n4 of them, now against was, the copy) that
 * differ brought into its part and the pool's sum, and copied. Inlined
 * with n4 a constant for the usual sizes (a loop the compiler unrolls). */
static inline __attribute__((always_inline)) void words_check(struct dig_pool *p, int n4, int c, ecs_entity e,
							       const unsigned char *now, unsigned char *was, uint32_t j)
{
	uint64_t base = 0, delta = 0;
	bool have = false;
#pragma GCC unroll 8
	for (int k = 0; k < n4; k++) {
		uint32_t a = word_at(now, k), b = word_at(was, k);
		if (a == b)
			continue;
		if (!have) {
			base = digest_mix(e, (uint64_t)c + 1);
			have = true;
		}
		uint64_t key = word_key(base, k);
		delta += digest_part(key, a) - digest_part(key, b);
		memcpy(was + 4 * k, &a, 4);
	}
	p->sum += delta;
	p->part[j] += delta;
}

/* Entry j brought up to date when it differs from the copy: a component
 * of words only in the words that differ. */
static void entry_check(struct dig_pool *p, const struct comp_plan *pl, int c, const ecs_entity *ents,
			const unsigned char *data, size_t size, uint32_t j)
{
	size_t o = (size_t)j * size;
	const unsigned char *now = data + o;
	unsigned char *was = p->data + o;
	switch (pl->n4) {
	case 0:
		if (memcmp(now, was, size))
			entry_update(p, pl, c, ents, data, size, j);
		return;
	case 3: /* a position */
		words_check(p, 3, c, ents[j], now, was, j);
		return;
	case 5: /* a fighter, a mind */
		words_check(p, 5, c, ents[j], now, was, j);
		return;
	default:
		words_check(p, pl->n4, c, ents[j], now, was, j);
		return;
	}
}

/* Pool c brought up to date, its marks taken (ecs_pool_take_marks: one
 * call a pool, nothing to clear after): rebuilt when an entity joined or
 * left it, else only the entries marked written compared with the copy
 * (every entry, found eight bytes at a time, when the world could not say
 * which were). The marks' words are zeroed as they are read (the pool's
 * own, handed over). False when out of memory. */
static bool pool_update(struct dig_pool *p, const struct comp_plan *pl, struct ecs_world *w, int c, size_t size)
{
	struct ecs_pool_marks m;
	ecs_pool_take_marks(w, c, &m);
	const ecs_entity *ents = m.ents;
	const unsigned char *data = m.data;
	uint32_t n = m.count;
	if (!m.all && p->ok && p->version == m.version && p->n == n) {
		for (uint32_t k = 0; k < m.nwords; k++) {
			uint64_t b = m.bits[k];
			m.bits[k] = 0;
			for (; b; b &= b - 1) {
				uint32_t j = k * 64 + (uint32_t)__builtin_ctzll(b);
				if (j < n)
					entry_check(p, pl, c, ents, data, size, j);
			}
		}
		return true;
	}
	for (uint32_t k = 0; k < m.nwords; k++)
		m.bits[k] = 0;
	if (!p->ok || p->version != m.version || p->n != n)
		return pool_rebuild(p, pl, c, n, m.version, ents, data, size);
	size_t bytes = (size_t)n * size;
	if (!bytes || memcmp(data, p->data, bytes) == 0)
		return true;
	size_t o = 0;
	while (o + 8 <= bytes) {
		/* 64 bytes alike at once */
		if (o % 64 == 0 && o + 64 <= bytes && memcmp(data + o, p->data + o, 64) == 0) {
			o += 64;
			continue;
		}
		uint64_t a, b;
		memcpy(&a, data + o, 8);
		memcpy(&b, p->data + o, 8);
		if (a == b) {
			o += 8;
			continue;
		}
		size_t k = 0;
		while (data[o + k] == p->data[o + k])
			k++;
		uint32_t j = (uint32_t)((o + k) / size);
		entry_update(p, pl, c, ents, data, size, j);
		o = (size_t)(j + 1) * size / 8 * 8; /* the word holding entry j's end (o again, at least) */
	}
	for (; o < bytes; o++)
		if (data[o] != p->data[o])
			entry_update(p, pl, c, ents, data, size, (uint32_t)(o / size));
	return true;
}

/* The log brought up to date: the slots world_msg wrote since (each write
 * changes only the slot then newest: a new message, in a free slot or the
 * oldest one's, or the newest one's count raised; so n writes changed at
 * most the n newest slots). */
static void log_update(struct game_dig *d, const struct game *g)
{
	uint32_t writes = g->log_seq - d->log_seq;
	if (d->log_ok && writes == 0)
		return;
	int from; /* messages from the newest back */
	if (!d->log_ok || writes >= GAME_LOG_MAX) {
		memset(d->log_part, 0, sizeof d->log_part);
		d->log_sum = 0;
		from = g->log_count;
	} else {
		from = (int)writes < g->log_count ? (int)writes : g->log_count;
	}
	for (int i = g->log_count - from; i < g->log_count; i++) {
		int s = (g->log_start + i) % GAME_LOG_MAX;
		uint64_t part = msg_part(s, &g->log[s]);
		d->log_sum += part - d->log_part[s];
		d->log_part[s] = part;
	}
	d->log_seq = g->log_seq;
	d->log_ok = true;
}

uint64_t game_digest(const struct game *g)
{
	struct game_dig *d = g->dig;
	if (!d)
		return game_digest_full(g);
	uint32_t todo = ecs_touched(g->w);
	if (d->w != g->w || !ecs_tracks_writes(g->w)) {
		for (int c = 0; c < COMP_COUNT; c++)
			d->pool[c].ok = false;
		d->log_ok = false;
		d->sum_ok = false;
		d->w = g->w;
		for (int c = 0; c < COMP_COUNT; c++) {
			d->size[c] = ecs_component_size(g->w, c);
			d->plan[c] = comp_plan_of(c, d->size[c]);
		}
		ecs_track_writes(g->w); /* from here every write is marked */
		todo = (1u << COMP_COUNT) - 1;
	}
	/* a pool neither written nor changed in members since is as it was */
	todo |= d->stale;
	for (; todo; todo &= todo - 1) {
		int c = __builtin_ctz(todo);
		uint64_t was = d->pool[c].sum;
		if (!pool_update(&d->pool[c], &d->plan[c], g->w, c, d->size[c])) {
			for (int k = 0; k < COMP_COUNT; k++)
				d->pool[k].ok = false; /* the marks are gone: all made anew next time */
			d->stale = (1u << COMP_COUNT) - 1;
			d->sum_ok = false;
			ecs_written_clear(g->w);
			return game_digest_full(g);
		}
		d->pools_sum += d->pool[c].sum - was;
	}
	d->stale = 0;
	if (!d->sum_ok) {
		d->pools_sum = 0;
		for (int c = 0; c < COMP_COUNT; c++)
			d->pools_sum += d->pool[c].sum;
		d->sum_ok = true;
	}
	uint64_t pools_sum = d->pools_sum; /* (every pool touched was visited: its marks taken) */
	log_update(d, g);
	return with_floors(g, false, pools_sum, d->log_sum);
}
