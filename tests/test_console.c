#include "testutil.h"
#include "render/console.h"
#include "core/log.h"
#include "core/utf8.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

static struct console *mk(int w, int h)
{
	struct console *c;
	assert_int_equal(con_create(&c, w, h), 0);
	con_clear_damage(c);
	return c;
}

static void test_create_bounds(void **st)
{
	(void)st;
	struct console *c;
	assert_int_not_equal(con_create(&c, 0, 5), 0);
	assert_null(c);
	/* too wide: one line says so (it used to exit 1 with no word) */
	FILE *logf = tmpfile();
	assert_non_null(logf);
	log_set_stream(logf);
	assert_int_equal(con_create(&c, 8000, 16), -EINVAL);
	assert_int_not_equal(con_create(&c, 5, 5000), 0);
	log_set_stream(NULL);
	char line[512];
	rewind(logf);
	assert_non_null(fgets(line, sizeof line, logf));
	assert_non_null(strstr(line, "a console of 8000×16 cells is more than the 4096×4096"));
	assert_non_null(fgets(line, sizeof line, logf));
	assert_non_null(strstr(line, "5×5000 cells"));
	assert_null(fgets(line, sizeof line, logf));
	fclose(logf);
	assert_int_equal(con_create(&c, 3, 2), 0);
	assert_int_equal(c->damaged, 6);
	assert_int_equal(con_at(c, 2, 1)->ch, ' ');
	assert_null(con_at(c, 3, 0));
	assert_null(con_at(c, -1, 0));
	con_destroy(c);
	con_destroy(NULL);
}

static void test_damage_only_on_change(void **st)
{
	(void)st;
	struct console *c = mk(10, 4);
	con_put(c, 1, 1, '@', 0xFFFFFF, 0);
	assert_int_equal(c->damaged, 1);
	assert_true(c->damage[1 * 10 + 1]);
	con_put(c, 1, 1, '@', 0xFFFFFF, 0); /* same again: no new damage */
	assert_int_equal(c->damaged, 1);
	con_clear_damage(c);
	con_put(c, 1, 1, '@', 0xFFFFFF, 0);
	assert_int_equal(c->damaged, 0);
	con_set_bg(c, 1, 1, 0x112233);
	assert_int_equal(c->damaged, 1);
	assert_int_equal(con_at(c, 1, 1)->bg, 0x112233);
	assert_int_equal(con_at(c, 1, 1)->ch, '@');
	con_put(c, 99, 1, 'x', 1, 2); /* outside: ignored */
	con_put(c, -1, -1, 'x', 1, 2);
	assert_int_equal(c->damaged, 1);
	con_damage_all(c);
	assert_int_equal(c->damaged, 40);
	con_destroy(c);
}

/* Each row's span follows its cells' damage; con_next_damaged finds
 * damaged cells past runs of clean ones. */
static void test_row_damage(void **st)
{
	(void)st;
	struct console *c = mk(21, 4);
	for (int y = 0; y < 4; y++)
		assert_false(con_span_any(c->row_damage[y]));
	assert_int_equal(con_next_damaged(c->damage, 0, 21), 21);
	con_put(c, 19, 2, '@', 1, 2);
	assert_int_equal(c->row_damage[2].lo, 19);
	assert_int_equal(c->row_damage[2].hi, 19);
	con_put(c, 3, 2, '@', 1, 2);
	assert_int_equal(c->row_damage[2].lo, 3);
	assert_int_equal(c->row_damage[2].hi, 19);
	con_put(c, 0, 1, '@', 1, 2);
	assert_int_equal(c->row_damage[1].lo, 0);
	assert_int_equal(c->row_damage[1].hi, 0);
	assert_false(con_span_any(c->row_damage[0]) || con_span_any(c->row_damage[3]));
	const uint8_t *row = c->damage + 2 * 21;
	assert_int_equal(con_next_damaged(row, 0, 21), 3);
	assert_int_equal(con_next_damaged(row, 4, 21), 19); /* a clean word, then the tail */
	assert_int_equal(con_next_damaged(row, 20, 21), 21);
	con_clear_damage(c);
	assert_false(con_span_any(c->row_damage[2]) || con_span_any(c->row_damage[1]));
	assert_int_equal(con_next_damaged(row, 0, 21), 21);
	assert_int_equal(con_next_damaged(c->damage, 0, 21 * 4), 21 * 4);
	con_damage_all(c);
	for (int y = 0; y < 4; y++) {
		assert_int_equal(c->row_damage[y].lo, 0);
		assert_int_equal(c->row_damage[y].hi, 20);
	}
	con_destroy(c);
}

