/* blit: turns console cells into pixels on a surface (formats, stride, integer scale, rotation, damage). */
#include "render/blit_impl.h"
#include "core/log.h"
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* How it works: render/blit_impl.h. The pixels of a band: blit_band.c; the
 * choice of font and scale: blit_choose.c. */

static int rot_index(int rotation)
{
	switch (rotation) {
	case 0: return 0;
	case 90: return 1;
	case 180: return 2;
	case 270: return 3;
	default: return -1;
	}
}

/* Geometry of rotation r's view of the font (cheap; done at create). */
static void init_orient(struct blitter *b, int r)
{
	const struct font *f = b->f;
	struct orient *o = &b->o[r];
	int cw = f->cell_w, ch = f->cell_h;
	bool turned = r == 1 || r == 3;
	o->gw = turned ? ch : cw;
	o->gh = turned ? cw : ch;
	o->bpr = (o->gw * b->scale + 7) / 8;
	switch (r) {
	case 0: o->base = 0; o->du = 1; o->dv = cw; break;
	case 1: o->base = (ch - 1) * cw; o->du = -cw; o->dv = 1; break;
	case 2: o->base = ch * cw - 1; o->du = -1; o->dv = -cw; break;
	default: o->base = cw - 1; o->du = cw; o->dv = -1; break;
	}
}

/* The mask bits of rotation r, made on first use (each glyph's filled in
 * on its first draw: glyph_bits). Without memory for them every cell takes
 * the per-pixel path: slower, same pixels. */
static void build_bits(struct blitter *b, int r)
{
	struct orient *o = &b->o[r];
	if (o->tried)
		return;
	o->tried = true;
	const struct font *f = b->f;
	size_t per = (size_t)o->gh * (size_t)o->bpr;
	if ((size_t)f->nglyphs <= SIZE_MAX / per) {
		o->bits = calloc((size_t)f->nglyphs, per);
		o->bits_done = calloc((size_t)f->nglyphs, 1);
	}
	if (!o->bits || !o->bits_done) {
		free(o->bits);
		free(o->bits_done);
		o->bits = o->bits_done = NULL;
		log_error("blit: out of memory for the glyph masks of %s; drawing pixel by pixel", f->name);
	}
}

/* Glyph g's mask bits of rotation r filled in (b's bits made). */
static inline void glyph_bits(const struct blitter *b, int r, int g)
{
	const struct orient *o = &b->o[r];
	if (o->bits_done[g])
		return;
	o->bits_done[g] = 1;
	const struct font *f = b->f;
	int s = b->scale;
	size_t per = (size_t)o->gh * (size_t)o->bpr;
	size_t gsize = (size_t)f->cell_w * (size_t)f->cell_h;
	const uint8_t *cov = f->coverage + (size_t)g * gsize;
	uint8_t *dst = o->bits + (size_t)g * per;
	for (int v = 0; v < o->gh; v++, dst += o->bpr)
		for (int gu = 0; gu < o->gw; gu++)
			if (cov[o->base + gu * o->du + v * o->dv])
				for (int u = gu * s; u < (gu + 1) * s; u++)
					dst[u >> 3] |= (uint8_t)(1u << (u & 7));
}

/* The blend path's rows of rotation r for XRGB8888 (rgb565 false) or
 * RGB565, made on the first draw in that format (each glyph's filled in on
 * its first draw: glyph_px). Without memory for them those cells take the
 * per-pixel path: slower, same pixels. */
