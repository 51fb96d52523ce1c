#include "render/console.h"
#include "core/log.h"
#include "core/utf8.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CON_MAX 4096

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CON_HAVE_AVX2 1

/* For the cells' equality bits of four cells (bit 2k and 2k + 1: the two
 * words of cell k equal), their four damage bytes of a fresh move (CON_MOVED
 * where the cell changes, else 0) in the low 32 bits (in memory order), and
 * how many changed above them. */
#define MB_CELL(m, k) (((m) >> (2 * (k)) & 3) != 3)
#define MB(m)                                                                                                         \
	((uint64_t)(MB_CELL(m, 0) + MB_CELL(m, 1) + MB_CELL(m, 2) + MB_CELL(m, 3)) << 32 |                          \
	 (uint64_t)MB_CELL(m, 0) * CON_MOVED | (uint64_t)MB_CELL(m, 1) * CON_MOVED << 8 |                              \
	 (uint64_t)MB_CELL(m, 2) * CON_MOVED << 16 | (uint64_t)MB_CELL(m, 3) * CON_MOVED << 24)
#define MB4(m) MB(m), MB((m) + 1), MB((m) + 2), MB((m) + 3)
#define MB16(m) MB4(m), MB4((m) + 4), MB4((m) + 8), MB4((m) + 12)
#define MB64(m) MB16(m), MB16((m) + 16), MB16((m) + 32), MB16((m) + 48)
static const uint64_t moved_bytes[256] = { MB64(0), MB64(64), MB64(128), MB64(192) };

/* A fresh move's row in one pass: dc[j] takes sc[j] for j < n, and
 * dd[j] becomes CON_MOVED where they differed (dd is 0 there before: a
 * fresh move's rows hold no damage); returns how many differed, the first
 * and last of them in *lo, *hi (none: -1). Four cells compared in two
 * 32-byte compares, the four written only when one of them differs,
 * their damage bytes and count looked up by the compares' lane bits
 * (about 5 instructions a cell, the copy included). */
__attribute__((target("avx2"))) static int moved_row_avx2(const struct con_cell *sc, struct con_cell *dc,
							  uint8_t *dd, int n, int *lo, int *hi)
{
	_Static_assert(sizeof(struct con_cell) == 16, "two cells a 32-byte compare");
	int j = 0, moved = 0, first = -1, last = -1;
	uint32_t first_b = 0, last_b = 0;
#define CELLS2(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define EQ2(a, b) _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64((a), (b))))
	for (; j + 4 <= n; j += 4) {
		const __m256i s0 = CELLS2(sc + j), s1 = CELLS2(sc + j + 2);
		const int eq = EQ2(s0, CELLS2(dc + j)) | EQ2(s1, CELLS2(dc + j + 2)) << 4;
		if (eq == 0xFF)
			continue; /* the four alike: nothing to write */
		_mm256_storeu_si256((__m256i *)(void *)(dc + j), s0);
		_mm256_storeu_si256((__m256i *)(void *)(dc + j + 2), s1);
		const uint64_t e = moved_bytes[eq];
		const uint32_t b = (uint32_t)e;
		memcpy(dd + j, &b, 4);
		moved += (int)(e >> 32);
		if (first < 0) {
			first = j;
			first_b = b;
		}
		last = j;
		last_b = b;
	}
#undef EQ2
#undef CELLS2
	/* the first and last damaged: their bytes' place in their four */
	*lo = first < 0 ? -1 : first + __builtin_ctz(first_b) / 8;
	*hi = last < 0 ? -1 : last + (31 - __builtin_clz(last_b)) / 8;
	for (; j < n; j++) {
		if (con_cell_eq(sc[j], dc[j]))
			continue;
		dc[j] = sc[j];
		dd[j] = CON_MOVED;
		moved++;
		*lo = *lo < 0 ? j : *lo;
		*hi = j;
	}
	return moved;
}
#endif

