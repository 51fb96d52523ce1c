/* The screens' table, the layout they share, and the dispatch of input and
 * drawing to the screen in front. Everything here only writes console cells. */
#include "ui/ui.h"
#include "game/map.h"
#include "ui/scr.h"
#include <stdio.h>
#include <string.h>

/* Every screen, by enum ui_screen. */
static const struct scr *const screens[UI_SCREEN_COUNT] = {
	[UI_TITLE] = &scr_title,
	[UI_PLAY] = &scr_play,
	[UI_LOOK] = &scr_look,
	[UI_HISTORY] = &scr_history,
	[UI_CHARACTER] = &scr_character,
	[UI_GAMEOVER] = &scr_gameover,
	[UI_HELP] = &scr_help,
	[UI_INVENTORY] = &scr_inventory,
	[UI_DROP] = &scr_drop,
	[UI_DROP_COUNT] = &scr_drop_count,
	[UI_NAME] = &scr_name,
	[UI_VIEW] = &scr_view,
	[UI_TARGET] = &scr_target,
	[UI_LEVELUP] = &scr_levelup,
	[UI_SCORES] = &scr_scores,
	[UI_OPTIONS] = &scr_options,
};

static const struct scr *screen_of(const struct ui *u)
{
	return (unsigned)u->screen < UI_SCREEN_COUNT && screens[u->screen] ? screens[u->screen] : &scr_title;
}

int ui_screen_count(void)
{
	return UI_SCREEN_COUNT;
}

const struct scr *ui_screen_at(int i)
{
	return i >= 0 && i < UI_SCREEN_COUNT ? screens[i] : NULL;
}

const char *ui_screen_name(enum ui_screen s)
{
	return (unsigned)s < UI_SCREEN_COUNT && screens[s] ? screens[s]->name : "?";
}

int ui_map_cw(const struct ui *u)
{
	return u && u->map_cw == 2 ? 2 : 1;
}

