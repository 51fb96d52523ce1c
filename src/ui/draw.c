/* The drawing pieces every screen shares: the palette, the map view with
 * its HUD panel and message log, the hint line. */
#include "core/utf8.h"
#include "game/content.h"
#include "game/map.h"
#include "ui/scr.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const struct ui_palette palettes[UI_PALETTE_COUNT] = {
[UI_PALETTE_DEFAULT] = {
	.bg = 0x000000, .text = 0xE0E0E0, .dim_text = 0x808080, .title = 0xFFD060,
	.accent = 0x60C0FF, .select_bg = 0x304870, .hint = 0x9090A0, .hint_key = 0xE8D8A8,
	.floor_fg = 0xB4A878, .floor_bg = 0x201C14, .wall_fg = 0xDCC890, .wall_bg = 0x5A4A2C,
	.floor_mem_fg = 0x3C3C50, .floor_mem_bg = 0x000000, .wall_mem_fg = 0x5A5A78, .wall_mem_bg = 0x141420,
	.stairs_fg = 0xFFFF60, .hp_full = 0x208020, .hp_half = 0x9A6A00, .hp_low = 0xB02020,
	.hp_empty = 0x3A2020, .hp_text = 0xFFFFFF,
	.xp_fg = 0xC0A0FF, .box = 0xA0A0B0,
	/* the monsters in a colour-blind-safe palette (Okabe-Ito: bluish
	 * green, orange, reddish purple — told apart with any colour vision,
	 * and from the walls and floor) */
	.actor = { [ACTOR_GOBLIN] = 0x20C090, [ACTOR_ORC] = 0xE69F00, [ACTOR_TROLL] = 0xE088C0 },
	.player_corpse = 0xFF5050, .remembered_pct = 45,
},
/* High contrast: pure white text on black, the map's lit cells bright
 * (walls solid white blocks, floor dots white), remembered ones blue (dark
 * blue walls, blue dots: told from lit ones by hue as well as brightness),
 * and every monster and item kind in a saturated colour of its own. */
[UI_PALETTE_HIGH_CONTRAST] = {
	.bg = 0x000000, .text = 0xFFFFFF, .dim_text = 0xD0D0D0, .title = 0xFFFF00,
	.accent = 0x00FFFF, .select_bg = 0x0000C0, .hint = 0xFFFFFF, .hint_key = 0xFFFF00,
	.floor_fg = 0xFFFFFF, .floor_bg = 0x282828, .wall_fg = 0x000000, .wall_bg = 0xF0F0F0,
	.floor_mem_fg = 0x6060FF, .floor_mem_bg = 0x000000, .wall_mem_fg = 0x000000, .wall_mem_bg = 0x3030B0,
	.stairs_fg = 0xFFFF00, .hp_full = 0x008000, .hp_half = 0x905000, .hp_low = 0xC00000,
	.hp_empty = 0x404040, .hp_text = 0xFFFFFF,
	.xp_fg = 0xFF80FF, .box = 0xFFFFFF,
	.actor = { [ACTOR_PLAYER] = 0xFFFFFF, [ACTOR_GOBLIN] = 0x00FF00, [ACTOR_ORC] = 0xFF8000,
		   [ACTOR_TROLL] = 0xFF00FF },
	.item = { [ITEM_HEALTH_POTION] = 0x00FFFF, [ITEM_CONFUSION_SCROLL] = 0xC060FF,
		  [ITEM_PARALYSIS_SCROLL] = 0x4080FF, [ITEM_LIGHTNING_SCROLL] = 0xFFFF00,
		  [ITEM_FIREBALL_SCROLL] = 0xFF4000, [ITEM_DAGGER] = 0x00A0FF, [ITEM_SWORD] = 0x00A0FF,
		  [ITEM_LEATHER_ARMOUR] = 0xFFB000, [ITEM_CHAIN_MAIL] = 0xFFB000 },
	.player_corpse = 0xFF0000, .remembered_pct = 55,
},
};

const struct ui_palette *ui_palette_of(const struct ui *u)
{
	int p = u ? u->palette : UI_PALETTE_DEFAULT;
	return &palettes[p >= 0 && p < UI_PALETTE_COUNT ? p : UI_PALETTE_DEFAULT];
}

/* Log lines fade with age: newest first. Percent of the message's colour. */
static const int log_fade[5] = { 100, 80, 65, 52, 42 };

uint32_t ui_scale_rgb(uint32_t c, int pct)
{
	uint32_t r = ((c >> 16) & 0xFF) * (uint32_t)pct / 100;
	uint32_t g = ((c >> 8) & 0xFF) * (uint32_t)pct / 100;
	uint32_t b = (c & 0xFF) * (uint32_t)pct / 100;
	return r << 16 | g << 8 | b;
}

bool ui_pad(const struct ui *u)
{
	return u->last_dev == DEV_GAMEPAD;
}

void ui_center_text(struct console *c, int y, uint32_t fg, uint32_t bg, const char *s)
{
	int len = (int)utf8_len(s);
	int x = (c->w - len) / 2;
	con_print(c, x < 0 ? 0 : x, y, fg, bg, s, c->w);
}

/* Whether d is the dead player's remains (the corpse glyph in the colour
 * the rules give the player's own). */
static bool player_corpse(const struct drawable *d)
{
	return d->glyph == content_rules.corpse_glyph && d->fg == content_rules.player_corpse_fg;
}

/* How a drawable is shown: the game's colours, except the monsters and
 * items pal has its own colour for, and the dead player, drawn bright. */
static uint32_t shown_fg(const struct ui_palette *pal, const struct drawable *d)
{
	for (int k = 0; k < ACTOR_COUNT; k++)
		if (pal->actor[k] && d->glyph == content_actors[k].glyph && d->fg == content_actors[k].fg)
			return pal->actor[k];
	for (int k = 0; k < ITEM_COUNT; k++)
		if (pal->item[k] && d->glyph == content_items[k].glyph && d->fg == content_items[k].fg)
			return pal->item[k];
	if (player_corpse(d))
		return pal->player_corpse;
	return d->fg;
}

