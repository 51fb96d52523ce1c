/* blit: turns console cells into pixels on a surface (formats, stride, integer scale, rotation, damage). */
#include "render/blit.h"
#include "core/log.h"
#include <errno.h>
#include <limits.h>
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
 * only 0 or 255 (the usual case) is drawn as bg ^ ((fg ^ bg) & mask), the
 * mask for eight pixels coming from a table indexed by a byte of the
 * bitmask, with vector types that gcc and clang turn into SIMD (SSE2 or
 * AVX2 on x86-64, NEON on arm). Glyphs with intermediate coverage and
 * colour tiles are drawn by the blend path from rows precomputed the same
 * way as 16-bit lanes (struct pxrows), one layout per surface format;
 * cells clipped by the surface's edge take a per-pixel path (vectorised
 * too) that reads the font through the same orientation (base + u*du +
 * v*dv into the glyph).
 *
 * Cells that share surface rows (a console row at 0/180°, a console column
 * at 90/270°) form a "band": its damaged cells are collected left to right
 * on the surface, then each is drawn top to bottom, neighbouring 8-pixel
 * cells in pairs so every row write covers 64 contiguous bytes. The surface
 * is never read.
 */

#define BLIT_MAX_CELL 256        /* font cell side limit (pixels) */
#define BLIT_GCACHE 1024         /* code point -> glyph cache slots */
#define BLIT_JOBS 256            /* cells gathered per pass over a band */

enum { GK_MASK, GK_BLEND, GK_COLOUR };

typedef uint32_t v8u32 __attribute__((vector_size(32)));
typedef uint16_t v8u16 __attribute__((vector_size(16)));
typedef uint8_t v8u8 __attribute__((vector_size(8)));
typedef uint32_t v4u32 __attribute__((vector_size(16)));
typedef uint8_t v4u8 __attribute__((vector_size(4)));

/* One rotation's view of the font. */
struct orient {
	int gw, gh;    /* oriented unscaled glyph size */
	int bpr;       /* bytes per scaled bitmask row: ceil(gw * scale / 8) */
	uint8_t *bits; /* nglyphs × gh × bpr; NULL until built (or without memory) */
	bool tried;    /* bits were built (or could not be) */
	int base, du, dv; /* oriented (u, v) -> font pixel base + u*du + v*dv */
	/* Blended and colour glyphs, oriented and scaled horizontally, for
	 * XRGB8888 (blend[0]) and RGB565 (blend[1]); each built on the first
	 * draw in its format. */
	struct pxrows {
		/* per glyph gh rows of rowb bytes, at off[glyph] (SIZE_MAX:
		 * none); NULL: the per-pixel path. bwp: the scaled width
		 * rounded up to 8. XRGB8888: a row holds bwp pixels of four
		 * 16-bit lanes a,a,a,a (the coverage, or the tile's alpha),
		 * then for colour tilesets bwp pixels of the tile's B,G,R,0
		 * in 16-bit lanes. RGB565: planes of gh rows of bwp 16-bit
		 * lanes (rowb = 2 bwp): a, then for colour tilesets B, G and
		 * R; the buffer has 32 bytes to spare, so a 16-lane read
		 * from any row stays inside it. */
		uint8_t *px;
		size_t *off;
		size_t rowb;
		int bwp;
		bool tried;
	} blend[2];
};

/* A damaged cell of a band drawn with the mask path. */
struct fjob {
	const uint8_t *bits; /* the glyph's oriented bitmask rows */
	int sx0;          /* surface x of the cell's left edge */
	uint32_t fg, bg;  /* in the surface's format */
};

/* A damaged cell of a band drawn with the blend path. */
struct bjob {
	const uint8_t *rows; /* the glyph's oriented rows (struct pxrows) */
	int sx0;
	uint32_t fg, bg;     /* 0xRRGGBB */
};

typedef uint16_t v16u16 __attribute__((vector_size(32)));
typedef uint8_t v32u8 __attribute__((vector_size(32)));

/* v in every lane (macros: vector arguments would change the ABI) */
#define SPLAT32(v) ((v8u32){ (v), (v), (v), (v), (v), (v), (v), (v) })
#define SPLAT4(v) ((v4u32){ (v), (v), (v), (v) })
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
	int nf, ns, nb;
	struct fjob fast[BLIT_JOBS];
	struct job slow[BLIT_JOBS];
	struct bjob blend[BLIT_JOBS];
};

