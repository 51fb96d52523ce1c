/* A frame drawn in proportion to what changed: the play screen's inputs as
 * last drawn (struct ui_drawn) are compared with the game's, and only the
 * map cells, HUD numbers and log whose inputs differ are drawn again, each
 * cell of the shown console written once with what it ends up showing (a
 * part drawn over itself, the HUD's lines, the log, the panel row with the
 * pointer's description, is composed in the scratch console and copied where it
 * differs), so that its damage is exactly what changed. */
#include "game/map.h"
#include "ui/scr.h"
#include <stddef.h>
#include <string.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define UI_HAVE_AVX2 1
#endif

void ui_drawn_forget(struct ui_drawn *d)
{
	if (d)
		d->valid = false;
}

/* The newest messages the log box can show, newest first; returns how many. */
static int newest_msgs(const struct game *g, struct game_msg *out)
{
	int n = game_msg_count(g), k = 0;
	for (int i = n - 1; i >= 0 && k < UI_LOG_LINES; i--)
		out[k++] = *game_msg_get(g, i);
	return k;
}

/* Whether the pointer is over a map cell on this frame (with the camera of
 * layout l): that cell in *hx, *hy. */
static bool hovered(const struct ui *u, const struct ui_layout *l, const struct game *g, int cam_x, int cam_y, int *hx,
		    int *hy)
{
	/* most frames have no pointer: one test, no call */
	return u->hover_x >= 0 && ui_hover_cell(u, l, g, cam_x, cam_y, hx, hy) == 0;
}

/* The part of the panel the description is drawn on (row l->desc_y: the
 * wide panel's separator, the compact panel's log box) composed in
 * scratch as ui_draw leaves it, with the description of (hx, hy) when
 * shown; its rectangle in r (x, y, w, h). Returns the cells the
 * description covers (0: none). */
static int compose_desc(const struct ui_layout *l, const struct game *g, struct console *scratch, bool shown,
			int cam_x, int hx, int hy, int r[4])
{
	const struct ui_palette *pal = l->pal;
	if (l->compact) {
		r[0] = l->log_x, r[1] = l->log_y, r[2] = l->log_w, r[3] = l->log_h;
		con_fill(scratch, l->log_x, l->log_y, l->log_w, l->log_h, ' ', 0xFFFFFF, pal->bg);
		ui_draw_log(l, g, scratch);
	} else {
		r[0] = 0, r[1] = l->panel_y, r[2] = l->cols, r[3] = 1;
		ui_draw_rule(l, scratch);
	}
	int x, y;
	return shown ? ui_draw_describe(l, g, scratch, cam_x, hx, hy, &x, &y) : 0;
}

/* The floor's last view's cells as bits into d, when the map knows them
 * for its view now. */
static void keep_rows(struct ui_drawn *d, const struct map *m)
{
	d->vrows_ok = m->vrows_views == m->views && m->vrows.n >= 0;
	if (!d->vrows_ok)
		return;
	d->vrows.x0 = m->vrows.x0;
	d->vrows.y0 = m->vrows.y0;
	d->vrows.n = m->vrows.n;
	for (int j = 0; j < m->vrows.n; j++)
		d->vrows.bits[j] = m->vrows.bits[j];
}

/* The log box's rows, drawn by another than ui_draw_log_over: where they
 * turn blank not known (their whole width). */
static void log_ends_unknown(struct ui_drawn *d, const struct ui_layout *l)
{
	for (int j = 0; j < UI_LOG_LINES; j++)
		d->log_end[j] = (uint16_t)(l->log_w > 0 ? l->log_w : 0);
}

/* Everything the play screen was drawn from, after a whole frame. */
static void remember(struct ui_drawn *d, const struct ui *u, const struct ui_layout *l, const struct game *g,
		     const struct console *c, struct console *scratch, int cam_x, int cam_y)
{
	const struct map *m = game_map(g);
	d->valid = true;
	d->c = c;
	d->w = c->w;
	d->h = c->h;
	d->map_cw = l->map_cw;
	d->last_dev = u->last_dev;
	d->binds = u->binds;
	d->demo = u->demo;
	d->cam_x = cam_x;
	d->cam_y = cam_y;
	size_t cells = (size_t)m->w * (size_t)m->h;
	d->g = g;
	d->map = m;
	d->views = m->views;
	d->seen = m->seen;
	keep_rows(d, m);
	d->map_w = m->w;
	d->map_h = m->h;
	memcpy(d->tile, m->tile, cells);
	memcpy(d->visible, m->visible, cells);
	memcpy(d->explored, m->explored, cells);
	d->ndraw = game_drawables(g, d->draw, UI_MAX_DRAWABLES);
	game_stats(g, &d->stats);
	d->nmsg = newest_msgs(g, d->msg);
	d->log_seq = game_msg_seq(g);
	log_ends_unknown(d, l);
	int hx, hy, r[4];
	bool shown = hovered(u, l, g, cam_x, cam_y, &hx, &hy);
	d->lab_w = shown ? compose_desc(l, g, scratch, true, cam_x, hx, hy, r) : 0;
}