uint32_t ui_drawable_fg(const struct ui_palette *pal, const struct drawable *d)
{
	uint32_t fg = shown_fg(pal, d);
	return d->remembered ? ui_scale_rgb(fg, pal->remembered_pct) : fg;
}

const char *const ui_tile_names[UI_TILE_COUNT] = {
	[UI_TILE_NONE] = "-", [UI_TILE_AREA] = "area", [UI_TILE_CURSOR] = "cursor", [UI_TILE_CONFUSED] = "confused",
	[UI_TILE_PARALYSED] = "paralysed", [UI_TILE_PLAYER] = "player", [UI_TILE_GOBLIN] = "goblin",
	[UI_TILE_ORC] = "orc", [UI_TILE_TROLL] = "troll", [UI_TILE_CORPSE] = "corpse",
	[UI_TILE_HEALTH_POTION] = "health-potion", [UI_TILE_SCROLL_CONFUSION] = "scroll-confusion",
	[UI_TILE_SCROLL_PARALYSIS] = "scroll-paralysis", [UI_TILE_SCROLL_LIGHTNING] = "scroll-lightning",
	[UI_TILE_SCROLL_FIREBALL] = "scroll-fireball", [UI_TILE_DAGGER] = "dagger", [UI_TILE_SWORD] = "sword",
	[UI_TILE_LEATHER_ARMOUR] = "leather-armour", [UI_TILE_CHAIN_MAIL] = "chain-mail",
	[UI_TILE_STAIRS_DOWN] = "stairs-down", [UI_TILE_STAIRS_UP] = "stairs-up",
	[UI_TILE_FLOOR] = "floor-0", [UI_TILE_FLOOR + 1] = "floor-1", [UI_TILE_FLOOR + 2] = "floor-2",
	[UI_TILE_FLOOR + 3] = "floor-3", [UI_TILE_WALL] = "wall-0", [UI_TILE_WALL + 1] = "wall-1",
	[UI_TILE_WALL + 2] = "wall-2", [UI_TILE_WALL + 3] = "wall-3", [UI_TILE_PLAYER_CORPSE] = "player-corpse",
};

/* The picture of each kind of actor and item. */
static const uint8_t actor_tile[ACTOR_COUNT] = {
	[ACTOR_PLAYER] = UI_TILE_PLAYER, [ACTOR_GOBLIN] = UI_TILE_GOBLIN, [ACTOR_ORC] = UI_TILE_ORC,
	[ACTOR_TROLL] = UI_TILE_TROLL,
};
static const uint8_t item_tile[ITEM_COUNT] = {
	[ITEM_HEALTH_POTION] = UI_TILE_HEALTH_POTION, [ITEM_CONFUSION_SCROLL] = UI_TILE_SCROLL_CONFUSION,
	[ITEM_PARALYSIS_SCROLL] = UI_TILE_SCROLL_PARALYSIS, [ITEM_LIGHTNING_SCROLL] = UI_TILE_SCROLL_LIGHTNING,
	[ITEM_FIREBALL_SCROLL] = UI_TILE_SCROLL_FIREBALL, [ITEM_DAGGER] = UI_TILE_DAGGER, [ITEM_SWORD] = UI_TILE_SWORD,
	[ITEM_LEATHER_ARMOUR] = UI_TILE_LEATHER_ARMOUR, [ITEM_CHAIN_MAIL] = UI_TILE_CHAIN_MAIL,
};

_Static_assert(TILE_WALL == 0 && TILE_FLOOR == 1 && TILE_STAIRS_DOWN == 2 && TILE_STAIRS_UP == 3,
	       "struct ui_looks: four tiles");
void ui_looks_make(const struct ui_layout *l, struct ui_looks *t)
{
	const int cw = l->map_cw > 1 ? 2 : 1;
	const struct con_cell blank = { ' ', 0xFFFFFF, l->pal->bg, 0, 0 };
	for (unsigned s = 0; s < 4; s++)
		for (unsigned k = 0; k < 4; k++) {
			struct con_cell v = blank;
			if (s) /* (at cell 0: variant 0, added per cell) */
				ui_tile_look_as(l, k, s >= 2, 0, &v);
			t->base[s][k] = v;
			t->var[s][k] = s && l->pictures && (k == TILE_WALL || k == TILE_FLOOR) ? UI_TILE_VARIANTS - 1 : 0;
			/* as ui_put_map writes it (state 0: as con_clear left it) */
			const uint16_t pic = v.flags & CON_PICTURE;
			for (int h = 0; h < 2; h++) {
				v.flags = (uint16_t)(pic | (cw == 1 ? CON_MAP : h == 0 ? CON_MAP | CON_WIDE : CON_MAP | CON_TAIL));
				t->cell[s][k][h] = s ? v : blank;
			}
		}
	for (int i = 0; i < UI_LOOKS_BLANKS; i++)
		t->blanks[i] = blank;
}

void ui_put_drawable(const struct ui_layout *l, const struct drawable *d, struct con_cell *v)
{
	v->ch = d->glyph;
	v->fg = ui_drawable_fg(l->pal, d);
	if (!l->pictures)
		return;
	unsigned thing = d->corpse ? (player_corpse(d) ? UI_TILE_PLAYER_CORPSE : UI_TILE_CORPSE)
		       : d->actor >= 0 && d->actor < ACTOR_COUNT ? actor_tile[d->actor]
		       : d->item >= 0 && d->item < ITEM_COUNT ? item_tile[d->item] : 0;
	unsigned mark = d->status & GAME_STATUS_PARALYSED ? UI_TILE_PARALYSED
		      : d->status & GAME_STATUS_CONFUSED ? UI_TILE_CONFUSED : 0;
	v->tile = CON_TILE(v->tile & 0xFF, thing);
	v->flags = (uint16_t)((v->flags & ~CON_MARK(15)) | CON_MARK(mark) | (d->remembered ? CON_DIM : 0));
}