/* con_copy and con_copy_rect make dst equal src (all of it, or the
 * rectangle, clipped), damaging dst only where it changed. */
static void test_copy_follows_changes(void **st)
{
	(void)st;
	struct console *dst = mk(30, 5), *src = mk(30, 5), *odd = mk(29, 5);
	assert_int_equal(con_copy(dst, odd), -EINVAL);
	assert_int_equal(con_copy_rect(dst, odd, 0, 0, 1, 1), -EINVAL);
	con_print(src, 2, 1, 0xFF0000, 0, "hello", -1);
	con_put(src, 29, 4, '#', 1, 2);
	con_put(src, 10, 3, 'x', 1, 2);
	con_put(src, 10, 3, ' ', 0xFFFFFF, 0); /* set back: damaged in src, equal in dst */
	con_clear_damage(dst);
	/* a rectangle reaching past the edges: only its part inside, and of
	 * that only what differs */
	assert_int_equal(con_copy_rect(dst, src, 5, -2, 40, 6), 0);
	assert_int_equal(dst->damaged, 2); /* "lo" of "hello" (x 2..6); the rows end at 3: not the # on row 4 */
	assert_int_equal(dst->cells[1 * 30 + 4].ch, ' ');
	assert_int_equal(dst->cells[1 * 30 + 5].ch, 'l');
	assert_int_equal(dst->cells[4 * 30 + 29].ch, ' ');
	assert_false(dst->damage[3 * 30 + 10]);
	assert_int_equal(con_copy(dst, src), 0);
	assert_int_equal(dst->damaged, 6); /* and "hel", the # */
	assert_memory_equal(dst->cells, src->cells, 30 * 5 * sizeof *src->cells);
	con_clear_damage(dst);
	assert_int_equal(con_copy(dst, src), 0); /* equal: nothing changes */
	assert_int_equal(dst->damaged, 0);
	con_clear(src, 0x123456);
	assert_int_equal(con_copy(dst, src), 0);
	assert_int_equal(dst->damaged, 150);
	assert_memory_equal(dst->cells, src->cells, 30 * 5 * sizeof *src->cells);
	con_destroy(dst);
	con_destroy(src);
	con_destroy(odd);
}

static void test_print_clips_and_decodes(void **st)
{
	(void)st;
	struct console *c = mk(5, 2);
	int n = con_print(c, 3, 0, 1, 2, "ab\xe2\x99\xa5z", -1); /* ab♥z */
	assert_int_equal(n, 2);
	assert_int_equal(con_at(c, 3, 0)->ch, 'a');
	assert_int_equal(con_at(c, 4, 0)->ch, 'b');
	assert_int_equal(con_at(c, 0, 1)->ch, ' '); /* no wrap to next line */
	con_print(c, -1, 1, 1, 2, "x\xe2\x99\xa5yz", 2);
	assert_int_equal(con_at(c, 0, 1)->ch, 0x2665);
	assert_int_equal(con_at(c, 1, 1)->ch, ' '); /* max_w 2 stops after ♥ */
	con_print(c, 0, 1, 1, 2, "\xff", -1); /* malformed: replacement */
	assert_int_equal(con_at(c, 0, 1)->ch, 0xFFFD);
	con_destroy(c);
}

static void test_wrap_never_cuts_words(void **st)
{
	(void)st;
	struct console *c = mk(12, 4);
	int lines = con_print_wrapped(c, 0, 0, 10, 4, 1, 0, "You attack the orc but do no damage.");
	assert_int_equal(lines, 4);
	assert_int_equal(con_wrapped_lines(10, "You attack the orc but do no damage."), 4);
	char row[11];
	for (int y = 0; y < 4; y++) {
		for (int x = 0; x < 10; x++)
			row[x] = (char)con_at(c, x, y)->ch;
		row[10] = 0;
		if (y == 0)
			assert_string_equal(row, "You attack");
		if (y == 1)
			assert_string_equal(row, "the orc   ");
		if (y == 3)
			assert_string_equal(row, "damage.   ");
	}
	assert_int_equal(con_wrapped_lines(3, "abcdefg"), 3); /* too long: cut */
	/* the tail of a text taller than its box: skip the first lines */
	con_clear(c, 0);
	assert_int_equal(con_print_wrapped_from(c, 0, 0, 10, 2, 2, 1, 0, "You attack the orc but do no damage."), 4);
	for (int x = 0; x < 10; x++)
		row[x] = (char)con_at(c, x, 1)->ch;
	row[10] = 0;
	assert_string_equal(row, "damage.   ");
	assert_int_equal(con_at(c, 0, 0)->ch, 'b');
	assert_int_equal(con_at(c, 0, 2)->ch, ' '); /* nothing below the box */
	con_destroy(c);
}