/* Whether a and b are drawn alike: their fields x .. corpse as three words,
 * then status (no padding among them, below). order is compared too: it
 * goes with the look, and comparing more only ever marks a cell more,
 * which writes it as it already is (no damage). */
_Static_assert(offsetof(struct drawable, remembered) == 20 && offsetof(struct drawable, corpse) == 23 &&
		       offsetof(struct drawable, status) == 24,
	       "struct drawable: x .. corpse fill 24 bytes");
static inline bool same_drawable(const struct drawable *a, const struct drawable *b)
{
	uint64_t a0, a1, a2, b0, b1, b2;
	memcpy(&a0, a, 8);
	memcpy(&a1, (const char *)a + 8, 8);
	memcpy(&a2, (const char *)a + 16, 8);
	memcpy(&b0, b, 8);
	memcpy(&b1, (const char *)b + 8, 8);
	memcpy(&b2, (const char *)b + 16, 8);
	return !((a0 ^ b0) | (a1 ^ b1) | (a2 ^ b2)) && a->status == b->status;
}

/* Map cell (x, y) becomes part of this frame's redraw; update_map writes
 * each marked cell in view once, its tile and the top drawable on it. */
static inline void mark_cell(struct ui_drawn *d, int x, int y)
{
	d->marks[y][x >> 6] |= (uint64_t)1 << (x & 63);
	d->mark_rows[y >> 6] |= (uint64_t)1 << (y & 63);
}

#ifdef UI_HAVE_AVX2
/* Eight drawables' bytes (seven 32-byte blocks): 0xFF in their fields',
 * 0 in their padding (the last three bytes of each). */
_Static_assert(sizeof(struct drawable) == 28 && offsetof(struct drawable, status) == 24,
	       "struct drawable: 25 bytes of fields, then 3 of padding");
#define DRAWN_FIELDS 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, \
		     0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0
static const uint8_t drawn_fields[8 * 28] = { DRAWN_FIELDS, DRAWN_FIELDS, DRAWN_FIELDS, DRAWN_FIELDS,
					       DRAWN_FIELDS, DRAWN_FIELDS, DRAWN_FIELDS, DRAWN_FIELDS };
#undef DRAWN_FIELDS

/* mark_changed's compare of the drawables 0..n-1 of now and was, eight at
 * a time: their fields compared as seven 32-byte blocks (padding left
 * out), and only eight with a difference compared one by one and marked;
 * returns the first not compared (the last whole eight's end). */
__attribute__((target("avx2"))) static int mark_changed_avx2(struct ui_drawn *d, const struct drawable *now,
							    const struct drawable *was, int n)
{
#define BLOCK(p, k) _mm256_loadu_si256((const __m256i *)(const void *)((const char *)(p) + 32 * (k)))
	int i = 0;
	for (; i + 8 <= n; i += 8) {
		__m256i any = _mm256_setzero_si256();
		for (int k = 0; k < 7; k++)
			any = _mm256_or_si256(any, _mm256_and_si256(_mm256_xor_si256(BLOCK(now + i, k), BLOCK(was + i, k)),
								    BLOCK(drawn_fields, k)));
		if (_mm256_testz_si256(any, any))
			continue; /* the eight alike */
		for (int j = i; j < i + 8; j++)
			if (!same_drawable(&now[j], &was[j])) {
				mark_cell(d, was[j].x, was[j].y);
				mark_cell(d, now[j].x, now[j].y);
			}
	}
#undef BLOCK
	return i;
}
#endif

/* The cells of the drawables that came, went or changed (now's n against
 * d->draw's d->ndraw, by their place in the lists) marked: where each
 * was and is. With AVX2 (avx2) the lists' common part compared eight
 * drawables at a time. */
static void mark_changed(struct ui_drawn *d, const struct drawable *now, int n, bool avx2)
{
	int i = 0, common = n < d->ndraw ? n : d->ndraw;
#ifdef UI_HAVE_AVX2
	if (avx2)
		i = mark_changed_avx2(d, now, d->draw, common);
#else
	(void)avx2;
#endif
	for (; i < n || i < d->ndraw; i++) {
		if (i < common && same_drawable(&now[i], &d->draw[i]))
			continue;
		if (i < d->ndraw)
			mark_cell(d, d->draw[i].x, d->draw[i].y);
		if (i < n)
			mark_cell(d, now[i].x, now[i].y);
	}
}

/* Whether map cell (x, y) is marked. */
static inline bool marked(const struct ui_drawn *d, int x, int y)
{
	return d->marks[y][x >> 6] >> (x & 63) & 1;
}

/* Every cell of the floor compared with what it was drawn from (a new
 * floor, or more than one view taken since the last frame); the copies
 * brought up to date. */
