/* The screens. Everything here only writes console cells. */
#include "ui/ui.h"
#include "core/utf8.h"
#include "game/game.h"
#include "game/map.h"
#include <stdio.h>
#include <string.h>

/* The palette of the screens, in one table (0xRRGGBB). */
static const struct palette {
	uint32_t bg, text, dim_text, title, accent, select_bg, hint;
	uint32_t floor_fg, floor_bg, wall_fg, wall_bg;
	uint32_t floor_mem_fg, floor_mem_bg, wall_mem_fg, wall_mem_bg;
	uint32_t stairs_fg, hp_full, hp_empty, hp_text, xp_fg, box;
} pal = {
	.bg = 0x000000, .text = 0xE0E0E0, .dim_text = 0x808080, .title = 0xFFD060,
	.accent = 0x60C0FF, .select_bg = 0x304870, .hint = 0x9090A0,
	.floor_fg = 0xB4A878, .floor_bg = 0x201C14, .wall_fg = 0xDCC890, .wall_bg = 0x5A4A2C,
	.floor_mem_fg = 0x3C3C50, .floor_mem_bg = 0x000000, .wall_mem_fg = 0x5A5A78, .wall_mem_bg = 0x141420,
	.stairs_fg = 0xFFFF60, .hp_full = 0x208020, .hp_empty = 0x602020, .hp_text = 0xFFFFFF,
	.xp_fg = 0xC0A0FF, .box = 0xA0A0B0,
};

/* Log lines fade with age: newest first. Percent of the message's colour. */
static const int log_fade[5] = { 100, 80, 65, 52, 42 };

static uint32_t scale_rgb(uint32_t c, int pct)
{
	uint32_t r = ((c >> 16) & 0xFF) * (uint32_t)pct / 100;
	uint32_t g = ((c >> 8) & 0xFF) * (uint32_t)pct / 100;
	uint32_t b = (c & 0xFF) * (uint32_t)pct / 100;
	return r << 16 | g << 8 | b;
}