const struct con_cell *ui_map_at(const struct ui_layout *l, const struct console *c, int vx, int vy)
{
	return con_at(c, ui_view_cx(l, vx), l->view_y + vy);
}

/* A row of the map for ui_put_map_row: view column vx is map cell row + vx. */
struct tile_row {
	const struct ui_layout *l;
	const struct map *m;
	int row;
};

static inline bool tile_row_look(void *ctx, int vx, struct con_cell *v)
{
	const struct tile_row *t = ctx;
	*v = (struct con_cell){ 0 };
	return ui_tile_look(t->l, t->m, t->row + vx, v);
}

static void draw_map(const struct ui_layout *l, const struct game *g, struct console *c, int cam_x, int cam_y)
{
	const struct map *m = game_map(g);
	int vw = ui_view_cols(l);
	/* the view's cells that lie on the map, found once (not per cell: the
	 * stores into c kept the compiler from keeping m's size at hand) */
	const int mw = m->w, mh = m->h;
	int vx0 = cam_x < 0 ? -cam_x : 0, vx1 = mw - cam_x < vw ? mw - cam_x : vw;
	int vy0 = cam_y < 0 ? -cam_y : 0, vy1 = mh - cam_y < l->view_h ? mh - cam_y : l->view_h;
	for (int vy = vy0; vy < vy1; vy++) {
		struct tile_row t = { l, m, (cam_y + vy) * mw + cam_x };
		ui_put_map_row(l, c, vy, vx0, vx1, tile_row_look, &t);
	}
	struct drawable d[UI_MAX_DRAWABLES];
	int n = game_drawables(g, d, UI_MAX_DRAWABLES);
	for (int i = 0; i < n; i++) {
		int vx = d[i].x - cam_x, vy = d[i].y - cam_y;
		const struct con_cell *at = ui_map_at(l, c, vx, vy);
		if (vx < 0 || vy < 0 || vx >= vw || vy >= l->view_h || !at)
			continue;
		struct con_cell v = *at;
		ui_put_drawable(l, &d[i], &v);
		ui_put_map(l, c, vx, vy, v, -1, 0, 0);
	}
}

uint32_t ui_hp_colour(const struct ui_palette *pal, int hp, int max_hp)
{
	if (max_hp > 0 && hp * 10 >= max_hp * 6)
		return pal->hp_full;
	if (max_hp > 0 && hp * 10 >= max_hp * 3)
		return pal->hp_half;
	return pal->hp_low;
}

/* Text built without a format to parse (the HUD's, drawn on most frames):
 * s copied to p, or v's decimal digits as %d prints them; the end
 * returned. */
static char *put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}
static char *put_int(char *p, int v)
{
	char d[10];
	int n = 0;
	unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
	do
		d[n++] = (char)('0' + u % 10);
	while ((u /= 10) && n < 10);
	if (v < 0)
		*p++ = '-';
	while (n)
		*p++ = d[--n];
	return p;
}

static void draw_bar(const struct ui_palette *pal, struct console *c, int x, int y, int w, int value, int max,
		     const char *label, uint32_t full, uint32_t empty)
{
	int filled = max > 0 ? value * w / max : 0;
	if (filled < 0)
		filled = 0;
	if (filled == 0 && value > 0)
		filled = 1; /* alive shows colour (1 HP of 30 filled no cell) */
	char text[48]; /* label (a short one: "HP") ": " value "/" max */
	char *e = put_int(put_str(put_str(text, label), ": "), value);
	*e++ = '/';
	*put_int(e, max) = 0;
	/* each cell written once (its damage only when it changed): the bar's
	 * colours, the text over them from the bar's second cell on */
	size_t n = strlen(text), at = 0;
	for (int i = 0; i < w; i++) {
		uint32_t ch = ' ';
		if (i >= 1 && at < n)
			at += utf8_decode(text + at, n - at, &ch);
		con_put(c, x + i, y, ch, pal->hp_text, i < filled ? full : empty);
	}
}

/* The newest messages, wrapped, newest at the bottom, fading with age. */
/* Messages already wrapped: a message added to the log is wrapped once, not
 * again on every frame that draws the log (each new message moved all the
 * others, which were wrapped whole each time). Kept by the message's text
 * and count and the width; the newest LOG_WRAPPED ones stay. */
#define LOG_WRAPPED 24 /* more than the log box shows (UI_LOG_LINES) */
#define LOG_WRAP_LINES 8 /* more lines: wrapped each time */
static struct log_wrapped {
	char raw[sizeof(((struct game_msg *)0)->text)];
	size_t len;        /* raw's length, */
	uint64_t head;     /* its first 8 bytes (those past its end 0): told apart before a strcmp */
	int count, w;      /* w 0: empty */
	char text[160];    /* game_msg_format's */
	int n;             /* lines */
	struct con_line line[LOG_WRAP_LINES];
} log_wrapped[LOG_WRAPPED];
static int log_wrapped_next;

/* Where m was found last (by the message's place in memory, a few
 * places): the kept one looked at first. Only a hint: it is taken when it
 * holds m's text, count and width, as the search would. */
#define LOG_HINTS 8
static struct {
	const struct game_msg *m;
	int at;
} log_hint[LOG_HINTS];

/* The first 8 bytes of s, of length len (0 past its end), as a word. */
static uint64_t text_head(const char *s, size_t len)
{
	uint64_t h = 0;
	memcpy(&h, s, len < 8 ? len : 8);
	return h;
}