static void compare_all(struct ui_drawn *d, const struct map *m)
{
	size_t w = (size_t)m->w;
	/* what the player remembers changes on some turns, the tiles with the
	 * floor: each is compared whole first, the view row by row */
	size_t cells = w * (size_t)m->h;
	bool explored = memcmp(d->explored, m->explored, cells) != 0;
	bool tiles = memcmp(d->tile, m->tile, cells) != 0;
	for (int y = 0; y < m->h; y++) {
		size_t r = (size_t)y * w;
		if (!memcmp(d->visible + r, m->visible + r, w) &&
		    (!explored || !memcmp(d->explored + r, m->explored + r, w)) &&
		    (!tiles || !memcmp(d->tile + r, m->tile + r, w)))
			continue;
		for (size_t x = 0; x < w; x += 8) {
			size_t k = w - x < 8 ? w - x : 8;
			if (k == 8) { /* eight equal cells passed over at once */
				uint64_t a, b, e, a2, b2, e2;
				memcpy(&a, d->visible + r + x, 8);
				memcpy(&a2, m->visible + r + x, 8);
				memcpy(&b, d->explored + r + x, 8);
				memcpy(&b2, m->explored + r + x, 8);
				memcpy(&e, d->tile + r + x, 8);
				memcpy(&e2, m->tile + r + x, 8);
				if (!((a ^ a2) | (b ^ b2) | (e ^ e2)))
					continue;
			}
			for (size_t j = x; j < x + k; j++)
				if (d->visible[r + j] != m->visible[r + j] || d->explored[r + j] != m->explored[r + j] ||
				    d->tile[r + j] != m->tile[r + j])
					mark_cell(d, (int)j, y);
		}
		memcpy(d->visible + r, m->visible + r, w);
		memcpy(d->explored + r, m->explored + r, w);
		memcpy(d->tile + r, m->tile + r, w);
	}
}

/* The cells of the word at x of row r (eight from x; those whose bytes
 * are set in keep, in memory order) whose view or memory differ brought
 * up to date and marked; the word is read at once (r + x + 8 <=
 * MAP_MAX_CELLS). */
static inline void compare_word(struct ui_drawn *d, const struct map *m, size_t r, int x, int y, uint64_t keep)
{
	uint8_t *dv = d->visible + r, *de = d->explored + r;
	const uint8_t *mv = m->visible + r, *me = m->explored + r;
	uint64_t a, a2, b, b2;
	memcpy(&a, dv + x, 8);
	memcpy(&a2, mv + x, 8);
	memcpy(&b, de + x, 8);
	memcpy(&b2, me + x, 8);
	uint64_t diff = ((a ^ a2) | (b ^ b2)) & keep;
	if (!diff)
		return;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* only the cells that differ: byte n of the word is cell x + n */
	while (diff) {
		int n = __builtin_ctzll(diff) / 8, j = x + n;
		diff &= ~((uint64_t)0xFF << (8 * n));
		dv[j] = mv[j];
		de[j] = me[j];
		mark_cell(d, j, y);
	}
#else
	uint8_t kept[8];
	memcpy(kept, &keep, 8);
	for (int j = x; j < x + 8; j++)
		if (kept[j - x] && (dv[j] != mv[j] || de[j] != me[j])) {
			dv[j] = mv[j];
			de[j] = me[j];
			mark_cell(d, j, y);
		}
#endif
}

/* The cells x0..x1, y0..y1 (clipped to the floor) compared for view and
 * memory, eight at a time (a row's whole words, then the rest of it as
 * one word read whole but for its last cells); the copies brought up to
 * date there. */
static void compare_box(struct ui_drawn *d, const struct map *m, int x0, int y0, int x1, int y1)
{
	x0 = x0 < 0 ? 0 : x0;
	y0 = y0 < 0 ? 0 : y0;
	x1 = x1 >= m->w ? m->w - 1 : x1;
	y1 = y1 >= m->h ? m->h - 1 : y1;
	if (x1 < x0)
		return;
	const int whole = (x1 + 1 - x0) / 8, rest = (x1 + 1 - x0) % 8;
	/* the rest's cells of a word: its first rest bytes in memory order */
	static const uint8_t ones[16] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
	uint64_t keep;
	memcpy(&keep, ones + 8 - rest, 8);
	const int xr = x0 + 8 * whole;
	for (int y = y0; y <= y1; y++) {
		size_t r = (size_t)y * (size_t)m->w;
		for (int k = 0, x = x0; k < whole; k++, x += 8)
			compare_word(d, m, r, x, y, ~(uint64_t)0);
		if (!rest)
			continue;
		if (r + (size_t)xr + 8 <= MAP_MAX_CELLS) {
			compare_word(d, m, r, xr, y, keep);
			continue;
		}
		/* (the floor's last cells: not read past them) */
		uint8_t *dv = d->visible + r, *de = d->explored + r;
		const uint8_t *mv = m->visible + r, *me = m->explored + r;
		for (int j = xr; j <= x1; j++)
			if (dv[j] != mv[j] || de[j] != me[j]) {
				dv[j] = mv[j];
				de[j] = me[j];
				mark_cell(d, j, y);
			}
	}
}

