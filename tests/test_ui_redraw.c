/* ui_draw_frame: a screen redrawn only where its inputs changed ends up cell for cell as ui_draw draws it whole, damaged exactly where it changed, through long games, on every layout. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "game/game.h"
#include "render/console.h"
#include "ui/scr.h"
#include "ui/ui.h"

#define COMMANDS 1000 /* per game size and generator */

static struct ui_drawn drawn; /* large: not on the stack */
static int map_cw = 1;        /* text cells per map cell of the consoles under test */
static bool pictures;         /* the map drawn in pictures (u.pictures) */

static void new_game(struct game **g, uint64_t seed, enum mapgen_kind k)
{
	struct game_opts o = {.seed = seed, .mapgen = k};
	assert_int_equal(game_create(g, &o), 0);
}

/* The game's next command: explore, travel down and take the stairs,
 * fight what is in view, sometimes a random step, wait or pick-up, the
 * level-up choice when one is due. */
static void play(struct game *g, struct rng *r)
{
	struct command c = {.c = CMD_WAIT, .item = -1, .x = -1, .y = -1, .choice = -1};
	char why[96];
	int mx, my;
	if (game_levelup_pending(g)) {
		c.c = CMD_LEVEL_UP;
		c.choice = rng_range(r, 0, 2);
	} else if (rng_range(r, 0, 5) == 0) {
		static const enum cmd any[] = {CMD_MOVE_N, CMD_MOVE_E, CMD_MOVE_S, CMD_MOVE_W, CMD_WAIT, CMD_PICKUP};
		c.c = any[rng_range(r, 0, 5)];
	} else if (game_nearest_monster(g, &mx, &my) == 0) {
		int px, py;
		game_player_pos(g, &px, &py);
		int dx = (mx > px) - (mx < px), dy = (my > py) - (my < py);
		static const enum cmd step[3][3] = {{CMD_MOVE_NW, CMD_MOVE_N, CMD_MOVE_NE},
						   {CMD_MOVE_W, CMD_WAIT, CMD_MOVE_E},
						   {CMD_MOVE_SW, CMD_MOVE_S, CMD_MOVE_SE}};
		c.c = step[dy + 1][dx + 1];
	} else if (!game_explore_step(g, &c, why, sizeof why) && !game_travel_step(g, true, &c, why, sizeof why)) {
		c = (struct command){.c = CMD_DESCEND, .item = -1, .x = -1, .y = -1, .choice = -1};
	}
	game_do(g, &c);
}

/* The camera of the play screen on a cols×rows console (as ui_draw's). */
static void camera(const struct game *g, int cols, int rows, int *cam_x, int *cam_y)
{
	struct ui_layout l;
	int px, py;
	ui_layout(cols, rows, map_cw, &l);
	game_player_pos(g, &px, &py);
	ui_camera(&l, game_map(g)->w, game_map(g)->h, px, py, cam_x, cam_y);
}

/* Plays games on a cols×rows console, changing what the UI shows now and
 * then (a status line, the pointer over the map or the panel, held still
 * while the player walks and the camera scrolls under it, another screen,
 * the gamepad's hints, the demo's hint line); after every command the
 * console brought up to date by ui_draw_frame equals a whole ui_draw and
 * is damaged exactly where it changed (scratch scribbled on between
 * frames), but in a moved view, where a cell may be moved and then drawn
 * back as it was (*spurious counts those); a cell damaged CON_MOVED shows
 * what its source showed. Returns how many frames were redrawn in part;
 * *scrolled counts the frames whose camera moved under a pointer held over
 * the map, *moved those redrawn in part whose camera moved (the view moved
 * in the console, the cells it uncovered drawn). */
