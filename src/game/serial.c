/* serial: game_encode / game_decode, field by field, little-endian, checked on the way in. */
#include "game/serial.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/le.h"
#include "game/history.h"
#include "game/items.h"
#include "game/limits.h"
#include "game/world.h"

/* ---- components: the fields of each, in the order they are written ---- */

#define FLD(T, m, k) {offsetof(struct T, m), k, 1}
#define ARR(T, m, k) {offsetof(struct T, m), k, sizeof(((struct T *)0)->m) / sizeof(((struct T *)0)->m[0])}

static const struct serial_field f_pos[] = {FLD(c_pos, x, SERIAL_I32), FLD(c_pos, y, SERIAL_I32),
					  FLD(c_pos, floor, SERIAL_I32)};
static const struct serial_field f_render[] = {FLD(c_render, glyph, SERIAL_U32), FLD(c_render, fg, SERIAL_U32),
					     FLD(c_render, order, SERIAL_I32)};
static const struct serial_field f_name[] = {ARR(c_name, s, SERIAL_CHARS)};
static const struct serial_field f_actor[] = {FLD(c_actor, kind, SERIAL_I32), FLD(c_actor, hp, SERIAL_I32),
					    FLD(c_actor, max_hp, SERIAL_I32), FLD(c_actor, power, SERIAL_I32),
					    FLD(c_actor, defense, SERIAL_I32)};
static const struct serial_field f_ai[] = {FLD(c_ai, state, SERIAL_I32), FLD(c_ai, last_x, SERIAL_I32),
					 FLD(c_ai, last_y, SERIAL_I32), FLD(c_ai, confused, SERIAL_I32),
					 FLD(c_ai, paralysed, SERIAL_I32)};
static const struct serial_field f_blocks[] = {FLD(c_blocks, on, SERIAL_U8)};
static const struct serial_field f_corpse[] = {FLD(c_corpse, kind, SERIAL_I32)};
static const struct serial_field f_xp[] = {FLD(c_xp, value, SERIAL_I32)};
static const struct serial_field f_player[] = {FLD(c_player, level, SERIAL_I32), FLD(c_player, xp, SERIAL_I32),
					     ARR(c_player, kills, SERIAL_I32), ARR(c_player, cause, SERIAL_CHARS)};
static const struct serial_field f_memory[] = {FLD(c_memory, x, SERIAL_I32), FLD(c_memory, y, SERIAL_I32),
					     FLD(c_memory, known, SERIAL_U8)};
static const struct serial_field f_item[] = {FLD(c_item, kind, SERIAL_I32), FLD(c_item, seen, SERIAL_U8)};
static const struct serial_field f_inventory[] = {FLD(c_inventory, count, SERIAL_I32),
						ARR(c_inventory, slot, SERIAL_U64)};
static const struct serial_field f_equippable[] = {FLD(c_equippable, slot, SERIAL_I32),
						 FLD(c_equippable, power_bonus, SERIAL_I32),
						 FLD(c_equippable, defense_bonus, SERIAL_I32)};
static const struct serial_field f_equipment[] = {ARR(c_equipment, slot, SERIAL_U64)};
static const struct serial_field f_stack[] = {FLD(c_stack, n, SERIAL_I32)};
static const struct serial_field f_dropped[] = {FLD(c_dropped, by_player, SERIAL_U8)};

/* A component struct that changes size must have its table above updated
 * and SERIAL_VERSION raised (and a fixture of the old version kept). */
#define LAYOUT(T, size) _Static_assert(sizeof(struct T) == (size), "struct " #T " changed: update its fields in serial.c, raise SERIAL_VERSION, run tools/regen-save-fixture (docs/save.md)")
LAYOUT(c_pos, 12);
LAYOUT(c_render, 12);
LAYOUT(c_name, NAME_LEN);
LAYOUT(c_actor, 20);
LAYOUT(c_ai, 20);
LAYOUT(c_blocks, 1);
LAYOUT(c_corpse, 4);
LAYOUT(c_xp, 4);
LAYOUT(c_player, 8 + 4 * ACTOR_COUNT + CAUSE_LEN);
LAYOUT(c_memory, 12);
LAYOUT(c_item, 8);
LAYOUT(c_inventory, 8 + 8 * INVENTORY_SLOTS);
LAYOUT(c_equippable, 12);
LAYOUT(c_equipment, 8 * EQUIP_SLOT_COUNT);
LAYOUT(c_stack, 4);
LAYOUT(c_dropped, 1);
_Static_assert(sizeof(int) == 4, "the encoding writes int fields as 32 bits");
_Static_assert(COMP_COUNT == 16, "a component was added: give it a field table in serial.c, raise SERIAL_VERSION, run tools/regen-save-fixture (docs/save.md)");

struct comp_desc {
	const struct serial_field *f;
	int nf;
};
#define CD(t) {t, (int)(sizeof(t) / sizeof(t[0]))}
static const struct comp_desc comp_desc[COMP_COUNT] = {
	[COMP_POS] = CD(f_pos),
	[COMP_RENDER] = CD(f_render),
	[COMP_NAME] = CD(f_name),
	[COMP_ACTOR] = CD(f_actor),
	[COMP_AI] = CD(f_ai),
	[COMP_BLOCKS] = CD(f_blocks),
	[COMP_CORPSE] = CD(f_corpse),
	[COMP_XP] = CD(f_xp),
	[COMP_PLAYER] = CD(f_player),
	[COMP_MEMORY] = CD(f_memory),
	[COMP_ITEM] = CD(f_item),
	[COMP_INVENTORY] = CD(f_inventory),
	[COMP_EQUIPPABLE] = CD(f_equippable),
	[COMP_EQUIPMENT] = CD(f_equipment),
	[COMP_STACK] = CD(f_stack),
	[COMP_DROPPED] = CD(f_dropped),
};
/* Version 2 had the component types before COMP_STACK (no stacks). */
#define V2_COMP_COUNT COMP_STACK

const struct serial_field *serial_fields(int c, int *n)
{
	if (c < 0 || c >= COMP_COUNT) {
		*n = 0;
		return NULL;
	}
	*n = comp_desc[c].nf;
	return comp_desc[c].f;
}

/* ---- writing ---- */