/* Whether view cell (vx, vy) is one the move of the camera by (sx, sy)
 * (new camera less old) uncovered. */
static inline bool uncovered_at(const struct ui_drawn *d, int sx, int sy, int vx, int vy)
{
	return vy + sy < 0 || vy + sy >= d->view_h || (sx > 0 && vx >= d->view_w - sx) || (sx < 0 && vx < -sx);
}

/* Cell c with its tile's number raised by h (a picture's variant; the
 * tile stays below 0x10000): as its second word plus h (little endian:
 * tile is bits 32-47 of it), so that the cell stays two words in
 * registers. */
_Static_assert(offsetof(struct con_cell, tile) == 12, "con_cell: tile in bytes 12-13");
static inline struct con_cell cell_plus(const struct con_cell *c, uint16_t h)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t w[2];
	memcpy(w, c, sizeof w);
	w[1] += (uint64_t)h << 32;
	struct con_cell v;
	memcpy(&v, w, sizeof v);
	return v;
#else
	struct con_cell v = *c;
	v.tile = (uint16_t)(v.tile + h);
	return v;
#endif
}

/* The map columns of the view whose text cells all lie in c, as bits of
 * the floor's row words (cols[k]: the columns 64k.. of the view); *x0 the
 * console column of map column 0 (map column x at x0 + x * cw). (The
 * view lies in the console, ui_layout: all of them.) */
static void view_columns(const struct ui_drawn *d, const struct ui_layout *l, const struct map *m,
			 const struct console *c, int cw, uint64_t cols[MAP_EXP_WORDS], int *x0)
{
	*x0 = l->view_x - d->cam_x * cw;
	int lo = d->cam_x, hi = d->cam_x + d->view_w; /* the view's map columns lo..hi-1 */
	if (l->view_x < 0)
		lo += (-l->view_x + cw - 1) / cw;
	if (l->view_x + d->view_w * cw > c->w)
		hi -= (l->view_x + d->view_w * cw - c->w + cw - 1) / cw;
	for (int k = 0; k < (m->w + 63) / 64; k++) {
		int a = lo - 64 * k, b = hi - 64 * k;
		a = a < 0 ? 0 : a;
		b = b > 64 ? 64 : b;
		cols[k] = a >= b ? 0 : (b - a == 64 ? ~(uint64_t)0 : (((uint64_t)1 << (b - a)) - 1) << a);
	}
}

/* Whether the eight cells of the floor from i (in one row) are neither
 * in view nor remembered: blank (a marked one among them drawn again by
 * update_map over that). */
static inline bool unseen_eight(const struct map *m, int i)
{
	uint64_t v, e;
	memcpy(&v, m->visible + i, 8);
	memcpy(&e, m->explored + i, 8);
	return !(v | e);
}

/* The map view's cells the move of the camera by (sx, sy) (new camera
 * less old) uncovered and nothing marked: each written once as it now
 * looks (those on the floor by their tile: a marked one, with a drawable
 * or changed, is written by update_map; those off it and those unseen
 * blank, as con_clear leaves them). A row at a time, each cell's look
 * from d->looks (eight or more unseen ones in a row at once:
 * con_set_cells of its blanks); cw, the text cells of a map cell, a
 * constant. */
