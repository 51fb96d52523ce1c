/* blit_setup: a blitter made and set up (the font turned for each rotation, the glyph and cell caches, the map and tile sheets, the console's layout on a surface). See blit.h. */
#include "render/blit_impl.h"
#include "core/log.h"
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* How it works: render/blit_impl.h. Drawing the damaged cells: blit.c. */

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
 * on its first draw: blit_glyph_bits). Without memory for them every cell takes
 * the per-pixel path: slower, same pixels. */
void blit_build_bits(struct blitter *b, int r)
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
void blit_glyph_bits(const struct blitter *b, int r, int g)
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
 * its first draw: blit_glyph_px). Without memory for them those cells take the
 * per-pixel path: slower, same pixels. */
void blit_build_px(struct blitter *b, int r, bool rgb565)
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
void blit_glyph_px(const struct blitter *b, int r, bool rgb565, int g)
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
void blit_map_due(struct blitter *b, const struct console *c)
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

/* Lets every composed tile picture go (the band gathered so far drawn
 * first: its jobs may point at them; kept cells of them forgotten). */
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
int blit_tile_slot(struct blitter *b, const struct con_cell *cell, struct surface *s)
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
		return blit_tile_slot(b, cell, s);
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
bool blit_cache_ready(struct blitter *b, int r, bool rgb565)
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