static int check_size(int cols, int rows, enum mapgen_kind k, uint64_t seed, int *scrolled, int *moved,
		      int *spurious)
{
	struct console *shown, *scratch, *ref;
	assert_int_equal(con_create(&shown, cols, rows), 0);
	const char *plain = getenv("PIROGUE_BLIT_BASELINE");
	if (plain && *plain == '1')
		assert_false(shown->avx2); /* (the plain paths under test) */
	assert_int_equal(con_create(&scratch, 1, 1), 0); /* ui_draw_frame gives it shown's size */
	assert_int_equal(con_create(&ref, cols, rows), 0);
	struct con_cell *before = malloc((size_t)cols * (size_t)rows * sizeof *before);
	assert_non_null(before);
	memset(&drawn, 0, sizeof drawn);
	struct game *g;
	new_game(&g, seed, k);
	struct ui u;
	memset(&u, 0, sizeof u);
	u.screen = UI_PLAY;
	u.hover_x = u.hover_y = -1;
	u.score_rank = -1;
	u.map_cw = map_cw;
	u.pictures = pictures;
	struct rng r;
	rng_seed(&r, seed);
	int partial = 0, games = 1, depth = 1, hovering = 0, cam_x = 0, cam_y = 0, last_x = -1, last_y = -1;
	*scrolled = *moved = *spurious = 0;
	for (int t = 0; t < COMMANDS; t++) {
		if (game_is_over(g)) {
			game_destroy(g);
			new_game(&g, seed + (uint64_t)++games, k);
			u.screen = UI_PLAY;
		}
		/* the pointer on the console for a while, moved now and then,
		 * over any cell (on the view's edges the description moves
		 * above or to the left; over the panel or beside a small map
		 * none shows); some frames are the pointer's alone, without a
		 * command; between its moves the player walks under it */
		if (hovering > 0 && rng_range(&r, 0, 1)) {
			hovering--;
			u.hover_x = rng_range(&r, 0, cols - 1);
			u.hover_y = rng_range(&r, 0, rows - 1);
			if (rng_range(&r, 0, 1))
				goto draw;
		}
		play(g, &r);
		/* now and then more commands before the frame (auto-explore's
		 * steps drawn late): the floor then changed beyond the last
		 * view's boxes */
		for (int more = rng_range(&r, 0, 12) == 0 ? rng_range(&r, 1, 3) : 0; more > 0 && !game_is_over(g) &&
										  !game_levelup_pending(g);
		     more--)
			play(g, &r);
		ui_after_command(&u, g);
		if (u.screen == UI_LEVELUP && !game_levelup_pending(g))
			u.screen = UI_PLAY;
		depth = game_depth(g) > depth ? game_depth(g) : depth;
		/* what the UI shows, now and then */
		int what = rng_range(&r, 0, 40);
		u.status[0] = 0;
		if (what == 0)
			strcpy(u.status, "Explored this floor.");
		if (what == 1) {
			/* on the player's cell (the player then walks away) */
			int px, py, cx, cy;
			struct ui_layout l;
			ui_layout(cols, rows, map_cw, &l);
			game_player_pos(g, &px, &py);
			camera(g, cols, rows, &cx, &cy);
			u.hover_x = l.view_x + (px - cx) * map_cw + rng_range(&r, 0, map_cw - 1);
			u.hover_y = l.view_y + py - cy;
			hovering = rng_range(&r, 1, 12);
		} else if (hovering > 0) {
			/* the pointer stays where it is */
		} else if (what == 2 && u.screen == UI_PLAY) {
			u.screen = UI_INVENTORY;
		} else if (what == 3) {
			u.last_dev = u.last_dev == DEV_GAMEPAD ? DEV_KEYBOARD : DEV_GAMEPAD;
		} else if (what == 4) {
			u.demo = !u.demo;
		} else {
			u.hover_x = u.hover_y = -1;
			if (u.screen == UI_INVENTORY)
				u.screen = UI_PLAY;
		}
	draw:;
		int was_x = cam_x, was_y = cam_y, mx, my;
		camera(g, cols, rows, &cam_x, &cam_y);
		*scrolled += u.screen == UI_PLAY && (cam_x != was_x || cam_y != was_y) && u.hover_x == last_x &&
			     u.hover_y == last_y && ui_map_cell_at(&u, g, cols, rows, u.hover_x, u.hover_y, &mx, &my) == 0;
		last_x = u.hover_x;
		last_y = u.hover_y;
		/* as the app draws: into the shown console itself (a whole screen
		 * composed apart), its damage then handed to the display */
		memcpy(before, shown->cells, (size_t)cols * (size_t)rows * sizeof *before);
		con_clear_damage(shown);
		bool was_valid = drawn.valid;
		/* scratch holds nothing between calls: scribbled on now and then */
		if (scratch->w == cols && scratch->h == rows && rng_range(&r, 0, 1))
			con_fill(scratch, 0, 0, cols, rows, '#', rng_next(&r) & 0xFFFFFF, rng_next(&r) & 0xFFFFFF);
		ui_draw_frame(&drawn, &u, g, shown, scratch);
		partial += was_valid && drawn.valid;
		*moved += was_valid && drawn.valid && (cam_x != was_x || cam_y != was_y);
		bool moved_now = shown->move.w != 0;
		struct ui_layout l;
		ui_layout(cols, rows, map_cw, &l);
		int mdx = (was_x - cam_x) * map_cw, mdy = was_y - cam_y;
		if (moved_now && (shown->move.dx != mdx || shown->move.dy != mdy))
			fail_msg("%dx%d, command %d: the view moved by %d, %d, the console says %d, %d", cols, rows, t, mdx,
				 mdy, shown->move.dx, shown->move.dy);
		ui_draw(&u, g, ref);
		for (int i = 0; i < cols * rows; i++) {
			if (memcmp(&shown->cells[i], &ref->cells[i], sizeof ref->cells[i]))
				fail_msg("%dx%d, command %d: cell (%d, %d) is U+%04X %06X/%06X flags %d, ui_draw makes U+%04X flags %d "
					 "%06X/%06X",
					 cols, rows, t, i % cols, i / cols, shown->cells[i].ch, shown->cells[i].fg,
					 shown->cells[i].bg, shown->cells[i].flags, ref->cells[i].ch, ref->cells[i].flags, ref->cells[i].fg, ref->cells[i].bg);
			bool same = !memcmp(&before[i], &shown->cells[i], sizeof before[i]);
			/* a moved view's cells may be set back to what they were
			 * before the move (damaged, unchanged): then only in the view */
			bool in_view = moved_now && i / cols >= l.view_y && i / cols < l.view_y + l.view_h &&
				       i % cols >= l.view_x && i % cols < l.view_x + l.view_w;
			if (!shown->damage[i] != same && (!same || !in_view))
				fail_msg("%dx%d, command %d: cell (%d, %d) %s", cols, rows, t, i % cols, i / cols,
					 shown->damage[i] ? "damaged but unchanged" : "changed but not damaged");
			*spurious += shown->damage[i] && same;
			/* a moved cell shows what the cell it came from showed */
			int from = i - mdy * cols - mdx;
			if (shown->damage[i] == CON_MOVED &&
			    (!moved_now || from < 0 || from >= cols * rows ||
			     memcmp(&before[from], &shown->cells[i], sizeof before[i])))
				fail_msg("%dx%d, command %d: cell (%d, %d) damaged as moved, but it does not show what (%d, %d) "
					 "did", cols, rows, t, i % cols, i / cols, (from % cols + cols) % cols, from / cols);
		}
	}
	print_message("%dx%d generator %d: %d of %d frames redrawn in part, %d games, deepest floor %d, the camera "
		      "moved under a still pointer %d times, in a frame redrawn in part %d times (%d cells drawn back "
		      "as they were)\n",
		      cols, rows, (int)k, partial, COMMANDS, games, depth, *scrolled, *moved, *spurious);
	game_destroy(g);
	con_destroy(shown);
	con_destroy(scratch);
	con_destroy(ref);
	free(before);
	return partial;
}