static inline __attribute__((always_inline)) void draw_uncovered_as(struct ui_drawn *d, const struct ui_layout *l,
								    const struct map *m, struct console *c, int sx,
								    int sy, const int cw)
{
	const struct ui_looks *t = &d->looks;
	const int vw = d->view_w, vh = d->view_h, mw = m->w;
	const int x0 = l->view_x - d->cam_x * cw; /* map column x at console column x0 + x * cw */
	/* the view's columns in the console: lo..hi-1 */
	int lo = 0, hi = vw;
	while (lo < hi && (l->view_x + lo * cw < 0))
		lo++;
	while (hi > lo && l->view_x + hi * cw > c->w)
		hi--;
	for (int vy = 0; vy < vh; vy++) {
		bool row = vy + sy < 0 || vy + sy >= vh; /* the whole row uncovered */
		int a = row ? 0 : sx > 0 ? vw - sx : 0, b = row ? vw : sx > 0 ? vw : -sx;
		int my = d->cam_y + vy, cy = l->view_y + vy;
		a = a < lo ? lo : a;
		b = b > hi ? hi : b;
		if (a >= b || cy < 0 || cy >= c->h)
			continue;
		struct con_row r = con_row_begin(c, cy);
		/* the columns off the floor blank, those on it by their look */
		int fa = -d->cam_x > a ? -d->cam_x : a, fb = mw - d->cam_x < b ? mw - d->cam_x : b;
		if (my < 0 || my >= m->h)
			fa = fb = b;
		if (fb < fa)
			fa = fb = b;
		const struct con_cell *blank = t->cell[0][0];
		for (int vx = a; vx < fa; vx++)
			for (int j = 0; j < cw; j++)
				con_row_set(&r, x0 + (d->cam_x + vx) * cw + j, blank[j]);
		const uint64_t *marks = d->marks[my < 0 || my >= m->h ? 0 : my];
		for (int mx = d->cam_x + fa, end = d->cam_x + fb; mx < end; mx++) {
			int i = my * mw + mx;
			if (mx + 8 <= end && unseen_eight(m, i)) {
				/* (unseen: a run of blanks at once) */
				int run = 8;
				while (run + 8 <= UI_LOOKS_BLANKS / cw && mx + run + 8 <= end && unseen_eight(m, i + run))
					run += 8;
				con_set_cells(c, x0 + mx * cw, cy, t->blanks, run * cw);
				mx += run - 1;
				continue;
			}
			if (marks[mx >> 6] >> (mx & 63) & 1) /* written by update_map */
				continue;
			unsigned st = ui_looks_state(m, i), k = ui_looks_tile(m, i);
			uint16_t h = (uint16_t)(ui_tile_var(i) & t->var[st][k]);
			for (int j = 0; j < cw; j++)
				con_row_set(&r, x0 + mx * cw + j, cell_plus(&t->cell[st][k][j], h));
		}
		for (int vx = fb; vx < b; vx++)
			for (int j = 0; j < cw; j++)
				con_row_set(&r, x0 + (d->cam_x + vx) * cw + j, blank[j]);
		con_row_end(c, r);
	}
}

static void draw_uncovered(struct ui_drawn *d, const struct ui_layout *l, const struct map *m, struct console *c,
			   int sx, int sy)
{
	if (l->map_cw > 1)
		draw_uncovered_as(d, l, m, c, sx, sy, 2);
	else
		draw_uncovered_as(d, l, m, c, sx, sy, 1);
}

/* One view taken since d's, both known as bits (d->vrows, m's vrows):
 * the cells whose visible[] differs between them (explored[] changes only
 * where a view newly sees: among them) brought up to date and marked, a
 * row's cells at once (the two views' rows put side by side in a word).
 * Returns false, having done nothing, when they do not fit one word a row
 * (views far apart): then compare_box. */
static bool compare_rows(struct ui_drawn *d, const struct map *m)
{
	const struct fov_rows *a = &d->vrows, *b = &m->vrows;
	if (!a->n && !b->n)
		return true;
	int bx = a->x0 < b->x0 ? a->x0 : b->x0;
	int ya = a->n ? a->y0 : b->y0, yb = a->n ? a->y0 + a->n - 1 : b->y0 + b->n - 1;
	if (b->n) {
		ya = b->y0 < ya ? b->y0 : ya;
		yb = b->y0 + b->n - 1 > yb ? b->y0 + b->n - 1 : yb;
	}
	/* the rows' bits are at most 2 * 30 + 1 wide: shifted by their x0's
	 * distance they must stay within the word */
	if (bx < 0 || ya < 0 || yb >= m->h || a->x0 - bx > 2 || b->x0 - bx > 2 ||
	    (a->n && b->n && (yb - ya > a->n + 2 || yb - ya > b->n + 2)))
		return false;
	const int sa = a->x0 - bx, sb = b->x0 - bx, w0 = bx >> 6, s0 = bx & 63;
	const unsigned an = (unsigned)a->n, bn = (unsigned)b->n;
	for (int y = ya; y <= yb; y++) {
		unsigned ja = (unsigned)(y - a->y0), jb = (unsigned)(y - b->y0);
		uint64_t va = ja < an ? a->bits[ja] << sa : 0, vb = jb < bn ? b->bits[jb] << sb : 0;
		uint64_t diff = va ^ vb;
		if (!diff)
			continue;
		/* marked a word at a time (cell bx + k: bit k) */
		d->marks[y][w0] |= diff << s0;
		if (s0 && diff >> (64 - s0))
			d->marks[y][w0 + 1] |= diff >> (64 - s0);
		d->mark_rows[y >> 6] |= (uint64_t)1 << (y & 63);
		size_t r = (size_t)y * (size_t)m->w + (size_t)bx;
		for (; diff; diff &= diff - 1) {
			size_t x = r + (size_t)__builtin_ctzll(diff);
			d->visible[x] = m->visible[x];
			d->explored[x] = m->explored[x];
		}
	}
	return true;
}

/* Marked cell at of the floor as it now looks in v (v[0] the head, or the
 * only text cell; v[1] the tail): its ground from d->looks, the top
 * drawable of now on it over that (then forgotten). */
