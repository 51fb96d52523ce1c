/* font_builtin: the box-drawing, block and shade glyphs (U+2500..U+259F)
 * pirogue draws itself when a font file lacks them. */
#include "render/font_int.h"
#include <stdbool.h>

/* Box drawing U+2500..U+257F as four arms: bits 0-1 up, 2-3 right, 4-5
 * down, 6-7 left; 0 none, 1 light, 2 heavy, 3 double. Dashed lines are
 * drawn solid, arcs as corners; the diagonals U+2571..U+2573 are 0 here
 * and drawn apart. */
static const uint8_t box_arms[128] = {
	0x44, 0x88, 0x11, 0x22, 0x44, 0x88, 0x11, 0x22, 0x44, 0x88, 0x11, 0x22, 0x14, 0x18, 0x24, 0x28,
	0x50, 0x90, 0x60, 0xA0, 0x05, 0x09, 0x06, 0x0A, 0x41, 0x81, 0x42, 0x82, 0x15, 0x19, 0x16, 0x25,
	0x26, 0x1A, 0x29, 0x2A, 0x51, 0x91, 0x52, 0x61, 0x62, 0x92, 0xA1, 0xA2, 0x54, 0x94, 0x58, 0x98,
	0x64, 0xA4, 0x68, 0xA8, 0x45, 0x85, 0x49, 0x89, 0x46, 0x86, 0x4A, 0x8A, 0x55, 0x95, 0x59, 0x99,
	0x56, 0x65, 0x66, 0x96, 0x5A, 0xA5, 0x69, 0x9A, 0xA9, 0xA6, 0x6A, 0xAA, 0x44, 0x88, 0x11, 0x22,
	0xCC, 0x33, 0x1C, 0x34, 0x3C, 0xD0, 0x70, 0xF0, 0x0D, 0x07, 0x0F, 0xC1, 0x43, 0xC3, 0x1D, 0x37,
	0x3F, 0xD1, 0x73, 0xF3, 0xDC, 0x74, 0xFC, 0xCD, 0x47, 0xCF, 0xDD, 0x77, 0xFF, 0x14, 0x50, 0x41,
	0x05, 0x00, 0x00, 0x00, 0x40, 0x01, 0x04, 0x10, 0x80, 0x02, 0x08, 0x20, 0x48, 0x21, 0x84, 0x12,
};

/* A glyph being drawn: w×h coverage bytes. */
struct canvas {
	uint8_t *c;
	int w, h;
};

/* Sets the pixels of [x0, x1) × [y0, y1) (clipped) to v. */
static void rect(const struct canvas *k, int x0, int y0, int x1, int y1, uint8_t v)
{
	x0 = x0 < 0 ? 0 : x0;
	y0 = y0 < 0 ? 0 : y0;
	x1 = x1 > k->w ? k->w : x1;
	y1 = y1 > k->h ? k->h : y1;
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++)
			k->c[y * k->w + x] = v;
}

/* Line geometry of one cell: light and heavy thickness, the distance of a
 * double line's two strokes from the centre line. */
struct boxgeo {
	int lt, ht, g;
};

static int arm_t(const struct boxgeo *b, int k)
{
	return k == 2 ? b->ht : b->lt;
}

/* How far the crossing structure of arms a and b (perpendicular to an arm,
 * or along it for a line without crossing) reaches below (*lo) and from
 * (*hi, exclusive) the centre line. */
static void reach(const struct boxgeo *b, int a, int c, int *lo, int *hi)
{
	int l = 0, h = 0;
	for (int i = 0; i < 2; i++) {
		int k = i ? c : a;
		if (k == 3) {
			l = l > b->g + b->lt / 2 ? l : b->g + b->lt / 2;
			h = h > b->g - b->lt / 2 + b->lt ? h : b->g - b->lt / 2 + b->lt;
		} else if (k) {
			int t = arm_t(b, k);
			l = l > t / 2 ? l : t / 2;
			h = h > t - t / 2 ? h : t - t / 2;
		}
	}
	*lo = l;
	*hi = h;
}

/* Where one stroke of a double arm begins (going away from the centre in
 * the + direction) or ends (going in the - direction), relative to the
 * centre line: same is the crossing arm on the stroke's side, other the
 * one on the far side. */
static int dbl_start(const struct boxgeo *b, int same, int other, bool plus)
{
	int lt = b->lt, g = b->g;
	int k = same ? same : other;
	if (same == 3)
		return plus ? g - lt / 2 : -g - lt / 2 + lt;
	if (k == 1 || k == 2) {
		int t = arm_t(b, k);
		return plus ? -(t / 2) : t - t / 2;
	}
	return plus ? -g - lt / 2 : g - lt / 2 + lt;
}