/* damage_y0..damage_y1 hold every damaged row: set by damage, emptied by a
 * clear, the whole console after con_damage_all. */
static void test_damaged_rows(void **st)
{
	(void)st;
	struct console *c = mk(10, 6);
	con_clear_damage(c);
	assert_true(c->damage_y0 > c->damage_y1);
	con_put(c, 3, 4, 'a', 1, 2);
	con_put(c, 9, 2, 'b', 1, 2);
	con_put(c, 0, 3, ' ', 0xFFFFFF, 0); /* what is there: no damage */
	assert_int_equal(c->damage_y0, 2);
	assert_int_equal(c->damage_y1, 4);
	con_clear_damage(c);
	assert_true(c->damage_y0 > c->damage_y1);
	con_put(c, 0, 5, 'c', 1, 2);
	assert_int_equal(c->damage_y0, 5);
	assert_int_equal(c->damage_y1, 5);
	con_damage_all(c);
	assert_int_equal(c->damage_y0, 0);
	assert_int_equal(c->damage_y1, 5);
	con_destroy(c);
}

/* changes counts every cell changed (not a put of what is there);
 * cleared_at is it when damage was last forgotten. */
static void test_changes_and_cleared_at(void **st)
{
	(void)st;
	struct console *a, *b;
	assert_int_equal(con_create(&a, 4, 2), 0);
	assert_int_equal(con_create(&b, 4, 2), 0);
	uint64_t n = a->changes;
	assert_int_equal(n, 8); /* the blank console */
	con_put(a, 1, 1, 'x', 1, 2);
	con_put(a, 1, 1, 'x', 1, 2); /* the same: no change */
	con_put(a, 1, 1, 'y', 1, 2); /* a damaged cell changed again */
	assert_int_equal(a->changes, n + 2);
	assert_true(a->cleared_at < a->changes);
	con_clear_damage(a);
	assert_int_equal(a->cleared_at, a->changes);
	con_put(a, 0, 0, 'z', 1, 2);
	assert_true(a->cleared_at < a->changes);
	assert_int_equal(con_copy(b, a), 0); /* reading a forgets nothing */
	assert_true(a->cleared_at < a->changes);
	assert_true(b->cleared_at < b->changes);
	con_destroy(a);
	con_destroy(b);
}

static void test_box_and_fill(void **st)
{
	(void)st;
	struct console *c = mk(8, 5);
	con_fill(c, -2, -2, 5, 5, '#', 1, 2);
	assert_int_equal(con_at(c, 2, 2)->ch, '#');
	assert_int_equal(con_at(c, 3, 2)->ch, ' ');
	assert_int_equal(c->damaged, 9);
	con_box(c, 0, 0, 8, 5, 3, 4, "Hi");
	assert_int_equal(con_at(c, 0, 0)->ch, 0x250C);
	assert_int_equal(con_at(c, 7, 4)->ch, 0x2518);
	assert_int_equal(con_at(c, 0, 2)->ch, 0x2502);
	assert_int_equal(con_at(c, 3, 0)->ch, 'H');
	assert_int_equal(con_at(c, 2, 2)->ch, '#'); /* inside untouched */
	assert_int_equal(con_resize(c, 0, 3), -22);
	assert_int_equal(c->w, 8);
	assert_int_equal(con_resize(c, 3, 3), 0);
	assert_int_equal(c->damaged, 9);
	con_destroy(c);
}

/* A cell is the same (not damaged) only when all five fields are: a map
 * cell's tile or flags changing alone damages it; text over a map cell
 * makes it a text cell again; con_set_bg keeps what kind of cell it is. */
