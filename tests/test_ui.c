#include "testutil.h"
#include "gamefix.h"
#include "ui/scr.h"
#include "game/map.h"
#include "ui/ui.h"
#include "game/world.h"
#include "core/rng.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static void test_reference_layout(void **st)
{
	(void)st;
	struct ui_layout l;
	ui_layout(80, 50, 1, &l);
	assert_false(l.too_small);
	assert_false(l.compact);
	/* GAME.md §6: map 80×43 on top, panel below, hint on the last row */
	assert_int_equal(l.view_w, 80);
	assert_int_equal(l.view_h, 43);
	assert_int_equal(l.panel_y, 43);
	assert_int_equal(l.hint_y, 49);
	assert_int_equal(l.log_h, 5);
	/* the log sits beside the 20-wide HP bar without overlapping it */
	assert_true(l.log_x >= 21);
	assert_true(l.log_x + l.log_w <= 80);
	assert_true(l.log_y > l.panel_y - 1 && l.log_y + l.log_h <= l.hint_y);
}

/* Rows the map does not need go to the log (up to 10 lines), the rest to
 * a margin: 1920×1080 with DejaVu 21×21 is 91×51, 1024×768 85×64. */
static void test_spare_rows_to_log(void **st)
{
	(void)st;
	struct ui_layout l;
	ui_layout(91, 51, 1, &l);
	assert_int_equal(l.view_h, MAP_H);
	assert_int_equal(l.log_h, 6);
	assert_int_equal(l.log_y + l.log_h, l.hint_y);
	ui_layout(85, 64, 1, &l);
	assert_int_equal(l.log_h, 10);
	assert_int_equal(l.view_h, 64 - 12);
	assert_int_equal(l.log_y + l.log_h, l.hint_y);
	ui_layout(60, 53, 1, &l); /* compact: the same */
	assert_true(l.compact);
	assert_int_equal(l.log_h, 8);
	assert_int_equal(l.view_h, MAP_H);
}

static void test_small_and_too_small(void **st)
{
	(void)st;
	struct ui_layout l;
	ui_layout(40, 30, 1, &l);
	assert_false(l.too_small);
	assert_true(l.compact);
	assert_int_equal(l.view_w, 40);
	assert_int_equal(l.view_h, 23);
	assert_true(l.log_y + l.log_h <= l.hint_y);
	assert_true(l.log_x + l.log_w <= 40);
	ui_layout(39, 30, 1, &l);
	assert_true(l.too_small);
	/* the usual terminal, 80×24: a 3-row panel (stats, two log lines),
	 * the hint on the last row, the rest map (it scrolls) */
	ui_layout(80, 24, 1, &l);
	assert_false(l.too_small);
	assert_true(l.compact);
	assert_int_equal(l.view_h, 20);
	assert_int_equal(l.panel_y, 20);
	assert_int_equal(l.log_y, 21);
	assert_int_equal(l.log_h, 2);
	assert_int_equal(l.hint_y, 23);
	assert_true(l.log_y + l.log_h <= l.hint_y);
	ui_layout(40, 24, 1, &l);
	assert_false(l.too_small);
	/* 40×26 (a 320×240 panel with the 8×9 font): two more log lines,
	 * up to the full five at 27 rows and more */
	ui_layout(40, 26, 1, &l);
	assert_true(l.compact);
	assert_int_equal(l.log_h, 4);
	assert_int_equal(l.view_h, 20);
	assert_int_equal(l.log_y + l.log_h, l.hint_y);
	for (int rows = 27; rows < 30; rows++) {
		ui_layout(80, rows, 1, &l);
		assert_true(l.compact);
		assert_int_equal(l.log_h, 5);
		assert_int_equal(l.view_h, rows - 7);
	}
	ui_layout(80, 23, 1, &l);
	assert_true(l.too_small);
}

static int commands;
static int count_command(void *ctx, const struct command *cmd)
{
	(void)ctx;
	(void)cmd;
	commands++;
	return 1;
}
static int no_request(void *ctx, enum ui_request r)
{
	(void)ctx;
	(void)r;
	return 0;
}
static int quits;
static int count_quit(void *ctx, enum ui_request r)
{
	(void)ctx;
	quits += r == UI_REQ_QUIT;
	return 0;
}

/* While "Screen too small" shows, keys play nothing (they used to play
 * turns unseen). */