void ui_layout(int cols, int rows, int map_cw, struct ui_layout *l)
{
	memset(l, 0, sizeof *l);
	l->pal = ui_palette_of(NULL);
	l->cols = cols;
	l->rows = rows;
	l->map_cw = map_cw == 2 ? 2 : 1;
	if (cols < UI_MIN_COLS || rows < UI_MIN_ROWS) {
		l->too_small = true;
		return;
	}
	/* Bottom: one hint line; above it a 6-row panel (HP, depth, XP and the
	 * five newest log lines); on a console under 30 rows a compact one:
	 * the stats line and 2 log lines at 24 rows (an 80×24 terminal), one
	 * more log line for every row more, up to 5 (40×26: 4). The rest is
	 * the map viewport, which scrolls with the player. Rows the whole
	 * map does not need go to the log, up to 10 lines (as a terminal
	 * roguelike's message window grows), then to a margin round the
	 * centred map. */
	bool short_ = rows < 30;
	int log_h = short_ ? (rows - 22 > 5 ? 5 : rows - 22 < 2 ? 2 : rows - 22) : 5;
	int spare = rows - 2 - log_h - MAP_H;
	if (!short_ && spare > 0)
		log_h += spare < UI_LOG_LINES - log_h ? spare : UI_LOG_LINES - log_h;
	l->hint_y = rows - 1;
	l->panel_y = rows - 2 - log_h;
	l->view_x = 0;
	l->view_y = 0;
	l->view_w = cols;
	l->view_h = l->panel_y;
	l->compact = cols < 64 || short_;
	if (l->compact) {
		/* stats on the panel's first line, log full width below */
		l->log_x = 1;
		l->log_y = l->panel_y + 1;
		l->log_w = cols - 2;
		l->log_h = log_h;
	} else {
		l->log_x = 23;
		l->log_y = l->panel_y + 1;
		l->log_w = cols - 24;
		l->log_h = log_h;
	}
	l->desc_y = l->compact ? l->log_y : l->panel_y;
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void ui_camera(const struct ui_layout *l, int map_w, int map_h, int fx, int fy, int *cam_x, int *cam_y)
{
	/* larger viewport: centre the map (negative camera = margin) */
	int vw = l->view_w / (l->map_cw > 1 ? l->map_cw : 1);
	if (vw >= map_w)
		*cam_x = -(vw - map_w) / 2;
	else
		*cam_x = clampi(fx - vw / 2, 0, map_w - vw);
	if (l->view_h >= map_h)
		*cam_y = -(l->view_h - map_h) / 2;
	else
		*cam_y = clampi(fy - l->view_h / 2, 0, map_h - l->view_h);
}

int ui_map_cell_at(const struct ui *u, const struct game *g, int cols, int rows, int cx, int cy, int *mx, int *my)
{
	struct ui_layout l;
	ui_layout(cols, rows, ui_map_cw(u), &l);
	if (!g)
		return -1;
	const struct map *m = game_map(g);
	int fx, fy, cam_x, cam_y;
	/* the camera follows the cursor on cursor screens, else the player */
	if (screen_of(u)->cursor) {
		fx = u->look_x;
		fy = u->look_y;
	} else {
		game_player_pos(g, &fx, &fy);
	}
	ui_camera(&l, m->w, m->h, fx, fy, &cam_x, &cam_y);
	return ui_view_cell(&l, m, cam_x, cam_y, cx, cy, mx, my);
}

int ui_menu_items(const struct ui *u, enum ui_menu_item *items)
{
	int n = 0;
	if (u->can_continue)
		items[n++] = MENU_CONTINUE;
	items[n++] = MENU_NEW_GAME;
	items[n++] = MENU_DAILY;
	items[n++] = MENU_SCORES;
	items[n++] = MENU_OPTIONS;
	items[n++] = MENU_HELP;
	items[n++] = MENU_QUIT;
	return n;
}

void ui_after_command(struct ui *u, const struct game *g)
{
	if (!g)
		return;
	if (game_is_over(g))
		u->screen = UI_GAMEOVER;
	else if (game_levelup_pending(g) && u->screen != UI_LEVELUP) {
		u->screen = UI_LEVELUP;
		u->levelup_sel = 0;
	}
}

struct command ui_cmd(enum cmd c)
{
	return (struct command){ .c = c, .item = -1, .x = -1, .y = -1, .choice = -1 };
}

int ui_command(struct ui *u, struct game *g, const struct ui_host *h, const struct command *cmd)
{
	if (!g || game_is_over(g))
		return 0;
	int rc = h->command(h->ctx, cmd);
	ui_after_command(u, g);
	return rc;
}

bool ui_move_cursor(struct ui *u, const struct game *g, enum action act)
{
	int dx, dy;
	if (!bind_move_delta(act, &dx, &dy))
		return false;
	const struct map *m = game_map(g);
	int x = u->look_x + dx, y = u->look_y + dy;
	if (x >= 0 && y >= 0 && x < m->w && y < m->h) {
		u->look_x = x;
		u->look_y = y;
	}
	return true;
}

int ui_click_cell(const struct ui *u, const struct game *g, const struct ui_input *in, int *mx, int *my)
{
	return ui_map_cell_at(u, g, in->cols, in->rows, in->x, in->y, mx, my);
}

void ui_input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	struct ui_layout l;
	ui_layout(in->cols, in->rows, ui_map_cw(u), &l);
	/* hints name the keys of the device used last; a script's keys count
	 * as the device they name (pad_a: the gamepad) */
	if (in->kind == UI_IN_KEY)
		u->last_dev = in->from != DEV_SCRIPT ? in->from : bind_is_pad(in->key) ? DEV_GAMEPAD : DEV_KEYBOARD;
	if (in->kind == UI_IN_HOVER) {
		/* where the pointer is on the console: each frame describes
		 * the map cell shown there then (the camera moves under a
		 * pointer held still) */
		u->hover_x = in->x;
		u->hover_y = in->y;
		return;
	}
	if (l.too_small) {
		/* nothing is played unseen while "Screen too small" shows; only
		 * the way out works (the game saved), so that a font or scale
		 * leaving too few cells on a bare console, where Ctrl+C is a
		 * key like any other, is never a trap */
		if (in->kind == UI_IN_KEY && (in->act == ACT_QUIT || in->act == ACT_MENU))
			h->request(h->ctx, UI_REQ_QUIT);
		return;
	}
	const struct scr *s = screen_of(u);
	if (s->needs_game && !g)
		s = &scr_title;
	if (in->kind == UI_IN_KEY)
		u->status[0] = 0; /* a line over the map lasts until the next key */
	if (in->kind == UI_IN_KEY && in->act == ACT_HELP && s != &scr_help) {
		/* help opens over any screen and goes back to it */
		u->help_from = s == &scr_title ? UI_TITLE : u->screen;
		u->help_top = 0;
		u->screen = UI_HELP;
		return;
	}
	s->input(u, g, h, in);
}

static void draw_too_small(const struct ui *u, struct console *c)
{
	const struct ui_palette *pal = ui_palette_of(u);
	char line[64], k[48];
	int y = c->h / 2 - 1;
	con_print_wrapped(c, 1, y < 0 ? 0 : y, c->w - 2, 2, pal->title, pal->bg, "Screen too small.");
	snprintf(line, sizeof line, "Need %dx%d cells, have %dx%d.", UI_MIN_COLS, UI_MIN_ROWS, c->w, c->h);
	int n = con_print_wrapped(c, 1, y + 1 < 0 ? 0 : y + 1, c->w - 2, 3, pal->text, pal->bg, line);
	if (n > 3)
		n = 3;
	static const struct scr_key out = { .act = ACT_QUIT, .act2 = ACT_MENU };
	if (ui_key_text(u, &out, ui_pad(u), k, sizeof k)) {
		snprintf(line, sizeof line, "%s: quit", k);
		con_print_wrapped(c, 1, y + 1 + n + 1, c->w - 2, 1, pal->hint_key, pal->bg, line);
	}
}

void ui_draw(const struct ui *u, const struct game *g, struct console *c)
{
	const struct ui_palette *pal = ui_palette_of(u);
	struct ui_layout l;
	ui_layout(c->w, c->h, ui_map_cw(u), &l);
	l.pal = pal;
	l.pictures = u && u->pictures;
	con_clear(c, pal->bg);
	if (l.too_small) {
		draw_too_small(u, c);
		return;
	}
	const struct scr *s = screen_of(u);
	if (s->needs_game && !g)
		s = &scr_title;
	s->draw(u, &l, g, c);
}
