/* The inventory screens: choose an item to use (UI_INVENTORY) or to drop
 * (UI_DROP) by its letter, the arrows or d-pad and Enter or A, or a click;
 * of a stack, drop one or all (UI_DROP_COUNT). */
#include "core/utf8.h"
#include "ui/scr.h"
#include <stdio.h>
#include <string.h>

#define SLOTS 26

static const struct scr_key use_keys[] = {
	{ .keys = "a-z", .dev = SCR_KEYBOARD, .hint = "use", .keep = true, .help = "use the item with that letter" },
	{ .act = ACT_MOVE_N, .act2 = ACT_MOVE_S, .hint = "choose", .help = "choose an item (or click it)" },
	{ .act = ACT_CONFIRM, .hint = "use", .help = "use the chosen item" },
	{ .act = ACT_DO, .hint = "use", .help = "use the chosen item" },
	{ .act = ACT_CANCEL, .hint = "close", .keep = true, .help = "back to the map" },
	{ .act = ACT_BACK, .hint = "close", .keep = true, .help = "back to the map" },
	{ .act = ACT_INVENTORY, .help = "back to the map" },
	{ .act = ACT_DROP, .help = "drop instead" },
	{ .act = ACT_LOOK, .dev = SCR_PAD, .hint = "drop", .help = "drop instead" },
	{ 0 },
};

static const struct scr_key drop_keys[] = {
	{ .keys = "a-z", .dev = SCR_KEYBOARD, .hint = "drop", .keep = true, .help = "drop the item with that letter" },
	{ .act = ACT_MOVE_N, .act2 = ACT_MOVE_S, .hint = "choose", .help = "choose an item (or click it)" },
	{ .act = ACT_CONFIRM, .hint = "drop", .help = "drop the chosen item" },
	{ .act = ACT_DO, .hint = "drop", .help = "drop the chosen item" },
	{ .act = ACT_CANCEL, .hint = "close", .keep = true, .help = "back to the map" },
	{ .act = ACT_BACK, .hint = "close", .keep = true, .help = "back to the map" },
	{ .act = ACT_DROP, .help = "back to the map" },
	{ .act = ACT_INVENTORY, .help = "use instead" },
	{ .act = ACT_LOOK, .dev = SCR_PAD, .hint = "use", .help = "use instead" },
	{ 0 },
};

/* Where the list goes: the box and the lines shown (it scrolls on short
 * consoles to keep the chosen line in view). */
struct box {
	int x, y, w, h;
	int first, shown; /* first item shown, how many */
};

#define EMPTY_TEXT "Your inventory is empty."

/* The box for the n items it[] of the list titled title on a cols×rows
 * console: as wide as its longest line (letter, glyph, name, a margin), its
 * title or the empty message needs, at most the console; as tall as the
 * items, at most the rows above the hint line. */
static void place(const struct ui *u, int cols, int rows, const struct game_item_view *it, int n, const char *title,
		  struct box *b)
{
	struct ui_layout l;
	ui_layout(cols, rows, ui_map_cw(u), &l);
	int w = (int)utf8_len(title) + 8;
	if (!n && w < (int)utf8_len(EMPTY_TEXT) + 4)
		w = (int)utf8_len(EMPTY_TEXT) + 4;
	for (int i = 0; i < n; i++) {
		int iw = 7 + (int)utf8_len(it[i].label) + (it[i].equipped ? 4 : 0) + 2;
		if (iw > w)
			w = iw;
	}
	b->w = w < cols ? w : cols;
	int room = l.rows - 1 - 2;       /* inside a box as tall as the console allows */
	b->shown = n < room ? n : room;
	b->h = (n ? b->shown : 1) + 2;
	b->x = (cols - b->w) / 2;
	b->y = (l.view_h - b->h) / 2;
	if (b->y < 0)
		b->y = 0;
	if (b->y + b->h > rows - 1)
		b->y = rows - 1 - b->h;
	b->first = 0;
	if (b->shown > 0 && u->inv_sel >= b->shown)
		b->first = u->inv_sel - b->shown + 1;
}

static const char *list_title(bool drop)
{
	return drop ? "Drop which item?" : "Use which item?";
}

/* Uses or drops item i of the list. */
static void choose(struct ui *u, struct game *g, const struct ui_host *h, const struct game_item_view *it, bool drop)
{
	u->screen = UI_PLAY;
	struct command cmd = ui_cmd(drop ? CMD_DROP : CMD_USE);
	cmd.item = it->slot;
	if (drop && it->count > 1) {
		/* a stack: one or all? */
		u->drop_slot = it->slot;
		u->drop_sel = 0;
		u->screen = UI_DROP_COUNT;
		return;
	}
	if (!drop && it->target != TARGET_NONE) {
		/* a scroll aimed at a monster or a cell: the targeting screen,
		 * the cursor on the nearest visible monster, else the player */
		u->target_slot = it->slot;
		if (game_nearest_monster(g, &u->look_x, &u->look_y))
			game_player_pos(g, &u->look_x, &u->look_y);
		u->screen = UI_TARGET;
		return;
	}
	ui_command(u, g, h, &cmd);
}