/* m wrapped in width w, from the kept ones or wrapped now and kept. */
static const struct log_wrapped *wrapped_msg(const struct game_msg *m, int w)
{
	const size_t hn = ((uintptr_t)m / sizeof *m) % LOG_HINTS;
	if (log_hint[hn].m == m) {
		const struct log_wrapped *k = &log_wrapped[log_hint[hn].at];
		if (k->w == w && k->count == m->count && !strcmp(k->raw, m->text))
			return k;
	}
	/* searched: the length and first bytes told apart first (a new
	 * message, not kept, is compared with every one kept) */
	const size_t len = strnlen(m->text, sizeof m->text - 1);
	const uint64_t head = text_head(m->text, len);
	for (int i = 0; i < LOG_WRAPPED; i++) {
		const struct log_wrapped *k = &log_wrapped[i];
		if (k->w == w && k->count == m->count && k->len == len && k->head == head && !strcmp(k->raw, m->text)) {
			log_hint[hn].m = m;
			log_hint[hn].at = i;
			return k;
		}
	}
	log_hint[hn].m = m;
	log_hint[hn].at = log_wrapped_next;
	struct log_wrapped *k = &log_wrapped[log_wrapped_next];
	log_wrapped_next = (log_wrapped_next + 1) % LOG_WRAPPED;
	memcpy(k->raw, m->text, len);
	k->raw[len] = 0;
	k->len = len;
	k->head = head;
	k->count = m->count;
	game_msg_format(m, k->text, sizeof k->text);
	k->n = con_wrap(w, k->text, k->line, LOG_WRAP_LINES);
	k->w = k->n <= LOG_WRAP_LINES ? w : 0; /* too many lines to keep: not kept */
	return k;
}

static void draw_log(const struct game *g, struct console *c, int x, int y, int w, int h, uint32_t bg)
{
	int line = h; /* fill from the bottom up */
	int age = 0;
	for (int i = game_msg_count(g) - 1; i >= 0 && line > 0; i--, age++) {
		const struct game_msg *m = game_msg_get(g, i);
		const struct log_wrapped *k = wrapped_msg(m, w);
		uint32_t fg = ui_scale_rgb(m->fg, log_fade[age < 5 ? age : 4]);
		int need = k->n, top = line - need;
		if (need > LOG_WRAP_LINES) { /* (not kept: drawn as before) */
			if (top < 0) {
				con_print_wrapped_from(c, x, y, w, line, -top, fg, bg, k->text);
				break;
			}
			con_print_wrapped(c, x, y + top, w, need, fg, bg, k->text);
			line = top;
			continue;
		}
		/* only the last lines of a long message may fit */
		for (int j = top < 0 ? -top : 0; j < need; j++)
			con_print_line(c, x, y + top + j, fg, bg, k->text, k->line[j]);
		if (top < 0)
			break;
		line = top;
	}
}

/* Whether a part of the HUD must be drawn: always on a whole frame (was
 * NULL), else when a number it shows changed. */
static bool stats_part(const struct game_stats *was, bool changed)
{
	return !was || changed;
}

/* Cells x .. x_end - 1 of row y as con_clear leaves them, when was (the
 * part is drawn over itself; a whole frame's console is cleared): what
 * a part's text and bar leave of its row, so that each cell is written
 * once and damaged only when it changed. */
static void stats_blank(struct console *c, const struct game_stats *was, int x, int x_end, int y, uint32_t bg)
{
	if (was && x < x_end)
		con_fill(c, x, y, x_end - x, 1, ' ', 0xFFFFFF, bg);
}

/* The cells text prints as: one a code point (as utf8_len; its ASCII
 * counted without a call). */
static int text_cells(const char *s)
{
	int n = 0;
	for (; *s; s++, n++)
		if ((unsigned char)*s >= 0x80)
			return n + (int)utf8_len(s);
	return n;
}

/* Text now drawn at (x, y), at most max_w cells, over text was drawn
 * there as it is (in the same colours, the row blank after it up to
 * x_end, as con_clear leaves it): the cells from the first that differs
 * (or the first not ASCII) printed, those was covered beyond now's end
 * blanked; each cell ends as printing now on the blank row would leave
 * it. */
static void print_over(struct console *c, int x, int y, uint32_t fg, uint32_t bg, const char *now, const char *was,
		       int max_w, int x_end)
{
	int k = 0; /* the bytes, and cells, alike */
	while (now[k] && now[k] == was[k] && (unsigned char)now[k] < 0x80 && k < max_w)
		k++;
	int n = k + con_print(c, x + k, y, fg, bg, now + k, max_w - k);
	int old = text_cells(was);
	old = old < max_w ? old : max_w;
	if (x + old > x_end)
		old = x_end - x;
	if (n < old)
		con_fill(c, x + n, y, old - n, 1, ' ', 0xFFFFFF, bg);
}

/* "Turn N" into buf (room for 17): no format to parse, every frame. */
static void turn_text(char *buf, int turn)
{
	*put_int(put_str(buf, "Turn "), turn) = 0;
}

/* "Turn now" at (x, y) drawn over "Turn was" drawn there as print_over
 * would draw it, when both are at least 0 with as many digits: only the
 * digits that differ put (the rest of the text stays as it is); false,
 * nothing drawn, otherwise. (Every turn: no text made, no print.) */
static bool turn_over(struct console *c, int x, int y, uint32_t fg, uint32_t bg, int now, int was)
{
	if (now < 0 || was < 0)
		return false;
	char a[12], b[12]; /* the digits, least significant first */
	unsigned u = (unsigned)now, v = (unsigned)was;
	int n = 0;
	do {
		a[n] = (char)('0' + u % 10);
		b[n] = (char)('0' + v % 10);
		n++;
		u /= 10;
		v /= 10;
	} while (u && v);
	if (u || v)
		return false; /* (not as many digits) */
	for (int i = 0; i < n; i++)
		if (a[i] != b[i])
			con_put(c, x + 5 + n - 1 - i, y, (uint32_t)a[i], fg, bg);
	return true;
}

