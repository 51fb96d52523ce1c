/* blit_move: a console's moved cells (con_move) moved on the surface instead of drawn. See blit.h. */
#include "render/blit_impl.h"
#include "render/blit_copy.h"
#include <errno.h>
#include <stddef.h>
#include <string.h>

#ifdef BLIT_HAVE_AVX2
#include <immintrin.h>
/* h rows of rowb bytes (a multiple of 2) from src, src + step, ..., each
 * copied to to bytes on, where no row overlaps its destination (a move
 * by whole rows: rows are a stride apart), with AVX2 moves inline (the
 * rows of a run are about 1 KB: memmove's call and its choices were a
 * third of the cost). A row of 32 bytes or more is ceil(rowb / 32)
 * 32-byte moves: one at its start, the others back from its end (the
 * first two overlap when rowb is not a multiple of 32: the same bytes
 * copied twice), entered at the row's count (Duff's device) into eight a
 * loop step, so that a row's bookkeeping is its pointers and the jump
 * (256 bytes a step, then 128, then the tail's 32, 16, 8, 4 and 2 byte
 * pieces before: about 60 instructions a row besides the moves; bench_turn
 * at 1080p 83,662 -> 81,166 a turn). four: the move is by four rows or
 * more, so four rows may go together, each move for all four (the
 * bookkeeping once for them; the stores to one row never reach the
 * sources of the others, as the first moves' overlap would need):
 * 81,166 -> 80,115 (two rows together: 80,231). */
__attribute__((target("avx2"))) static void copy_rows_avx2(uint8_t *src, ptrdiff_t step, ptrdiff_t to, size_t rowb,
							   int h, bool four)
{
	if (rowb < 32) {
		for (int k = 0; k < h; k++, src += step)
			copy_row_at(src + to, src, 0, rowb);
		return;
	}
	size_t m = (rowb - 1) / 32; /* moves after the first, back from the end */
	size_t steps = (m + 7) / 8, skip = (8 - m % 8) % 8;
	/* the moves at rowb - 32 (m - j) for j = 0 .. m - 1 of a row at p
	 * (and, by MOVE, of the rows with it): the pointers q, e start before
	 * the first by the moves skipped on entry, so each move's offset is a
	 * constant */
#define LOAD(a) _mm256_loadu_si256((const __m256i *)(const void *)(a))
#define STORE(a, v) _mm256_storeu_si256((__m256i *)(void *)(a), (v))
#define ROW_REST(MOVE)                                                                                                 \
	do {                                                                                                           \
		uint8_t *q = p + rowb - 32 * m - 32 * skip;                                                            \
		uint8_t *e = q + to;                                                                                   \
		size_t n = steps;                                                                                      \
		switch (m % 8) {                                                                                       \
		case 0:                                                                                                \
			do {                                                                                           \
				MOVE(0);                                                                               \
				__attribute__((fallthrough));                                                          \
			case 7:                                                                                        \
				MOVE(32);                                                                              \
				__attribute__((fallthrough));                                                          \
			case 6:                                                                                        \
				MOVE(64);                                                                              \
				__attribute__((fallthrough));                                                          \
			case 5:                                                                                        \
				MOVE(96);                                                                              \
				__attribute__((fallthrough));                                                          \
			case 4:                                                                                        \
				MOVE(128);                                                                             \
				__attribute__((fallthrough));                                                          \
			case 3:                                                                                        \
				MOVE(160);                                                                             \
				__attribute__((fallthrough));                                                          \
			case 2:                                                                                        \
				MOVE(192);                                                                             \
				__attribute__((fallthrough));                                                          \
			case 1:                                                                                        \
				MOVE(224);                                                                             \
				q += 256;                                                                              \
				e += 256;                                                                              \
			} while (--n);                                                                                 \
		}                                                                                                      \
	} while (0)
#define MOVE1(o) STORE(e + (o), LOAD(q + (o)))
#define MOVE4(o)                                                                                                       \
	(STORE(e + (o), LOAD(q + (o))), STORE(e + step + (o), LOAD(q + step + (o))),                                   \
	 STORE(e + 2 * step + (o), LOAD(q + 2 * step + (o))), STORE(e + step3 + (o), LOAD(q + step3 + (o))))
	int k = 0;
	ptrdiff_t step3 = 3 * step;
	if (four) /* four rows a step (no row's destination is another's source) */
		for (; k + 4 <= h; k += 4, src += 4 * step) {
			uint8_t *p = src;
			STORE(p + to, LOAD(p));
			STORE(p + step + to, LOAD(p + step));
			STORE(p + 2 * step + to, LOAD(p + 2 * step));
			STORE(p + step3 + to, LOAD(p + step3));
			if (m)
				ROW_REST(MOVE4);
		}
	for (; k < h; k++, src += step) {
		uint8_t *p = src;
		STORE(p + to, LOAD(p));
		if (m)
			ROW_REST(MOVE1);
	}
#undef MOVE1
#undef MOVE4
#undef ROW_REST
#undef LOAD
#undef STORE
}
#endif

