/* blit_band: the blitter's pixels: one band's mask cells (XRGB8888 and RGB565), per-pixel cells and blend-path cells (XRGB8888, RGB565). */
#include "render/blit_impl.h"
#include "render/blit_copy.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef BLIT_HAVE_AVX2
#include <immintrin.h>
#endif

typedef uint16_t v16u16 __attribute__((vector_size(32)));
typedef uint8_t v32u8 __attribute__((vector_size(32)));
typedef uint8_t v16u8 __attribute__((vector_size(16)));

/* v in every lane (macros: vector arguments would change the ABI) */
#define SPLAT32(v) ((v8u32){ (v), (v), (v), (v), (v), (v), (v), (v) })
#define SPLAT4(v) ((v4u32){ (v), (v), (v), (v) })
#define SPLAT16(v) ((v8u16){ (uint16_t)(v), (uint16_t)(v), (uint16_t)(v), (uint16_t)(v), \
			     (uint16_t)(v), (uint16_t)(v), (uint16_t)(v), (uint16_t)(v) })

/* One cell through the per-pixel path (blended coverage, colour tiles,
 * cells clipped by the surface's edge): each glyph row is computed once,
 * widened by the scale, into a row buffer, then copied to its visible
 * surface rows and columns. top: the surface row y0 of the band. */
