/* font: loads PNG/BMP CP437 tilesets and PSF1/PSF2 console fonts (plain or
 * gzip) into glyph coverage, and looks glyphs up by code point. Every size
 * read from a file is checked before it is used: any input, however broken,
 * yields either a font or one error line. */
#include "render/font.h"
#include "core/utf8.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
/* Debian's libstb ships the implementation in libstb.so: declarations only
 * here (no STB_IMAGE_IMPLEMENTATION). */
#include <stb_image.h>

const uint16_t cp437_to_unicode[256] = {
	0x0000, 0x263A, 0x263B, 0x2665, 0x2666, 0x2663, 0x2660, 0x2022,
	0x25D8, 0x25CB, 0x25D9, 0x2642, 0x2640, 0x266A, 0x266B, 0x263C,
	0x25BA, 0x25C4, 0x2195, 0x203C, 0x00B6, 0x00A7, 0x25AC, 0x21A8,
	0x2191, 0x2193, 0x2192, 0x2190, 0x221F, 0x2194, 0x25B2, 0x25BC,
	0x0020, 0x0021, 0x0022, 0x0023, 0x0024, 0x0025, 0x0026, 0x0027,
	0x0028, 0x0029, 0x002A, 0x002B, 0x002C, 0x002D, 0x002E, 0x002F,
	0x0030, 0x0031, 0x0032, 0x0033, 0x0034, 0x0035, 0x0036, 0x0037,
	0x0038, 0x0039, 0x003A, 0x003B, 0x003C, 0x003D, 0x003E, 0x003F,
	0x0040, 0x0041, 0x0042, 0x0043, 0x0044, 0x0045, 0x0046, 0x0047,
	0x0048, 0x0049, 0x004A, 0x004B, 0x004C, 0x004D, 0x004E, 0x004F,
	0x0050, 0x0051, 0x0052, 0x0053, 0x0054, 0x0055, 0x0056, 0x0057,
	0x0058, 0x0059, 0x005A, 0x005B, 0x005C, 0x005D, 0x005E, 0x005F,
	0x0060, 0x0061, 0x0062, 0x0063, 0x0064, 0x0065, 0x0066, 0x0067,
	0x0068, 0x0069, 0x006A, 0x006B, 0x006C, 0x006D, 0x006E, 0x006F,
	0x0070, 0x0071, 0x0072, 0x0073, 0x0074, 0x0075, 0x0076, 0x0077,
	0x0078, 0x0079, 0x007A, 0x007B, 0x007C, 0x007D, 0x007E, 0x2302,
	0x00C7, 0x00FC, 0x00E9, 0x00E2, 0x00E4, 0x00E0, 0x00E5, 0x00E7,
	0x00EA, 0x00EB, 0x00E8, 0x00EF, 0x00EE, 0x00EC, 0x00C4, 0x00C5,
	0x00C9, 0x00E6, 0x00C6, 0x00F4, 0x00F6, 0x00F2, 0x00FB, 0x00F9,
	0x00FF, 0x00D6, 0x00DC, 0x00A2, 0x00A3, 0x00A5, 0x20A7, 0x0192,
	0x00E1, 0x00ED, 0x00F3, 0x00FA, 0x00F1, 0x00D1, 0x00AA, 0x00BA,
	0x00BF, 0x2310, 0x00AC, 0x00BD, 0x00BC, 0x00A1, 0x00AB, 0x00BB,
	0x2591, 0x2592, 0x2593, 0x2502, 0x2524, 0x2561, 0x2562, 0x2556,
	0x2555, 0x2563, 0x2551, 0x2557, 0x255D, 0x255C, 0x255B, 0x2510,
	0x2514, 0x2534, 0x252C, 0x251C, 0x2500, 0x253C, 0x255E, 0x255F,
	0x255A, 0x2554, 0x2569, 0x2566, 0x2560, 0x2550, 0x256C, 0x2567,
	0x2568, 0x2564, 0x2565, 0x2559, 0x2558, 0x2552, 0x2553, 0x256B,
	0x256A, 0x2518, 0x250C, 0x2588, 0x2584, 0x258C, 0x2590, 0x2580,
	0x03B1, 0x00DF, 0x0393, 0x03C0, 0x03A3, 0x03C3, 0x00B5, 0x03C4,
	0x03A6, 0x0398, 0x03A9, 0x03B4, 0x221E, 0x03C6, 0x03B5, 0x2229,
	0x2261, 0x00B1, 0x2265, 0x2264, 0x2320, 0x2321, 0x00F7, 0x2248,
	0x00B0, 0x2219, 0x00B7, 0x221A, 0x207F, 0x00B2, 0x25A0, 0x00A0,
};

/* Further code points that CP437 tiles commonly stand for (the glyphs
 * are drawn so that they serve both): mapped after the primary table. */
static const struct {
	uint8_t byte;
	uint16_t cp;
} cp437_alias[] = {
	{0x10, 0x25B6}, /* ▶ */ {0x11, 0x25C0}, /* ◀ */ {0xE1, 0x03B2}, /* β */
	{0xE4, 0x2211}, /* ∑ */ {0xE6, 0x03BC}, /* μ */ {0xEA, 0x2126}, /* Ω ohm */
	{0xEB, 0x00F0}, /* ð */ {0xED, 0x2205}, /* ∅ */ {0xED, 0x03D5}, /* ϕ */
	{0xEE, 0x2208}, /* ∈ */ {0xFA, 0x22C5}, /* ⋅ */ {0xFE, 0x25AA}, /* ▪ */
};

/* libtcod's TCOD layout (CHARMAP_TCOD): a 32×8 grid whose first five rows
 * hold these code points (0: an empty tile). */