/* Every cell a space in white on bg, all of them damaged. */
static void fill_spaces(struct console *c, uint32_t bg)
{
	size_t n = (size_t)c->w * (size_t)c->h;
	for (size_t i = 0; i < n; i++)
		c->cells[i] = (struct con_cell){ ' ', 0xFFFFFF, bg, 0, 0 };
	con_damage_all(c);
	c->changes += n;
}

int con_create(struct console **out, int w, int h)
{
	*out = NULL;
	struct console *c = calloc(1, sizeof *c);
	if (!c)
		return -ENOMEM;
	int rc = con_resize(c, w, h);
	if (rc) {
		free(c);
		return rc;
	}
	*out = c;
	return 0;
}

void con_destroy(struct console *c)
{
	if (!c)
		return;
	free(c->cells);
	free(c->damage);
	free(c->row_damage);
	free(c);
}

int con_resize(struct console *c, int w, int h)
{
	if (w > CON_MAX || h > CON_MAX) {
		log_error("a console of %d×%d cells is more than the %d×%d pirogue draws: use a larger font or "
			  "--scale, or a smaller display size", w, h, CON_MAX, CON_MAX);
		return -EINVAL;
	}
	if (w < 1 || h < 1)
		return -EINVAL;
	size_t n = (size_t)w * (size_t)h;
	struct con_cell *cells = malloc(n * sizeof *cells);
	uint8_t *damage = malloc(n);
	struct con_span *rows = malloc((size_t)h * sizeof *rows);
	if (!cells || !damage || !rows) {
		free(cells);
		free(damage);
		free(rows);
		return -ENOMEM;
	}
	free(c->cells);
	free(c->damage);
	free(c->row_damage);
	c->cells = cells;
	c->damage = damage;
	c->row_damage = rows;
	c->w = w;
	c->h = h;
#ifdef CON_HAVE_AVX2
	const char *base = getenv("PIROGUE_BLIT_BASELINE");
	c->avx2 = __builtin_cpu_supports("avx2") && !(base && *base == '1');
#endif
	fill_spaces(c, 0);
	return 0;
}

static inline int inside(const struct console *c, int x, int y)
{
	return x >= 0 && y >= 0 && x < c->w && y < c->h;
}

void con_put_fg(struct console *c, int x, int y, uint32_t ch, uint32_t fg)
{
	if (inside(c, x, y))
		con_cell_set(c, x, y, (struct con_cell){ ch, fg, c->cells[(size_t)y * c->w + x].bg, 0, 0 });
}

void con_set_bg(struct console *c, int x, int y, uint32_t bg)
{
	if (inside(c, x, y)) {
		struct con_cell v = c->cells[(size_t)y * c->w + x];
		v.bg = bg;
		con_cell_set(c, x, y, v);
	}
}

const struct con_cell *con_at(const struct console *c, int x, int y)
{
	return inside(c, x, y) ? &c->cells[(size_t)y * c->w + x] : NULL;
}

/* Damage of columns lo..hi of row y noted in the row's span and the rows'
 * range (the damage bytes set by the caller). */
static inline void note_damage(struct console *c, int y, int lo, int hi)
{
	struct con_span *sp = &c->row_damage[y];
	if (lo < sp->lo)
		sp->lo = (uint16_t)lo;
	if (hi > sp->hi)
		sp->hi = (uint16_t)hi;
	if (y < c->damage_y0)
		c->damage_y0 = y;
	if (y > c->damage_y1)
		c->damage_y1 = y;
}

/* What a pass over row y changed, noted once: changed cells set, damaged
 * of them newly damaged, the first and last of those lo, hi (lo < 0: none). */
static inline void row_done(struct console *c, int y, int lo, int hi, int damaged, uint64_t changed)
{
	c->changes += changed;
	if (lo < 0)
		return;
	note_damage(c, y, lo, hi);
	c->damaged += damaged;
}

void con_row_noted(struct console *c, int y, int lo, int hi, int damaged, uint64_t changed)
{
	row_done(c, y, lo, hi, damaged, changed);
}