void ui_layout(int cols, int rows, struct ui_layout *l)
{
	memset(l, 0, sizeof *l);
	l->cols = cols;
	l->rows = rows;
	if (cols < UI_MIN_COLS || rows < UI_MIN_ROWS) {
		l->too_small = true;
		return;
	}
	/* Bottom: one hint line; above it a 6-row panel (HP, depth, XP and the
	 * five newest log lines). The rest is the map viewport. */
	l->hint_y = rows - 1;
	l->panel_y = rows - 7;
	l->view_x = 0;
	l->view_y = 0;
	l->view_w = cols;
	l->view_h = l->panel_y;
	l->compact = cols < 64;
	if (l->compact) {
		/* stats on the panel's first line, log full width below */
		l->log_x = 1;
		l->log_y = l->panel_y + 1;
		l->log_w = cols - 2;
		l->log_h = 5;
	} else {
		l->log_x = 23;
		l->log_y = l->panel_y + 1;
		l->log_w = cols - 24;
		l->log_h = 5;
	}
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void ui_camera(const struct ui_layout *l, int map_w, int map_h, int fx, int fy, int *cam_x, int *cam_y)
{
	/* larger viewport: centre the map (negative camera = margin) */
	if (l->view_w >= map_w)
		*cam_x = -(l->view_w - map_w) / 2;
	else
		*cam_x = clampi(fx - l->view_w / 2, 0, map_w - l->view_w);
	if (l->view_h >= map_h)
		*cam_y = -(l->view_h - map_h) / 2;
	else
		*cam_y = clampi(fy - l->view_h / 2, 0, map_h - l->view_h);
}

/* The cell the camera follows: the look cursor while looking, else the player. */
static void focus(const struct ui *u, const struct game *g, int *fx, int *fy)
{
	if (u->screen == UI_LOOK) {
		*fx = u->look_x;
		*fy = u->look_y;
	} else {
		game_player_pos(g, fx, fy);
	}
}

int ui_map_cell_at(const struct ui *u, const struct game *g, int cols, int rows, int cx, int cy, int *mx, int *my)
{
	struct ui_layout l;
	ui_layout(cols, rows, &l);
	if (l.too_small || !g || cx < l.view_x || cy < l.view_y || cx >= l.view_x + l.view_w ||
	    cy >= l.view_y + l.view_h)
		return -1;
	const struct map *m = game_map(g);
	int fx, fy, cam_x, cam_y;
	focus(u, g, &fx, &fy);
	ui_camera(&l, m->w, m->h, fx, fy, &cam_x, &cam_y);
	int x = cam_x + cx - l.view_x, y = cam_y + cy - l.view_y;
	if (x < 0 || y < 0 || x >= m->w || y >= m->h)
		return -1;
	*mx = x;
	*my = y;
	return 0;
}

int ui_menu_items(const struct ui *u, enum ui_menu_item *items)
{
	int n = 0;
	if (u->can_continue)
		items[n++] = MENU_CONTINUE;
	items[n++] = MENU_NEW_GAME;
	items[n++] = MENU_QUIT;
	return n;
}

/* Hints name the buttons of the device used last. */
static bool pad(const struct ui *u)
{
	return u->last_dev == DEV_GAMEPAD;
}

static void center_text(struct console *c, int y, uint32_t fg, const char *s)
{
	int len = (int)utf8_len(s);
	int x = (c->w - len) / 2;
	con_print(c, x < 0 ? 0 : x, y, fg, pal.bg, s, c->w);
}

static void draw_too_small(struct console *c)
{
	char line[64];
	int y = c->h / 2 - 1;
	con_print_wrapped(c, 1, y < 0 ? 0 : y, c->w - 2, 2, pal.title, pal.bg,
			  "Screen too small.");
	snprintf(line, sizeof line, "Need %dx%d cells, have %dx%d.", UI_MIN_COLS, UI_MIN_ROWS, c->w, c->h);
	con_print_wrapped(c, 1, y + 1 < 0 ? 0 : y + 1, c->w - 2, 3, pal.text, pal.bg, line);
}

/* A pirogue (a dugout canoe) on the water, its paddler an @, for the title
 * screen: each line with its colour. */
static const struct {
	const char *text;
	uint32_t fg;
} title_art[] = {
	{ "            @            ", 0xF0F0F0 },
	{ "           /|\\           ", 0xC8A060 },
	{ "  \xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84/\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84  ", 0xA06030 },
	{ "   \xe2\x96\x80\xe2\x96\x80\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x80\xe2\x96\x80    ", 0x804820 },
	{ "\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91", 0x3060C0 },
};

static const char *menu_label(enum ui_menu_item it)
{
	switch (it) {
	case MENU_CONTINUE: return "Continue";
	case MENU_NEW_GAME: return "New game";
	case MENU_QUIT: return "Quit";
	default: return "?";
	}
}

static void draw_title(const struct ui *u, struct console *c)
{
	int art_h = (int)(sizeof title_art / sizeof title_art[0]);
	enum ui_menu_item items[MENU_COUNT];
	int n = ui_menu_items(u, items);
	int block = art_h + 4 + n * 2 + 3;
	int y = (c->h - block) / 2;
	if (y < 1)
		y = 1;
	for (int i = 0; i < art_h; i++)
		center_text(c, y + i, title_art[i].fg, title_art[i].text);
	y += art_h + 1;
	center_text(c, y, pal.title, "P I R O G U E");
	center_text(c, y + 1, pal.dim_text, "a roguelike for the bare console");
	y += 3;
	for (int i = 0; i < n; i++) {
		bool sel = i == u->menu_sel;
		char line[32];
		snprintf(line, sizeof line, "%s %-10s", sel ? "\xe2\x96\xba" : " ", menu_label(items[i]));
		int x = (c->w - 12) / 2;
		con_print(c, x, y + i * 2, sel ? 0xFFFFFF : pal.text, sel ? pal.select_bg : pal.bg, line, -1);
	}
	if (u->notice[0])
		con_print_wrapped(c, 1, c->h - 4, c->w - 2, 2, 0xFF8060, pal.bg, u->notice);
	center_text(c, c->h - 1, pal.hint,
		    pad(u) ? "D-pad: choose   A: select   B: back"
			   : "\xe2\x86\x91\xe2\x86\x93: choose   Enter: select   Esc: quit");
}

static void tile_look(const struct map *m, int i, bool vis, uint32_t *ch, uint32_t *fg, uint32_t *bg)
{
	switch (m->tile[i]) {
	case TILE_WALL:
		*ch = '#';
		*fg = vis ? pal.wall_fg : pal.wall_mem_fg;
		*bg = vis ? pal.wall_bg : pal.wall_mem_bg;
		break;
	case TILE_STAIRS_DOWN:
	case TILE_STAIRS_UP:
		*ch = m->tile[i] == TILE_STAIRS_DOWN ? '>' : '<';
		*fg = vis ? pal.stairs_fg : scale_rgb(pal.stairs_fg, 45);
		*bg = vis ? pal.floor_bg : pal.floor_mem_bg;
		break;
	default:
		*ch = '.';
		*fg = vis ? pal.floor_fg : pal.floor_mem_fg;
		*bg = vis ? pal.floor_bg : pal.floor_mem_bg;
		break;
	}
}

#define MAX_DRAWABLES 1024

static void draw_map(const struct ui_layout *l, const struct game *g, struct console *c, int cam_x, int cam_y)
{
	const struct map *m = game_map(g);
	for (int vy = 0; vy < l->view_h; vy++) {
		for (int vx = 0; vx < l->view_w; vx++) {
			int mx = cam_x + vx, my = cam_y + vy;
			if (mx < 0 || my < 0 || mx >= m->w || my >= m->h)
				continue;
			int i = my * m->w + mx;
			bool vis = m->visible[i];
			if (!vis && !m->explored[i])
				continue;
			uint32_t ch, fg, bg;
			tile_look(m, i, vis, &ch, &fg, &bg);
			con_put(c, l->view_x + vx, l->view_y + vy, ch, fg, bg);
		}
	}
	struct drawable d[MAX_DRAWABLES];
	int n = game_drawables(g, d, MAX_DRAWABLES);
	for (int i = 0; i < n; i++) {
		int vx = d[i].x - cam_x, vy = d[i].y - cam_y;
		if (vx < 0 || vy < 0 || vx >= l->view_w || vy >= l->view_h)
			continue;
		con_put_fg(c, l->view_x + vx, l->view_y + vy, d[i].glyph,
			   d[i].remembered ? scale_rgb(d[i].fg, 45) : d[i].fg);
	}
}

static void draw_bar(struct console *c, int x, int y, int w, int value, int max, const char *label,
		     uint32_t full, uint32_t empty)
{
	int filled = max > 0 ? value * w / max : 0;
	if (filled < 0)
		filled = 0;
	for (int i = 0; i < w; i++)
		con_put(c, x + i, y, ' ', pal.hp_text, i < filled ? full : empty);
	char text[48];
	snprintf(text, sizeof text, "%s: %d/%d", label, value, max);
	con_print_fg(c, x + 1, y, pal.hp_text, text, w - 1);
}

/* The newest messages, wrapped, newest at the bottom, fading with age. */
static void draw_log(const struct game *g, struct console *c, int x, int y, int w, int h)
{
	int line = h; /* fill from the bottom up */
	int age = 0;
	for (int i = game_msg_count(g) - 1; i >= 0 && line > 0; i--, age++) {
		char text[160];
		const struct game_msg *m = game_msg_get(g, i);
		game_msg_format(m, text, sizeof text);
		int need = con_wrapped_lines(w, text);
		uint32_t fg = scale_rgb(m->fg, log_fade[age < 5 ? age : 4]);
		int top = line - need;
		if (top < 0) {
			/* only the last lines of a long message fit */
			con_print_wrapped_from(c, x, y, w, line, -top, fg, pal.bg, text);
			break;
		}
		con_print_wrapped(c, x, y + top, w, need, fg, pal.bg, text);
		line = top;
	}
}

static void draw_panel(const struct ui_layout *l, const struct game *g, struct console *c)
{
	struct game_stats s;
	game_stats(g, &s);
	char buf[64];
	int y = l->panel_y;
	if (l->compact) {
		/* no separator: the stats line is the panel's first row */
		int bw = l->cols / 2 - 1;
		if (bw > 20)
			bw = 20;
		draw_bar(c, 1, y, bw, s.hp, s.max_hp, "HP", pal.hp_full, pal.hp_empty);
		snprintf(buf, sizeof buf, "Lv%d D:%d XP:%d/%d", s.level, s.depth, s.xp, s.xp_next);
		con_print(c, bw + 2, y, pal.xp_fg, pal.bg, buf, l->cols - bw - 3);
	} else {
		con_fill(c, 0, y, l->cols, 1, 0x2500, 0x404050, pal.bg);
		draw_bar(c, 1, y + 1, 20, s.hp, s.max_hp, "HP", pal.hp_full, pal.hp_empty);
		snprintf(buf, sizeof buf, "Dungeon level: %d", s.depth);
		con_print(c, 1, y + 3, pal.text, pal.bg, buf, 21);
		snprintf(buf, sizeof buf, "Level %d  XP: %d/%d", s.level, s.xp, s.xp_next);
		con_print(c, 1, y + 4, pal.xp_fg, pal.bg, buf, 21);
		snprintf(buf, sizeof buf, "Turn %d", s.turn);
		con_print(c, 1, y + 5, pal.dim_text, pal.bg, buf, 21);
	}
	draw_log(g, c, l->log_x, l->log_y, l->log_w, l->log_h);
}

/* Hint lines are lists of "key: action" items; as many whole items as fit
 * are shown, so nothing is ever cut mid-word. */
static void draw_hint(const struct ui_layout *l, struct console *c, const char *const *items)
{
	con_fill(c, 0, l->hint_y, l->cols, 1, ' ', pal.hint, pal.bg);
	int x = 1;
	for (int i = 0; items[i]; i++) {
		int len = (int)utf8_len(items[i]);
		int gap = i ? 2 : 0;
		if (x + gap + len > l->cols - 1)
			break;
		x += gap;
		con_print(c, x, l->hint_y, pal.hint, pal.bg, items[i], -1);
		x += len;
	}
}

static const char *const hint_play_keys[] = {
	"arrows/hjkl: move", ".: wait", "g: get", "><: stairs", "x: look", "v: log", "Q: quit", "c: you", NULL,
};
static const char *const hint_play_pad[] = {
	"D-pad: move", "L/R+D-pad: diagonal", "A: act", "B: wait", "Y: look", "Select: log", "Start: menu", NULL,
};
static const char *const hint_look_keys[] = { "Look: move the cursor", "Esc: done", NULL };
static const char *const hint_look_pad[] = { "Look: D-pad moves the cursor", "B: done", NULL };
static const char *const hint_history_keys[] = { "\xe2\x86\x91\xe2\x86\x93: scroll", "Esc: close", NULL };
static const char *const hint_history_pad[] = { "D-pad: scroll", "B: close", NULL };
static const char *const hint_close_keys[] = { "Esc: close", NULL };
static const char *const hint_close_pad[] = { "B: close", NULL };
static const char *const hint_over_keys[] = { "Enter: new game", "Esc: menu", NULL };
static const char *const hint_over_pad[] = { "A: new game", "B: menu", NULL };

static void draw_play(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	const struct map *m = game_map(g);
	int fx, fy, cam_x, cam_y;
	focus(u, g, &fx, &fy);
	ui_camera(l, m->w, m->h, fx, fy, &cam_x, &cam_y);
	draw_map(l, g, c, cam_x, cam_y);
	draw_panel(l, g, c);

	char desc[96];
	int hx = -1, hy = -1;
	if (u->screen == UI_LOOK) {
		hx = u->look_x;
		hy = u->look_y;
		int vx = hx - cam_x + l->view_x, vy = hy - cam_y + l->view_y;
		const struct con_cell *cell = con_at(c, vx, vy);
		if (cell && vy < l->view_y + l->view_h)
			con_put(c, vx, vy, cell->ch == ' ' ? 'X' : cell->ch, 0x000000, 0xFFFF80);
	} else if (u->hover_x >= 0) {
		hx = u->hover_x;
		hy = u->hover_y;
	}
	if (hx >= 0) {
		const char *what = game_describe(g, hx, hy, desc, sizeof desc);
		if (!what && m->explored[hy * m->w + hx])
			what = m->tile[hy * m->w + hx] == TILE_WALL ? "a wall"
			       : m->tile[hy * m->w + hx] == TILE_STAIRS_DOWN ? "stairs down"
			       : m->tile[hy * m->w + hx] == TILE_STAIRS_UP ? "stairs up" : "floor";
		if (!what)
			what = "unexplored";
		/* the description sits on the top row of the map view */
		con_print(c, l->view_x + 1, l->view_y, 0xFFFFFF, 0x202030, what, l->view_w - 2);
	}
	if (u->screen == UI_LOOK)
		draw_hint(l, c, pad(u) ? hint_look_pad : hint_look_keys);
	else
		draw_hint(l, c, pad(u) ? hint_play_pad : hint_play_keys);
}

static void draw_history(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	con_box(c, 0, 0, l->cols, l->rows - 1, pal.box, pal.bg, "Message history");
	int w = l->cols - 4, h = l->rows - 3;
	char text[160];
	/* the newest messages (less history_top) that fit, drawn oldest first
	 * from the top of the box */
	int last = game_msg_count(g) - 1 - u->history_top, first = last + 1, used = 0;
	while (first > 0) {
		const struct game_msg *m = game_msg_get(g, first - 1);
		game_msg_format(m, text, sizeof text);
		int need = con_wrapped_lines(w, text);
		if (used + need > h)
			break;
		used += need;
		first--;
	}
	int y = 1;
	for (int i = first; i <= last; i++) {
		const struct game_msg *m = game_msg_get(g, i);
		game_msg_format(m, text, sizeof text);
		y += con_print_wrapped(c, 2, y, w, h + 1 - y, m->fg, pal.bg, text);
	}
	draw_hint(l, c, pad(u) ? hint_history_pad : hint_history_keys);
}

static void draw_character(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	struct game_stats s;
	game_stats(g, &s);
	int w = 30, h = 10;
	int x = (l->cols - w) / 2, y = (l->rows - h) / 2;
	con_fill(c, x, y, w, h, ' ', pal.text, pal.bg);
	con_box(c, x, y, w, h, pal.box, pal.bg, "Character");
	con_printf(c, x + 2, y + 2, pal.text, pal.bg, "Level: %d", s.level);
	con_printf(c, x + 2, y + 3, pal.text, pal.bg, "XP: %d", s.xp);
	con_printf(c, x + 2, y + 4, pal.text, pal.bg, "XP for next level: %d", s.xp_next);
	con_printf(c, x + 2, y + 5, pal.text, pal.bg, "HP: %d/%d", s.hp, s.max_hp);
	con_printf(c, x + 2, y + 6, pal.text, pal.bg, "Attack: %d", s.power);
	con_printf(c, x + 2, y + 7, pal.text, pal.bg, "Defense: %d", s.defense);
	draw_hint(l, c, pad(u) ? hint_close_pad : hint_close_keys);
}

static void draw_gameover(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	struct game_stats s;
	game_stats(g, &s);
	int w = l->cols < 36 ? l->cols : 36, h = 9;
	int x = (l->cols - w) / 2, y = (l->view_h - h) / 2;
	if (y < 0)
		y = 0;
	con_fill(c, x, y, w, h, ' ', pal.text, 0x200000);
	con_box(c, x, y, w, h, 0xFF4040, 0x200000, "You died");
	con_printf(c, x + 2, y + 2, pal.text, 0x200000, "Killed on dungeon level %d", s.depth);
	con_printf(c, x + 2, y + 3, pal.text, 0x200000, "after %d turns, level %d", s.turn, s.level);
	con_printf(c, x + 2, y + 4, pal.text, 0x200000, "with %d experience.", s.xp);
	con_print(c, x + 2, y + 6, 0xFFFFFF, 0x200000,
		  pad(u) ? "A: new game   B: menu" : "Enter: new game   Esc: menu", w - 4);
	draw_hint(l, c, pad(u) ? hint_over_pad : hint_over_keys);
}

void ui_draw(const struct ui *u, const struct game *g, struct console *c)
{
	struct ui_layout l;
	ui_layout(c->w, c->h, &l);
	con_clear(c, pal.bg);
	if (l.too_small) {
		draw_too_small(c);
		return;
	}
	if (u->screen == UI_TITLE || !g) {
		draw_title(u, c);
		return;
	}
	switch (u->screen) {
	case UI_HISTORY:
		draw_history(u, &l, g, c);
		break;
	case UI_CHARACTER:
		draw_play(u, &l, g, c);
		draw_character(u, &l, g, c);
		break;
	case UI_GAMEOVER:
		draw_play(u, &l, g, c);
		draw_gameover(u, &l, g, c);
		break;
	default:
		draw_play(u, &l, g, c);
		break;
	}
}