static void build_px(struct blitter *b, int r, bool rgb565)
{
	struct orient *o = &b->o[r];
	struct pxrows *x = &o->blend[rgb565];
	if (x->tried)
		return;
	x->tried = true;
	const struct font *f = b->f;
	int s = b->scale, bw = o->gw * s, bwp = (bw + 7) & ~7;
	bool colour = f->colour != NULL;
	x->bwp = bwp;
	x->rowb = (size_t)bwp * (rgb565 ? 2 : 8);
	size_t per = (size_t)o->gh * x->rowb * (rgb565 && colour ? 4 : 1), n = 0;
	for (int g = 0; g < f->nglyphs; g++)
		n += b->kind[g] != GK_MASK;
	if (!n)
		return;
	x->off = malloc((size_t)f->nglyphs * sizeof *x->off);
	x->done = calloc((size_t)f->nglyphs, 1);
	if (x->off && x->done && n <= (((size_t)64) << 20) / per)
		x->px = calloc(1, n * per + 32);
	if (!x->px || !x->off || !x->done) {
		free(x->off);
		free(x->done);
		x->off = NULL;
		x->done = NULL;
		log_error("blit: out of memory for the blended glyphs of %s; drawing them pixel by pixel", f->name);
		return;
	}
	size_t at = 0;
	for (int g = 0; g < f->nglyphs; g++) {
		x->off[g] = b->kind[g] == GK_MASK ? SIZE_MAX : at;
		at += b->kind[g] == GK_MASK ? 0 : per;
	}
}

/* Glyph g's blend rows of rotation r and format rgb565 filled in (b's made,
 * g not a mask glyph). */
static inline void glyph_px(const struct blitter *b, int r, bool rgb565, int g)
{
	const struct orient *o = &b->o[r];
	const struct pxrows *x = &o->blend[rgb565];
	if (x->done[g])
		return;
	x->done[g] = 1;
	const struct font *f = b->f;
	int s = b->scale, bw = o->gw * s, bwp = x->bwp;
	bool colour = f->colour != NULL;
	/* where pixel u of row v's lanes are, from the glyph's start: at
	 * v*rowl + lane*u; RGB565 colour B a plane (gh bwp) on, G and R each a
	 * further plane on: XRGB8888 rowl = rowb/2, lane 4; RGB565 rowl = bwp,
	 * lane 1 */
	size_t rowl = x->rowb / 2, lane = rgb565 ? 1 : 4;
	size_t plane = rgb565 ? (size_t)o->gh * (size_t)bwp : 1, cofs = plane;
	size_t gsize = (size_t)f->cell_w * (size_t)f->cell_h;
	uint16_t *row = (uint16_t *)(void *)(x->px + x->off[g]);
	for (int v = 0; v < o->gh; v++, row += rowl)
		for (int u = 0; u < bw; u++) {
			size_t i = (size_t)g * gsize + (size_t)(o->base + (u / s) * o->du + v * o->dv);
			uint16_t *p = row + lane * (size_t)u, *c = p + cofs;
			uint16_t a = colour ? (uint16_t)(f->colour[i] >> 24) : f->coverage[i];
			if (lane == 4 && colour) {
				/* XRGB8888 colour: each channel t*a + 128, then 255 - a
				 * (the blend is y = t*a + 127 + bg*(255 - a), y / 255;
				 * the rows hold y + 1 less bg*(255 - a), what the
				 * divisions by 255 take, and the factor of bg, which
				 * the blend spreads over the pixel's lanes; its own
				 * lane comes out 0: (255 - a) / 255 < 1) */
				uint32_t t = f->colour[i];
				p[0] = (uint16_t)((t & 255) * a + 128);
				p[1] = (uint16_t)(((t >> 8) & 255) * a + 128);
				p[2] = (uint16_t)(((t >> 16) & 255) * a + 128);
				p[3] = (uint16_t)(255 - a);
			} else if (lane == 4) {
				p[0] = p[1] = p[2] = p[3] = a;
			} else {
				p[0] = a;
			}
			if (colour && lane == 1) {
				uint32_t t = f->colour[i];
				c[0] = t & 255;
				c[plane] = (t >> 8) & 255;
				c[2 * plane] = (t >> 16) & 255;
			}
		}
}