static void test_partial_equals_whole(void **st)
{
	(void)st;
	/* (100×24: a view wider than the floor scrolled up and down, the
	 * columns beside the floor blank) */
	static const int sizes[][2] = {{240, 67}, {80, 24}, {80, 30}, {100, 50}, {40, 24}, {63, 40}, {39, 24}, {100, 24}};
	for (int k = 0; k < MAPGEN_COUNT; k++)
		for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
			int scrolled, moved, spurious;
			int partial = check_size(sizes[i][0], sizes[i][1], (enum mapgen_kind)k, 40 + (uint64_t)i, &scrolled,
						 &moved, &spurious);
			if (sizes[i][0] >= 40)
				assert_true(partial > COMMANDS / 2); /* the path under test was taken */
			else
				assert_int_equal(partial, 0); /* too small: only the message */
			/* where the view is smaller than the map, the camera
			 * scrolled under the pointer */
			struct ui_layout l;
			ui_layout(sizes[i][0], sizes[i][1], 1, &l);
			if (!l.too_small && (l.view_w < MAP_W || l.view_h < MAP_H)) {
				assert_true(scrolled > 0);
				assert_true(moved > 0);
			}
		}
	/* and without AVX2 (consoles made with PIROGUE_BLIT_BASELINE=1: the
	 * drawables compared one by one, the rows set cell by cell) */
	setenv("PIROGUE_BLIT_BASELINE", "1", 1);
	for (size_t i = 0; i < 2; i++) {
		int scrolled, moved, spurious;
		assert_true(check_size(sizes[i][0], sizes[i][1], MAPGEN_CLASSIC, 90 + (uint64_t)i, &scrolled, &moved,
				       &spurious) > COMMANDS / 2);
	}
	unsetenv("PIROGUE_BLIT_BASELINE");
}