static inline __attribute__((always_inline)) void slow_cell(const struct blitter *b, const struct orient *o,
							    const struct job *j, uint8_t *top, size_t stride,
							    int nrows, int gv0, int rep0, int bpp, bool wide)
{
	uint8_t row[BLIT_MAX_CELL * 8 * 4];
	const struct font *f = j->f;
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
 * the tile's pixel, x = (f*a + 128) + b*(255-a) from the rows' lanes
 * (struct pxrows). */
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
	int groups = bw / 8, tail = bw % 8;
	uint8_t *dst = top + (size_t)j->sx0 * 4;
	const uint16_t *row = (const uint16_t *)(const void *)(j->rows + (size_t)gv0 * j->rowb);
	size_t rowl = j->rowb / 2;
#define PIX4(out, k)                                                          \
	do {                                                                  \
		v16u16 a_, v_;                                                \
		memcpy(&a_, row + 16 * (k), 32);                              \
		if (colour) { /* tile * alpha + 128, and 255 - alpha spread */ \
			v16u16 f_ = __builtin_shufflevector(a_, a_, 3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15); \
			v_ = a_ + BK * f_;                                    \
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
	if (scale == 1 && tail == 0 && groups == 1) { /* an 8-pixel cell, unscaled: a row is one PIX8 */
		for (int y = 0; y < nrows; y++, dst += stride, row += rowl) {
			v32u8 out;
			PIX8(out, 0);
			memcpy(dst, &out, 32);
		}
		return;
	}
/* pixels 4k..4k+3 as 16 bytes */
#define PIX4B(out, k)                                                                                 \
	do {                                                                                          \
		v16u16 q_;                                                                            \
		PIX4(q_, k);                                                                          \
		out = __builtin_shufflevector((v32u8)q_, (v32u8)q_, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, \
					      24, 26, 28, 30);                                        \
	} while (0)
	if (scale == 1 && groups == 1 && tail == 4) { /* a 12-pixel cell (1080p's text): one PIX8, one PIX4 */
		for (int y = 0; y < nrows; y++, dst += stride, row += rowl) {
			v32u8 out;
			v16u8 out4;
			PIX8(out, 0);
			PIX4B(out4, 2);
			memcpy(dst, &out, 32);
			memcpy(dst + 32, &out4, 16);
		}
		return;
	}
	if (scale == 1) { /* unscaled: no row repeats */
		for (int y = 0; y < nrows; y++, dst += stride, row += rowl) {
			v32u8 out;
			int k = 0;
			for (; k < groups; k++) {
				PIX8(out, k);
				memcpy(dst + 32 * k, &out, 32);
			}
			if (tail > 4) {
				PIX8(out, k);
				store_tail32(dst + 32 * k, &out, tail);
			} else if (tail) { /* four or fewer: half the work */
				v16u8 out4;
				PIX4B(out4, 2 * k);
				store_tail32(dst + 32 * k, &out4, tail);
			}
		}
		return;
	}
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
#undef PIX4B
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
				if (groups * 8 < bw) { /* the tail: eight made, the first few stored */
					v8u32 p_ = vb ^ (vx & b->lut32[bits[groups]]);
					store_tail32(dst + 32 * groups, &p_, bw - groups * 8);
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
	/* each cell from its own font's rows: the text font's, or (map cells)
	 * the map sheet's, which may be a colour tileset */
	if (s->format == SURF_RGB565)
		for (int i = 0; i < bd->nb; i++)
			if (bd->blend[i].colour)
				blend565_cell(o, &bd->blend[i], top, (size_t)s->stride, y1 - y0, off / sc, off % sc, sc,
					      bd->bw, true);
			else
				blend565_cell(o, &bd->blend[i], top, (size_t)s->stride, y1 - y0, off / sc, off % sc, sc,
					      bd->bw, false);
	else
		for (int i = 0; i < bd->nb; i++)
			if (bd->blend[i].colour)
				blend_cell(o, &bd->blend[i], top, (size_t)s->stride, y1 - y0, off / sc, off % sc, sc,
					   bd->bw, true);
			else
				blend_cell(o, &bd->blend[i], top, (size_t)s->stride, y1 - y0, off / sc, off % sc, sc,
					   bd->bw, false);
}

#if defined(__x86_64__) && defined(__SSE2__)
#define BLIT_HAVE_STREAM 1
#include <emmintrin.h>
/* Row yo (bytes from a cell's first) of cell c to d, cw bytes (a
 * multiple of 16; written out for 32 and 48: gcc -O2 keeps the loop),
 * streamed past the cache. */
static inline __attribute__((always_inline)) void stream_row(uint8_t *d, const uint8_t *src, size_t cw)
{
#define STREAM16(k) _mm_stream_si128((__m128i *)(void *)(d + (k)), _mm_loadu_si128((const __m128i *)(const void *)(src + (k))))
	if (cw == 48) {
		STREAM16(0);
		STREAM16(16);
		STREAM16(32);
	} else if (cw == 32) {
		STREAM16(0);
		STREAM16(16);
	} else {
		for (size_t k = 0; k < cw; k += 16)
			STREAM16(k);
	}
#undef STREAM16
}

/* The bh rows of the n (1 or 4) neighbouring kept cells at c (rows of cw
 * bytes), the first at dst (16-byte aligned, as is stride), a surface row
 * of all n at a time, streamed past the cache (whole cache lines, as a big
 * memcpy's: four 12-pixel cells are three). */
static inline __attribute__((always_inline)) void stream_group(const struct cjob *c, int n, uint8_t *dst,
							       size_t stride, size_t cw, int bh)
{
	if (n == 4) {
		const uint8_t *s0 = c[0].px, *s1 = c[1].px, *s2 = c[2].px, *s3 = c[3].px;
		for (size_t y = 0, yo = 0; y < (size_t)bh; y++, dst += stride, yo += cw) {
			stream_row(dst, s0 + yo, cw);
			stream_row(dst + cw, s1 + yo, cw);
			stream_row(dst + 2 * cw, s2 + yo, cw);
			stream_row(dst + 3 * cw, s3 + yo, cw);
		}
	} else {
		const uint8_t *s0 = c[0].px;
		for (size_t y = 0, yo = 0; y < (size_t)bh; y++, dst += stride, yo += cw)
			stream_row(dst, s0 + yo, cw);
	}
}

/* copy_cells for a whole draw (the surface not read back): groups of
 * neighbouring cells streamed (stream_group) when their rows are whole
 * 16-byte pieces on 16-byte boundaries; false (nothing copied) when
 * they are not. */
static inline __attribute__((always_inline)) bool stream_cells(const struct band *bd, struct surface *s)
{
	size_t stride = (size_t)s->stride, bpp = (size_t)surf_bpp(s->format), n = (size_t)bd->bw * bpp;
	uint8_t *top = (uint8_t *)s->pixels + (size_t)bd->sy0 * stride;
	if ((n & 15) || (((uintptr_t)top | stride) & 15))
		return false;
	for (int i = 0, k; i < bd->nc; i += k) {
		const struct cjob *c = &bd->copy[i];
		/* four neighbours, else one */
		k = i + 4 <= bd->nc && c[3].sx0 == c->sx0 + 3 * bd->bw ? 4 : 1;
		uint8_t *dst = top + (size_t)c->sx0 * bpp;
		if (n == 48 && k == 4) /* 12-pixel cells (1080p's text cells and map halves) */
			stream_group(c, 4, dst, stride, 48, bd->bh);
		else if (n == 48)
			stream_group(c, 1, dst, stride, 48, bd->bh);
		else if (n == 32 && k == 4)
			stream_group(c, 4, dst, stride, 32, bd->bh);
		else
			stream_group(c, 1, dst, stride, n, bd->bh);
	}
	return true;
}
#endif

/* The band's cells kept in the cell cache, copied (the band lies wholly
 * on the surface); in a whole draw (bd->stream) streamed where they can
 * be (stream_cells). */
static inline __attribute__((always_inline)) void copy_cells(const struct band *bd, struct surface *s)
{
	size_t stride = (size_t)s->stride, bpp = (size_t)surf_bpp(s->format), n = (size_t)bd->bw * bpp;
	uint8_t *top = (uint8_t *)s->pixels + (size_t)bd->sy0 * stride;
	int bh = bd->bh, nc = bd->nc;
#ifdef BLIT_HAVE_STREAM
	if (bd->stream && nc && stream_cells(bd, s)) {
		_mm_sfence(); /* the streamed stores ordered before what follows */
		return;
	}
#endif
	for (int i = 0; i < nc; i++) {
		const uint8_t *src = bd->copy[i].px;
		uint8_t *dst = top + (size_t)bd->copy[i].sx0 * bpp;
		switch (n) { /* the usual cell widths with the row's size known */
		case 24: copy_rows(dst, src, stride, 24, bh); break;
		case 32: copy_rows(dst, src, stride, 32, bh); break;
		case 48: /* 1080p's 12x24 cells: rows and their count known, the loop unrolled */
			if (bh == 24)
				copy_rows24(dst, src, stride, 48);
			else
				copy_rows(dst, src, stride, 48, bh);
			break;
		case 64: copy_rows(dst, src, stride, 64, bh); break;
		case 96: copy_rows(dst, src, stride, 96, bh); break;
		default: copy_rows(dst, src, stride, n, bh); break;
		}
	}
	for (int i = 0; i < bd->nw; i++) { /* whole wide map cells: rows of 2 n */
		const uint8_t *src = bd->wide[i].px;
		uint8_t *dst = top + (size_t)bd->wide[i].sx0 * bpp;
		if (n == 48 && bh == 24) /* 1080p's 24×24 map cells */
			copy_rows24(dst, src, stride, 96);
		else if (n == 48)
			copy_rows(dst, src, stride, 96, bh);
		else
			copy_rows(dst, src, stride, 2 * n, bh);
	}
}

void blit_band_base(const struct blitter *b, const struct band *bd, struct surface *s)
{
	draw_band_body(b, bd, s, false);
	blend_cells(b, bd, s);
	copy_cells(bd, s);
}

#ifdef BLIT_HAVE_AVX2
/* The blend path's usual cells on XRGB8888 with AVX2 and with AVX-512: 8
 * and 12 pixels wide at scale 1 (the 8x16 fonts, 1080p's 12x24 text and
 * map halves). A channel's y = f*a + b*(255-a) + 127 is one multiply and
 * one add from the rows, made y + 1 (coverage: C + D*a with C = b*255 +
 * 128, D = f - b; colour: the rows' t*a + 128 and 255 - a, y + 1 = P +
 * b*N), and y / 255 is exactly mulhi(y + 1, 257) (every y <= 65152; the
 * same bytes as blend_cell). */
#define AVX2_FN static inline __attribute__((always_inline, target("avx2")))
#define AVX512_FN static inline __attribute__((always_inline, target("avx2,avx512f,avx512bw,avx512vl")))

/* Byte indices that spread each pixel's last 16-bit lane (a colour row's
 * 255 - alpha) over its four, for 32 bytes of a shuffle (each 16-byte
 * lane shuffled within itself). */
#define SPREAD_X 6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15, 6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15

/* Four pixels' 16 lanes (B,G,R,X each) at lane l of row, divided. */
AVX2_FN __m256i blend4_avx2(const uint16_t *row, size_t l, bool colour, __m256i C, __m256i D,
			    __m256i BK)
{
	__m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(row + l)), y;
	if (colour) /* a: the tile's t*alpha + 128 and 255 - alpha, spread over the pixel */
		y = _mm256_add_epi16(a, _mm256_mullo_epi16(BK, _mm256_shuffle_epi8(a, _mm256_setr_epi8(SPREAD_X))));
	else
		y = _mm256_add_epi16(C, _mm256_mullo_epi16(D, a));
	return _mm256_mulhi_epu16(y, _mm256_set1_epi16(257));
}

/* A run's cell: its constants (coverage: C and D; colour: BK and unused)
 * and its first row to draw; AVX2's in 16 lanes, AVX-512's in 32. */
struct run_avx2 {
	__m256i c, d;
	const uint16_t *row;
};
struct run_avx512 {
	__m512i c, d;
	const uint16_t *row;
};

/* k's constants from their 16-lane values. */
AVX2_FN void kset_avx2(struct run_avx2 *k, __m256i c, __m256i d)
{
	k->c = c;
	k->d = d;
}
AVX512_FN void kset_avx512(struct run_avx512 *k, __m256i c, __m256i d)
{
	k->c = _mm512_broadcast_i64x4(c);
	k->d = _mm512_broadcast_i64x4(d);
}

/* One cell's row (row: its lanes; bw 8 or 12, colour or coverage) to dst;
 * nt: streamed past the cache (bw 8, dst 32-byte aligned). AVX2: two
 * blend4_avx2 packed; AVX-512: a row of eight pixels is one 32-lane
 * vector, narrowed to bytes by one instruction. */
AVX2_FN void cell_row_avx2(const struct run_avx2 *k, const uint16_t *row, uint8_t *dst, int bw,
			   bool colour, bool nt)
{
	__m256i lo = blend4_avx2(row, 0, colour, k->c, k->d, k->c);
	__m256i hi = blend4_avx2(row, 16, colour, k->c, k->d, k->c);
	__m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi16(lo, hi), 0xD8);
	if (nt)
		_mm256_stream_si256((__m256i *)(void *)dst, p);
	else
		_mm256_storeu_si256((__m256i *)(void *)dst, p);
	if (bw == 12) {
		__m256i q = blend4_avx2(row, 32, colour, k->c, k->d, k->c);
		_mm_storeu_si128((__m128i *)(void *)(dst + 32),
				 _mm_packus_epi16(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1)));
	}
}
AVX512_FN void cell_row_avx512(const struct run_avx512 *k, const uint16_t *row, uint8_t *dst, int bw,
			       bool colour, bool nt)
{
	__m512i a = _mm512_loadu_si512((const void *)row), y;
	if (colour)
		y = _mm512_add_epi16(a, _mm512_mullo_epi16(k->c, _mm512_shuffle_epi8(a, _mm512_broadcast_i64x4(_mm256_setr_epi8(SPREAD_X)))));
	else
		y = _mm512_add_epi16(k->c, _mm512_mullo_epi16(k->d, a));
	__m256i p = _mm512_cvtepi16_epi8(_mm512_mulhi_epu16(y, _mm512_set1_epi16(257)));
	if (nt)
		_mm256_stream_si256((__m256i *)(void *)dst, p);
	else
		_mm256_storeu_si256((__m256i *)(void *)dst, p);
	if (bw == 12) {
		__m256i q = blend4_avx2(row, 32, colour, _mm512_castsi512_si256(k->c), _mm512_castsi512_si256(k->d),
					_mm512_castsi512_si256(k->c));
		_mm_storeu_si128((__m128i *)(void *)(dst + 32), _mm256_cvtepi16_epi8(q));
	}
}