#ifdef CON_HAVE_AVX2
/* For the cells' equality bits of four cells (as moved_bytes takes them),
 * the damage bytes' bit 0 of the cells that differ (0x01 in byte k where
 * cell k differs, in memory order). */
#define SB_CELL(m, k) ((uint32_t)MB_CELL(m, k) << (8 * (k)))
#define SB(m) (SB_CELL(m, 0) | SB_CELL(m, 1) | SB_CELL(m, 2) | SB_CELL(m, 3))
#define SB4(m) SB(m), SB((m) + 1), SB((m) + 2), SB((m) + 3)
#define SB16(m) SB4(m), SB4((m) + 4), SB4((m) + 8), SB4((m) + 12)
#define SB64(m) SB16(m), SB16((m) + 16), SB16((m) + 32), SB16((m) + 48)
static const uint32_t set_bytes[256] = { SB64(0), SB64(64), SB64(128), SB64(192) };

_Static_assert(CON_DRAW == 1 && CON_MOVED == 2, "put4_avx2: the damage bytes' bits");
#define CELLS2(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define EQ2(a, b) _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64((a), (b))))
/* Cells x .. x + 3 of r's row set to the four cells in s0, s1 (two
 * each), as con_row_set on each does: compared in two 32-byte compares,
 * the four written when one of them differs, their damage bytes made
 * CON_DRAW where a cell differs in one 4-byte word (those newly damaged,
 * 0 before, counted and the first and last of them noted). */
__attribute__((target("avx2"), always_inline)) static inline void put4_avx2(struct con_row *r, int x, __m256i s0,
									     __m256i s1)
{
	const int eq = EQ2(s0, CELLS2(r->cells + x)) | EQ2(s1, CELLS2(r->cells + x + 2)) << 4;
	if (eq == 0xFF)
		return; /* the four alike: nothing to write */
	_mm256_storeu_si256((__m256i *)(void *)(r->cells + x), s0);
	_mm256_storeu_si256((__m256i *)(void *)(r->cells + x + 2), s1);
	const uint32_t set = set_bytes[eq]; /* 0x01 in the bytes of the cells that differ */
	uint32_t was;
	memcpy(&was, r->damage + x, 4);
	/* a damage byte is 0, CON_DRAW or CON_MOVED: nonzero where either
	 * bit is; a cell that differs becomes CON_DRAW */
	const uint32_t fresh = set & ~((was | was >> 1) & 0x01010101u), now = (was & ~(set * 0xFF)) | set;
	memcpy(r->damage + x, &now, 4);
	r->changed += (uint64_t)__builtin_popcount(set);
	if (fresh) {
		r->damaged += __builtin_popcount(fresh);
		r->lo = r->lo < 0 ? x + __builtin_ctz(fresh) / 8 : r->lo;
		r->hi = x + (31 - __builtin_clz(fresh)) / 8;
	}
}

/* set_row's cells x0..x1-1 four at a time (put4_avx2), the last ones
 * con_row_set. */
__attribute__((target("avx2"))) static void set_row_avx2(struct console *c, int y, int x0, int x1,
							const struct con_cell *src, int step)
{
	struct con_row r = con_row_begin(c, y);
	const __m256i fill = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)src));
	int x = x0;
	for (; x + 4 <= x1; x += 4, src += 4 * step)
		put4_avx2(&r, x, step ? CELLS2(src) : fill, step ? CELLS2(src + 2) : fill);
	for (; x < x1; x++, src += step)
		con_row_set(&r, x, *src);
	con_row_end(c, r);
}

/* print_row's loop (the columns up to end), four ASCII characters at a
 * time: their code points widened into four cells of fg on bg
 * (put4_avx2); any other character, and the last ones, one at a time. */