/* The same with map cells two text cells wide (docs/cells.md), on the
 * consoles a pixel display's text cells make. */
static void test_partial_equals_whole_wide(void **st)
{
	(void)st;
	static const int sizes[][2] = {{160, 45}, {80, 30}, {107, 32}, {41, 24}};
	map_cw = 2;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		int scrolled, moved, spurious;
		int partial = check_size(sizes[i][0], sizes[i][1], MAPGEN_CLASSIC, 70 + (uint64_t)i, &scrolled, &moved,
					 &spurious);
		assert_true(partial > COMMANDS / 2);
		assert_true(scrolled > 0); /* every one is narrower than the map's 80 map cells */
		assert_true(moved > 0);
	}
	/* and in pictures (--tiles on): the cells carry them */
	pictures = true;
	int scrolled, moved, spurious;
	assert_true(check_size(160, 45, MAPGEN_CLASSIC, 75, &scrolled, &moved, &spurious) > COMMANDS / 2);
	assert_true(moved > 0);
	pictures = false;
	map_cw = 1;
}

/* In glyphs the map's cells carry no picture: two floor cells that look
 * alike are equal cells, so a camera scroll (the view moved, each cell
 * compared with what the display shows there) redraws only cells whose
 * glyph or colours change. With the floors' and walls' picture variants
 * in every cell, a 1080p turn cost 1.25x (a scroll redrew most floor
 * cells). In pictures they carry them. */
static void test_glyphs_carry_no_picture(void **st)
{
	(void)st;
	struct console *c;
	assert_int_equal(con_create(&c, 160, 45), 0);
	struct game *g;
	new_game(&g, 3, MAPGEN_CLASSIC);
	struct ui u = {.screen = UI_PLAY, .hover_x = -1, .hover_y = -1, .score_rank = -1, .map_cw = 2};
	for (int on = 0; on < 2; on++) {
		u.pictures = on;
		ui_draw(&u, g, c);
		int floors = 0, carried = 0, variants = 0;
		uint16_t first = 0;
		for (int i = 0; i < c->w * c->h; i++) {
			const struct con_cell *v = &c->cells[i];
			if (!(v->flags & CON_MAP) || v->ch != '.')
				continue;
			floors++;
			carried += v->tile != 0 || (v->flags & CON_PICTURE) != 0;
			if (v->tile && !first)
				first = v->tile;
			variants += v->tile && v->tile != first;
		}
		assert_true(floors > 50);
		if (on) {
			assert_int_equal(carried, floors);
			assert_true(variants > 0);
		} else {
			assert_int_equal(carried, 0);
		}
	}
	game_destroy(g);
	con_destroy(c);
}

/* The looks the partial redraw takes its map cells from (ui_looks_make)
 * are what ui_tile_look and ui_put_map make of every cell: each state
 * (unseen, remembered, in view), each tile (and a byte no tile is: the
 * floor's look), at cells of every picture variant, in both palettes,
 * glyphs and pictures, map cells one and two text cells wide. */