static void test_too_small_takes_no_input(void **st)
{
	(void)st;
	struct game *g = gamefix_room(1);
	struct ui u = { .screen = UI_PLAY, .hover_x = -1, .hover_y = -1 };
	struct ui_host h = { NULL, count_command, no_request };
	struct ui_input in = { .kind = UI_IN_KEY, .act = ACT_MOVE_E, .key = 'l', .from = DEV_KEYBOARD,
			       .cols = 30, .rows = 20 };
	commands = 0;
	ui_input(&u, g, &h, &in);
	assert_int_equal(commands, 0);
	assert_int_equal(u.screen, UI_PLAY);
	in.act = ACT_HELP;
	ui_input(&u, g, &h, &in);
	assert_int_equal(u.screen, UI_PLAY);
	in.act = ACT_MOVE_E;
	in.cols = 80;
	in.rows = 24;
	ui_input(&u, g, &h, &in);
	assert_int_equal(commands, 1);
	game_destroy(g);
}

/* "Screen too small" is never a trap (a bare console whose font or scale
 * leaves too few cells, where Ctrl+C is a key like any other: no key did
 * anything): Q and the pad's Start leave pirogue (saved), said on screen
 * with the key as bound; nothing else does anything. */
static void test_too_small_can_quit(void **st)
{
	(void)st;
	struct game *g = gamefix_room(1);
	struct ui u = { .screen = UI_PLAY, .hover_x = -1, .hover_y = -1, .last_dev = DEV_KEYBOARD };
	struct ui_host h = { NULL, count_command, count_quit };
	struct ui_input in = { .kind = UI_IN_KEY, .act = ACT_CANCEL, .key = KEY_ESCAPE, .from = DEV_KEYBOARD,
			       .cols = 30, .rows = 10 };
	quits = commands = 0;
	ui_input(&u, g, &h, &in);
	assert_int_equal(quits, 0);
	in.act = ACT_QUIT;
	in.key = 'Q';
	ui_input(&u, g, &h, &in);
	assert_int_equal(quits, 1);
	in.act = ACT_MENU;
	in.key = PAD_START;
	in.from = DEV_GAMEPAD;
	ui_input(&u, g, &h, &in);
	assert_int_equal(quits, 2);
	assert_int_equal(commands, 0);
	struct console *c;
	assert_int_equal(con_create(&c, 30, 10), 0);
	u.last_dev = DEV_KEYBOARD;
	ui_draw(&u, g, c);
	char row[31] = "";
	for (int x = 0; x < 30; x++)
		row[x] = (char)con_at(c, x, 8)->ch;
	assert_non_null(strstr(row, "Q: quit"));
	con_destroy(c);
	game_destroy(g);
}

static void test_camera_follows_and_centres(void **st)
{
	(void)st;
	struct ui_layout l;
	int cx, cy;
	ui_layout(40, 30, 1, &l);
	/* every focus cell of an 80×43 map stays inside the scrolled view */
	for (int y = 0; y < 43; y++)
		for (int x = 0; x < 80; x++) {
			ui_camera(&l, 80, 43, x, y, &cx, &cy);
			assert_true(x - cx >= 0 && x - cx < l.view_w);
			assert_true(y - cy >= 0 && y - cy < l.view_h);
			assert_true(cx >= 0 && cx + l.view_w <= 80); /* never scrolls past the edge */
			assert_true(cy >= 0 && cy + l.view_h <= 43);
		}
	/* a bigger console centres the whole map */
	ui_layout(120, 67, 1, &l);
	ui_camera(&l, 80, 43, 5, 5, &cx, &cy);
	assert_int_equal(cx, -20);
	assert_int_equal(cy, -(55 - 43) / 2); /* 67 rows: 10 log lines, 55 for the map */
	/* the reference size shows the map exactly */
	ui_layout(80, 50, 1, &l);
	ui_camera(&l, 80, 43, 79, 42, &cx, &cy);
	assert_int_equal(cx, 0);
	assert_int_equal(cy, 0);
}

/* Map cells two text cells wide (docs/cells.md): the view shows view_w / 2
 * map columns, centred or scrolled by them; every map cell of the play
 * screen is a CON_WIDE head at an even column of the view and its
 * CON_TAIL copy; a pointer over either half finds that map cell. */
