/* The message history: every message of the game, scrollable. */
#include "ui/scr.h"

static const struct scr_key keys[] = {
	{ .act = ACT_MOVE_N, .act2 = ACT_MOVE_S, .hint = "scroll" },
	{ .act = ACT_MOVE_N, .help = "older messages" },
	{ .act = ACT_MOVE_S, .help = "newer messages" },
	{ .act = ACT_CANCEL, .hint = "close", .keep = true, .help = "back to the map" },
	{ .act = ACT_BACK, .hint = "close", .keep = true, .help = "back to the map" },
	{ .act = ACT_HISTORY, .help = "back to the map" },
	{ .act = ACT_CONFIRM, .help = "back to the map" },
	{ 0 },
};

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	(void)h;
	if (in->kind != UI_IN_KEY)
		return;
	int total = game_msg_count(g);
	if (in->act == ACT_MOVE_N && u->history_top < total - 1)
		u->history_top++;
	else if (in->act == ACT_MOVE_S && u->history_top > 0)
		u->history_top--;
	else if (in->act == ACT_CANCEL || in->act == ACT_BACK || in->act == ACT_HISTORY || in->act == ACT_CONFIRM)
		u->screen = UI_PLAY;
}

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	con_box(c, 0, 0, l->cols, l->rows - 1, ui_pal.box, ui_pal.bg, "Message history");
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
		y += con_print_wrapped(c, 2, y, w, h + 1 - y, m->fg, ui_pal.bg, text);
	}
	ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_history = { .name = "history", .title = "Message history", .keys = keys, .needs_game = true, .input = input, .draw = draw };
