/* scr: what a screen is (its entry in ui.c's table) and the drawing pieces screens share; internal to ui/. */
#ifndef PIROGUE_UI_SCR_H
#define PIROGUE_UI_SCR_H
#include "game/content.h"
#include "ui/ui.h"
#include <stddef.h>

struct map;

/* One line of a screen's key list: what an action does on that screen. The
 * hint line and the help screen are made from these and the bindings, so
 * both follow what the settings file binds. A list ends with an entry
 * whose hint and help are both NULL. */
struct scr_key {
	enum action act, act2; /* act2: a second action shown with act (stairs: > <), or ACT_NONE */
	bool moves;            /* the eight moves instead of act */
	signed char dev;       /* SCR_BOTH, SCR_KEYBOARD or SCR_PAD: where the entry applies */
	const char *keys;      /* fixed key text (not a binding), e.g. "a-z" */
	const char *hint;      /* label on the hint line, NULL: help only */
	const char *brief;     /* a shorter label for a full hint line ("inv"), NULL: none */
	bool keep;             /* a full hint line keeps it in words (the way out, help) */
	const char *help;      /* what it does, for the help screen, NULL: hint only */
};
enum { SCR_BOTH, SCR_KEYBOARD, SCR_PAD };

/* One screen: its input handling and its drawing, side by side in one
 * file (src/ui/scr_NAME.c). Adding a screen = a file, an enum ui_screen
 * entry, its extern below and a line in ui.c's table; no other screen
 * changes. */
struct scr {
	const char *name;
	const char *title; /* for the help screen ("On the map") */
	const struct scr_key *keys; /* its key list (hints, help), may be NULL */
	bool needs_game; /* without a game, the title screen stands in for it */
	bool cursor;     /* the camera follows the cursor (u->look_x, look_y), not the player */
	/* Handles one input (never NULL). */
	void (*input)(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in);
	/* Draws the whole screen on a cleared console laid out as l. */
	void (*draw)(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c);
};

extern const struct scr scr_title, scr_play, scr_look, scr_history, scr_character, scr_gameover, scr_help;
extern const struct scr scr_inventory, scr_drop, scr_drop_count, scr_target, scr_levelup, scr_scores, scr_name, scr_options;
extern const struct scr scr_view;

/* A palette of the screens, in one table (0xRRGGBB): ui_palette_of(u)
 * gives the one u->palette names; the layout a screen draws with carries it
 * (l->pal). */
struct ui_palette {
	uint32_t bg, text, dim_text, title, accent, select_bg, hint, hint_key;
	uint32_t floor_fg, floor_bg, wall_fg, wall_bg;
	uint32_t floor_mem_fg, floor_mem_bg, wall_mem_fg, wall_mem_bg;
	uint32_t stairs_fg, hp_full, hp_half, hp_low, hp_empty, hp_text, xp_fg, box;
	uint32_t actor[ACTOR_COUNT]; /* each monster's colour on the map (0: the game's) */
	uint32_t item[ITEM_COUNT];   /* each item kind's (0: the game's) */
	uint32_t player_corpse;      /* the dead player, drawn bright */
	int remembered_pct;          /* remembered things (not in view) at this share of their brightness */
};
/* The palette u->palette names (an unknown one: the default); u NULL: the
 * default. */
const struct ui_palette *ui_palette_of(const struct ui *u);

/* c scaled to pct percent of its brightness. */
uint32_t ui_scale_rgb(uint32_t c, int pct);
/* The HP bar's colour for hp of max_hp: green from 60 %, amber from 30 %,
 * red below. */
uint32_t ui_hp_colour(const struct ui_palette *pal, int hp, int max_hp);
/* Whether hints should name gamepad buttons (the device used last). */
bool ui_pad(const struct ui *u);
/* s centred on row y, in fg on bg. */
void ui_center_text(struct console *c, int y, uint32_t fg, uint32_t bg, const char *s);
/* The play view: the map around the camera's focus, the HUD panel with the
 * log, and the description of the cell under the look cursor (when
 * cursor) or the mouse pointer, off the map (ui_draw_describe). The top
 * row of the map holds u->status, else prompt (may be NULL), on a bar
 * across the view. No hint line. */
void ui_draw_world(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c,
		   bool cursor, const char *prompt);