__attribute__((target("avx2"))) static int print_row_avx2(struct console *c, int x, int y, uint32_t fg, uint32_t bg,
							 const char *s, size_t n, int end)
{
	const int x0 = x;
	struct con_row r = con_row_begin(c, y);
	const __m256i look = _mm256_setr_epi32(0, (int)fg, (int)bg, 0, 0, (int)fg, (int)bg, 0);
	const __m256i first = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1), second = _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3);
	for (size_t i = 0; i < n && x < end;) {
		uint32_t four;
		if (i + 4 <= n && x + 4 <= end && (memcpy(&four, s + i, 4), !(four & 0x80808080u))) {
			const __m256i cp = _mm256_cvtepu8_epi32(_mm_cvtsi32_si128((int)four));
			put4_avx2(&r, x, _mm256_blend_epi32(look, _mm256_permutevar8x32_epi32(cp, first), 0x11),
				  _mm256_blend_epi32(look, _mm256_permutevar8x32_epi32(cp, second), 0x11));
			i += 4;
			x += 4;
			continue;
		}
		uint32_t cp = (unsigned char)s[i];
		if (cp < 0x80)
			i++;
		else
			i += utf8_decode(s + i, n - i, &cp);
		con_row_set(&r, x, (struct con_cell){ cp, fg, bg, 0, 0 });
		x++;
	}
	con_row_end(c, r);
	return x - x0;
}
#undef EQ2
#undef CELLS2
#endif

/* print_impl with a background on row y (in the grid) from column
 * 0 <= x < c->w on: each cell compared and set in one loop as con_cell_set
 * would, the row's damage span and the counts noted once (row_done). */
static int print_row(struct console *c, int x, int y, uint32_t fg, uint32_t bg, const char *s, size_t n, int max_w)
{
	/* the columns it may write: to the row's end, or max_w cells */
	const int x0 = x, end = max_w < 0 || max_w > c->w - x ? c->w : x + max_w;
#ifdef CON_HAVE_AVX2
	if (c->avx2 && n >= 4)
		return print_row_avx2(c, x, y, fg, bg, s, n, end);
#endif
	struct con_row r = con_row_begin(c, y);
	for (size_t i = 0; i < n && x < end; x++) {
		uint32_t cp = (unsigned char)s[i];
		if (cp < 0x80) /* ASCII, most of what is printed: no call */
			i++;
		else
			i += utf8_decode(s + i, n - i, &cp);
		con_row_set(&r, x, (struct con_cell){ cp, fg, bg, 0, 0 });
	}
	con_row_end(c, r);
	return x - x0;
}

/* The first n bytes of s (UTF-8) from (x, y) on, at most max_w cells
 * (-1: no limit); returns the cells written. */
static int print_impl(struct console *c, int x, int y, uint32_t fg, const uint32_t *bg,
		      const char *s, size_t n, int max_w)
{
	if (bg && y >= 0 && y < c->h && x >= 0 && x < c->w)
		return print_row(c, x, y, fg, *bg, s, n, max_w);
	int written = 0;
	for (size_t i = 0; i < n && (max_w < 0 || written < max_w);) {
		uint32_t cp = (unsigned char)s[i];
		if (cp < 0x80) /* ASCII, most of what is printed: no call */
			i++;
		else
			i += utf8_decode(s + i, n - i, &cp);
		if (inside(c, x, y)) {
			if (bg)
				con_cell_set(c, x, y, (struct con_cell){ cp, fg, *bg, 0, 0 });
			else
				con_put_fg(c, x, y, cp, fg);
		}
		x++;
		written++;
		if (x >= c->w)
			break;
	}
	return written;
}

int con_print(struct console *c, int x, int y, uint32_t fg, uint32_t bg, const char *utf8, int max_w)
{
	return print_impl(c, x, y, fg, &bg, utf8, strlen(utf8), max_w);
}

int con_print_fg(struct console *c, int x, int y, uint32_t fg, const char *utf8, int max_w)
{
	return print_impl(c, x, y, fg, NULL, utf8, strlen(utf8), max_w);
}

int con_printf(struct console *c, int x, int y, uint32_t fg, uint32_t bg, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return con_print(c, x, y, fg, bg, buf, -1);
}