int serial_buf_append(struct serial_buf *b, const void *p, size_t n)
{
	if (b->cap - b->len < n) {
		size_t nc = b->cap ? b->cap : 4096;
		while (nc - b->len < n)
			nc *= 2;
		unsigned char *d = realloc(b->data, nc);
		if (!d)
			return -ENOMEM;
		b->data = d;
		b->cap = nc;
	}
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

/* The writer: bytes gathered in buf and handed to the sink a buffer at a
 * time (the first error stops everything). */
struct wr {
	const struct serial_sink *s;
	int err;
	size_t len;
	unsigned char buf[8192];
};

static void w_flush(struct wr *w)
{
	if (!w->err && w->len)
		w->err = w->s->write(w->s->ctx, w->buf, w->len);
	w->len = 0;
}

static void w_bytes_slow(struct wr *w, const void *p, size_t n)
{
	const unsigned char *c = p;
	while (n > 0 && !w->err) {
		if (w->len == sizeof(w->buf))
			w_flush(w);
		size_t k = sizeof(w->buf) - w->len;
		if (k > n)
			k = n;
		memcpy(w->buf + w->len, c, k);
		w->len += k;
		c += k;
		n -= k;
	}
}

/* The bytes p..p+n to the writer: straight into its buffer when they fit
 * (every field of a few bytes: no call), else a buffer at a time. */
static inline void w_bytes(struct wr *w, const void *p, size_t n)
{
	if (n <= sizeof(w->buf) - w->len) {
		memcpy(w->buf + w->len, p, n);
		w->len += n;
		return;
	}
	w_bytes_slow(w, p, n);
}

/* A span of the game's own memory (valid while the encoding lasts): one
 * as large as the buffer or larger is handed to the sink as it lies, after
 * what the buffer holds, instead of copied through the buffer. */
static void w_span(struct wr *w, const void *p, size_t n)
{
	if (n < sizeof(w->buf)) {
		w_bytes(w, p, n);
		return;
	}
	w_flush(w);
	if (!w->err)
		w->err = w->s->write(w->s->ctx, p, n);
}

static inline void w_u8(struct wr *w, uint8_t v)
{
	w_bytes(w, &v, 1);
}

static inline void w_u32(struct wr *w, uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	w_bytes(w, &v, 4);
#else
	unsigned char c[4];
	le_put32(c, v);
	w_bytes(w, c, 4);
#endif
}

static inline void w_i32(struct wr *w, int v)
{
	w_u32(w, (uint32_t)v);
}

static inline void w_u64(struct wr *w, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	w_bytes(w, &v, 8);
#else
	w_u32(w, (uint32_t)v);
	w_u32(w, (uint32_t)(v >> 32));
#endif
}

static void sec_begin(struct wr *w, const char tag[4])
{
	w_flush(w);
	if (!w->err)
		w->err = w->s->begin(w->s->ctx, tag);
}

static void sec_end(struct wr *w)
{
	w_flush(w);
	if (!w->err)
		w->err = w->s->end(w->s->ctx);
}

/* The bytes of d's encoding when a component of size bytes is encoded as
 * its first bytes lie in memory (a little-endian host, its fields in order
 * from its first byte on, no padding between them: only after the last,
 * which is not written), else 0. */
static size_t packed_size(const struct comp_desc *d, size_t size)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	size_t at = 0;
	for (int i = 0; i < d->nf; i++) {
		const struct serial_field *f = &d->f[i];
		size_t one = f->kind == SERIAL_I32 || f->kind == SERIAL_U32 ? 4 : f->kind == SERIAL_U64 ? 8
			     : f->kind == SERIAL_U8 || f->kind == SERIAL_CHARS ? 1 : 0;
		if (!one || f->off != at)
			return 0;
		at += one * f->n;
	}
	return at <= size ? at : 0;
#else
	(void)d;
	(void)size;
	return 0;
#endif
}

static void w_fields(struct wr *w, const struct comp_desc *d, const unsigned char *s)
{
	for (int i = 0; i < d->nf; i++) {
		const struct serial_field *f = &d->f[i];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* the encoding is little-endian: on such a host a field's values
		 * are written as they lie in memory, in one piece */
		static const uint8_t size[] = {[SERIAL_I32] = 4, [SERIAL_U32] = 4, [SERIAL_U64] = 8,
					       [SERIAL_U8] = 1, [SERIAL_CHARS] = 1};
		if (f->kind < sizeof size && size[f->kind]) {
			size_t n = (size_t)size[f->kind] * f->n;
			if (n == 4 && w->len + 4 <= sizeof(w->buf)) /* most fields: no call */
				memcpy(w->buf + w->len, s + f->off, 4), w->len += 4;
			else
				w_bytes(w, s + f->off, n);
			continue;
		}
#endif
		for (int k = 0; k < f->n; k++) {
			uint64_t v = serial_value(f, s + f->off, k);
			if (f->kind == SERIAL_I32)
				w_i32(w, (int32_t)v);
			else if (f->kind == SERIAL_U32)
				w_u32(w, (uint32_t)v);
			else if (f->kind == SERIAL_U64)
				w_u64(w, v);
			else
				w_u8(w, (uint8_t)v);
		}
	}
}

/* Entries i .. n - 1 of a pool encoded as their first S bytes lie (S
 * constant: the copies are a few moves), each after its entity: straight
 * into the buffer while one fits (one test an entry), else through
 * w_bytes_slow (so the buffer is still handed over only when full). */
static inline __attribute__((always_inline)) void w_packed(struct wr *w, const ecs_entity *ents,
							     const unsigned char *data, size_t size, uint32_t n,
							     size_t S)
{
	for (uint32_t i = 0; i < n && !w->err; i++) {
		const unsigned char *comp = data + i * size;
		if (w->len + 8 + S <= sizeof(w->buf)) {
			memcpy(w->buf + w->len, &ents[i], 8);
			memcpy(w->buf + w->len + 8, comp, S);
			w->len += 8 + S;
		} else {
			w_bytes_slow(w, &ents[i], 8);
			w_bytes_slow(w, comp, S);
		}
	}
}

/* A pool's n entries, each its entity then its component (size bytes in
 * memory, packed bytes of it written when packed, else field by field). */
static void w_pool(struct wr *w, const struct comp_desc *d, const ecs_entity *ents, const void *data, size_t size,
		   uint32_t n, size_t packed)
{
	const unsigned char *p = data;
	_Static_assert(sizeof(ecs_entity) == 8, "an entity is written as 64 bits");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* the sizes of this game's components (LAYOUT above): constant copies */
	switch (packed) {
	case 1: w_packed(w, ents, p, size, n, 1); return;
	case 4: w_packed(w, ents, p, size, n, 4); return;
	case 5: w_packed(w, ents, p, size, n, 5); return;
	case 9: w_packed(w, ents, p, size, n, 9); return;
	case 12: w_packed(w, ents, p, size, n, 12); return;
	case 20: w_packed(w, ents, p, size, n, 20); return;
	case NAME_LEN: w_packed(w, ents, p, size, n, NAME_LEN); return;
	default: break;
	}
#endif
	for (uint32_t i = 0; i < n; i++) {
		w_u64(w, ents[i]);
		if (packed)
			w_bytes(w, p + i * size, packed);
		else
			w_fields(w, d, p + i * size);
	}
}