int blit_create(struct blitter **out, const struct font *f, int scale)
{
	*out = NULL;
	if (!f || !f->coverage || f->nglyphs < 1 || f->cell_w < 1 || f->cell_h < 1 ||
	    f->cell_w > BLIT_MAX_CELL || f->cell_h > BLIT_MAX_CELL ||
	    f->replacement < 0 || f->replacement >= f->nglyphs) {
		log_error("blit: unusable font %s", f ? f->name : "(none)");
		return -EINVAL;
	}
	if (scale < 1 || scale > 8) {
		log_error("blit: scale %d is out of range; use 1 to 8", scale);
		return -EINVAL;
	}
	int rc = -ENOMEM;
	struct blitter *b = aligned_alloc(_Alignof(struct blitter), sizeof(struct blitter));
	if (!b)
		goto fail;
	memset(b, 0, sizeof *b);
	for (int m = 0; m < 256; m++)
		for (int k = 0; k < 8; k++) {
			b->lut32[m][k] = (m >> k & 1) ? 0xFFFFFFFFu : 0;
			if (m < 16 && k < 4)
				b->lut4[m][k] = (m >> k & 1) ? 0xFFFFFFFFu : 0;
			b->lut16[m][k] = (m >> k & 1) ? 0xFFFF : 0;
		}
	b->draw_band = blit_band_base;
#ifdef BLIT_HAVE_AVX2
	/* PIROGUE_BLIT_BASELINE=1 keeps the baseline code, =2 AVX2 without
	 * AVX-512 (tests, comparisons) */
	const char *base = getenv("PIROGUE_BLIT_BASELINE");
	int want = base && *base == '1' ? 0 : base && *base == '2' ? 1 : 2;
	if (__builtin_cpu_supports("avx2") && want >= 1)
		b->draw_band = blit_band_avx2;
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") && want == 2)
		b->draw_band = blit_band_avx512;
#endif
	b->f = f;
	b->scale = scale;
	b->cc.r = -1;
	b->cc.want = -1;
	b->kind = malloc((size_t)f->nglyphs);
	b->empty = calloc((size_t)f->nglyphs, 1);
	if (!b->kind || !b->empty)
		goto fail_b;
	size_t gsize = (size_t)f->cell_w * (size_t)f->cell_h;
	for (int g = 0; g < f->nglyphs; g++) {
		uint8_t k = GK_MASK;
		if (f->colour) {
			k = GK_COLOUR;
		} else {
			const uint8_t *cov = f->coverage + (size_t)g * gsize;
			/* eight pixels a step: a byte is 0 or 255 when each of its
			 * bits equals the one below it */
			uint64_t any = 0, mixed = 0;
			size_t i = 0;
			for (; i + 8 <= gsize && !mixed; i += 8) {
				uint64_t w;
				memcpy(&w, cov + i, 8);
				any |= w;
				mixed |= (w ^ (w << 1)) & 0xFEFEFEFEFEFEFEFEull;
			}
			for (; i < gsize && !mixed; i++) {
				any |= cov[i];
				mixed |= cov[i] != 0 && cov[i] != 255;
			}
			if (mixed)
				k = GK_BLEND; /* and not empty */
			b->empty[g] = !any;
		}
		b->kind[g] = k;
	}
	for (int r = 0; r < 4; r++)
		init_orient(b, r);
	/* Every slot starts as the (valid) entry for code point 0xFFFFFFFF. */
	int32_t gmax = font_glyph(f, 0xFFFFFFFFu);
	if (gmax < 0 || gmax >= f->nglyphs)
		gmax = f->replacement;
	for (int i = 0; i < BLIT_GCACHE; i++) {
		b->cache[i].cp = 0xFFFFFFFFu;
		b->cache[i].glyph = gmax;
	}
	*out = b;
	return 0;
fail_b:
	free(b->kind);
	free(b->empty);
	free(b);
fail:
	log_error("blit: out of memory for font %s at scale %d", f->name, scale);
	return rc;
}

/* The cell cache's memory freed and its pointers cleared (its settings kept). */
static void cache_free(struct cell_cache *cc)
{
	free(cc->key);
	free(cc->state);
	free(cc->px);
	free(cc->one);
	free(cc->wkey);
	free(cc->wstate);
	free(cc->wpx);
	cc->key = NULL;
	cc->state = NULL;
	cc->px = NULL;
	cc->one = NULL;
	cc->wkey = NULL;
	cc->wstate = NULL;
	cc->wpx = NULL;
}

/* Every slot of the cell cache (and its wide slots) emptied. */
static void cache_empty(struct cell_cache *cc)
{
	if (cc->state)
		memset(cc->state, 0, (size_t)cc->mask + 1);
	if (cc->wstate)
		memset(cc->wstate, 0, (size_t)cc->wmask + 1);
}

