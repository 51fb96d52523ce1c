/* blit: turns console cells into pixels on a surface (formats, stride, integer scale, rotation, damage). */
#include "render/blit.h"
#include "core/log.h"
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * How it works. For each rotation the font's glyphs are precomputed
 * "oriented" (turned the way they appear on the surface) and scaled
 * horizontally, as one bitmask per unscaled oriented row (bit k of byte
 * k/8 = pixel k of the scaled row, LSB first). A glyph whose coverage is
 * only 0 or 255 (the usual case) is then drawn row by row as
 * bg ^ ((fg ^ bg) & mask), eight pixels at a time with vector types that
 * gcc and clang turn into SIMD on x86-64 (SSE2) and arm (NEON). Glyphs with
 * intermediate coverage, colour tiles, and cells clipped by the surface's
 * edge take a per-pixel path that reads the font through the same
 * orientation (base + u*du + v*dv into the glyph).
 *
 * The surface is written in scan order: cells that share surface rows (a
 * console row at 0/180°, a console column at 90/270°) form a "band"; the
 * damaged cells of a band are collected and then drawn one surface row at a
 * time across all of them. The surface is never read.
 */

#define BLIT_MAX_CELL 256        /* font cell side limit (pixels) */
#define BLIT_GCACHE 1024         /* code point -> glyph cache slots */
#define BLIT_JOBS 256            /* cells gathered per pass over a band */

enum { GK_MASK, GK_BLEND, GK_COLOUR };

typedef uint32_t v8u32 __attribute__((vector_size(32)));
typedef uint16_t v8u16 __attribute__((vector_size(16)));

/* One rotation's view of the font. */
struct orient {
	int gw, gh;    /* oriented unscaled glyph size */
	int bpr;       /* bytes per scaled bitmask row: ceil(gw * scale / 8) */
	uint8_t *bits; /* nglyphs × gh × bpr */
	int base, du, dv; /* oriented (u, v) -> font pixel base + u*du + v*dv */
};

/* A damaged cell of a band drawn with the mask path. */
struct fjob {
	const uint8_t *bits; /* the glyph's oriented bitmask rows */
	int sx0;          /* surface x of the cell's left edge */
	uint32_t fg, bg;  /* in the surface's format */
};

/* v in every lane (macros: vector arguments would change the ABI) */
#define SPLAT32(v) ((v8u32){ (v), (v), (v), (v), (v), (v), (v), (v) })
#define SPLAT16(v) ((v8u16){ (uint16_t)(v), (uint16_t)(v), (uint16_t)(v), (uint16_t)(v), \
			     (uint16_t)(v), (uint16_t)(v), (uint16_t)(v), (uint16_t)(v) })

/* A damaged cell drawn pixel by pixel (blended, colour or clipped). */
struct job {
	int sx0;      /* surface x of the cell's (unclipped) left edge */
	int u0, u1;   /* visible columns of the cell, 0 <= u0 < u1 <= band cell width */
	int glyph;
	uint32_t fg, bg; /* 0xRRGGBB */
};

/* What one pass over a band draws. */
struct band {
	const struct orient *o;
	int sy0;      /* surface y of the band's top row (may be < 0) */
	int bw, bh;   /* a cell's size on the surface */
	int nf, ns;
	struct fjob fast[BLIT_JOBS];
	struct job slow[BLIT_JOBS];
};

struct blitter {
	v8u32 lut32[256]; /* byte of mask bits -> 8 lanes of 0 / ~0 */
	v8u16 lut16[256];
	const struct font *f;
	int scale;
	uint8_t *kind; /* GK_* per glyph */
	struct orient o[4];
	void (*draw_band)(const struct blitter *b, const struct band *bd, struct surface *s);
	struct {
		uint32_t cp;
		int32_t glyph;
	} cache[BLIT_GCACHE];
	struct band band; /* scratch for blit_draw */
	uint8_t coldmg[4096]; /* at 90/270: which console columns have damage */
};

static void draw_band_base(const struct blitter *b, const struct band *bd, struct surface *s);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BLIT_HAVE_AVX2 1
static void draw_band_avx2(const struct blitter *b, const struct band *bd, struct surface *s);
#endif

static inline uint32_t to565(uint32_t rgb)
{
	return ((rgb >> 8) & 0xF800) | ((rgb >> 5) & 0x07E0) | ((rgb >> 3) & 0x001F);
}

static inline uint32_t blend(uint32_t f, uint32_t b, uint32_t a)
{
	if (a == 255)
		return f & 0xFFFFFF;
	if (a == 0)
		return b & 0xFFFFFF;
	uint32_t na = 255 - a;
	uint32_t r = (((f >> 16) & 255) * a + ((b >> 16) & 255) * na + 127) / 255;
	uint32_t g = (((f >> 8) & 255) * a + ((b >> 8) & 255) * na + 127) / 255;
	uint32_t bl = ((f & 255) * a + (b & 255) * na + 127) / 255;
	return r << 16 | g << 8 | bl;
}

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