/* Walks the text as wrapped lines of at most w code points; calls emit for
 * each line (start, byte length). Returns the number of lines. */
static int wrap(int w, const char *s, void (*emit)(void *, int, const char *, size_t), void *ctx)
{
	size_t n = strlen(s);
	int lines = 0;
	size_t i = 0;
	if (w < 1)
		return 0;
	while (i < n) {
		while (i < n && s[i] == ' ')
			i++;
		if (i >= n)
			break;
		size_t line_start = i, last_break = 0, j = i;
		int cols = 0, have_break = 0;
		while (j < n && s[j] != '\n' && cols < w) {
			uint32_t cp;
			size_t k = utf8_decode(s + j, n - j, &cp);
			j += k;
			cols++;
			if (j < n && s[j] == ' ') {
				last_break = j;
				have_break = 1;
			}
		}
		size_t end;
		if (j >= n || s[j] == '\n' || s[j] == ' ')
			end = j;
		else if (have_break)
			end = last_break;
		else
			end = j; /* a word wider than the box is cut */
		if (emit)
			emit(ctx, lines, s + line_start, end - line_start);
		lines++;
		i = end;
		if (i < n && s[i] == '\n')
			i++;
	}
	return lines;
}

struct wrap_ctx {
	struct console *c;
	int x, y, h, skip;
	uint32_t fg, bg;
};

static void wrap_emit(void *p, int line, const char *s, size_t len)
{
	struct wrap_ctx *w = p;
	line -= w->skip;
	if (line < 0 || line >= w->h)
		return;
	if (len > 1023) /* (as when it was copied into a buffer of 1 KB) */
		len = 1023;
	(void)print_impl(w->c, w->x, w->y + line, w->fg, &w->bg, s, len, -1);
}

int con_print_wrapped_from(struct console *c, int x, int y, int w, int h, int skip, uint32_t fg, uint32_t bg,
			   const char *utf8)
{
	struct wrap_ctx ctx = { c, x, y, h, skip > 0 ? skip : 0, fg, bg };
	return wrap(w, utf8, wrap_emit, &ctx);
}

int con_print_wrapped(struct console *c, int x, int y, int w, int h, uint32_t fg, uint32_t bg, const char *utf8)
{
	return con_print_wrapped_from(c, x, y, w, h, 0, fg, bg, utf8);
}

int con_wrapped_lines(int w, const char *utf8)
{
	return wrap(w, utf8, NULL, NULL);
}

struct lines_ctx {
	const char *base;
	struct con_line *out;
	int max;
};

static void lines_emit(void *p, int line, const char *s, size_t len)
{
	struct lines_ctx *l = p;
	if (line < l->max)
		l->out[line] = (struct con_line){ (uint16_t)(s - l->base), (uint16_t)len };
}

int con_wrap(int w, const char *utf8, struct con_line *out, int max)
{
	if (strlen(utf8) > UINT16_MAX)
		return 0;
	struct lines_ctx ctx = { utf8, out, max };
	return wrap(w, utf8, lines_emit, &ctx);
}

int con_print_line(struct console *c, int x, int y, uint32_t fg, uint32_t bg, const char *utf8, struct con_line l)
{
	if (y < 0 || y >= c->h) /* (as wrap_emit's print: nothing) */
		return 0;
	return print_impl(c, x, y, fg, &bg, utf8 + l.at, l.len > 1023 ? 1023 : l.len, -1);
}


/* con_cell_set on cells x0..x1-1 of row y, to src[0], src[1]... (step 1)
 * or all to src[0] (step 0), a row at a time: the cells compared and
 * written in a tight loop, the row's damage span and the counts once (a
 * whole screen is cleared, drawn and copied for each whole frame); with
 * AVX2 (c->avx2), a run of 8 or more four cells at a time. */