/* The pixels of s's w×h rectangle at (x, y) moved by (dx, dy), which may
 * overlap it (rows visited as memmove would); all of it on s. avx2: the
 * blitter uses AVX2 code (then a move with dy != 0 copies its rows
 * inline). */
static void move_px(struct surface *s, int x, int y, int w, int h, int dx, int dy, bool avx2)
{
	size_t bpp = (size_t)surf_bpp(s->format), rowb = (size_t)w * bpp;
	ptrdiff_t stride = s->stride, step = dy > 0 ? -stride : stride; /* bottom up when moving down */
	uint8_t *src = (uint8_t *)s->pixels + (ptrdiff_t)(dy > 0 ? y + h - 1 : y) * stride + (ptrdiff_t)x * (ptrdiff_t)bpp;
	ptrdiff_t to = (ptrdiff_t)dy * stride + (ptrdiff_t)dx * (ptrdiff_t)bpp; /* destination - source */
#ifdef BLIT_HAVE_AVX2
	if (avx2 && dy != 0) { /* a row and its destination are rows apart: no overlap */
		copy_rows_avx2(src, step, to, rowb, h, dy >= 4 || dy <= -4);
		return;
	}
#else
	(void)avx2;
#endif
	for (int k = 0; k < h; k++, src += step)
		memmove(src + to, src, rowb);
}

/* Bit i of w: whether cell lo + i of the damage row d (hi - i when back)
 * is CON_MOVED, for i = 0 .. hi - lo; the bits and words after those are
 * 0. Eight cells a step: a damage byte is 0, CON_DRAW (1) or CON_MOVED
 * (2), so bit 1 of each of eight bytes, gathered by one multiply (byte k's
 * bit lands alone on bit 56 + k; the other products fall below or
 * above), is the eight cells' bits (a cell at a time was about 950
 * instructions a row of the 1080p game's scrolls). */
static void moved_bits(const uint8_t *d, int lo, int hi, bool back, uint64_t *w)
{
	int n = hi - lo + 1;
	for (int i = 0; i < n; i += 8) {
		uint64_t v = 0;
		if (n - i >= 8) {
			memcpy(&v, d + (back ? hi - i - 7 : lo + i), 8);
			if (back)
				v = __builtin_bswap64(v); /* byte j: cell hi - i - j */
		} else {
			for (int j = 0; j < n - i; j++)
				v |= (uint64_t)d[back ? hi - i - j : lo + i + j] << (8 * j);
		}
		uint64_t eight = (((v >> 1) & 0x0101010101010101u) * 0x0102040810204080u) >> 56;
		if (i % 64 == 0) /* a word's first eight cells: the word is set, not or'ed */
			w[i / 64] = eight;
		else
			w[i / 64] |= eight << (i % 64);
	}
}

#ifdef BLIT_HAVE_AVX2
/* moved_bits for a row visited left to right (back false), with AVX2:
 * 32 cells a step (bit 1 of each damage byte shifted to its top bit,
 * gathered by one movemask: the eight-byte multiply's words took about
 * 200 instructions a 160-cell row of the 1080p game's scrolls), the last
 * fewer than 32 by moved_bits. */
__attribute__((target("avx2"))) static void moved_bits_avx2(const uint8_t *d, int lo, int hi, uint64_t *w)
{
	int n = hi - lo + 1, i = 0;
	for (; i + 32 <= n; i += 32) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(d + lo + i));
		uint64_t m = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(v, 6));
		if (i % 64 == 0) /* a word's first 32 cells: the word is set, not or'ed */
			w[i / 64] = m;
		else
			w[i / 64] |= m << 32;
	}
	if (i < n) {
		uint64_t rest[1] = { 0 }; /* (moved_bits sets it: n - i >= 1) */
		moved_bits(d, lo + i, hi, false, rest); /* (fewer than 32: one word) */
		if (i % 64 == 0)
			w[i / 64] = rest[0];
		else
			w[i / 64] |= rest[0] << 32;
	}
}
#endif

/* The first i in from .. n - 1 whose bit in w (moved_bits) is set (or,
 * with set false, clear); n when none is. */
