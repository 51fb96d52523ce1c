/* blit: turns console cells into pixels on a surface (formats, stride, integer scale, rotation, damage). */
#include "render/blit_impl.h"
#include "core/log.h"
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* How it works: render/blit_impl.h. The blitter made and set up (fonts
 * turned, caches, sheets): blit_setup.c; the pixels of a band: blit_band.c;
 * the choice of font and scale: blit_choose.c. */

static bool any_set(const uint8_t *p, int n)
{
	int i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		if (w)
			return true;
	}
	for (; i < n; i++)
		if (p[i])
			return true;
	return false;
}

#define CC_MAP 0x80000000u  /* a glyph of the map sheet's halves */
#define CC_TILE 0x20000000u /* a composed tile picture */
enum { CC_EMPTY, CC_NOTED, CC_DRAWN }; /* struct cell_cache's state */

/* The cell cache's slot for a console cell's contents: the one it takes
 * first (its set is that slot and the slot with the last bit flipped,
 * cc_other). */
static inline uint32_t cc_index(const struct cell_cache *cc, const struct con_cell *cell)
{
	uint64_t w[2];
	memcpy(w, cell, sizeof w);
	uint64_t h = w[0] * 0x9E3779B97F4A7C15u ^ w[1] * 0xC2B2AE3D27D4EB4Fu;
	return (uint32_t)((h ^ h >> 29) >> 32) & cc->mask;
}

/* The other slot of slot i's set (i itself in a cache of one slot). */
static inline uint32_t cc_other(const struct cell_cache *cc, uint32_t i)
{
	return i ^ (cc->mask & 1u);
}

/* Whether cell is drawn in the cell cache, in its slot *k (cc_index) or
 * the other of its set (then *k is that one). */
static inline bool cc_drawn(const struct cell_cache *cc, uint32_t *k, const struct con_cell *cell)
{
	uint32_t i = *k;
	if (cc->state[i] == CC_DRAWN && con_cell_eq(cc->key[i], *cell))
		return true;
	i = cc_other(cc, i);
	if (cc->state[i] == CC_DRAWN && con_cell_eq(cc->key[i], *cell)) {
		*k = i;
		return true;
	}
	return false;
}

/* The pixels of console cell cell (its slot i, cc_index), drawn by mask job
 * f or else blend job j of the band being gathered, as drawn on s, from
 * the cell cache; NULL: draw it as usual. A cell is kept the second time
 * it is seen (so that a frame of cells that do not come back costs only
 * the look-ups): the first time its slot only notes it, the second time
 * it is drawn into the slot (the band's cells gathered so far drawn
 * first, one of them may be copied from the slot). */
static const uint8_t *fill_slot(struct blitter *b, const struct fjob *f, const struct bjob *j, uint32_t i,
				struct surface *s);

static inline __attribute__((always_inline)) const uint8_t *cached_cell(struct blitter *b, const struct fjob *f,
									 const struct bjob *j, uint32_t i,
									 const struct con_cell *cell, struct surface *s)
{
	struct cell_cache *cc = &b->cc;
	uint32_t o = cc_other(cc, i);
	if (cc->state[i] == CC_EMPTY || !con_cell_eq(cc->key[i], *cell)) {
		if (cc->state[o] != CC_EMPTY && con_cell_eq(cc->key[o], *cell)) {
			i = o; /* in the other slot of its set */
		} else {
			/* noted, not drawn: in its own slot (i), unless that holds
			 * a drawn cell and the other is empty or only noted by a
			 * cell whose own slot it is not (a cell in another's own
			 * slot gives way to it: two cells noted in turn in one
			 * slot are never kept) */
			if (cc->state[i] == CC_DRAWN &&
			    (cc->state[o] == CC_EMPTY || (cc->state[o] == CC_NOTED && cc_index(cc, &cc->key[o]) != o)))
				i = o;
			cc->key[i] = *cell;
			cc->state[i] = CC_NOTED;
			return NULL;
		}
	}
	if (cc->state[i] == CC_DRAWN)
		return cc->px + (size_t)i * cc->cellb;
	return fill_slot(b, f, j, i, s);
}

