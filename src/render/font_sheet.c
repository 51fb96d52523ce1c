/* font_sheet: PNG/BMP tileset sheets for the font loader: stb_image
 * decodes them; the sheet's grid (16×16 CP437 or 32×8 TCOD) and whether it
 * is greyscale coverage or full colour are worked out here. */
#include "render/font.h"
#include "render/font_int.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
/* Debian's libstb ships the implementation in libstb.so: declarations only
 * here (no STB_IMAGE_IMPLEMENTATION). */
#include <stb_image.h>

const uint8_t font_png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

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

/* Which grid a w×h sheet named name is: 16 (CP437, 16×16) or 32 (TCOD,
 * 32×8); else a negative errno with the reason in err: -EDOM when the
 * layout is what is wrong (the other one would fit, or both do and the
 * shape cannot tell them apart), -EINVAL when no grid fits at all. */
static int sheet_grid(int w, int h, const char *name, enum font_layout layout, char *err, size_t errlen)
{
	bool c16 = w >= 16 && h >= 16 && w % 16 == 0 && h % 16 == 0;
	bool t32 = w >= 32 && h >= 8 && w % 32 == 0 && h % 8 == 0;
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	if (layout == FONT_LAYOUT_AUTO && strstr(base, "_tc."))
		layout = FONT_LAYOUT_TCOD; /* libtcod's name for the layout */
	if (layout == FONT_LAYOUT_CP437 && !c16)
		return font_fail(err, errlen, name, t32 ? -EDOM : -EINVAL,
				 "image is %d×%d pixels, not a 16×16 grid of CP437 tiles (width and height must "
				 "divide by 16)%s", w, h, t32 ? ", but it fits the 32×8 grid of the TCOD layout" : "");
	if (layout == FONT_LAYOUT_TCOD && !t32)
		return font_fail(err, errlen, name, c16 ? -EDOM : -EINVAL,
				 "image is %d×%d pixels, not the 32×8 grid of libtcod's TCOD layout (the width must "
				 "divide by 32, the height by 8)%s", w, h,
				 c16 ? ", but it fits the 16×16 grid of the CP437 layout" : "");
	if (layout == FONT_LAYOUT_CP437 || (layout == FONT_LAYOUT_AUTO && c16 && !t32))
		return 16;
	if (layout == FONT_LAYOUT_TCOD || (layout == FONT_LAYOUT_AUTO && t32 && !c16))
		return 32;
	if (!c16 && !t32)
		return font_fail(err, errlen, name, -EINVAL,
				 "image is %d×%d pixels, not a 16×16 grid of tiles (width and height must divide by "
				 "16) nor the 32×8 grid of libtcod's TCOD layout", w, h);
	/* both grids fit: the one whose cells are square to twice as tall */
	if (h >= w && (long long)h <= 2LL * w) /* in 64 bits: a header may claim any size */
		return 16;
	if (4LL * h >= w && 4LL * h <= 2LL * w)
		return 32;
	return font_fail(err, errlen, name, -EDOM,
			 "cannot tell the layout of a %d×%d-pixel sheet (16×16 CP437 tiles of %d×%d or 32×8 TCOD "
			 "tiles of %d×%d)", w, h, w / 16, h / 16, w / 32, h / 8);
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

int font_load_image(struct font **out, const uint8_t *d, size_t len, const char *name, const char *kind,
		    enum font_layout layout, char *err, size_t errlen)
{
	struct font *f = NULL;
	struct maplist m = {0};
	stbi_uc *px = NULL;
	int w, h, comp, rc;

	if (!stbi_info_from_memory(d, (int)len, &w, &h, &comp))
		return font_fail(err, errlen, name, -EINVAL, "not a readable %s image (%s)", kind,
				 stbi_failure_reason() ? stbi_failure_reason() : "unknown error");
	int cols = sheet_grid(w, h, name, layout, err, errlen);
	if (cols <= 0) /* (never 0: 16 or 32 columns; said for cppcheck's zerodivcond) */
		return cols < 0 ? cols : -EINVAL;
	int rows = 256 / cols;
	int cw = w / cols, ch = h / rows;
	if (cw > FONT_MAX_CELL || ch > FONT_MAX_CELL)
		return font_fail(err, errlen, name, -EFBIG, "tiles of %d×%d pixels are larger than %d×%d", cw, ch,
				 FONT_MAX_CELL, FONT_MAX_CELL);
	int w2, h2;
	px = stbi_load_from_memory(d, (int)len, &w2, &h2, &comp, 4);
	if (!px)
		return font_fail(err, errlen, name, -EINVAL, "cannot decode %s image (%s)", kind,
				 stbi_failure_reason() ? stbi_failure_reason() : "unknown error");
	if (w2 != w || h2 != h) {
		rc = font_fail(err, errlen, name, -EINVAL, "%s image size changed while decoding", kind);
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
	/* opaque: every alpha 255 (two pixels a step; stop at the first that
	 * is not) */
	uint64_t acc2 = ~(uint64_t)0, amask2 = (uint64_t)amask << 32 | amask;
	size_t i0 = 0;
	for (; i0 + 2 <= npx && (acc2 & amask2) == amask2; i0 += 2) {
		uint64_t two;
		memcpy(&two, word + i0, 8);
		acc2 &= two;
	}
	acc = (uint32_t)acc2 & (uint32_t)(acc2 >> 32);
	for (; i0 < npx; i0++)
		acc &= word[i0];
	opaque = (acc & amask) == amask;
	if (opaque) {
		bool uniform = true;
		for (int y = 0; y < ch && uniform; y++)
			for (int x = 0; x < cw && uniform; x++)
				uniform = !memcmp(px + ((size_t)y * (size_t)w + (size_t)x) * 4, px, 4);
		if (uniform) {
			keyed = true;
			memcpy(key, px, 4);
		}
	}
	/* keyed: a pixel of the key's colour is a transparent one (word 0),
	 * made so in the passes below rather than by a pass of its own */
	const uint32_t kword = keyed ? word[0] : 0;
	/* What most visible pixels are: grey (a coverage sheet) or coloured
	 * (a full-colour tileset); for grey, whether the glyphs are light on
	 * dark or dark on light. */
	size_t visible = 0, coloured = 0;
	uint64_t lum_sum = 0, alpha_sum = 0;
	size_t hist[256] = {0};
	for (size_t i = 0; i < npx; i++) {
		if (keyed && word[i] == kword)
			word[i] = 0;
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
		font_fail(err, errlen, name, rc, "out of memory");
		goto out;
	}
	for (int g = 0; g < 256; g++) {
		size_t gx = (size_t)(g % cols) * (size_t)cw, gy = (size_t)(g / cols) * (size_t)ch;
		size_t o = (size_t)g * (size_t)cw * (size_t)ch;
		for (size_t y = 0; y < (size_t)ch; y++) {
			const stbi_uc *p = px + ((gy + y) * (size_t)w + gx) * 4;
			for (size_t x = 0; x < (size_t)cw; x++, o++, p += 4) {
				uint32_t wv;
				memcpy(&wv, p, 4);
				if (!wv) /* transparent black: font_alloc's zeroes stand */
					continue;
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
		rc = font_map_cp437(&m, 256, name, err, errlen);
	} else {
		rc = 0;
		for (int g = 0; g < 160 && !rc; g++)
			if (tcod_to_unicode[g])
				rc = font_map_add(&m, tcod_to_unicode[g], g);
		if (rc)
			font_fail(err, errlen, name, rc, "out of memory");
	}
	rc = font_done(out, f, &m, rc, name, err, errlen);
out:
	stbi_image_free(px);
	return rc;
}

/* The cell size of the PNG/BMP sheet whose first n bytes are d, from its
 * header alone, as load_image would find it; false when the header does
 * not give one (not a sheet, damaged, no grid). */
bool font_sheet_cell(const uint8_t *d, size_t n, const char *name, int *cw, int *ch)
{
	int w, h, comp;
	bool image = (n >= 8 && !memcmp(d, font_png_sig, 8)) || (n >= 2 && d[0] == 'B' && d[1] == 'M');
	if (!image || !stbi_info_from_memory(d, (int)n, &w, &h, &comp))
		return false;
	int cols = sheet_grid(w, h, name, FONT_LAYOUT_AUTO, NULL, 0);
	if (cols <= 0) /* (never 0, as above) */
		return false;
	*cw = w / cols;
	*ch = h / (256 / cols);
	return *cw <= FONT_MAX_CELL && *ch <= FONT_MAX_CELL;
}

bool font_image_size(const uint8_t *d, size_t n, int *w, int *h)
{
	int comp;
	return n <= (size_t)INT32_MAX && stbi_info_from_memory(d, (int)n, w, h, &comp);
}

uint8_t *font_image_rgba(const uint8_t *d, size_t n, int *w, int *h, const char **why)
{
	int comp;
	stbi_uc *px = n <= (size_t)INT32_MAX ? stbi_load_from_memory(d, (int)n, w, h, &comp, 4) : NULL;
	if (!px)
		*why = stbi_failure_reason() ? stbi_failure_reason() : "unknown error";
	return px;
}

void font_image_free(uint8_t *px)
{
	stbi_image_free(px);
}