static void test_wide_map_cells(void **st)
{
	(void)st;
	struct ui_layout l;
	int cx, cy, mx, my;
	ui_layout(160, 45, 2, &l);
	assert_int_equal(l.map_cw, 2);
	assert_int_equal(l.view_w, 160);
	ui_camera(&l, 80, 43, 79, 20, &cx, &cy);
	assert_int_equal(cx, 0); /* 80 map columns: the map exactly */
	ui_layout(100, 45, 2, &l);
	ui_camera(&l, 80, 43, 79, 20, &cx, &cy);
	assert_int_equal(cx, 80 - 50); /* 50 map columns, scrolled to the map's edge */
	ui_camera(&l, 30, 20, 5, 5, &cx, &cy);
	assert_int_equal(cx, -10); /* a 30-wide floor centred in 50 */
	struct game *g = gamefix_new(5, MAPGEN_CLASSIC);
	struct ui u = { .screen = UI_PLAY, .hover_x = -1, .hover_y = -1, .score_rank = -1, .map_cw = 2 };
	struct console *c;
	assert_int_equal(con_create(&c, 100, 45), 0);
	ui_draw(&u, g, c);
	ui_layout(100, 45, 2, &l);
	int px, py;
	game_player_pos(g, &px, &py);
	ui_camera(&l, game_map(g)->w, game_map(g)->h, px, py, &cx, &cy);
	const struct con_cell *head = con_at(c, (px - cx) * 2, py - cy), *tail = head + 1;
	assert_int_equal(head->ch, '@');
	assert_int_equal(head->flags, CON_MAP | CON_WIDE);
	assert_int_equal(tail->flags, CON_MAP | CON_TAIL);
	assert_int_equal(tail->ch, '@');
	assert_int_equal(tail->fg, head->fg);
	assert_int_equal(tail->bg, head->bg);
	for (int y = 0; y < l.view_h; y++)
		for (int x = 0; x < l.view_w; x++) {
			const struct con_cell *k = con_at(c, x, y);
			if (k->flags & CON_MAP)
				assert_int_equal(k->flags, x % 2 ? CON_MAP | CON_TAIL : CON_MAP | CON_WIDE);
		}
	for (int half = 0; half < 2; half++) {
		assert_int_equal(ui_map_cell_at(&u, g, 100, 45, (px - cx) * 2 + half, py - cy, &mx, &my), 0);
		assert_int_equal(mx, px);
		assert_int_equal(my, py);
	}
	con_destroy(c);
	game_destroy(g);
}

static void test_menu_items(void **st)
{
	(void)st;
	struct ui u = { 0 };
	enum ui_menu_item it[MENU_COUNT];
	assert_int_equal(ui_menu_items(&u, it), 6);
	assert_int_equal(it[0], MENU_NEW_GAME);
	assert_int_equal(it[1], MENU_DAILY);
	assert_int_equal(it[2], MENU_SCORES);
	assert_int_equal(it[3], MENU_OPTIONS);
	assert_int_equal(it[4], MENU_HELP);
	assert_int_equal(it[5], MENU_QUIT);
	/* a game to continue comes first */
	u.can_continue = true;
	assert_int_equal(ui_menu_items(&u, it), 7);
	assert_int_equal(it[0], MENU_CONTINUE);
	assert_int_equal(it[1], MENU_NEW_GAME);
}

static void test_title_and_too_small_draw(void **st)
{
	(void)st;
	struct console *c;
	struct ui u = { 0 };
	assert_int_equal(con_create(&c, 80, 50), 0);
	ui_draw(&u, NULL, c);
	/* the menu and the hint are on screen */
	int found_new = 0;
	for (int y = 0; y < 50; y++)
		for (int x = 0; x + 8 < 80; x++)
			if (con_at(c, x, y)->ch == 'N' && con_at(c, x + 1, y)->ch == 'e' && con_at(c, x + 4, y)->ch == 'g')
				found_new = 1;
	assert_true(found_new);
	assert_int_equal(con_resize(c, 30, 20), 0);
	ui_draw(&u, NULL, c);
	assert_int_equal(con_at(c, 1, 9)->ch, 'S'); /* "Screen too small." */
	con_destroy(c);
}

/* The hint line's fitting (issue 9): brief labels first, then items left
 * out, the least important (last) first each time, never a key with no
 * word of what it does (it read "g: get  d  o  ><  x  v  Q  c" at 80
 * columns); items that keep their words lose them only when nothing else
 * is left; room left brings full labels back, the most important first. */