/* The description of map cell (hx, hy) (what the player knows is there) on
 * the map view whose left edge shows map column cam_x: drawn off the
 * map, on row l->desc_y under the cell's column as far as it fits, over
 * what is there. Sets (*x, *y) to where it starts; returns the cells it
 * covers on that row. */
int ui_draw_describe(const struct ui_layout *l, const struct game *g, struct console *c, int cam_x, int hx, int hy,
		     int *x, int *y);
/* The map's pictures: the tile sheet's index (tiles/index.txt, built by
 * tools/make-tiles; a sheet's cell N is tile N). The floor and the walls
 * have UI_TILE_VARIANTS each, chosen per cell (ui_tile_look). */
enum ui_tile {
	UI_TILE_NONE,
	UI_TILE_AREA, /* overlays and marks first: CON_OVER and CON_MARK hold 1..15 */
	UI_TILE_CURSOR,
	UI_TILE_CONFUSED,
	UI_TILE_PARALYSED,
	UI_TILE_PLAYER,
	UI_TILE_GOBLIN,
	UI_TILE_ORC,
	UI_TILE_TROLL,
	UI_TILE_CORPSE,
	UI_TILE_HEALTH_POTION,
	UI_TILE_SCROLL_CONFUSION,
	UI_TILE_SCROLL_PARALYSIS,
	UI_TILE_SCROLL_LIGHTNING,
	UI_TILE_SCROLL_FIREBALL,
	UI_TILE_DAGGER,
	UI_TILE_SWORD,
	UI_TILE_LEATHER_ARMOUR,
	UI_TILE_CHAIN_MAIL,
	UI_TILE_STAIRS_DOWN,
	UI_TILE_STAIRS_UP,
	UI_TILE_FLOOR, /* + 0..UI_TILE_VARIANTS-1 */
	UI_TILE_WALL = UI_TILE_FLOOR + 4,
	UI_TILE_PLAYER_CORPSE = UI_TILE_WALL + 4, /* the dead player (after the walls: older sheets keep their cells) */
	UI_TILE_COUNT
};
#define UI_TILE_VARIANTS 4
/* The names of the tiles, as tiles/index.txt has them ("-" for none). */
extern const char *const ui_tile_names[UI_TILE_COUNT];

/* The look of cell i of m in the map view, in l's palette: false when the cell is neither
 * in view nor explored (the view leaves it blank), else its glyph and
 * colours into v, and, when l->pictures (else tile and flags 0), its
 * picture: the ground's tile (a variant of the
 * floor or wall chosen by a hash of i, so the floor does not look
 * tiled), CON_DIM when it is remembered, not seen; no thing on it.
 * (Inline: the partial redraw looks up every cell it redraws.) */
static inline bool ui_tile_look(const struct ui_layout *l, const struct map *m, int i, struct con_cell *v);
/* The variant of the floor's or a wall's picture at cell i: a hash's top
 * 2 bits. */
static inline unsigned ui_tile_var(int i)
{
	_Static_assert(UI_TILE_VARIANTS == 4, "two bits of variant");
	return ((uint32_t)i * 2654435761u) >> 30;
}
/* ui_tile_look of a cell of tile t, in view (vis) or remembered, at i. */
static inline void ui_tile_look_as(const struct ui_layout *l, unsigned t, bool vis, int i, struct con_cell *v)
{
	const struct ui_palette *pal = l->pal;
	uint32_t *ch = &v->ch, *fg = &v->fg, *bg = &v->bg;
	unsigned var = ui_tile_var(i);
	v->flags = vis ? 0 : CON_DIM;
	switch (t) {
	case TILE_WALL:
		*ch = '#';
		*fg = vis ? pal->wall_fg : pal->wall_mem_fg;
		*bg = vis ? pal->wall_bg : pal->wall_mem_bg;
		v->tile = (uint16_t)(UI_TILE_WALL + var);
		break;
	case TILE_STAIRS_DOWN:
	case TILE_STAIRS_UP:
		*ch = t == TILE_STAIRS_DOWN ? '>' : '<';
		*fg = vis ? pal->stairs_fg : ui_scale_rgb(pal->stairs_fg, 45);
		*bg = vis ? pal->floor_bg : pal->floor_mem_bg;
		v->tile = t == TILE_STAIRS_DOWN ? UI_TILE_STAIRS_DOWN : UI_TILE_STAIRS_UP;
		break;
	default:
		*ch = '.';
		*fg = vis ? pal->floor_fg : pal->floor_mem_fg;
		*bg = vis ? pal->floor_bg : pal->floor_mem_bg;
		v->tile = (uint16_t)(UI_TILE_FLOOR + var);
		break;
	}
	if (!l->pictures) { /* glyphs alone: a floor's variants must not make it differ */
		v->tile = 0;
		v->flags = 0;
	}
}
static inline bool ui_tile_look(const struct ui_layout *l, const struct map *m, int i, struct con_cell *v)
{
	bool vis = m->visible[i];
	if (!vis && !m->explored[i])
		return false;
	ui_tile_look_as(l, m->tile[i], vis, i, v);
	return true;
}