/* game_encode's sink: the sections into a serial_buf as they come, each
 * length filled in when the section ends. */
struct bufsink {
	struct serial_buf *b;
	size_t at; /* where the open section's length goes */
};

static int buf_begin(void *ctx, const char tag[4])
{
	struct bufsink *bs = ctx;
	static const unsigned char zero[4];
	int rc = serial_buf_append(bs->b, tag, 4);
	bs->at = bs->b->len;
	return rc ? rc : serial_buf_append(bs->b, zero, 4);
}

static int buf_write(void *ctx, const void *p, size_t n)
{
	const struct bufsink *bs = ctx;
	return serial_buf_append(bs->b, p, n);
}

static int buf_end(void *ctx)
{
	const struct bufsink *bs = ctx;
	le_put32(bs->b->data + bs->at, (uint32_t)(bs->b->len - bs->at - 4));
	return 0;
}

int game_encode(const struct game *g, struct serial_buf *out)
{
	struct bufsink bs = {out, 0};
	const struct serial_sink s = {.begin = buf_begin, .write = buf_write, .end = buf_end, .ctx = &bs};
	return game_encode_to(g, &s);
}

int game_encode_to(const struct game *g, const struct serial_sink *sink)
{
	/* buf left as it is: only its first len bytes are ever read (zeroing
	 * its 8 KB cost ~8k instructions an autosave) */
	struct wr w;
	w.s = sink;
	w.err = 0;
	w.len = 0;
	sec_begin(&w, "GAME");
	w_u32(&w, SERIAL_VERSION);
	w_u64(&w, g->seed);
	w_i32(&w, g->mapgen);
	w_u64(&w, g->rng.state);
	w_u64(&w, g->rng.inc);
	w_i32(&w, g->turn);
	w_i32(&w, g->depth);
	w_u8(&w, g->over);
	w_u64(&w, g->player);
	w_i32(&w, g->stacks_from);
	sec_end(&w);

	sec_begin(&w, "FLOR");
	w_i32(&w, g->nfloors);
	for (int i = 0; i < g->nfloors; i++) {
		const struct map *m = g->floors[i];
		w_i32(&w, m->w);
		w_i32(&w, m->h);
		size_t cells = (size_t)m->w * (size_t)m->h;
		w_bytes(&w, m->tile, cells);
		w_bytes(&w, m->visible, cells);
		w_bytes(&w, m->explored, cells);
		w_i32(&w, m->nrooms);
		for (int r = 0; r < m->nrooms; r++) {
			w_i32(&w, m->rooms[r].x);
			w_i32(&w, m->rooms[r].y);
			w_i32(&w, m->rooms[r].w);
			w_i32(&w, m->rooms[r].h);
		}
		w_i32(&w, m->up_x);
		w_i32(&w, m->up_y);
		w_i32(&w, m->down_x);
		w_i32(&w, m->down_y);
	}
	sec_end(&w);

	sec_begin(&w, "ENTS");
	uint32_t slots = ecs_slots(g->w);
	w_u32(&w, slots);
	for (uint32_t i = 0; i < slots; i++)
		w_u32(&w, ecs_slot_gen(g->w, i));
	uint32_t nfree = ecs_free_count(g->w);
	w_u32(&w, nfree);
	for (uint32_t i = 0; i < nfree; i++)
		w_u32(&w, ecs_free_at(g->w, i));
	w_u32(&w, ecs_count(g->w));
	for (uint32_t i = 0; i < slots; i++)
		if (ecs_slot_entity(g->w, i) != ECS_NULL)
			w_u64(&w, ecs_slot_entity(g->w, i));
	sec_end(&w);

	/* Each pool in storage order (the order queries visit, last stored
	 * first, which decides who acts first); the decoder restores the order
	 * by adding in the order written. */
	sec_begin(&w, "COMP");
	w_u32(&w, COMP_COUNT);
	for (int c = 0; c < COMP_COUNT; c++) {
		const struct comp_desc *d = &comp_desc[c];
		w_u32(&w, (uint32_t)d->nf);
		for (int i = 0; i < d->nf; i++) {
			w_u8(&w, d->f[i].kind);
			w_u32(&w, d->f[i].n);
		}
		const ecs_entity *ents;
		const void *data;
		uint32_t n = ecs_pool_view(g->w, c, &ents, &data);
		w_u32(&w, n);
		size_t size = ecs_component_size(g->w, c);
		w_pool(&w, d, ents, data, size, n, packed_size(d, size)); /* entry i: ecs_get(g->w, ents[i], c) */
	}
	sec_end(&w);

	/* The ring as it lies (format 4): a new message changes its own slot's
	 * bytes and the start, not every message's place (an autosave sums
	 * only the chunks that changed). Only a full ring starts elsewhere
	 * than at its first slot (world_msg); any other is written oldest
	 * first, from 0. */
	sec_begin(&w, "LOG ");
	bool ring = g->log_count == GAME_LOG_MAX;
	w_i32(&w, g->log_count);
	w_i32(&w, ring ? g->log_start : 0);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* a message lies in memory as it is written (text, fg, count, no
	 * padding): a ring that starts at its first slot, or a full one, is
	 * its slots' bytes at once */
	_Static_assert(sizeof(struct game_msg) == 120 + 4 + 4 && offsetof(struct game_msg, fg) == 120 &&
			       offsetof(struct game_msg, count) == 124 && sizeof(((struct game_msg *)0)->text) == 120,
		       "struct game_msg is the LOG section's 128 bytes a message");
	if (ring || g->log_start == 0)
		w_span(&w, g->log, (size_t)g->log_count * sizeof(struct game_msg));
	else
#endif
		for (int i = 0; i < g->log_count; i++) {
			const struct game_msg *m = ring ? &g->log[i] : game_msg_get(g, i);
			w_bytes(&w, m->text, sizeof(m->text));
			w_u32(&w, m->fg);
			w_i32(&w, m->count);
		}
	sec_end(&w);

	sec_begin(&w, "HIST");
	w_i32(&w, hist_count(&g->hist));
	struct hist_reader hr;
	hist_begin(&hr, &g->hist);
	unsigned char chunk[HIST_CHUNK * HIST_RECORD];
	const unsigned char *bytes;
	int k;
	/* the commands in the store, known by their key: when the sink kept
	 * them from the last save it writes them itself, and the store's are
	 * only compared with them (not summed, nor copied) */
	uint64_t key;
	int stored = hist_stored(&g->hist, &key);
	if (stored > 0 && sink->same && sink->kept_is) {
		w_flush(&w);
		int took = w.err ? 0 : sink->same(sink->ctx, (size_t)stored * HIST_RECORD, key);
		if (took < 0)
			w.err = took;
		if (took > 0) {
			hist_no_check(&hr);
			for (size_t at = 0; at < (size_t)stored * HIST_RECORD;) {
				k = hist_next_bytes(&hr, &bytes, chunk, stored - (int)(at / HIST_RECORD));
				if (k <= 0)
					return k < 0 ? k : -EIO; /* the store failed (logged) */
				if (sink->kept_is(sink->ctx, at, bytes, (size_t)k * HIST_RECORD))
					return hist_damaged(&g->hist);
				at += (size_t)k * HIST_RECORD;
			}
		}
	}
	/* the history holds its commands as the section does: copied as they are */
	while (!w.err && (k = hist_next_bytes(&hr, &bytes, chunk, INT_MAX)) != 0) {
		if (k < 0)
			return k; /* the store failed (logged) */
		if (bytes == chunk)
			w_bytes(&w, bytes, (size_t)k * HIST_RECORD);
		else
			w_span(&w, bytes, (size_t)k * HIST_RECORD); /* the history's memory */
	}
	sec_end(&w);
	return w.err;
}

