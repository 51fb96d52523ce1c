/* Tests of blit_move_cells (src/render/blit_move.c) with con_move (console.c): a console whose cells move (a scrolled view), its moved cells' pixels moved on the surface and the rest drawn, gives the pixels of a whole draw, at every rotation, in both formats, centred or not, with damage before the move and two moves in a frame. */
#include "testutil.h"
#include "blitfont.h"
#include "core/rng.h"
#include "render/blit.h"
#include "render/console.h"
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A surface of logical size lw×lh at rotation rot, all black. */
static struct surface surf(enum surf_format fmt, int rot, int lw, int lh)
{
	bool turned = rot == 90 || rot == 270;
	struct surface s = { .width = turned ? lh : lw, .height = turned ? lw : lh, .format = fmt, .rotation = rot };
	s.stride = s.width * surf_bpp(fmt) + 8; /* padding too */
	s.pixels = calloc((size_t)s.height, (size_t)s.stride);
	assert_non_null(s.pixels);
	return s;
}

/* A cell of a few looks (so that many cells are alike, as on a map). */
static void put_some(struct console *c, struct rng *r, int x, int y)
{
	static const uint32_t chs[] = { ' ', '@', 'F', 'R', 'g', 0x2588, TF_BLEND_CP };
	static const uint32_t cols[] = { 0xFFFFFF, 0x3C3C50, 0xC0A080 };
	con_put(c, x, y, chs[rng_range(r, 0, 6)], cols[rng_range(r, 0, 2)], rng_range(r, 0, 3) ? 0 : 0x141420);
}

/* A random rectangle of c moved by a random (dx, dy) (vertical only when
 * rows); returns con_move's answer. */
static int move_some(struct console *c, struct rng *r, bool rows)
{
	int w = rows ? c->w : rng_range(r, 1, c->w), h = rng_range(r, 1, c->h);
	int x = rows ? 0 : rng_range(r, 0, c->w - w), y = rng_range(r, 0, c->h - h);
	int dx = rows ? 0 : rng_range(r, -(w - 1), w - 1), dy = rng_range(r, -(h - 1), h - 1);
	if (rng_range(r, 0, 3)) /* mostly by one or two, as a camera scrolls */
		dx = dx > 2 ? 2 : dx < -2 ? -2 : dx, dy = dy > 2 ? 2 : dy < -2 ? -2 : dy;
	return con_move(c, x, y, w, h, dx, dy);
}

/* Frames of a cols×rows console on surfaces of logical lw×lh: each frame
 * maybe changes some cells, moves a part (sometimes twice), changes some
 * more; one surface gets blit_move_cells, con_moved_done and the damaged
 * draw, the other a whole draw; they must be equal. Returns how many frames
 * moved pixels. */
static int frames(const struct font *f, enum surf_format fmt, int rot, bool centred, int cols, int rows, int lw,
		  int lh, uint64_t seed)
{
	struct blitter *b;
	assert_int_equal(blit_create(&b, f, 1), 0);
	blit_set_centred(b, centred);
	struct console *c;
	assert_int_equal(con_create(&c, cols, rows), 0);
	struct rng r;
	rng_seed(&r, seed);
	for (int y = 0; y < rows; y++)
		for (int x = 0; x < cols; x++)
			put_some(c, &r, x, y);
	struct surface a = surf(fmt, rot, lw, lh), whole = surf(fmt, rot, lw, lh);
	size_t size = (size_t)a.height * (size_t)a.stride;
	blit_draw(b, c, &a, NULL);
	con_clear_damage(c);
	int moved = 0;
	for (int t = 0; t < 120; t++) {
		int before = rng_range(&r, 0, 2) ? 0 : rng_range(&r, 1, 6); /* damage before the move: not fresh */
		for (int i = 0; i < before; i++)
			put_some(c, &r, rng_range(&r, 0, cols - 1), rng_range(&r, 0, rows - 1));
		assert_int_equal(move_some(c, &r, false), 0);
		if (!rng_range(&r, 0, 7))
			assert_int_equal(move_some(c, &r, false), 0); /* a second move: the first one's cells drawn */
		for (int i = rng_range(&r, 0, 8); i > 0; i--)
			put_some(c, &r, rng_range(&r, 0, cols - 1), rng_range(&r, 0, rows - 1));
		bool fits = (long)cols * f->cell_w <= lw && (long)rows * f->cell_h <= lh, any = c->move.w;
		int rc = blit_move_cells(b, c, &a);
		assert_int_equal(rc, fits || !any ? 0 : -ERANGE);
		if (!rc) {
			moved += c->move.w != 0;
			con_moved_done(c);
		}
		blit_draw(b, c, &a, c->damage);
		blit_draw(b, c, &whole, NULL);
		if (memcmp(a.pixels, whole.pixels, size))
			fail_msg("%s rotation %d %s %dx%d on %dx%d, frame %d: moved and drawn differs from a whole draw",
				 fmt == SURF_RGB565 ? "RGB565" : "XRGB8888", rot, centred ? "centred" : "top-left", cols,
				 rows, lw, lh, t);
		con_clear_damage(c);
	}
	free(a.pixels);
	free(whole.pixels);
	con_destroy(c);
	blit_destroy(b);
	return moved;
}