int ui_draw_stats(const struct ui_layout *l, const struct game_stats *st, const struct game_stats *was,
		   struct console *c)
{
	const struct ui_palette *pal = l->pal;
	const struct game_stats s = *st, w = was ? *was : s;
	char buf[64];
	int y = l->panel_y, rows = 0;
	bool hp = s.hp != w.hp || s.max_hp != w.max_hp;
	bool xp = s.level != w.level || s.xp != w.xp || s.xp_next != w.xp_next;
	if (l->compact) {
		if (!stats_part(was, hp || xp || s.depth != w.depth))
			return 0;
		/* no separator: the stats line is the panel's first row */
		int bw = l->cols / 2 - 1;
		if (bw > 20)
			bw = 20;
		/* the stats whole: the bar gives up columns for them (down to 12) */
		/* "Lv%d D:%d XP:%d/%d" */
		char *e = put_int(put_str(put_int(put_str(put_int(put_str(buf, "Lv"), s.level), " D:"), s.depth), " XP:"), s.xp);
		*e++ = '/';
		e = put_int(e, s.xp_next);
		*e = 0;
		int len = (int)(e - buf);
		if (bw > l->cols - 3 - len)
			bw = l->cols - 3 - len > 12 ? l->cols - 3 - len : 12;
		stats_blank(c, was, 0, 1, y, pal->bg);
		draw_bar(pal, c, 1, y, bw, s.hp, s.max_hp, "HP", ui_hp_colour(pal, s.hp, s.max_hp), pal->hp_empty);
		stats_blank(c, was, 1 + bw, bw + 2, y, pal->bg);
		int n = con_print(c, bw + 2, y, pal->xp_fg, pal->bg, buf, l->cols - bw - 3);
		stats_blank(c, was, bw + 2 + n, l->cols, y, pal->bg);
		return 1;
	}
	/* the rows left of the log, one part each */
	if (stats_part(was, hp)) {
		rows |= 1 << 1;
		stats_blank(c, was, 0, 1, y + 1, pal->bg);
		draw_bar(pal, c, 1, y + 1, 20, s.hp, s.max_hp, "HP", ui_hp_colour(pal, s.hp, s.max_hp), pal->hp_empty);
		stats_blank(c, was, 21, l->log_x, y + 1, pal->bg);
	}
	if (stats_part(was, s.depth != w.depth)) {
		rows |= 1 << 3;
		*put_int(put_str(buf, "Dungeon level: "), s.depth) = 0;
		stats_blank(c, was, 0, 1, y + 3, pal->bg);
		int n = con_print(c, 1, y + 3, pal->text, pal->bg, buf, 21);
		stats_blank(c, was, 1 + n, l->log_x, y + 3, pal->bg);
	}
	if (stats_part(was, xp)) {
		rows |= 1 << 4;
		/* 21 columns: shorter forms for high levels, never a cut number */
		static const char *const form[3][2] = { { "Level ", "  XP: " }, { "Level ", " XP: " }, { "Lv", " XP:" } };
		for (int f = 0; f < 3; f++) {
			char *e = put_int(put_str(put_int(put_str(buf, form[f][0]), s.level), form[f][1]), s.xp);
			*e++ = '/';
			e = put_int(e, s.xp_next);
			*e = 0;
			if (e - buf <= 21)
				break;
		}
		stats_blank(c, was, 0, 1, y + 4, pal->bg);
		int n = con_print(c, 1, y + 4, pal->xp_fg, pal->bg, buf, 21);
		stats_blank(c, was, 1 + n, l->log_x, y + 4, pal->bg);
	}
	if (stats_part(was, s.turn != w.turn)) {
		rows |= 1 << 5;
		if (was && turn_over(c, 1, y + 5, pal->dim_text, pal->bg, s.turn, w.turn))
			return rows; /* (every turn: only the digits that changed) */
		turn_text(buf, s.turn);
		if (was) {
			char old[24];
			turn_text(old, w.turn);
			print_over(c, 1, y + 5, pal->dim_text, pal->bg, buf, old, 21, l->log_x);
		} else {
			(void)con_print(c, 1, y + 5, pal->dim_text, pal->bg, buf, 21);
		}
	}
	return rows;
}

void ui_draw_log(const struct ui_layout *l, const struct game *g, struct console *c)
{
	draw_log(g, c, l->log_x, l->log_y, l->log_w, l->log_h, l->pal->bg);
}

bool ui_draw_log_over(const struct ui_layout *l, const struct game *g, struct console *c, uint16_t *ends)
{
	const int x = l->log_x, y = l->log_y, w = l->log_w, h = l->log_h;
	const uint32_t bg = l->pal->bg;
	int k = 0, lines = 0, last = game_msg_count(g) - 1;
	/* the messages shown, newest first (as draw_log takes them), each
	 * wrapped and kept: one that is not kept is drawn as draw_log draws it.
	 * (Only counted here: a message wrapped now may take the place of one
	 * kept, so each is taken again when drawn.) */
	for (int i = last; i >= 0 && lines < h && k < UI_LOG_LINES; i--, k++) {
		int n = wrapped_msg(game_msg_get(g, i), w)->n;
		if (n > LOG_WRAP_LINES)
			return false;
		lines += n;
	}
	if (lines < h && k == UI_LOG_LINES && last + 1 > k)
		return false; /* (a box taller than UI_LOG_LINES one-line messages: not laid out here) */
	int line = h; /* from the bottom up: each row its line's text, then blanks to the box's edge */
	for (int age = 0; age < k && line > 0; age++) {
		const struct game_msg *m = game_msg_get(g, last - age);
		const struct log_wrapped *kw = wrapped_msg(m, w); /* (as many lines as counted: the same text and width) */
		uint32_t fg = ui_scale_rgb(m->fg, log_fade[age < 5 ? age : 4]);
		int top = line - kw->n;
		for (int j = top < 0 ? -top : 0; j < kw->n; j++) {
			int row = top + j, n = con_print_line(c, x, y + row, fg, bg, kw->text, kw->line[j]);
			int end = ends && row < UI_LOG_LINES ? ends[row] : w; /* (blank from there on) */
			if (n < end)
				con_fill(c, x + n, y + row, end - n, 1, ' ', 0xFFFFFF, bg);
			if (ends && row < UI_LOG_LINES)
				ends[row] = (uint16_t)n;
		}
		line = top;
	}
	for (int row = 0; row < line; row++) { /* the rows above the oldest message */
		int end = ends && row < UI_LOG_LINES ? ends[row] : w;
		if (end > 0)
			con_fill(c, x, y + row, end, 1, ' ', 0xFFFFFF, bg);
		if (ends && row < UI_LOG_LINES)
			ends[row] = 0;
	}
	return true;
}

