/* The screen table: each screen's actions, driven through ui_input with a
 * host that records what the screens ask for. */
#include "testutil.h"
#include "gamefix.h"
#include "conrow.h"
#include "game/items.h"
#include "ui/scr.h"
#include "ui/ui.h"
#include <stdio.h>
#include <string.h>

struct fake_host {
	struct game *g;
	int ncmd;
	struct command cmds[64];
	int nreq;
	enum ui_request reqs[16];
	struct ui *u;
};

static int fake_command(void *ctx, const struct command *c)
{
	struct fake_host *f = ctx;
	if (f->ncmd < 64)
		f->cmds[f->ncmd] = *c;
	f->ncmd++;
	return game_do(f->g, c);
}

static int fake_request(void *ctx, enum ui_request r)
{
	struct fake_host *f = ctx;
	if (f->nreq < 16)
		f->reqs[f->nreq] = r;
	f->nreq++;
	return 0;
}

struct rig {
	struct ui u;
	struct fake_host f;
	struct ui_host h;
	struct console *c;
};

static void rig_init(struct rig *r, struct game *g, enum ui_screen s)
{
	memset(r, 0, sizeof *r);
	r->u.screen = s;
	r->u.hover_x = r->u.hover_y = -1;
	r->f.g = g;
	r->f.u = &r->u;
	r->h = (struct ui_host){ .ctx = &r->f, .command = fake_command, .request = fake_request };
	assert_int_equal(con_create(&r->c, 80, 50), 0);
}

/* A rig on screen s with gamefix_room(seed)'s open room, the player at 10,10. */
static void rig_room(struct rig *r, uint64_t seed, enum ui_screen s)
{
	rig_init(r, gamefix_room(seed), s);
	gamefix_enter(r->f.g, 10, 10);
}

static void key(struct rig *r, enum action act, uint32_t k)
{
	struct ui_input in = { .kind = UI_IN_KEY, .act = act, .key = k, .cols = 80, .rows = 50,
			       .from = bind_is_pad(k) ? DEV_GAMEPAD : DEV_KEYBOARD };
	ui_input(&r->u, r->f.g, &r->h, &in);
	/* every screen draws in whatever state the input left */
	ui_draw(&r->u, r->f.g, r->c);
}

static void rig_done(struct rig *r)
{
	con_destroy(r->c);
	game_destroy(r->f.g);
}

static void test_every_screen_named(void **st)
{
	(void)st;
	for (int s = 0; s < UI_SCREEN_COUNT; s++) {
		assert_string_not_equal(ui_screen_name((enum ui_screen)s), "?");
		for (int t = 0; t < s; t++)
			assert_string_not_equal(ui_screen_name((enum ui_screen)s), ui_screen_name((enum ui_screen)t));
	}
	assert_string_equal(ui_screen_name(UI_SCREEN_COUNT), "?");
}

static void test_title(void **st)
{
	(void)st;
	struct rig r;
	rig_init(&r, NULL, UI_TITLE);
	/* without a game: New game, Daily, High scores, Options, Help, Quit; the selection wraps */
	key(&r, ACT_MOVE_N, KEY_UP);
	assert_int_equal(r.u.menu_sel, 5);
	key(&r, ACT_MOVE_S, KEY_DOWN);
	assert_int_equal(r.u.menu_sel, 0);
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.f.nreq, 1);
	assert_int_equal(r.f.reqs[0], UI_REQ_NEW_GAME);
	key(&r, ACT_MOVE_N, KEY_UP);
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.f.reqs[1], UI_REQ_QUIT);
	/* with a game in progress, Continue comes first */
	r.u.can_continue = true;
	r.u.menu_sel = 0;
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.f.reqs[2], UI_REQ_CONTINUE);
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	assert_int_equal(r.f.reqs[3], UI_REQ_QUIT);
	assert_int_equal(r.f.ncmd, 0);
	rig_done(&r);
}

/* Issue 18, item 5: the title's Daily starts the daily game; over a game
 * in progress it asks first, as New game does. */
static void test_title_daily(void **st)
{
	(void)st;
	struct rig r;
	rig_init(&r, NULL, UI_TITLE);
	ui_draw(&r.u, NULL, r.c);
	assert_true(conrow_find(r.c, "Daily"));
	r.u.menu_sel = 1;
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.f.nreq, 1);
	assert_int_equal(r.f.reqs[0], UI_REQ_DAILY);
	r.u.can_continue = true;
	r.u.menu_sel = 2; /* Continue, New game, Daily */
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.f.nreq, 1);
	assert_non_null(strstr(r.u.notice, "Today's daily game? The saved game will be lost."));
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.f.nreq, 2);
	assert_int_equal(r.f.reqs[1], UI_REQ_DAILY);
	/* the scores screen switches between the tables */
	r.u.screen = UI_SCORES;
	key(&r, ACT_MOVE_E, KEY_RIGHT);
	assert_true(r.u.scores_daily);
	assert_int_equal(r.f.reqs[2], UI_REQ_SCORES);
	assert_true(conrow_find(r.c, "High scores: daily games"));
	key(&r, ACT_MOVE_W, KEY_LEFT);
	assert_false(r.u.scores_daily);
	rig_done(&r);
}

/* New game with a game in progress asks first (it replaced the game at the
 * new one's first save after one key too many: Down, Enter); a second,
 * deliberate yes starts it, anything else keeps the title and the game. */
static void test_title_new_game_asks_over_a_game(void **st)
{
	(void)st;
	struct rig r;
	rig_init(&r, NULL, UI_TITLE);
	r.u.can_continue = true;
	r.u.menu_sel = 1; /* Continue, New game, ... */
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.f.nreq, 0);
	assert_true(r.u.confirm_new);
	assert_non_null(strstr(r.u.notice, "New game? The saved game will be lost."));
	assert_non_null(strstr(r.u.notice, "Enter: yes"));
	key(&r, ACT_CANCEL, KEY_ESCAPE); /* no: nothing, not even quit */
	assert_int_equal(r.f.nreq, 0);
	assert_false(r.u.confirm_new);
	assert_string_equal(r.u.notice, "");
	key(&r, ACT_DO, PAD_SOUTH);
	assert_true(r.u.confirm_new);
	assert_non_null(strstr(r.u.notice, "A: yes")); /* the pad's key, the pad used */
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.f.nreq, 1);
	assert_int_equal(r.f.reqs[0], UI_REQ_NEW_GAME);
	assert_int_equal(r.f.ncmd, 0);
	rig_done(&r);
}

/* Kiosk mode: Quit (the menu entry, Escape, Q, B) only asks; a second yes
 * quits (the service restarts the game), anything else keeps the title. */
static void test_title_kiosk_confirms_quit(void **st)
{
	(void)st;
	struct rig r;
	rig_init(&r, NULL, UI_TITLE);
	r.u.kiosk = true;
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	assert_int_equal(r.f.nreq, 0);
	assert_true(r.u.confirm_quit);
	assert_non_null(strstr(r.u.notice, "restart"));
	key(&r, ACT_MOVE_S, KEY_DOWN); /* any other key: no */
	assert_int_equal(r.f.nreq, 0);
	assert_false(r.u.confirm_quit);
	assert_string_equal(r.u.notice, "");
	key(&r, ACT_QUIT, 'Q');
	key(&r, ACT_CANCEL, KEY_ESCAPE); /* Escape twice is not a yes */
	key(&r, ACT_BACK, PAD_EAST);
	assert_int_equal(r.f.nreq, 0);
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.f.nreq, 1);
	assert_int_equal(r.f.reqs[0], UI_REQ_QUIT);
	/* the menu's Quit entry asks too */
	r.u.menu_sel = 5;
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.f.nreq, 1);
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.f.nreq, 2);
	assert_int_equal(r.f.reqs[1], UI_REQ_QUIT);
	rig_done(&r);
}

static void test_play_commands(void **st)
{
	(void)st;
	struct rig r;
	rig_room(&r, 1, UI_PLAY);
	key(&r, ACT_MOVE_E, 'l');
	key(&r, ACT_MOVE_NW, 'y');
	key(&r, ACT_WAIT, '.');
	key(&r, ACT_BACK, PAD_EAST); /* B waits on the play screen */
	key(&r, ACT_PICKUP, 'g');
	key(&r, ACT_DO, PAD_SOUTH); /* A off the stairs picks up */
	key(&r, ACT_NONE, 'z'); /* unbound: nothing */
	const enum cmd want[] = { CMD_MOVE_E, CMD_MOVE_NW, CMD_WAIT, CMD_WAIT, CMD_PICKUP, CMD_PICKUP };
	assert_int_equal(r.f.ncmd, 6);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(r.f.cmds[i].c, want[i]);
		assert_int_equal(r.f.cmds[i].item, -1);
		assert_int_equal(r.f.cmds[i].x, -1);
		assert_int_equal(r.f.cmds[i].choice, -1);
	}
	int x, y;
	game_player_pos(r.f.g, &x, &y);
	assert_int_equal(x, 10);
	assert_int_equal(y, 9);
	assert_int_equal(r.u.screen, UI_PLAY);
	/* away from the stairs, > and < travel to them; o explores */
	key(&r, ACT_DESCEND, '>');
	key(&r, ACT_ASCEND, '<');
	key(&r, ACT_EXPLORE, PAD_TR2);
	/* Escape, Q and Start save and quit to the menu */
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	key(&r, ACT_QUIT, 'Q');
	key(&r, ACT_MENU, PAD_START);
	const enum ui_request wreq[] = { UI_REQ_TRAVEL_DOWN, UI_REQ_TRAVEL_UP, UI_REQ_EXPLORE,
					 UI_REQ_SAVE_QUIT, UI_REQ_SAVE_QUIT, UI_REQ_SAVE_QUIT };
	assert_int_equal(r.f.nreq, 6);
	for (int i = 0; i < 6; i++)
		assert_int_equal(r.f.reqs[i], wreq[i]);
	/* on the stairs, > takes them */
	struct map *m = world_floor(r.f.g, 1);
	map_set(m, 10, 9, TILE_STAIRS_DOWN);
	key(&r, ACT_DESCEND, '>');
	assert_int_equal(r.f.ncmd, 7);
	assert_int_equal(r.f.cmds[6].c, CMD_DESCEND);
	assert_int_equal(game_depth(r.f.g), 2);
	assert_int_equal(r.f.nreq, 6);
	rig_done(&r);
}

static void test_play_opens_screens(void **st)
{
	(void)st;
	struct rig r;
	rig_room(&r, 1, UI_PLAY);
	/* look starts on the player, moves, and leaves with Escape, B or the look key */
	key(&r, ACT_LOOK, 'x');
	assert_int_equal(r.u.screen, UI_LOOK);
	assert_int_equal(r.u.look_x, 10);
	assert_int_equal(r.u.look_y, 10);
	key(&r, ACT_MOVE_E, KEY_RIGHT);
	key(&r, ACT_MOVE_SE, 'n');
	assert_int_equal(r.u.look_x, 12);
	assert_int_equal(r.u.look_y, 11);
	key(&r, ACT_BACK, PAD_EAST);
	assert_int_equal(r.u.screen, UI_PLAY);
	key(&r, ACT_LOOK, PAD_NORTH);
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	assert_int_equal(r.u.screen, UI_PLAY);
	/* history scrolls within the log and closes */
	key(&r, ACT_HISTORY, 'v');
	assert_int_equal(r.u.screen, UI_HISTORY);
	key(&r, ACT_MOVE_S, KEY_DOWN);
	assert_int_equal(r.u.history_top, 0);
	key(&r, ACT_HISTORY, PAD_SELECT);
	assert_int_equal(r.u.screen, UI_PLAY);
	/* character opens and closes */
	key(&r, ACT_CHARACTER, 'c');
	assert_int_equal(r.u.screen, UI_CHARACTER);
	key(&r, ACT_BACK, PAD_EAST);
	assert_int_equal(r.u.screen, UI_PLAY);
	/* none of that cost a command */
	assert_int_equal(r.f.ncmd, 0);
	assert_int_equal(r.f.nreq, 0);
	rig_done(&r);
}