static void test_looks_as_tile_look(void **st)
{
	(void)st;
	static struct map m;
	m.w = 64;
	m.h = 4;
	static const uint8_t vals[][2] = { { 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 }, { 0, 6 }, { 4, 1 } };
	static const uint8_t tiles[] = { TILE_WALL, TILE_FLOOR, TILE_STAIRS_DOWN, TILE_STAIRS_UP, 9 };
	int checked = 0, varied = 0;
	for (int pal = 0; pal < UI_PALETTE_COUNT; pal++)
		for (int pic = 0; pic < 2; pic++)
			for (int cw = 1; cw <= 2; cw++) {
				struct ui u = { .palette = pal };
				struct ui_layout l;
				ui_layout(160, 45, cw, &l);
				l.pal = ui_palette_of(&u);
				l.pictures = pic;
				struct ui_looks t;
				ui_looks_make(&l, &t);
				for (int i = 0; i < m.w * m.h; i++) {
					const uint8_t *vx = vals[i % 6];
					m.visible[i] = vx[0];
					m.explored[i] = vx[1];
					m.tile[i] = tiles[(i / 6) % 5];
					struct con_cell v = { ' ', 0xFFFFFF, l.pal->bg, 0, 0 };
					bool seen = ui_tile_look(&l, &m, i, &v);
					unsigned s = ui_looks_state(&m, i), k = ui_looks_tile(&m, i);
					uint16_t h = (uint16_t)(ui_tile_var(i) & t.var[s][k]);
					struct con_cell b = t.base[s][k];
					b.tile = (uint16_t)(b.tile + h);
					assert_memory_equal(&b, &v, sizeof v); /* (unseen: the blank a drawable is put on) */
					/* as ui_put_map writes it (unseen: as con_clear left it) */
					struct console *c;
					assert_int_equal(con_create(&c, 4, 1), 0);
					con_put(c, 0, 0, 'x', 1, 2);
					con_put(c, 1, 0, 'x', 1, 2);
					if (seen)
						ui_put_map(&l, c, 0, 0, v, -1, 0, 0);
					else
						for (int j = 0; j < cw; j++)
							con_put(c, j, 0, ' ', 0xFFFFFF, l.pal->bg);
					for (int j = 0; j < cw; j++) {
						struct con_cell e = t.cell[s][k][j];
						e.tile = (uint16_t)(e.tile + h);
						assert_memory_equal(&e, &c->cells[j], sizeof e);
					}
					con_destroy(c);
					checked++;
					varied += h != 0;
				}
			}
	assert_int_equal(checked, 2 * 2 * 2 * 256);
	assert_true(varied > 0); /* the variants were taken */
}

/* A console written behind the update's back is drawn whole again once
 * forgotten; a different console is drawn whole by itself. */
static void test_forget(void **st)
{
	(void)st;
	struct console *a, *b, *ref, *scratch;
	assert_int_equal(con_create(&a, 80, 30), 0);
	assert_int_equal(con_create(&b, 80, 30), 0);
	assert_int_equal(con_create(&ref, 80, 30), 0);
	assert_int_equal(con_create(&scratch, 80, 30), 0);
	memset(&drawn, 0, sizeof drawn);
	struct game *g;
	new_game(&g, 3, MAPGEN_CLASSIC);
	struct ui u = {.screen = UI_PLAY, .hover_x = -1, .hover_y = -1, .score_rank = -1};
	ui_draw_frame(&drawn, &u, g, a, scratch);
	ui_draw(&u, g, ref);
	con_clear(a, 0);
	ui_drawn_forget(&drawn);
	ui_draw_frame(&drawn, &u, g, a, scratch);
	assert_memory_equal(a->cells, ref->cells, 80 * 30 * sizeof *ref->cells);
	ui_draw_frame(&drawn, &u, g, b, scratch); /* another console: whole */
	assert_memory_equal(b->cells, ref->cells, 80 * 30 * sizeof *ref->cells);
	game_destroy(g);
	con_destroy(a);
	con_destroy(b);
	con_destroy(ref);
	con_destroy(scratch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partial_equals_whole),
		cmocka_unit_test(test_partial_equals_whole_wide),
		cmocka_unit_test(test_glyphs_carry_no_picture),
		cmocka_unit_test(test_looks_as_tile_look),
		cmocka_unit_test(test_forget),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