static inline __attribute__((always_inline)) void marked_look(struct ui_drawn *d, const struct ui_layout *l,
							      const struct map *m, const struct drawable *now,
							      int at, const int cw, struct con_cell v[2])
{
	const struct ui_looks *t = &d->looks;
	unsigned st = ui_looks_state(m, at), k = ui_looks_tile(m, at), top = d->top[at];
	uint16_t h = (uint16_t)(ui_tile_var(at) & t->var[st][k]);
	if (__builtin_expect(top != 0, 0)) {
		d->top[at] = 0;
		struct con_cell u = t->base[st][k];
		u.tile = (uint16_t)(u.tile + h);
		ui_put_drawable(l, &now[top - 1], &u);
		const uint16_t pic = u.flags & CON_PICTURE;
		v[0] = v[1] = u;
		v[0].flags = (uint16_t)(pic | (cw == 1 ? CON_MAP : CON_MAP | CON_WIDE));
		v[1].flags = (uint16_t)(pic | CON_MAP | CON_TAIL);
		return;
	}
	v[0] = cell_plus(&t->cell[st][k][0], h);
	if (cw == 2)
		v[1] = cell_plus(&t->cell[st][k][1], h);
}

#ifdef UI_HAVE_AVX2
/* draw_marked's top drawables, eight at a time: their x and y gathered,
 * the word of the marks each lies in gathered and its bit tested; the
 * marked ones' cells noted (in drawing order: the last on a cell stays);
 * returns the first not looked at. (Little endian: cell x's bit is bit
 * x % 32 of the marks' row's 32-bit word x / 32.) */
_Static_assert(sizeof(struct drawable) == 7 * sizeof(int) && offsetof(struct drawable, y) == sizeof(int),
	       "tops_avx2: a drawable's x and y in the first two of its seven ints");
__attribute__((target("avx2"))) static int tops_avx2(struct ui_drawn *d, const struct drawable *now, int n, int mw)
{
	const __m256i ints = _mm256_setr_epi32(0, 7, 14, 21, 28, 35, 42, 49); /* drawable k's first int */
	const __m256i row = _mm256_set1_epi32(2 * MAP_EXP_WORDS), low = _mm256_set1_epi32(31);
	int i = 0;
	for (; i + 8 <= n; i += 8) {
		const int *p = (const int *)(const void *)(now + i);
		const __m256i x = _mm256_i32gather_epi32(p, ints, 4), y = _mm256_i32gather_epi32(p + 1, ints, 4);
		const __m256i at = _mm256_add_epi32(_mm256_mullo_epi32(y, row), _mm256_srli_epi32(x, 5));
		const __m256i w = _mm256_i32gather_epi32((const int *)(const void *)d->marks, at, 4);
		const __m256i bit = _mm256_slli_epi32(_mm256_srlv_epi32(w, _mm256_and_si256(x, low)), 31);
		for (unsigned m = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(bit)); m; m &= m - 1) {
			const int j = i + __builtin_ctz(m);
			d->top[now[j].y * mw + now[j].x] = (uint16_t)(j + 1);
		}
	}
	return i;
}
#endif

/* The marked cells: those in view written, each once as it now looks (no
 * description covers the map; the top drawable on it, of now's n, over
 * its ground), a row at a time; every mark, and the top drawables noted,
 * cleared. cw, the text cells of a map cell, a constant. */
static inline __attribute__((always_inline)) void draw_marked_as(struct ui_drawn *d, const struct ui_layout *l,
								 const struct map *m, struct console *c,
								 const struct drawable *now, int n, const int cw)
{
	const int mw = m->w, words = (mw + 63) / 64;
	/* the top drawable on each marked cell (the last in drawing order) */
	int i = 0;
#if defined(UI_HAVE_AVX2) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (c->avx2)
		i = tops_avx2(d, now, n, mw);
#endif
	for (; i < n; i++)
		if (marked(d, now[i].x, now[i].y))
			d->top[now[i].y * mw + now[i].x] = (uint16_t)(i + 1);
	uint64_t cols[MAP_EXP_WORDS];
	int x0;
	view_columns(d, l, m, c, cw, cols, &x0);
	const unsigned vh = (unsigned)d->view_h;
	for (int rw = 0; rw < (m->h + 63) / 64; rw++) {
		for (uint64_t rows = d->mark_rows[rw]; rows; rows &= rows - 1) {
			const int y = 64 * rw + __builtin_ctzll(rows), cy = l->view_y + y - d->cam_y;
			const bool in = (unsigned)(y - d->cam_y) < vh && cy >= 0 && cy < c->h;
			struct con_row r = con_row_begin(c, in ? cy : 0);
			for (int k = 0; k < words; k++) {
				const uint64_t all = d->marks[y][k];
				if (!all)
					continue;
				d->marks[y][k] = 0;
				uint64_t bits = in ? all & cols[k] : 0;
				for (uint64_t out = all ^ bits; out; out &= out - 1) /* (out of view: not drawn) */
					d->top[y * mw + 64 * k + __builtin_ctzll(out)] = 0;
				for (; bits; bits &= bits - 1) {
					const int x = 64 * k + __builtin_ctzll(bits), cx = x0 + x * cw;
					struct con_cell v[2];
					marked_look(d, l, m, now, y * mw + x, cw, v);
					con_row_set(&r, cx, v[0]);
					if (cw == 2)
						con_row_set(&r, cx + 1, v[1]);
				}
			}
			if (in)
				con_row_end(c, r);
		}
		d->mark_rows[rw] = 0;
	}
}