void ui_draw_rule(const struct ui_layout *l, struct console *c)
{
	const struct ui_palette *pal = l->pal;
	if (!l->compact) /* the separator over the wide panel */
		con_fill(c, 0, l->panel_y, l->cols, 1, 0x2500, 0x404050, pal->bg);
}

static void draw_panel(const struct ui_layout *l, const struct game *g, struct console *c)
{
	ui_draw_rule(l, c);
	struct game_stats s;
	game_stats(g, &s);
	ui_draw_stats(l, &s, NULL, c);
	ui_draw_log(l, g, c);
}

/* Item h's text in form f (ui_hint_fit's forms; 3, left out: NULL). */
static const char *hint_text(const struct ui_hint *h, int f)
{
	return f == 0 ? h->full : f == 1 ? h->brief : f == 2 ? h->key : NULL;
}

/* The width of item h in form f (3: left out, 0). */
static int hint_len(const struct ui_hint *h, int f)
{
	const char *t = hint_text(h, f);
	return t ? (int)utf8_len(t) : 0;
}

static int hint_width(const struct ui_hint *items, int n, const int *form)
{
	int w = 0, shown = 0;
	for (int i = 0; i < n; i++)
		if (form[i] < 3) {
			w += hint_len(&items[i], form[i]);
			shown++;
		}
	return shown ? w + 2 * (shown - 1) : 0;
}

int ui_hint_fit(const struct ui_hint *items, int n, int width, int *form)
{
	for (int i = 0; i < n; i++)
		form[i] = 0;
	/* steps: brief labels (all), left out (the others); then the items
	 * that keep their words: keys alone, left out. A key with no word of
	 * what it does tells a new player nothing: the others never show
	 * one (help lists them all). */
	static const struct { int form; bool keep; } steps[] = { { 1, false }, { 1, true }, { 3, false },
								  { 2, true }, { 3, true } };
	for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++)
		for (int i = n - 1; i >= 0 && hint_width(items, n, form) > width; i--)
			if (items[i].keep == steps[s].keep && form[i] < steps[s].form)
				form[i] = steps[s].form;
	/* room left where items went: their full labels back, the most
	 * important first */
	for (int i = 0; i < n; i++)
		if (form[i] == 1) {
			form[i] = 0;
			if (hint_width(items, n, form) > width)
				form[i] = 1;
		}
	return hint_width(items, n, form);
}

/* The hint line: the items fitted (ui_hint_fit, the one place that
 * decides what fits) from column 1, or centred. */
static void draw_hint(const struct ui_layout *l, struct console *c, const struct ui_hint *items, int n, bool centred)
{
	const struct ui_palette *pal = l->pal;
	int form[32];
	if (n > 32)
		n = 32;
	con_fill(c, 0, l->hint_y, l->cols, 1, ' ', pal->hint, pal->bg);
	int w = ui_hint_fit(items, n, l->cols - 2, form);
	int x = centred ? 1 + (l->cols - 2 - w) / 2 : 1, first = x;
	for (int i = 0; i < n; i++) {
		const char *t = hint_text(&items[i], form[i]);
		if (!t)
			continue;
		x += x > first ? 2 : 0;
		/* the key brighter than its label: the line reads as keys, apart
		 * from the log above it */
		con_print(c, x, l->hint_y, pal->hint, pal->bg, t, -1);
		if (items[i].keyed)
			con_print(c, x, l->hint_y, pal->hint_key, pal->bg, items[i].key, -1);
		x += (int)utf8_len(t);
	}
}

void ui_draw_hint(const struct ui_layout *l, struct console *c, const struct ui_hint *items, int n)
{
	draw_hint(l, c, items, n, false);
}

int ui_draw_describe(const struct ui_layout *l, const struct game *g, struct console *c, int cam_x, int hx, int hy,
		     int *x, int *y)
{
	const struct map *m = game_map(g);
	char desc[96];
	const char *what = game_describe(g, hx, hy, desc, sizeof desc);
	if (!what && m->explored[hy * m->w + hx])
		what = m->tile[hy * m->w + hx] == TILE_WALL ? "a wall"
		       : m->tile[hy * m->w + hx] == TILE_STAIRS_DOWN ? "stairs down"
		       : m->tile[hy * m->w + hx] == TILE_STAIRS_UP ? "stairs up" : "floor";
	if (!what)
		what = "unexplored";
	/* off the map, on the panel's row for it (l->desc_y), under the
	 * cell's column as far as it fits: the map shows whole (a label
	 * beside the cursor hid the monster next to it, and walls) */
	int vx = ui_view_cx(l, hx - cam_x) + l->map_cw / 2, len = (int)utf8_len(what);
	int dx = vx - len / 2;
	if (dx + len > l->cols - 1)
		dx = l->cols - 1 - len;
	if (dx < 1)
		dx = 1;
	*x = dx;
	*y = l->desc_y;
	return con_print(c, dx, l->desc_y, 0xFFFFFF, 0x202030, what, l->cols - 1 - dx);
}