static void test_hint_fit(void **st)
{
	(void)st;
	struct ui_hint h[4] = {
		{ "m: move", "m: move", "m", true, true },          /* 7, kept */
		{ "i: inventory", "i: inv", "i", false, true },     /* 12 / 6 / 1 */
		{ "v: messages", "v: log", "v", false, true },      /* 11 / 6 / 1 */
		{ "c: character", "c: char", "c", false, true },    /* 12 / 7 / 1 */
	};
	int form[4];
	/* all in full: 7 + 12 + 11 + 12 + 3 gaps of 2 */
	assert_int_equal(ui_hint_fit(h, 4, 48, form), 48);
	for (int i = 0; i < 4; i++)
		assert_int_equal(form[i], 0);
	/* one column short: the last item takes its brief label, no more */
	assert_int_equal(ui_hint_fit(h, 4, 47, form), 43);
	assert_int_equal(form[3], 1);
	assert_int_equal(form[0] + form[1] + form[2], 0);
	/* every brief label before any is left out */
	assert_int_equal(ui_hint_fit(h, 4, 32, form), 32);
	assert_true(form[1] == 1 && form[2] == 1 && form[3] == 1);
	/* then left out from the end, never reduced to a bare key */
	assert_int_equal(ui_hint_fit(h, 4, 25, form), 23);
	assert_true(form[1] == 1 && form[2] == 1 && form[3] == 3);
	/* the room that leaves: the first brief label that fits is full again */
	assert_int_equal(ui_hint_fit(h, 4, 29, form), 29);
	assert_true(form[0] == 0 && form[1] == 0 && form[2] == 1 && form[3] == 3);
	/* the kept item keeps its words */
	assert_int_equal(ui_hint_fit(h, 4, 16, form), 15);
	assert_true(form[0] < 2 && form[1] == 1 && form[2] == 3 && form[3] == 3);
	assert_int_equal(ui_hint_fit(h, 4, 13, form), 7);
	assert_true(form[0] < 2 && form[1] == 3 && form[2] == 3 && form[3] == 3);
	for (int w = 0; w <= 48; w++) { /* at no width a bare key but the kept one's */
		ui_hint_fit(h, 4, w, form);
		for (int i = 1; i < 4; i++)
			assert_int_not_equal(form[i], 2);
	}
	/* the others all gone, then the kept one is reduced */
	assert_int_equal(ui_hint_fit(h, 4, 7, form), 7);
	assert_true(form[0] < 2 && form[1] == 3 && form[2] == 3 && form[3] == 3);
	assert_int_equal(ui_hint_fit(h, 4, 5, form), 1);
	assert_true(form[0] == 2);
	assert_int_equal(ui_hint_fit(h, 4, 0, form), 0);
	assert_int_equal(form[0], 3);
}

/* The log box, rows ly..ly+lh-1 from column lx, as text, with the
 * wrapping of every message done here afresh (the reference for the kept
 * wraps of draw_log). */
static void log_reference(const struct game *g, int w, int h, char out[][256])
{
	for (int r = 0; r < h; r++)
		memset(out[r], ' ', (size_t)w), out[r][w] = 0;
	struct console *c;
	assert_int_equal(con_create(&c, w, h), 0);
	int line = h;
	for (int i = game_msg_count(g) - 1; i >= 0 && line > 0; i--) {
		char text[160];
		game_msg_format(game_msg_get(g, i), text, sizeof text);
		int need = con_wrapped_lines(w, text), top = line - need;
		if (top < 0) {
			con_print_wrapped_from(c, 0, 0, w, line, -top, 0xFFFFFF, 0, text);
			break;
		}
		con_print_wrapped(c, 0, top, w, need, 0xFFFFFF, 0, text);
		line = top;
	}
	for (int r = 0; r < h; r++)
		for (int x = 0; x < w; x++) {
			uint32_t ch = con_at(c, x, r)->ch;
			out[r][x] = ch < 128 && ch >= 32 ? (char)ch : '?';
		}
	con_destroy(c);
}

/* Each message is wrapped once and kept (issue 22): the log drawn at
 * changing widths, with messages repeating ("(x2)", the same text with
 * another count), long ones cut at the top, and on past the game's log's
 * length (its places in memory taking other texts: where a message was
 * found last is only a hint), is the log wrapped afresh. */