void blit_destroy(struct blitter *b)
{
	if (!b)
		return;
	blit_destroy(b->half);
	font_destroy(b->half_font);
	blit_destroy(b->tb);
	font_destroy(b->tfont);
	for (int r = 0; r < 4; r++) {
		free(b->o[r].bits);
		free(b->o[r].bits_done);
		for (int k = 0; k < 2; k++) {
			free(b->o[r].blend[k].px);
			free(b->o[r].blend[k].off);
			free(b->o[r].blend[k].done);
		}
	}
	cache_free(&b->cc);
	free(b->kind);
	free(b->empty);
	free(b);
}

void blit_console_size(const struct blitter *b, const struct surface *s, int *cols, int *rows)
{
	int r = rot_index(s->rotation);
	int lw = s->width, lh = s->height;
	if (r == 1 || r == 3) {
		lw = s->height;
		lh = s->width;
	}
	int cw = b->f->cell_w * b->scale, ch = b->f->cell_h * b->scale;
	*cols = r < 0 || lw < 0 ? 0 : lw / cw;
	*rows = r < 0 || lh < 0 ? 0 : lh / ch;
}

static inline int lookup(struct blitter *b, uint32_t cp)
{
	unsigned slot = cp & (BLIT_GCACHE - 1);
	if (b->cache[slot].cp == cp)
		return b->cache[slot].glyph;
	int g = font_glyph(b->f, cp);
	if (g < 0 || g >= b->f->nglyphs)
		g = b->f->replacement;
	b->cache[slot].cp = cp;
	b->cache[slot].glyph = g;
	return g;
}


int blit_set_map(struct blitter *b, const struct font *map)
{
	if (map && (map->cell_w != 2 * b->f->cell_w || map->cell_h != b->f->cell_h)) {
		log_error("blit: map sheet %s has %d×%d cells, not %d×%d (two text cells of %s)", map->name, map->cell_w,
			  map->cell_h, 2 * b->f->cell_w, b->f->cell_h, b->f->name);
		return -EINVAL;
	}
	struct font *hf = NULL;
	struct blitter *hb = NULL;
	if (map) {
		int rc = font_halves(&hf, map);
		if (!rc && (rc = blit_create(&hb, hf, b->scale)))
			font_destroy(hf);
		if (rc) {
			if (rc == -ENOMEM)
				log_error("blit: out of memory for the map sheet %s", map->name);
			return rc;
		}
	}
	blit_destroy(b->half);
	font_destroy(b->half_font);
	if (b->tiles && (map ? b->tiles->cell_w != map->cell_w || b->tiles->cell_h != map->cell_h || !b->twide
			     : b->twide)) {
		log_error("blit: the tile sheet %s does not fit the new map cells; drawing glyphs", b->tiles->name);
		blit_set_tiles(b, NULL);
	}
	b->map = map;
	b->half = hb;
	b->half_font = hf;
	b->cc.r = -1; /* kept map cells were of the old sheet */
	int32_t gmax = map ? font_glyph(map, 0xFFFFFFFFu) : 0;
	for (int i = 0; i < BLIT_GCACHE; i++) {
		b->mcache[i].cp = 0xFFFFFFFFu;
		b->mcache[i].glyph = gmax;
	}
	return 0;
}

const struct font *blit_map(const struct blitter *b)
{
	return b->map;
}

int blit_set_map_later(struct blitter *b, struct font_cands *c, int i)
{
	if (i < 0 || i >= c->n)
		return -EINVAL;
	const struct font_cand *k = &c->c[i];
	if (k->cell_w != 2 * b->f->cell_w || k->cell_h != b->f->cell_h) {
		log_error("blit: map sheet %s has %d×%d cells, not %d×%d (two text cells of %s)", k->path, k->cell_w,
			  k->cell_h, 2 * b->f->cell_w, b->f->cell_h, b->f->name);
		return -EINVAL;
	}
	b->pend = c;
	b->pend_i = i;
	b->pend_w = k->cell_w;
	b->pend_h = k->cell_h;
	return 0;
}

/* The pending map sheet decoded and set, when c holds a half of a wide map
 * cell (it stays pending otherwise). */