static void list_input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in, bool drop)
{
	struct game_item_view it[SLOTS];
	int n = game_inventory(g, it, SLOTS);
	if (u->inv_sel >= n)
		u->inv_sel = n ? n - 1 : 0;
	if (in->kind == UI_IN_CLICK) {
		struct box b;
		place(u, in->cols, in->rows, it, n, list_title(drop), &b);
		int i = b.first + in->y - (b.y + 1);
		if (in->x > b.x && in->x < b.x + b.w - 1 && in->y > b.y && i >= b.first && i < b.first + b.shown && i < n)
			choose(u, g, h, &it[i], drop);
		return;
	}
	if (in->kind != UI_IN_KEY)
		return;
	/* a letter chooses its item; a letter with no item means its action */
	if (in->key >= 'a' && in->key <= 'z') {
		for (int i = 0; i < n; i++) {
			if (it[i].slot == (int)(in->key - 'a')) {
				choose(u, g, h, &it[i], drop);
				return;
			}
		}
	}
	switch (in->act) {
	case ACT_MOVE_N:
		if (n)
			u->inv_sel = (u->inv_sel + n - 1) % n;
		break;
	case ACT_MOVE_S:
		if (n)
			u->inv_sel = (u->inv_sel + 1) % n;
		break;
	case ACT_CONFIRM:
	case ACT_DO:
		if (n)
			choose(u, g, h, &it[u->inv_sel], drop);
		else
			u->screen = UI_PLAY;
		break;
	case ACT_CANCEL:
	case ACT_BACK:
	case ACT_MENU:
		u->screen = UI_PLAY;
		break;
	case ACT_INVENTORY:
	case ACT_DROP:
		/* the key that opened it closes it; the other one switches */
		u->screen = (in->act == ACT_DROP) == drop ? UI_PLAY : in->act == ACT_DROP ? UI_DROP : UI_INVENTORY;
		break;
	case ACT_LOOK:
		/* a gamepad has no drop button: Y switches between use and drop */
		if (in->from == DEV_GAMEPAD || bind_is_pad(in->key))
			u->screen = drop ? UI_INVENTORY : UI_DROP;
		break;
	default:
		/* a letter of no item that means nothing here: say so */
		if (in->key >= 'a' && in->key <= 'z')
			snprintf(u->status, sizeof u->status, "You have no item %c.", (char)in->key);
		break;
	}
}

static void draw_list(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c,
		      bool drop)
{
	const struct ui_palette *pal = l->pal;
	ui_draw_world(u, l, g, c, false, NULL);
	struct game_item_view it[SLOTS];
	int n = game_inventory(g, it, SLOTS);
	struct box b;
	place(u, l->cols, l->rows, it, n, list_title(drop), &b);
	con_fill(c, b.x, b.y, b.w, b.h, ' ', pal->text, pal->bg);
	con_box(c, b.x, b.y, b.w, b.h, pal->box, pal->bg, list_title(drop));
	if (!n)
		con_print(c, b.x + 2, b.y + 1, pal->dim_text, pal->bg, EMPTY_TEXT, b.w - 4);
	for (int k = 0; k < b.shown; k++) {
		int i = b.first + k, y = b.y + 1 + k;
		bool sel = i == u->inv_sel;
		uint32_t bg = sel ? pal->select_bg : pal->bg;
		con_fill(c, b.x + 1, y, b.w - 2, 1, ' ', pal->text, bg);
		char line[64];
		snprintf(line, sizeof line, "%c)", 'a' + it[i].slot);
		con_print(c, b.x + 2, y, sel ? 0xFFFFFF : pal->text, bg, line, -1);
		con_put(c, b.x + 5, y, it[i].glyph, it[i].fg, bg);
		snprintf(line, sizeof line, "%s%s", it[i].label, it[i].equipped ? " (E)" : "");
		con_print(c, b.x + 7, y, sel ? 0xFFFFFF : pal->text, bg, line, b.w - 8);
	}
	if (b.first > 0)
		con_put(c, b.x + b.w - 2, b.y, 0x2191, pal->accent, pal->bg);
	if (b.first + b.shown < n)
		con_put(c, b.x + b.w - 2, b.y + b.h - 1, 0x2193, pal->accent, pal->bg);
	ui_draw_keys_hint(u, l, c, drop ? drop_keys : use_keys);
}

static void use_input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	list_input(u, g, h, in, false);
}

static void use_draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	draw_list(u, l, g, c, false);
}

static void drop_input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	list_input(u, g, h, in, true);
}

static void drop_draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	draw_list(u, l, g, c, true);
}

/* ---- drop one or all of a stack ---- */