static void test_moved_equals_whole(void **st)
{
	(void)st;
	struct font *f = tf_make(0);
	assert_non_null(f);
	static const int rots[] = { 0, 90, 180, 270 };
	static const enum surf_format fmts[] = { SURF_XRGB8888, SURF_RGB565 };
	for (int ri = 0; ri < 4; ri++)
		for (int fi = 0; fi < 2; fi++)
			for (int ce = 0; ce < 2; ce++) {
				uint64_t seed = (uint64_t)(ri * 4 + fi * 2 + ce);
				/* the console fits (centred with 7 and 5 pixels to spare) */
				assert_true(frames(f, fmts[fi], rots[ri], ce, 13, 9, 13 * TF_W + 7, 9 * TF_H + 5, seed) >
					    60);
				/* rows of more than 64 cells (the moved cells' bits in
				 * words of 64) */
				assert_true(frames(f, fmts[fi], rots[ri], ce, 150, 4, 150 * TF_W + 3, 4 * TF_H, seed) >
					    60);
				/* it does not (clipped): nothing moved, all drawn */
				assert_int_equal(frames(f, fmts[fi], rots[ri], ce, 13, 9, 13 * TF_W - 4, 9 * TF_H, seed), 0);
			}
	tf_free(f);
}

/* con_move's damage: a moved cell that shows what it showed before is not
 * damaged; one that shows another cell's look is CON_MOVED when that cell
 * was not damaged, CON_DRAW when it was; the cells it uncovers keep theirs;
 * a cell set after the move is CON_DRAW; and the count of damaged cells
 * stays that of the damage bytes. With the console's scrolls, a fresh move
 * of whole rows damages nothing. */
static void test_move_damage(void **st)
{
	(void)st;
	struct console *c;
	assert_int_equal(con_create(&c, 6, 4), 0);
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 6; x++)
			con_put(c, x, y, (uint32_t)('a' + y), 0xFFFFFF, 0);
	con_put(c, 2, 0, 'z', 0xFFFFFF, 0);
	con_clear_damage(c);
	con_put(c, 4, 1, 'q', 0xFFFFFF, 0); /* damaged before the move */
	/* rows 0..3, columns 1..4, down by one */
	assert_int_equal(con_move(c, 1, 0, 4, 4, 0, 1), 0);
	assert_false(c->move.fresh);
	assert_int_equal(con_at(c, 1, 1)->ch, 'a');
	assert_int_equal(c->damage[1 * 6 + 1], CON_MOVED); /* 'a' over 'b' */
	assert_int_equal(con_at(c, 2, 1)->ch, 'z');
	assert_int_equal(c->damage[1 * 6 + 2], CON_MOVED);
	assert_int_equal(con_at(c, 4, 2)->ch, 'q');
	assert_int_equal(c->damage[2 * 6 + 4], CON_DRAW); /* its source was damaged */
	assert_int_equal(con_at(c, 2, 0)->ch, 'z');       /* uncovered: kept */
	assert_int_equal(c->damage[0 * 6 + 2], 0);
	assert_int_equal(c->damage[0 * 6 + 0], 0); /* outside the rectangle */
	con_put(c, 1, 1, 'x', 0xFFFFFF, 0);
	assert_int_equal(c->damage[1 * 6 + 1], CON_DRAW);
	int n = 0;
	for (int i = 0; i < 24; i++)
		n += c->damage[i] != 0;
	assert_int_equal(c->damaged, n);
	/* a row moved onto equal cells: not damaged */
	con_clear_damage(c);
	assert_int_equal(c->move.w, 0);
	for (int x = 0; x < 6; x++) {
		con_put(c, x, 2, 'c', 0xFFFFFF, 0);
		con_put(c, x, 3, 'c', 0xFFFFFF, 0);
	}
	con_clear_damage(c);
	assert_int_equal(con_move(c, 0, 2, 6, 2, 0, 1), 0);
	assert_true(c->move.fresh);
	assert_int_equal(c->damaged, 0);
	con_moved_done(c);
	assert_int_equal(c->move.w, 0);
	/* a console whose display scrolls: a fresh move of whole rows is whole
	 * (the cells moved, none damaged); one of part of the width is not; a
	 * second move before the present damages the whole one's rectangle */
	c->scrolls = true;
	con_clear_damage(c);
	con_put(c, 3, 0, 'w', 0xFFFFFF, 0);
	con_clear_damage(c);
	assert_int_equal(con_move(c, 0, 0, 6, 3, 0, 1), 0);
	assert_true(c->move.whole);
	assert_int_equal(c->damaged, 0);
	assert_int_equal(con_at(c, 3, 1)->ch, 'w');
	assert_int_equal(con_move(c, 1, 0, 5, 4, 0, -1), 0);
	assert_false(c->move.whole);
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 6; x++)
			assert_int_not_equal(c->damage[y * 6 + x], 0);
	con_clear_damage(c);
	assert_int_equal(con_move(c, 1, 0, 5, 4, 0, 1), 0);
	assert_false(c->move.whole); /* not the full width */
	c->scrolls = false;
	/* bad moves change nothing */
	assert_int_equal(con_move(c, 0, 0, 7, 1, 0, 0), -EINVAL);
	assert_int_equal(con_move(c, 0, 0, 6, 4, 0, 4), -EINVAL);
	assert_int_equal(con_move(c, 0, 0, 6, 4, -6, 0), -EINVAL);
	con_destroy(c);
}