static inline int next_bit(const uint64_t *w, int n, int from, bool set)
{
	if (from >= n)
		return n;
	int k = from / 64;
	uint64_t x = (set ? w[k] : ~w[k]) & (~(uint64_t)0 << (from % 64));
	while (!x) {
		if (++k * 64 >= n)
			return n;
		x = set ? w[k] : ~w[k];
	}
	int i = k * 64 + __builtin_ctzll(x);
	return i < n ? i : n;
}

int blit_move_cells(const struct blitter *b, const struct console *c, struct surface *s)
{
	const struct con_move *m = &c->move;
	if (!m->w)
		return 0;
	int rot = s->rotation;
	if ((rot != 0 && rot != 90 && rot != 180 && rot != 270) || (s->format != SURF_XRGB8888 && s->format != SURF_RGB565))
		return -ERANGE;
	bool turned = rot == 90 || rot == 270;
	long lw = turned ? s->height : s->width, lh = turned ? s->width : s->height;
	int cw = b->f->cell_w * b->scale, ch = b->f->cell_h * b->scale;
	if ((long)c->w * cw > lw || (long)c->h * ch > lh)
		return -ERANGE; /* clipped: some sources are not on the surface */
	/* the console's top-left on the logical surface (blit_draw_rows) */
	int ox = b->centred ? (int)(lw - (long)c->w * cw) / 2 : 0, oy = b->centred ? (int)(lh - (long)c->h * ch) / 2 : 0;
	/* the move in logical pixels, then on the surface */
	int lx = m->dx * cw, ly = m->dy * ch;
	int sx = rot == 90 ? -ly : rot == 180 ? -lx : rot == 270 ? ly : lx;
	int sy = rot == 90 ? lx : rot == 180 ? -ly : rot == 270 ? -lx : ly;
	/* the cells visited as con_move visited them, so that no source is
	 * read after it was written: rows, then runs of moved cells. After a
	 * fresh move a run may take in the cells between two (left as they
	 * were, their sources show the same; or drawn after): up to 96 bytes
	 * of a row between two runs (two 12-pixel cells) cost less than a run
	 * more (bench_turn at 1080p with the rows copied as now: none 79,765
	 * a turn, 48 bytes 79,838, 96 or 144 79,609, 192 or 240 79,623, 288
	 * 79,780, 384 79,912, 512 80,115, 768 80,603; with memmove calls
	 * once, 128 bytes 109,418, 512 108,745, the whole row 111,593). */
	int n = m->w - (m->dx < 0 ? -m->dx : m->dx), x0 = m->dx > 0 ? m->x + m->dx : m->x;
	int r0 = m->dy > 0 ? m->y + m->dy : m->y, r1 = m->dy > 0 ? m->y + m->h : m->y + m->h + m->dy;
	bool back = m->dy == 0 && m->dx > 0;
	bool avx2 = b->draw_band != blit_band_base; /* AVX2 (or AVX-512) chosen by blit_create */
	int gap = m->fresh ? 96 / (cw * surf_bpp(s->format)) : 0;
	uint64_t bits[4096 / 64]; /* a row's cells: at most 4096 (con_create) */
	for (int k = 0; k < r1 - r0; k++) {
		int y = m->dy > 0 ? r1 - 1 - k : r0 + k;
		struct con_span sp = c->row_damage[y];
		int lo = sp.lo > x0 ? sp.lo : x0, hi = sp.hi < x0 + n - 1 ? sp.hi : x0 + n - 1;
		if (lo > hi)
			continue;
		int len = hi - lo + 1;
#ifdef BLIT_HAVE_AVX2
		if (avx2 && !back)
			moved_bits_avx2(c->damage + (size_t)y * (size_t)c->w, lo, hi, bits);
		else
#endif
			moved_bits(c->damage + (size_t)y * (size_t)c->w, lo, hi, back, bits);
		/* runs of moved cells, i = 0 .. len - 1 being cell lo + i (hi - i
		 * when back): cells a .. z - 1, and the next run's first cell nx */
		for (int a = next_bit(bits, len, 0, true), nx; a < len; a = nx) {
			int z = next_bit(bits, len, a, false);
			while ((nx = next_bit(bits, len, z, true)) < len && nx - z <= gap)
				z = next_bit(bits, len, nx, false);
			/* the run's source cells, on the surface */
			int left = back ? hi - (z - 1) : lo + a, r[4];
			blit_surface_rect(s, ox + (left - m->dx) * cw, oy + (y - m->dy) * ch, (z - a) * cw, ch, r);
			move_px(s, r[0], r[1], r[2], r[3], sx, sy, avx2);
		}
	}
	return 0;
}