static const struct scr_key count_keys[] = {
	{ .keys = "1", .dev = SCR_KEYBOARD, .hint = "one", .keep = true, .help = "drop one of the stack" },
	{ .keys = "a", .dev = SCR_KEYBOARD, .hint = "all", .keep = true, .help = "drop the whole stack" },
	{ .act = ACT_MOVE_N, .act2 = ACT_MOVE_S, .hint = "choose", .help = "choose one or all" },
	{ .act = ACT_CONFIRM, .hint = "drop", .help = "drop as chosen" },
	{ .act = ACT_DO, .hint = "drop", .help = "drop as chosen" },
	{ .act = ACT_CANCEL, .hint = "back", .keep = true, .help = "back to the list" },
	{ .act = ACT_BACK, .hint = "back", .keep = true, .help = "back to the list" },
	{ 0 },
};

/* The stack being dropped, false when it is gone. */
static bool count_item(const struct ui *u, const struct game *g, struct game_item_view *out)
{
	struct game_item_view it[SLOTS];
	int n = game_inventory(g, it, SLOTS);
	for (int i = 0; i < n; i++) {
		if (it[i].slot == u->drop_slot) {
			*out = it[i];
			return true;
		}
	}
	return false;
}

/* The box of the question on a cols x rows console: COUNT_W x 4 at (x, y),
 * the lines "one" and "all" on its rows y + 1 and y + 2. */
#define COUNT_W 30
static void count_box(const struct ui *u, int cols, int rows, int *x, int *y)
{
	struct ui_layout l;
	ui_layout(cols, rows, ui_map_cw(u), &l);
	*x = (cols - COUNT_W) / 2;
	*y = (l.view_h - 4) / 2;
	if (*y < 0)
		*y = 0;
}

static void count_drop(struct ui *u, struct game *g, const struct ui_host *h, bool all)
{
	struct command cmd = ui_cmd(CMD_DROP);
	cmd.item = u->drop_slot;
	cmd.choice = all ? GAME_DROP_ALL : -1;
	u->screen = UI_PLAY;
	ui_command(u, g, h, &cmd);
}

static void count_input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	struct game_item_view it;
	if (!count_item(u, g, &it)) {
		u->screen = UI_DROP;
		return;
	}
	if (in->kind == UI_IN_CLICK) {
		int x, y;
		count_box(u, in->cols, in->rows, &x, &y);
		if (in->x > x && in->x < x + COUNT_W - 1 && (in->y == y + 1 || in->y == y + 2))
			count_drop(u, g, h, in->y == y + 2);
		return;
	}
	if (in->kind != UI_IN_KEY)
		return;
	if (in->key == '1' || in->key == 'o') {
		count_drop(u, g, h, false);
		return;
	}
	if (in->key == 'a') {
		count_drop(u, g, h, true);
		return;
	}
	switch (in->act) {
	case ACT_MOVE_N:
	case ACT_MOVE_S:
		u->drop_sel = !u->drop_sel;
		break;
	case ACT_CONFIRM:
	case ACT_DO:
		count_drop(u, g, h, u->drop_sel == 1);
		break;
	case ACT_CANCEL:
	case ACT_BACK:
	case ACT_MENU:
		u->screen = UI_DROP;
		break;
	default:
		break;
	}
}

static void count_draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	const struct ui_palette *pal = l->pal;
	ui_draw_world(u, l, g, c, false, NULL);
	struct game_item_view it;
	if (!count_item(u, g, &it))
		return;
	int w = COUNT_W, x, y;
	count_box(u, l->cols, l->rows, &x, &y);
	con_fill(c, x, y, w, 4, ' ', pal->text, pal->bg);
	con_box(c, x, y, w, 4, pal->box, pal->bg, "Drop how many?");
	char line[64];
	for (int k = 0; k < 2; k++) {
		bool sel = k == u->drop_sel;
		uint32_t bg = sel ? pal->select_bg : pal->bg;
		con_fill(c, x + 1, y + 1 + k, w - 2, 1, ' ', pal->text, bg);
		if (k == 0)
			snprintf(line, sizeof line, "1) one %s", it.name);
		else
			snprintf(line, sizeof line, "a) all %s", it.label);
		con_print(c, x + 2, y + 1 + k, sel ? 0xFFFFFF : pal->text, bg, line, w - 4);
	}
	ui_draw_keys_hint(u, l, c, count_keys);
}

const struct scr scr_inventory = { .name = "inventory", .title = "Inventory (use)", .keys = use_keys,
				   .needs_game = true, .input = use_input, .draw = use_draw };
const struct scr scr_drop = { .name = "drop", .title = "Drop", .keys = drop_keys,
			      .needs_game = true, .input = drop_input, .draw = drop_draw };
const struct scr scr_drop_count = { .name = "drop-count", .title = "Drop one or all", .keys = count_keys,
				    .needs_game = true, .input = count_input, .draw = count_draw };