/* A fresh move of rows (no damage in them: the usual frame) damages
 * exactly the cells whose look it changed, CON_MOVED, each row's damage
 * span from the first of them to the last, the count that of the damage
 * bytes: 300 random moves of up to three rows, on consoles of a few
 * looks; then presented (con_moved_done: no damage left) or moved again
 * (the first move's cells drawn, the count that of the bytes). Both
 * compares: AVX2's (where the CPU has it) and the plain one. */
static void test_fresh_move_damage_exact(void **st)
{
	(void)st;
	/* both compares: AVX2 where the CPU has it, then the plain one */
	for (int plain = 0; plain < 2; plain++) {
	if (plain)
		setenv("PIROGUE_BLIT_BASELINE", "1", 1);
	struct rng r;
	rng_seed(&r, 77);
	struct console *c;
	assert_int_equal(con_create(&c, 37, 9), 0);
	unsetenv("PIROGUE_BLIT_BASELINE");
	if (plain)
		assert_false(c->avx2);
	static struct con_cell before[37 * 9];
	for (int t = 0; t < 300; t++) {
		for (int k = rng_range(&r, 0, 80); k > 0; k--)
			put_some(c, &r, rng_range(&r, 0, 36), rng_range(&r, 0, 8));
		con_clear_damage(c);
		memcpy(before, c->cells, sizeof before);
		int w = rng_range(&r, 1, 37), h = rng_range(&r, 2, 9);
		int x = rng_range(&r, 0, 37 - w), y = rng_range(&r, 0, 9 - h);
		int dy = rng_range(&r, 1, h - 1 < 3 ? h - 1 : 3) * (rng_range(&r, 0, 1) ? 1 : -1);
		assert_int_equal(con_move(c, x, y, w, h, 0, dy), 0);
		assert_true(c->move.fresh);
		int n = 0;
		for (int yy = 0; yy < 9; yy++) {
			int lo = -1, hi = -1;
			for (int xx = 0; xx < 37; xx++) {
				int i = yy * 37 + xx;
				bool changed = !con_cell_eq(before[i], c->cells[i]);
				assert_int_equal(c->damage[i], changed ? CON_MOVED : 0);
				if (changed) {
					lo = lo < 0 ? xx : lo;
					hi = xx;
					n++;
				}
			}
			if (lo < 0) {
				assert_false(con_span_any(c->row_damage[yy]));
				continue;
			}
			assert_int_equal(c->row_damage[yy].lo, lo);
			assert_int_equal(c->row_damage[yy].hi, hi);
		}
		assert_int_equal(c->damaged, n);
		if (t % 2) { /* presented: the moved cells' damage forgotten */
			con_moved_done(c);
			for (int i = 0; i < 37 * 9; i++)
				assert_int_equal(c->damage[i], 0);
			assert_int_equal(c->damaged, 0);
			continue;
		}
		/* moved again before a present: the first move's cells drawn */
		static uint8_t was[37 * 9];
		memcpy(was, c->damage, sizeof was);
		assert_int_equal(con_move(c, 0, 0, 37, 9, 0, rng_range(&r, 0, 1) ? 1 : -1), 0);
		n = 0;
		for (int i = 0; i < 37 * 9; i++) {
			n += c->damage[i] != 0;
			if (was[i])
				assert_int_not_equal(c->damage[i], 0);
		}
		assert_int_equal(c->damaged, n);
	}
	con_destroy(c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_moved_equals_whole),
		cmocka_unit_test(test_fresh_move_damage_exact),
		cmocka_unit_test(test_move_damage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
