/* font: the struct font core: the glyph map and its direct page index, the
 * replacement glyph, font_glyph/font_has, font_destroy, and font_load*,
 * which read the file and hand it to the loader its content names
 * (font_sheet.c for PNG/BMP, font_psf.c for PSF1/PSF2 and gzip). Every size
 * read from a file is checked before it is used: any input, however broken,
 * yields either a font or one error line. */
#include "render/font.h"
#include "render/font_int.h"
#include "core/utf8.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
int font_fail(char *err, size_t errlen, const char *name, int rc, const char *fmt, ...)
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

/* ---- building a font ------------------------------------------------- */

int font_map_add(struct maplist *m, uint32_t cp, int32_t glyph)
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
int font_alloc(struct font **out, int w, int h, int n, bool colour)
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
		font_draw_builtin(c, f->cell_w, f->cell_h, missing[i]);
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
int font_map_cp437(struct maplist *m, int n, const char *name, char *err, size_t errlen)
{
	int rc = 0;
	for (int g = 0; g < n && g < 256 && !rc; g++)
		rc = font_map_add(m, cp437_to_unicode[g], g);
	for (size_t i = 0; i < sizeof cp437_alias / sizeof *cp437_alias && !rc; i++)
		if (cp437_alias[i].byte < n)
			rc = font_map_add(m, cp437_alias[i].cp, cp437_alias[i].byte);
	return rc ? font_fail(err, errlen, name, rc, "out of memory") : 0;
}

/* The end of every loader. rc is 0 when m holds f's code points, else the
 * error already written into err. Builds f's index and hands f to *out; on
 * any failure frees f. Frees m's memory either way. */
int font_done(struct font **out, struct font *f, struct maplist *m, int rc, const char *name, char *err,
	      size_t errlen)
{
	if (!rc && !f) /* never: said for the clang analyzer, which cannot follow the variadic font_fail() */
		rc = -EINVAL;
	if (!rc) {
		int g = 0;
		while (g < f->nglyphs && glyph_blank(f, g))
			g++;
		if (g == f->nglyphs)
			rc = font_fail(err, errlen, name, -EINVAL,
				       "every glyph is blank (a truncated or damaged file?): nothing could be drawn "
				       "with it");
	}
	if (!rc && (rc = font_finish(f, m)))
		font_fail(err, errlen, name, rc, "out of memory");
	free(m->e);
	if (rc) {
		font_destroy(f);
		return rc;
	}
	*out = f;
	return 0;
}

/* ---- reading ---------------------------------------------------------- */

/* Doubles *buf (64 KiB at first) up to one byte more than FONT_MAX_FILE, so
 * that a larger file shows: -EFBIG when *cap is already past that, -ENOMEM. */
int font_grow(uint8_t **buf, size_t *cap)
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

/* ---- entry points ----------------------------------------------------- */

static const uint8_t psf2_magic[4] = {0x72, 0xB5, 0x4A, 0x86};

