/* map: one floor's terrain and the player's view of it. */
#include "game/map.h"
#include "game/digest.h"
#include "game/fov.h"
#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool map_size_ok(int w, int h)
{
	return w >= MAP_MIN_W && w <= MAP_MAX_W && h >= MAP_MIN_H && h <= MAP_MAX_H;
}

int map_size_parse(const char *s, int *w, int *h)
{
	if (!s)
		return -EINVAL;
	char *end;
	errno = 0;
	long a = strtol(s, &end, 10);
	if (end == s || (*end != 'x' && *end != 'X') || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	const char *t = end + 1;
	long b = strtol(t, &end, 10);
	if (end == t || *end || !isdigit((unsigned char)t[0]) || errno || a > MAP_MAX_W || b > MAP_MAX_H ||
	    !map_size_ok((int)a, (int)b))
		return -EINVAL;
	*w = (int)a;
	*h = (int)b;
	return 0;
}

bool map_init_size(struct map *m, int w, int h)
{
	if (!map_size_ok(w, h))
		return false;
	/* only the cells of a w x h floor are cleared (the rest of the arrays
	 * is never read) */
	size_t n = (size_t)w * (size_t)h;
	memset(m->tile, 0, n); /* TILE_WALL == 0: every cell a wall */
	memset(m->visible, 0, n);
	memset(m->explored, 0, n);
	memset(m->rooms, 0, sizeof(m->rooms));
	m->w = w;
	m->h = h;
	m->nrooms = 0;
	m->up_x = m->up_y = -1;
	m->down_x = m->down_y = -1;
	/* whoever fills visible[] after this (a loaded save) need not know:
	 * the first view clears all of it, later ones only what they set */
	m->seen = fov_box_all(m->w, m->h);
	m->views = 0;
	m->view_ok = false;
	m->dsum_ok = false;
	/* (the memory may be anything: malloc'd, or another floor's) */
	for (int k = 0; k < MAP_KEPT_VIEWS; k++)
		m->kept[k].r = -1;
	m->kept_any = false;
	m->vrows_views = m->views - 1; /* (views is 0: no view's bits) */
	m->walls_ok = false;
	m->dexp_ok = false;
	return true;
}

/* Every view m keeps forgotten (a tile changed). */
static void forget_kept(struct map *m)
{
	if (!m->kept_any)
		return;
	for (int k = 0; k < MAP_KEPT_VIEWS; k++)
		m->kept[k].r = -1;
	m->kept_any = false;
}

void map_init(struct map *m)
{
	memset(m, 0, sizeof(*m));
	(void)map_init_size(m, MAP_W, MAP_H);
}

enum tile map_tile(const struct map *m, int x, int y)
{
	if (!map_in(m, x, y))
		return TILE_WALL;
	return (enum tile)m->tile[y * m->w + x];
}

/* ---- the digest: one part per eight cells of a row of an array ---- */

enum { DIG_TILE, DIG_VISIBLE, DIG_EXPLORED };

/* v, loaded from memory, as a little-endian word. */
static inline uint64_t le64(uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap64(v);
#else
	return v;
#endif
}

/* Cells 8j .. 8j+7 of the row at p (w cells) as a little-endian word, the
 * cells past the row's end 0. */
static inline uint64_t row_word(const uint8_t *p, int w, int j)
{
	p += (size_t)j * 8;
	int n = w - j * 8;
	uint64_t v = 0;
	if (n >= 8) {
		memcpy(&v, p, 8);
		return le64(v);
	}
	for (int k = 0; k < n; k++)
		v |= (uint64_t)p[k] << (8 * k);
	return v;
}

/* The part of word j of row y of array a: digest_part, so a word of
 * zeros gives 0 (visible[] is summed over the box the last view set). */
static inline uint64_t word_part(int a, int y, int j, uint64_t v)
{
	return digest_part((uint64_t)(a + 1) << 40 | (uint64_t)y << 16 | (uint64_t)j, v);
}

/* The size, rooms and stairs. */
static uint64_t static_part(const struct map *m)
{
	uint64_t h = 0xCBF29CE484222325ULL;
	h = digest_step(h, (uint64_t)(int64_t)m->w);
	h = digest_step(h, (uint64_t)(int64_t)m->h);
	h = digest_step(h, (uint64_t)(int64_t)m->nrooms);
	for (int r = 0; r < m->nrooms && r < MAP_MAX_ROOMS; r++) {
		h = digest_step(h, (uint64_t)(int64_t)m->rooms[r].x);
		h = digest_step(h, (uint64_t)(int64_t)m->rooms[r].y);
		h = digest_step(h, (uint64_t)(int64_t)m->rooms[r].w);
		h = digest_step(h, (uint64_t)(int64_t)m->rooms[r].h);
	}
	h = digest_step(h, (uint64_t)(int64_t)m->up_x);
	h = digest_step(h, (uint64_t)(int64_t)m->up_y);
	h = digest_step(h, (uint64_t)(int64_t)m->down_x);
	h = digest_step(h, (uint64_t)(int64_t)m->down_y);
	return digest_mix(0, h);
}

/* visible[]'s part. It holds 0 and 1 only (fov writes them, a load
 * refuses others), mostly within one view's disc: it is hashed as the box
 * bounding its nonzero cells and, when that box is at most 64 cells wide,
 * one word of bits a row (bit i: the cell bx0 + i is not 0), then any byte
 * above 1 with where it is (none but in a corrupt state); a wider box as
 * every nonzero byte with where it is. The same value from the bytes
 * (vis_of_bytes, any box holding every nonzero cell) and from the rows of
 * bits the view's scan set (vis_of_rows: fov_update_rows). */
#define VIS_KEY ((uint64_t)(DIG_VISIBLE + 1) << 40)

/* The chain's start for a box of bits: its corner and its rows. */
static inline uint64_t vis_head(int bx0, int by0, int by1)
{
	uint64_t h = digest_step(0xCBF29CE484222325ULL, 1);
	h = digest_step(h, (uint64_t)(uint32_t)bx0);
	return digest_step(h, (uint64_t)(uint32_t)by0 << 32 | (uint32_t)by1);
}

/* One byte v (not 0) at (x, y) into the chain h. */
static inline uint64_t vis_cell(uint64_t h, int x, int y, unsigned v)
{
	return digest_step(digest_step(h, (uint64_t)(uint32_t)y << 32 | (uint32_t)x), v);
}

static uint64_t vis_of_rows(const struct fov_rows *r)
{
	uint64_t all = 0;
	for (int k = 0; k < r->n; k++)
		all |= r->bits[k];
	if (!all)
		return digest_mix(VIS_KEY, 0);
	int kf = 0, kl = r->n - 1;
	while (!r->bits[kf])
		kf++;
	while (!r->bits[kl])
		kl--;
	int xs = __builtin_ctzll(all);
	uint64_t h = vis_head(r->x0 + xs, r->y0 + kf, r->y0 + kl);
	for (int k = kf; k <= kl; k++)
		h = digest_step(h, r->bits[k] >> xs);
	return digest_mix(VIS_KEY, h);
}

static uint64_t vis_of_bytes(const struct map *m, int y0, int y1, int x0, int x1)
{
	int bx0 = INT_MAX, bx1 = -1, by0 = -1, by1 = -1;
	bool big = false; /* a byte above 1 */
	for (int y = y0; y <= y1; y++) {
		const uint8_t *row = m->visible + (size_t)y * (size_t)m->w;
		for (int x = x0; x <= x1; x++)
			if (row[x]) {
				bx0 = x < bx0 ? x : bx0;
				bx1 = x > bx1 ? x : bx1;
				by1 = y;
				if (by0 < 0)
					by0 = y;
				big |= row[x] > 1;
			}
	}
	if (by0 < 0)
		return digest_mix(VIS_KEY, 0);
	uint64_t h;
	if (bx1 - bx0 < 64) {
		h = vis_head(bx0, by0, by1);
		for (int y = by0; y <= by1; y++) {
			const uint8_t *row = m->visible + (size_t)y * (size_t)m->w;
			uint64_t b = 0;
			for (int x = bx0; x <= bx1; x++)
				b |= (uint64_t)(row[x] != 0) << (x - bx0);
			h = digest_step(h, b);
		}
		if (!big)
			return digest_mix(VIS_KEY, h);
	} else {
		h = digest_step(0xCBF29CE484222325ULL, 2);
	}
	for (int y = by0; y <= by1; y++) {
		const uint8_t *row = m->visible + (size_t)y * (size_t)m->w;
		for (int x = bx0; x <= bx1; x++)
			if (row[x] > (bx1 - bx0 < 64 ? 1 : 0))
				h = vis_cell(h, x, y, row[x]);
	}
	return digest_mix(VIS_KEY, h);
}

/* Array a's parts over rows y0..y1, words j0..j1. */
static uint64_t array_sum(const struct map *m, int a, int y0, int y1, int j0, int j1)
{
	const uint8_t *arr = a == DIG_TILE ? m->tile : m->explored;
	uint64_t sum = 0;
	for (int y = y0; y <= y1; y++) {
		const uint8_t *row = arr + (size_t)y * (size_t)m->w;
		for (int j = j0; j <= j1; j++) {
			uint64_t v = row_word(row, m->w, j);
			if (v)
				sum += word_part(a, y, j, v);
		}
	}
	return sum;
}

uint64_t map_digest_full(const struct map *m)
{
	int j1 = (m->w + 7) / 8 - 1;
	return static_part(m) + array_sum(m, DIG_TILE, 0, m->h - 1, 0, j1) + vis_of_bytes(m, 0, m->h - 1, 0, m->w - 1) +
	       array_sum(m, DIG_EXPLORED, 0, m->h - 1, 0, j1);
}

/* dexp made from explored[]. */
static void dexp_make(struct map *m)
{
	memset(m->dexp, 0, sizeof m->dexp);
	for (int y = 0; y < m->h; y++)
		for (int x = 0; x < m->w; x++)
			if (m->explored[y * m->w + x])
				m->dexp[y][x / 64] |= 1ULL << (x % 64);
	m->dexp_ok = true;
}

uint64_t map_digest(struct map *m)
{
	if (!m->dsum_ok) {
		int j1 = (m->w + 7) / 8 - 1;
		m->dsum = static_part(m) + array_sum(m, DIG_TILE, 0, m->h - 1, 0, j1) +
			  array_sum(m, DIG_EXPLORED, 0, m->h - 1, 0, j1);
		dexp_make(m);
		m->dsum_ok = true;
		m->dvis_ok = false;
	}
	/* visible[] is 0 outside the box the last view set: only that box,
	 * and only when no view made it since (map_update_fov does, while the
	 * floor has a digest) */
	if (!m->dvis_ok || m->dvis_views != m->views) {
		const struct fov_box *b = &m->seen;
		m->dvis = b->x1 < b->x0 || b->y1 < b->y0 ? vis_of_bytes(m, 0, -1, 0, -1)
							 : vis_of_bytes(m, b->y0, b->y1, b->x0, b->x1);
		m->dvis_views = m->views;
		m->dvis_ok = true;
	}
	return m->dsum + m->dvis;
}

void map_changed(struct map *m)
{
	m->walls_ok = false;
	m->dexp_ok = false;
	m->dsum_ok = false;
	m->view_ok = false;
	forget_kept(m);
	m->seen = fov_box_all(m->w, m->h); /* visible[] may be set anywhere now */
}

void map_set(struct map *m, int x, int y, enum tile t)
{
	if (!map_in(m, x, y))
		return;
	m->view_ok = false; /* map_view's memo: the walls changed */
	forget_kept(m);
	if (m->walls_ok) { /* the cell's bit in its row and in its column */
		uint64_t rb = (uint64_t)1 << ((FOV_PAD + x) % 64), cb = (uint64_t)1 << ((FOV_PAD + y) % 64);
		uint64_t *rw = &m->wrows[y][(FOV_PAD + x) / 64], *cw = &m->wcols[x][(FOV_PAD + y) / 64];
		if (t == TILE_WALL) {
			*rw |= rb;
			*cw |= cb;
		} else {
			*rw &= ~rb;
			*cw &= ~cb;
		}
	}
	if (!m->dsum_ok) {
		m->tile[y * m->w + x] = (uint8_t)t;
		return;
	}
	const uint8_t *row = m->tile + (size_t)y * (size_t)m->w;
	uint64_t old = row_word(row, m->w, x / 8);
	m->tile[y * m->w + x] = (uint8_t)t;
	m->dsum += word_part(DIG_TILE, y, x / 8, row_word(row, m->w, x / 8)) - word_part(DIG_TILE, y, x / 8, old);
}

bool map_walkable(const struct map *m, int x, int y)
{
	if (!map_in(m, x, y))
		return false;
	return m->tile[y * m->w + x] != TILE_WALL;
}

bool map_opaque(const struct map *m, int x, int y)
{
	return !map_walkable(m, x, y);
}

void map_room_center(const struct room *r, int *x, int *y)
{
	*x = r->x + (r->w - 1) / 2;
	*y = r->y + (r->h - 1) / 2;
}

void map_start(const struct map *m, int *x, int *y)
{
	if (m->up_x >= 0) {
		*x = m->up_x;
		*y = m->up_y;
	} else if (m->nrooms > 0) {
		map_room_center(&m->rooms[0], x, y);
	} else {
		*x = *y = -1;
	}
}

int map_flood(const struct map *m, int sx, int sy, uint8_t *out)
{
	int32_t queue[MAP_MAX_CELLS];
	int n = m->w * m->h, qh = 0, qt = 0;
	memset(out, 0, (size_t)n);
	if (!map_walkable(m, sx, sy))
		return 0;
	out[sy * m->w + sx] = 1;
	queue[qt++] = (int32_t)(sy * m->w + sx);
	while (qh < qt) {
		int u = queue[qh++];
		int ux = u % m->w, uy = u / m->w;
		for (int dy = -1; dy <= 1; dy++) {
			for (int dx = -1; dx <= 1; dx++) {
				int vx = ux + dx, vy = uy + dy;
				if (!map_walkable(m, vx, vy) || out[vy * m->w + vx])
					continue;
				out[vy * m->w + vx] = 1;
				queue[qt++] = (int32_t)(vy * m->w + vx);
			}
		}
	}
	return qt;
}

void map_opacity(const struct map *m, uint8_t *out)
{
	for (int i = 0; i < m->w * m->h; i++)
		out[i] = m->tile[i] == TILE_WALL;
}

/* explored |= visible over words j0..j1 of row y, the digest's parts of
 * the words that changed replaced. */
static void explore_row(struct map *m, int y, int j0, int j1)
{
	int w = m->w;
	uint8_t *e = m->explored + (size_t)y * (size_t)w;
	const uint8_t *v = m->visible + (size_t)y * (size_t)w;
	for (int j = j0; j <= j1; j++) {
		int x = j * 8;
		uint64_t old, now;
		if (x + 8 <= w) {
			uint64_t a, c;
			memcpy(&a, e + x, 8);
			memcpy(&c, v + x, 8);
			if ((a | c) == a)
				continue;
			now = a | c;
			memcpy(e + x, &now, 8);
			old = le64(a);
			now = le64(now);
		} else {
			old = row_word(e, w, j);
			for (int k = x; k < w; k++)
				e[k] |= v[k];
			now = row_word(e, w, j);
			if (now == old)
				continue;
		}
		m->dsum += word_part(DIG_EXPLORED, y, j, now) - word_part(DIG_EXPLORED, y, j, old);
		for (int k = x; k < x + 8 && k < w; k++)
			if (e[k])
				m->dexp[y][k / 64] |= 1ULL << (k % 64);
	}
}

/* m's walls as bits (struct map's wrows, wcols) made from tile[]. */
static void walls_make(struct map *m)
{
	for (int y = 0; y < m->h; y++) {
		uint64_t *r = m->wrows[y];
		for (int k = 0; k < FOV_WORDS(m->w); k++)
			r[k] = ~(uint64_t)0;
		const uint8_t *t = m->tile + (size_t)y * (size_t)m->w;
		for (int x = 0; x < m->w; x++)
			if (t[x] != TILE_WALL)
				r[(FOV_PAD + x) / 64] &= ~((uint64_t)1 << ((FOV_PAD + x) % 64));
	}
	for (int x = 0; x < m->w; x++) {
		uint64_t *c = m->wcols[x];
		for (int k = 0; k < FOV_WORDS(m->h); k++)
			c[k] = ~(uint64_t)0;
		for (int y = 0; y < m->h; y++)
			if (m->tile[y * m->w + x] != TILE_WALL)
				c[(FOV_PAD + y) / 64] &= ~((uint64_t)1 << ((FOV_PAD + y) % 64));
	}
	m->walls_ok = true;
}

/* The view from (ox, oy) on m (0 <= radius <= FOV_WALLS_RADIUS) as
 * fov_update_rows makes it, scanned from m's walls as bits. */
static void view_of_walls(struct map *m, int ox, int oy, int radius, struct fov_rows *rows)
{
	if (!m->walls_ok)
		walls_make(m);
	const struct fov_walls wb = { &m->wrows[0][0], &m->wcols[0][0], FOV_WORDS(MAP_MAX_W), FOV_WORDS(MAP_MAX_H) };
	fov_update_walls(&wb, m->w, m->h, ox, oy, radius, m->visible, &m->seen, rows);
}

void map_update_fov(struct map *m, int ox, int oy, int radius)
{
	/* walls are TILE_WALL == 0; only the cells the view touches are read
	 * or written; while the floor has a digest, the view's rows as bits
	 * too (visible[]'s part is made from them) */
	struct fov_rows rows;
	struct map_kept_view *kv = NULL; /* the slot of this cell's view */
	if (radius >= 0 && radius <= MAP_KEPT_RADIUS && map_in(m, ox, oy))
		kv = &m->kept[(oy * m->w + ox) % MAP_KEPT_VIEWS];
	if (kv && kv->r == radius && kv->x == ox && kv->y == oy) {
		/* seen from here before, the walls as they are: as kept */
		rows.x0 = kv->x0;
		rows.y0 = kv->y0;
		rows.n = kv->n;
		for (int j = 0; j < kv->n; j++)
			rows.bits[j] = kv->bits[j];
		fov_set_rows(&rows, &kv->box, m->w, m->h, m->visible, &m->seen);
	} else if (kv || m->dsum_ok) {
		if (radius >= 0 && radius <= FOV_WALLS_RADIUS && map_in(m, ox, oy))
			view_of_walls(m, ox, oy, radius, &rows);
		else
			fov_update_rows(m->tile, FOV_OPAQUE_ZERO, m->w, m->h, ox, oy, radius, m->visible, &m->seen,
					&rows);
		if (kv && rows.n > 0) { /* kept (the rows of a view this wide fit 32 bits) */
			kv->x = ox;
			kv->y = oy;
			kv->r = radius;
			kv->box = m->seen;
			kv->x0 = rows.x0;
			kv->y0 = rows.y0;
			kv->n = rows.n;
			for (int j = 0; j < rows.n; j++)
				kv->bits[j] = (uint32_t)rows.bits[j];
			m->kept_any = true;
		}
	} else {
		fov_update(m->tile, FOV_OPAQUE_ZERO, m->w, m->h, ox, oy, radius, m->visible, &m->seen);
		rows.x0 = rows.y0 = 0; /* no rows: n < 0 says so (named for cppcheck) */
		rows.n = -1;
	}
	m->views++;
	if (rows.n >= 0) { /* the view's bits kept with its number */
		m->vrows.x0 = rows.x0;
		m->vrows.y0 = rows.y0;
		m->vrows.n = rows.n;
		for (int j = 0; j < rows.n; j++)
			m->vrows.bits[j] = rows.bits[j];
		m->vrows_views = m->views;
	} else {
		m->vrows_views = m->views - 1;
	}
	m->view_ok = false; /* map_view's memo is of its own views */
	/* explored |= visible over the box, eight cells of a row at a time
	 * (visible[] is 0 outside the box: the rest of a word is unchanged),
	 * the digest's parts of the words that changed replaced */
	int w = m->w, j0 = m->seen.x0 / 8, j1 = m->seen.x1 / 8;
	if (!m->dsum_ok && rows.n >= 0) {
		/* no digest kept, the view as rows of bits: only the cells
		 * seen for the first time (not in dexp) are written */
		if (!m->dexp_ok)
			dexp_make(m);
		const int x0 = rows.x0, sh = x0 % 64, wd = x0 / 64;
		const uint8_t *end = m->explored + (size_t)w * (size_t)m->h;
		for (int k = 0; k < rows.n; k++) {
			uint64_t *ex = m->dexp[rows.y0 + k];
			uint64_t seen = ex[wd] >> sh;
			if (sh && wd + 1 < MAP_EXP_WORDS)
				seen |= ex[wd + 1] << (64 - sh);
			uint64_t fresh = rows.bits[k] & ~seen;
			if (!fresh)
				continue;
			ex[wd] |= fresh << sh;
			if (sh && wd + 1 < MAP_EXP_WORDS)
				ex[wd + 1] |= fresh >> (64 - sh);
			uint8_t *e = m->explored + (size_t)(rows.y0 + k) * (size_t)w + (size_t)x0;
			while (fresh) { /* eight cells at a time from the first new one */
				int b = __builtin_ctzll(fresh);
				uint64_t v = (fresh >> b & 0xFF) * 0x0101010101010101ull & 0x8040201008040201ull;
				v = ((v + 0x00406070787C7E7Full) >> 7) & 0x0101010101010101ull; /* bit i: byte i */
				fresh &= ~((uint64_t)0xFF << b);
				if (end - (e + b) >= 8) {
					uint64_t a;
					memcpy(&a, e + b, 8);
					a |= le64(v);
					memcpy(e + b, &a, 8);
				} else {
					for (int i = 0; i < 8 && e + b + i < end; i++)
						e[b + i] |= (uint8_t)(v >> (8 * i));
				}
			}
		}
		return;
	}
	if (!m->dsum_ok) {
		m->dexp_ok = false; /* (explored[] written past it) */
		/* no digest kept: eight cells at a time from the box's edge */
		for (int y = m->seen.y0; y <= m->seen.y1; y++) {
			uint8_t *e = m->explored + (size_t)y * (size_t)w;
			const uint8_t *v = m->visible + (size_t)y * (size_t)w;
			int x = m->seen.x0;
			for (; x + 8 <= m->seen.x1 + 1; x += 8) {
				uint64_t a, b;
				memcpy(&a, e + x, 8);
				memcpy(&b, v + x, 8);
				a |= b;
				memcpy(e + x, &a, 8);
			}
			for (; x <= m->seen.x1; x++)
				e[x] |= v[x];
		}
		return;
	}
	const struct fov_box *b = &m->seen;
	if (b->x1 < b->x0 || b->y1 < b->y0) {
		m->dvis = vis_of_bytes(m, 0, -1, 0, -1);
	} else if (rows.n >= 0) {
		/* a view the scan gave as rows of bits: visible[]'s part from
		 * them; the memory changed only in rows where something new was
		 * seen (most rows of a view were explored already) */
		/* (the view's cells seen before: explored already, as dexp says) */
		const int x0 = rows.x0, sh = x0 % 64, wd = x0 / 64;
		for (int k = 0; k < rows.n; k++) {
			uint64_t rb = rows.bits[k];
			if (!rb)
				continue;
			const uint64_t *ex = m->dexp[rows.y0 + k];
			uint64_t seen = ex[wd] >> sh;
			if (sh && wd + 1 < MAP_EXP_WORDS)
				seen |= ex[wd + 1] << (64 - sh);
			if (rb & ~seen)
				explore_row(m, rows.y0 + k, j0, j1);
		}
		m->dvis = vis_of_rows(&rows);
	} else {
		for (int y = b->y0; y <= b->y1; y++)
			explore_row(m, y, j0, j1);
		m->dvis = vis_of_bytes(m, b->y0, b->y1, b->x0, b->x1);
	}
	m->dvis_views = m->views;
	m->dvis_ok = true;
}

void map_view(struct map *m, int ox, int oy, int radius)
{
	if (m->view_ok && m->view_x == ox && m->view_y == oy && m->view_r == radius)
		return;
	map_update_fov(m, ox, oy, radius);
	m->view_x = ox;
	m->view_y = oy;
	m->view_r = radius;
	m->view_ok = true;
}