/* Job f or j drawn into slot i of the cell cache (a surface of one cell;
 * the band's cells gathered so far drawn first); the slot marked drawn.
 * Returns its pixels. */
static const uint8_t *fill_slot(struct blitter *b, const struct fjob *f, const struct bjob *j, uint32_t i,
				struct surface *s)
{
	const struct band *bd = &b->band;
	struct band *one = b->cc.one;
	uint8_t *px = b->cc.px + (size_t)i * b->cc.cellb;
	one->o = bd->o;
	one->sy0 = 0;
	one->bw = bd->bw;
	one->bh = bd->bh;
	one->nf = one->ns = one->nb = one->nc = one->nw = 0;
	one->stream = false; /* the slot is read back: keep it cached */
	if (f) {
		one->nf = 1;
		one->fast[0] = *f;
		one->fast[0].sx0 = 0;
	} else {
		one->nb = 1;
		one->blend[0] = *j;
		one->blend[0].sx0 = 0;
	}
	if (bd->nc)
		flush_band(b, s);
	struct surface cs = { .pixels = px,
			      .width = bd->bw,
			      .height = bd->bh,
			      .stride = bd->bw * surf_bpp(s->format),
			      .format = s->format,
			      .rotation = s->rotation };
	b->draw_band(b, one, &cs);
	b->cc.state[i] = CC_DRAWN;
	return px;
}

/* The pixels of the wide map cell whose head is cell (its slot i,
 * cc_index; tail its tail, the head with CON_TAIL for CON_WIDE) from the
 * cell cache's wide slot i & wmask (rows of 2 bw pixels), or NULL: draw
 * its halves as usual. Kept like a cell (noted the first time it is
 * seen), but made from its halves' slots, not drawn: the second time,
 * when both halves are drawn in the cache, their rows are copied side by
 * side into the wide slot (the band's wide copies gathered so far drawn
 * first: one may be from that slot). */
static const uint8_t *wide_cell(struct blitter *b, uint32_t i, const struct con_cell *cell,
				const struct con_cell *tail, struct surface *s)
{
	struct cell_cache *cc = &b->cc;
	uint32_t w = i & cc->wmask;
	size_t n = (size_t)b->band.bw * (size_t)surf_bpp(s->format);
	uint8_t *px = cc->wpx + (size_t)w * 2 * cc->cellb;
	if (!con_cell_eq(cc->wkey[w], *cell) || cc->wstate[w] == CC_EMPTY) {
		cc->wkey[w] = *cell; /* noted */
		cc->wstate[w] = CC_NOTED;
		return NULL;
	}
	if (cc->wstate[w] == CC_DRAWN)
		return px;
	uint32_t t = cc_index(cc, tail);
	if (!cc_drawn(cc, &i, cell) || !cc_drawn(cc, &t, tail))
		return NULL; /* its halves are not kept (yet) */
	if (b->band.nw)
		flush_band(b, s);
	const uint8_t *hp = cc->px + (size_t)i * cc->cellb, *tp = cc->px + (size_t)t * cc->cellb;
	for (int y = 0; y < b->band.bh; y++, px += 2 * n, hp += n, tp += n) {
		memcpy(px, hp, n);
		memcpy(px + n, tp, n);
	}
	cc->wstate[w] = CC_DRAWN;
	return cc->wpx + (size_t)w * 2 * cc->cellb;
}

/* The part of s that a w×h logical rectangle at logical (ox, oy) covers,
 * as a surface of its own (the same rotation). */
static struct surface sub_surface(const struct surface *s, int ox, int oy, int w, int h)
{
	struct surface t = *s;
	int r[4];
	blit_surface_rect(s, ox, oy, w, h, r);
	int X0 = r[0], Y0 = r[1];
	t.width = r[2];
	t.height = r[3];
	t.pixels = (uint8_t *)s->pixels + (size_t)Y0 * (size_t)s->stride + (size_t)X0 * (size_t)surf_bpp(s->format);
	return t;
}

void blit_draw(struct blitter *b, const struct console *c, struct surface *s, const uint8_t *damage)
{
	blit_draw_rows(b, c, s, damage, damage && damage == c->damage ? c->row_damage : NULL);
}