static void set_row(struct console *c, int y, int x0, int x1, const struct con_cell *src, int step)
{
#ifdef CON_HAVE_AVX2
	if (c->avx2 && x1 - x0 >= 8) {
		set_row_avx2(c, y, x0, x1, src, step);
		return;
	}
#endif
	struct con_row r = con_row_begin(c, y);
	for (int x = x0; x < x1; x++, src += step)
		con_row_set(&r, x, *src);
	con_row_end(c, r);
}

void con_set_cells(struct console *c, int x, int y, const struct con_cell *v, int n)
{
	if (y < 0 || y >= c->h)
		return;
	int x0 = x < 0 ? 0 : x, x1 = x + n > c->w ? c->w : x + n;
	if (x0 < x1)
		set_row(c, y, x0, x1, v + (x0 - x), 1);
}

void con_fill(struct console *c, int x, int y, int w, int h, uint32_t ch, uint32_t fg, uint32_t bg)
{
	int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
	int x1 = x + w > c->w ? c->w : x + w, y1 = y + h > c->h ? c->h : y + h;
	const struct con_cell v = { ch, fg, bg, 0, 0 };
	for (int yy = y0; yy < y1; yy++)
		set_row(c, yy, x0, x1, &v, 0);
}

void con_clear(struct console *c, uint32_t bg)
{
	con_fill(c, 0, 0, c->w, c->h, ' ', 0xFFFFFF, bg);
}

void con_box(struct console *c, int x, int y, int w, int h, uint32_t fg, uint32_t bg, const char *title)
{
	if (w < 2 || h < 2)
		return;
	for (int i = 1; i < w - 1; i++) {
		con_put(c, x + i, y, 0x2500, fg, bg);
		con_put(c, x + i, y + h - 1, 0x2500, fg, bg);
	}
	for (int j = 1; j < h - 1; j++) {
		con_put(c, x, y + j, 0x2502, fg, bg);
		con_put(c, x + w - 1, y + j, 0x2502, fg, bg);
	}
	con_put(c, x, y, 0x250C, fg, bg);
	con_put(c, x + w - 1, y, 0x2510, fg, bg);
	con_put(c, x, y + h - 1, 0x2514, fg, bg);
	con_put(c, x + w - 1, y + h - 1, 0x2518, fg, bg);
	if (title && *title) {
		int len = (int)utf8_len(title);
		if (len > w - 4)
			len = w - 4;
		if (len > 0) {
			int tx = x + (w - len - 2) / 2;
			con_put(c, tx, y, ' ', fg, bg);
			con_print(c, tx + 1, y, fg, bg, title, len);
			con_put(c, tx + 1 + len, y, ' ', fg, bg);
		}
	}
}

int con_copy(struct console *dst, const struct console *src)
{
	if (dst->w != src->w || dst->h != src->h)
		return -EINVAL;
	size_t w = (size_t)src->w;
	for (int y = 0; y < src->h; y++) {
		const struct con_cell *s = src->cells + (size_t)y * w;
		if (memcmp(dst->cells + (size_t)y * w, s, w * sizeof *s) == 0)
			continue; /* an equal row: one memcmp */
		set_row(dst, y, 0, src->w, s, 1);
	}
	return 0;
}

int con_copy_rect(struct console *dst, const struct console *src, int x, int y, int w, int h)
{
	if (dst->w != src->w || dst->h != src->h)
		return -EINVAL;
	int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
	int x1 = x + w > src->w ? src->w : x + w, y1 = y + h > src->h ? src->h : y + h;
	for (int yy = y0; yy < y1 && x0 < x1; yy++)
		set_row(dst, yy, x0, x1, src->cells + (size_t)yy * (size_t)src->w + (size_t)x0, 1);
	return 0;
}

/* Every cell of the rectangle (inside the console) damaged CON_DRAW. */
static void damage_rect(struct console *c, int x, int y, int w, int h)
{
	for (int yy = y; yy < y + h; yy++) {
		uint8_t *d = c->damage + (size_t)yy * (size_t)c->w;
		for (int xx = x; xx < x + w; xx++) {
			c->damaged += !d[xx];
			d[xx] = CON_DRAW;
		}
		note_damage(c, yy, x, x + w - 1);
	}
}

