/* history: the commands in memory as HIST_RECORD-byte records, each full block handed to the store; a running FNV-1a (over 32-bit words) of what the store was given checks what it gives back. */
#include "game/history.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/le.h"
#include "core/log.h"

/* Commands a reader takes from the store at once (on the stack). */

/* The 8 bytes at p, little-endian (one load on such a host). */
static inline uint64_t get64(const unsigned char *p)
{
	return (uint64_t)le_get32(p) | (uint64_t)le_get32(p + 4) << 32;
}

/* FNV-1a over the records' 32-bit words rather than their bytes (n is a
 * multiple of 4): a quarter of the multiplications, as good at noticing
 * damage. */
static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
	size_t i = 0;
	/* the same steps, four words a load of 16 bytes (a save reads the
	 * store back whole: ~80 KB a save) */
	for (; i + 16 <= n; i += 16) {
		uint64_t a = get64(p + i), b = get64(p + i + 8);
		h = (h ^ (uint32_t)a) * 0x100000001b3ull;
		h = (h ^ (a >> 32)) * 0x100000001b3ull;
		h = (h ^ (uint32_t)b) * 0x100000001b3ull;
		h = (h ^ (b >> 32)) * 0x100000001b3ull;
	}
	for (; i + 4 <= n; i += 4) {
		h ^= le_get32(p + i);
		h *= 0x100000001b3ull;
	}
	return h;
}

#define FNV_START 0xcbf29ce484222325ull

static void put_i32(unsigned char *p, int v)
{
	le_put32(p, (uint32_t)v);
}

static int get_i32(const unsigned char *p)
{
	uint32_t u = le_get32(p);
	int v;
	memcpy(&v, &u, sizeof v);
	return v;
}

static void decode(const unsigned char *p, struct command *out, int n)
{
	for (int i = 0; i < n; i++, p += HIST_RECORD) {
		out[i].c = (enum cmd)get_i32(p);
		out[i].item = get_i32(p + 4);
		out[i].x = get_i32(p + 8);
		out[i].y = get_i32(p + 12);
		out[i].choice = get_i32(p + 16);
	}
}

void hist_free(struct history *h)
{
	free(h->mem);
	*h = (struct history){0};
}

int hist_count(const struct history *h)
{
	return h->n;
}

/* Makes mem hold cap commands (at least those in memory). 0 or -ENOMEM. */
static int resize(struct history *h, int cap)
{
	unsigned char *m = realloc(h->mem, (size_t)cap * HIST_RECORD);
	if (!m)
		return -ENOMEM;
	h->mem = m;
	h->cap = cap;
	return 0;
}

/* Writes the full blocks held in memory to the store and keeps the rest.
 * Returns 0 or the store's -errno (logged; memory unchanged). */
static int flush(struct history *h)
{
	int inmem = h->n - h->stored;
	int k = inmem / HIST_BLOCK * HIST_BLOCK;
	if (k == 0)
		return 0;
	size_t len = (size_t)k * HIST_RECORD;
	int rc = h->store.write(h->store.ctx, (uint64_t)h->stored * HIST_RECORD, h->mem, len);
	if (rc) {
		log_error("game: cannot write commands %d to %d to %s (%s): they are kept in memory until it works",
			  h->stored + 1, h->stored + k, h->store.name, strerror(-rc));
		return rc;
	}
	h->sum = fnv1a(h->sum, h->mem, len);
	memmove(h->mem, h->mem + len, (size_t)(inmem - k) * HIST_RECORD);
	h->stored += k;
	return 0;
}

int hist_add(struct history *h, const struct command *c)
{
	if (h->n - h->stored == h->cap) {
		if (h->has_store)
			(void)flush(h); /* a failure is logged: the memory grows below */
		if (h->n - h->stored == h->cap) {
			if (h->n == INT_MAX || h->cap > INT_MAX / 2 || resize(h, h->cap ? 2 * h->cap : HIST_BLOCK)) {
				log_error("game: out of memory recording command %d", h->n + 1);
				return -ENOMEM;
			}
		}
	}
	unsigned char *p = h->mem + (size_t)(h->n - h->stored) * HIST_RECORD;
	put_i32(p, (int)c->c);
	put_i32(p + 4, c->item);
	put_i32(p + 8, c->x);
	put_i32(p + 12, c->y);
	put_i32(p + 16, c->choice);
	h->n++;
	return 0;
}