static const uint16_t tcod_to_unicode[160] = {
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F,
	0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F,
	0x40, 0x5B, 0x5C, 0x5D, 0x5E, 0x5F, 0x60, 0x7B, 0x7C, 0x7D, 0x7E, 0x2591, 0x2592, 0x2593, 0x2502, 0x2500,
	0x253C, 0x2524, 0x2534, 0x251C, 0x252C, 0x2514, 0x250C, 0x2510, 0x2518, 0x2598, 0x259D, 0x2580, 0x2596,
	0x259A, 0x2590, 0x2597,
	0x2191, 0x2193, 0x2190, 0x2192, 0x25B2, 0x25BC, 0x25C4, 0x25BA, 0x2195, 0x2194, 0x2610, 0x2611, 0x25CB,
	0x25C9, 0x2551, 0x2550, 0x256C, 0x2563, 0x2569, 0x2560, 0x2566, 0x255A, 0x2554, 0x2557, 0x255D, 0, 0, 0,
	0, 0, 0, 0,
	0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x4B, 0x4C, 0x4D, 0x4E, 0x4F, 0x50,
	0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0, 0, 0, 0, 0, 0,
	0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x6B, 0x6C, 0x6D, 0x6E, 0x6F, 0x70,
	0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0, 0, 0, 0, 0, 0,
};

/* Upper bound on a font's coverage bytes (glyphs × width × height). */
#define FONT_MAX_PIXELS ((size_t)64 << 20)

/* Makes the NUL-terminated message s one printable line in place: control
 * characters (C0, DEL, C1) and bytes that are not UTF-8 become '?'. A
 * message may quote the file's name and its bytes (stb_image names an
 * unknown PNG chunk by its four bytes): none may reach a terminal raw. */
static void sanitize(char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t used = utf8_decode(s + i, n - i, &cp);
		bool bad = cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || (cp == 0xFFFD && used == 1);
		if (bad)
			memset(s + i, '?', used);
		i += used;
	}
}

/* Writes "<name>: <message>" into err, one printable line, and returns rc. */
__attribute__((format(printf, 5, 6)))
static int fail(char *err, size_t errlen, const char *name, int rc, const char *fmt, ...)
{
	if (err && errlen) {
		int n = snprintf(err, errlen, "%s: ", name);
		if (n >= 0 && (size_t)n < errlen) {
			va_list ap;
			va_start(ap, fmt);
			vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
			va_end(ap);
		}
		sanitize(err);
	}
	return rc;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- building a font ------------------------------------------------- */

/* A growing list of (cp, glyph) pairs. */
struct maplist {
	struct font_map_entry *e;
	size_t n, cap;
};

static int map_add(struct maplist *m, uint32_t cp, int32_t glyph)
{
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0; /* not a character: ignore */
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 512;
		struct font_map_entry *e = realloc(m->e, cap * sizeof *e);
		if (!e)
			return -ENOMEM;
		m->e = e;
		m->cap = cap;
	}
	m->e[m->n].cp = cp;
	m->e[m->n].glyph = glyph;
	m->n++;
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct font_map_entry *x = a, *y = b;
	if (x->cp != y->cp)
		return x->cp < y->cp ? -1 : 1;
	return (x->glyph > y->glyph) - (x->glyph < y->glyph);
}

/* Allocates a font of n glyphs of w×h with zeroed coverage (and colour if
 * asked), room for one more glyph (the generated replacement). */
static int font_alloc(struct font **out, int w, int h, int n, bool colour)
{
	struct font *f = calloc(1, sizeof *f);
	if (!f)
		return -ENOMEM;
	size_t px = (size_t)w * (size_t)h * ((size_t)n + 1);
	f->cell_w = w;
	f->cell_h = h;
	f->nglyphs = n;
	f->coverage = calloc(px, 1);
	if (!f->coverage)
		goto fail;
	if (colour) {
		f->colour = calloc(px, sizeof *f->colour);
		if (!f->colour)
			goto fail;
	}
	*out = f;
	return 0;
fail:
	font_destroy(f);
	return -ENOMEM;
}

static bool glyph_blank(const struct font *f, int g)
{
	size_t px = (size_t)f->cell_w * (size_t)f->cell_h;
	const uint8_t *c = f->coverage + (size_t)g * px;
	for (size_t i = 0; i < px; i++) {
		if (c[i])
			return false;
		if (f->colour && (f->colour[(size_t)g * px + i] >> 24))
			return false;
	}
	return true;
}

static int32_t map_find(const struct font *f, uint32_t cp)
{
	size_t lo = 0, hi = f->map_len;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->map[mid].cp < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->map_len && f->map[lo].cp == cp)
		return f->map[lo].glyph;
	return -1;
}

/* Adds a box outline as glyph nglyphs (font_alloc left room for it). */
static void add_box_glyph(struct font *f)
{
	int w = f->cell_w, h = f->cell_h, g = f->nglyphs;
	size_t base = (size_t)g * (size_t)w * (size_t)h;
	/* Inset by one pixel where the cell is large enough, so that boxes in
	 * adjacent cells stay apart. */
	int x0 = w >= 5 ? 1 : 0, x1 = w >= 5 ? w - 2 : w - 1;
	int y0 = h >= 5 ? 1 : 0, y1 = h >= 5 ? h - 2 : h - 1;
	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++) {
			if (y != y0 && y != y1 && x != x0 && x != x1)
				continue;
			size_t i = base + (size_t)y * (size_t)w + (size_t)x;
			f->coverage[i] = 255;
			if (f->colour)
				f->colour[i] = 0xFFFFFFFFu;
		}
	f->nglyphs++;
	f->replacement = g;
}

/* ---- glyphs pirogue draws itself ------------------------------------ */

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
static void draw_builtin(uint8_t *c, int w, int h, uint32_t cp)
{
	struct canvas k = { c, w, h };
	if (cp >= 0x2580)
		draw_block(&k, cp);
	else if (cp >= 0x2571 && cp <= 0x2573)
		draw_diagonal(&k, (int)(cp - 0x2570));
	else
		draw_box(&k, box_arms[cp - 0x2500]);
}