/* The CON_MOVED damage of c->move's rectangle made to (CON_DRAW, or 0
 * when forget), c->damaged kept. */
_Static_assert(CON_DRAW == 1 && CON_MOVED == 2, "moved_to: the damage bytes' bits");
static void moved_to(struct console *c, uint8_t to)
{
	const struct con_move *m = &c->move;
	for (int y = m->y; y < m->y + m->h; y++) {
		struct con_span sp = c->row_damage[y];
		if (!con_span_any(sp))
			continue;
		uint8_t *d = c->damage + (size_t)y * (size_t)c->w;
		int lo = sp.lo > m->x ? sp.lo : m->x, hi = sp.hi < m->x + m->w - 1 ? sp.hi : m->x + m->w - 1;
		int x = lo, moved = 0;
		/* eight bytes at a time: a damage byte is 0, CON_DRAW or
		 * CON_MOVED, so its bit 1 is set on CON_MOVED alone */
		for (; x + 8 <= hi + 1; x += 8) {
			uint64_t v, mv;
			memcpy(&v, d + x, 8);
			mv = (v >> 1) & 0x0101010101010101ull; /* bit 0 of each CON_MOVED byte */
			if (!mv)
				continue;
			v ^= mv << 1; /* those bytes 0 */
			if (to)
				v |= mv; /* (CON_DRAW) */
			memcpy(d + x, &v, 8);
			moved += (int)((mv * 0x0101010101010101ull) >> 56);
		}
		for (; x <= hi; x++)
			if (d[x] == CON_MOVED) {
				d[x] = to;
				moved++;
			}
		if (!to)
			c->damaged -= moved;
	}
}

void con_moved_done(struct console *c)
{
	if (c->move.w && !c->move.whole)
		moved_to(c, 0);
	c->move.w = 0;
}