static void test_click_looks(void **st)
{
	(void)st;
	struct rig r;
	rig_room(&r, 1, UI_PLAY);
	/* at 80×50 the 80×43 map is shown at the console's origin */
	struct ui_input in = { .kind = UI_IN_HOVER, .x = 5, .y = 6, .cols = 80, .rows = 50 };
	ui_input(&r.u, r.f.g, &r.h, &in);
	assert_int_equal(r.u.hover_x, 5);
	assert_int_equal(r.u.hover_y, 6);
	assert_int_equal(r.u.screen, UI_PLAY);
	in.kind = UI_IN_CLICK;
	in.button = 1;
	ui_input(&r.u, r.f.g, &r.h, &in);
	assert_int_equal(r.u.screen, UI_LOOK);
	assert_int_equal(r.u.look_x, 5);
	assert_int_equal(r.u.look_y, 6);
	/* below the map (the HUD): the pointer is kept where it is, which
	 * shows no map cell (test_hover_follows_camera) */
	in.kind = UI_IN_HOVER;
	in.y = 45;
	ui_input(&r.u, r.f.g, &r.h, &in);
	assert_int_equal(r.u.hover_x, 5);
	assert_int_equal(r.u.hover_y, 45);
	rig_done(&r);
}

/* r's screen drawn on c (40×24: a 40×20 map view over the panel) with the
 * pointer where it is and without it; fails unless the pointer changed
 * only cells of the panel's description row (never the map view's);
 * returns that row's text (into buf, 41 bytes), "" when nothing changed. */
static const char *hover_row(struct rig *r, struct console *c, char *buf)
{
	struct console *bare;
	struct ui u = r->u;
	assert_int_equal(con_create(&bare, c->w, c->h), 0);
	ui_draw(&r->u, r->f.g, c);
	u.hover_x = u.hover_y = -1;
	ui_draw(&u, r->f.g, bare);
	int row = -1;
	struct ui_layout l;
	ui_layout(c->w, c->h, 1, &l);
	for (int i = 0; i < c->w * c->h; i++) {
		if (!memcmp(&c->cells[i], &bare->cells[i], sizeof c->cells[i]))
			continue;
		if (i / c->w != l.desc_y)
			fail_msg("the pointer's description is drawn off its row %d, at (%d, %d)", l.desc_y, i % c->w,
				 i / c->w);
		assert_true(row < 0 || row == i / c->w);
		row = i / c->w;
	}
	con_destroy(bare);
	buf[0] = 0;
	return row < 0 ? buf : conrow_text(c, row, buf, true);
}

static void hover_at(struct rig *r, int x, int y)
{
	struct ui_input in = { .kind = UI_IN_HOVER, .x = x, .y = y, .cols = 40, .rows = 24 };
	ui_input(&r->u, r->f.g, &r->h, &in);
}

/* The pointer held still while the player walks and the camera scrolls:
 * the description names what is under the pointer now, and stays in the
 * view; over the panel, nothing is described. */
static void test_hover_follows_camera(void **st)
{
	(void)st;
	struct rig r;
	struct console *c;
	char row[41];
	rig_init(&r, gamefix_room(1), UI_PLAY);
	gamefix_item(r.f.g, ITEM_HEALTH_POTION, 30, 12);
	gamefix_enter(r.f.g, 20, 10);
	assert_int_equal(con_create(&c, 40, 24), 0);
	/* the camera at the map's corner: console (25, 12) shows floor */
	hover_at(&r, 25, 12);
	assert_non_null(strstr(hover_row(&r, c, row), "floor"));
	/* five steps east scroll the view five columns: the potion is there */
	for (int i = 0; i < 5; i++)
		key(&r, ACT_MOVE_E, 'l');
	assert_non_null(strstr(hover_row(&r, c, row), "health potion"));
	assert_null(strstr(row, "floor"));
	/* the view's last row, the player lower down (the camera seven rows
	 * down), then walking north: the cell first described would be
	 * below the view; the one shown there now is, above the pointer */
	for (int i = 0; i < 7; i++)
		key(&r, ACT_MOVE_S, 'j');
	hover_at(&r, 10, 19);
	assert_non_null(strstr(hover_row(&r, c, row), "unexplored"));
	for (int i = 0; i < 4; i++)
		key(&r, ACT_MOVE_N, 'k');
	assert_non_null(strstr(hover_row(&r, c, row), "unexplored"));
	/* over the panel: no map cell, nothing described */
	hover_at(&r, 10, 21);
	assert_string_equal(hover_row(&r, c, row), "");
	con_destroy(c);
	rig_done(&r);
}

static void test_screens_without_game_fall_back_to_title(void **st)
{
	(void)st;
	struct rig r;
	rig_init(&r, NULL, UI_PLAY);
	key(&r, ACT_MOVE_E, 'l');
	assert_int_equal(r.f.ncmd, 0);
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.f.nreq, 1);
	assert_int_equal(r.f.reqs[0], UI_REQ_NEW_GAME);
	rig_done(&r);
}

static void test_gameover(void **st)
{
	(void)st;
	struct rig r;
	rig_room(&r, 1, UI_GAMEOVER);
	/* Enter: the high scores, which start a new game with Enter */
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.f.nreq, 1);
	assert_int_equal(r.f.reqs[0], UI_REQ_SCORES);
	assert_true(r.u.scores_after_death);
	r.u.screen = UI_SCORES; /* what the host does */
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.f.reqs[1], UI_REQ_NEW_GAME);
	r.u.screen = UI_GAMEOVER;
	key(&r, ACT_BACK, PAD_EAST);
	assert_int_equal(r.u.screen, UI_TITLE);
	assert_int_equal(r.u.menu_sel, 0);
	rig_done(&r);
}

/* Row y of c as text, and whether any row holds text (tests/conrow.h). */
static const char *row(const struct console *c, int y, char *buf) { return conrow_text(c, y, buf, false); }
static bool on_screen(const struct console *c, const char *text) { return conrow_find(c, text); }

/* The game-over box keeps its text inside at any size of number (a long
 * game's "after 10522 turns," ran over its right edge). */
static void test_gameover_text_fits(void **st)
{
	(void)st;
	struct rig r;
	char buf[256];
	rig_room(&r, 1, UI_GAMEOVER);
	struct c_player *pl = ecs_get_mut(r.f.g->w, r.f.g->player, COMP_PLAYER);
	pl->level = 14;
	pl->xp = 945;
	r.f.g->turn = 10522;
	ui_draw(&r.u, r.f.g, r.c);
	int x = (80 - 40) / 2, found = 0; /* the box: 40 wide, centred */
	for (int y = 0; y < 50; y++) {
		row(r.c, y, buf);
		if (strstr(buf, "turns") || strstr(buf, "experience.")) {
			found++;
			assert_int_equal(con_at(r.c, x + 39, y)->ch, 0x2502); /* the right edge is intact */
		}
	}
	assert_true(found >= 2);
	assert_true(on_screen(r.c, "experience."));
	/* a short game keeps its two lines, a blank column inside each edge
	 * (at 80 and 40 columns: "turns," touched the frame) */
	r.f.g->turn = 169;
	pl->level = 1;
	pl->xp = 335;
	for (int cols = 80; cols >= 40; cols -= 40) {
		assert_int_equal(con_resize(r.c, cols, 30), 0);
		ui_draw(&r.u, r.f.g, r.c);
		assert_true(on_screen(r.c, "On dungeon level 1 after 169 turns,"));
		assert_true(on_screen(r.c, "at level 1 with 335 experience."));
		assert_true(on_screen(r.c, "@")); /* the box leaves the player in view (40 columns covered it) */
		for (int y = 0; y < 30; y++) {
			int left = -1, right = -1;
			for (int i = 0; i < cols; i++)
				if (con_at(r.c, i, y)->ch == 0x2502) {
					if (left < 0)
						left = i;
					right = i;
				}
			if (left >= 0 && right > left + 2) {
				assert_int_equal(con_at(r.c, left + 1, y)->ch, ' ');
				assert_int_equal(con_at(r.c, right - 1, y)->ch, ' ');
			}
		}
	}
	rig_done(&r);
}

static void test_hints_follow_bindings(void **st)
{
	(void)st;
	struct rig r;
	struct bindings b;
	char why[128], line[256];
	rig_room(&r, 1, UI_PLAY);
	ui_draw(&r.u, r.f.g, r.c);
	assert_string_equal(row(r.c, 49, line), " arrows/hjkl: move  ?: help  i: inventory  .: wait  g: get  d: drop  Q: quit    ");
	/* the gamepad's buttons once it was used last */
	struct ui_input in = { .kind = UI_IN_KEY, .act = ACT_NONE, .key = PAD_TL, .from = DEV_GAMEPAD, .cols = 80, .rows = 50 };
	ui_input(&r.u, r.f.g, &r.h, &in);
	ui_draw(&r.u, r.f.g, r.c);
	assert_string_equal(row(r.c, 49, line), " D-pad: move  L2: help  L/R+D-pad: diag  A: act  X: inv  B: wait  Start: menu   ");
	/* rebound keys show where they are bound */
	bind_defaults(&b);
	assert_int_equal(bind_set(&b, ACT_WAIT, false, "z", why, sizeof why), 0);
	assert_int_equal(bind_set(&b, ACT_MOVE_W, false, "a left", why, sizeof why), 0);
	assert_int_equal(bind_set(&b, ACT_LOOK, true, "pad_x", why, sizeof why), 0);
	r.u.binds = &b;
	ui_draw(&r.u, r.f.g, r.c);
	/* X now looks (where look's item is): the inventory has no button;
	 * at 80 columns look is left out (the way out, Start, is kept) */
	assert_string_equal(row(r.c, 49, line), " D-pad: move  L2: help  L/R+D-pad: diagonal  A: act  B: wait  Start: menu       ");
	assert_int_equal(con_resize(r.c, 120, 50), 0);
	ui_draw(&r.u, r.f.g, r.c);
	assert_non_null(strstr(row(r.c, 49, line), "  A: act  B: wait  R2: explore  X: look"));
	assert_null(strstr(line, "X: inv"));
	assert_int_equal(con_resize(r.c, 80, 50), 0);
	r.u.last_dev = DEV_KEYBOARD;
	ui_draw(&r.u, r.f.g, r.c);
	assert_non_null(strstr(row(r.c, 49, line), " arrows/ajkl: move  ?: help  i: inventory  z: wait  g: get  d: drop"));
	rig_done(&r);
}

/* The key hint line is fitted once per screen, bindings, device and width
 * and kept (issue 22): drawn again after other widths, devices, screens and
 * bindings (the table changed in place too, at the same address), it is
 * cell for cell the line fitted afresh (ui_key_items + ui_draw_hint). */
static void test_hint_kept_follows_changes(void **st)
{
	(void)st;
	struct rig r;
	struct bindings b;
	char why[128];
	rig_room(&r, 1, UI_PLAY);
	bind_defaults(&b);
	r.u.binds = &b;
	struct console *fresh;
	assert_int_equal(con_create(&fresh, 80, 30), 0);
	static const int widths[] = { 80, 41, 120, 80, 41 };
	for (int round = 0; round < 3; round++) {
		if (round == 1) /* in place, same address and count: '.' waits no more, 'z' does */
			for (int i = 0; i < b.n; i++)
				if (b.e[i].key == '.')
					b.e[i].key = 'z';
		if (round == 2)
			assert_int_equal(bind_set(&b, ACT_MOVE_S, true, "pad_a", why, sizeof why), 0);
		for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
			for (int dev = 0; dev < 2; dev++) {
				r.u.last_dev = dev ? DEV_GAMEPAD : DEV_KEYBOARD;
				assert_int_equal(con_resize(r.c, widths[w], 30), 0);
				assert_int_equal(con_resize(fresh, widths[w], 30), 0);
				struct ui_layout l;
				ui_layout(widths[w], 30, 1, &l);
				const struct scr_key *keys = ui_screen_at(UI_PLAY)->keys;
				ui_draw_keys_hint(&r.u, &l, r.c, keys);
				struct ui_hint items[24];
				ui_draw_hint(&l, fresh, items, ui_key_items(&r.u, keys, items, 24));
				for (int x = 0; x < widths[w]; x++) {
					const struct con_cell *a = con_at(r.c, x, l.hint_y), *e = con_at(fresh, x, l.hint_y);
					assert_int_equal(a->ch, e->ch);
					assert_int_equal(a->fg, e->fg);
					assert_int_equal(a->bg, e->bg);
				}
			}
	}
	con_destroy(fresh);
	rig_done(&r);
}