/* ---- reading ---- */

struct rd {
	const unsigned char *p;
	size_t len, at;
	bool short_read;
};

static bool r_bytes(struct rd *r, void *out, size_t n)
{
	if (r->len - r->at < n) {
		r->short_read = true;
		r->at = r->len;
		memset(out, 0, n);
		return false;
	}
	memcpy(out, r->p + r->at, n);
	r->at += n;
	return true;
}

static uint8_t r_u8(struct rd *r)
{
	uint8_t v;
	r_bytes(r, &v, 1);
	return v;
}

static uint32_t r_u32(struct rd *r)
{
	unsigned char c[4];
	r_bytes(r, c, 4);
	return le_get32(c);
}

static int r_i32(struct rd *r)
{
	return (int)(int32_t)r_u32(r);
}

static uint64_t r_u64(struct rd *r)
{
	uint64_t lo = r_u32(r);
	return lo | (uint64_t)r_u32(r) << 32;
}

/* No int field of a component goes past this (game/limits.h gives each
 * its own range, checked after decoding): a larger one is damage. */
#define NUM_MAX (1 << 24)
_Static_assert(GAME_XP_MAX <= NUM_MAX && GAME_STAT_MAX <= NUM_MAX && GAME_KILLS_MAX <= NUM_MAX &&
		       GAME_EFFECT_MAX <= NUM_MAX && GAME_LEVEL_MAX <= NUM_MAX,
	       "every component field's range lies within NUM_MAX");

/* A name or message: printable ASCII up to its NUL, which it has. */
static bool text_ok(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!c)
			return true;
		if (c < 0x20 || c > 0x7e)
			return false;
	}
	return false;
}

static bool in(int v, int lo, int hi)
{
	return v >= lo && v <= hi;
}

/* Reads the fields of d into s; false when an int field is out of range. */
static bool r_fields(struct rd *r, const struct comp_desc *d, unsigned char *s)
{
	bool ok = true;
	for (int i = 0; i < d->nf; i++) {
		const struct serial_field *f = &d->f[i];
		unsigned char *p = s + f->off;
		for (int k = 0; k < f->n; k++) {
			switch (f->kind) {
			case SERIAL_I32: {
				int32_t v = r_i32(r);
				ok = ok && v >= -NUM_MAX && v <= NUM_MAX;
				memcpy(p + 4 * k, &v, 4);
				break;
			}
			case SERIAL_U32: {
				uint32_t v = r_u32(r);
				memcpy(p + 4 * k, &v, 4);
				break;
			}
			case SERIAL_U8:
			case SERIAL_CHARS:
				p[k] = r_u8(r);
				break;
			case SERIAL_U64: {
				uint64_t v = r_u64(r);
				memcpy(p + 8 * k, &v, 8);
				break;
			}
			}
		}
	}
	return ok;
}

struct dec {
	struct rd all;
	char *why;
	int whylen;
	uint32_t version; /* of the data: 2 (before stacks) or SERIAL_VERSION */
};

