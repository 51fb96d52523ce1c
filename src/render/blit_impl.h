/* blit_impl: the blitter's private insides, shared by blit_setup.c (fonts turned, caches, sheets), blit.c (damage, bands), blit_band.c (pixels) and blit_move.c. */
#ifndef PIROGUE_RENDER_BLIT_IMPL_H
#define PIROGUE_RENDER_BLIT_IMPL_H
#include "render/blit.h"
#include "render/console.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
#define BLIT_TSLOTS 256          /* composed tile pictures kept */

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
	uint8_t *bits; /* nglyphs × gh × bpr; NULL until made (or without memory) */
	uint8_t *bits_done; /* per glyph: its bits are filled in (on its first draw) */
	bool tried;    /* bits were made (or could not be) */
	int base, du, dv; /* oriented (u, v) -> font pixel base + u*du + v*dv */
	/* Blended and colour glyphs, oriented and scaled horizontally, for
	 * XRGB8888 (blend[0]) and RGB565 (blend[1]); each built on the first
	 * draw in its format. */
	struct pxrows {
		/* per glyph gh rows of rowb bytes, at off[glyph] (SIZE_MAX:
		 * none); NULL: the per-pixel path. bwp: the scaled width
		 * rounded up to 8. XRGB8888: a row holds bwp pixels of four
		 * 16-bit lanes: a,a,a,a (the coverage), or for colour
		 * tilesets the tile's B*a+128, G*a+128, R*a+128 and 255 - a
		 * (a its alpha; the blend spreads the last lane over the
		 * pixel's four: one shuffle, then one multiply and one add,
		 * as coverage's; 8 bytes a pixel either way). RGB565: planes of gh rows of bwp 16-bit
		 * lanes (rowb = 2 bwp): a, then for colour tilesets B, G and
		 * R; the buffer has 32 bytes to spare, so a 16-lane read
		 * from any row stays inside it. */
		uint8_t *px;
		size_t *off;
		uint8_t *done; /* per glyph: its rows are filled in (on its first draw) */
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
	size_t rowb;         /* their pxrows' rowb */
	int sx0;
	bool colour;         /* from a colour font (the text font's or the map sheet's) */
	uint32_t fg, bg;     /* 0xRRGGBB */
};

/* A damaged cell drawn pixel by pixel (blended, colour or clipped). */
struct job {
	const struct font *f; /* the font glyph is in (the text font, or the map sheet's halves) */
	int sx0;      /* surface x of the cell's (unclipped) left edge */
	int u0, u1;   /* visible columns of the cell, 0 <= u0 < u1 <= band cell width */
	int glyph;
	uint32_t fg, bg; /* 0xRRGGBB */
};

/* A damaged cell copied from the cell cache: its pixels as the blend path
 * drew them before (bw × bh, rows bw pixels apart). */
struct cjob {
	const uint8_t *px;
	int sx0;
};

/* What one pass over a band draws. */
struct band {
	const struct orient *o;
	int sy0;      /* surface y of the band's top row (may be < 0) */
	int bw, bh;   /* a cell's size on the surface */
	int nf, ns, nb, nc, nw;
	bool stream;  /* a whole draw onto the surface: the blend path's 8-pixel
		       * runs may bypass the cache (AVX2, AVX-512; aligned rows) */
	struct fjob fast[BLIT_JOBS];
	struct job slow[BLIT_JOBS];
	struct bjob blend[BLIT_JOBS];
	struct cjob copy[BLIT_JOBS]; /* only in bands wholly on the surface */
	/* whole wide map cells (a CON_WIDE head and its CON_TAIL) copied from
	 * the cell cache's wide slots: 2 bw pixels a row; only in a damaged
	 * draw (never streamed) at rotation 0 */
	struct cjob wide[BLIT_JOBS];
};

/* The cell cache: blend-path cells (anti-aliased or colour glyphs, tile
 * pictures: the costly ones) as they come out on the surface, by the
 * console cell they show (its code point, colours, tile and flags: what
 * its pixels depend on besides the fonts and sheets, whose change empties
 * the cache), for one rotation and format at a time; a cell drawn again
 * is found from its contents alone (no glyph looked up) and is bh row
 * copies instead of a blend. Direct-mapped: a slot keeps the last cell
 * hashed to it. */