static void test_tile_and_flags_damage(void **st)
{
	(void)st;
	struct console *c;
	assert_int_equal(con_create(&c, 4, 2), 0);
	con_put(c, 1, 1, '#', 1, 2);
	con_clear_damage(c);
	con_cell_set(c, 1, 1, (struct con_cell){ '#', 1, 2, 0, CON_MAP });
	assert_int_equal(c->damaged, 1);
	con_clear_damage(c);
	con_cell_set(c, 1, 1, (struct con_cell){ '#', 1, 2, 7, CON_MAP });
	assert_int_equal(c->damaged, 1);
	con_clear_damage(c);
	con_cell_set(c, 1, 1, (struct con_cell){ '#', 1, 2, 7, CON_MAP });
	assert_int_equal(c->damaged, 0);
	con_set_bg(c, 1, 1, 3);
	assert_int_equal(con_at(c, 1, 1)->flags, CON_MAP);
	assert_int_equal(con_at(c, 1, 1)->tile, 7);
	con_put_fg(c, 1, 1, 'a', 1);
	assert_int_equal(con_at(c, 1, 1)->flags, 0);
	assert_int_equal(con_at(c, 1, 1)->tile, 0);
	con_destroy(c);
}

/* con_wrap's lines, each printed with con_print_line, are what
 * con_print_wrapped prints, and as many as con_wrapped_lines counts: texts
 * with long words, runs of spaces, newlines and UTF-8 at widths 1-30. */
static void test_wrap_lines_as_printed(void **st)
{
	(void)st;
	static const char *const texts[] = {
		"You attack the troll for 8 hit points.", "a  b   c    d", "Supercalifragilistic is a word",
		"line one\nline two is longer than the box", "\u00e9t\u00e9 \u00e0 la plage, \u2192 encore",
		"   leading and trailing   ", "",
	};
	for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
		for (int w = 1; w <= 30; w++) {
			struct console *a, *b;
			assert_int_equal(con_create(&a, 32, 48), 0);
			assert_int_equal(con_create(&b, 32, 48), 0);
			struct con_line lines[48];
			int n = con_wrap(w, texts[t], lines, 48);
			assert_int_equal(n, con_wrapped_lines(w, texts[t]));
			assert_int_equal(con_print_wrapped(a, 1, 0, w, 48, 0xFFFFFF, 0, texts[t]), n);
			for (int i = 0; i < n && i < 48; i++)
				con_print_line(b, 1, i, 0xFFFFFF, 0, texts[t], lines[i]);
			for (int y = 0; y < 48; y++)
				for (int x = 0; x < 32; x++)
					assert_int_equal(con_at(a, x, y)->ch, con_at(b, x, y)->ch);
			con_destroy(a);
			con_destroy(b);
		}
}

/* Two 23x9 consoles a, b drawn alike: 40 random cells put (each with a
 * background or none when bgs, else none), their damage forgotten after
 * the 21st; *r is the test's generator, stepped as it goes. */
static void twins_drawn(struct console **a, struct console **b, uint64_t *r, bool bgs)
{
	assert_int_equal(con_create(a, 23, 9), 0);
	assert_int_equal(con_create(b, 23, 9), 0);
	for (int k = 0; k < 40; k++) {
		*r = *r * 6364136223846793005u + 1442695040888963407u;
		int x = (int)(*r >> 33) % 23, y = (int)(*r >> 45) % 9;
		uint32_t ch = (*r >> 20) & 1 ? ' ' : 'a' + (uint32_t)(*r >> 50) % 3;
		uint32_t bg = bgs && !((*r >> 21) & 1) ? 0x102030 : 0;
		con_put(*a, x, y, ch, 0xFFFFFF, bg);
		con_put(*b, x, y, ch, 0xFFFFFF, bg);
		if (k == 20) { /* part of the damage forgotten */
			con_clear_damage(*a);
			con_clear_damage(*b);
		}
	}
}

/* a and b (23x9) equal in all a draw leaves: cells, damage, each row's
 * span, the damaged rows and the counts; then both destroyed. */