static void map_due(struct blitter *b, const struct console *c)
{
	if (!b->pend)
		return;
	size_t n = (size_t)c->w * (size_t)c->h;
	size_t i = 0;
	while (i < n && !(c->cells[i].flags & (CON_WIDE | CON_TAIL)))
		i++;
	if (i == n)
		return;
	struct font_cands *fc = b->pend;
	b->pend = NULL;
	const struct font *m;
	char err[512];
	if (font_cands_get(fc, b->pend_i, &m, err, sizeof err))
		log_error("%s; map cells drawn with the text font", err);
	else if (blit_set_map(b, m))
		log_error("blit: map cells drawn with the text font");
}

/* The map sheet's glyph for cp (blit_set_map gave one). */
static inline int lookup_map(struct blitter *b, uint32_t cp)
{
	unsigned slot = cp & (BLIT_GCACHE - 1);
	if (b->mcache[slot].cp == cp)
		return b->mcache[slot].glyph;
	int g = font_glyph(b->map, cp);
	if (g < 0 || g >= b->map->nglyphs)
		g = b->map->replacement;
	b->mcache[slot].cp = cp;
	b->mcache[slot].glyph = g;
	return g;
}

/* Lets every composed tile picture go (the band gathered so far drawn
 * first: its jobs may point at them; kept cells of them forgotten). */
static void flush_band(struct blitter *b, struct surface *s);
static void tiles_forget(struct blitter *b, struct surface *s)
{
	if (s)
		flush_band(b, s);
	memset(b->thash, 0, sizeof b->thash);
	b->tused = 0;
	cache_empty(&b->cc);
	if (!b->tb)
		return;
	for (int r = 0; r < 4; r++)
		for (int k = 0; k < 2; k++)
			if (b->tb->o[r].blend[k].done)
				memset(b->tb->o[r].blend[k].done, 0, (size_t)b->tfont->nglyphs);
}

/* The slot of cell's picture (composed now when new), or -1: the cell
 * has no picture, or the sheet lacks one of its layers (its glyph is
 * drawn). s: the surface being drawn (its gathered band drawn before the
 * slots are let go), or NULL. */
static int tile_slot(struct blitter *b, const struct con_cell *cell, struct surface *s)
{
	uint32_t key = cell->tile | (uint32_t)(cell->flags & CON_PICTURE) << 16;
	if (!(key & ~((uint32_t)CON_DIM << 16)))
		return -1;
	enum { N = 4 * BLIT_TSLOTS };
	uint32_t h = (key * 0x9E3779B1u) >> 22; /* 10 bits: N = 1024 */
	_Static_assert(4 * BLIT_TSLOTS == 1024, "the hash takes 10 bits");
	int used = 0;
	for (; used < N; h = (h + 1) & (N - 1), used++) {
		if (b->thash[h].key == key)
			return b->thash[h].slot;
		if (!b->thash[h].key)
			break;
	}
	int ids[4] = { (int)(key & 0xFF), (int)(key >> 8 & 0xFF), (int)(key >> 24 & 0xF), (int)(key >> 28 & 0xF) };
	int slot = b->tused;
	for (int k = 0; k < 4; k++)
		if (ids[k] && !b->thave[ids[k]])
			slot = -1;
	if (used > N / 4 || (slot >= 0 && slot >= BLIT_TSLOTS)) { /* full: start again */
		tiles_forget(b, s);
		return tile_slot(b, cell, s);
	}
	if (slot >= 0) {
		font_tiles_compose(b->tfont, slot, b->tiles, ids, 4, (key >> 16 & CON_DIM) != 0);
		b->tused++;
	}
	b->thash[h].key = key;
	b->thash[h].slot = slot;
	return slot;
}