/* The hint line at 80, 60 and 40 columns (issue 9): items shorten to a
 * brief label before any is left out, the least important first, and are
 * never a bare key (at 80 it ended "g: get  d  o  ><  x  v  Q  c"); room
 * left gives full labels back; move and help keep their words; at every
 * width from 40 to 160 each item shown is whole, in one of its forms, in
 * the list's order. */
static void test_hints_shorten(void **st)
{
	(void)st;
	struct rig r;
	char line[256];
	rig_room(&r, 1, UI_PLAY);
	static const struct { int cols; const char *line; } want[] = {
		{ 80, " arrows/hjkl: move  ?: help  i: inventory  .: wait  g: get  d: drop  Q: quit" },
		{ 60, " arrows/hjkl: move  ?: help  i: inventory  .: wait  Q: quit" },
		{ 40, " arrows/hjkl: move  ?: help  Q: quit" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		assert_int_equal(con_resize(r.c, want[i].cols, 30), 0);
		ui_draw(&r.u, r.f.g, r.c);
		row(r.c, 29, line);
		for (int x = (int)strlen(line); x > 0 && line[x - 1] == ' '; x--)
			line[x - 1] = 0;
		assert_string_equal(line, want[i].line);
		/* keys brighter than labels: the line reads apart from the log */
		assert_int_equal(con_at(r.c, 1, 29)->fg, ui_palette_of(NULL)->hint_key);             /* "arrows/hjkl" */
		assert_int_equal(con_at(r.c, (int)strlen(" arrows/hjkl: "), 29)->fg, ui_palette_of(NULL)->hint); /* "move" */
	}
	struct ui_hint items[24];
	for (int dev = 0; dev < 2; dev++) {
		r.u.last_dev = dev ? DEV_GAMEPAD : DEV_KEYBOARD;
		int n = ui_key_items(&r.u, ui_screen_at(UI_PLAY)->keys, items, 24);
		assert_true(n >= 10);
		for (int cols = 40; cols <= 160; cols++) {
			assert_int_equal(con_resize(r.c, cols, 30), 0);
			ui_draw(&r.u, r.f.g, r.c);
			row(r.c, 29, line);
			assert_int_equal(line[0], ' ');
			assert_int_equal(line[cols - 1], ' ');
			for (int x = cols; x > 0 && line[x - 1] == ' '; x--)
				line[x - 1] = 0;
			int next = 0, shown = 0;
			for (char *tok = line + 1; *tok && *tok != ' ';) {
				char *end = strstr(tok, "  ");
				if (end)
					*end = 0;
				while (next < n && strcmp(tok, items[next].full) && strcmp(tok, items[next].brief) &&
				       strcmp(tok, items[next].key))
					next++;
				assert_true(next < n); /* a whole item, in order */
				/* never a key with no word of what it does (but a kept
				 * item's, as the last resort) */
				if (!items[next].keep && strcmp(tok, items[next].full) && strcmp(tok, items[next].brief))
					fail_msg("%d columns: '%s' is a bare key", cols, tok);
				next++;
				shown++;
				if (!end)
					break;
				tok = end + 2;
			}
			assert_true(shown >= 3); /* move, help and at least one more */
		}
	}
	rig_done(&r);
}

/* The box drawn on c: its top-left corner (the first ┌) and size; false
 * when there is none. */
static bool find_box(const struct console *c, int *bx, int *by, int *bw, int *bh)
{
	for (int y = 0; y < c->h; y++)
		for (int x = 0; x < c->w; x++) {
			if (con_at(c, x, y)->ch != 0x250C)
				continue;
			int x2 = x + 1, y2 = y + 1;
			while (x2 < c->w && con_at(c, x2, y)->ch != 0x2510)
				x2++;
			while (y2 < c->h && con_at(c, x, y2)->ch != 0x2514)
				y2++;
			if (x2 == c->w || y2 == c->h)
				return false;
			*bx = x;
			*by = y;
			*bw = x2 - x + 1;
			*bh = y2 - y + 1;
			return true;
		}
	return false;
}

/* The help screen reads whole (issue 9, played at 80x24): every help line
 * of every screen appears uncut in its column at 80 columns; a pair of
 * actions ("choose": up and down) lists both actions' keys; the eight
 * moves are listed one by one on the map only, elsewhere as one row. */
static void test_help_reads_whole(void **st)
{
	(void)st;
	struct rig r;
	char line[256];
	rig_room(&r, 1, UI_PLAY);
	assert_int_equal(con_resize(r.c, 80, 150), 0); /* the whole listing on one page */
	struct ui_input in = { .kind = UI_IN_KEY, .act = ACT_HELP, .key = '?', .cols = 80, .rows = 150 };
	ui_input(&r.u, r.f.g, &r.h, &in);
	ui_draw(&r.u, r.f.g, r.c);
	assert_int_equal(r.u.screen, UI_HELP);
	int sections = 0;
	for (int i = 0; i < ui_screen_count(); i++) {
		const struct scr *sc = ui_screen_at(i);
		for (int k = 0; sc && sc->keys && (sc->keys[k].hint || sc->keys[k].help); k++) {
			const char *h = sc->keys[k].help;
			if (!h)
				continue;
			bool whole = false;
			for (int y = 0; y < 150 && !whole; y++) {
				row(r.c, y, line);
				/* the label column ends where the keys begin (two blanks) */
				const char *at = strstr(line, h);
				whole = at && (at[strlen(h)] == ':' || !strncmp(at + strlen(h), "  ", 2));
			}
			if (!whole)
				printf("help line cut or missing: \"%s\"\n", h);
			assert_true(whole);
		}
		sections++;
	}
	assert_true(sections >= 10);
	int north_east = 0;
	bool choose_both = false;
	for (int y = 0; y < 150; y++) {
		row(r.c, y, line);
		north_east += strstr(line, "north-east") != NULL;
		if (strstr(line, "choose an entry") && strstr(line, "Num8 k") && strstr(line, "Num2 j"))
			choose_both = true;
	}
	assert_int_equal(north_east, 1);
	assert_true(choose_both);
	/* on a wide console the box is as wide as its columns need, centred
	 * (at 160x45 it took the whole width, the keys 80 columns from what
	 * they do) */
	assert_int_equal(con_resize(r.c, 160, 45), 0);
	r.u.help_top = 0;
	ui_draw(&r.u, r.f.g, r.c);
	int bx, by, bw, bh, kx = -1, ky = -1;
	assert_true(find_box(r.c, &bx, &by, &bw, &bh));
	assert_true(conrow_find_at(r.c, "keyboard", &kx, &ky));
	if (bw > 90 || bx != (160 - bw) / 2)
		fail_msg("160x45: the help box is %d wide at column %d", bw, bx);
	assert_true(kx > bx && kx < bx + bw);
	rig_done(&r);
}

static void test_help_lists_bindings(void **st)
{
	(void)st;
	struct rig r;
	struct bindings b;
	char why[128], line[256];
	rig_room(&r, 1, UI_PLAY);
	bind_defaults(&b);
	assert_int_equal(bind_set(&b, ACT_WAIT, false, "z kp5", why, sizeof why), 0);
	assert_int_equal(bind_set(&b, ACT_EXPLORE, true, "pad_thumbl", why, sizeof why), 0);
	r.u.binds = &b;
	key(&r, ACT_HELP, '?');
	assert_int_equal(r.u.screen, UI_HELP);
	/* every screen's section, the map first */
	assert_non_null(strstr(row(r.c, 2, line), "On the map"));
	assert_true(on_screen(r.c, "Title menu"));
	assert_true(on_screen(r.c, "Looking"));
	/* a row per action with its keyboard keys and pad buttons as bound */
	bool wait_row = false;
	for (int y = 0; y < 50; y++) {
		row(r.c, y, line);
		if (strstr(line, "wait a turn") && strstr(line, "z Num5") && !strstr(line, "Space"))
			wait_row = true;
	}
	assert_true(wait_row);
	/* scrolling reaches the end and stops there; help goes back where it came from */
	for (int i = 0; i < 40; i++)
		key(&r, ACT_MOVE_E, KEY_RIGHT);
	int bottom = r.u.help_top;
	assert_true(bottom > 0);
	key(&r, ACT_MOVE_S, KEY_DOWN);
	assert_int_equal(r.u.help_top, bottom);
	assert_true(on_screen(r.c, "Help"));
	key(&r, ACT_MOVE_N, KEY_UP);
	assert_int_equal(r.u.help_top, bottom - 1);
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	assert_int_equal(r.u.screen, UI_PLAY);
	/* from the title too, without a game; and at 40×30 */
	struct rig t;
	rig_init(&t, NULL, UI_TITLE);
	assert_int_equal(con_resize(t.c, 40, 30), 0);
	struct ui_input in = { .kind = UI_IN_KEY, .act = ACT_HELP, .key = '?', .cols = 40, .rows = 30 };
	ui_input(&t.u, NULL, &t.h, &in);
	ui_draw(&t.u, NULL, t.c);
	assert_int_equal(t.u.screen, UI_HELP);
	assert_true(on_screen(t.c, "On the map"));
	assert_true(on_screen(t.c, "Num8 k"));
	in.act = ACT_BACK;
	ui_input(&t.u, NULL, &t.h, &in);
	assert_int_equal(t.u.screen, UI_TITLE);
	assert_int_equal(r.f.ncmd, 0);
	rig_done(&t);
	rig_done(&r);
}

/* Items of kinds k (n of them) carried: spawned under the player, picked up. */
static void carry(struct game *g, const int *k, int n)
{
	int px, py;
	game_player_pos(g, &px, &py);
	for (int i = 0; i < n; i++)
		assert_int_equal(world_spawn_item(g, k[i], 1, px, py, NULL), 0);
	struct command pick = { .c = CMD_PICKUP, .item = -1, .x = -1, .y = -1, .choice = -1 };
	game_do(g, &pick);
}

static void click(struct rig *r, int x, int y)
{
	struct ui_input in = { .kind = UI_IN_CLICK, .x = x, .y = y, .button = 1, .cols = 80, .rows = 50 };
	ui_input(&r->u, r->f.g, &r->h, &in);
	ui_draw(&r->u, r->f.g, r->c);
}

/* Issue 18, item 1: dropping a stack asks one or all, with keys and pad. */
static void test_drop_stack(void **st)
{
	(void)st;
	struct rig r;
	rig_room(&r, 3, UI_PLAY);
	for (int i = 0; i < 3; i++)
		assert_int_equal(items_give(r.f.g, ITEM_HEALTH_POTION, false), 0);
	key(&r, ACT_INVENTORY, 'i');
	assert_true(on_screen(r.c, "c) ! 3 health potions"));
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	/* a single item drops at once */
	key(&r, ACT_DROP, 'd');
	key(&r, ACT_NONE, 'c');
	assert_int_equal(r.u.screen, UI_DROP_COUNT);
	assert_true(on_screen(r.c, "Drop how many?"));
	assert_true(on_screen(r.c, "1) one health potion"));
	assert_true(on_screen(r.c, "a) all 3 health potions"));
	assert_int_equal(r.f.ncmd, 0);
	/* Escape goes back to the list, costing nothing */
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	assert_int_equal(r.u.screen, UI_DROP);
	assert_int_equal(r.f.ncmd, 0);
	/* 1: one */
	key(&r, ACT_NONE, 'c');
	key(&r, ACT_NONE, '1');
	assert_int_equal(r.u.screen, UI_PLAY);
	assert_int_equal(r.f.ncmd, 1);
	assert_int_equal(r.f.cmds[0].c, CMD_DROP);
	assert_int_equal(r.f.cmds[0].item, 2);
	assert_int_not_equal(r.f.cmds[0].choice, GAME_DROP_ALL);
	assert_int_equal(items_count(r.f.g, items_in_slot(r.f.g, 2)), 2);
	/* the pad: down to "all", A */
	key(&r, ACT_INVENTORY, PAD_WEST);
	key(&r, ACT_LOOK, PAD_NORTH);
	assert_int_equal(r.u.screen, UI_DROP);
	key(&r, ACT_MOVE_S, PAD_DOWN);
	key(&r, ACT_MOVE_S, PAD_DOWN);
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.u.screen, UI_DROP_COUNT);
	key(&r, ACT_MOVE_S, PAD_DOWN);
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.f.ncmd, 2);
	assert_int_equal(r.f.cmds[1].choice, GAME_DROP_ALL);
	assert_true(items_in_slot(r.f.g, 2) == ECS_NULL);
	assert_true(gamefix_has_msg(r.f.g, "You drop the 2 health potions."));
	rig_done(&r);
}