int hist_reserve(struct history *h, int more)
{
	int want = h->n - h->stored + more;
	if (h->has_store || h->cap >= want)
		return 0;
	if (want < 2 * h->cap)
		want = 2 * h->cap;
	return resize(h, want);
}

int hist_set_store(struct history *h, const struct hist_store *s)
{
	if (h->has_store)
		return -EBUSY;
	if (h->cap < HIST_BLOCK && resize(h, HIST_BLOCK)) {
		log_error("game: out of memory giving the history its store, %s (the whole history stays in memory)",
			  s->name);
		return -ENOMEM;
	}
	h->store = *s;
	h->has_store = true;
	h->sum = FNV_START;
	int rc = flush(h);
	if (!rc && h->cap > HIST_BLOCK)
		(void)resize(h, HIST_BLOCK); /* shrinking: when refused, the larger block is kept */
	return rc;
}

int hist_load(struct history *h, const void *data, int n)
{
	if (n > 0 && resize(h, n))
		return -ENOMEM;
	if (n > 0)
		memcpy(h->mem, data, (size_t)n * HIST_RECORD);
	h->n = n;
	return 0;
}

void hist_begin(struct hist_reader *r, const struct history *h)
{
	*r = (struct hist_reader){.h = h, .at = 0, .sum = FNV_START, .no_check = false};
}

/* The next span of r's commands, at most max: their bytes at *p (in the
 * memory, or read from the store into buf, room for HIST_CHUNK of them),
 * r moved past them. Returns how many (0 at the end) or hist_next's
 * failures. */
static int next_span(struct hist_reader *r, const unsigned char **p, unsigned char *buf, int max)
{
	const struct history *h = r->h;
	int k;
	if (r->at >= h->n || max <= 0)
		return 0;
	if (r->at < h->stored) {
		k = h->stored - r->at;
		if (k > max)
			k = max;
		if (k > HIST_CHUNK)
			k = HIST_CHUNK;
		int rc = h->store.read(h->store.ctx, (uint64_t)r->at * HIST_RECORD, buf, (size_t)k * HIST_RECORD);
		if (rc) {
			rc = rc < 0 ? rc : -EIO; /* (a store returns 0 or -errno) */
			log_error("game: cannot read commands %d to %d back from %s (%s): the game cannot be saved or recorded whole",
				  r->at + 1, r->at + k, h->store.name, strerror(-rc));
			return rc;
		}
		if (!r->no_check)
			r->sum = fnv1a(r->sum, buf, (size_t)k * HIST_RECORD);
		*p = buf;
		r->at += k;
		if (r->at == h->stored && !r->no_check && r->sum != h->sum)
			return hist_damaged(h);
		return k;
	}
	k = h->n - r->at;
	if (k > max)
		k = max;
	*p = h->mem + (size_t)(r->at - h->stored) * HIST_RECORD;
	r->at += k;
	return k;
}

int hist_next(struct hist_reader *r, struct command *out, int max)
{
	unsigned char buf[HIST_CHUNK * HIST_RECORD];
	int got = 0;
	while (got < max) {
		const unsigned char *p;
		int k = next_span(r, &p, buf, max - got);
		if (k <= 0)
			return k < 0 ? k : got;
		decode(p, out + got, k);
		got += k;
	}
	return got;
}

int hist_stored(const struct history *h, uint64_t *key)
{
	*key = h->sum;
	return h->has_store ? h->stored : 0;
}

void hist_no_check(struct hist_reader *r)
{
	r->no_check = true;
}

int hist_damaged(const struct history *h)
{
	log_error("game: %s is damaged (its %d commands are not those written to it): the game "
		  "cannot be saved or recorded whole",
		  h->store.name, h->stored);
	return -EIO;
}

int hist_next_bytes(struct hist_reader *r, const unsigned char **p, unsigned char *buf, int max)
{
	return next_span(r, p, buf, max);
}