static void test_log_wraps_kept(void **st)
{
	(void)st;
	struct game *g = gamefix_new(3, MAPGEN_CLASSIC);
	struct ui u = { .screen = UI_PLAY, .hover_x = -1, .hover_y = -1 };
	static const int widths[] = { 120, 80, 60, 80, 41, 120 };
	static const char *const said[] = {
		"You attack the troll for 8 hit points.", "Troll attacks you but does no damage.",
		"A very long message that wraps over several lines of the log box when the box is narrow, and over "
		"two when it is wide.", "Troll attacks you but does no damage.",
	};
	for (int k = 0; k < 30 + GAME_LOG_MAX + 7; k++) {
		if (k < 30 || k % 5 == 0)
			world_msg(g, 0xFFFFFF, "%s", said[k % 4 == 3 ? 1 : k % 3]);
		else
			world_msg(g, 0xFFFFFF, "Message %d of the long run.", k % 7);
		int cols = widths[k % 6];
		struct console *c;
		assert_int_equal(con_create(&c, cols, 40), 0);
		ui_draw(&u, g, c);
		struct ui_layout l;
		ui_layout(cols, 40, 1, &l);
		char want[UI_LOG_LINES + 2][256];
		assert_true(l.log_h <= UI_LOG_LINES + 2);
		log_reference(g, l.log_w, l.log_h, want);
		for (int r = 0; r < l.log_h; r++)
			for (int x = 0; x < l.log_w; x++) {
				uint32_t ch = con_at(c, l.log_x + x, l.log_y + r)->ch;
				if ((ch < 128 && ch >= 32 ? (char)ch : '?') != want[r][x])
					fail_msg("message %d, %d columns: the log's row %d differs at %d: '%s'", k, cols, r, x,
						 want[r]);
			}
		con_destroy(c);
	}
	game_destroy(g);
}

/* The HUD drawn over itself (ui_draw_stats with the numbers it shows):
 * for numbers that change or not, turns whose text grows, shrinks or
 * keeps its length (its digits changed from any place on), the console
 * ends as the HUD drawn whole on a cleared one and is damaged exactly
 * where it changed, in the wide and the compact panel. */
/* Whether row y of c from column x reads text (ASCII). */
static bool reads(const struct console *c, int x, int y, const char *text)
{
	for (int i = 0; text[i]; i++)
		if (c->cells[y * c->w + x + i].ch != (uint32_t)(unsigned char)text[i])
			return false;
	return true;
}

/* The HUD's numbers read as printf's %d prints them, in every form the
 * XP line takes (the short ones when the long would pass 21 cells), for
 * numbers of every width and sign. */
static void test_stats_text(void **st)
{
	(void)st;
	static const int nums[] = { 0, 7, -1, -3, 42, 1000, 99999, -2147483647 - 1, 2147483647 };
	const int nn = (int)(sizeof nums / sizeof nums[0]);
	struct ui u = { .screen = UI_PLAY, .hover_x = -1, .hover_y = -1 };
	struct console *c;
	assert_int_equal(con_create(&c, 160, 45), 0);
	int forms[3] = { 0, 0, 0 };
	for (int k = 0; k < nn * nn * 2; k++) {
		int a = nums[k % nn], b = nums[(k / nn) % nn], z = k / (nn * nn);
		/* (the bar's cells are hp * width / max_hp: those kept small) */
		struct game_stats s = { .hp = z ? a % 1000 : 5, .max_hp = z ? b % 1000 : 30, .level = a, .xp = b,
					.xp_next = z ? a : 90, .depth = b, .turn = a };
		char want[80];
		for (int compact = 0; compact < 2; compact++) {
			struct ui_layout l;
			ui_layout(compact ? 80 : 160, compact ? 24 : 45, 1, &l);
			l.pal = ui_palette_of(&u);
			con_clear(c, 0);
			(void)ui_draw_stats(&l, &s, NULL, c);
			int y = l.panel_y;
			if (compact) {
				int n = snprintf(want, sizeof want, "Lv%d D:%d XP:%d/%d", s.level, s.depth, s.xp, s.xp_next);
				/* (after the bar, as far as the row goes) */
				bool found = false;
				for (int x = 0; x + n <= 80 && !found; x++)
					found = reads(c, x, y, want);
				if (n < 60)
					assert_true(found);
				continue;
			}
			snprintf(want, sizeof want, "HP: %d/%d", s.hp, s.max_hp);
			if (strlen(want) <= 19)
				assert_true(reads(c, 2, y + 1, want));
			snprintf(want, sizeof want, "Dungeon level: %d", s.depth);
			assert_true(reads(c, 1, y + 3, want) || strlen(want) > 21);
			int f = 0;
			if (snprintf(want, sizeof want, "Level %d  XP: %d/%d", s.level, s.xp, s.xp_next) > 21 &&
			    ++f && snprintf(want, sizeof want, "Level %d XP: %d/%d", s.level, s.xp, s.xp_next) > 21 && ++f)
				snprintf(want, sizeof want, "Lv%d XP:%d/%d", s.level, s.xp, s.xp_next);
			want[21] = 0; /* (cut at 21 cells) */
			assert_true(reads(c, 1, y + 4, want));
			forms[f]++;
			snprintf(want, sizeof want, "Turn %d", s.turn);
			assert_true(reads(c, 1, y + 5, want));
		}
	}
	assert_true(forms[0] > 0 && forms[1] > 0 && forms[2] > 0);
	con_destroy(c);
}