/* Slots i and i ^ 1 are a set (cc_index, cc_other): a cell may be kept in
 * either. */
struct cell_cache {
	struct con_cell *key; /* per slot: the cell it holds or noted */
	uint8_t *state;       /* per slot: CC_EMPTY, CC_NOTED or CC_DRAWN */
	uint8_t *px;        /* slots × cellb bytes */
	size_t cellb;       /* bytes of one cell's pixels (bw × bh × bpp at the largest bpp) */
	uint32_t mask;      /* slots - 1 */
	int r, fmt;         /* the rotation index and format the slots hold (-1: none) */
	bool tried;         /* allocated (or could not be) */
	int want;           /* blit_set_cell_cache's slots (-1: the default) */
	struct band *one;   /* scratch: one cell drawn into a slot */
	/* Wide slots: a whole map cell two text cells wide (its head, whose
	 * tail is the head with CON_TAIL for CON_WIDE), rows of 2 bw pixels,
	 * found by the head's contents (cc_index's slot & wmask) and copied
	 * with one look-up and whole 2 bw rows instead of two halves. Made
	 * from the two halves' slots (both drawn there) the second time the
	 * head is seen; rotation 0 and damaged draws only. NULL: none. */
	struct con_cell *wkey;
	uint8_t *wstate;
	uint8_t *wpx;       /* wslots × 2 cellb bytes */
	uint32_t wmask;     /* wide slots - 1 */
};

struct blitter {
	/* byte of mask bits -> 8 lanes of 0 / ~0 (aligned by hand: built
	 * without -mavx a 32-byte vector type is aligned to 16 only, but the
	 * AVX2 and AVX-512 code may load these with aligned moves) */
	v8u32 lut32[256] __attribute__((aligned(64)));
	v4u32 lut4[16];   /* nibble -> 4 lanes */
	v8u16 lut16[256];
	const struct font *f;
	int scale;
	uint8_t *kind; /* GK_* per glyph */
	uint8_t *empty; /* per glyph: 1 when it covers no pixel (drawn as its background) */
	struct orient o[4];
	void (*draw_band)(const struct blitter *b, const struct band *bd, struct surface *s);
	struct {
		uint32_t cp;
		int32_t glyph;
	} cache[BLIT_GCACHE];
	struct band band; /* scratch for blit_draw */
	/* The map sheet (blit_set_map; NULL: none): its glyphs looked up by
	 * code point in map, drawn through half, a blitter of its halves
	 * (font_halves, owned with its font), a text cell each. */
	bool centred; /* blit_set_centred */
	const struct font *map;
	struct blitter *half;
	struct font *half_font;
	/* a map sheet given by blit_set_map_later, decoded on the first draw
	 * that holds a map cell (NULL: none pending) */
	struct font_cands *pend;
	int pend_i, pend_w, pend_h;
	struct {
		uint32_t cp;
		int32_t glyph;
	} mcache[BLIT_GCACHE];
	struct cell_cache cc;
	/* Tile pictures (blit_set_tiles; tiles NULL: none): each picture a
	 * cell shows (its layers, CON_PICTURE) is composed once into a slot
	 * of tfont (halves when twide: map cells two text cells wide) and
	 * drawn through tb, a blitter of tfont, like any colour glyph; thash
	 * finds a picture's slot (key: tile | picture flags << 16; slot -1:
	 * a picture the sheet lacks a layer of, drawn as its glyph). When
	 * every slot is taken they are all let go and composed again. */
	const struct font *tiles;
	struct font *tfont;
	struct blitter *tb;
	bool twide;
	int tused;
	uint8_t thave[256]; /* tile id -> the sheet has it */
	struct {
		uint32_t key; /* 0: empty */
		int32_t slot;
	} thash[4 * BLIT_TSLOTS];
	uint8_t coldmg[4096]; /* at 90/270: which console columns have damage
			       * (consoles are at most 4096 wide) */
};

/* rgb (0xRRGGBB) as an RGB565 pixel: the top 5/6/5 bits of each channel. */
static inline uint32_t to565(uint32_t rgb)
{
	return ((rgb >> 8) & 0xF800) | ((rgb >> 5) & 0x07E0) | ((rgb >> 3) & 0x001F);
}