static void draw_box(const struct canvas *k, unsigned arms)
{
	int w = k->w, h = k->h, m = w < h ? w : h;
	struct boxgeo b = { m >= 16 ? m / 8 : 1, 0, 0 };
	b.ht = 2 * b.lt;
	b.g = b.lt;
	int cx = (w - b.lt) / 2 + b.lt / 2, cy = (h - b.lt) / 2 + b.lt / 2;
	int up = arms & 3, rt = (arms >> 2) & 3, dn = (arms >> 4) & 3, lf = (arms >> 6) & 3;
	int lo, hi, lt = b.lt, g = b.g;
	/* horizontal arms */
	for (int side = 0; side < 2; side++) {
		int a = side ? rt : lf;
		if (!a)
			continue;
		if (a != 3) {
			int t = arm_t(&b, a);
			reach(&b, up, dn, &lo, &hi);
			int olo, ohi;
			reach(&b, lf == 3 ? 0 : lf, rt == 3 ? 0 : rt, &olo, &ohi);
			lo = lo > olo ? lo : olo;
			hi = hi > ohi ? hi : ohi;
			if (side)
				rect(k, cx - lo, cy - t / 2, w, cy - t / 2 + t, 255);
			else
				rect(k, 0, cy - t / 2, cx + hi, cy - t / 2 + t, 255);
		} else {
			for (int s = 0; s < 2; s++) { /* s 0: upper stroke, 1: lower */
				int y0 = cy + (s ? g : -g) - lt / 2;
				int same = s ? dn : up, other = s ? up : dn;
				if (side)
					rect(k, cx + dbl_start(&b, same, other, true), y0, w, y0 + lt, 255);
				else
					rect(k, 0, y0, cx + dbl_start(&b, same, other, false), y0 + lt, 255);
			}
		}
	}
	/* vertical arms */
	for (int side = 0; side < 2; side++) {
		int a = side ? dn : up;
		if (!a)
			continue;
		if (a != 3) {
			int t = arm_t(&b, a);
			reach(&b, lf, rt, &lo, &hi);
			int olo, ohi;
			reach(&b, up == 3 ? 0 : up, dn == 3 ? 0 : dn, &olo, &ohi);
			lo = lo > olo ? lo : olo;
			hi = hi > ohi ? hi : ohi;
			if (side)
				rect(k, cx - t / 2, cy - lo, cx - t / 2 + t, h, 255);
			else
				rect(k, cx - t / 2, 0, cx - t / 2 + t, cy + hi, 255);
		} else {
			for (int s = 0; s < 2; s++) { /* s 0: left stroke, 1: right */
				int x0 = cx + (s ? g : -g) - lt / 2;
				int same = s ? rt : lf, other = s ? lf : rt;
				if (side)
					rect(k, x0, cy + dbl_start(&b, same, other, true), x0 + lt, h, 255);
				else
					rect(k, x0, 0, x0 + lt, cy + dbl_start(&b, same, other, false), 255);
			}
		}
	}
}

/* U+2571..U+2573: diagonals corner to corner (which: 1 ╱, 2 ╲, 3 ╳). */
static void draw_diagonal(const struct canvas *k, int which)
{
	int w = k->w, h = k->h;
	for (int y = 0; y < h; y++) {
		/* the columns the line crosses in this row */
		int x0 = y * w / h, x1 = ((y + 1) * w + h - 1) / h;
		if (x1 <= x0)
			x1 = x0 + 1;
		if (which & 2)
			rect(k, x0, y, x1, y + 1, 255);
		if (which & 1)
			rect(k, w - x1, y, w - x0, y + 1, 255);
	}
}

/* U+2580..U+259F: blocks (eighths, halves, quadrants) and shades. */
static void draw_block(const struct canvas *k, uint32_t cp)
{
	int w = k->w, h = k->h;
	if (cp == 0x2580) {
		rect(k, 0, 0, w, h / 2, 255);
	} else if (cp >= 0x2581 && cp <= 0x2588) { /* lower 1/8 .. full */
		int n = (int)(cp - 0x2580);
		rect(k, 0, h - (h * n + 4) / 8, w, h, 255);
	} else if (cp >= 0x2589 && cp <= 0x258F) { /* left 7/8 .. 1/8 */
		int n = 8 - (int)(cp - 0x2588);
		rect(k, 0, 0, (w * n + 4) / 8, h, 255);
	} else if (cp == 0x2590) {
		rect(k, w / 2, 0, w, h, 255);
	} else if (cp >= 0x2591 && cp <= 0x2593) { /* shades: even coverage, seamless */
		rect(k, 0, 0, w, h, (uint8_t)(64 * (cp - 0x2590)));
	} else if (cp == 0x2594) {
		rect(k, 0, 0, w, (h + 4) / 8, 255);
	} else if (cp == 0x2595) {
		rect(k, w - (w + 4) / 8, 0, w, h, 255);
	} else {
		/* quadrants U+2596..U+259F: bits UL UR LL LR */
		static const uint8_t quad[10] = { 4, 8, 1, 1 | 4 | 8, 1 | 8, 1 | 2 | 4, 1 | 2 | 8, 2, 2 | 4, 2 | 4 | 8 };
		unsigned q = quad[cp - 0x2596];
		if (q & 1)
			rect(k, 0, 0, w / 2, h / 2, 255);
		if (q & 2)
			rect(k, w / 2, 0, w, h / 2, 255);
		if (q & 4)
			rect(k, 0, h / 2, w / 2, h, 255);
		if (q & 8)
			rect(k, w / 2, h / 2, w, h, 255);
	}
}

/* Draws code point cp (U+2500..U+259F) into the w×h coverage bytes c
 * (zeroed by the caller). */
void font_draw_builtin(uint8_t *c, int w, int h, uint32_t cp)
{
	struct canvas k = { c, w, h };
	if (cp >= 0x2580)
		draw_block(&k, cp);
	else if (cp >= 0x2571 && cp <= 0x2573)
		draw_diagonal(&k, (int)(cp - 0x2570));
	else
		draw_box(&k, box_arms[cp - 0x2500]);
}