static void draw_marked(struct ui_drawn *d, const struct ui_layout *l, const struct map *m, struct console *c,
			const struct drawable *now, int n)
{
	if (l->map_cw > 1)
		draw_marked_as(d, l, m, c, now, n, 2);
	else
		draw_marked_as(d, l, m, c, now, n, 1);
}

/* The map view: the cells whose tile, view or memory changed, those a
 * drawable left, reached or changed on, each written once as it now looks
 * (no description covers the map); when the camera moved from ox, oy (the
 * view moved in c: con_move) the cells it uncovered too (draw_uncovered). */
static void update_map(struct ui_drawn *d, const struct ui_layout *l, const struct game *g, struct console *c,
		       int ox, int oy)
{
	const struct map *m = game_map(g);
	d->view_w = ui_view_cols(l);
	d->view_h = l->view_h;
	const int cw = l->map_cw > 1 ? 2 : 1;
	if (d->looks_pal != l->pal || d->looks_pictures != l->pictures || d->looks_cw != cw) {
		ui_looks_make(l, &d->looks);
		d->looks_pal = l->pal;
		d->looks_pictures = l->pictures;
		d->looks_cw = cw;
	}
	int sx = d->cam_x - ox, sy = d->cam_y - oy; /* the camera's move (0, 0: none) */
	if (m != d->map || m->views - d->views > 1) {
		compare_all(d, m);
	} else if (m->views != d->views && d->vrows_ok && m->vrows_views == m->views && m->vrows.n >= 0 &&
		   compare_rows(d, m)) {
		/* one view taken since, both as bits: compared as bits */
	} else if (m->views != d->views) {
		/* one view taken since: visible and explored changed only inside
		 * the box it cleared and the one it set */
		struct fov_box a = d->seen, b = m->seen;
		if (a.x1 < a.x0)
			a = b;
		if (b.x1 < b.x0)
			b = a;
		compare_box(d, m, a.x0 < b.x0 ? a.x0 : b.x0, a.y0 < b.y0 ? a.y0 : b.y0, a.x1 > b.x1 ? a.x1 : b.x1,
			    a.y1 > b.y1 ? a.y1 : b.y1);
	}
	d->map = m;
	d->views = m->views;
	d->seen = m->seen;
	keep_rows(d, m);
	struct drawable now[UI_MAX_DRAWABLES];
	int n = game_drawables(g, now, UI_MAX_DRAWABLES);
	mark_changed(d, now, n, c->avx2);
	if (sx || sy) {
		/* the cells uncovered: those with a drawable marked, the others
		 * (not marked above) drawn now */
		for (int i = 0; i < n; i++)
			if (uncovered_at(d, sx, sy, now[i].x - d->cam_x, now[i].y - d->cam_y))
				mark_cell(d, now[i].x, now[i].y);
		draw_uncovered(d, l, m, c, sx, sy);
	}
	draw_marked(d, l, m, c, now, n);
	memcpy(d->draw, now, (size_t)n * sizeof *now);
	d->ndraw = n;
}

/* The HUD's numbers and the log, each when what it shows changed, drawn
 * over themselves in c (ui_draw_stats, ui_draw_log_over: each cell written
 * once; a log showing a message too long to keep is composed in scratch,
 * the box cleared there first, and copied into c); but the log not when
 * log_later (it is composed with the description on it: compose_desc). */