static void test_stats_over_as_whole(void **st)
{
	(void)st;
	static const int sizes[][2] = { { 160, 45 }, { 80, 50 }, { 80, 24 } };
	static const int turns[] = { 0, 1, 9, 10, 99, 100, 101, 199, 1000, 1009, 12345, -1, -10, 2147483000, 1294967295 };
	struct ui u = { .screen = UI_PLAY, .hover_x = -1, .hover_y = -1 };
	struct rng r;
	rng_seed(&r, 5);
	for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
		int cols = sizes[z][0], rows = sizes[z][1];
		struct ui_layout l;
		ui_layout(cols, rows, 1, &l);
		l.pal = ui_palette_of(&u);
		struct console *c, *ref;
		assert_int_equal(con_create(&c, cols, rows), 0);
		assert_int_equal(con_create(&ref, cols, rows), 0);
		struct con_cell *before = malloc((size_t)cols * (size_t)rows * sizeof *before);
		assert_non_null(before);
		const int nt = (int)(sizeof turns / sizeof turns[0]);
		for (int k = 0; k < nt * nt + 600; k++) {
			/* every pair of the turns above, then random ones */
			struct game_stats was = { .hp = 20, .max_hp = 30, .level = 2, .xp = 40, .xp_next = 90, .depth = 3,
						  .turn = k < nt * nt ? turns[k / nt] : turns[rng_range(&r, 0, nt - 1)] };
			struct game_stats now = was;
			if (k < nt * nt)
				now.turn = turns[k % nt];
			else if (rng_range(&r, 0, 3) == 0)
				now.turn = turns[rng_range(&r, 0, nt - 1)];
			else
				now.turn = was.turn + rng_range(&r, -3, 3) * (rng_range(&r, 0, 1) ? 1 : 10);
			if (rng_range(&r, 0, 4) == 0)
				now.hp = rng_range(&r, 0, 30);
			if (rng_range(&r, 0, 4) == 0)
				now.xp = rng_range(&r, 0, 10000);
			if (rng_range(&r, 0, 4) == 0)
				now.depth = rng_range(&r, 1, 12);
			con_clear(c, l.pal->bg);
			(void)ui_draw_stats(&l, &was, NULL, c);
			con_clear_damage(c);
			memcpy(before, c->cells, (size_t)cols * (size_t)rows * sizeof *before);
			(void)ui_draw_stats(&l, &now, &was, c);
			con_clear(ref, l.pal->bg);
			(void)ui_draw_stats(&l, &now, NULL, ref);
			for (int i = 0; i < cols * rows; i++) {
				if (!con_cell_eq(c->cells[i], ref->cells[i]))
					fail_msg("%dx%d, turn %d over %d: cell (%d, %d) is U+%04X, drawn whole U+%04X", cols,
						 rows, now.turn, was.turn, i % cols, i / cols, c->cells[i].ch,
						 ref->cells[i].ch);
				bool same = con_cell_eq(before[i], c->cells[i]);
				if (!c->damage[i] != same)
					fail_msg("%dx%d, turn %d over %d: cell (%d, %d) %s", cols, rows, now.turn, was.turn,
						 i % cols, i / cols, same ? "damaged but unchanged" : "changed but not damaged");
			}
		}
		free(before);
		con_destroy(c);
		con_destroy(ref);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_layout),
		cmocka_unit_test(test_spare_rows_to_log),
		cmocka_unit_test(test_small_and_too_small),
		cmocka_unit_test(test_too_small_can_quit),
		cmocka_unit_test(test_too_small_takes_no_input),
		cmocka_unit_test(test_camera_follows_and_centres),
		cmocka_unit_test(test_wide_map_cells),
		cmocka_unit_test(test_menu_items),
		cmocka_unit_test(test_title_and_too_small_draw),
		cmocka_unit_test(test_hint_fit),
		cmocka_unit_test(test_log_wraps_kept),
		cmocka_unit_test(test_stats_over_as_whole),
		cmocka_unit_test(test_stats_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