struct blitter {
	v8u32 lut32[256]; /* byte of mask bits -> 8 lanes of 0 / ~0 */
	v4u32 lut4[16];   /* nibble -> 4 lanes */
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
	uint8_t coldmg[4096]; /* at 90/270: which console columns have damage
			       * (consoles are at most 4096 wide) */
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

/* The mask bits of rotation r, built on first use. Without memory for
 * them every cell takes the per-pixel path: slower, same pixels. */
static void build_bits(struct blitter *b, int r)
{
	struct orient *o = &b->o[r];
	if (o->tried)
		return;
	o->tried = true;
	const struct font *f = b->f;
	int s = b->scale;
	size_t per = (size_t)o->gh * (size_t)o->bpr;
	if ((size_t)f->nglyphs <= SIZE_MAX / per)
		o->bits = calloc((size_t)f->nglyphs, per);
	if (!o->bits) {
		log_error("blit: out of memory for the glyph masks of %s; drawing pixel by pixel", f->name);
		return;
	}
	size_t gsize = (size_t)f->cell_w * (size_t)f->cell_h;
	for (int g = 0; g < f->nglyphs; g++) {
		if (b->kind[g] != GK_MASK)
			continue;
		const uint8_t *cov = f->coverage + (size_t)g * gsize;
		uint8_t *dst = o->bits + (size_t)g * per;
		for (int v = 0; v < o->gh; v++, dst += o->bpr)
			for (int gu = 0; gu < o->gw; gu++)
				if (cov[o->base + gu * o->du + v * o->dv])
					for (int u = gu * s; u < (gu + 1) * s; u++)
						dst[u >> 3] |= (uint8_t)(1u << (u & 7));
	}
}

/* The blend path's rows of rotation r for XRGB8888 (rgb565 false) or
 * RGB565, built on the first draw in that format. Without memory for them
 * those cells take the per-pixel path: slower, same pixels. */
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
	x->rowb = (size_t)bwp * (rgb565 ? 2 : colour ? 16 : 8);
	size_t per = (size_t)o->gh * x->rowb * (rgb565 && colour ? 4 : 1), n = 0;
	for (int g = 0; g < f->nglyphs; g++)
		n += b->kind[g] != GK_MASK;
	if (!n)
		return;
	x->off = malloc((size_t)f->nglyphs * sizeof *x->off);
	if (x->off && n <= (((size_t)64) << 20) / per)
		x->px = calloc(1, n * per + 32);
	if (!x->px || !x->off) {
		free(x->off);
		x->off = NULL;
		log_error("blit: out of memory for the blended glyphs of %s; drawing them pixel by pixel", f->name);
		return;
	}
	/* where pixel u of row v's lanes are, from the glyph's start: a at
	 * v*rowl + lane*u (lane copies), colour B at cofs more, G and R each
	 * a further plane on: XRGB8888 rowl = rowb/2, lane 4, cofs 4 bwp,
	 * plane 1; RGB565 rowl = bwp, lane 1, cofs = plane = gh bwp */
	size_t rowl = x->rowb / 2, lane = rgb565 ? 1 : 4;
	size_t plane = rgb565 ? (size_t)o->gh * (size_t)bwp : 1, cofs = rgb565 ? plane : 4 * (size_t)bwp;
	size_t gsize = (size_t)f->cell_w * (size_t)f->cell_h, at = 0;
	for (int g = 0; g < f->nglyphs; g++) {
		if (b->kind[g] == GK_MASK) {
			x->off[g] = SIZE_MAX;
			continue;
		}
		x->off[g] = at;
		uint16_t *row = (uint16_t *)(void *)(x->px + at);
		at += per;
		for (int v = 0; v < o->gh; v++, row += rowl)
			for (int u = 0; u < bw; u++) {
				size_t i = (size_t)g * gsize + (size_t)(o->base + (u / s) * o->du + v * o->dv);
				uint16_t *p = row + lane * (size_t)u, *c = p + cofs;
				uint16_t a = colour ? (uint16_t)(f->colour[i] >> 24) : f->coverage[i];
				for (size_t k = 0; k < lane; k++)
					p[k] = a;
				if (colour) {
					uint32_t t = f->colour[i];
					c[0] = t & 255;
					c[plane] = (t >> 8) & 255;
					c[2 * plane] = (t >> 16) & 255;
				}
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
	b->draw_band = draw_band_base;
#ifdef BLIT_HAVE_AVX2
	/* PIROGUE_BLIT_BASELINE=1 keeps the baseline code (tests, comparisons) */
	const char *base = getenv("PIROGUE_BLIT_BASELINE");
	if (__builtin_cpu_supports("avx2") && !(base && *base == '1'))
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
	free(b);
fail:
	log_error("blit: out of memory for font %s at scale %d", f->name, scale);
	return rc;
}

void blit_destroy(struct blitter *b)
{
	if (!b)
		return;
	for (int r = 0; r < 4; r++) {
		free(b->o[r].bits);
		for (int k = 0; k < 2; k++) {
			free(b->o[r].blend[k].px);
			free(b->o[r].blend[k].off);
		}
	}
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

int blit_fit_scale(const struct font *f, const struct surface *s, int cols, int rows)
{
	bool turned = s->rotation == 90 || s->rotation == 270;
	int lw = turned ? s->height : s->width, lh = turned ? s->width : s->height;
	for (int scale = 8; scale > 1; scale--)
		if (lw / (f->cell_w * scale) >= cols && lh / (f->cell_h * scale) >= rows)
			return scale;
	return 1;
}

/* The choice of blit_choose over n candidates whose cell sizes cell(ctx, i)
 * gives; apart(ctx, i) says whether candidate i's lines keep a gap (1 or 0,
 * or a negative errno, which is returned) and is asked only when no
 * candidate shows cols × rows: in order of the cells shown (most first,
 * then the earlier), until one says 1. */
static int choose(void *ctx, int n, void (*cell)(void *ctx, int i, int *w, int *h), int (*apart)(void *ctx, int i),
		  const struct surface *s, int cols, int rows, int min_cols, int min_rows, int fixed_scale, int *scale)
{
	bool turned = s->rotation == 90 || s->rotation == 270;
	long lw = turned ? s->height : s->width, lh = turned ? s->width : s->height;
	int best = -1, best_scale = 1, most = -1;
	long best_area = -1, most_cells = -1;
	int lo = fixed_scale >= 1 && fixed_scale <= 8 ? fixed_scale : 1;
	int hi = fixed_scale >= 1 && fixed_scale <= 8 ? fixed_scale : 8;
	for (int i = 0; i < n; i++) {
		int w, h;
		cell(ctx, i, &w, &h);
		for (int sc = hi; sc >= lo; sc--) {
			long cw = (long)w * sc, ch = (long)h * sc;
			if (lw / cw >= cols && lh / ch >= rows) {
				long area = cols * cw * rows * ch;
				if (area > best_area || (area == best_area && sc < best_scale)) {
					best = i;
					best_scale = sc;
					best_area = area;
				}
				break; /* the largest scale that fits */
			}
		}
		long fc = lw / ((long)w * lo), fr = lh / ((long)h * lo);
		if (fc * fr > most_cells) {
			most = i;
			most_cells = fc * fr;
		}
	}
	*scale = lo;
	if (best >= 0) {
		*scale = best_scale;
		return best;
	}
	/* a small panel: the fonts that show min_cols × min_rows, by the cells
	 * they show; the first whose lines keep a gap */
	long prev_cells = LONG_MAX;
	int prev = -1;
	for (;;) {
		int next = -1;
		long next_cells = -1;
		for (int i = 0; i < n; i++) {
			int w, h;
			cell(ctx, i, &w, &h);
			long fc = lw / ((long)w * lo), fr = lh / ((long)h * lo), cells = fc * fr;
			bool after = cells < prev_cells || (cells == prev_cells && i > prev);
			if (fc >= min_cols && fr >= min_rows && after && cells > next_cells) {
				next = i;
				next_cells = cells;
			}
		}
		if (next < 0)
			return most < 0 ? 0 : most;
		int a = apart(ctx, next);
		if (a != 0)
			return a > 0 ? next : a;
		prev = next;
		prev_cells = next_cells;
	}
}

static void font_cell(void *ctx, int i, int *w, int *h)
{
	const struct font *f = ((const struct font *const *)ctx)[i];
	*w = f->cell_w;
	*h = f->cell_h;
}

static int font_apart(void *ctx, int i)
{
	return font_lines_apart(((const struct font *const *)ctx)[i]);
}

int blit_choose(const struct font *const *fonts, int n, const struct surface *s, int cols, int rows, int min_cols,
		int min_rows, int fixed_scale, int *scale)
{
	return choose((void *)(uintptr_t)fonts, n, font_cell, font_apart, s, cols, rows, min_cols, min_rows,
		      fixed_scale, scale);
}

struct cands_ctx {
	struct font_cands *c;
	char *err;
	size_t errlen;
};

static void cand_cell(void *ctx, int i, int *w, int *h)
{
	const struct font_cand *k = &((struct cands_ctx *)ctx)->c->c[i];
	*w = k->cell_w;
	*h = k->cell_h;
}

static int cand_apart(void *ctx, int i)
{
	struct cands_ctx *x = ctx;
	const struct font *f;
	int rc = font_cands_get(x->c, i, &f, x->err, x->errlen);
	return rc ? rc : font_lines_apart(f);
}

int blit_choose_cands(struct font_cands *c, const struct surface *s, int cols, int rows, int min_cols, int min_rows,
		      int fixed_scale, const struct font **font, int *scale, char *err, size_t errlen)
{
	struct cands_ctx x = { c, err, errlen };
	int i = choose(&x, c->n, cand_cell, cand_apart, s, cols, rows, min_cols, min_rows, fixed_scale, scale);
	return i < 0 ? i : font_cands_get(c, i, font, err, errlen);
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

/* memcpy for the short, variable copies of a cell row, inline (n is a
 * multiple of 2). */
static inline __attribute__((always_inline)) void copy_bytes(uint8_t *d, const uint8_t *s, size_t n)
{
	size_t k = 0;
	for (; k + 32 <= n; k += 32)
		memcpy(d + k, s + k, 32);
	for (; k + 4 <= n; k += 4)
		memcpy(d + k, s + k, 4);
	if (k < n)
		memcpy(d + k, s + k, 2);
}

/* One cell through the per-pixel path (blended coverage, colour tiles,
 * cells clipped by the surface's edge): each glyph row is computed once,
 * widened by the scale, into a row buffer, then copied to its visible
 * surface rows and columns. top: the surface row y0 of the band. */
static inline __attribute__((always_inline)) void slow_cell(const struct blitter *b, const struct orient *o,
							    const struct job *j, uint8_t *top, size_t stride,
							    int nrows, int gv0, int rep0, int bpp, bool wide)
{
	uint8_t row[BLIT_MAX_CELL * 8 * 4];
	const struct font *f = b->f;
	size_t goff = (size_t)j->glyph * (size_t)f->cell_w * (size_t)f->cell_h;
	const uint32_t *col = f->colour ? f->colour + goff : NULL;
	const uint8_t *cov = f->coverage + goff;
	int s = b->scale, gw = o->gw;
	uint8_t *dst = top + (size_t)(j->sx0 + j->u0) * (size_t)bpp;
	const uint8_t *src = row + (size_t)j->u0 * (size_t)bpp;
	size_t n = (size_t)(j->u1 - j->u0) * (size_t)bpp;
	int gv = gv0, rep = rep0;
	for (int y = 0; y < nrows; y++, dst += stride) {
		if (y == 0 || rep == 0) {
			/* the glyph row as 0xRRGGBB, eight pixels at a time (the
			 * blend formula of blit.h; x / 255 as (x + 1 + (x >> 8)) >> 8,
			 * exact below 65535), then widened and converted */
			uint32_t rgb[BLIT_MAX_CELL + 8];
			int idx = o->base + gv * o->dv, du = o->du;
#define TAKE(arr, k) ((k) < n8 ? (uint32_t)(arr)[e + (k) * du] : 0u)
#define GATHER8(arr) ((v8u32){ TAKE(arr, 0), TAKE(arr, 1), TAKE(arr, 2), TAKE(arr, 3), \
			       TAKE(arr, 4), TAKE(arr, 5), TAKE(arr, 6), TAKE(arr, 7) })
#define GATHER4(arr) ((v4u32){ TAKE(arr, 0), TAKE(arr, 1), TAKE(arr, 2), TAKE(arr, 3) })
#define BLEND(VT, out, fv, a, bgv, m8)                                                   \
	do {                                                                             \
		VT na_ = (m8) - (a);                                                     \
		VT r_ = (((fv) >> 16) & (m8)) * (a) + (((bgv) >> 16) & (m8)) * na_ + 127; \
		VT g_ = (((fv) >> 8) & (m8)) * (a) + (((bgv) >> 8) & (m8)) * na_ + 127;   \
		VT b_ = ((fv) & (m8)) * (a) + ((bgv) & (m8)) * na_ + 127;                 \
		r_ = (r_ + 1 + (r_ >> 8)) >> 8;                                          \
		g_ = (g_ + 1 + (g_ >> 8)) >> 8;                                          \
		b_ = (b_ + 1 + (b_ >> 8)) >> 8;                                          \
		out = r_ << 16 | g_ << 8 | b_;                                           \
	} while (0)
			/* lanes built in registers from the font (not through a
			 * buffer: that would stall store forwarding) */
			if (wide) {
				const v8u32 bgv = SPLAT32(j->bg), fgv = SPLAT32(j->fg), m8 = SPLAT32(255u);
				for (int gu = 0; gu < gw; gu += 8) {
					int e = idx + gu * du, n8 = gw - gu;
					v8u32 fv, a, out;
					if (col) {
						if (du == 1 && n8 >= 8)
							memcpy(&fv, col + e, 32);
						else
							fv = GATHER8(col);
						a = fv >> 24;
					} else {
						fv = fgv;
						if (du == 1 && n8 >= 8) {
							v8u8 c8;
							memcpy(&c8, cov + e, 8);
							a = __builtin_convertvector(c8, v8u32);
						} else {
							a = GATHER8(cov);
						}
					}
					BLEND(v8u32, out, fv, a, bgv, m8);
					memcpy(rgb + gu, &out, 32);
				}
			} else {
				const v4u32 bgv = SPLAT4(j->bg), fgv = SPLAT4(j->fg), m8 = SPLAT4(255u);
				for (int gu = 0; gu < gw; gu += 4) {
					int e = idx + gu * du, n8 = gw - gu;
					v4u32 fv, a, out;
					if (col) {
						if (du == 1 && n8 >= 4)
							memcpy(&fv, col + e, 16);
						else
							fv = GATHER4(col);
						a = fv >> 24;
					} else {
						fv = fgv;
						if (du == 1 && n8 >= 4) {
							v4u8 c4;
							memcpy(&c4, cov + e, 4);
							a = __builtin_convertvector(c4, v4u32);
						} else {
							a = GATHER4(cov);
						}
					}
					BLEND(v4u32, out, fv, a, bgv, m8);
					memcpy(rgb + gu, &out, 16);
				}
			}
#undef BLEND
#undef GATHER4
#undef GATHER8
#undef TAKE
			if (bpp == 4 && s == 1) {
				copy_bytes(row, (const uint8_t *)rgb, (size_t)gw * 4);
			} else if (bpp == 4) {
				uint8_t *p = row;
				for (int gu = 0; gu < gw; gu++)
					for (int k = 0; k < s; k++, p += 4)
						memcpy(p, &rgb[gu], 4);
			} else {
				uint8_t *p = row;
				for (int gu = 0; gu < gw; gu++) {
					uint16_t v = (uint16_t)to565(rgb[gu]);
					for (int k = 0; k < s; k++, p += 2)
						memcpy(p, &v, 2);
				}
			}
		}
		copy_bytes(dst, src, n);
		if (++rep == s) {
			rep = 0;
			gv++;
		}
	}
}

/* One cell through the blend path (XRGB8888, not clipped): eight pixels
 * at a time in 16-bit lanes B,G,R,X. The formula of blit.h,
 * (f*a + b*(255-a) + 127) / 255, is computed as (x + (x >> 8)) >> 8 with
 * x = b*255 + 128 + (f-b)*a modulo 2^16 (exact for every pixel: the true x
 * is at most 65153). Coverage fonts: f is the cell's fg; colour tilesets:
 * the tile's pixel. */
static inline __attribute__((always_inline)) void blend_cell(const struct orient *o, const struct bjob *j,
							     uint8_t *top, size_t stride, int nrows, int gv0,
							     int rep0, int scale, int bw, bool colour)
{
	uint16_t bB = j->bg & 255, bG = (j->bg >> 8) & 255, bR = (j->bg >> 16) & 255;
	uint16_t fB = j->fg & 255, fG = (j->fg >> 8) & 255, fR = (j->fg >> 16) & 255;
#define LANES4(x, y, z, w) ((v16u16){ x, y, z, w, x, y, z, w, x, y, z, w, x, y, z, w })
	const v16u16 C = LANES4((uint16_t)(bB * 255 + 128), (uint16_t)(bG * 255 + 128), (uint16_t)(bR * 255 + 128),
				128);
	const v16u16 D = LANES4((uint16_t)(fB - bB), (uint16_t)(fG - bG), (uint16_t)(fR - bR), 0);
	const v16u16 BK = LANES4(bB, bG, bR, 0);
#undef LANES4
	int groups = bw / 8, tail = bw % 8, bwp = o->blend[0].bwp;
	uint8_t *dst = top + (size_t)j->sx0 * 4;
	const uint16_t *row = (const uint16_t *)(const void *)(j->rows + (size_t)gv0 * o->blend[0].rowb);
	size_t rowl = o->blend[0].rowb / 2;
#define PIX4(out, k)                                                          \
	do {                                                                  \
		v16u16 a_, v_;                                                \
		memcpy(&a_, row + 16 * (k), 32);                              \
		if (colour) {                                                 \
			v16u16 c_;                                            \
			memcpy(&c_, row + 4 * (size_t)bwp + 16 * (k), 32);    \
			v_ = C + (c_ - BK) * a_;                              \
		} else {                                                      \
			v_ = C + D * a_;                                      \
		}                                                             \
		out = (v_ + (v_ >> 8)) >> 8;                                  \
	} while (0)
/* pixels 8k..8k+7 as 32 bytes (the low byte of each lane) */
#define PIX8(out, k)                                                                                  \
	do {                                                                                          \
		v16u16 lo_, hi_;                                                                      \
		PIX4(lo_, 2 * (k));                                                                   \
		PIX4(hi_, 2 * (k) + 1);                                                               \
		out = __builtin_shufflevector((v32u8)lo_, (v32u8)hi_, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, \
					      22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, \
					      54, 56, 58, 60, 62);                                    \
	} while (0)
	for (int y = 0, rep = rep0; y < nrows; y++, dst += stride) {
		v32u8 out;
		int k = 0;
		for (; k < groups; k++) {
			PIX8(out, k);
			memcpy(dst + 32 * k, &out, 32);
		}
		if (tail) {
			PIX8(out, k);
			memcpy(dst + 32 * k, &out, (size_t)tail * 4);
		}
		if (++rep == scale) {
			rep = 0;
			row += rowl;
		}
	}
#undef PIX8
#undef PIX4
}

/* The blend of RGB565 cells: per channel x = b*255 + 128 + d*a with d =
 * f - b (coverage) or tile - b (colour; the tile's channels in tb, tg, tr)
 * and y = x + (x >> 8), whose high byte is blend_cell's 8-bit result
 * (y < 65536); then the top 5/6/5 bits of those: (y & 0xF800) for red,
 * (y & 0xFC00) >> 5 for green, y >> 11 for blue. k holds the constants in
 * vectors of out's type: c* = b*255 + 128, d* = f - b, b* = b, m5 =
 * 0xF800, m6 = 0xFC00. */
#define BLEND565(out, k, a, tb, tg, tr, colour)                                                 \
	do {                                                                                    \
		__typeof__(out) b_, g_, r_;                                                     \
		if (colour) {                                                                   \
			b_ = (k).cB + ((tb) - (k).bB) * (a);                                    \
			g_ = (k).cG + ((tg) - (k).bG) * (a);                                    \
			r_ = (k).cR + ((tr) - (k).bR) * (a);                                    \
		} else {                                                                        \
			b_ = (k).cB + (k).dB * (a);                                             \
			g_ = (k).cG + (k).dG * (a);                                             \
			r_ = (k).cR + (k).dR * (a);                                             \
		}                                                                               \
		b_ += b_ >> 8;                                                                  \
		g_ += g_ >> 8;                                                                  \
		r_ += r_ >> 8;                                                                  \
		out = (r_ & (k).m5) | (g_ & (k).m6) >> 5 | b_ >> 11;                            \
	} while (0)

struct k565_8 {
	v8u16 cB, cG, cR, dB, dG, dR, bB, bG, bR, m5, m6;
};
struct k565_16 {
	v16u16 cB, cG, cR, dB, dG, dR, bB, bG, bR, m5, m6;
};

/* The constants of BLEND565 for a cell's colours, in 8 lanes. */
static inline __attribute__((always_inline)) struct k565_8 k565(const struct bjob *j)
{
	uint16_t bB = j->bg & 255, bG = (j->bg >> 8) & 255, bR = (j->bg >> 16) & 255;
	uint16_t fB = j->fg & 255, fG = (j->fg >> 8) & 255, fR = (j->fg >> 16) & 255;
	return (struct k565_8){ SPLAT16(bB * 255 + 128), SPLAT16(bG * 255 + 128), SPLAT16(bR * 255 + 128),
				SPLAT16(fB - bB),	 SPLAT16(fG - bG),	 SPLAT16(fR - bR),
				SPLAT16(bB),		 SPLAT16(bG),		 SPLAT16(bR),
				SPLAT16(0xF800),	 SPLAT16(0xFC00) };
}

/* 8 lanes of p then 8 of q */
#define JOIN16(p, q) __builtin_shufflevector((p), (q), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

/* p's constants in the low eight lanes, q's in the high eight. */
static inline __attribute__((always_inline)) struct k565_16 k565_join(const struct k565_8 *p, const struct k565_8 *q)
{
	return (struct k565_16){ JOIN16(p->cB, q->cB), JOIN16(p->cG, q->cG), JOIN16(p->cR, q->cR),
				 JOIN16(p->dB, q->dB), JOIN16(p->dG, q->dG), JOIN16(p->dR, q->dR),
				 JOIN16(p->bB, q->bB), JOIN16(p->bG, q->bG), JOIN16(p->bR, q->bR),
				 JOIN16(p->m5, q->m5), JOIN16(p->m6, q->m6) };
}

/* One cell through the blend path on RGB565 (not clipped): sixteen pixels
 * at a time, then eight; an 8-pixel cell at scale 1 two glyph rows (8
 * lanes apart) in one step. */
static inline __attribute__((always_inline)) void blend565_cell(const struct orient *o, const struct bjob *j,
								uint8_t *top, size_t stride, int nrows, int gv0,
								int rep0, int scale, int bw, bool colour)
{
	const struct k565_8 k8 = k565(j);
	const struct k565_16 k16 = k565_join(&k8, &k8);
	const struct pxrows *x = &o->blend[1];
	size_t rowl = (size_t)x->bwp, plane = (size_t)o->gh * rowl;
	uint8_t *dst = top + (size_t)j->sx0 * 2;
	const uint16_t *row = (const uint16_t *)(const void *)j->rows + (size_t)gv0 * rowl;
/* lanes k.. of the row's planes, as many as out holds, blended into out */
#define ROW565(out, kv)                                                         \
	do {                                                                    \
		__typeof__(out) a_, tb_ = { 0 }, tg_ = { 0 }, tr_ = { 0 };      \
		memcpy(&a_, row + k, sizeof a_);                                \
		if (colour) {                                                   \
			memcpy(&tb_, row + plane + k, sizeof a_);               \
			memcpy(&tg_, row + 2 * plane + k, sizeof a_);           \
			memcpy(&tr_, row + 3 * plane + k, sizeof a_);           \
		}                                                               \
		BLEND565(out, kv, a_, tb_, tg_, tr_, colour);                   \
	} while (0)
	if (rowl == 8 && bw == 8 && scale == 1) {
		/* glyph rows v and v+1 in one step (past the last row: lanes
		 * not shown) */
		const int k = 0;
		int y = 0;
		for (; y + 2 <= nrows; y += 2, row += 16, dst += 2 * stride) {
			v16u16 out;
			ROW565(out, k16);
			memcpy(dst, &out, 16);
			memcpy(dst + stride, (const uint16_t *)&out + 8, 16);
		}
		if (y < nrows) {
			v8u16 out;
			ROW565(out, k8);
			memcpy(dst, &out, 16);
		}
		return;
	}
	for (int y = 0, rep = rep0; y < nrows; y++, dst += stride) {
		int k = 0;
		for (; k + 16 <= bw; k += 16) {
			v16u16 out;
			ROW565(out, k16);
			memcpy(dst + 2 * k, &out, 32);
		}
		for (; k < bw; k += 8) {
			v8u16 out;
			ROW565(out, k8);
			if (k + 8 <= bw)
				memcpy(dst + 2 * k, &out, 16);
			else
				for (int i = 0; k + i < bw; i++)
					memcpy(dst + 2 * (k + i), (const uint16_t *)&out + i, 2);
		}
		if (++rep == scale) {
			rep = 0;
			row += rowl;
		}
	}
#undef ROW565
}
#undef JOIN16

/* Eight XRGB8888 pixels bg ^ (x & mask of byte m) at dst: one 32-byte
 * vector when wide (AVX2), two 16-byte ones otherwise (SSE2, NEON). */
#define PUT8(dst, vb8, vx8, vb4, vx4, m)                                           \
	do {                                                                       \
		unsigned m_ = (m);                                                 \
		if (wide) {                                                        \
			v8u32 p_ = (vb8) ^ ((vx8) & b->lut32[m_]);                 \
			memcpy((dst), &p_, 32);                                    \
		} else {                                                           \
			v4u32 l_ = (vb4) ^ ((vx4) & b->lut4[m_ & 15]);             \
			v4u32 h_ = (vb4) ^ ((vx4) & b->lut4[m_ >> 4]);             \
			memcpy((dst), &l_, 16);                                    \
			memcpy((dst) + 16, &h_, 16);                               \
		}                                                                  \
	} while (0)

/* Draws a band. Mask cells go one cell (or two neighbours) at a time, all
 * its rows, with its colours held in registers; then the cells that need
 * the per-pixel path. Inlined into a baseline
 * and (on x86-64) an AVX2 variant; the vector types become SSE2, AVX2 or
 * NEON instructions accordingly. */
static inline __attribute__((always_inline)) void draw_band_body(const struct blitter *b, const struct band *bd,
								 struct surface *s, bool wide)
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
			v4u32 vb4 = SPLAT4(j->bg), vx4 = SPLAT4(j->fg ^ j->bg);
			if (pair) { /* 64 contiguous bytes a row */
				const uint8_t *bits2 = j[1].bits + off;
				v8u32 vb2 = SPLAT32(j[1].bg), vx2 = SPLAT32(j[1].fg ^ j[1].bg);
				v4u32 vb24 = SPLAT4(j[1].bg), vx24 = SPLAT4(j[1].fg ^ j[1].bg);
				for (int y = 0; y < nrows; y++, dst += stride) {
					PUT8(dst, vb, vx, vb4, vx4, bits[y]);
					PUT8(dst + 32, vb2, vx2, vb24, vx24, bits2[y]);
				}
				i++;
			} else {
				for (int y = 0; y < nrows; y++, dst += stride)
					PUT8(dst, vb, vx, vb4, vx4, bits[y]);
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
			v4u32 vb4 = SPLAT4(j->bg), vx4 = SPLAT4(j->fg ^ j->bg);
			const uint8_t *bits = j->bits + (size_t)gv0 * bpr;
			for (int y = 0, rep = rep0; y < nrows; y++, dst += stride) {
				for (int k = 0; k < groups; k++)
					PUT8(dst + 32 * k, vb, vx, vb4, vx4, bits[k]);
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
	for (int i = 0; i < bd->ns; i++)
		slow_cell(b, o, &bd->slow[i], top, stride, nrows, gv0, rep0, bpp, wide);
}

/* The band's blend-path cells. */
static inline __attribute__((always_inline)) void blend_cells(const struct blitter *b, const struct band *bd,
							      struct surface *s)
{
	const struct orient *o = bd->o;
	int y0 = bd->sy0 < 0 ? 0 : bd->sy0, off = y0 - bd->sy0;
	int y1 = bd->sy0 + bd->bh > s->height ? s->height : bd->sy0 + bd->bh;
	uint8_t *top = (uint8_t *)s->pixels + (size_t)y0 * (size_t)s->stride;
	int sc = b->scale;
	if (s->format == SURF_RGB565 && b->f->colour)
		for (int i = 0; i < bd->nb; i++)
			blend565_cell(o, &bd->blend[i], top, (size_t)s->stride, y1 - y0, off / sc, off % sc, sc, bd->bw,
				      true);
	else if (s->format == SURF_RGB565)
		for (int i = 0; i < bd->nb; i++)
			blend565_cell(o, &bd->blend[i], top, (size_t)s->stride, y1 - y0, off / sc, off % sc, sc, bd->bw,
				      false);
	else if (b->f->colour)
		for (int i = 0; i < bd->nb; i++)
			blend_cell(o, &bd->blend[i], top, (size_t)s->stride, y1 - y0, off / sc, off % sc, sc, bd->bw,
				   true);
	else
		for (int i = 0; i < bd->nb; i++)
			blend_cell(o, &bd->blend[i], top, (size_t)s->stride, y1 - y0, off / sc, off % sc, sc, bd->bw,
				   false);
}

static void draw_band_base(const struct blitter *b, const struct band *bd, struct surface *s)
{
	draw_band_body(b, bd, s, false);
	blend_cells(b, bd, s);
}

#ifdef BLIT_HAVE_AVX2
__attribute__((target("avx2"))) static void draw_band_avx2(const struct blitter *b, const struct band *bd,
							      struct surface *s)
{
	draw_band_body(b, bd, s, true);
	blend_cells(b, bd, s);
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
	if (bd->nf || bd->ns || bd->nb)
		b->draw_band(b, bd, s);
	bd->nf = bd->ns = bd->nb = 0;
}

void blit_draw(struct blitter *b, const struct console *c, struct surface *s, const uint8_t *damage)
{
	blit_draw_rows(b, c, s, damage, damage && damage == c->damage ? c->row_damage : NULL);
}

void blit_draw_rows(struct blitter *b, const struct console *c, struct surface *s, const uint8_t *damage,
		    const struct con_span *rows)
{
	int r = rot_index(s->rotation);
	if (r < 0 || (s->format != SURF_XRGB8888 && s->format != SURF_RGB565) || s->width <= 0 || s->height <= 0)
		return;
	bool rgb565 = s->format == SURF_RGB565;
	build_bits(b, r);
	build_px(b, r, rgb565);
	const struct orient *o = &b->o[r];
	const struct pxrows *px = &o->blend[rgb565];
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
	struct band *bd = &b->band;
	bd->o = o;
	bd->bw = bw;
	bd->bh = bh;
	bd->nf = bd->ns = bd->nb = 0;
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
	for (int a = 0; a < nbands; a++) {
		if (damage && !turned &&
		    (rows ? !con_span_any(rows[a]) : !any_set(damage + (size_t)a * (size_t)c->w, ncells)))
			continue;
		if (colscan && !b->coldmg[a])
			continue;
		bd->sy0 = flip_y ? s->height - (a + 1) * bh : a * bh;
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
		for (int t = t0; t < t1; t++, ci += dci, sx0 += bw) {
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
			int g = lookup(b, cell->ch);
			if (b->kind[g] == GK_MASK && o->bits && sx0 >= 0 && sx0 + bw <= s->width) {
				struct fjob *j = &bd->fast[bd->nf++];
				j->sx0 = sx0;
				j->bits = o->bits + (size_t)g * gstride;
				j->fg = rgb565 ? to565(cell->fg) : cell->fg & 0xFFFFFF;
				j->bg = rgb565 ? to565(cell->bg) : cell->bg & 0xFFFFFF;
				if (bd->nf == BLIT_JOBS)
					flush_band(b, s);
			} else if (px->px && px->off[g] != SIZE_MAX && sx0 >= 0 && sx0 + bw <= s->width) {
				struct bjob *j = &bd->blend[bd->nb++];
				j->sx0 = sx0;
				j->rows = px->px + px->off[g];
				j->fg = cell->fg;
				j->bg = cell->bg;
				if (bd->nb == BLIT_JOBS)
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