int blit_draw_on_black(struct blitter *b, const struct console *c, struct surface *s)
{
	blit_map_due(b, c);
	size_t n = (size_t)c->w * (size_t)c->h;
	uint8_t *shown = malloc(n ? n : 1);
	struct con_span *rows = malloc(sizeof *rows * (size_t)(c->h > 0 ? c->h : 1));
	if (!shown || !rows) {
		free(shown);
		free(rows);
		blit_draw(b, c, s, NULL);
		return -ENOMEM;
	}
	for (int y = 0; y < c->h; y++) {
		struct con_span sp = { .lo = UINT16_MAX, .hi = 0 };
		for (int x = 0; x < c->w; x++) {
			size_t i = (size_t)y * (size_t)c->w + (size_t)x;
			const struct con_cell *cell = &c->cells[i];
			/* black in either format: 0xRRGGBB 0 is pixel 0 */
			/* the glyph blit_draw_rows takes for it (a half of a wide map
			 * cell: the map sheet's halves, or without them the head's
			 * glyph and a blank tail) */
			const struct blitter *src = b;
			int g;
			if (b->tb && (cell->flags & CON_MAP) && blit_tile_slot(b, cell, s) >= 0) {
				src = NULL; /* a picture: drawn */
				g = 0;
			} else if (!(cell->flags & (CON_WIDE | CON_TAIL))) {
				g = lookup(b, cell->ch);
			} else if (b->half) {
				src = b->half;
				g = 2 * lookup_map(b, cell->ch) + ((cell->flags & CON_TAIL) != 0);
			} else {
				g = lookup(b, cell->flags & CON_TAIL ? ' ' : cell->ch);
			}
			shown[i] = !src || (cell->bg & 0xFFFFFF) != 0 || !src->empty[g];
			if (shown[i]) {
				if (x < sp.lo)
					sp.lo = (uint16_t)x;
				sp.hi = (uint16_t)x;
			}
		}
		rows[y] = sp;
	}
	blit_draw_rows(b, c, s, shown, rows);
	free(shown);
	free(rows);
	return 0;
}

/* A blitter's glyph tables for rotation index r and a format, as locals
 * (pointers read once a draw, not again after every job stored). */
struct srcview {
	const uint8_t *kind, *bits, *bits_done, *px, *px_done;
	const size_t *off;
	size_t rowb;
	bool colour;
};

static inline struct srcview src_view(const struct blitter *b, int r, bool rgb565)
{
	const struct orient *o = &b->o[r];
	const struct pxrows *x = &o->blend[rgb565];
	return (struct srcview){ b->kind, o->bits, o->bits_done, x->px, x->done, x->off, x->rowb, b->f->colour != NULL };
}

/* The short path of a damaged draw at rotation 0 in a band wholly on the
 * surface s (blit_draw_rows): from cell t of the band's console row (cells
 * row, damage drow) on to before tend (cells wholly on the surface), the
 * damaged cells the cell cache holds drawn (a whole wide map cell from its
 * wide slot when wide, the band's row ends of its damage spanned, its tail
 * damaged and on the surface too; else the cell from its slot) queued as
 * copies, the others skipped, up to the first damaged cell that is not
 * kept so (a wide head whose tail is damaged and on the surface but whose
 * wide slot is not drawn, or a cell not in the cache): returns its index
 * (tend when none). The general path does the same for those cells,
 * looking up more (the cell's sheet, its glyph, noting it). */