/* The looks of l's map cells (its palette, pictures and map_cw) into t. */
void ui_looks_make(const struct ui_layout *l, struct ui_looks *t);
/* Cell i of m's state and tile, as struct ui_looks takes them (a tile
 * not of enum tile is drawn as the floor, as ui_tile_look draws it). */
static inline unsigned ui_looks_state(const struct map *m, int i)
{
	return (unsigned)(m->visible[i] != 0) << 1 | (unsigned)(m->explored[i] != 0);
}
static inline unsigned ui_looks_tile(const struct map *m, int i)
{
	unsigned t = m->tile[i];
	return t <= TILE_STAIRS_UP ? t : TILE_FLOOR;
}

/* Drawable d put on the map cell v (its ground from ui_tile_look): its
 * glyph and colour (ui_drawable_fg in l's palette) and, when l->pictures,
 * its picture over the ground's and a monster's status as a mark. */
void ui_put_drawable(const struct ui_layout *l, const struct drawable *d, struct con_cell *v);

/* The colour the map view draws d in, in palette pal (monsters and items in
 * its colours, remembered things dimmed). */
uint32_t ui_drawable_fg(const struct ui_palette *pal, const struct drawable *d);
/* The HUD's numbers s: on a wide panel the HP bar and the lines left of the
 * log (rows panel_y + 1 on, columns before log_x), on a compact one the
 * panel's first row. With was NULL, all of it over what is there (a
 * cleared console); else only the lines showing a number that differs from
 * was, each drawn over itself whole from column 0 to before log_x
 * (compact: the whole row), every cell of it written once (what the text
 * and the bar leave blank as con_clear leaves it), so that only the cells
 * that change are damaged; the turn's line (wide panel) from the first
 * cell of its text that differs from was's on (c must show was's there). Returns the rows drawn, as bits (1 << (row -
 * panel_y)). */
int ui_draw_stats(const struct ui_layout *l, const struct game_stats *s, const struct game_stats *was,
		   struct console *c);
/* The wide panel's separator across row panel_y (the compact panel has
 * none: nothing). */
void ui_draw_rule(const struct ui_layout *l, struct console *c);
/* The newest messages in the log box (log_x, log_y, log_w, log_h), over
 * what is there. */
void ui_draw_log(const struct ui_layout *l, const struct game *g, struct console *c);
/* The log box as ui_draw_log draws it on a cleared box, drawn over what
 * the box shows with each of its cells written once (a line's text, then
 * blanks to the box's edge; the rows above the oldest line blank), so that
 * only the cells that change are damaged. ends (NULL: none) holds for each
 * of the box's rows (log_h, at most UI_LOG_LINES) the column of the box
 * from which on the row is blank, as con_clear leaves it (log_w: not
 * known): blanks are written only up to it, and it is set to what the row
 * shows now. Returns false, drawing nothing and leaving ends, when a
 * message shown wraps to more lines than are kept (then draw it over a
 * cleared box). */
bool ui_draw_log_over(const struct ui_layout *l, const struct game *g, struct console *c, uint16_t *ends);
/* One item of the hint line in its three forms, longest first: "i: inventory",
 * "i: inv" (the brief label; the full form again when there is none) and
 * "i" (the key alone; the brief form when the item has no key). */
struct ui_hint {
	char full[64], brief[64], key[48];
	bool keep;   /* never reduced to its key alone, left out only when nothing else is */
	bool keyed;  /* key is a key, drawn brighter than the label (else the item is all label) */
};
/* Fits n hint items into width columns, two columns between items: sets
 * form[i] to 0 (full), 1 (brief), 2 (key alone) or 3 (left out). Every
 * item gets its brief label before any is left out; each step takes the
 * least important item first (the last in the list) and stops as soon as
 * the line fits. An item is never reduced to its key alone (a key with no
 * word of what it does) unless it keeps its words and nothing else is left
 * to take; then such items are left out last. Where the line has room
 * left, brief labels get their full form back, the most important first.
 * Returns the width of the line. */