static int load_any(struct font **out, const uint8_t *d, size_t len, const char *name, enum font_layout layout,
		    bool inner, char *err, size_t errlen)
{
	if (len >= 8 && !memcmp(d, font_png_sig, 8) && !inner)
		return font_load_image(out, d, len, name, "PNG", layout, err, errlen);
	if (len >= 2 && d[0] == 'B' && d[1] == 'M' && !inner)
		return font_load_image(out, d, len, name, "BMP", layout, err, errlen);
	if (len >= 2 && d[0] == 0x36 && d[1] == 0x04)
		return font_load_psf1(out, d, len, name, err, errlen);
	if (len >= 4 && !memcmp(d, psf2_magic, 4))
		return font_load_psf2(out, d, len, name, err, errlen);
	if (len >= 2 && d[0] == 0x1F && d[1] == 0x8B && !inner) {
		uint8_t *u = NULL;
		size_t ulen = 0;
		int rc = font_gunzip(d, len, &u, &ulen, name, err, errlen);
		if (rc)
			return rc;
		rc = load_any(out, u, ulen, name, layout, true, err, errlen);
		free(u);
		return rc;
	}
	if (inner)
		return font_fail(err, errlen, name, -EINVAL, "gzip content is not a PSF1/PSF2 console font (bad magic)");
	if (len == 0)
		return font_fail(err, errlen, name, -EINVAL, "file is empty");
	return font_fail(err, errlen, name, -EINVAL,
			 "not a font (bad magic): neither a PNG/BMP tileset nor a PSF1/PSF2 console font, "
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
		return font_fail(err, errlen, name, -EINVAL, "no data");
	if (len > FONT_MAX_FILE)
		return font_fail(err, errlen, name, -EFBIG, "file is %zu bytes, more than the %u MiB a font may have",
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

int font_read_file(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen)
{
	*data = NULL;
	*len = 0;
	/* O_NONBLOCK: opening a FIFO nobody writes to must not wait forever */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;
		return font_fail(err, errlen, path, -e, "cannot open font: %s", strerror(e));
	}
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		rc = font_fail(err, errlen, path, -e, "cannot read font: %s", strerror(e));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = font_fail(err, errlen, path, -EISDIR, "is a directory, not a font file");
		goto out;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		rc = font_fail(err, errlen, path, -EINVAL, "is a %s, not a font file",
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
			rc = font_fail(err, errlen, path, -e, "cannot read font: %s", strerror(e));
			goto out;
		}
	}
	for (;;) {
		if (n == cap && (rc = font_grow(&buf, &cap))) {
			if (rc == -EFBIG)
				font_fail(err, errlen, path, rc, "file is more than the %u MiB a font may have",
					  FONT_MAX_FILE >> 20);
			else
				font_fail(err, errlen, path, rc, "out of memory");
			goto out;
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			rc = font_fail(err, errlen, path, -e, "cannot read font: %s", strerror(e));
			goto out;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n == 0 && S_ISFIFO(st.st_mode))
		rc = font_fail(err, errlen, path, -EINVAL, "is a pipe that nothing was written to");
out:
	close(fd);
	if (rc) {
		free(buf);
		return rc;
	}
	*data = buf;
	*len = n;
	return 0;
}

int font_load_as(struct font **out, const char *path, enum font_layout layout, char *err, size_t errlen)
{
	*out = NULL;
	uint8_t *buf;
	size_t n;
	int rc = font_read_file(path, &buf, &n, err, errlen);
	if (rc)
		return rc;
	rc = font_load_mem_as(out, buf, n, path, layout, err, errlen);
	free(buf);
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

int font_halves(struct font **out, const struct font *f)
{
	*out = NULL;
	if (f->cell_w < 2 || f->cell_w % 2 || f->nglyphs > (FONT_MAX_GLYPHS - 1) / 2)
		return -EINVAL;
	int hw = f->cell_w / 2, h = f->cell_h, n = 2 * f->nglyphs;
	struct font *t;
	if (font_alloc(&t, hw, h, n, f->colour != NULL))
		return -ENOMEM;
	t->pagemem = calloc(256, sizeof *t->pagemem);
	if (!t->pagemem) {
		font_destroy(t);
		return -ENOMEM;
	}
	for (int p = 0; p < 256; p++)
		t->page[p] = t->pagemem;
	t->nfile = n;
	t->replacement = 0;
	snprintf(t->name, sizeof t->name, "%s", f->name);
	for (int g = 0; g < f->nglyphs; g++)
		for (int half = 0; half < 2; half++) {
			size_t dst = (size_t)(2 * g + half) * (size_t)hw * (size_t)h;
			size_t src = (size_t)g * (size_t)f->cell_w * (size_t)h + (size_t)(half * hw);
			for (int y = 0; y < h; y++) {
				memcpy(t->coverage + dst + (size_t)y * hw, f->coverage + src + (size_t)y * f->cell_w,
				       (size_t)hw);
				if (f->colour)
					memcpy(t->colour + dst + (size_t)y * hw, f->colour + src + (size_t)y * f->cell_w,
					       (size_t)hw * sizeof *t->colour);
			}
		}
	*out = t;
	return 0;
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