int blit_set_tiles(struct blitter *b, const struct font *tiles)
{
	if (tiles) {
		bool wide = b->map || b->pend;
		int mw = b->map ? b->map->cell_w : b->pend ? b->pend_w : b->f->cell_w;
		int mh = b->map ? b->map->cell_h : b->pend ? b->pend_h : b->f->cell_h;
		if (tiles->cell_w != mw || tiles->cell_h != mh) {
			log_error("blit: tile sheet %s has %d×%d tiles, not the %d×%d of this display's map cells "
				  "(--verbose's layout line, divided by the scale): drawing glyphs",
				  tiles->name, tiles->cell_w, tiles->cell_h, mw, mh);
			return -EINVAL;
		}
		struct font *tf;
		struct blitter *tb = NULL;
		int rc = font_tiles_slots(&tf, tiles, BLIT_TSLOTS, wide);
		if (!rc && (rc = blit_create(&tb, tf, b->scale)))
			font_destroy(tf);
		if (rc) {
			log_error("blit: %s for the tile sheet %s; drawing glyphs",
				  rc == -ENOMEM ? "out of memory" : "cannot use", tiles->name);
			return rc;
		}
		blit_destroy(b->tb);
		font_destroy(b->tfont);
		b->tb = tb;
		b->tfont = tf;
		b->twide = wide;
		for (int i = 0; i < 256; i++)
			b->thave[i] = font_tile_has(tiles, i);
	} else {
		blit_destroy(b->tb);
		font_destroy(b->tfont);
		b->tb = NULL;
		b->tfont = NULL;
	}
	b->tiles = tiles;
	b->cc.r = -1; /* kept cells may show the old pictures */
	tiles_forget(b, NULL);
	return 0;
}

int blit_use_tilesets(struct blitter *b, struct font_tilesets *t)
{
	if (!t || !t->on)
		return blit_set_tiles(b, NULL);
	int mw = b->map ? b->map->cell_w : b->pend ? b->pend_w : b->f->cell_w;
	int mh = b->map ? b->map->cell_h : b->pend ? b->pend_h : b->f->cell_h;
	const struct font *f = font_tilesets_get(t, mw, mh);
	if (!f) {
		if (t->user && t->n && !t->s[0].failed) /* the user's sheet, of another size */
			log_error("%s: its tiles are %d×%d, this display's map cells %d×%d: drawing glyphs (give a sheet "
				  "of %d×%d tiles; tools/make-tiles builds the shipped ones)", t->s[0].path, t->s[0].w,
				  t->s[0].h, mw, mh, mw, mh);
		else if (!t->user)
			log_info("no tile sheet of %d×%d tiles (tools/make-tiles builds the shipped sizes): drawing glyphs",
				 mw, mh);
		blit_set_tiles(b, NULL);
		return -ENOENT;
	}
	return blit_set_tiles(b, f);
}

const struct font *blit_tiles(const struct blitter *b)
{
	return b->tiles;
}

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

static void flush_band(struct blitter *b, struct surface *s)
{
	struct band *bd = &b->band;
	if (bd->nf || bd->ns || bd->nb || bd->nc || bd->nw)
		b->draw_band(b, bd, s);
	bd->nf = bd->ns = bd->nb = bd->nc = bd->nw = 0;
}

int blit_set_cell_cache(struct blitter *b, int slots)
{
	if (slots < -1 || (slots > 0 && (slots & (slots - 1))) || slots > (1 << 20))
		return -EINVAL;
	struct cell_cache *cc = &b->cc;
	cache_free(cc);
	cc->tried = false;
	cc->want = slots;
	return 0;
}

/* Whether the cell cache can serve a draw at rotation index r in format
 * rgb565: allocated on first use (cells of at most 16 KB, up to 4096 slots
 * in 4 MB), emptied when the rotation, the format or the map sheet changed. */