void ui_draw_world(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c,
		   bool cursor, const char *prompt)
{
	const struct map *m = game_map(g);
	int fx, fy, cam_x, cam_y;
	if (cursor) {
		fx = u->look_x;
		fy = u->look_y;
	} else {
		game_player_pos(g, &fx, &fy);
	}
	ui_camera(l, m->w, m->h, fx, fy, &cam_x, &cam_y);
	draw_map(l, g, c, cam_x, cam_y);
	draw_panel(l, g, c);

	const char *top = u->status[0] ? u->status : prompt && prompt[0] ? prompt : NULL;
	int hx = -1, hy = -1;
	if (cursor) {
		hx = u->look_x;
		hy = u->look_y;
		int vx = hx - cam_x, vy = hy - cam_y;
		const struct con_cell *cell = ui_map_at(l, c, vx, vy);
		if (cell && vy < l->view_h) {
			struct con_cell v = *cell; /* its picture under the cursor's */
			v.ch = cell->ch == ' ' ? 'X' : cell->ch;
			v.fg = 0x000000;
			v.bg = 0xFFFF80;
			v.flags = (uint16_t)((v.flags & ~CON_OVER(15)) | CON_OVER(UI_TILE_CURSOR));
			ui_put_map(l, c, vx, vy, v, -1, 0, 0);
		}
	} else if (ui_hover_cell(u, l, g, cam_x, cam_y, &hx, &hy) < 0) {
		hx = hy = -1; /* no pointer, or not over the map this frame shows */
	}
	if (hx >= 0) {
		int lx, ly;
		(void)ui_draw_describe(l, g, c, cam_x, hx, hy, &lx, &ly);
	}
	if (top) {
		/* a bar across the view: the map row under it cleared, never
		 * shown round the words */
		con_fill(c, l->view_x, l->view_y, l->view_w, 1, ' ', 0xFFE080, 0x302010);
		con_print_wrapped(c, l->view_x + 1, l->view_y, l->view_w - 2, 1, 0xFFE080, 0x302010, top); /* whole words */
	}
}

const struct bindings *ui_binds(const struct ui *u)
{
	return u->binds ? u->binds : bind_default();
}

/* The first key of action a on the device, as a label; false if none. */
static bool first_key(const struct ui *u, enum action a, bool pad, char *buf, size_t len)
{
	uint32_t k;
	if (bind_keys(ui_binds(u), a, pad, &k, 1) < 1)
		return false;
	bind_key_label(k, buf, len);
	return true;
}

/* Whether the four keys are bound to north, south, west, east. */
static bool four_bound(const struct ui *u, const uint32_t keys[4])
{
	static const enum action dirs[4] = { ACT_MOVE_N, ACT_MOVE_S, ACT_MOVE_W, ACT_MOVE_E };
	for (int i = 0; i < 4; i++)
		if (bind_action(ui_binds(u), keys[i]) != dirs[i])
			return false;
	return true;
}

/* The moves: "arrows", the letters bound to west, south, north, east
 * ("hjkl"), or "D-pad"; else the labels of the first keys of each. */
static bool moves_text(const struct ui *u, bool pad, char *buf, size_t len)
{
	static const uint32_t arrows[4] = { KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT };
	static const uint32_t dpad[4] = { PAD_UP, PAD_DOWN, PAD_LEFT, PAD_RIGHT };
	static const enum action wsne[4] = { ACT_MOVE_W, ACT_MOVE_S, ACT_MOVE_N, ACT_MOVE_E };
	buf[0] = 0;
	if (pad && four_bound(u, dpad)) {
		snprintf(buf, len, "D-pad");
		return true;
	}
	if (!pad && four_bound(u, arrows))
		snprintf(buf, len, "arrows");
	/* the four letters (or other keys) that move, in h j k l order */
	char part[4][16];
	int found = 0;
	for (int i = 0; i < 4; i++) {
		uint32_t keys[8];
		int n = bind_keys(ui_binds(u), wsne[i], pad, keys, 8);
		part[i][0] = 0;
		for (int j = 0; j < n && j < 8; j++) {
			bool letter = keys[j] < 0x80 && keys[j] > 0x20;
			bool arrow = !pad && buf[0] && (keys[j] == KEY_UP || keys[j] == KEY_DOWN || keys[j] == KEY_LEFT ||
						       keys[j] == KEY_RIGHT);
			if (arrow)
				continue;
			if (letter || !part[i][0]) {
				bind_key_label(keys[j], part[i], sizeof part[i]);
				if (letter)
					break;
			}
		}
		found += part[i][0] != 0;
	}
	if (found == 4 && !(pad && buf[0])) {
		size_t used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s%s%s%s", used ? "/" : "", part[0], part[1], part[2], part[3]);
	}
	return buf[0] != 0;
}

bool ui_key_text(const struct ui *u, const struct scr_key *k, bool pad, char *buf, size_t len)
{
	buf[0] = 0;
	if ((k->dev == SCR_KEYBOARD && pad) || (k->dev == SCR_PAD && !pad))
		return false;
	if (k->keys) {
		snprintf(buf, len, "%s", k->keys);
		return true;
	}
	if (k->moves)
		return moves_text(u, pad, buf, len);
	char a[24], b[24];
	bool ha = first_key(u, k->act, pad, a, sizeof a);
	bool hb = k->act2 != ACT_NONE && first_key(u, k->act2, pad, b, sizeof b);
	if (ha && hb && !strncmp(a, "D-pad", 5) && !strncmp(b, "D-pad", 5))
		snprintf(buf, len, "D-pad%s%s", a + 5, b + 5); /* "D-pad↑↓" */
	else if (ha && hb)
		snprintf(buf, len, "%s%s%s", a, utf8_len(a) == 1 && utf8_len(b) == 1 ? "" : "/", b);
	else if (ha || hb)
		snprintf(buf, len, "%s", ha ? a : b);
	return ha || hb;
}