static void test_inventory(void **st)
{
	(void)st;
	struct rig r;
	char line[256];
	rig_room(&r, 3, UI_PLAY);
	/* the start: dagger and leather armour, both equipped */
	key(&r, ACT_INVENTORY, 'i');
	assert_int_equal(r.u.screen, UI_INVENTORY);
	assert_true(on_screen(r.c, "Use which item?"));
	assert_true(on_screen(r.c, "a) / dagger (E)"));
	assert_true(on_screen(r.c, "b) [ leather armour (E)"));
	/* the arrows wrap, Escape closes and costs nothing */
	key(&r, ACT_MOVE_N, KEY_UP);
	assert_int_equal(r.u.inv_sel, 1);
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	assert_int_equal(r.u.screen, UI_PLAY);
	assert_int_equal(r.f.ncmd, 0);
	/* a letter of no item that means nothing here says so (it said
	 * nothing), and costs nothing */
	key(&r, ACT_INVENTORY, 'i');
	key(&r, ACT_CHARACTER, 'c');
	assert_int_equal(r.u.screen, UI_INVENTORY);
	assert_true(on_screen(r.c, "You have no item c."));
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	assert_int_equal(r.f.ncmd, 0);
	/* a letter chooses: using the armour takes it off */
	key(&r, ACT_INVENTORY, 'i');
	key(&r, ACT_MOVE_SW, 'b');
	assert_int_equal(r.u.screen, UI_PLAY);
	assert_int_equal(r.f.ncmd, 1);
	assert_int_equal(r.f.cmds[0].c, CMD_USE);
	assert_int_equal(r.f.cmds[0].item, 1);
	assert_int_equal(r.f.cmds[0].x, -1);
	/* the d-pad and A choose; the letter of no item means its action (i closes) */
	key(&r, ACT_INVENTORY, PAD_WEST);
	key(&r, ACT_MOVE_S, PAD_DOWN);
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.f.ncmd, 2);
	assert_int_equal(r.f.cmds[1].item, 1);
	key(&r, ACT_INVENTORY, 'i');
	key(&r, ACT_INVENTORY, 'i');
	assert_int_equal(r.u.screen, UI_PLAY);
	/* the gamepad has no drop button: Y switches between use and drop */
	key(&r, ACT_INVENTORY, PAD_WEST);
	key(&r, ACT_LOOK, PAD_NORTH);
	assert_int_equal(r.u.screen, UI_DROP);
	assert_true(on_screen(r.c, "Y: use"));
	key(&r, ACT_LOOK, PAD_NORTH);
	assert_int_equal(r.u.screen, UI_INVENTORY);
	assert_true(on_screen(r.c, "Y: drop"));
	key(&r, ACT_BACK, PAD_EAST);
	assert_int_equal(r.u.screen, UI_PLAY);
	r.u.last_dev = DEV_KEYBOARD;
	assert_int_equal(r.f.ncmd, 2);
	/* a click on a line chooses it: find the dagger's row */
	key(&r, ACT_INVENTORY, 'i');
	int dy = -1, dx = -1;
	for (int y = 0; y < 50 && dy < 0; y++) {
		char *at = strstr(row(r.c, y, line), "a) / dagger");
		if (at) {
			dy = y;
			dx = (int)(at - line);
		}
	}
	assert_true(dy >= 0);
	click(&r, dx + 3, dy);
	assert_int_equal(r.f.ncmd, 3);
	assert_int_equal(r.f.cmds[2].c, CMD_USE);
	assert_int_equal(r.f.cmds[2].item, 0);
	/* drop: its own title; the key that switches to use and back */
	key(&r, ACT_DROP, 'd');
	assert_int_equal(r.u.screen, UI_DROP);
	assert_true(on_screen(r.c, "Drop which item?"));
	key(&r, ACT_INVENTORY, 'i');
	assert_int_equal(r.u.screen, UI_INVENTORY);
	key(&r, ACT_DROP, 'd');
	assert_int_equal(r.u.screen, UI_DROP);
	key(&r, ACT_NONE, 'a');
	key(&r, ACT_DROP, 'd');
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.f.ncmd, 5);
	assert_int_equal(r.f.cmds[3].c, CMD_DROP);
	assert_int_equal(r.f.cmds[3].item, 0);
	assert_int_equal(r.f.cmds[4].c, CMD_DROP);
	/* an empty inventory says so; Enter just closes it */
	key(&r, ACT_INVENTORY, 'i');
	assert_true(on_screen(r.c, "Your inventory is empty."));
	for (int y = 0; y < 43; y++) /* and shows no scroll arrow over the map: nothing is above */
		for (int x = 0; x < 80; x++)
			assert_int_not_equal(con_at(r.c, x, y)->ch, 0x2191);
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.u.screen, UI_PLAY);
	assert_int_equal(r.f.ncmd, 5);
	/* at 40×30 a full inventory */
	int many[24];
	for (int i = 0; i < 24; i++)
		many[i] = ITEM_DAGGER; /* (potions would stack into one slot) */
	carry(r.f.g, many, 24);
	assert_int_equal(con_resize(r.c, 40, 30), 0);
	struct ui_input in = { .kind = UI_IN_KEY, .act = ACT_INVENTORY, .key = 'i', .cols = 40, .rows = 30 };
	ui_input(&r.u, r.f.g, &r.h, &in);
	in.act = ACT_MOVE_N;
	in.key = KEY_UP;
	ui_input(&r.u, r.f.g, &r.h, &in); /* wraps to the last */
	ui_draw(&r.u, r.f.g, r.c);
	/* 24 daggers and the two dropped items: all 26 fit at 40×30 */
	assert_true(on_screen(r.c, "z) "));
	assert_true(on_screen(r.c, "a) "));
	assert_int_equal(r.u.inv_sel, 25);
	rig_done(&r);
}


/* The inventory box and the message history box are as large as what they
 * hold (the inventory's was 44 columns for 27 of items, the history's the
 * whole screen for a few lines): at 80×50 and at 1920×1080's 91×51, at
 * most one blank column each side of the longest line, no blank row. */
/* Columns between the end of the longest line inside the box on screen
 * and its right edge (the box's frame found by find_box; -1: no box). */
static int box_slack(const struct console *c)
{
	char line[512];
	int bx, by, bw, bh, end = 0;
	if (!find_box(c, &bx, &by, &bw, &bh))
		return -1;
	for (int y = by + 1; y < by + bh - 1; y++) {
		conrow_text(c, y, line, true);
		for (int x = bx + bw - 2; x > bx; x--)
			if (line[x] != ' ') {
				end = x + 1 > end ? x + 1 : end;
				break;
			}
	}
	return bx + bw - 1 - end;
}

static void test_boxes_fit_content(void **st)
{
	(void)st;
	struct rig r;
	char line[256];
	static const struct { int cols, rows; } sizes[] = { { 80, 50 }, { 91, 51 } };
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		rig_room(&r, 3, UI_PLAY);
		assert_int_equal(con_resize(r.c, sizes[s].cols, sizes[s].rows), 0);
		r.u.screen = UI_INVENTORY;
		ui_draw(&r.u, r.f.g, r.c);
		int bx, by, bw, bh, end = -1;
		assert_true(find_box(r.c, &bx, &by, &bw, &bh));
		for (int y = by + 1; y < by + bh - 1; y++) {
			char *at = strstr(conrow_text(r.c, y, line, false), "leather armour (E)");
			if (at)
				end = (int)(at - line) + (int)strlen("leather armour (E)");
		}
		assert_true(end > 0);
		if (bx + bw - 1 - end > 2)
			fail_msg("%dx%d: the inventory box ends %d columns after its longest line", sizes[s].cols,
				 sizes[s].rows, bx + bw - 1 - end);
		assert_int_equal(bh, 2 + 2); /* dagger and leather armour */

		/* the messages of the start (the welcome the longest) */
		r.u.screen = UI_HISTORY;
		ui_draw(&r.u, r.f.g, r.c);
		assert_true(find_box(r.c, &bx, &by, &bw, &bh));
		assert_true(conrow_find(r.c, "Message history"));
		int longest = 0, n = game_msg_count(r.f.g);
		char text[160];
		for (int i = 0; i < n; i++) {
			int len = (int)strlen(game_msg_format(game_msg_get(r.f.g, i), text, sizeof text));
			longest = len > longest ? len : longest;
		}
		if (bw > longest + 4)
			fail_msg("%dx%d: the history box is %d wide for messages of %d", sizes[s].cols, sizes[s].rows, bw,
				 longest);
		for (int y = by + 1; y < by + bh - 1; y++) {
			bool blank = true;
			for (int x = bx + 1; x < bx + bw - 1; x++)
				blank = blank && con_at(r.c, x, y)->ch == ' ';
			if (blank)
				fail_msg("%dx%d: row %d of the history box is blank (%d messages in a box %d tall)",
					 sizes[s].cols, sizes[s].rows, y - by, n, bh);
		}

		/* the level-up box: as wide as its longest choice, a row
		 * between choices that fit on one line (it was 44 wide with a
		 * blank row more under each choice and at its foot) */
		struct c_player *pl = ecs_get_mut(r.f.g->w, r.f.g->player, COMP_PLAYER);
		struct game_stats gs;
		game_stats(r.f.g, &gs);
		pl->xp = gs.xp_next;
		r.u.screen = UI_PLAY;
		key(&r, ACT_WAIT, '.');
		assert_int_equal(r.u.screen, UI_LEVELUP);
		assert_true(find_box(r.c, &bx, &by, &bw, &bh));
		if (box_slack(r.c) > 2)
			fail_msg("%dx%d: the level-up box ends %d columns after its longest line", sizes[s].cols,
				 sizes[s].rows, box_slack(r.c));
		assert_int_equal(bh, 3 + LEVELUP_COUNT * 2 + 1);

		/* the character box (a fixed 36 for 29 columns of text) and
		 * the game-over box (a fixed 40), short and long numbers:
		 * as wide as their longest line, a blank column inside */
		for (int big = 0; big < 2; big++) {
			pl->xp = big ? 123456 : 0;
			r.f.g->turn = big ? 104522 : 5;
			r.u.screen = UI_CHARACTER;
			ui_draw(&r.u, r.f.g, r.c);
			assert_true(on_screen(r.c, big ? "XP: 123456" : "XP: 0"));
			if (box_slack(r.c) != 1)
				fail_msg("%dx%d: the character box ends %d columns after its longest line", sizes[s].cols,
					 sizes[s].rows, box_slack(r.c));
			r.u.screen = UI_GAMEOVER;
			ui_draw(&r.u, r.f.g, r.c);
			assert_true(on_screen(r.c, big ? "after 104522 turns," : "after 5 turns,"));
			if (box_slack(r.c) != 1)
				fail_msg("%dx%d: the game-over box ends %d columns after its longest line (numbers %s)",
					 sizes[s].cols, sizes[s].rows, box_slack(r.c), big ? "long" : "short");
		}
		rig_done(&r);
	}
}

/* The message history stops at its oldest message: after 70 messages, Up
 * held far past the top leaves the box full, the oldest message on its top
 * line, and one Down shows newer ones at once (it went on counting: ~70
 * presses left 2 lines and a blank box, and as many Down to come back). */