/* Draws band bd onto s (blit_band.c): its mask cells, then its per-pixel
 * cells, then its blend-path cells, with the baseline instructions (SSE2 on
 * x86-64, NEON on arm). Never reads the surface. */
void blit_band_base(const struct blitter *b, const struct band *bd, struct surface *s);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BLIT_HAVE_AVX2 1
/* The same as blit_band_base, built for AVX2 (same pixels); only on CPUs
 * that have it (blit_create asks). */
void blit_band_avx2(const struct blitter *b, const struct band *bd, struct surface *s);
/* The same again with AVX-512 (F, BW, VL) for the blend path's usual
 * cells (same pixels); only on CPUs that have it. */
void blit_band_avx512(const struct blitter *b, const struct band *bd, struct surface *s);
#endif

/* The rotation index (0..3) of rotation degrees 0, 90, 180 or 270; -1 for
 * any other. */
static inline int rot_index(int rotation)
{
	switch (rotation) {
	case 0: return 0;
	case 90: return 1;
	case 180: return 2;
	case 270: return 3;
	default: return -1;
	}
}

/* The text font's glyph for code point cp (the font's replacement when it
 * has none), through b's glyph cache. */
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

/* The band gathered so far (b->band) drawn onto s, when it holds a job,
 * and emptied. */
static inline void flush_band(struct blitter *b, struct surface *s)
{
	struct band *bd = &b->band;
	if (bd->nf || bd->ns || bd->nb || bd->nc || bd->nw)
		b->draw_band(b, bd, s);
	bd->nf = bd->ns = bd->nb = bd->nc = bd->nw = 0;
}

/* The set-up the drawing uses (blit_setup.c: the font turned for each
 * rotation, the cell cache, the map and tile sheets). */

/* The mask bits of rotation index r, made on first use (each glyph's filled
 * in on its first draw: blit_glyph_bits). Without memory for them
 * (o[r].bits NULL) every cell takes the per-pixel path: slower, same
 * pixels. */
void blit_build_bits(struct blitter *b, int r);
/* Glyph g's mask bits of rotation index r filled in (b's bits made by
 * blit_build_bits; a no-op when they are). */
void blit_glyph_bits(const struct blitter *b, int r, int g);
/* The blend path's rows of rotation index r for XRGB8888 (rgb565 false) or
 * RGB565, made on the first draw in that format (each glyph's filled in on
 * its first draw: blit_glyph_px). Without memory for them (px NULL) those
 * cells take the per-pixel path: slower, same pixels. */
void blit_build_px(struct blitter *b, int r, bool rgb565);
/* Glyph g's blend rows of rotation index r and format rgb565 filled in
 * (b's made by blit_build_px, g not a mask glyph; a no-op when they are). */
void blit_glyph_px(const struct blitter *b, int r, bool rgb565, int g);
/* The pending map sheet (blit_set_map_later) decoded and set, when console
 * c holds a half of a wide map cell (it stays pending otherwise). */
void blit_map_due(struct blitter *b, const struct console *c);
/* The slot of cell's tile picture in b->tfont (composed now when new), or
 * -1: the cell has no picture, or the sheet lacks one of its layers (its
 * glyph is drawn). When every slot is taken they are all let go (and the
 * cell cache emptied) first; s: the surface being drawn (its gathered band
 * drawn before the slots are let go: its jobs may point at them), or NULL. */
int blit_tile_slot(struct blitter *b, const struct con_cell *cell, struct surface *s);
/* Whether the cell cache can serve a draw at rotation index r in format
 * rgb565: allocated on first use (cells of at most 16 KB, up to 4096 slots
 * in 4 MB, or blit_set_cell_cache's slots), emptied when the rotation or
 * the format changed (and by whoever changes a sheet: cc.r = -1). */
bool blit_cache_ready(struct blitter *b, int r, bool rgb565);

/* The surface rectangle (r: x, y, width, height) that the w×h logical
 * rectangle at logical (ox, oy) covers on s (its rotation, blit.h). */
void blit_surface_rect(const struct surface *s, int ox, int oy, int w, int h, int r[4]);

#endif