static inline int kept_run(struct blitter *b, struct surface *s, const struct con_cell *row, const uint8_t *drow,
			   int t, int tend, bool wide)
{
	struct cell_cache *cc = &b->cc;
	struct band *bd = &b->band;
	int bw = bd->bw;
	while (t < tend) {
		if (!drow[t]) {
			t = con_next_damaged(drow, t + 1, tend);
			continue;
		}
		const struct con_cell *cell = &row[t];
		uint32_t ck = cc_index(cc, cell);
		if (wide && (cell->flags & CON_WIDE) && t + 1 < tend && drow[t + 1]) {
			uint32_t w = ck & cc->wmask;
			struct con_cell tail = *cell;
			tail.flags ^= CON_WIDE | CON_TAIL;
			if (cc->wstate[w] != CC_DRAWN || !con_cell_eq(cc->wkey[w], *cell) || !con_cell_eq(cell[1], tail))
				return t; /* (the general path notes it, or makes its wide slot) */
			struct cjob *k = &bd->wide[bd->nw++];
			k->px = cc->wpx + (size_t)w * 2 * cc->cellb;
			k->sx0 = t * bw;
			if (bd->nw == BLIT_JOBS)
				flush_band(b, s);
			t += 2;
			continue;
		}
		if (!cc_drawn(cc, &ck, cell))
			return t;
		struct cjob *k = &bd->copy[bd->nc++];
		k->px = cc->px + (size_t)ck * cc->cellb;
		k->sx0 = t * bw;
		if (bd->nc == BLIT_JOBS)
			flush_band(b, s);
		t++;
	}
	return t;
}