static void test_history_clamped_at_top(void **st)
{
	(void)st;
	struct rig r;
	char line[256], text[160];
	rig_room(&r, 3, UI_PLAY);
	struct command drop = { .c = CMD_DROP, .item = 0, .x = -1, .y = -1, .choice = -1 };
	struct command pick = { .c = CMD_PICKUP, .item = -1, .x = -1, .y = -1, .choice = -1 };
	for (int i = 0; i < 35; i++) { /* "You drop ..." and "You pick up ..." in turn */
		game_do(r.f.g, &drop);
		game_do(r.f.g, &pick);
	}
	int n = game_msg_count(r.f.g);
	assert_true(n >= 60);
	key(&r, ACT_HISTORY, 'v');
	for (int i = 0; i < 200; i++)
		key(&r, ACT_MOVE_N, KEY_UP);
	int bx, by, bw, bh;
	assert_true(find_box(r.c, &bx, &by, &bw, &bh));
	for (int y = by + 1; y < by + bh - 1; y++) {
		bool blank = true;
		for (int x = bx + 1; x < bx + bw - 1; x++)
			blank = blank && con_at(r.c, x, y)->ch == ' ';
		if (blank)
			fail_msg("row %d of the history box is blank after Up at the top (history_top %d of %d)", y - by,
				 r.u.history_top, n);
	}
	game_msg_format(game_msg_get(r.f.g, 0), text, sizeof text);
	assert_non_null(strstr(conrow_text(r.c, by + 1, line, false), text));
	int top = r.u.history_top;
	key(&r, ACT_MOVE_S, KEY_DOWN);
	assert_int_equal(r.u.history_top, top - 1);
	assert_null(strstr(conrow_text(r.c, by + 1, line, false), text)); /* it moved at once */
	rig_done(&r);
}

/* A line over the map (why auto-explore stopped) has the top row to itself:
 * the map row under it is cleared across the view, not left showing round
 * the words ("You see a health potion.#.#######"). */
static void test_status_line_clears_its_row(void **st)
{
	(void)st;
	struct rig r;
	char line[256];
	rig_init(&r, gamefix_room(3), UI_PLAY);
	gamefix_enter(r.f.g, 10, 2); /* the room's top wall in view, on the map's row 0 */
	ui_draw(&r.u, r.f.g, r.c);
	assert_non_null(strstr(conrow_text(r.c, 0, line, false), "###"));
	snprintf(r.u.status, sizeof r.u.status, "You see a health potion.");
	ui_draw(&r.u, r.f.g, r.c);
	conrow_text(r.c, 0, line, false);
	assert_non_null(strstr(line, "You see a health potion."));
	for (int x = 0; x < r.c->w; x++) {
		const struct con_cell *k = con_at(r.c, x, 0);
		if (k->ch == '#' || (k->flags & CON_MAP))
			fail_msg("column %d of the status row shows the map: '%s'", x, line);
		assert_int_equal(k->bg, con_at(r.c, 1, 0)->bg); /* one bar */
	}
	rig_done(&r);
}

/* The look and aim cursors' description never covers the map: every map
 * cell of the view but the one under the cursor shows as on the play
 * screen (it hid a paralysed troll beside the cursor, and walls), on the
 * wide and the compact panel, with map cells one and two text cells wide,
 * on the look screen and on the aiming screen (a scroll without an area:
 * its prompt has the top row); the description is there, off the map. */
static void test_describe_off_the_map(void **st)
{
	(void)st;
	static const struct { int cols, rows; } sizes[] = { { 80, 50 }, { 60, 30 }, { 40, 24 }, { 160, 45 } };
	static const enum ui_screen screens[2] = { UI_LOOK, UI_TARGET };
	static const int confusion[1] = { ITEM_CONFUSION_SCROLL };
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
		for (int sc = 0; sc < 2; sc++)
			for (int cw = 1; cw <= 2; cw++) {
				struct rig r;
				char line[256];
				rig_room(&r, 3, UI_PLAY);
				assert_int_equal(con_resize(r.c, sizes[s].cols, sizes[s].rows), 0);
				gamefix_spawn_seen(r.f.g, ACTOR_TROLL, 11, 11); /* beside the cell looked at */
				carry(r.f.g, confusion, 1);
				struct console *play;
				assert_int_equal(con_create(&play, sizes[s].cols, sizes[s].rows), 0);
				r.u.map_cw = cw;
				r.u.look_x = 10; /* the player's cell: the camera the play screen's, at any width */
				r.u.look_y = 10;
				r.u.target_slot = 2; /* c: the scroll (a, b: dagger, armour) */
				struct ui_layout l;
				ui_layout(sizes[s].cols, sizes[s].rows, cw, &l);
				/* the same camera as the look screen's, on the play screen */
				int px, py;
				game_player_pos(r.f.g, &px, &py);
				r.u.screen = UI_PLAY;
				ui_draw(&r.u, r.f.g, play);
				r.u.screen = screens[sc];
				ui_draw(&r.u, r.f.g, r.c);
				int cam_x, cam_y, pcx, pcy;
				ui_camera(&l, 80, 43, r.u.look_x, r.u.look_y, &cam_x, &cam_y);
				ui_camera(&l, 80, 43, px, py, &pcx, &pcy);
				assert_int_equal(cam_x, pcx); /* the cursor next to the player: no scroll */
				assert_int_equal(cam_y, pcy);
				int cur_x = ui_view_cx(&l, r.u.look_x - cam_x), cur_y = l.view_y + r.u.look_y - cam_y;
				/* the aiming screen's prompt bar: the top row */
				for (int y = l.view_y + (screens[sc] == UI_TARGET); y < l.view_y + l.view_h; y++)
					for (int x = l.view_x; x < l.view_x + l.view_w; x++) {
						if (x >= cur_x && x < cur_x + cw && y == cur_y)
							continue;
						const struct con_cell *a = con_at(play, x, y), *b = con_at(r.c, x, y);
						if (a->ch != b->ch || a->fg != b->fg || a->bg != b->bg)
							fail_msg("%s %dx%d, map cells %d wide: the description covers map "
								 "cell (%d, %d): '%c' became '%c'",
								 ui_screen_name(screens[sc]), sizes[s].cols, sizes[s].rows, cw,
								 x, y, (char)a->ch, (char)b->ch);
					}
				bool found = false;
				for (int x = 0; x < r.c->w; x++)
					found = found || con_at(r.c, x, l.desc_y)->bg == 0x202030;
				if (!found)
					fail_msg("%s %dx%d: no description on row %d: '%s'", ui_screen_name(screens[sc]),
						 sizes[s].cols, sizes[s].rows, l.desc_y, conrow_text(r.c, l.desc_y, line, false));
				con_destroy(play);
				rig_done(&r);
			}
}

static void test_targeting(void **st)
{
	(void)st;
	struct rig r;
	char line[256];
	rig_room(&r, 3, UI_PLAY);
	static const int scrolls[2] = { ITEM_CONFUSION_SCROLL, ITEM_FIREBALL_SCROLL };
	carry(r.f.g, scrolls, 2);
	int base = r.f.ncmd;
	/* no monster in view: the cursor starts on the player */
	key(&r, ACT_INVENTORY, 'i');
	key(&r, ACT_NONE, 'd'); /* fireball (a, b are dagger and armour, c confusion) */
	assert_int_equal(r.u.screen, UI_TARGET);
	assert_int_equal(r.u.look_x, 10);
	assert_int_equal(r.u.look_y, 10);
	assert_true(on_screen(r.c, "Fireball scroll: choose a cell"));
	/* Escape cancels and costs nothing */
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	assert_int_equal(r.u.screen, UI_PLAY);
	assert_int_equal(r.f.ncmd, base);
	assert_int_equal(game_turn(r.f.g), 1);
	/* with monsters in view it starts on the nearest one */
	gamefix_spawn(r.f.g, ACTOR_ORC, 16, 10);
	gamefix_spawn(r.f.g, ACTOR_TROLL, 13, 12);
	world_refresh_view(r.f.g);
	key(&r, ACT_INVENTORY, 'i');
	key(&r, ACT_NONE, 'c');
	assert_int_equal(r.u.screen, UI_TARGET);
	assert_int_equal(r.u.look_x, 13);
	assert_int_equal(r.u.look_y, 12);
	/* a cell without a monster is refused with the game's own words; nothing happens */
	key(&r, ACT_MOVE_N, KEY_UP);
	key(&r, ACT_CONFIRM, KEY_ENTER);
	char why[128];
	assert_int_equal(game_target_check(r.f.g, 2, 13, 11, why, sizeof why), -1);
	assert_string_equal(r.u.status, why);
	assert_true(on_screen(r.c, why));
	assert_int_equal(r.u.screen, UI_TARGET);
	assert_int_equal(r.f.ncmd, base);
	/* back on the troll: B cancels too, A would fire */
	key(&r, ACT_MOVE_S, PAD_DOWN);
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.u.screen, UI_PLAY);
	assert_int_equal(r.f.ncmd, base + 1);
	assert_int_equal(r.f.cmds[base].c, CMD_USE);
	assert_int_equal(r.f.cmds[base].item, 2);
	assert_int_equal(r.f.cmds[base].x, 13);
	assert_int_equal(r.f.cmds[base].y, 12);
	/* the fireball's area is drawn around the cursor before confirming */
	key(&r, ACT_INVENTORY, 'i');
	key(&r, ACT_NONE, 'd');
	int area = 0;
	for (int y = 0; y < 43; y++)
		for (int x = 0; x < 80; x++)
			area += con_at(r.c, x, y)->bg == 0x803000;
	assert_int_equal(area, 28); /* radius 3, the cursor's own cell not tinted */
	/* a click aims, a second click on it fires */
	click(&r, 16, 10);
	assert_int_equal(r.u.look_x, 16);
	assert_int_equal(r.f.ncmd, base + 1);
	click(&r, 16, 10);
	assert_int_equal(r.f.ncmd, base + 2);
	assert_int_equal(r.f.cmds[base + 1].x, 16);
	(void)line;
	rig_done(&r);
}

/* Issue 18, item 3: a fireball whose area holds the player says so in the
 * preview (his cell red), the prompt and the hint, and needs a second
 * confirm on the same cell (it went off at once: 30 -> 18 HP). */
static void test_fireball_at_own_feet(void **st)
{
	(void)st;
	struct rig r;
	rig_room(&r, 3, UI_PLAY);
	static const int scroll[1] = { ITEM_FIREBALL_SCROLL };
	carry(r.f.g, scroll, 1);
	int base = r.f.ncmd;
	key(&r, ACT_INVENTORY, 'i');
	key(&r, ACT_NONE, 'c');
	assert_int_equal(r.u.screen, UI_TARGET);
	key(&r, ACT_MOVE_E, KEY_RIGHT); /* one cell east: the player inside the area */
	assert_true(on_screen(r.c, "YOU ARE IN ITS AREA"));
	assert_true(on_screen(r.c, "hits you"));
	assert_int_equal(con_at(r.c, 10, 10)->bg, 0xC00000);
	/* the warning whole on the top row however narrow the console (a
	 * turned 1080p screen's 45 columns showed "... - YOU ARE IN") */
	for (int cols = 40; cols <= 80; cols++) {
		char line[256];
		assert_int_equal(con_resize(r.c, cols, 50), 0);
		ui_draw(&r.u, r.f.g, r.c);
		if (!strstr(conrow_text(r.c, 0, line, false), "YOU ARE IN ITS AREA"))
			fail_msg("%d columns: the warning is cut: '%s'", cols, line);
	}
	assert_int_equal(con_resize(r.c, 80, 50), 0);
	ui_draw(&r.u, r.f.g, r.c);
	/* the first confirm warns and costs nothing */
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.f.ncmd, base);
	assert_int_equal(r.u.screen, UI_TARGET);
	assert_true(on_screen(r.c, "The fireball scroll would hit you too! Confirm again to use it."));
	/* aimed elsewhere and back: asked again */
	key(&r, ACT_MOVE_E, KEY_RIGHT);
	key(&r, ACT_MOVE_W, KEY_LEFT);
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.f.ncmd, base);
	/* the second confirm on the same cell uses it */
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.f.ncmd, base + 1);
	assert_int_equal(r.f.cmds[base].c, CMD_USE);
	assert_int_equal(r.f.cmds[base].x, 11);
	struct game_stats s;
	game_stats(r.f.g, &s);
	assert_int_equal(s.hp, 30 - 12);
	/* an area without the player goes off at the first confirm */
	carry(r.f.g, scroll, 1);
	base = r.f.ncmd;
	key(&r, ACT_INVENTORY, 'i');
	key(&r, ACT_NONE, 'c');
	for (int i = 0; i < 5; i++)
		key(&r, ACT_MOVE_E, KEY_RIGHT);
	assert_false(on_screen(r.c, "YOU ARE IN ITS AREA"));
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.f.ncmd, base + 1);
	rig_done(&r);
}