int con_move(struct console *c, int x, int y, int w, int h, int dx, int dy)
{
	if (x < 0 || y < 0 || w < 1 || h < 1 || x > c->w - w || y > c->h - h || dx <= -w || dx >= w || dy <= -h ||
	    dy >= h)
		return -EINVAL;
	if (!dx && !dy)
		return 0;
	if (c->move.w && c->move.whole) /* a move not yet made: its cells drawn instead */
		damage_rect(c, c->move.x, c->move.y, c->move.w, c->move.h);
	else if (c->move.w)
		moved_to(c, CON_DRAW);
	/* the columns that take a moved cell, x0..x0+n-1, from x0-dx on; the
	 * rows r0..r1-1 likewise; rows and columns visited so that no cell is
	 * read after it was written (as memmove does) */
	int n = w - (dx < 0 ? -dx : dx), x0 = dx > 0 ? x + dx : x, sx = x0 - dx;
	int r0 = dy > 0 ? y + dy : y, r1 = dy > 0 ? y + h : y + h + dy;
	bool back = dy == 0 && dx > 0; /* a row moved right within itself: right to left */
	size_t cw = (size_t)c->w;
	bool fresh = true;
	for (int r = y; r < y + h && fresh; r++) {
		struct con_span sp = c->row_damage[r];
		fresh = !(sp.lo <= sp.hi && sp.lo < x + w && sp.hi >= x);
	}
	if (fresh && c->scrolls && dx == 0 && x == 0 && w == c->w) {
		/* the display scrolls these rows itself: the cells moved, no
		 * damage (none to move with them) */
		/* a row at a time, in the order memmove would take them: one
		 * block of the whole rows is above the size at which glibc's
		 * memmove turns to `rep movsb`, which a callgrind counts a
		 * byte a step (bench_turn: 80x24 ~3.7k a turn) */
		for (int k = 0; k < r1 - r0; k++) {
			int r = dy > 0 ? r1 - 1 - k : r0 + k;
			memcpy(c->cells + (size_t)r * cw, c->cells + (size_t)(r - dy) * cw, cw * sizeof *c->cells);
		}
		c->changes += (uint64_t)cw * (uint64_t)(r1 - r0);
		c->move = (struct con_move){ x, y, w, h, dx, dy, true, true };
		return 0;
	}
	for (int k = 0; k < r1 - r0; k++) {
		int r = dy > 0 ? r1 - 1 - k : r0 + k, sr = r - dy;
		struct con_cell *dc = c->cells + (size_t)r * cw + (size_t)x0;
		const struct con_cell *sc = c->cells + (size_t)sr * cw + (size_t)sx;
		uint8_t *dd = c->damage + (size_t)r * cw + (size_t)x0;
		const uint8_t *sd = c->damage + (size_t)sr * cw + (size_t)sx;
		if (fresh && dy) {
			/* no damage here (the usual frame): another row's cells
			 * compared with these, then copied */
			int moved = 0, hi = -1;
#ifdef CON_HAVE_AVX2
			if (c->avx2) {
				int lo;
				moved = moved_row_avx2(sc, dc, dd, n, &lo, &hi);
				if (moved) {
					c->damaged += moved;
					note_damage(c, r, x0 + lo, x0 + hi);
				}
				continue;
			}
#endif
			if (!memcmp(dc, sc, (size_t)n * sizeof *dc))
				continue; /* the same row (a blank one): nothing changes, no damage */
			_Pragma("GCC unroll 4") for (int j = 0; j < n; j++) {
				uint8_t now = con_cell_eq(sc[j], dc[j]) ? 0 : CON_MOVED;
				dd[j] = now;
				moved += now;
				hi = now ? j : hi; /* (no branch: the last one damaged) */
			}
			memcpy(dc, sc, (size_t)n * sizeof *dc);
			if (moved) {
				c->damaged += moved / CON_MOVED;
				note_damage(c, r, x0 + con_next_damaged(dd, 0, n), x0 + hi);
			}
			continue;
		}
		int lo = n, hi = -1, damaged = 0;
		for (int i = 0; i < n; i++) {
			int j = back ? n - 1 - i : i;
			struct con_cell v = sc[j];
			uint8_t was = dd[j], now = con_cell_eq(v, dc[j]) ? was : sd[j] ? CON_DRAW : CON_MOVED;
			dc[j] = v;
			dd[j] = now;
			damaged += (now != 0) - (was != 0);
			if (now) {
				lo = j < lo ? j : lo;
				hi = j > hi ? j : hi;
			}
		}
		c->damaged += damaged;
		if (hi >= 0)
			note_damage(c, r, x0 + lo, x0 + hi);
	}
	c->changes += (uint64_t)n * (uint64_t)(r1 - r0);
	c->move = (struct con_move){ x, y, w, h, dx, dy, fresh, false };
	return 0;
}

void con_damage_all(struct console *c)
{
	c->move.w = 0; /* every cell drawn: nothing to move */
	size_t n = (size_t)c->w * (size_t)c->h;
	memset(c->damage, 1, n);
	for (int y = 0; y < c->h; y++)
		c->row_damage[y] = (struct con_span){ 0, (uint16_t)(c->w - 1) };
	c->damaged = (int)n;
	c->damage_y0 = 0;
	c->damage_y1 = c->h - 1;
}

void con_clear_damage(struct console *c)
{
	c->cleared_at = c->changes;
	c->move.w = 0;
	if (!c->damaged && c->damage_y1 < c->damage_y0)
		return; /* (no damage, and no row's span left: con_moved_done may leave spans whose cells it cleared) */
	for (int y = c->damage_y0; y <= c->damage_y1; y++) {
		struct con_span sp = c->row_damage[y];
		if (con_span_any(sp))
			memset(c->damage + (size_t)y * (size_t)c->w + sp.lo, 0, (size_t)(sp.hi - sp.lo + 1));
		c->row_damage[y] = CON_SPAN_NONE;
	}
	c->damaged = 0;
	c->damage_y0 = c->h;
	c->damage_y1 = -1;
}