int ui_hint_fit(const struct ui_hint *items, int n, int width, int *form);
/* The hint line from n items, fitted to the console by ui_hint_fit: never
 * an item cut mid-word. */
void ui_draw_hint(const struct ui_layout *l, struct console *c, const struct ui_hint *items, int n);

/* The bindings the screens show (u->binds or the defaults). */
const struct bindings *ui_binds(const struct ui *u);
/* The key text of k for the keyboard or (pad) the gamepad, made from the
 * bindings ("arrows/hjkl", "><", "A"): true, or false when nothing of that
 * device is bound to it (or k is not for that device). */
bool ui_key_text(const struct ui *u, const struct scr_key *k, bool pad, char *buf, size_t len);
/* The hint items of a key list for the device used last, up to max into
 * items; returns how many. */
int ui_key_items(const struct ui *u, const struct scr_key *keys, struct ui_hint *items, int max);
/* Those items in full, joined by sep into buf, which is returned. */
const char *ui_keys_line(const struct ui *u, const struct scr_key *keys, const char *sep, char *buf, size_t len);
/* The hint line from a key list, for the device used last. */
void ui_draw_keys_hint(const struct ui *u, const struct ui_layout *l, struct console *c, const struct scr_key *keys);
/* The same, centred on the row when centred (the title's). */
void ui_draw_keys_hint_at(const struct ui *u, const struct ui_layout *l, struct console *c, const struct scr_key *keys,
			  bool centred);
/* Every screen of the table, for the help screen: count, and the one at i. */
int ui_screen_count(void);
const struct scr *ui_screen_at(int i);

/* A command without arguments (unused fields -1). */
struct command ui_cmd(enum cmd c);
/* Gives cmd to the game through h (nothing once the game is over), then
 * shows what must follow (ui_after_command). Returns what h returned. */
int ui_command(struct ui *u, struct game *g, const struct ui_host *h, const struct command *cmd);
/* The width of a box sized to its text: its n lines (NULL ones left out)
 * each with a frame and a blank column on both sides (4 columns more than
 * the longest), and its title (NULL: none) on the top edge with as much
 * room; at most cols. */
int ui_box_width(const char *const *lines, int n, const char *title, int cols);
/* Draws a framed box of w×h centred over the map view (clamped to the
 * console), title on its top edge, its inside cleared to bg; sets *x, *y
 * to its top-left corner. */
void ui_draw_box(const struct ui_layout *l, struct console *c, int w, int h, const char *title, uint32_t frame,
		 uint32_t bg, int *x, int *y);
/* The same, moved up (else down) off console row keep_y when centring
 * would cover it, if the console has room (keep_y < 0: centred). */
void ui_draw_box_clear(const struct ui_layout *l, struct console *c, int w, int h, const char *title, uint32_t frame,
		       uint32_t bg, int keep_y, int *x, int *y);
/* For a move action: moves the cursor (u->look_x, look_y) one step,
 * staying on the map, and returns true; false for any other action. */
bool ui_move_cursor(struct ui *u, const struct game *g, enum action act);
/* The map view's map columns (view_w / map_cw). */
static inline int ui_view_cols(const struct ui_layout *l)
{
	return l->view_w / (l->map_cw > 1 ? l->map_cw : 1);
}
/* The console column of the head of the map view's map column vx (0: the
 * view's first) and its row for map row vy. */
static inline int ui_view_cx(const struct ui_layout *l, int vx)
{
	return l->view_x + vx * (l->map_cw > 1 ? l->map_cw : 1);
}
/* Writes the map cell at the view's map column vx, row vy (0-based, in the
 * view; outside the view or the console nothing): v's ch, fg, bg and tile
 * into its head text cell and, when l->map_cw is 2, its right half
 * (docs/cells.md: the only way map cells are written). Those of its text
 * cells on console row skip_y from skip_x0 to before skip_x1 are left as
 * they are (skip_y < 0: none; a description drawn over the map). */