void blit_draw_rows(struct blitter *b, const struct console *c, struct surface *s, const uint8_t *damage,
		    const struct con_span *rows)
{
	int r = rot_index(s->rotation);
	if (r < 0 || (s->format != SURF_XRGB8888 && s->format != SURF_RGB565) || s->width <= 0 || s->height <= 0)
		return;
	if (b->centred) {
		/* the console's rectangle in the middle of the logical surface */
		bool tr = r == 1 || r == 3;
		int lw = tr ? s->height : s->width, lh = tr ? s->width : s->height;
		long cw = (long)c->w * b->f->cell_w * b->scale, ch = (long)c->h * b->f->cell_h * b->scale;
		int w = cw < lw ? (int)cw : lw, h = ch < lh ? (int)ch : lh;
		if (w < lw || h < lh) {
			struct surface t = sub_surface(s, (lw - w) / 2, (lh - h) / 2, w, h);
			bool was = b->centred;
			b->centred = false;
			blit_draw_rows(b, c, &t, damage, rows);
			b->centred = was;
			return;
		}
	}
	bool rgb565 = s->format == SURF_RGB565;
	blit_map_due(b, c);
	blit_build_bits(b, r);
	blit_build_px(b, r, rgb565);
	if (b->half) {
		blit_build_bits(b->half, r);
		blit_build_px(b->half, r, rgb565);
	}
	if (b->tb) {
		blit_build_bits(b->tb, r);
		blit_build_px(b->tb, r, rgb565);
	}
	const struct orient *o = &b->o[r];
	bool turned = r == 1 || r == 3;
	bool flip_x = r == 1 || r == 2; /* cells of a band run right to left */
	bool flip_y = r == 2 || r == 3; /* bands run bottom to top */
	int bw = o->gw * b->scale, bh = o->gh * b->scale; /* a cell on the surface */
	int nbands = turned ? c->w : c->h, ncells = turned ? c->h : c->w;
	/* only what reaches the surface */
	int maxb = (s->height + bh - 1) / bh, maxc = (s->width + bw - 1) / bw;
	if (nbands > maxb)
		nbands = maxb;
	if (ncells > maxc)
		ncells = maxc;
	size_t gstride = (size_t)o->gh * (size_t)o->bpr;
	const struct srcview vb = src_view(b, r, rgb565);
	/* the map sheet's halves' and the tile pictures' (when b has them) */
	const struct srcview vh = b->half ? src_view(b->half, r, rgb565) : vb;
	const struct srcview vt = b->tb ? src_view(b->tb, r, rgb565) : vb;
	int sw = s->width;
	/* a cell at sx0 lies wholly on the surface when 0 <= sx0 <= sw - bw,
	 * that is (unsigned)sx0 <= span (a negative sx0 is a large unsigned
	 * one), and never when sw < bw */
	unsigned span = sw >= bw ? (unsigned)(sw - bw) : 0;
	bool any_inside = sw >= bw;
	int nin = any_inside ? sw / bw : 0; /* at rotation 0: cells 0 .. nin - 1 lie wholly on the surface */
	struct band *bd = &b->band;
	bd->o = o;
	bd->bw = bw;
	bd->bh = bh;
	bd->stream = !damage;
	bd->nf = bd->ns = bd->nb = bd->nc = bd->nw = 0;
	/* a whole draw: text cells seldom come back, but a map's pictures do
	 * (a few floors and walls over and over): those are kept in whole
	 * draws too */
	bool cache_on = (damage || b->tb) && blit_cache_ready(b, r, rgb565), cache = damage && cache_on;
	/* whole wide map cells from the wide slots: a damaged draw at
	 * rotation 0 (a head's tail the next cell to its right) */
	bool wide = cache && r == 0 && b->cc.wkey;
	/* a whole text draw at rotation 0 whose every cell lies on the
	 * surface, with the text font's masks and rows made and no cell
	 * kept: its text cells are gathered by a short path (no look-up in
	 * the cell cache, no sheet to choose, no edge to clip) */
	bool text_fast = !damage && !cache_on && r == 0 && (long)ncells * bw <= sw && vb.bits && vb.px;
	bool colscan = damage && turned && c->w <= (int)sizeof b->coldmg;
	if (colscan) {
		/* bands are console columns: find the damaged ones a row at a time */
		int w = c->w;
		memset(b->coldmg, 0, (size_t)w);
		for (int y = 0; y < ncells; y++) {
			const uint8_t *row = damage + (size_t)y * (size_t)c->w;
			if (rows ? con_span_any(rows[y]) : any_set(row, w))
				for (int x = 0; x < w; x++)
					b->coldmg[x] |= row[x];
		}
	}
	/* bands that are console rows, spanned by the console's own
	 * row_damage: only its rows damage_y0..damage_y1 can hold any (the
	 * others' spans are empty; 45 rows at 1080p looked at one by one
	 * were ~0.2k instructions a turn) */
	int a0 = 0, a1 = nbands;
	if (damage && rows == c->row_damage && !turned) {
		a0 = c->damage_y0 > 0 ? c->damage_y0 : 0;
		a1 = c->damage_y1 + 1 < nbands ? c->damage_y1 + 1 : nbands;
	}
	for (int a = a0; a < a1; a++) {
		if (damage && !turned &&
		    (rows ? !con_span_any(rows[a]) : !any_set(damage + (size_t)a * (size_t)c->w, ncells)))
			continue;
		if (colscan && !b->coldmg[a])
			continue;
		bd->sy0 = flip_y ? s->height - (a + 1) * bh : a * bh;
		bool whole = bd->sy0 >= 0 && bd->sy0 + bh <= s->height; /* the band's cells whole */
		bool keep = cache && whole, keep_pictures = cache_on && whole;
		bool look = keep || keep_pictures; /* cells may be found in the cell cache */
		/* visit the band's cells left to right on the surface (unturned,
		 * unflipped: only within the row's span) */
		int t0 = 0, t1 = ncells;
		if (damage && rows && !turned && !flip_x) {
			t0 = rows[a].lo < ncells ? rows[a].lo : ncells;
			t1 = rows[a].hi < ncells ? rows[a].hi + 1 : ncells;
		}
		int k0 = flip_x ? ncells - 1 : 0;
		ptrdiff_t dci = (turned ? c->w : 1) * (flip_x ? -1 : 1);
		ptrdiff_t ci = (turned ? (ptrdiff_t)k0 * c->w + a : (ptrdiff_t)a * c->w + k0) + t0 * dci;
		int sx0 = (flip_x ? s->width - ncells * bw : 0) + t0 * bw;
		bool wide_band = wide && keep;
		/* kept cells found first by a short path (kept_run): a damaged
		 * draw at rotation 0 of a band wholly on the surface, its row's
		 * damage spanned */
		bool kept_fast = keep && r == 0 && rows;
		const struct con_cell *brow = c->cells + (size_t)a * (size_t)c->w;
		const uint8_t *drow = damage ? damage + (size_t)a * (size_t)c->w : NULL;
		int tend = t1 < nin ? t1 : nin;
		int t = t0;
		/* text_fast: the band's text cells up to its first map cell (then
		 * the general loop below goes on from there) */
		for (; text_fast && t < t1; t++, ci += dci, sx0 += bw) {
			const struct con_cell *cell = &c->cells[ci];
			if (cell->flags & (CON_MAP | CON_WIDE | CON_TAIL))
				break;
			int g = lookup(b, cell->ch);
			if (vb.kind[g] == GK_MASK) {
				if (!vb.bits_done[g])
					blit_glyph_bits(b, r, g);
				struct fjob *j = &bd->fast[bd->nf];
				j->sx0 = sx0;
				j->bits = vb.bits + (size_t)g * gstride;
				j->fg = rgb565 ? to565(cell->fg) : cell->fg & 0xFFFFFF;
				j->bg = rgb565 ? to565(cell->bg) : cell->bg & 0xFFFFFF;
				if (++bd->nf == BLIT_JOBS)
					flush_band(b, s);
			} else {
				if (!vb.px_done[g])
					blit_glyph_px(b, r, rgb565, g);
				struct bjob *j = &bd->blend[bd->nb];
				j->sx0 = sx0;
				j->rows = vb.px + vb.off[g];
				j->rowb = vb.rowb;
				j->colour = vb.colour;
				j->fg = cell->fg;
				j->bg = cell->bg;
				if (++bd->nb == BLIT_JOBS)
					flush_band(b, s);
			}
		}
		for (; t < t1; t++, ci += dci, sx0 += bw) {
			if (kept_fast) {
				/* on from t with the kept cells (to the first that is
				 * not one: drawn by the path below, then on again) */
				int u = kept_run(b, s, brow, drow, t, tend, wide_band);
				ci += u - t;
				sx0 += (u - t) * bw;
				t = u;
				if (t >= t1)
					break;
			}
			if (damage && !damage[ci]) {
				if (!turned && !flip_x) { /* on to the row's next damaged cell */
					int skip = con_next_damaged(damage + (ci - t), t + 1, t1) - t - 1;
					t += skip;
					ci += skip;
					sx0 += skip * bw;
				}
				continue;
			}
			const struct con_cell *cell = &c->cells[ci];
			bool inside = any_inside && (unsigned)sx0 <= span; /* sx0 >= 0 && sx0 + bw <= sw */
			/* a cell kept in the cell cache: copied, found by its
			 * contents alone */
			uint32_t ck = 0;
			if (look && inside) {
				ck = cc_index(&b->cc, cell);
				/* a wide map cell whole, its tail damaged and on the
				 * surface too: one look-up, rows of 2 bw pixels */
				if (wide_band && (cell->flags & CON_WIDE) && t + 1 < t1 && damage[ci + 1] &&
				    (unsigned)sx0 + (unsigned)bw <= span) {
					struct con_cell tail = *cell;
					tail.flags ^= CON_WIDE | CON_TAIL;
					const uint8_t *px = con_cell_eq(cell[1], tail) ? wide_cell(b, ck, cell, &tail, s) : NULL;
					if (px) {
						struct cjob *k = &bd->wide[bd->nw++];
						k->px = px;
						k->sx0 = sx0;
						if (bd->nw == BLIT_JOBS)
							flush_band(b, s);
						t++; /* its tail drawn too */
						ci += dci;
						sx0 += bw;
						continue;
					}
				}
				uint32_t kept = ck;
				if (cc_drawn(&b->cc, &kept, cell)) {
					struct cjob *k = &bd->copy[bd->nc++];
					k->px = b->cc.px + (size_t)kept * b->cc.cellb;
					k->sx0 = sx0;
					if (bd->nc == BLIT_JOBS)
						flush_band(b, s);
					continue;
				}
			}
			/* a half of a wide map cell: from the map sheet's halves;
			 * without a sheet, the head's glyph and a blank tail; a map
			 * cell's picture from the tile pictures */
			const struct blitter *src = b;
			uint32_t sheet = 0;
			int g, tg = b->tb && (cell->flags & CON_MAP) ? blit_tile_slot(b, cell, s) : -1;
			if (tg >= 0) {
				src = b->tb;
				sheet = CC_TILE;
				g = b->twide ? 2 * tg + ((cell->flags & CON_TAIL) != 0) : tg;
			} else if (!(cell->flags & (CON_WIDE | CON_TAIL))) {
				g = lookup(b, cell->ch);
			} else if (b->half) {
				src = b->half;
				sheet = CC_MAP;
				g = 2 * lookup_map(b, cell->ch) + ((cell->flags & CON_TAIL) != 0);
			} else {
				g = lookup(b, cell->flags & CON_TAIL ? ' ' : cell->ch);
			}
			/* what the cell's font holds, from locals (the band's job
			 * stores could alias its fields) */
			const struct srcview *v = src == b ? &vb : src == b->tb ? &vt : &vh;
			if (v->kind[g] == GK_MASK && v->bits && inside) {
				if (!v->bits_done[g])
					blit_glyph_bits(src, r, g);
				struct fjob *j = &bd->fast[bd->nf];
				j->sx0 = sx0;
				j->bits = v->bits + (size_t)g * gstride;
				j->fg = rgb565 ? to565(cell->fg) : cell->fg & 0xFFFFFF;
				j->bg = rgb565 ? to565(cell->bg) : cell->bg & 0xFFFFFF;
				/* copied when kept (8-pixel cells: drawn as fast, in pairs) */
				const uint8_t *kept = keep && (bw != 8 || b->scale != 1) ? cached_cell(b, j, NULL, ck, cell, s) : NULL;
				if (kept) {
					struct cjob *k = &bd->copy[bd->nc++];
					k->px = kept;
					k->sx0 = sx0;
					if (bd->nc == BLIT_JOBS)
						flush_band(b, s);
				} else if (++bd->nf == BLIT_JOBS) {
					flush_band(b, s);
				}
			} else if (v->px && v->off[g] != SIZE_MAX && inside) {
				if (!v->px_done[g])
					blit_glyph_px(src, r, rgb565, g);
				struct bjob *j = &bd->blend[bd->nb];
				j->sx0 = sx0;
				j->rows = v->px + v->off[g];
				j->rowb = v->rowb;
				j->colour = v->colour;
				j->fg = cell->fg;
				j->bg = cell->bg;
				const uint8_t *kept = keep || (keep_pictures && sheet == CC_TILE)
							      ? cached_cell(b, NULL, j, ck, cell, s)
							      : NULL;
				if (kept) { /* copied from the cache */
					struct cjob *k = &bd->copy[bd->nc++];
					k->px = kept;
					k->sx0 = sx0;
					if (bd->nc == BLIT_JOBS)
						flush_band(b, s);
				} else if (++bd->nb == BLIT_JOBS) {
					flush_band(b, s);
				}
			} else {
				struct job *j = &bd->slow[bd->ns++];
				j->f = src->f;
				j->sx0 = sx0;
				j->u0 = sx0 < 0 ? -sx0 : 0;
				j->u1 = sx0 + bw > s->width ? s->width - sx0 : bw;
				j->glyph = g;
				j->fg = cell->fg;
				j->bg = cell->bg;
				if (bd->ns == BLIT_JOBS)
					flush_band(b, s);
			}
		}
		flush_band(b, s);
	}
}

void blit_clear(struct surface *s, uint32_t rgb)
{
	if (s->width <= 0 || s->height <= 0 || (s->format != SURF_RGB565 && s->format != SURF_XRGB8888))
		return;
	int bpp = surf_bpp(s->format);
	uint32_t p = s->format == SURF_RGB565 ? to565(rgb) : rgb & 0xFFFFFF;
	size_t n = (size_t)s->width * (size_t)bpp;
	uint8_t *first = s->pixels;
	/* every byte the same (black; white in RGB565): memset; else the
	 * first row by doubling copies, then row copies (no per-pixel loop) */
	if (bpp == 4 ? p == 0 : (p & 0xFF) == (p >> 8)) {
		for (int y = 0; y < s->height; y++)
			memset(first + (size_t)y * (size_t)s->stride, (int)(p & 0xFF), n);
		return;
	}
	memcpy(first, &p, (size_t)bpp);
	for (size_t done = (size_t)bpp; done < n;) {
		size_t k = done < n - done ? done : n - done;
		memcpy(first + done, first, k);
		done += k;
	}
	for (int y = 1; y < s->height; y++)
		memcpy(first + (size_t)y * (size_t)s->stride, first, n);
}