/* Issue 18, item 6: a new high score asks for a name, by keyboard or by the
 * pad's letter wheel, the last name offered first. */
static void test_name_entry(void **st)
{
	(void)st;
	struct rig r;
	rig_room(&r, 3, UI_GAMEOVER);
	r.u.score_rank = 0;
	r.u.name_pending = true;
	snprintf(r.u.name, sizeof r.u.name, "ANN"); /* the last name given */
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.u.screen, UI_NAME);
	assert_true(on_screen(r.c, "A new high score!"));
	assert_true(on_screen(r.c, "ANN_"));
	/* the keyboard types (a letter bound to a move is a letter here) */
	key(&r, ACT_NONE, KEY_BACKSPACE);
	key(&r, ACT_MOVE_W, 'h');
	key(&r, ACT_WAIT, ' ');
	key(&r, ACT_NONE, 'Q');
	assert_string_equal(r.u.name, "ANh Q");
	for (int i = 0; i < 20; i++)
		key(&r, ACT_NONE, 'z');
	assert_int_equal(strlen(r.u.name), UI_NAME_MAX);
	for (int i = 0; i < 20; i++)
		key(&r, ACT_NONE, KEY_BACKSPACE);
	assert_string_equal(r.u.name, "");
	/* the pad's wheel: up and down turn the last letter, right adds one,
	 * B rubs out */
	key(&r, ACT_MOVE_N, PAD_UP);
	assert_string_equal(r.u.name, "A");
	key(&r, ACT_MOVE_N, PAD_UP);
	key(&r, ACT_MOVE_N, PAD_UP);
	assert_string_equal(r.u.name, "C");
	key(&r, ACT_MOVE_S, PAD_DOWN);
	key(&r, ACT_MOVE_S, PAD_DOWN);
	key(&r, ACT_MOVE_S, PAD_DOWN);
	assert_string_equal(r.u.name, "."); /* round the wheel backwards */
	key(&r, ACT_MOVE_N, PAD_UP);
	key(&r, ACT_MOVE_E, PAD_RIGHT);
	key(&r, ACT_MOVE_N, PAD_UP);
	key(&r, ACT_MOVE_E, PAD_RIGHT);
	key(&r, ACT_MOVE_E, PAD_RIGHT);
	assert_string_equal(r.u.name, "ABAA");
	key(&r, ACT_BACK, PAD_EAST);
	assert_string_equal(r.u.name, "ABA");
	assert_true(on_screen(r.c, "ABA_"));
	assert_int_equal(r.f.nreq, 0);
	/* A keeps it: the name is given, then the scores */
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.f.nreq, 2);
	assert_int_equal(r.f.reqs[0], UI_REQ_NAME);
	assert_int_equal(r.f.reqs[1], UI_REQ_SCORES);
	assert_string_equal(r.u.name, "ABA");
	assert_false(r.u.name_pending);
	assert_true(r.u.scores_after_death);
	/* Escape on the keyboard: no name */
	r.u.screen = UI_NAME;
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	assert_int_equal(r.f.reqs[2], UI_REQ_NAME);
	assert_string_equal(r.u.name, "");
	/* no new high score: Enter goes to the scores at once */
	r.u.screen = UI_GAMEOVER;
	r.u.name_pending = false;
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.f.reqs[4], UI_REQ_SCORES);
	/* the table shows names */
	r.u.screen = UI_SCORES;
	r.u.nscores = 1;
	r.u.scores[0] = (struct ui_score){ .score = 120, .depth = 2, .turns = 300, .level = 2, .cause = "killed by a troll",
					   .name = "ABA" };
	ui_draw(&r.u, r.f.g, r.c);
	assert_true(on_screen(r.c, "ABA           killed by a troll"));
	rig_done(&r);
}

/* Issue 18, item 4: the viewer's keys and pad: pause, speed 1x to 64x,
 * step, jumps, stop; the line on top says the turn and the speed. */
static void test_view_controls(void **st)
{
	(void)st;
	struct rig r;
	rig_room(&r, 3, UI_VIEW);
	r.u.view = (struct ui_view){ .speed = 1, .turn = 5, .end_turn = 100, .at = 5, .count = 101 };
	snprintf(r.u.view.name, sizeof r.u.view.name, "x.rec");
	ui_draw(&r.u, r.f.g, r.c);
	assert_true(on_screen(r.c, "Watching x.rec  turn 5/100  1x"));
	key(&r, ACT_DO, PAD_SOUTH);
	assert_true(r.u.view.paused);
	assert_true(on_screen(r.c, "turn 5/100  1x  paused"));
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_false(r.u.view.paused);
	for (int i = 0; i < 8; i++)
		key(&r, ACT_MOVE_N, PAD_UP);
	assert_int_equal(r.u.view.speed, 64);
	key(&r, ACT_MOVE_S, PAD_DOWN);
	assert_int_equal(r.u.view.speed, 32);
	key(&r, ACT_NONE, '-');
	key(&r, ACT_NONE, '+');
	assert_int_equal(r.u.view.speed, 32);
	key(&r, ACT_MOVE_E, PAD_RIGHT);
	key(&r, ACT_MOVE_W, PAD_LEFT);
	key(&r, ACT_NONE, ']');
	key(&r, ACT_NONE, '[');
	key(&r, ACT_INVENTORY, PAD_WEST);
	assert_true(r.u.view.paused); /* a step pauses */
	key(&r, ACT_WAIT, '.');
	key(&r, ACT_BACK, PAD_EAST);
	key(&r, ACT_NONE, 'q');
	static const enum ui_request want[] = { UI_REQ_VIEW_ON,   UI_REQ_VIEW_BACK, UI_REQ_VIEW_ON,   UI_REQ_VIEW_BACK,
						UI_REQ_VIEW_STEP, UI_REQ_VIEW_STEP, UI_REQ_VIEW_STOP, UI_REQ_VIEW_STOP };
	assert_int_equal(r.f.nreq, 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(r.f.reqs[i], want[i]);
	assert_int_equal(r.f.ncmd, 0); /* watching gives the game nothing */
	rig_done(&r);
}

static void test_levelup(void **st)
{
	(void)st;
	struct rig r;
	rig_room(&r, 3, UI_PLAY);
	struct c_player *pl = ecs_get_mut(r.f.g->w, r.f.g->player, COMP_PLAYER);
	struct game_stats s;
	game_stats(r.f.g, &s);
	pl->xp = s.xp_next;
	/* a command shows it; it cannot be left without choosing */
	key(&r, ACT_WAIT, '.');
	assert_int_equal(r.u.screen, UI_LEVELUP);
	assert_true(on_screen(r.c, "You reach level 2. Choose:"));
	/* at 40 columns a choice's label wraps under itself, not under its
	 * letter ("20)" stood below "a)") */
	assert_int_equal(con_resize(r.c, 40, 30), 0);
	ui_draw(&r.u, r.f.g, r.c);
	char line[256], next[256];
	bool wrapped = false;
	for (int y = 0; y + 1 < 30; y++) {
		const char *at = strstr(row(r.c, y, line), "Constitution");
		if (!at)
			continue;
		row(r.c, y + 1, next);
		int col = (int)(at - line), first = 0;
		while (next[first] == ' ' || next[first] == '*')
			first++;
		assert_int_equal(first, col);
		wrapped = true;
	}
	assert_true(wrapped);
	assert_int_equal(con_resize(r.c, 80, 50), 0);
	ui_draw(&r.u, r.f.g, r.c);
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	key(&r, ACT_BACK, PAD_EAST);
	key(&r, ACT_INVENTORY, 'i');
	assert_int_equal(r.u.screen, UI_LEVELUP);
	assert_true(on_screen(r.c, "Choose what your new level brings."));
	/* help opens over it and comes back to it */
	key(&r, ACT_HELP, '?');
	assert_int_equal(r.u.screen, UI_HELP);
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	assert_int_equal(r.u.screen, UI_LEVELUP);
	key(&r, ACT_MOVE_S, KEY_DOWN);
	key(&r, ACT_MOVE_S, KEY_DOWN);
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.u.screen, UI_PLAY);
	int last = r.f.ncmd - 1;
	assert_int_equal(r.f.cmds[last].c, CMD_LEVEL_UP);
	assert_int_equal(r.f.cmds[last].choice, LEVELUP_DEFENSE);
	game_stats(r.f.g, &s);
	assert_int_equal(s.level, 2);
	assert_int_equal(s.base_defense, 2);
	/* a letter chooses at once */
	pl->xp = s.xp_next;
	key(&r, ACT_WAIT, '.');
	key(&r, ACT_NONE, 'a');
	assert_int_equal(r.f.cmds[r.f.ncmd - 1].choice, LEVELUP_HP);
	assert_int_equal(r.u.screen, UI_PLAY);
	rig_done(&r);
}

static void test_character_and_scores(void **st)
{
	(void)st;
	struct rig r;
	rig_room(&r, 3, UI_PLAY);
	key(&r, ACT_CHARACTER, 'c');
	/* base + equipment: dagger +2 power, leather +1 defence */
	assert_true(on_screen(r.c, "Power: 4 (2 +2 equipment)"));
	assert_true(on_screen(r.c, "Defence: 2 (1 +1 equipment)"));
	assert_true(on_screen(r.c, "XP for next level: 350"));
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	/* the scores screen shows what the host put in the ui */
	r.u.nscores = 2;
	r.u.scores[0] = (struct ui_score){ .score = 900, .depth = 3, .turns = 400, .level = 2, .cause = "killed by an orc" };
	r.u.scores[1] = (struct ui_score){ .score = 50, .depth = 1, .turns = 20, .level = 1, .cause = "killed by a goblin" };
	r.u.score_rank = 1;
	r.u.screen = UI_SCORES;
	r.u.scores_after_death = false;
	ui_draw(&r.u, r.f.g, r.c);
	assert_true(on_screen(r.c, " 1.    900      3      2    400  -             killed by an orc"));
	int sx = 0, sy = 0, hx = -1, hy = 0, bx, by, bw, bh;
	assert_true(conrow_find_at(r.c, " 2.     50", &sx, &sy));
	assert_int_equal(con_at(r.c, sx, sy)->bg, 0x304870); /* the game just ended */
	assert_true(conrow_find_at(r.c, " 1.    900", &sx, &sy));
	assert_int_equal(con_at(r.c, sx, sy)->bg, 0);
	/* the box as wide as the table, centred; the heading over its
	 * columns (it stood one column left of them) */
	assert_true(find_box(r.c, &bx, &by, &bw, &bh));
	assert_true(bw <= 3 + 47 + (int)strlen("killed by a goblin") + 2 && bx == (80 - bw) / 2);
	assert_true(conrow_find_at(r.c, "how it ended", &hx, &hy));
	assert_true(conrow_find_at(r.c, "killed by an orc", &sx, &sy));
	assert_int_equal(hx, sx);
	/* "watch" on a game without its recording says so on the screen (the
	 * line was set and never drawn), at 80 and 40 columns */
	r.u.watch = 0;
	key(&r, ACT_NONE, 'w');
	assert_true(on_screen(r.c, "No recording of that game is kept."));
	assert_int_equal(con_resize(r.c, 40, 30), 0);
	snprintf(r.u.status, sizeof r.u.status, "No recording of that game is kept.");
	ui_draw(&r.u, r.f.g, r.c);
	assert_true(on_screen(r.c, "No recording of that game is"));
	assert_int_equal(con_resize(r.c, 80, 50), 0);
	r.u.status[0] = 0;
	/* at 40 columns a long cause goes on under itself, never cut */
	snprintf(r.u.scores[1].cause, sizeof r.u.scores[1].cause, "killed by your own fireball");
	assert_int_equal(con_resize(r.c, 40, 30), 0);
	ui_draw(&r.u, r.f.g, r.c);
	assert_true(on_screen(r.c, " 2.     50  1   killed by your own"));
	assert_true(on_screen(r.c, "*                  fireball ")); /* under the cause */
	assert_int_equal(con_resize(r.c, 80, 50), 0);
	key(&r, ACT_CONFIRM, KEY_ENTER); /* from the menu: back to it */
	assert_int_equal(r.u.screen, UI_TITLE);
	assert_int_equal(r.f.nreq, 0);
	rig_done(&r);
}