static int build_orient(struct blitter *b, int r)
{
	const struct font *f = b->f;
	struct orient *o = &b->o[r];
	int cw = f->cell_w, ch = f->cell_h, s = b->scale;
	bool turned = r == 1 || r == 3;
	o->gw = turned ? ch : cw;
	o->gh = turned ? cw : ch;
	o->bpr = (o->gw * s + 7) / 8;
	switch (r) {
	case 0: o->base = 0; o->du = 1; o->dv = cw; break;
	case 1: o->base = (ch - 1) * cw; o->du = -cw; o->dv = 1; break;
	case 2: o->base = ch * cw - 1; o->du = -1; o->dv = -cw; break;
	default: o->base = cw - 1; o->du = cw; o->dv = -1; break;
	}
	size_t per = (size_t)o->gh * (size_t)o->bpr;
	if ((size_t)f->nglyphs > SIZE_MAX / per)
		return -ENOMEM;
	o->bits = calloc((size_t)f->nglyphs, per);
	if (!o->bits)
		return -ENOMEM;
	size_t gsize = (size_t)cw * (size_t)ch;
	for (int g = 0; g < f->nglyphs; g++) {
		if (b->kind[g] != GK_MASK)
			continue;
		const uint8_t *cov = f->coverage + (size_t)g * gsize;
		uint8_t *dst = o->bits + (size_t)g * per;
		for (int v = 0; v < o->gh; v++, dst += o->bpr)
			for (int u = 0; u < o->gw * s; u++)
				if (cov[o->base + (u / s) * o->du + v * o->dv])
					dst[u >> 3] |= (uint8_t)(1u << (u & 7));
	}
	return 0;
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
			b->lut16[m][k] = (m >> k & 1) ? 0xFFFF : 0;
		}
	b->draw_band = draw_band_base;
#ifdef BLIT_HAVE_AVX2
	if (__builtin_cpu_supports("avx2"))
		b->draw_band = draw_band_avx2;
#endif
	b->f = f;
	b->scale = scale;
	b->kind = malloc((size_t)f->nglyphs);
	if (!b->kind)
		goto fail_b;
	size_t gsize = (size_t)f->cell_w * (size_t)f->cell_h;
	for (int g = 0; g < f->nglyphs; g++) {
		uint8_t k = GK_MASK;
		if (f->colour) {
			k = GK_COLOUR;
		} else {
			const uint8_t *cov = f->coverage + (size_t)g * gsize;
			for (size_t i = 0; i < gsize; i++)
				if (cov[i] != 0 && cov[i] != 255) {
					k = GK_BLEND;
					break;
				}
		}
		b->kind[g] = k;
	}
	for (int r = 0; r < 4; r++)
		if (build_orient(b, r))
			goto fail_o;
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
fail_o:
	for (int r = 0; r < 4; r++)
		free(b->o[r].bits);
	free(b->kind);
fail_b:
	free(b);
fail:
	log_error("blit: out of memory for font %s at scale %d", f->name, scale);
	return rc;
}