static void update_panel(struct ui_drawn *d, const struct ui_layout *l, const struct game *g, struct console *c,
			 struct console *scratch, bool log_later)
{
	const struct ui_palette *pal = l->pal;
	struct game_stats s;
	game_stats(g, &s);
	if (memcmp(&s, &d->stats, sizeof s)) {
		/* straight into c: a part drawn over itself writes each cell once */
		(void)ui_draw_stats(l, &s, &d->stats, c);
		d->stats = s;
	}
	/* the newest messages compared where they are (when the game wrote to
	 * its log since: most frames it did not); copied only when changed */
	uint32_t seq = game_msg_seq(g);
	if (seq == d->log_seq)
		return;
	d->log_seq = seq;
	int n = game_msg_count(g), k = n < UI_LOG_LINES ? n : UI_LOG_LINES;
	bool same = k == d->nmsg;
	for (int i = 0; i < k && same; i++) {
		const struct game_msg *m = game_msg_get(g, n - 1 - i);
		same = m->fg == d->msg[i].fg && m->count == d->msg[i].count && !strcmp(m->text, d->msg[i].text);
	}
	if (!same) {
		if (!log_later && !ui_draw_log_over(l, g, c, d->log_end)) { /* (a message too long to keep: composed apart) */
			con_fill(scratch, l->log_x, l->log_y, l->log_w, l->log_h, ' ', 0xFFFFFF, pal->bg);
			ui_draw_log(l, g, scratch);
			(void)con_copy_rect(c, scratch, l->log_x, l->log_y, l->log_w, l->log_h);
			log_ends_unknown(d, l);
		}
		d->nmsg = newest_msgs(g, d->msg);
	}
}

/* Whether the play screen in c, drawn from d, can be brought up to date in
 * part: sets *l (c's layout), the camera and *play (the play screen shows,
 * whole or not). */
static bool can_update(const struct ui_drawn *d, const struct ui *u, const struct game *g, const struct console *c,
		       struct ui_layout *l, int *cam_x, int *cam_y, bool *play)
{
	/* (the camera may differ by less than a view: the view is moved) */
	ui_layout(c->w, c->h, ui_map_cw(u), l);
	l->pal = ui_palette_of(u);
	l->pictures = u->pictures;
	/* the play screen without a status line over the map */
	*play = g && u->screen == UI_PLAY && !l->too_small && !u->status[0];
	int mw = 0, mh = 0;
	*cam_x = *cam_y = 0;
	if (*play) {
		const struct map *m = game_map(g);
		int px, py;
		game_player_pos(g, &px, &py);
		ui_camera(l, m->w, m->h, px, py, cam_x, cam_y);
		mw = m->w;
		mh = m->h;
	}
	int dx = d->cam_x - *cam_x, dy = d->cam_y - *cam_y;
	return *play && d->valid && d->c == c && d->g == g && d->w == c->w && d->h == c->h && d->map_cw == l->map_cw && d->map_w == mw &&
	       d->map_h == mh && dx < ui_view_cols(l) && -dx < ui_view_cols(l) && dy < l->view_h && -dy < l->view_h &&
	       d->last_dev == u->last_dev && d->binds == u->binds && d->demo == u->demo;
}

void ui_draw_frame(struct ui_drawn *d, const struct ui *u, const struct game *g, struct console *shown,
		   struct console *scratch)
{
	struct ui_layout l;
	int cam_x, cam_y;
	bool play;
	bool apart = (scratch->w == shown->w && scratch->h == shown->h) || con_resize(scratch, shown->w, shown->h) == 0;
	if (!apart) { /* no memory for the scratch console: drawn in place */
		ui_draw(u, g, shown);
		d->valid = false;
		return;
	}
	if (can_update(d, u, g, shown, &l, &cam_x, &cam_y, &play)) {
		int hx = -1, hy = -1, r[4] = { 0, 0, 0, 0 }; /* hovered() sets hx, hy only over the map */
		bool now = hovered(u, &l, g, cam_x, cam_y, &hx, &hy), desc = now || d->lab_w;
		int ox = d->cam_x, oy = d->cam_y, cw = l.map_cw > 1 ? l.map_cw : 1;
		/* the view moved: its cells moved with it (the display may move
		 * its pixels), then those it uncovered or that changed drawn */
		if ((ox != cam_x || oy != cam_y) && con_move(shown, l.view_x, l.view_y, ui_view_cols(&l) * cw, l.view_h,
							     (ox - cam_x) * cw, oy - cam_y))
			goto whole; /* (can_update keeps the move inside the view) */
		d->cam_x = cam_x;
		d->cam_y = cam_y;
		update_map(d, &l, g, shown, ox, oy);
		update_panel(d, &l, g, shown, scratch, desc && l.compact);
		if (desc) { /* a description shows, or showed: its row composed again */
			d->lab_w = compose_desc(&l, g, scratch, now, cam_x, hx, hy, r);
			(void)con_copy_rect(shown, scratch, r[0], r[1], r[2], r[3]);
			if (l.compact) /* (the log box composed apart) */
				log_ends_unknown(d, &l);
		}
		return;
	}
whole:
	/* whole: composed apart (a cleared console drawn again damages every
	 * cell it draws on), then only the cells that differ copied. Its
	 * damage, which nothing reads, all CON_DRAW first: a cell set on it
	 * then only compared and written (con_cell_set's damage work done
	 * once, for all of them) */
	con_damage_all(scratch);
	ui_draw(u, g, scratch);
	(void)con_copy(shown, scratch);
	con_clear_damage(scratch);
	d->valid = false;
	if (play)
		remember(d, u, &l, g, shown, scratch, cam_x, cam_y);
}