/* The HUD's level and XP line fits its 21 columns (it no longer reads
 * "XP: 1005/140" at level 8): a shorter form when the long one does not
 * fit; at 40 columns the HP bar narrows for it. */
static void test_hud_xp_fits(void **st)
{
	(void)st;
	struct rig r;
	rig_room(&r, 3, UI_PLAY);
	struct c_player *pl = ecs_get_mut(r.f.g->w, r.f.g->player, COMP_PLAYER);
	pl->level = 8;
	pl->xp = 1005;
	ui_draw(&r.u, r.f.g, r.c);
	assert_true(on_screen(r.c, "1005/1400"));
	/* at 40x30 the stats share a line with a narrower HP bar */
	assert_int_equal(con_resize(r.c, 40, 30), 0);
	ui_draw(&r.u, r.f.g, r.c);
	assert_true(on_screen(r.c, "Lv8 D:1 XP:1005/1400"));
	assert_true(on_screen(r.c, "HP: 30/30"));
	assert_int_equal(con_resize(r.c, 80, 50), 0);
	pl->level = 99;
	pl->xp = 99999;
	ui_draw(&r.u, r.f.g, r.c);
	assert_true(on_screen(r.c, "99999/15050"));
	pl->level = 1;
	pl->xp = 20;
	ui_draw(&r.u, r.f.g, r.c);
	assert_true(on_screen(r.c, " Level 1  XP: 20/350 "));
	rig_done(&r);
}

/* The HP bar shows colour while the player lives: 1 HP of 30 filled no
 * cell of the 20 (the fight frames showed an empty bar at 1 HP). */
static void test_hp_bar_alive(void **st)
{
	(void)st;
	struct rig r;
	rig_room(&r, 3, UI_PLAY);
	struct c_actor *pa = ecs_get_mut(r.f.g->w, r.f.g->player, COMP_ACTOR);
	pa->hp = 1;
	ui_draw(&r.u, r.f.g, r.c);
	int y = -1;
	for (int i = 0; i < 50 && y < 0; i++)
		if (con_at(r.c, 1, i)->bg == ui_hp_colour(ui_palette_of(NULL), 1, 30) || con_at(r.c, 1, i)->bg == ui_palette_of(NULL)->hp_empty)
			y = i;
	assert_true(y >= 0);
	assert_int_equal(con_at(r.c, 1, y)->bg, ui_hp_colour(ui_palette_of(NULL), 1, 30)); /* the bar's first cell */
	assert_int_equal(con_at(r.c, 2, y)->bg, ui_palette_of(NULL)->hp_empty);
	pa->hp = 0;
	ui_draw(&r.u, r.f.g, r.c);
	assert_int_equal(con_at(r.c, 1, y)->bg, ui_palette_of(NULL)->hp_empty); /* dead: empty */
	rig_done(&r);
}

/* The options screen by keyboard and by pad actions alone: Options (after
 * New game, Daily, High scores) on the
 * title menu opens it, up/down choose a row, right/Enter/A step its value
 * on (left back), each change one UI_REQ_OPTION; the keys row opens the
 * help screen, which comes back here; B or Escape go back where it was
 * opened (the title, or the play screen by O / L3). */
static void test_options_keys_and_pad(void **st)
{
	(void)st;
	struct rig r;
	rig_init(&r, NULL, UI_TITLE);
	r.u.opt_val[0] = 2; /* attract: 60 */
	r.u.opt_val[1] = -1; /* blank: a value none of the rows' */
	snprintf(r.u.opt_other[1], sizeof r.u.opt_other[1], "7");
	key(&r, ACT_MOVE_S, KEY_DOWN);
	key(&r, ACT_MOVE_S, KEY_DOWN);
	key(&r, ACT_MOVE_S, KEY_DOWN);
	key(&r, ACT_CONFIRM, KEY_ENTER);
	assert_int_equal(r.u.screen, UI_OPTIONS);
	assert_true(conrow_find(r.c, "Demo after"));
	assert_true(conrow_find(r.c, "1 minute"));
	assert_true(conrow_find(r.c, "* 7 *"));
	r.f.nreq = 0;
	key(&r, ACT_MOVE_E, KEY_RIGHT);
	assert_int_equal(r.u.opt_val[0], 3);
	assert_true(conrow_find(r.c, "2 minutes"));
	key(&r, ACT_MOVE_W, KEY_LEFT);
	key(&r, ACT_MOVE_W, KEY_LEFT);
	assert_int_equal(r.u.opt_val[0], 1);
	key(&r, ACT_DO, PAD_SOUTH); /* A */
	assert_int_equal(r.u.opt_val[0], 2);
	assert_int_equal(r.f.nreq, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(r.f.reqs[i], UI_REQ_OPTION);
	/* the first row wraps round to its last value, and back */
	key(&r, ACT_MOVE_W, PAD_LEFT);
	key(&r, ACT_MOVE_W, PAD_LEFT);
	key(&r, ACT_MOVE_W, PAD_LEFT);
	assert_int_equal(r.u.opt_val[0], 5);
	key(&r, ACT_MOVE_E, PAD_RIGHT);
	assert_int_equal(r.u.opt_val[0], 0);
	assert_true(conrow_find(r.c, "never"));
	/* the next row, by the d-pad; a value none of its own goes to the first */
	key(&r, ACT_MOVE_S, PAD_DOWN);
	assert_int_equal(r.u.opt_sel, 1);
	key(&r, ACT_MOVE_E, PAD_RIGHT);
	assert_int_equal(r.u.opt_val[1], 0);
	assert_int_equal(r.u.opt_sel, 1);
	/* watch: yes / no */
	key(&r, ACT_MOVE_S, PAD_DOWN);
	assert_true(conrow_find(r.c, "Others may watch"));
	r.u.opt_val[2] = 0;
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.u.opt_val[2], 1);
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.u.opt_val[2], 0);
	/* auto-pickup: potions and scrolls, one back is nothing, and on again */
	key(&r, ACT_MOVE_S, PAD_DOWN);
	assert_true(conrow_find(r.c, "Explore picks up"));
	r.u.opt_val[3] = ui_option_value(3, "potions,scrolls");
	assert_int_equal(r.u.opt_val[3], 0);
	r.f.nreq = 0;
	key(&r, ACT_MOVE_W, PAD_LEFT);
	assert_int_equal(r.u.opt_val[3], ui_option_value(3, "none"));
	assert_true(conrow_find(r.c, "nothing"));
	key(&r, ACT_MOVE_E, KEY_RIGHT);
	assert_int_equal(r.u.opt_val[3], 0);
	assert_true(conrow_find(r.c, "potions and scrolls"));
	assert_int_equal(r.f.nreq, 2);
	/* colours: default, high contrast; the screen in it as soon as the
	 * app sets what the row says (the app's part: test_options_rows.sh) */
	key(&r, ACT_MOVE_S, PAD_DOWN);
	assert_true(conrow_find(r.c, "Colours"));
	r.u.opt_val[4] = 0;
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.u.opt_val[4], ui_option_value(4, "high-contrast"));
	assert_true(conrow_find(r.c, "high contrast"));
	r.u.palette = UI_PALETTE_HIGH_CONTRAST;
	ui_draw(&r.u, r.f.g, r.c);
	const struct ui_palette *hc = ui_palette_of(&r.u);
	assert_int_not_equal(hc->text, ui_palette_of(NULL)->text);
	int tx = 0, ty = 0;
	assert_true(conrow_find_at(r.c, "Demo after", &tx, &ty));
	assert_int_equal(con_at(r.c, tx, ty)->fg, hc->text);
	r.u.palette = UI_PALETTE_DEFAULT;
	key(&r, ACT_MOVE_W, KEY_LEFT);
	assert_int_equal(r.u.opt_val[4], 0);
	/* text size: automatic, larger, smaller (the display's part:
	 * test_options_rows.sh at 1920x1080) */
	key(&r, ACT_MOVE_S, PAD_DOWN);
	assert_true(conrow_find(r.c, "Text size"));
	r.u.opt_val[5] = ui_option_value(5, "auto");
	assert_true(conrow_find(r.c, "automatic"));
	key(&r, ACT_MOVE_W, PAD_LEFT);
	assert_int_equal(r.u.opt_val[5], ui_option_value(5, "smaller"));
	key(&r, ACT_MOVE_W, KEY_LEFT);
	assert_int_equal(r.u.opt_val[5], ui_option_value(5, "larger"));
	assert_true(conrow_find(r.c, "larger"));
	/* map look: glyphs, pictures (the display's part: test_options_rows.sh) */
	key(&r, ACT_MOVE_S, PAD_DOWN);
	assert_true(conrow_find(r.c, "Map look"));
	r.u.opt_val[6] = ui_option_value(6, "off");
	key(&r, ACT_MOVE_E, PAD_RIGHT);
	assert_int_equal(r.u.opt_val[6], ui_option_value(6, "on"));
	assert_true(conrow_find(r.c, "pictures"));
	/* the keys row: the help screen, and back here with B */
	key(&r, ACT_MOVE_S, PAD_DOWN);
	r.f.nreq = 0;
	key(&r, ACT_DO, PAD_SOUTH);
	assert_int_equal(r.f.nreq, 0);
	assert_int_equal(r.u.screen, UI_HELP);
	key(&r, ACT_BACK, PAD_EAST);
	assert_int_equal(r.u.screen, UI_OPTIONS);
	assert_int_equal(r.u.opt_sel, 7);
	key(&r, ACT_MOVE_S, KEY_DOWN); /* wraps to the first */
	assert_int_equal(r.u.opt_sel, 0);
	key(&r, ACT_BACK, PAD_EAST);
	assert_int_equal(r.u.screen, UI_TITLE);
	rig_done(&r);

	/* from the play screen, by its key and by its pad button */
	rig_room(&r, 1, UI_PLAY);
	key(&r, ACT_OPTIONS, 'O');
	assert_int_equal(r.u.screen, UI_OPTIONS);
	assert_true(conrow_find(r.c, "Options"));
	assert_true(conrow_find(r.c, "HP")); /* the map and its panel behind the box */
	key(&r, ACT_CANCEL, KEY_ESCAPE);
	assert_int_equal(r.u.screen, UI_PLAY);
	assert_int_equal(r.f.nreq, 0); /* not a save & quit */
	assert_int_equal(bind_action(ui_binds(&r.u), 'O'), ACT_OPTIONS);
	assert_int_equal(bind_action(ui_binds(&r.u), PAD_THUMBL), ACT_OPTIONS);
	key(&r, ACT_OPTIONS, PAD_THUMBL);
	assert_int_equal(r.u.screen, UI_OPTIONS);
	key(&r, ACT_OPTIONS, PAD_THUMBL); /* the same button closes it */
	assert_int_equal(r.u.screen, UI_PLAY);
	/* the play screen's hint line names it where it has room */
	assert_int_equal(con_resize(r.c, 200, 50), 0);
	ui_draw(&r.u, r.f.g, r.c);
	assert_true(conrow_find(r.c, "L3: options"));
	key(&r, ACT_WAIT, '.');
	assert_true(conrow_find(r.c, "O: options"));
	rig_done(&r);
}

/* By the mouse: a click on a row chooses it and steps its value on. */
/* On a 40-column console (320x240) every value shows whole between its
 * arrows ("Explore picks up" showed "◄ potions and scr": the value and its
 * ► cut by the box); a value longer than the box (a sheet's file name) is
 * cut, its ► kept inside the box. */