static void assert_twins_equal(struct console *a, struct console *b)
{
	assert_memory_equal(a->cells, b->cells, sizeof *a->cells * 23 * 9);
	assert_memory_equal(a->damage, b->damage, 23 * 9);
	for (int y = 0; y < 9; y++) {
		assert_int_equal(a->row_damage[y].lo, b->row_damage[y].lo);
		assert_int_equal(a->row_damage[y].hi, b->row_damage[y].hi);
	}
	assert_int_equal(a->damage_y0, b->damage_y0);
	assert_int_equal(a->damage_y1, b->damage_y1);
	assert_int_equal(a->damaged, b->damaged);
	assert_true(a->changes == b->changes);
	con_destroy(a);
	con_destroy(b);
}

/* con_fill, con_copy_rect and con_copy (a row at a time) leave the console
 * exactly as con_put on each of their cells does: cells, damage, each row's span, the damaged rows and
 * the counts, over fills of every shape on consoles already part drawn,
 * part damaged and part moved (cells damaged CON_MOVED). Both ways of
 * setting a row: four cells at a time with AVX2 (where the CPU has it)
 * and one at a time (PIROGUE_BLIT_BASELINE=1: half the rounds). */
static void test_fill_as_cell_by_cell(void **st)
{
	(void)st;
	uint64_t r = 7;
	for (int round = 0; round < 600; round++) {
		struct console *a, *b;
		const bool plain = round / 2 % 2;
		if (plain)
			setenv("PIROGUE_BLIT_BASELINE", "1", 1);
		twins_drawn(&a, &b, &r, true);
		unsetenv("PIROGUE_BLIT_BASELINE");
		if (plain)
			assert_false(a->avx2);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
		else
			assert_int_equal(a->avx2, __builtin_cpu_supports("avx2") != 0);
#endif
		if (round % 3 == 0) { /* part moved: cells damaged CON_MOVED */
			assert_int_equal(con_move(a, 0, 2, 23, 6, 0, -1), 0);
			assert_int_equal(con_move(b, 0, 2, 23, 6, 0, -1), 0);
		}
		r = r * 6364136223846793005u + 1442695040888963407u;
		int fx = (int)(r >> 33) % 27 - 2, fy = (int)(r >> 40) % 12 - 2, fw = (int)(r >> 47) % 26, fh = (int)(r >> 55) % 11;
		uint32_t bg = (r >> 3) & 1 ? 0 : 0x102030;
		con_fill(a, fx, fy, fw, fh, ' ', 0xFFFFFF, bg);
		for (int y = fy; y < fy + fh; y++)
			for (int x = fx; x < fx + fw; x++)
				con_put(b, x, y, ' ', 0xFFFFFF, bg);
		/* and con_copy_rect / con_copy from a console drawn otherwise */
		struct console *src;
		assert_int_equal(con_create(&src, 23, 9), 0);
		for (int k = 0; k < 60; k++)
			con_put(src, (k * 7 + round) % 23, (k * 5 + round) % 9, 'a' + (uint32_t)(k % 4), 0xFFFFFF,
				k % 3 ? 0 : 0x102030);
		if (round % 2) {
			assert_int_equal(con_copy_rect(a, src, fy, fx, fh + 3, fw / 2), 0);
			for (int y = fx; y < fx + fw / 2; y++)
				for (int x = fy; x < fy + fh + 3; x++)
					if (x >= 0 && y >= 0 && x < 23 && y < 9)
						con_cell_set(b, x, y, *con_at(src, x, y));
		} else if (round % 5 == 0) {
			assert_int_equal(con_copy(a, src), 0);
			for (int y = 0; y < 9; y++)
				for (int x = 0; x < 23; x++)
					con_cell_set(b, x, y, *con_at(src, x, y));
		}
		con_destroy(src);
		assert_twins_equal(a, b);
	}
}

/* con_print (a row at a time, print_row) leaves the console exactly as
 * con_put on each cell it prints does, and says as many cells: cells,
 * damage, each row's span, the damaged rows and the counts, for text of
 * one- to three-byte characters at every place (off the grid, its last
 * column), with and without a width, on consoles part drawn, part damaged
 * and part moved (cells damaged CON_MOVED). Both ways of printing a row:
 * four ASCII characters at a time with AVX2 (where the CPU has it) and
 * one at a time (PIROGUE_BLIT_BASELINE=1: half the rounds). */