void blit_destroy(struct blitter *b)
{
	if (!b)
		return;
	for (int r = 0; r < 4; r++)
		free(b->o[r].bits);
	free(b->kind);
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

/* The visible part [u0, u1) of one scaled row of a cell, any glyph kind,
 * pixel by pixel. gv: unscaled oriented row. dst points at pixel u0. */
static void slow_row(const struct blitter *b, const struct orient *o, const struct job *j, int gv,
		     uint8_t *dst, int bpp)
{
	const struct font *f = b->f;
	size_t goff = (size_t)j->glyph * (size_t)f->cell_w * (size_t)f->cell_h;
	int s = b->scale;
	int u = j->u0;
	while (u < j->u1) {
		int gu = u / s;
		int idx = o->base + gu * o->du + gv * o->dv;
		uint32_t rgb;
		if (f->colour) {
			uint32_t px = f->colour[goff + (size_t)idx];
			rgb = blend(px, j->bg, px >> 24);
		} else {
			rgb = blend(j->fg, j->bg, f->coverage[goff + (size_t)idx]);
		}
		int end = (gu + 1) * s;
		if (end > j->u1)
			end = j->u1;
		if (bpp == 4) {
			for (; u < end; u++, dst += 4)
				memcpy(dst, &rgb, 4);
		} else {
			uint16_t p = (uint16_t)to565(rgb);
			for (; u < end; u++, dst += 2)
				memcpy(dst, &p, 2);
		}
	}
}

/* Draws a band. Mask cells go one cell (or two neighbours) at a time, all
 * its rows, with its colours held in registers; cells needing the per-pixel
 * path go a surface row at a time across the band. Inlined into a baseline
 * and (on x86-64) an AVX2 variant; the vector types become SSE2, AVX2 or
 * NEON instructions accordingly. */
static inline __attribute__((always_inline)) void draw_band_body(const struct blitter *b, const struct band *bd,
								 struct surface *s)
{
	const struct orient *o = bd->o;
	int bpp = surf_bpp(s->format);
	int scale = b->scale, bw = bd->bw, nf = bd->nf;
	int y0 = bd->sy0 < 0 ? 0 : bd->sy0;
	int y1 = bd->sy0 + bd->bh > s->height ? s->height : bd->sy0 + bd->bh;
	int off = y0 - bd->sy0, nrows = y1 - y0;
	int gv0 = off / scale, rep0 = off % scale;
	int groups = bw / 8;
	size_t stride = (size_t)s->stride, bpr = (size_t)o->bpr;
	uint8_t *top = (uint8_t *)s->pixels + (size_t)y0 * stride;
	for (int i = 0; i < nf; i++) {
		const struct fjob *j = &bd->fast[i];
		uint8_t *dst = top + (size_t)j->sx0 * (size_t)bpp;
		bool pair = bw == 8 && scale == 1 && i + 1 < nf && j[1].sx0 == j->sx0 + 8;
		if (bpp == 4 && bw == 8 && scale == 1) {
			/* the common case: one mask byte per row */
			const uint8_t *bits = j->bits + off;
			v8u32 vb = SPLAT32(j->bg), vx = SPLAT32(j->fg ^ j->bg);
			if (pair) { /* 64 contiguous bytes a row */
				const uint8_t *bits2 = j[1].bits + off;
				v8u32 vb2 = SPLAT32(j[1].bg), vx2 = SPLAT32(j[1].fg ^ j[1].bg);
				for (int y = 0; y < nrows; y++, dst += stride) {
					v8u32 p = vb ^ (vx & b->lut32[bits[y]]);
					v8u32 p2 = vb2 ^ (vx2 & b->lut32[bits2[y]]);
					memcpy(dst, &p, 32);
					memcpy(dst + 32, &p2, 32);
				}
				i++;
			} else {
				for (int y = 0; y < nrows; y++, dst += stride) {
					v8u32 p = vb ^ (vx & b->lut32[bits[y]]);
					memcpy(dst, &p, 32);
				}
			}
		} else if (bpp == 2 && bw == 8 && scale == 1) {
			const uint8_t *bits = j->bits + off;
			v8u16 vb = SPLAT16(j->bg), vx = SPLAT16(j->fg ^ j->bg);
			if (pair) { /* 32 contiguous bytes a row */
				const uint8_t *bits2 = j[1].bits + off;
				v8u16 vb2 = SPLAT16(j[1].bg), vx2 = SPLAT16(j[1].fg ^ j[1].bg);
				for (int y = 0; y < nrows; y++, dst += stride) {
					v8u16 p = vb ^ (vx & b->lut16[bits[y]]);
					v8u16 p2 = vb2 ^ (vx2 & b->lut16[bits2[y]]);
					memcpy(dst, &p, 16);
					memcpy(dst + 16, &p2, 16);
				}
				i++;
			} else {
				for (int y = 0; y < nrows; y++, dst += stride) {
					v8u16 p = vb ^ (vx & b->lut16[bits[y]]);
					memcpy(dst, &p, 16);
				}
			}
		} else if (bpp == 4) {
			v8u32 vb = SPLAT32(j->bg), vx = SPLAT32(j->fg ^ j->bg);
			const uint8_t *bits = j->bits + (size_t)gv0 * bpr;
			for (int y = 0, rep = rep0; y < nrows; y++, dst += stride) {
				for (int k = 0; k < groups; k++) {
					v8u32 p = vb ^ (vx & b->lut32[bits[k]]);
					memcpy(dst + 32 * k, &p, 32);
				}
				for (int k = groups * 8; k < bw; k++) {
					uint32_t p = (bits[k >> 3] >> (k & 7) & 1) ? j->fg : j->bg;
					memcpy(dst + 4 * k, &p, 4);
				}
				if (++rep == scale) {
					rep = 0;
					bits += bpr;
				}
			}
		} else {
			v8u16 vb = SPLAT16(j->bg), vx = SPLAT16(j->fg ^ j->bg);
			const uint8_t *bits = j->bits + (size_t)gv0 * bpr;
			for (int y = 0, rep = rep0; y < nrows; y++, dst += stride) {
				for (int k = 0; k < groups; k++) {
					v8u16 p = vb ^ (vx & b->lut16[bits[k]]);
					memcpy(dst + 16 * k, &p, 16);
				}
				for (int k = groups * 8; k < bw; k++) {
					uint16_t p = (uint16_t)((bits[k >> 3] >> (k & 7) & 1) ? j->fg : j->bg);
					memcpy(dst + 2 * k, &p, 2);
				}
				if (++rep == scale) {
					rep = 0;
					bits += bpr;
				}
			}
		}
	}
	if (!bd->ns)
		return;
	int gv = gv0, rep = rep0;
	for (int y = y0; y < y1; y++) {
		uint8_t *row = (uint8_t *)s->pixels + (size_t)y * stride;
		for (int i = 0; i < bd->ns; i++) {
			const struct job *j = &bd->slow[i];
			slow_row(b, o, j, gv, row + (size_t)(j->sx0 + j->u0) * (size_t)bpp, bpp);
		}
		if (++rep == scale) {
			rep = 0;
			gv++;
		}
	}
}

static void draw_band_base(const struct blitter *b, const struct band *bd, struct surface *s)
{
	draw_band_body(b, bd, s);
}

#ifdef BLIT_HAVE_AVX2
__attribute__((target("avx2"))) static void draw_band_avx2(const struct blitter *b, const struct band *bd,
							      struct surface *s)
{
	draw_band_body(b, bd, s);
}
#endif

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
	if (bd->nf || bd->ns)
		b->draw_band(b, bd, s);
	bd->nf = bd->ns = 0;
}