static void test_options_narrow(void **st)
{
	(void)st;
	struct rig r;
	rig_init(&r, NULL, UI_OPTIONS);
	assert_int_equal(con_resize(r.c, 40, 26), 0);
	r.u.opt_val[3] = ui_option_value(3, "potions,scrolls");
	assert_int_equal(r.u.opt_val[3], 0);
	r.u.opt_val[6] = -1;
	snprintf(r.u.opt_other[6], sizeof r.u.opt_other[6], "my-own-very-long-sheet-8x9.png");
	ui_draw(&r.u, NULL, r.c);
	char buf[64];
	int x, y;
	assert_true(conrow_find_at(r.c, "Explore picks up", &x, &y));
	assert_string_equal(conrow_text(r.c, y, buf, false), "*Explore picks up *potions and scrolls**");
	assert_true(conrow_find_at(r.c, "Demo after", &x, &y));
	assert_string_equal(conrow_text(r.c, y, buf, false), "*Demo after       * never *            *");
	assert_true(conrow_find_at(r.c, "Map look", &x, &y));
	assert_string_equal(conrow_text(r.c, y, buf, false), "*Map look         *my-own-very-long-sh**");
	rig_done(&r);
}

static void test_options_mouse(void **st)
{
	(void)st;
	struct rig r;
	rig_init(&r, NULL, UI_OPTIONS);
	r.u.opt_val[1] = 3;
	ui_draw(&r.u, NULL, r.c);
	int y = -1;
	char line[1024];
	for (int i = 0; i < r.c->h && y < 0; i++) {
		row(r.c, i, line);
		if (strstr(line, "Screen off after"))
			y = i;
	}
	assert_true(y >= 0);
	struct ui_input in = { .kind = UI_IN_CLICK, .x = 40, .y = y, .button = 1, .cols = 80, .rows = 50 };
	ui_input(&r.u, NULL, &r.h, &in);
	assert_int_equal(r.u.opt_sel, 1);
	assert_int_equal(r.u.opt_val[1], 4);
	assert_int_equal(r.f.nreq, 1);
	assert_int_equal(r.f.reqs[0], UI_REQ_OPTION);
	in.y = 0; /* outside the box: nothing */
	ui_input(&r.u, NULL, &r.h, &in);
	assert_int_equal(r.f.nreq, 1);
	rig_done(&r);
}

/* The console sizes of the automatic layout at the screens of issue 17
 * (text cells of the --verbose layout line, map cells two wide) and
 * terminals (one column a map cell): 3840x2160 and 1920x1080 and 1280x720
 * (160x45), 1366x768 (151x42), 1024x600 (102x30), 800x480 (100x30),
 * 480x320 (80x26), 320x240 (40x26 with the 8x9 font, map cells one wide),
 * the panels turned (2160x3840 and 768x1366 48x42, 1080x1920 and 720x1280
 * 45x40, 600x1024 50x42, 480x800 53x44, 320x480 40x30, 240x320 40x26);
 * an 80x24 terminal and narrower ones down to the 40 columns a screen needs. */
static const struct { int cols, rows, map_cw; } every_size[] = {
	{ 160, 45, 2 }, { 151, 42, 2 }, { 102, 30, 2 }, { 100, 30, 2 }, { 80, 26, 2 }, { 40, 26, 1 },
	{ 48, 42, 2 },  { 45, 40, 2 },  { 50, 42, 2 },  { 53, 44, 2 },  { 40, 30, 2 }, { 40, 26, 2 },
	{ 80, 24, 1 },  { 72, 24, 1 },  { 64, 24, 1 },  { 60, 24, 1 },  { 50, 24, 1 }, { 45, 24, 1 }, { 40, 24, 1 },
};

/* rig r (a game in it) showing screen s as the game would get there. */
static void show_screen(struct rig *r, enum ui_screen s)
{
	static const int scrolls[2] = { ITEM_FIREBALL_SCROLL, ITEM_HEALTH_POTION };
	r->u.screen = s;
	switch (s) {
	case UI_LOOK:
	case UI_TARGET:
		carry(r->f.g, scrolls, 2);
		carry(r->f.g, scrolls + 1, 1);
		r->u.look_x = 12;
		r->u.look_y = 10;
		r->u.target_slot = 2; /* the fireball (a, b: dagger, armour) */
		break;
	case UI_DROP_COUNT:
		carry(r->f.g, scrolls + 1, 1);
		carry(r->f.g, scrolls + 1, 1);
		r->u.drop_slot = 2;
		break;
	case UI_SCORES:
	case UI_NAME:
	case UI_GAMEOVER:
		r->u.nscores = 1;
		r->u.scores[0] = (struct ui_score){ .score = 900, .depth = 3, .turns = 400, .level = 2, .cause = "killed by an orc" };
		r->u.score_rank = 0;
		r->u.name_pending = s == UI_NAME;
		break;
	case UI_VIEW:
		r->u.view = (struct ui_view){ .speed = 1, .turn = 5, .end_turn = 100, .at = 5, .count = 101 };
		snprintf(r->u.view.name, sizeof r->u.view.name, "x.rec");
		break;
	case UI_OPTIONS:
		r->u.opt_from = UI_TITLE;
		break;
	case UI_HELP:
		r->u.help_from = UI_PLAY;
		break;
	default:
		break;
	}
}

/* The hint item of key list keys that the words "KEY: ..." of act make on
 * the device (pad): the key's label into k; false when the list has none. */
static bool hint_of(const struct ui *u, const struct scr_key *keys, enum action act, bool pad, char *k, size_t len)
{
	for (int i = 0; keys && (keys[i].hint || keys[i].help); i++)
		if (keys[i].hint && !keys[i].moves && !keys[i].keys && (keys[i].act == act || keys[i].act2 == act) &&
		    ui_key_text(u, &keys[i], pad, k, len))
			return true;
	return false;
}

/* Whether row y of c shows the item "k: words" whole (words after the key). */
static bool line_has(const struct console *c, int y, const char *k)
{
	char line[256], want[64];
	snprintf(want, sizeof want, "%s: ", k);
	conrow_text(c, y, line, false);
	for (const char *at = strstr(line, want); at; at = strstr(at + 1, want))
		if ((at == line || at[-1] == ' ') && at[strlen(want)] != ' ' && at[strlen(want)] != 0)
			return true;
	return false;
}

/* Issue 17 item 5: on every screen of the table, at every size of the
 * automatic layout and of a terminal, for the keyboard and the gamepad,
 * the hint line keeps the way out (Escape / B; the play screen's save and
 * quit: Q / Start; the name's "done") and help where the screen offers it,
 * in words ("Esc: close", never a bare key or nothing). The level-up
 * screen has no way out but a choice. */
static void test_hint_keeps_way_out_everywhere(void **st)
{
	(void)st;
	int bad = 0;
	for (int s = 0; s < UI_SCREEN_COUNT; s++) {
		if (s == UI_LEVELUP)
			continue;
		const struct scr *sc = ui_screen_at(s);
		for (size_t z = 0; z < sizeof every_size / sizeof every_size[0]; z++)
			for (int pad = 0; pad < 2; pad++) {
				struct rig r;
				rig_room(&r, 3, UI_PLAY);
				show_screen(&r, (enum ui_screen)s);
				r.u.last_dev = pad ? DEV_GAMEPAD : DEV_KEYBOARD;
				r.u.map_cw = every_size[z].map_cw;
				int cols = every_size[z].cols, rows = every_size[z].rows;
				assert_int_equal(con_resize(r.c, cols, rows), 0);
				ui_draw(&r.u, r.f.g, r.c);
				assert_int_equal(r.u.screen, s);
				char line[256], k[48];
				conrow_text(r.c, rows - 1, line, true);
				/* the screen's own keys, or the scores' from the menu */
				const struct scr_key *keys = sc->keys;
				static const enum action outs[UI_SCREEN_COUNT][2] = {
					[UI_PLAY] = { ACT_QUIT, ACT_MENU }, [UI_NAME] = { ACT_CONFIRM, ACT_DO },
				};
				enum action out = outs[s][pad] ? outs[s][pad] : pad ? ACT_BACK : ACT_CANCEL;
				if (!hint_of(&r.u, keys, out, pad, k, sizeof k) && !(s == UI_SCORES && (snprintf(k, sizeof k, "%s", pad ? "B" : "Esc"), 1)))
					fail_msg("%s (%s): no hint item for the way out", sc->name, pad ? "pad" : "keys");
				if (!line_has(r.c, rows - 1, k))
					bad++, print_message("%s at %dx%d (%s): the hint line drops the way out '%s:': '%s'\n", sc->name, cols,
						 rows, pad ? "pad" : "keys", k, line);
				if (hint_of(&r.u, keys, ACT_HELP, pad, k, sizeof k) && !line_has(r.c, rows - 1, k))
					bad++, print_message("%s at %dx%d (%s): the hint line drops help '%s:': '%s'\n", sc->name, cols, rows,
						 pad ? "pad" : "keys", k, line);
				rig_done(&r);
			}
	}
	if (bad)
		fail_msg("%d screens and sizes drop the way out or help", bad);
}

/* The title at a large console (issue 17 item 5): the boat and the name
 * twice as large (block letters, several rows of full blocks) where there
 * is room, the small picture and "P I R O G U E" where there is not; the
 * menu always above the notice lines and the hint line. */
static void test_title_scales_with_room(void **st)
{
	(void)st;
	static const struct { int cols, rows; bool big; } sizes[] = {
		{ 160, 45, true }, { 151, 42, true }, { 53, 44, true }, { 102, 30, true }, { 100, 30, true }, { 80, 26, false },
		{ 80, 50, true }, { 80, 24, false }, { 50, 42, false }, { 40, 26, false },
	};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		struct rig r;
		rig_init(&r, NULL, UI_TITLE);
		assert_int_equal(con_resize(r.c, sizes[i].cols, sizes[i].rows), 0);
		ui_draw(&r.u, NULL, r.c);
		int block_rows = 0, quit_y = -1, x, y;
		for (y = 0; y < r.c->h; y++)
			for (x = 0; x < r.c->w; x++)
				if (con_at(r.c, x, y)->ch == 0x2588) {
					block_rows++;
					break;
				}
		if (conrow_find_at(r.c, "Quit", &x, &y))
			quit_y = y;
		if (sizes[i].big != (block_rows >= 6) || sizes[i].big == on_screen(r.c, "P I R O G U E"))
			fail_msg("%dx%d: the title %s large (%d rows of blocks)", sizes[i].cols, sizes[i].rows,
				 sizes[i].big ? "is not" : "is", block_rows);
		if (!(quit_y > 0 && quit_y < r.c->h - 4))
			fail_msg("%dx%d: Quit on row %d", sizes[i].cols, sizes[i].rows, quit_y);
		con_destroy(r.c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_screen_named),
		cmocka_unit_test(test_hp_bar_alive),
		cmocka_unit_test(test_title),
		cmocka_unit_test(test_title_daily),
		cmocka_unit_test(test_title_kiosk_confirms_quit),
		cmocka_unit_test(test_title_new_game_asks_over_a_game),
		cmocka_unit_test(test_play_commands),
		cmocka_unit_test(test_play_opens_screens),
		cmocka_unit_test(test_click_looks),
		cmocka_unit_test(test_hover_follows_camera),
		cmocka_unit_test(test_screens_without_game_fall_back_to_title),
		cmocka_unit_test(test_gameover),
		cmocka_unit_test(test_gameover_text_fits),
		cmocka_unit_test(test_hints_follow_bindings),
		cmocka_unit_test(test_hints_shorten),
		cmocka_unit_test(test_help_lists_bindings),
		cmocka_unit_test(test_help_reads_whole),
		cmocka_unit_test(test_options_keys_and_pad),
		cmocka_unit_test(test_options_narrow),
		cmocka_unit_test(test_options_mouse),
		cmocka_unit_test(test_inventory),
		cmocka_unit_test(test_drop_stack),
		cmocka_unit_test(test_fireball_at_own_feet),
		cmocka_unit_test(test_name_entry),
		cmocka_unit_test(test_view_controls),
		cmocka_unit_test(test_boxes_fit_content),
		cmocka_unit_test(test_history_clamped_at_top),
		cmocka_unit_test(test_status_line_clears_its_row),
		cmocka_unit_test(test_describe_off_the_map),
		cmocka_unit_test(test_targeting),
		cmocka_unit_test(test_levelup),
		cmocka_unit_test(test_character_and_scores),
		cmocka_unit_test(test_hud_xp_fits),
		cmocka_unit_test(test_hint_kept_follows_changes),
		cmocka_unit_test(test_hint_keeps_way_out_everywhere),
		cmocka_unit_test(test_title_scales_with_room),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