/*
 * blend_cells_SUF (SUF avx2 or avx512, FN its function attributes): the
 * band's blend-path cells when they are 8 or 12 pixels wide at scale 1 on
 * XRGB8888 (true), else false (nothing drawn). Neighbouring cells of the
 * same kind are drawn in groups, every row of the group's cells before the
 * next group's, the group's constants and rows in registers: two 8-pixel
 * cells (a 64-byte aligned pair: each row write a whole cache line) or four
 * 12-pixel cells (three lines a row); a cell without such neighbours alone.
 * (A cell's 32 bytes a row written one cell at a time, its neighbour's
 * later, cost a quarter more on a frame bigger than the cache.) One body
 * for both: only the row function (cell_row_SUF) and the constants' width
 * (struct run_SUF) differ.
 */
#define BLEND_CELLS(SUF, FN)                                                                                     \
	/* rows of the n (1 .. 4) cells at k, the first at dst, bw, colour and                                   \
	 * nt constants where inlined */                                                                         \
	FN void group_##SUF(const struct run_##SUF *k, int n, int nrows, size_t rowl, uint8_t *dst,              \
			    size_t stride, int bw, bool colour, bool nt)                                         \
	{                                                                                                        \
		/* in locals (the array is in memory, which a store to the surface                               \
		 * might alias: read again every row) */                                                         \
		struct run_##SUF k0 = k[0], k1 = k[n > 1], k2 = k[n > 2 ? 2 : 0], k3 = k[n > 3 ? 3 : 0];         \
		size_t cw = 4 * (size_t)bw;                                                                      \
		for (size_t y = 0, yo = 0; y < (size_t)nrows; y++, dst += stride, yo += rowl) {                  \
			cell_row_##SUF(&k0, k0.row + yo, dst, bw, colour, nt);                                   \
			if (n > 1)                                                                               \
				cell_row_##SUF(&k1, k1.row + yo, dst + cw, bw, colour, nt);                      \
			if (n > 2)                                                                               \
				cell_row_##SUF(&k2, k2.row + yo, dst + 2 * cw, bw, colour, nt);                  \
			if (n > 3)                                                                               \
				cell_row_##SUF(&k3, k3.row + yo, dst + 3 * cw, bw, colour, nt);                  \
		}                                                                                                \
	}                                                                                                        \
	/* group_SUF with n, bw, colour and nt as constants */                                                   \
	FN void group_any_##SUF(const struct run_##SUF *k, int n, int nrows, size_t rowl,                        \
				uint8_t *dst, size_t stride, int bw, bool colour, bool nt)                       \
	{                                                                                                        \
		if (bw == 8 && n == 2) {                                                                         \
			if (nt && colour)                                                                        \
				group_##SUF(k, 2, nrows, rowl, dst, stride, 8, true, true);                      \
			else if (nt)                                                                             \
				group_##SUF(k, 2, nrows, rowl, dst, stride, 8, false, true);                     \
			else if (colour)                                                                         \
				group_##SUF(k, 2, nrows, rowl, dst, stride, 8, true, false);                     \
			else                                                                                     \
				group_##SUF(k, 2, nrows, rowl, dst, stride, 8, false, false);                    \
		} else if (bw == 12 && n == 4) {                                                                 \
			if (colour)                                                                              \
				group_##SUF(k, 4, nrows, rowl, dst, stride, 12, true, false);                    \
			else                                                                                     \
				group_##SUF(k, 4, nrows, rowl, dst, stride, 12, false, false);                   \
		} else {                                                                                         \
			for (int m = 0; m < n; m++, dst += 4 * (size_t)bw) {                                     \
				if (bw == 8 && nt)                                                               \
					group_##SUF(&k[m], 1, nrows, rowl, dst, stride, 8, colour, true);        \
				else if (bw == 8)                                                                \
					group_##SUF(&k[m], 1, nrows, rowl, dst, stride, 8, colour, false);       \
				else                                                                             \
					group_##SUF(&k[m], 1, nrows, rowl, dst, stride, 12, colour, false);      \
			}                                                                                        \
		}                                                                                                \
	}                                                                                                        \
	FN bool blend_cells_##SUF(const struct blitter *b, const struct band *bd, struct surface *s)             \
	{                                                                                                        \
		int bw = bd->bw, nb = bd->nb;                                                                    \
		if (s->format != SURF_XRGB8888 || b->scale != 1 || (bw != 8 && bw != 12))                        \
			return false;                                                                            \
		int y0 = bd->sy0 < 0 ? 0 : bd->sy0, off = y0 - bd->sy0;                                          \
		int y1 = bd->sy0 + bd->bh > s->height ? s->height : bd->sy0 + bd->bh, nrows = y1 - y0;           \
		size_t stride = (size_t)s->stride;                                                               \
		uint8_t *top = (uint8_t *)s->pixels + (size_t)y0 * stride;                                       \
		bool nt = bd->stream && bw == 8 && !(((uintptr_t)top | stride) & 31);                            \
		int gmax = bw == 8 ? 2 : 4;                                                                      \
		struct run_##SUF k[4];                                                                           \
		for (int i = 0, n; i < nb; i += n) {                                                             \
			const struct bjob *j = &bd->blend[i];                                                    \
			bool colour = j->colour;                                                                 \
			uint8_t *dst = top + (size_t)j->sx0 * 4;                                                 \
			/* a pair of 8-pixel cells from a 64-byte boundary */                                    \
			int g = bw == 8 && ((uintptr_t)dst & 32) ? 1 : gmax;                                     \
			for (n = 0; n < g && i + n < nb && j[n].colour == colour && j[n].sx0 == j->sx0 + n * bw && \
				    j[n].rowb == j->rowb;                                                        \
			     n++) {                                                                              \
				__m256i BK = _mm256_broadcastq_epi64(                                            \
					_mm_cvtepu8_epi16(_mm_cvtsi32_si128((int)(j[n].bg & 0xFFFFFF))));        \
				__m256i FK = _mm256_broadcastq_epi64(                                            \
					_mm_cvtepu8_epi16(_mm_cvtsi32_si128((int)(j[n].fg & 0xFFFFFF))));        \
				kset_##SUF(&k[n],                                                                \
					   colour ? BK                                                           \
						  : _mm256_add_epi16(_mm256_mullo_epi16(BK, _mm256_set1_epi16(255)), \
								     _mm256_set1_epi16(128)),                    \
					   _mm256_sub_epi16(FK, BK));                                            \
				k[n].row = (const uint16_t *)(const void *)(j[n].rows + (size_t)off * j[n].rowb); \
			}                                                                                        \
			group_any_##SUF(k, n, nrows, j->rowb / 2, dst, stride, bw, colour, nt);                  \
		}                                                                                                \
		return true;                                                                                     \
	}
BLEND_CELLS(avx2, AVX2_FN)
BLEND_CELLS(avx512, AVX512_FN)
#undef BLEND_CELLS

/* blit_band_base with AVX2, and with AVX-512 (its blend path's usual
 * cells; the rest AVX2's code) */
#define BLIT_BAND(SUF, TARGET)                                                                             \
	__attribute__((target(TARGET))) void blit_band_##SUF(const struct blitter *b, const struct band *bd,   \
							      struct surface *s)                                \
	{                                                                                                  \
		/* (a damaged draw's bands are mostly kept cells only: copied alone) */                   \
		if (bd->nf || bd->ns || bd->nb) {                                                          \
			draw_band_body(b, bd, s, true);                                                    \
			if (!blend_cells_##SUF(b, bd, s))                                                  \
				blend_cells(b, bd, s);                                                     \
		}                                                                                          \
		copy_cells(bd, s);                                                                         \
		if (bd->stream)                                                                            \
			_mm_sfence(); /* the streamed stores ordered before what follows */                \
	}
BLIT_BAND(avx2, "avx2")
BLIT_BAND(avx512, "avx2,avx512f,avx512bw,avx512vl")
#undef BLIT_BAND
#undef AVX512_FN
#undef AVX2_FN
#endif