static inline void ui_put_map(const struct ui_layout *l, struct console *c, int vx, int vy, struct con_cell v,
			      int skip_y, int skip_x0, int skip_x1)
{
	/* inline: a whole map view is a thousand cells and more */
	int cw = l->map_cw > 1 ? 2 : 1;
	if (vx < 0 || vy < 0 || vx >= ui_view_cols(l) || vy >= l->view_h)
		return;
	int x = ui_view_cx(l, vx), y = l->view_y + vy;
	if (y < 0 || y >= c->h)
		return;
	const uint16_t pic = v.flags & CON_PICTURE;
	for (int k = 0; k < cw; k++, x++) {
		v.flags = (uint16_t)(pic | (cw == 1 ? CON_MAP : k == 0 ? CON_MAP | CON_WIDE : CON_MAP | CON_TAIL));
		if (x >= 0 && x < c->w && !(y == skip_y && x >= skip_x0 && x < skip_x1))
			con_cell_set(c, x, y, v);
	}
}
/* ui_put_map for a whole row of the view at once: the map cells vx0,
 * vx0 + 1, ... of view row vy get look(ctx, vx, &v) when it returns true
 * (left as they are when false); no description skipped. For a whole view
 * drawn: the layout's sums made once a row, not once a cell. */
static inline void ui_put_map_row(const struct ui_layout *l, struct console *c, int vy, int vx0, int vx1,
				  bool (*look)(void *ctx, int vx, struct con_cell *v), void *ctx)
{
	const int cw = l->map_cw > 1 ? 2 : 1, cols = ui_view_cols(l), y = l->view_y + vy, w = c->w;
	if (vy < 0 || vy >= l->view_h || y < 0 || y >= c->h)
		return;
	if (vx0 < 0)
		vx0 = 0;
	if (vx1 > cols)
		vx1 = cols;
	for (int vx = vx0, x = ui_view_cx(l, vx0); vx < vx1; vx++, x += cw) {
		struct con_cell v;
		if (!look(ctx, vx, &v))
			continue;
		const uint16_t pic = v.flags & CON_PICTURE;
		for (int k = 0; k < cw; k++) {
			v.flags = (uint16_t)(pic | (cw == 1 ? CON_MAP : k == 0 ? CON_MAP | CON_WIDE : CON_MAP | CON_TAIL));
			if (x + k >= 0 && x + k < w)
				con_cell_set(c, x + k, y, v);
		}
	}
}

/* The head text cell of the map cell at the view's (vx, vy), or NULL
 * outside the console. */
const struct con_cell *ui_map_at(const struct ui_layout *l, const struct console *c, int vx, int vy);
/* The map cell shown at console cell (cx, cy) by the map view of l whose
 * top-left shows map cell (cam_x, cam_y): 0 and sets *mx, *my, or -1 when
 * (cx, cy) is outside the view or shows no cell of m. (Inline: the
 * partial redraw asks it for the pointer on every frame.) */
static inline int ui_view_cell(const struct ui_layout *l, const struct map *m, int cam_x, int cam_y, int cx, int cy,
			       int *mx, int *my)
{
	int cw = l->map_cw > 1 ? l->map_cw : 1;
	if (l->too_small || cx < l->view_x || cy < l->view_y || cx >= l->view_x + l->view_w / cw * cw ||
	    cy >= l->view_y + l->view_h)
		return -1;
	int x = cam_x + (cx - l->view_x) / cw, y = cam_y + cy - l->view_y;
	if (x < 0 || y < 0 || x >= m->w || y >= m->h)
		return -1;
	*mx = x;
	*my = y;
	return 0;
}
/* The map cell under the mouse pointer (u->hover_x, hover_y) on a frame
 * drawn with the camera (cam_x, cam_y): ui_view_cell's answer, -1 also when
 * there is no pointer. */
static inline int ui_hover_cell(const struct ui *u, const struct ui_layout *l, const struct game *g, int cam_x,
				int cam_y, int *mx, int *my)
{
	if (u->hover_x < 0 || u->hover_y < 0)
		return -1;
	return ui_view_cell(l, game_map(g), cam_x, cam_y, u->hover_x, u->hover_y, mx, my);
}
/* For a click: the map cell under the pointer of in, 0 or -1. */
int ui_click_cell(const struct ui *u, const struct game *g, const struct ui_input *in, int *mx, int *my);

#endif
