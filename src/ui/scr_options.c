/* The options screen: the settings a player may change from the game, one
 * row each (ui_options, below), each change shown and saved at once (the
 * app applies it and writes the state directory's settings file); and the
 * key and pad bindings, through the help screen. */
#include "ui/scr.h"
#include "core/utf8.h"
#include <stdio.h>
#include <string.h>

static const char *const attract_values[] = { "0", "30", "60", "120", "300", "600" };
static const char *const attract_shown[] = { "never", "30 seconds", "1 minute", "2 minutes", "5 minutes",
					     "10 minutes" };
static const char *const blank_values[] = { "0", "1", "5", "10", "30", "60" };
static const char *const blank_shown[] = { "never", "1 minute", "5 minutes", "10 minutes", "30 minutes",
					   "1 hour" };
static const char *const watch_values[] = { "yes", "no" };
static const char *const watch_shown[] = { "yes", "no" };
static const char *const pickup_values[] = { "potions,scrolls", "all", "potions", "scrolls", "none" };
static const char *const text_values[] = { "auto", "larger", "smaller" };
static const char *const text_shown[] = { "automatic", "larger", "smaller" };
static const char *const palette_values[] = { "default", "high-contrast" };
static const char *const palette_shown[] = { "default", "high contrast" };
static const char *const tiles_values[] = { "off", "on" };
static const char *const tiles_shown[] = { "glyphs", "pictures" };
static const char *const pickup_shown[] = { "potions and scrolls", "everything", "potions", "scrolls", "nothing" };

#define N(a) ((int)(sizeof a / sizeof a[0]))
const struct ui_option ui_options[] = {
	{ .key = "attract", .label = "Demo after", .n = N(attract_values), .values = attract_values,
	  .shown = attract_shown },
	{ .key = "blank", .label = "Screen off after", .n = N(blank_values), .values = blank_values,
	  .shown = blank_shown },
	{ .key = "watch", .label = "Others may watch", .n = N(watch_values), .values = watch_values,
	  .shown = watch_shown },
	{ .key = "auto-pickup", .label = "Explore picks up", .n = N(pickup_values), .values = pickup_values,
	  .shown = pickup_shown },
	{ .key = "palette", .label = "Colours", .n = N(palette_values), .values = palette_values,
	  .shown = palette_shown },
	{ .key = "text-size", .label = "Text size", .n = N(text_values), .values = text_values,
	  .shown = text_shown },
	{ .key = "tiles", .label = "Map look", .n = N(tiles_values), .values = tiles_values, .shown = tiles_shown },
	{ .label = "Keys and buttons", .screen = UI_HELP },
};
const int ui_option_count = N(ui_options);
_Static_assert(N(ui_options) <= UI_OPTIONS_MAX, "UI_OPTIONS_MAX holds every row");

int ui_option_find(const char *key)
{
	for (int i = 0; i < ui_option_count; i++)
		if (ui_options[i].key && !strcmp(ui_options[i].key, key))
			return i;
	return -1;
}

int ui_option_value(int row, const char *value)
{
	if (row < 0 || row >= ui_option_count)
		return -1;
	for (int i = 0; i < ui_options[row].n; i++)
		if (!strcmp(ui_options[row].values[i], value))
			return i;
	return -1;
}

static const struct scr_key keys[] = {
	{ .act = ACT_MOVE_N, .act2 = ACT_MOVE_S, .hint = "choose", .help = "choose a row (or click it)" },
	{ .act = ACT_MOVE_W, .act2 = ACT_MOVE_E, .hint = "change", .help = "change it (saved at once)" },
	{ .act = ACT_CONFIRM, .hint = "change", .help = "change it, or open the keys" },
	{ .act = ACT_DO, .hint = "change", .help = "change it, or open the keys" },
	{ .act = ACT_CANCEL, .hint = "back", .keep = true, .help = "back" },
	{ .act = ACT_BACK, .hint = "back", .keep = true, .help = "back" },
	{ .act = ACT_OPTIONS, .help = "back" },
	{ 0 },
};

#define BOX_W 46
#define LABEL_W 18

/* Where the box goes on a cols×rows console: one line a row, a line
 * above and below them, the notice line. */
static void place(int cols, int rows, int *x, int *y, int *w, int *h)
{
	struct ui_layout l;
	ui_layout(cols, rows, 1, &l);
	*w = cols < BOX_W ? cols : BOX_W;
	*h = ui_option_count + 5;
	*x = (cols - *w) / 2;
	*y = (l.view_h - *h) / 2;
	if (*y < 0)
		*y = 0;
}

/* Row sel's value one step on (step 1) or back (-1), wrapping; a value
 * that was none of the row's goes to the first (or last). Then the app
 * applies and saves it; a row that opens a screen opens it. */