void blit_draw(struct blitter *b, const struct console *c, struct surface *s, const uint8_t *damage)
{
	int r = rot_index(s->rotation);
	if (r < 0 || (s->format != SURF_XRGB8888 && s->format != SURF_RGB565) || s->width <= 0 || s->height <= 0)
		return;
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
	bool rgb565 = s->format == SURF_RGB565;
	size_t gstride = (size_t)o->gh * (size_t)o->bpr;
	struct band *bd = &b->band;
	bd->o = o;
	bd->bw = bw;
	bd->bh = bh;
	bd->nf = bd->ns = 0;
	if (damage && turned) {
		/* bands are console columns: find the damaged ones a row at a time */
		int w = c->w < (int)sizeof b->coldmg ? c->w : (int)sizeof b->coldmg;
		memset(b->coldmg, 0, (size_t)w);
		for (int y = 0; y < ncells; y++) {
			const uint8_t *row = damage + (size_t)y * (size_t)c->w;
			if (any_set(row, w))
				for (int x = 0; x < w; x++)
					b->coldmg[x] |= row[x];
		}
	}
	for (int a = 0; a < nbands; a++) {
		if (damage && !turned && !any_set(damage + (size_t)a * (size_t)c->w, ncells))
			continue;
		if (damage && turned && !b->coldmg[a])
			continue;
		bd->sy0 = flip_y ? s->height - (a + 1) * bh : a * bh;
		/* visit the band's cells left to right on the surface */
		int k0 = flip_x ? ncells - 1 : 0;
		ptrdiff_t ci = turned ? (ptrdiff_t)k0 * c->w + a : (ptrdiff_t)a * c->w + k0;
		ptrdiff_t dci = (turned ? c->w : 1) * (flip_x ? -1 : 1);
		int sx0 = flip_x ? s->width - ncells * bw : 0;
		for (int t = 0; t < ncells; t++, ci += dci, sx0 += bw) {
			if (damage && !damage[ci])
				continue;
			const struct con_cell *cell = &c->cells[ci];
			int g = lookup(b, cell->ch);
			if (b->kind[g] == GK_MASK && sx0 >= 0 && sx0 + bw <= s->width) {
				struct fjob *j = &bd->fast[bd->nf++];
				j->sx0 = sx0;
				j->bits = o->bits + (size_t)g * gstride;
				j->fg = rgb565 ? to565(cell->fg) : cell->fg & 0xFFFFFF;
				j->bg = rgb565 ? to565(cell->bg) : cell->bg & 0xFFFFFF;
				if (bd->nf == BLIT_JOBS)
					flush_band(b, s);
			} else {
				struct job *j = &bd->slow[bd->ns++];
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
	if (s->width <= 0 || s->height <= 0)
		return;
	if (s->format == SURF_RGB565) {
		uint16_t p = (uint16_t)to565(rgb);
		for (int y = 0; y < s->height; y++) {
			uint8_t *row = (uint8_t *)s->pixels + (size_t)y * (size_t)s->stride;
			for (int x = 0; x < s->width; x++)
				memcpy(row + 2 * x, &p, 2);
		}
	} else if (s->format == SURF_XRGB8888) {
		uint32_t p = rgb & 0xFFFFFF;
		for (int y = 0; y < s->height; y++) {
			uint8_t *row = (uint8_t *)s->pixels + (size_t)y * (size_t)s->stride;
			for (int x = 0; x < s->width; x++)
				memcpy(row + 4 * x, &p, 4);
		}
	}
}