static void test_print_as_cell_by_cell(void **st)
{
	(void)st;
	static const char *const bits[] = { "a", "b", " ", "\xc3\xa9", "\xe2\x94\x80", "xyz" };
	uint64_t r = 11;
	for (int round = 0; round < 800; round++) {
		struct console *a, *b;
		const bool plain = round / 2 % 2;
		if (plain)
			setenv("PIROGUE_BLIT_BASELINE", "1", 1);
		twins_drawn(&a, &b, &r, true);
		unsetenv("PIROGUE_BLIT_BASELINE");
		assert_true(!plain || !a->avx2);
		if (round % 3 == 0) { /* part moved: cells damaged CON_MOVED */
			assert_int_equal(con_move(a, 0, 1, 23, 6, 0, 1), 0);
			assert_int_equal(con_move(b, 0, 1, 23, 6, 0, 1), 0);
		}
		char text[128];
		size_t len = 0;
		r = r * 6364136223846793005u + 1442695040888963407u;
		for (int k = 0, n = (int)(r >> 58) % 16; k < n; k++) {
			const char *p = bits[(r >> (3 * k % 48)) % 6];
			memcpy(text + len, p, strlen(p));
			len += strlen(p);
		}
		text[len] = 0;
		r = r * 6364136223846793005u + 1442695040888963407u;
		int px = (int)(r >> 33) % 29 - 3, py = (int)(r >> 40) % 12 - 2, max_w = (int)(r >> 47) % 27 - 1;
		uint32_t fg = (r >> 3) & 1 ? 0xFFFFFF : 0x808000, bg = (r >> 4) & 1 ? 0 : 0x102030;
		int got = con_print(a, px, py, fg, bg, text, max_w);
		/* the same cell by cell */
		int want = 0;
		for (size_t i = 0, x = 0; i < len && (max_w < 0 || want < max_w);) {
			uint32_t cp;
			i += utf8_decode(text + i, len - i, &cp);
			con_put(b, px + (int)x, py, cp, fg, bg);
			x++;
			want++;
			if (px + (int)x >= 23)
				break;
		}
		assert_int_equal(got, want);
		assert_twins_equal(a, b);
	}
}

/* con_set_cells leaves the console as con_cell_set on each of its cells
 * in the grid does (cells, damage, spans, rows, counts), for runs at every
 * place, off the grid's edges too, on consoles part drawn, damaged and
 * moved. */
static void test_set_cells_as_cell_by_cell(void **st)
{
	(void)st;
	uint64_t r = 5;
	for (int round = 0; round < 300; round++) {
		struct console *a, *b;
		twins_drawn(&a, &b, &r, false);
		if (round % 3 == 0) {
			assert_int_equal(con_move(a, 0, 1, 23, 6, 0, -1), 0);
			assert_int_equal(con_move(b, 0, 1, 23, 6, 0, -1), 0);
		}
		struct con_cell v[32];
		r = r * 6364136223846793005u + 1442695040888963407u;
		int n = (int)((r >> 20) % 32), x = (int)(r >> 33) % 33 - 6, y = (int)(r >> 45) % 11 - 1;
		for (int k = 0; k < n; k++)
			v[k] = (struct con_cell){ (r >> (k % 40)) & 1 ? ' ' : 'a' + (uint32_t)k % 3, 0xFFFFFF, 0,
						  (uint16_t)(k % 2), (uint16_t)((r >> 7) & 1 ? CON_MAP : 0) };
		con_set_cells(a, x, y, v, n);
		for (int k = 0; k < n; k++)
			if (x + k >= 0 && x + k < 23 && y >= 0 && y < 9)
				con_cell_set(b, x + k, y, v[k]);
		assert_twins_equal(a, b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_bounds),
		cmocka_unit_test(test_damage_only_on_change),
		cmocka_unit_test(test_tile_and_flags_damage),
		cmocka_unit_test(test_row_damage),
		cmocka_unit_test(test_copy_follows_changes),
		cmocka_unit_test(test_print_clips_and_decodes),
		cmocka_unit_test(test_wrap_never_cuts_words),
		cmocka_unit_test(test_wrap_lines_as_printed),
		cmocka_unit_test(test_fill_as_cell_by_cell),
		cmocka_unit_test(test_print_as_cell_by_cell),
		cmocka_unit_test(test_set_cells_as_cell_by_cell),
		cmocka_unit_test(test_box_and_fill),
		cmocka_unit_test(test_damaged_rows),
		cmocka_unit_test(test_changes_and_cleared_at),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