static void change(struct ui *u, const struct ui_host *h, int step)
{
	const struct ui_option *o = &ui_options[u->opt_sel];
	if (!o->key) {
		if (o->screen == UI_HELP) {
			u->help_from = UI_OPTIONS;
			u->help_top = 0;
		}
		u->screen = o->screen;
		return;
	}
	int v = u->opt_val[u->opt_sel];
	if (v < 0)
		v = step > 0 ? 0 : o->n - 1;
	else
		v = (v + o->n + step) % o->n;
	u->opt_val[u->opt_sel] = v;
	u->notice[0] = 0;
	h->request(h->ctx, UI_REQ_OPTION);
}

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	(void)g;
	if (u->opt_sel < 0 || u->opt_sel >= ui_option_count)
		u->opt_sel = 0;
	if (in->kind == UI_IN_CLICK) {
		int x, y, w, hh;
		place(in->cols, in->rows, &x, &y, &w, &hh);
		int i = in->y - (y + 2);
		if (in->x > x && in->x < x + w - 1 && i >= 0 && i < ui_option_count) {
			u->opt_sel = i;
			change(u, h, 1);
		}
		return;
	}
	if (in->kind != UI_IN_KEY)
		return;
	switch (in->act) {
	case ACT_MOVE_N:
		u->opt_sel = (u->opt_sel + ui_option_count - 1) % ui_option_count;
		break;
	case ACT_MOVE_S:
		u->opt_sel = (u->opt_sel + 1) % ui_option_count;
		break;
	case ACT_MOVE_E:
	case ACT_CONFIRM:
	case ACT_DO:
		change(u, h, 1);
		break;
	case ACT_MOVE_W:
		change(u, h, -1);
		break;
	case ACT_CANCEL:
	case ACT_BACK:
	case ACT_MENU:
	case ACT_OPTIONS:
	case ACT_QUIT:
		u->notice[0] = 0;
		u->screen = u->opt_from == UI_PLAY && g ? UI_PLAY : UI_TITLE;
		break;
	default:
		break;
	}
}

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	const struct ui_palette *pal = l->pal;
	if (u->opt_from == UI_PLAY && g)
		ui_draw_world(u, l, g, c, false, NULL);
	int x, y, w, h;
	place(l->cols, l->rows, &x, &y, &w, &h);
	con_fill(c, x, y, w, h, ' ', pal->text, pal->bg);
	con_box(c, x, y, w, h, pal->title, pal->bg, "Options");
	/* A box narrower than BOX_W (a 40-column console: 320x240) keeps its
	 * values whole: one column of margin, the labels' column as wide as
	 * the longest, and the arrows tight against a value that does not fit
	 * with spaces ("Explore picks up" showed "◄ potions and scr"); a
	 * value longer still (a file's name) is cut, its arrow kept */
	int pad = 2, lw = LABEL_W;
	if (w < BOX_W) {
		pad = 1;
		lw = 0;
		for (int i = 0; i < ui_option_count; i++) {
			int n = (int)utf8_len(ui_options[i].label);
			lw = n > lw ? n : lw;
		}
	}
	int vx = x + pad + lw + 1, room = x + w - pad - vx;
	for (int i = 0; i < ui_option_count; i++) {
		const struct ui_option *o = &ui_options[i];
		bool sel = i == u->opt_sel;
		uint32_t fg = sel ? 0xFFFFFF : pal->text, bg = sel ? pal->select_bg : pal->bg;
		int ly = y + 2 + i;
		con_fill(c, x + 1, ly, w - 2, 1, ' ', fg, bg);
		con_print(c, x + pad, ly, fg, bg, o->label, lw);
		uint32_t vfg = sel ? 0xFFFFFF : pal->accent;
		if (!o->key) {
			con_print(c, vx, ly, vfg, bg, "\xe2\x96\xba", room);
			continue;
		}
		const char *name = u->opt_val[i] >= 0 && u->opt_val[i] < o->n ? o->shown[u->opt_val[i]] : u->opt_other[i];
		bool tight = (int)utf8_len(name) + 4 > room;
		int at = vx + con_print(c, vx, ly, vfg, bg, tight ? "\xe2\x97\x84" : "\xe2\x97\x84 ", room);
		int left = vx + room - 1 - at; /* cut only where nothing else fits (0: nothing; < 0 means no limit) */
		at += con_print(c, at, ly, vfg, bg, name, left > 0 ? left : 0);
		left = vx + room - at;
		con_print(c, at, ly, vfg, bg, tight ? "\xe2\x96\xba" : " \xe2\x96\xba", left > 0 ? left : 0);
	}
	if (u->notice[0])
		con_print_wrapped(c, x + 2, y + h - 2, w - 4, 1, 0xFF8060, pal->bg, u->notice);
	else
		con_print(c, x + 2, y + h - 2, pal->dim_text, pal->bg, "Changes are saved at once.", w - 4);
	ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_options = { .name = "options", .title = "Options", .keys = keys, .input = input, .draw = draw };