static bool cache_ready(struct blitter *b, int r, bool rgb565)
{
	struct cell_cache *cc = &b->cc;
	if (!cc->tried) {
		cc->tried = true;
		size_t cellb = (size_t)b->f->cell_w * (size_t)b->f->cell_h * (size_t)b->scale * (size_t)b->scale * 4;
		size_t slots = (size_t)cc->want;
		if (cc->want < 0) {
			if (cellb > 16384)
				return false;
			for (slots = 4096; slots > 64 && slots * cellb > (4u << 20);)
				slots /= 2;
		}
		if (!slots)
			return false;
		cc->key = calloc(slots, sizeof *cc->key);
		cc->state = calloc(slots, 1);
		cc->px = malloc(slots * cellb + 64); /* a row store may run past its last pixel: no */
		cc->one = malloc(sizeof *cc->one);
		/* a quarter as many wide slots (at 1080p 512 map cells of 24×24:
		 * 1.2 MB) */
		size_t wslots = slots / 4 ? slots / 4 : 1;
		cc->wkey = calloc(wslots, sizeof *cc->wkey);
		cc->wstate = calloc(wslots, 1);
		cc->wpx = malloc(wslots * 2 * cellb + 64);
		if (!cc->key || !cc->state || !cc->px || !cc->one || !cc->wkey || !cc->wstate || !cc->wpx) {
			cache_free(cc);
			return false;
		}
		cc->cellb = cellb;
		cc->mask = (uint32_t)slots - 1;
		cc->wmask = (uint32_t)wslots - 1;
		cc->r = -1;
	}
	if (!cc->key)
		return false;
	if (cc->r != r || cc->fmt != (int)rgb565) {
		cache_empty(cc);
		cc->r = r;
		cc->fmt = rgb565;
	}
	return true;
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

void blit_set_centred(struct blitter *b, bool on)
{
	b->centred = on;
}

void blit_look(const struct blitter *b, const struct surface *s, struct blit_look *l)
{
	bool turned = s->rotation == 90 || s->rotation == 270;
	int lw = turned ? s->height : s->width, lh = turned ? s->width : s->height;
	int cw = b->f->cell_w * b->scale, ch = b->f->cell_h * b->scale;
	*l = (struct blit_look){ .surf_w = lw, .surf_h = lh, .text_w = cw, .text_h = ch };
	l->map_w = b->map ? b->map->cell_w * b->scale : b->pend ? b->pend_w * b->scale : cw;
	l->map_h = b->map ? b->map->cell_h * b->scale : b->pend ? b->pend_h * b->scale : ch;
	blit_console_size(b, s, &l->cols, &l->rows);
	int mw = lw - l->cols * cw, mh = lh - l->rows * ch;
	mw = mw < 0 ? 0 : mw;
	mh = mh < 0 ? 0 : mh;
	l->left = b->centred ? mw / 2 : 0;
	l->top = b->centred ? mh / 2 : 0;
	l->right = mw - l->left;
	l->bottom = mh - l->top;
}

void blit_surface_rect(const struct surface *s, int ox, int oy, int w, int h, int r[4])
{
	switch (s->rotation) {
	case 90: r[0] = s->width - oy - h; r[1] = ox; r[2] = h; r[3] = w; break;
	case 180: r[0] = s->width - ox - w; r[1] = s->height - oy - h; r[2] = w; r[3] = h; break;
	case 270: r[0] = oy; r[1] = s->height - ox - w; r[2] = h; r[3] = w; break;
	default: r[0] = ox; r[1] = oy; r[2] = w; r[3] = h; break;
	}
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
	map_due(b, c);
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
			if (b->tb && (cell->flags & CON_MAP) && tile_slot(b, cell, s) >= 0) {
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
	map_due(b, c);
	build_bits(b, r);
	build_px(b, r, rgb565);
	if (b->half) {
		build_bits(b->half, r);
		build_px(b->half, r, rgb565);
	}
	if (b->tb) {
		build_bits(b->tb, r);
		build_px(b->tb, r, rgb565);
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
	bool cache_on = (damage || b->tb) && cache_ready(b, r, rgb565), cache = damage && cache_on;
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
					glyph_bits(b, r, g);
				struct fjob *j = &bd->fast[bd->nf];
				j->sx0 = sx0;
				j->bits = vb.bits + (size_t)g * gstride;
				j->fg = rgb565 ? to565(cell->fg) : cell->fg & 0xFFFFFF;
				j->bg = rgb565 ? to565(cell->bg) : cell->bg & 0xFFFFFF;
				if (++bd->nf == BLIT_JOBS)
					flush_band(b, s);
			} else {
				if (!vb.px_done[g])
					glyph_px(b, r, rgb565, g);
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
			int g, tg = b->tb && (cell->flags & CON_MAP) ? tile_slot(b, cell, s) : -1;
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
					glyph_bits(src, r, g);
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
					glyph_px(src, r, rgb565, g);
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