int ui_key_items(const struct ui *u, const struct scr_key *keys, struct ui_hint *items, int max)
{
	int n = 0;
	bool pad = ui_pad(u);
	for (int i = 0; keys && (keys[i].hint || keys[i].help) && n < max; i++) {
		char kt[48];
		if (!keys[i].hint || !ui_key_text(u, &keys[i], pad, kt, sizeof kt))
			continue;
		struct ui_hint *h = &items[n++];
		const char *brief = keys[i].brief ? keys[i].brief : keys[i].hint;
		h->keep = keys[i].keep;
		h->keyed = kt[0] != 0;
		if (kt[0]) {
			snprintf(h->full, sizeof h->full, "%s: %s", kt, keys[i].hint);
			snprintf(h->brief, sizeof h->brief, "%s: %s", kt, brief);
			snprintf(h->key, sizeof h->key, "%s", kt);
		} else {
			snprintf(h->full, sizeof h->full, "%s", keys[i].hint);
			snprintf(h->brief, sizeof h->brief, "%s", brief);
			snprintf(h->key, sizeof h->key, "%s", brief);
		}
	}
	return n;
}

/* Key hint lines already fitted: the line depends only on the screen's
 * keys, the bindings, the device, the width and the palette, and fitting it (every
 * key's label made, the widths tried form by form) costs about 180k
 * instructions, which a screen drawn whole paid each time. A few lines are
 * kept (the screens a game goes between), each with a copy of the
 * bindings it was made from (so a table changed in place is noticed too). */
#define HINT_CACHED 4
#define HINT_MAX_COLS 512 /* wider lines are fitted each time */
static struct hint_line {
	const struct scr_key *keys; /* NULL: empty */
	const struct ui_palette *pal;
	struct bindings binds;
	bool pad, centred;
	int cols;
	struct con_cell cell[HINT_MAX_COLS];
} hint_cache[HINT_CACHED];
static int hint_next; /* the entry replaced next */

void ui_draw_keys_hint(const struct ui *u, const struct ui_layout *l, struct console *c, const struct scr_key *keys)
{
	ui_draw_keys_hint_at(u, l, c, keys, false);
}

void ui_draw_keys_hint_at(const struct ui *u, const struct ui_layout *l, struct console *c, const struct scr_key *keys,
			  bool centred)
{
	const struct bindings *b = u->binds ? u->binds : bind_default();
	bool pad = ui_pad(u);
	bool keep = l->cols <= HINT_MAX_COLS && l->cols <= c->w && l->hint_y >= 0 && l->hint_y < c->h;
	for (int i = 0; keep && i < HINT_CACHED; i++) {
		struct hint_line *h = &hint_cache[i];
		if (h->keys == keys && keys && h->pal == l->pal && h->pad == pad && h->centred == centred && h->cols == l->cols && h->binds.n == b->n &&
		    !memcmp(h->binds.e, b->e, (size_t)b->n * sizeof b->e[0])) {
			for (int x = 0; x < l->cols; x++)
				con_cell_set(c, x, l->hint_y, h->cell[x]);
			return;
		}
	}
	struct ui_hint items[24];
	int n = ui_key_items(u, keys, items, 24);
	draw_hint(l, c, items, n, centred);
	if (!keep || !keys)
		return;
	struct hint_line *h = &hint_cache[hint_next];
	hint_next = (hint_next + 1) % HINT_CACHED;
	h->keys = keys;
	h->pal = l->pal;
	h->binds.n = b->n;
	memcpy(h->binds.e, b->e, (size_t)b->n * sizeof b->e[0]);
	h->pad = pad;
	h->centred = centred;
	h->cols = l->cols;
	for (int x = 0; x < l->cols; x++)
		h->cell[x] = *con_at(c, x, l->hint_y);
}

const char *ui_keys_line(const struct ui *u, const struct scr_key *keys, const char *sep, char *buf, size_t len)
{
	struct ui_hint items[24];
	int n = ui_key_items(u, keys, items, 24);
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? sep : "", items[i].full);
	return buf;
}

int ui_box_width(const char *const *lines, int n, const char *title, int cols)
{
	int w = title ? (int)utf8_len(title) + 4 : 4;
	for (int i = 0; i < n; i++) {
		int need = lines[i] ? (int)utf8_len(lines[i]) + 4 : 0;
		w = need > w ? need : w;
	}
	return w < cols ? w : cols;
}

void ui_draw_box(const struct ui_layout *l, struct console *c, int w, int h, const char *title, uint32_t frame,
		 uint32_t bg, int *x, int *y)
{
	ui_draw_box_clear(l, c, w, h, title, frame, bg, -1, x, y);
}

void ui_draw_box_clear(const struct ui_layout *l, struct console *c, int w, int h, const char *title, uint32_t frame,
		       uint32_t bg, int keep_y, int *x, int *y)
{
	const struct ui_palette *pal = l->pal;
	if (w > l->cols)
		w = l->cols;
	if (h > l->rows - 1)
		h = l->rows - 1;
	*x = (l->cols - w) / 2;
	*y = (l->view_h - h) / 2;
	if (keep_y >= 0 && keep_y >= *y && keep_y < *y + h) {
		/* above the row when it fits there, else below it */
		if (keep_y - h >= 0)
			*y = keep_y - h;
		else if (keep_y + 1 + h <= l->rows - 1)
			*y = keep_y + 1;
	}
	if (*y + h > l->rows - 1)
		*y = l->rows - 1 - h;
	if (*y < 0)
		*y = 0;
	con_fill(c, *x, *y, w, h, ' ', pal->text, bg);
	con_box(c, *x, *y, w, h, frame, bg, title);
}