/* Adds the code points U+2500..U+259F that f lacks, or has as a blank
 * tile, as glyphs drawn by draw_builtin (white, opaque in a colour
 * tileset), after the file's own (f->nfile). Leaves room for one more
 * glyph. Returns 0 or -ENOMEM. */
static int add_builtin(struct font *f)
{
	uint32_t missing[0x25A0 - 0x2500];
	int n = 0, nnew = 0;
	for (uint32_t cp = 0x2500; cp < 0x25A0; cp++) {
		int32_t g = map_find(f, cp);
		if (g < 0 || glyph_blank(f, g)) /* a blank tile: drawn here too */
			missing[n++] = cp;
		nnew += g < 0;
	}
	size_t px = (size_t)f->cell_w * (size_t)f->cell_h;
	if (!n || ((size_t)f->nglyphs + (size_t)n + 1) * px > FONT_MAX_PIXELS)
		return 0;
	size_t total = ((size_t)f->nglyphs + (size_t)n + 1) * px;
	uint8_t *cov = realloc(f->coverage, total);
	if (!cov)
		return -ENOMEM;
	f->coverage = cov;
	memset(cov + (size_t)f->nglyphs * px, 0, (size_t)(n + 1) * px);
	if (f->colour) {
		uint32_t *col = realloc(f->colour, total * sizeof *col);
		if (!col)
			return -ENOMEM;
		f->colour = col;
		memset(col + (size_t)f->nglyphs * px, 0, (size_t)(n + 1) * px * sizeof *col);
	}
	struct font_map_entry *map = realloc(f->map, (f->map_len + (size_t)nnew) * sizeof *map);
	if (!map)
		return -ENOMEM;
	f->map = map;
	size_t len = f->map_len;
	for (int i = 0; i < n; i++) {
		int g = f->nglyphs++;
		uint8_t *c = cov + (size_t)g * px;
		draw_builtin(c, f->cell_w, f->cell_h, missing[i]);
		if (f->colour)
			for (size_t k = 0; k < px; k++)
				f->colour[(size_t)g * px + k] = (uint32_t)c[k] << 24 | 0xFFFFFFu;
		/* the code point's entry (sorted: binary search) or a new one */
		size_t lo = 0, hi = len;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (map[mid].cp < missing[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < len && map[lo].cp == missing[i])
			map[lo].glyph = g;
		else
			map[f->map_len++] = (struct font_map_entry){ missing[i], g };
	}
	qsort(map, f->map_len, sizeof *map, entry_cmp);
	return 0;
}

/* Sorts the pairs into f->map (first glyph wins for a repeated code point),
 * picks the replacement glyph and builds the direct page index. Takes the
 * list's memory. */
static int font_finish(struct font *f, struct maplist *m)
{
	if (m->n)
		qsort(m->e, m->n, sizeof *m->e, entry_cmp);
	size_t k = 0;
	for (size_t i = 0; i < m->n; i++)
		if (k == 0 || m->e[k - 1].cp != m->e[i].cp)
			m->e[k++] = m->e[i];
	f->map = m->e;
	f->map_len = k;
	m->e = NULL;
	m->n = m->cap = 0;
	f->nfile = f->nglyphs;
	if (add_builtin(f))
		return -ENOMEM;

	int32_t g = map_find(f, 0xFFFD);
	if (g < 0 || glyph_blank(f, g))
		g = map_find(f, '?');
	if (g >= 0 && !glyph_blank(f, g))
		f->replacement = g;
	else
		add_box_glyph(f);

	/* Count the pages that hold at least one code point. */
	size_t npages = 1; /* page 0 of the storage: all replacement */
	uint32_t last = UINT32_MAX;
	for (size_t i = 0; i < f->map_len && f->map[i].cp < 0x10000; i++)
		if ((f->map[i].cp >> 8) != last) {
			last = f->map[i].cp >> 8;
			npages++;
		}
	f->pagemem = malloc(npages * 256 * sizeof *f->pagemem);
	if (!f->pagemem)
		return -ENOMEM;
	for (size_t i = 0; i < npages * 256; i++)
		f->pagemem[i] = (uint16_t)f->replacement;
	for (int p = 0; p < 256; p++)
		f->page[p] = f->pagemem;
	size_t used = 0;
	last = UINT32_MAX;
	for (size_t i = 0; i < f->map_len && f->map[i].cp < 0x10000; i++) {
		uint32_t cp = f->map[i].cp;
		if ((cp >> 8) != last) {
			last = cp >> 8;
			used++;
			f->page[last] = f->pagemem + used * 256;
		}
		f->pagemem[used * 256 + (cp & 0xFF)] = (uint16_t)f->map[i].glyph;
	}
	return 0;
}

/* Maps glyphs 0..min(n,256)-1 as CP437 bytes, then the look-alikes; a
 * failure is written into err. */
static int map_cp437(struct maplist *m, int n, const char *name, char *err, size_t errlen)
{
	int rc = 0;
	for (int g = 0; g < n && g < 256 && !rc; g++)
		rc = map_add(m, cp437_to_unicode[g], g);
	for (size_t i = 0; i < sizeof cp437_alias / sizeof *cp437_alias && !rc; i++)
		if (cp437_alias[i].byte < n)
			rc = map_add(m, cp437_alias[i].cp, cp437_alias[i].byte);
	return rc ? fail(err, errlen, name, rc, "out of memory") : 0;
}

/* The end of every loader. rc is 0 when m holds f's code points, else the
 * error already written into err. Builds f's index and hands f to *out; on
 * any failure frees f. Frees m's memory either way. */
static int font_done(struct font **out, struct font *f, struct maplist *m, int rc, const char *name, char *err,
		     size_t errlen)
{
	if (!rc && !f) /* never: said for the clang analyzer, which cannot follow the variadic fail() */
		rc = -EINVAL;
	if (!rc) {
		int g = 0;
		while (g < f->nglyphs && glyph_blank(f, g))
			g++;
		if (g == f->nglyphs)
			rc = fail(err, errlen, name, -EINVAL,
				  "every glyph is blank (a truncated or damaged file?): nothing could be drawn with it");
	}
	if (!rc && (rc = font_finish(f, m)))
		fail(err, errlen, name, rc, "out of memory");
	free(m->e);
	if (rc) {
		font_destroy(f);
		return rc;
	}
	*out = f;
	return 0;
}

/* ---- PNG / BMP tilesets --------------------------------------------- */

/* Which grid a w×h sheet named name is: 16 (CP437, 16×16) or 32 (TCOD,
 * 32×8); 0 with the reason in err. */
static int sheet_grid(int w, int h, const char *name, enum font_layout layout, char *err, size_t errlen)
{
	bool c16 = w >= 16 && h >= 16 && w % 16 == 0 && h % 16 == 0;
	bool t32 = w >= 32 && h >= 8 && w % 32 == 0 && h % 8 == 0;
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	if (layout == FONT_LAYOUT_AUTO && strstr(base, "_tc."))
		layout = FONT_LAYOUT_TCOD; /* libtcod's name for the layout */
	if (layout == FONT_LAYOUT_CP437 && !c16)
		return fail(err, errlen, name, 0,
			    "image is %d×%d pixels, not a 16×16 grid of tiles (width and height must divide by 16)", w,
			    h);
	if (layout == FONT_LAYOUT_TCOD && !t32)
		return fail(err, errlen, name, 0,
			    "image is %d×%d pixels, not the 32×8 grid of libtcod's TCOD layout (the width must divide "
			    "by 32, the height by 8)", w, h);
	if (layout == FONT_LAYOUT_CP437 || (layout == FONT_LAYOUT_AUTO && c16 && !t32))
		return 16;
	if (layout == FONT_LAYOUT_TCOD || (layout == FONT_LAYOUT_AUTO && t32 && !c16))
		return 32;
	if (!c16 && !t32)
		return fail(err, errlen, name, 0,
			    "image is %d×%d pixels, not a 16×16 grid of tiles (width and height must divide by 16) "
			    "nor the 32×8 grid of libtcod's TCOD layout", w, h);
	/* both grids fit: the one whose cells are square to twice as tall */
	if (h >= w && (long long)h <= 2LL * w) /* in 64 bits: a header may claim any size */
		return 16;
	if (4LL * h >= w && 4LL * h <= 2LL * w)
		return 32;
	return fail(err, errlen, name, 0,
		    "cannot tell the layout of a %d×%d-pixel sheet (16×16 CP437 tiles of %d×%d or 32×8 TCOD tiles of "
		    "%d×%d): set font-layout = cp437 or tcod", w, h, w / 16, h / 16, w / 32, h / 8);
}

/* Coverage of a pixel of a greyscale sheet: its grey level (turned over
 * for dark glyphs on a light ground) times its alpha. A pixel that is not
 * grey in a colour-keyed sheet (the pink fringe of anti-aliased white
 * glyphs on magenta) is taken as a blend of the key and the glyph colour. */
static uint8_t pixel_coverage(const stbi_uc *p, bool dark, bool keyed, const uint8_t key[4])
{
	if (p[0] == p[1] && p[1] == p[2]) {
		unsigned v = dark ? 255u - p[0] : p[0];
		return (uint8_t)((p[3] * v + 127) / 255);
	}
	if (keyed) {
		unsigned num = 0, den = 0, t = dark ? 0 : 255;
		for (int c = 0; c < 3; c++) {
			num += (unsigned)abs((int)p[c] - (int)key[c]);
			den += (unsigned)abs((int)t - (int)key[c]);
		}
		if (den)
			return (uint8_t)(num >= den ? 255 : (num * 255 + den / 2) / den);
	}
	unsigned lum = ((unsigned)p[0] + p[1] + p[2]) / 3, v = dark ? 255 - lum : lum;
	return (uint8_t)((p[3] * v + 127) / 255);
}

/* True when pixel p of a sheet keyed with key is a blend of the key and
 * white or black (the edge of an anti-aliased glyph), give or take 3. */
static bool fringe(const stbi_uc *p, const uint8_t key[4])
{
	for (int t = 0; t <= 255; t += 255) {
		int c0 = 0;
		for (int c = 1; c < 3; c++)
			if (abs(t - key[c]) > abs(t - key[c0]))
				c0 = c;
		int span = t - key[c0];
		if (!span)
			continue;
		bool fits = true;
		for (int c = 0; c < 3 && fits; c++) {
			/* key + (t - key) * share, share = (p - key) / span on channel c0 */
			int want = key[c] + (t - key[c]) * (p[c0] - key[c0]) / span;
			fits = abs(want - p[c]) <= 3;
		}
		if (fits)
			return true;
	}
	return false;
}

static int load_image(struct font **out, const uint8_t *d, size_t len, const char *name, const char *kind,
		      enum font_layout layout, char *err, size_t errlen)
{
	struct font *f = NULL;
	struct maplist m = {0};
	stbi_uc *px = NULL;
	int w, h, comp, rc;

	if (!stbi_info_from_memory(d, (int)len, &w, &h, &comp))
		return fail(err, errlen, name, -EINVAL, "not a readable %s image (%s)", kind,
			    stbi_failure_reason() ? stbi_failure_reason() : "unknown error");
	int cols = sheet_grid(w, h, name, layout, err, errlen);
	if (!cols)
		return -EINVAL;
	int rows = 256 / cols;
	int cw = w / cols, ch = h / rows;
	if (cw > FONT_MAX_CELL || ch > FONT_MAX_CELL)
		return fail(err, errlen, name, -EFBIG, "tiles of %d×%d pixels are larger than %d×%d", cw, ch,
			    FONT_MAX_CELL, FONT_MAX_CELL);
	int w2, h2;
	px = stbi_load_from_memory(d, (int)len, &w2, &h2, &comp, 4);
	if (!px)
		return fail(err, errlen, name, -EINVAL, "cannot decode %s image (%s)", kind,
			    stbi_failure_reason() ? stbi_failure_reason() : "unknown error");
	if (w2 != w || h2 != h) {
		rc = fail(err, errlen, name, -EINVAL, "%s image size changed while decoding", kind);
		goto out;
	}
	size_t npx = (size_t)w * (size_t)h;

	/* Colour key: a fully opaque image whose tile 0 is one colour. */
	bool opaque, keyed = false;
	uint8_t key[4] = {0};
	/* the passes over every pixel read it as a word (start-up loads every
	 * shipped sheet); stb's buffer is malloc'd, so aligned */
	uint32_t *word = (uint32_t *)(void *)px, amask, acc = 0xFFFFFFFFu;
	memcpy(&amask, (const uint8_t[4]){ 0, 0, 0, 255 }, 4);
	for (size_t i = 0; i < npx; i++)
		acc &= word[i];
	opaque = (acc & amask) == amask;
	if (opaque) {
		bool uniform = true;
		for (int y = 0; y < ch && uniform; y++)
			for (int x = 0; x < cw && uniform; x++)
				uniform = !memcmp(px + ((size_t)y * (size_t)w + (size_t)x) * 4, px, 4);
		if (uniform) {
			keyed = true;
			memcpy(key, px, 4);
			uint32_t k = word[0];
			for (size_t i = 0; i < npx; i++)
				word[i] = word[i] == k ? 0 : word[i];
		}
	}
	/* What most visible pixels are: grey (a coverage sheet) or coloured
	 * (a full-colour tileset); for grey, whether the glyphs are light on
	 * dark or dark on light. */
	size_t visible = 0, coloured = 0;
	uint64_t lum_sum = 0, alpha_sum = 0;
	size_t hist[256] = {0};
	for (size_t i = 0; i < npx; i++) {
		if (!(word[i] & amask))
			continue;
		const stbi_uc *p = px + i * 4;
		visible++;
		if ((p[0] != p[1] || p[1] != p[2]) && !(keyed && fringe(p, key)))
			coloured++;
		unsigned lum = ((unsigned)p[0] + p[1] + p[2]) / 3;
		lum_sum += (uint64_t)lum * p[3];
		alpha_sum += p[3];
		hist[lum]++;
	}
	bool grey = coloured * 2 < visible, dark;
	if (!opaque || keyed) {
		/* the visible pixels are the glyphs */
		dark = alpha_sum && lum_sum < alpha_sum * 128;
	} else {
		/* an opaque sheet: the commonest level, if it covers a quarter
		 * of the sheet, is the ground */
		size_t best = 0;
		for (int v = 1; v < 256; v++)
			if (hist[v] > hist[best])
				best = (size_t)v;
		dark = best >= 128 && hist[best] * 4 >= npx;
	}
	rc = font_alloc(&f, cw, ch, 256, !grey);
	if (rc) {
		fail(err, errlen, name, rc, "out of memory");
		goto out;
	}
	for (int g = 0; g < 256; g++) {
		size_t gx = (size_t)(g % cols) * (size_t)cw, gy = (size_t)(g / cols) * (size_t)ch;
		size_t o = (size_t)g * (size_t)cw * (size_t)ch;
		for (size_t y = 0; y < (size_t)ch; y++) {
			const stbi_uc *p = px + ((gy + y) * (size_t)w + gx) * 4;
			for (size_t x = 0; x < (size_t)cw; x++, o++, p += 4) {
				if (grey) {
					f->coverage[o] = p[3] ? pixel_coverage(p, dark, keyed, key) : 0;
				} else {
					f->coverage[o] = p[3];
					f->colour[o] = (uint32_t)p[3] << 24 | (uint32_t)p[0] << 16 |
						       (uint32_t)p[1] << 8 | p[2];
				}
			}
		}
	}
	if (cols == 16) {
		rc = map_cp437(&m, 256, name, err, errlen);
	} else {
		rc = 0;
		for (int g = 0; g < 160 && !rc; g++)
			if (tcod_to_unicode[g])
				rc = map_add(&m, tcod_to_unicode[g], g);
		if (rc)
			fail(err, errlen, name, rc, "out of memory");
	}
	rc = font_done(out, f, &m, rc, name, err, errlen);
out:
	stbi_image_free(px);
	return rc;
}

/* ---- PSF console fonts ---------------------------------------------- */

/* A font of n glyphs of w×h from n packed 1-bit bitmaps of charsize bytes
 * each (rows padded to bytes, MSB left); a failure is written into err. */
static int psf_glyphs(struct font **out, int w, int h, int n, const uint8_t *bits, size_t charsize,
		      const char *name, char *err, size_t errlen)
{
	struct font *f;
	int rc = font_alloc(&f, w, h, n, false);
	if (rc)
		return fail(err, errlen, name, rc, "out of memory");
	size_t row = ((size_t)w + 7) / 8;
	uint8_t *c = f->coverage;
	for (int g = 0; g < n; g++) {
		const uint8_t *b = bits + (size_t)g * charsize;
		for (size_t y = 0; y < (size_t)h; y++)
			for (size_t x = 0; x < (size_t)w; x++)
				*c++ = (b[y * row + x / 8] >> (7 - x % 8)) & 1 ? 255 : 0;
	}
	*out = f;
	return 0;
}

/* Reads a PSF1 Unicode table for n glyphs from d[p..len): per glyph 16-bit
 * little-endian code points, 0xFFFE before its sequences, 0xFFFF at its end.
 * A failure is written into err. */
static int psf1_table(struct maplist *m, const uint8_t *d, size_t len, size_t p, int n, const char *name,
		      char *err, size_t errlen)
{
	for (int g = 0; g < n; g++) {
		bool seq = false;
		for (;;) {
			if (p + 2 > len)
				return fail(err, errlen, name, -EINVAL, "Unicode table truncated at glyph %d of %d", g,
					    n);
			unsigned v = d[p] | (unsigned)d[p + 1] << 8;
			p += 2;
			if (v == 0xFFFF)
				break;
			if (v == 0xFFFE)
				seq = true; /* sequences follow: not single code points */
			else if (!seq && map_add(m, v, g))
				return fail(err, errlen, name, -ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* Reads a PSF2 Unicode table for n glyphs from d[p..len): per glyph UTF-8
 * code points, 0xFE before its sequences, 0xFF at its end. A failure is
 * written into err. */
static int psf2_table(struct maplist *m, const uint8_t *d, size_t len, size_t p, uint32_t n, const char *name,
		      char *err, size_t errlen)
{
	for (uint32_t g = 0; g < n; g++) {
		bool seq = false;
		for (;;) {
			if (p >= len)
				return fail(err, errlen, name, -EINVAL, "Unicode table truncated at glyph %u of %u", g,
					    n);
			uint8_t b = d[p];
			if (b == 0xFF) {
				p++;
				break;
			}
			if (b == 0xFE) {
				seq = true; /* sequences follow */
				p++;
				continue;
			}
			/* at most the 4 bytes of one UTF-8 sequence: 0xFE and 0xFF
			 * are never part of one, so the decoder stops at them
			 * (scanning to the separator for every code point was
			 * quadratic in the table's length) */
			size_t n4 = len - p < 4 ? len - p : 4;
			uint32_t cp;
			size_t used = utf8_decode((const char *)d + p, n4, &cp);
			bool bad = cp == 0xFFFD && used == 1; /* malformed: skip a byte */
			p += used;
			if (!seq && !bad && map_add(m, cp, (int32_t)g))
				return fail(err, errlen, name, -ENOMEM, "out of memory");
		}
	}
	return 0;
}


static int load_psf1(struct font **out, const uint8_t *d, size_t len, const char *name, char *err,
		     size_t errlen)
{
	struct font *f = NULL;
	struct maplist m = {0};
	if (len < 4)
		return fail(err, errlen, name, -EINVAL, "PSF1 header truncated (%zu bytes)", len);
	unsigned mode = d[2], charsize = d[3];
	int n = mode & 0x01 ? 512 : 256;
	if (mode > 0x07)
		return fail(err, errlen, name, -EINVAL, "PSF1 mode 0x%02x is not valid", mode);
	if (charsize == 0)
		return fail(err, errlen, name, -EINVAL, "PSF1 glyphs are 0 pixels tall");
	size_t end = 4 + (size_t)n * charsize;
	if (len < end)
		return fail(err, errlen, name, -EINVAL,
			    "file is %zu bytes, too short for %d glyphs of 8×%u (truncated?)", len, n, charsize);
	int rc = psf_glyphs(&f, 8, (int)charsize, n, d + 4, charsize, name, err, errlen);
	if (rc)
		return rc;
	if (mode & 0x06)
		rc = psf1_table(&m, d, len, end, n, name, err, errlen);
	else
		rc = map_cp437(&m, n, name, err, errlen);
	return font_done(out, f, &m, rc, name, err, errlen);
}

static int load_psf2(struct font **out, const uint8_t *d, size_t len, const char *name, char *err,
		     size_t errlen)
{
	struct font *f = NULL;
	struct maplist m = {0};
	if (len < 32)
		return fail(err, errlen, name, -EINVAL, "PSF2 header truncated (%zu bytes)", len);
	uint32_t version = le32(d + 4), hsize = le32(d + 8), flags = le32(d + 12);
	uint32_t n = le32(d + 16), charsize = le32(d + 20), h = le32(d + 24), w = le32(d + 28);
	if (version != 0)
		return fail(err, errlen, name, -EINVAL, "unsupported PSF2 version %u", version);
	if (hsize < 32 || hsize > len)
		return fail(err, errlen, name, -EINVAL, "PSF2 header size %u does not fit a %zu-byte file", hsize,
			    len);
	if (n == 0)
		return fail(err, errlen, name, -EINVAL, "PSF2 font has 0 glyphs");
	if (n > FONT_MAX_GLYPHS)
		return fail(err, errlen, name, -EINVAL, "PSF2 font claims %u glyphs (at most %d)", n,
			    FONT_MAX_GLYPHS);
	if (w == 0 || h == 0 || w > FONT_MAX_CELL || h > FONT_MAX_CELL)
		return fail(err, errlen, name, -EINVAL, "PSF2 glyph size %u×%u is impossible (1..%d each)", w, h,
			    FONT_MAX_CELL);
	if (charsize != h * ((w + 7) / 8))
		return fail(err, errlen, name, -EINVAL, "PSF2 glyphs of %u bytes do not match their size %u×%u",
			    charsize, w, h);
	/* n ≤ 65535 and charsize ≤ 256 × 32: no overflow in 64 bits or size_t. */
	uint64_t end = (uint64_t)hsize + (uint64_t)n * charsize;
	if (end > len)
		return fail(err, errlen, name, -EINVAL,
			    "file is %zu bytes, too short for %u glyphs of %u×%u (truncated?)", len, n, w, h);
	if ((uint64_t)n * w * h > FONT_MAX_PIXELS)
		return fail(err, errlen, name, -EFBIG, "%u glyphs of %u×%u are too many pixels", n, w, h);
	int rc = psf_glyphs(&f, (int)w, (int)h, (int)n, d + hsize, charsize, name, err, errlen);
	if (rc)
		return rc;
	if (flags & 0x01)
		rc = psf2_table(&m, d, len, (size_t)end, n, name, err, errlen);
	else
		rc = map_cp437(&m, (int)n, name, err, errlen);
	return font_done(out, f, &m, rc, name, err, errlen);
}

/* ---- reading ---------------------------------------------------------- */

/* Doubles *buf (64 KiB at first) up to one byte more than FONT_MAX_FILE, so
 * that a larger file shows: -EFBIG when *cap is already past that, -ENOMEM. */
static int grow(uint8_t **buf, size_t *cap)
{
	if (*cap > FONT_MAX_FILE)
		return -EFBIG;
	size_t nc = *cap ? *cap * 2 : 64 << 10;
	if (nc > (size_t)FONT_MAX_FILE + 1)
		nc = (size_t)FONT_MAX_FILE + 1;
	uint8_t *nb = realloc(*buf, nc);
	if (!nb)
		return -ENOMEM;
	*buf = nb;
	*cap = nc;
	return 0;
}

/* ---- gzip ----------------------------------------------------------- */

static int gunzip(const uint8_t *d, size_t len, uint8_t **out, size_t *outlen, const char *name, char *err,
		  size_t errlen)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	size_t cap = 0, n = 0;
	uint8_t *buf = NULL;
	int rc = 0;
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
		return fail(err, errlen, name, -ENOMEM, "cannot start gzip decompression");
	zs.next_in = (Bytef *)(uintptr_t)d; /* zlib does not write through it */
	zs.avail_in = (uInt)len;
	for (;;) {
		if (n == cap && (rc = grow(&buf, &cap))) {
			if (rc == -EFBIG)
				fail(err, errlen, name, rc, "decompresses to more than %u MiB", FONT_MAX_FILE >> 20);
			else
				fail(err, errlen, name, rc, "out of memory");
			goto out;
		}
		zs.next_out = buf + n;
		zs.avail_out = (uInt)(cap - n);
		int z = inflate(&zs, Z_NO_FLUSH);
		n = cap - zs.avail_out;
		if (z == Z_STREAM_END)
			break;
		if (z == Z_OK)
			continue;
		if (z == Z_BUF_ERROR && zs.avail_out > 0) {
			rc = fail(err, errlen, name, -EINVAL, "gzip data is truncated");
			goto out;
		}
		if (z == Z_BUF_ERROR)
			continue;
		rc = fail(err, errlen, name, z == Z_MEM_ERROR ? -ENOMEM : -EINVAL, "corrupt gzip data (%s)",
			  zs.msg ? zs.msg : "zlib error");
		goto out;
	}
	if (n > FONT_MAX_FILE) {
		rc = fail(err, errlen, name, -EFBIG, "decompresses to more than %u MiB", FONT_MAX_FILE >> 20);
		goto out;
	}
	*out = buf;
	*outlen = n;
	buf = NULL;
out:
	inflateEnd(&zs);
	free(buf);
	return rc;
}

/* ---- entry points ----------------------------------------------------- */

static const uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
static const uint8_t psf2_magic[4] = {0x72, 0xB5, 0x4A, 0x86};

static int load_any(struct font **out, const uint8_t *d, size_t len, const char *name, enum font_layout layout,
		    bool inner, char *err, size_t errlen)
{
	if (len >= 8 && !memcmp(d, png_sig, 8) && !inner)
		return load_image(out, d, len, name, "PNG", layout, err, errlen);
	if (len >= 2 && d[0] == 'B' && d[1] == 'M' && !inner)
		return load_image(out, d, len, name, "BMP", layout, err, errlen);
	if (len >= 2 && d[0] == 0x36 && d[1] == 0x04)
		return load_psf1(out, d, len, name, err, errlen);
	if (len >= 4 && !memcmp(d, psf2_magic, 4))
		return load_psf2(out, d, len, name, err, errlen);
	if (len >= 2 && d[0] == 0x1F && d[1] == 0x8B && !inner) {
		uint8_t *u = NULL;
		size_t ulen = 0;
		int rc = gunzip(d, len, &u, &ulen, name, err, errlen);
		if (rc)
			return rc;
		rc = load_any(out, u, ulen, name, layout, true, err, errlen);
		free(u);
		return rc;
	}
	if (inner)
		return fail(err, errlen, name, -EINVAL, "gzip content is not a PSF1/PSF2 console font (bad magic)");
	if (len == 0)
		return fail(err, errlen, name, -EINVAL, "file is empty");
	return fail(err, errlen, name, -EINVAL,
		    "not a font (bad magic): expected a PNG/BMP tileset or a PSF1/PSF2 console font, "
		    "plain or gzip-compressed");
}

static void set_name(struct font *f, const char *name)
{
	const char *b = strrchr(name, '/');
	b = b ? b + 1 : name;
	snprintf(f->name, sizeof f->name, "%s", b);
}

int font_load_mem(struct font **out, const void *data, size_t len, const char *name, char *err, size_t errlen)
{
	return font_load_mem_as(out, data, len, name, FONT_LAYOUT_AUTO, err, errlen);
}

int font_load_mem_as(struct font **out, const void *data, size_t len, const char *name, enum font_layout layout,
		     char *err, size_t errlen)
{
	*out = NULL;
	if (!name)
		name = "(font)";
	if (err && errlen)
		err[0] = 0;
	if (!data && len)
		return fail(err, errlen, name, -EINVAL, "no data");
	if (len > FONT_MAX_FILE)
		return fail(err, errlen, name, -EFBIG, "file is %zu bytes, more than the %u MiB a font may have",
			    len, FONT_MAX_FILE >> 20);
	int rc = load_any(out, data ? data : "", len, name, layout, false, err, errlen);
	if (rc == 0)
		set_name(*out, name);
	return rc;
}

int font_load(struct font **out, const char *path, char *err, size_t errlen)
{
	return font_load_as(out, path, FONT_LAYOUT_AUTO, err, errlen);
}

int font_load_as(struct font **out, const char *path, enum font_layout layout, char *err, size_t errlen)
{
	*out = NULL;
	/* O_NONBLOCK: opening a FIFO nobody writes to must not wait forever */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;
		return fail(err, errlen, path, -e, "cannot open font: %s", strerror(e));
	}
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		rc = fail(err, errlen, path, -e, "cannot read font: %s", strerror(e));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = fail(err, errlen, path, -EISDIR, "is a directory, not a font file");
		goto out;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		rc = fail(err, errlen, path, -EINVAL, "is a %s, not a font file",
			  S_ISCHR(st.st_mode) ? "character device" : S_ISBLK(st.st_mode) ? "block device" :
			  S_ISSOCK(st.st_mode) ? "socket" : "special file");
		goto out;
	}
	/* A pipe (--font <(zcat f.psf.gz)) is read to its end, waiting for a
	 * writer that is there; one with no writer reads as empty. */
	if (S_ISFIFO(st.st_mode)) {
		int fl = fcntl(fd, F_GETFL);
		if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
			int e = errno;
			rc = fail(err, errlen, path, -e, "cannot read font: %s", strerror(e));
			goto out;
		}
	}
	for (;;) {
		if (n == cap && (rc = grow(&buf, &cap))) {
			if (rc == -EFBIG)
				fail(err, errlen, path, rc, "file is more than the %u MiB a font may have",
				     FONT_MAX_FILE >> 20);
			else
				fail(err, errlen, path, rc, "out of memory");
			goto out;
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			rc = fail(err, errlen, path, -e, "cannot read font: %s", strerror(e));
			goto out;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n == 0 && S_ISFIFO(st.st_mode))
		rc = fail(err, errlen, path, -EINVAL, "is a pipe that nothing was written to; give a font file");
	else
		rc = font_load_mem_as(out, buf, n, path, layout, err, errlen);
out:
	free(buf);
	close(fd);
	return rc;
}

void font_destroy(struct font *f)
{
	if (!f)
		return;
	free(f->coverage);
	free(f->colour);
	free(f->map);
	free(f->pagemem);
	free(f);
}

int font_glyph(const struct font *f, uint32_t cp)
{
	if (cp < 0x10000)
		return f->page[cp >> 8][cp & 0xFF];
	int32_t g = map_find(f, cp);
	return g >= 0 ? g : f->replacement;
}

bool font_has(const struct font *f, uint32_t cp)
{
	int32_t g = map_find(f, cp);
	return g >= 0 && g < f->nfile;
}

/* ---- candidates of the automatic choice ------------------------------ */

/* The cell size of the PNG/BMP sheet whose first n bytes are d, from its
 * header alone, as load_image would find it; false when the header does
 * not give one (not a sheet, damaged, no grid). */
static bool sheet_cell(const uint8_t *d, size_t n, const char *name, int *cw, int *ch)
{
	int w, h, comp;
	bool image = (n >= 8 && !memcmp(d, png_sig, 8)) || (n >= 2 && d[0] == 'B' && d[1] == 'M');
	if (!image || !stbi_info_from_memory(d, (int)n, &w, &h, &comp))
		return false;
	int cols = sheet_grid(w, h, name, FONT_LAYOUT_AUTO, NULL, 0);
	if (!cols)
		return false;
	*cw = w / cols;
	*ch = h / (256 / cols);
	return *cw <= FONT_MAX_CELL && *ch <= FONT_MAX_CELL;
}

int font_cands_add(struct font_cands *c, const char *path, char *err, size_t errlen)
{
	if (c->n >= FONT_CANDS_MAX)
		return fail(err, errlen, path, -ENOSPC, "more than %d font candidates", FONT_CANDS_MAX);
	struct font_cand *k = &c->c[c->n];
	*k = (struct font_cand){ .path = strdup(path) };
	if (!k->path)
		return fail(err, errlen, path, -ENOMEM, "out of memory");
	/* a PNG's size is in its IHDR chunk (bytes 16..23), a BMP's in its
	 * first 54 bytes: the first 256 hold either */
	uint8_t head[256];
	ssize_t n = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		n = pread(fd, head, sizeof head, 0);
	if (fd >= 0)
		close(fd);
	if (n <= 0 || !sheet_cell(head, (size_t)n, path, &k->cell_w, &k->cell_h)) {
		/* not a sheet whose size the header tells: decode it now (and
		 * say what is wrong with it now) */
		const struct font *f;
		c->n++;
		int rc = font_cands_get(c, c->n - 1, &f, err, errlen);
		if (rc) {
			c->n--;
			free(k->path);
			*k = (struct font_cand){ 0 };
			return rc;
		}
		k->cell_w = f->cell_w;
		k->cell_h = f->cell_h;
		return 0;
	}
	c->n++;
	return 0;
}

int font_cands_get(struct font_cands *c, int i, const struct font **out, char *err, size_t errlen)
{
	struct font_cand *k = &c->c[i];
	if (!k->font) {
		c->decodes++;
		int rc = font_load(&k->font, k->path, err, errlen);
		if (!rc && k->cell_w && (k->font->cell_w != k->cell_w || k->font->cell_h != k->cell_h)) {
			font_destroy(k->font);
			k->font = NULL;
			rc = fail(err, errlen, k->path, -EINVAL, "file changed while pirogue ran");
		}
		if (rc) {
			size_t used = err && errlen ? strlen(err) : 0;
			if (c->advice && used + 1 < errlen)
				snprintf(err + used, errlen - used, " %s", c->advice);
			return rc;
		}
	}
	*out = k->font;
	return 0;
}

void font_cands_clear(struct font_cands *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->n; i++) {
		font_destroy(c->c[i].font);
		free(c->c[i].path);
		c->c[i] = (struct font_cand){ 0 };
	}
	c->n = 0;
	c->decodes = 0;
}

bool font_lines_apart(const struct font *f)
{
	bool top = true, bottom = true;
	size_t w = (size_t)f->cell_w, last = (size_t)(f->cell_h - 1) * w;
	for (uint32_t cp = '!'; cp <= '~' && (top || bottom); cp++) {
		if (!font_has(f, cp))
			continue;
		const uint8_t *c = font_coverage(f, font_glyph(f, cp));
		for (size_t x = 0; x < w; x++) {
			top = top && !c[x];
			bottom = bottom && !c[last + x];
		}
	}
	return top || bottom;
}