static int refuse(struct dec *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(struct dec *d, const char *fmt, ...)
{
	if (d->whylen > 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(d->why, (size_t)d->whylen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* The next section, which must carry tag: its payload as a reader. */
static int section(struct dec *d, const char tag[4], struct rd *out)
{
	*out = (struct rd){ 0 }; /* empty on every refusal */
	char t[4];
	if (!r_bytes(&d->all, t, 4))
		return refuse(d, "the game data ends before its '%.4s' section", tag);
	if (memcmp(t, tag, 4) != 0)
		return refuse(d, "expected the game's '%.4s' section, found another", tag);
	uint32_t n = r_u32(&d->all);
	if (d->all.short_read || d->all.len - d->all.at < n)
		return refuse(d, "the game's '%.4s' section is cut short", tag);
	*out = (struct rd){d->all.p + d->all.at, n, 0, false};
	d->all.at += n;
	return 0;
}

/* The end of a section: every byte read, none missing. */
static int section_done(struct dec *d, const struct rd *r, const char tag[4])
{
	if (r->short_read)
		return refuse(d, "the game's '%.4s' section is shorter than its contents", tag);
	if (r->at != r->len)
		return refuse(d, "the game's '%.4s' section has %zu unexpected bytes at its end", tag, r->len - r->at);
	return 0;
}

/* On the game's floors (all of one size). */
static int read_floors(struct dec *d, struct game *g)
{
	struct rd r;
	int rc = section(d, "FLOR", &r);
	if (rc)
		return rc;
	int n = r_i32(&r);
	/* a floor takes more than 3 * MAP_MIN_W * MAP_MIN_H bytes */
	if (n < 1 || (size_t)n > r.len / (3 * MAP_MIN_W * MAP_MIN_H))
		return refuse(d, "the save has %d floors", n);
	g->floors = calloc((size_t)n, sizeof(*g->floors));
	if (!g->floors)
		return -ENOMEM;
	g->capfloors = n;
	for (int i = 0; i < n; i++) {
		struct map *m = malloc(sizeof(*m));
		if (!m)
			return -ENOMEM;
		g->floors[g->nfloors++] = m;
		int fw = r_i32(&r), fh = r_i32(&r);
		if (!map_init_size(m, fw, fh))
			return refuse(d, "floor %d is %dx%d cells (this pirogue makes %dx%d to %dx%d)", i + 1, fw, fh,
				      MAP_MIN_W, MAP_MIN_H, MAP_MAX_W, MAP_MAX_H);
		if (i == 0) {
			g->map_w = fw;
			g->map_h = fh;
		} else if (fw != g->map_w || fh != g->map_h) {
			return refuse(d, "floor %d is %dx%d cells, floor 1 %dx%d", i + 1, fw, fh, g->map_w, g->map_h);
		}
		size_t cells = (size_t)fw * (size_t)fh;
		r_bytes(&r, m->tile, cells);
		r_bytes(&r, m->visible, cells);
		r_bytes(&r, m->explored, cells);
		for (size_t c = 0; c < cells; c++)
			if (m->tile[c] > TILE_STAIRS_UP || m->visible[c] > 1 || m->explored[c] > 1)
				return refuse(d, "floor %d has a bad cell at %d,%d", i + 1, (int)(c % (size_t)fw),
					      (int)(c / (size_t)fw));
		m->nrooms = r_i32(&r);
		if (m->nrooms < 0 || m->nrooms > MAP_MAX_ROOMS)
			return refuse(d, "floor %d has %d rooms", i + 1, m->nrooms);
		for (int k = 0; k < m->nrooms; k++) {
			struct room *rm = &m->rooms[k];
			rm->x = r_i32(&r);
			rm->y = r_i32(&r);
			rm->w = r_i32(&r);
			rm->h = r_i32(&r);
			if (!world_on_floor(g, rm->x, rm->y) || rm->w < 1 || rm->h < 1 || rm->w > fw - rm->x ||
			    rm->h > fh - rm->y)
				return refuse(d, "floor %d has a room outside the map", i + 1);
		}
		m->up_x = r_i32(&r);
		m->up_y = r_i32(&r);
		m->down_x = r_i32(&r);
		m->down_y = r_i32(&r);
		if ((!world_on_floor(g, m->up_x, m->up_y) && !(m->up_x == -1 && m->up_y == -1)) ||
		    (!world_on_floor(g, m->down_x, m->down_y) && !(m->down_x == -1 && m->down_y == -1)))
			return refuse(d, "floor %d has stairs outside the map", i + 1);
		if (r.short_read)
			break;
	}
	return section_done(d, &r, "FLOR");
}

static int read_entities(struct dec *d, struct game *g)
{
	struct rd r;
	int rc = section(d, "ENTS", &r);
	if (rc)
		return rc;
	uint32_t slots = r_u32(&r);
	if (slots == 0)
		return refuse(d, "the save has no entities (not even the player)");
	if (slots > r.len / 4)
		return refuse(d, "the save lists %u entity slots in %zu bytes", slots, r.len);
	uint32_t *gen = malloc(((size_t)slots + 1) * sizeof(*gen));
	uint32_t *fr = NULL;
	if (!gen)
		return -ENOMEM;
	for (uint32_t i = 0; i < slots; i++)
		gen[i] = r_u32(&r);
	uint32_t nfree = r_u32(&r);
	if (nfree > slots) {
		rc = refuse(d, "the save lists %u free entity slots of %u", nfree, slots);
		goto out;
	}
	fr = malloc(((size_t)nfree + 1) * sizeof(*fr));
	if (!fr) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < nfree; i++)
		fr[i] = r_u32(&r);
	if (r.short_read) {
		rc = section_done(d, &r, "ENTS");
		goto out;
	}
	rc = ecs_restore_slots(g->w, slots, gen, fr, nfree);
	if (rc == -EINVAL) {
		rc = refuse(d, "the save's entity slots are inconsistent");
		goto out;
	}
	if (rc)
		goto out;
	uint32_t living = r_u32(&r);
	if (living > slots - nfree) {
		rc = refuse(d, "the save lists %u living entities in %u slots", living, slots - nfree);
		goto out;
	}
	for (uint32_t i = 0; i < living && !r.short_read; i++) {
		ecs_entity e = r_u64(&r);
		if (!r.short_read && ecs_create_at(g->w, e)) {
			rc = refuse(d, "the save's entity %u:%u cannot be alive", ECS_INDEX(e), ECS_GEN(e));
			goto out;
		}
	}
	rc = section_done(d, &r, "ENTS");
out:
	free(gen);
	free(fr);
	return rc;
}

static int read_components(struct dec *d, struct game *g)
{
	struct rd r;
	int rc = section(d, "COMP", &r);
	if (rc)
		return rc;
	uint32_t ncomp = r_u32(&r);
	uint32_t want = d->version == 2 ? V2_COMP_COUNT : COMP_COUNT;
	if (ncomp != want)
		return refuse(d, "the save has %u component types, this game %u", ncomp, want);
	unsigned char buf[512];
	for (int c = 0; c < (int)want; c++) {
		const struct comp_desc *cd = &comp_desc[c];
		uint32_t nf = r_u32(&r);
		bool same = nf == (uint32_t)cd->nf;
		for (uint32_t i = 0; i < nf && !r.short_read; i++) {
			uint8_t k = r_u8(&r);
			uint32_t n = r_u32(&r);
			same = same && k == cd->f[i].kind && n == cd->f[i].n;
		}
		if (!same && !r.short_read)
			return refuse(d, "the save's component %d has other fields than this game's", c);
		uint32_t n = r_u32(&r);
		if (r.short_read)
			break;
		size_t size = ecs_component_size(g->w, c);
		if (size > sizeof(buf))
			return refuse(d, "component %d is larger than the decoder expects", c);
		if (n > r.len - r.at)
			return refuse(d, "the save lists %u holders of component %d in %zu bytes", n, c, r.len - r.at);
		for (uint32_t i = 0; i < n && !r.short_read; i++) {
			ecs_entity e = r_u64(&r);
			memset(buf, 0, size);
			bool in_range = r_fields(&r, cd, buf);
			if (r.short_read)
				break;
			if (!in_range)
				return refuse(d, "the save gives entity %u:%u a number out of range in component %d",
					      ECS_INDEX(e), ECS_GEN(e), c);
			if (!ecs_alive(g->w, e) || ecs_has(g->w, e, c))
				return refuse(d, "the save gives component %d to entity %u:%u twice or to no living one",
					      c, ECS_INDEX(e), ECS_GEN(e));
			if (!ecs_add(g->w, e, c, buf))
				return -ENOMEM;
		}
	}
	return section_done(d, &r, "COMP");
}

static int read_log(struct dec *d, struct game *g)
{
	struct rd r;
	int rc = section(d, "LOG ", &r);
	if (rc)
		return rc;
	int n = r_i32(&r);
	if (n < 0 || n > GAME_LOG_MAX)
		return refuse(d, "the save's log has %d messages (at most %d)", n, GAME_LOG_MAX);
	/* format 4: the ring's slots as they lay, the oldest at start (only a
	 * full ring's is not 0); before, the messages oldest first */
	int start = d->version >= 4 ? r_i32(&r) : 0;
	if (!r.short_read && (start < 0 || start >= GAME_LOG_MAX || (start != 0 && n != GAME_LOG_MAX)))
		return refuse(d, "the save's log starts at slot %d of %d messages (0, or 0 to %d in a full log)", start, n,
			      GAME_LOG_MAX - 1);
	for (int i = 0; i < n && !r.short_read; i++) {
		struct game_msg *m = &g->log[i];
		r_bytes(&r, m->text, sizeof(m->text));
		m->fg = r_u32(&r);
		m->count = r_i32(&r);
		if (r.short_read)
			break;
		int nth = (i - start + n) % n + 1; /* oldest first */
		if (!text_ok(m->text, sizeof(m->text)) || m->fg > 0xFFFFFF)
			return refuse(d, "message %d of the save's log is damaged (not printable text ending in a NUL)",
				      nth);
		if (m->count < 1 || m->count > GAME_REPEAT_MAX)
			return refuse(d, "message %d of the save's log is said %d times in a row (1 to %d)", nth,
				      m->count, GAME_REPEAT_MAX);
	}
	g->log_start = start;
	g->log_count = n;
	return section_done(d, &r, "LOG ");
}

#define HIST_FIELDS 5
_Static_assert(HIST_RECORD == 4 * HIST_FIELDS, "the HIST section holds the history's own records");

static int read_history(struct dec *d, struct game *g)
{
	struct rd r;
	int rc = section(d, "HIST", &r);
	if (rc)
		return rc;
	int n = r_i32(&r);
	if (n < 0 || (size_t)n > r.len / (4 * HIST_FIELDS))
		return refuse(d, "the save's command history lists %d commands in %zu bytes", n, r.len);
	/* the section holds the commands as the history does (HIST_RECORD bytes each) */
	size_t bytes = (size_t)n * HIST_RECORD;
	if (r.len - r.at < bytes) {
		r.short_read = true;
		r.at = r.len;
	} else {
		if (hist_load(&g->hist, r.p + r.at, n))
			return -ENOMEM;
		r.at += bytes;
	}
	return section_done(d, &r, "HIST");
}

/* ---- what a game holds (docs/save.md, "What a game holds") ---- */

static const char *const comp_names[COMP_COUNT] = {
	[COMP_POS] = "a position",     [COMP_RENDER] = "a look",        [COMP_NAME] = "a name",
	[COMP_ACTOR] = "a fighter",    [COMP_AI] = "a mind",            [COMP_BLOCKS] = "a body",
	[COMP_CORPSE] = "remains",     [COMP_XP] = "experience",        [COMP_PLAYER] = "a player record",
	[COMP_MEMORY] = "a memory",    [COMP_ITEM] = "an item",         [COMP_INVENTORY] = "an inventory",
	[COMP_EQUIPPABLE] = "a fit",   [COMP_EQUIPMENT] = "equipment",  [COMP_STACK] = "a stack count",
	[COMP_DROPPED] = "a mark of being put down",
};
static const char *const equip_names[EQUIP_SLOT_COUNT] = {[EQUIP_WEAPON] = "weapon", [EQUIP_ARMOUR] = "armour"};

#define M(c) ECS_BIT(COMP_##c)
/* The components of each kind of entity: exactly these (an item: a
 * position when it lies on a floor, none when carried; a fit exactly when
 * its kind is equipment). */
#define KIND_PLAYER (M(POS) | M(RENDER) | M(NAME) | M(ACTOR) | M(BLOCKS) | M(PLAYER) | M(INVENTORY) | M(EQUIPMENT))
#define KIND_MONSTER (M(POS) | M(RENDER) | M(NAME) | M(ACTOR) | M(BLOCKS) | M(AI) | M(XP))
#define KIND_CORPSE (M(POS) | M(RENDER) | M(NAME) | M(CORPSE) | M(MEMORY))
#define KIND_ITEM (M(RENDER) | M(NAME) | M(ITEM) | M(MEMORY))

/* "the player", "monster 12", ...: what entity slot i is, for messages. */
static const char *kind_text(uint32_t mask, uint32_t i, char *buf, size_t len)
{
	if (mask & M(PLAYER))
		snprintf(buf, len, "the player (entity %u)", i);
	else
		snprintf(buf, len, "%s %u",
			 mask & M(ACTOR) ? "monster" : mask & M(CORPSE) ? "corpse" : mask & M(ITEM) ? "item" : "entity", i);
	return buf;
}

/* Refuses an entity whose components are not want: it lacks one, or holds
 * one its kind never does. */
static int kind_components(struct dec *d, uint32_t have, uint32_t want, const char *who)
{
	for (int c = 0; c < COMP_COUNT; c++) {
		if ((want & ECS_BIT(c)) && !(have & ECS_BIT(c)))
			return refuse(d, "%s lacks %s", who, comp_names[c]);
		if (!(want & ECS_BIT(c)) && (have & ECS_BIT(c)))
			return refuse(d, "%s also holds %s, which its kind never does", who, comp_names[c]);
	}
	return 0;
}

/* The components every entity holds, checked alone (kind, ranges). */
static int check_entity(struct dec *d, const struct game *g, ecs_entity e, uint32_t i)
{
	uint32_t mask = ecs_mask(g->w, e);
	char who[48];
	kind_text(mask, i, who, sizeof who);
	int rc;
	if (mask & M(PLAYER) || e == g->player)
		rc = kind_components(d, mask, KIND_PLAYER, who);
	else if (mask & M(ACTOR))
		rc = kind_components(d, mask, KIND_MONSTER, who);
	else if (mask & M(CORPSE))
		rc = kind_components(d, mask, KIND_CORPSE, who);
	else if (mask & M(ITEM)) {
		const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
		if (it->kind < 0 || it->kind >= ITEM_COUNT || it->seen > 1)
			return refuse(d, "item %u is of an unknown kind %d", i, it->kind);
		uint32_t want = KIND_ITEM | (mask & M(POS));
		if (content_items[it->kind].effect == EFFECT_EQUIP)
			want |= M(EQUIPPABLE);
		/* a stack: potions and scrolls only, in a game with stacks */
		const struct c_stack *st = ecs_get(g->w, e, COMP_STACK);
		if (st && (!content_items[it->kind].stacks || !in(st->n, 2, SERIAL_STACK_MAX)))
			return refuse(d, "%s is a stack of %d %s, which cannot be (2 to %d potions or scrolls)", who, st->n,
				      content_items[it->kind].plural, SERIAL_STACK_MAX);
		if (st && g->stacks_from == GAME_STACKS_NEVER)
			return refuse(d, "%s is a stack in a game without stacks", who);
		const struct c_dropped *dr = ecs_get(g->w, e, COMP_DROPPED);
		if (dr && (dr->by_player != 1 || !(mask & M(POS))))
			return refuse(d, "%s is marked put down by the player but is carried or damaged", who);
		want |= mask & (M(STACK) | M(DROPPED));
		rc = kind_components(d, mask, want, who);
	} else
		return refuse(d, "entity %u is none of the things a game holds (a player, monster, corpse or item)", i);
	if (rc)
		return rc;
	const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
	if (p && (p->floor < 1 || p->floor > g->nfloors || !world_on_floor(g, p->x, p->y)))
		return refuse(d, "%s lies outside the dungeon", who);
	if (p && map_tile(g->floors[p->floor - 1], p->x, p->y) == TILE_WALL)
		return refuse(d, "%s stands in a wall (floor %d, %d,%d)", who, p->floor, p->x, p->y);
	const struct c_render *r = ecs_get(g->w, e, COMP_RENDER);
	if (r->glyph > 0x10FFFF || (r->glyph >= 0xD800 && r->glyph <= 0xDFFF) || r->fg > 0xFFFFFF ||
	    !in(r->order, GAME_ORDER_CORPSE, GAME_ORDER_ACTOR))
		return refuse(d, "%s has a damaged look", who);
	const struct c_name *nm = ecs_get(g->w, e, COMP_NAME);
	if (!text_ok(nm->s, sizeof nm->s))
		return refuse(d, "%s has a damaged name (not printable text ending in a NUL)", who);
	const struct c_memory *mem = ecs_get(g->w, e, COMP_MEMORY);
	if (mem && (mem->known > 1 || (mem->known && !world_on_floor(g, mem->x, mem->y)) || (mem->known && !p)))
		return refuse(d, "%s is remembered outside the map", who);
	const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
	if (a) {
		bool player = mask & M(PLAYER);
		if (player != (a->kind == ACTOR_PLAYER) || a->kind < 0 || a->kind >= ACTOR_COUNT)
			return refuse(d, "%s is of the wrong kind %d", who, a->kind);
		if (!in(a->max_hp, 1, GAME_STAT_MAX) || !in(a->hp, 0, a->max_hp))
			return refuse(d, "%s has %d hit points of %d (0 to the maximum, which is 1 to %d)", who, a->hp, a->max_hp,
				      GAME_STAT_MAX);
		if (a->hp == 0 && !(player && g->over))
			return refuse(d, "%s has 0 hit points but lives", who);
		if (!in(a->power, 0, GAME_STAT_MAX) || !in(a->defense, 0, GAME_STAT_MAX))
			return refuse(d, "%s has power %d, defense %d (0 to %d)", who, a->power, a->defense, GAME_STAT_MAX);
	}
	const struct c_corpse *co = ecs_get(g->w, e, COMP_CORPSE);
	if (co && (co->kind <= ACTOR_PLAYER || co->kind >= ACTOR_COUNT))
		return refuse(d, "%s is of an unknown kind %d", who, co->kind);
	const struct c_ai *ai = ecs_get(g->w, e, COMP_AI);
	if (ai && ((ai->state != AI_IDLE && ai->state != AI_HUNTING) ||
		   (!world_on_floor(g, ai->last_x, ai->last_y) &&
		    (ai->state == AI_HUNTING || !(ai->last_x == -1 && ai->last_y == -1))) ||
		   !in(ai->confused, 0, GAME_EFFECT_MAX) || !in(ai->paralysed, 0, GAME_EFFECT_MAX)))
		return refuse(d, "%s has a damaged mind", who);
	const struct c_xp *xp = ecs_get(g->w, e, COMP_XP);
	if (xp && !in(xp->value, 0, GAME_XP_MAX))
		return refuse(d, "%s gives %d XP (0 to %d)", who, xp->value, GAME_XP_MAX);
	const struct c_player *pl = ecs_get(g->w, e, COMP_PLAYER);
	if (pl) {
		if (!in(pl->level, 1, GAME_LEVEL_MAX) || !in(pl->xp, 0, GAME_XP_MAX))
			return refuse(d, "the player's level %d or XP %d is out of range (level 1 to %d, XP 0 to %d)",
				      pl->level, pl->xp, GAME_LEVEL_MAX, GAME_XP_MAX);
		if (!text_ok(pl->cause, sizeof pl->cause))
			return refuse(d, "the player's cause of death is damaged (not printable text ending in a NUL)");
		for (int k = 0; k < ACTOR_COUNT; k++)
			if (!in(pl->kills[k], 0, GAME_KILLS_MAX))
				return refuse(d, "the player's kill count of %s is %d (0 to %d)", content_actor_name(k),
					      pl->kills[k], GAME_KILLS_MAX);
	}
	const struct c_equippable *eqp = ecs_get(g->w, e, COMP_EQUIPPABLE);
	if (eqp && (eqp->slot < 0 || eqp->slot >= EQUIP_SLOT_COUNT || !in(eqp->power_bonus, -GAME_STAT_MAX, GAME_STAT_MAX) ||
		    !in(eqp->defense_bonus, -GAME_STAT_MAX, GAME_STAT_MAX)))
		return refuse(d, "%s fits an unknown slot %d or gives bonuses out of range", who, eqp->slot);
	return 0;
}

/* The player's inventory and equipment: every slot empty or naming a
 * carried item, no item in two slots, every carried item in one slot, the
 * count right; every equipment slot empty or naming an item of the
 * inventory that fits there. */
static int check_carried(struct dec *d, const struct game *g)
{
	const struct c_inventory *inv = ecs_get(g->w, g->player, COMP_INVENTORY);
	int used = 0;
	for (int k = 0; k < INVENTORY_SLOTS; k++) {
		ecs_entity e = inv->slot[k];
		if (e == ECS_NULL)
			continue;
		if (!ecs_has(g->w, e, COMP_ITEM) || ecs_has(g->w, e, COMP_POS))
			return refuse(d, "the player's inventory slot %c holds no carried item", 'a' + k);
		for (int j = 0; j < k; j++)
			if (inv->slot[j] == e)
				return refuse(d, "the player's inventory slots %c and %c hold the same item %u", 'a' + j,
					      'a' + k, ECS_INDEX(e));
		used++;
	}
	if (used != inv->count)
		return refuse(d, "the player's inventory counts %d items, its slots hold %d", inv->count, used);
	/* every carried item is in a slot: as many carried as listed */
	int carried = 0;
	struct ecs_query q;
	ecs_query_init(&q, g->w, M(ITEM));
	for (ecs_entity e; ecs_query_next(&q, &e);)
		carried += !ecs_has(g->w, e, COMP_POS);
	if (carried != used)
		return refuse(d, "%d carried item%s in no inventory slot", carried - used, carried - used == 1 ? " is" : "s are");
	const struct c_equipment *eq = ecs_get(g->w, g->player, COMP_EQUIPMENT);
	for (int k = 0; k < EQUIP_SLOT_COUNT; k++) {
		ecs_entity e = eq->slot[k];
		if (e == ECS_NULL)
			continue;
		bool listed = false;
		for (int j = 0; j < INVENTORY_SLOTS && !listed; j++)
			listed = inv->slot[j] == e;
		const struct c_equippable *eqp = ecs_get(g->w, e, COMP_EQUIPPABLE);
		if (!listed)
			return refuse(d, "the player's %s slot holds no item of his inventory", equip_names[k]);
		if (!eqp || eqp->slot != k)
			return refuse(d, "the player's %s slot holds item %u, a %s, which does not fit there",
				      equip_names[k], ECS_INDEX(e), world_name(g, e));
	}
	return 0;
}

/* What the rules take for granted and would misbehave on (indices, the
 * components of each kind, references between entities, ranges). */
static int check_world(struct dec *d, struct game *g)
{
	if (g->depth < 1 || g->depth > g->nfloors)
		return refuse(d, "the save's player is on floor %d of %d", g->depth, g->nfloors);
	if (!ecs_alive(g->w, g->player) || !ecs_has(g->w, g->player, COMP_PLAYER) ||
	    ecs_pool_count(g->w, COMP_PLAYER) != 1)
		return refuse(d, "the save's player is missing, or not the one player");
	uint32_t slots = ecs_slots(g->w);
	for (uint32_t i = 0; i < slots; i++) {
		ecs_entity e = ecs_slot_entity(g->w, i);
		int rc = e == ECS_NULL ? 0 : check_entity(d, g, e, i);
		if (rc)
			return rc;
	}
	const struct c_pos *pp = ecs_get(g->w, g->player, COMP_POS);
	if (pp->floor != g->depth)
		return refuse(d, "the save's player is not on the current floor");
	return check_carried(d, g);
}

int game_decode(struct game **out, const void *data, size_t len, char *why, int whylen)
{
	struct dec d = {{data, len, 0, false}, why, whylen, 0};
	if (whylen > 0)
		why[0] = 0;
	*out = NULL;
	struct game *g = NULL;
	struct rd r;
	int rc = section(&d, "GAME", &r);
	if (rc)
		return rc;
	uint32_t version = r_u32(&r);
	if (version > SERIAL_VERSION || version < SERIAL_OLDEST)
		return refuse(&d, "the game data is version %u, this pirogue reads versions %d to %d", version,
			      SERIAL_OLDEST, SERIAL_VERSION);
	d.version = version;
	uint64_t seed = r_u64(&r);
	int mapgen = r_i32(&r);
	if (mapgen < 0 || mapgen >= MAPGEN_COUNT)
		return refuse(&d, "the save names an unknown map generator %d", mapgen);
	rc = world_create(&g, seed, (enum mapgen_kind)mapgen);
	if (rc)
		return rc;
	g->rng.state = r_u64(&r);
	g->rng.inc = r_u64(&r);
	g->turn = r_i32(&r);
	g->depth = r_i32(&r);
	uint8_t over = r_u8(&r);
	g->over = over != 0;
	g->player = r_u64(&r);
	g->stacks_from = version == 2 ? 0 : r_i32(&r);
	rc = section_done(&d, &r, "GAME");
	if (!rc && ((g->rng.inc & 1) == 0 || g->turn < 0 || g->turn > GAME_TURN_MAX || over > 1))
		rc = refuse(&d, "the save's turn, RNG or state is damaged");
	if (!rc)
		rc = read_floors(&d, g);
	if (!rc)
		rc = read_entities(&d, g);
	if (!rc)
		rc = read_components(&d, g);
	if (!rc)
		rc = read_log(&d, g);
	if (!rc)
		rc = read_history(&d, g);
	if (!rc && d.all.at != d.all.len)
		rc = refuse(&d, "the game data has %zu unexpected bytes after its last section", d.all.len - d.all.at);
	if (!rc && version == 2) {
		/* a game played before stacks: they start now (game_do: the same
		 * moment for its replay) */
		g->stacks_from = hist_count(&g->hist);
	} else if (!rc && (g->stacks_from < GAME_STACKS_NEVER || g->stacks_from > hist_count(&g->hist))) {
		rc = refuse(&d, "the save's stacks start after command %d of %d", g->stacks_from,
			    hist_count(&g->hist));
	}
	if (!rc)
		rc = check_world(&d, g);
	if (!rc && g->stacks_from >= 0) {
		g->stacking = true;
		if (version == 2)
			items_merge_all(g);
	}
	if (rc) {
		if (rc == -ENOMEM)
			refuse(&d, "out of memory while loading the game");
		world_destroy(g);
		return rc;
	}
	world_rebuild_occ(g);
	(void)hist_reserve(&g->hist, HIST_RESERVE); /* room for the floor's commands without a store */
	*out = g;
	return 0;
}

void game_opts_of(const struct game *g, struct game_opts *out)
{
	*out = (struct game_opts){.seed = g->seed, .mapgen = g->mapgen, .map_w = g->map_w, .map_h = g->map_h,
				  .stacks_from = g->stacks_from};
}
