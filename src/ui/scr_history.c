/* The message history: every message of the game, scrollable. */
#include "core/utf8.h"
#include "ui/scr.h"

#define TITLE "Message history"

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
	ui_draw_world(u, l, g, c, false, NULL);
	char text[160];
	/* the box, over the map: as wide as the longest message (or its
	 * title), as tall as the messages take, at most the console above
	 * the hint line; w×h inside, a column of margin each side */
	int total = game_msg_count(g), w = (int)utf8_len(TITLE) + 4, h = 0;
	for (int i = 0; i < total; i++) {
		int n = (int)utf8_len(game_msg_format(game_msg_get(g, i), text, sizeof text));
		w = n > w ? n : w;
	}
	if (w > l->cols - 4)
		w = l->cols - 4;
	for (int i = total - 1; i >= 0 && h < l->rows - 3; i--)
		h += con_wrapped_lines(w, game_msg_format(game_msg_get(g, i), text, sizeof text));
	if (h > l->rows - 3)
		h = l->rows - 3;
	if (h < 1)
		h = 1;
	int bx, by;
	ui_draw_box(l, c, w + 4, h + 2, TITLE, ui_pal.box, ui_pal.bg, &bx, &by);
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
	int y = 0;
	for (int i = first; i <= last; i++) {
		const struct game_msg *m = game_msg_get(g, i);
		game_msg_format(m, text, sizeof text);
		y += con_print_wrapped(c, bx + 2, by + 1 + y, w, h - y, m->fg, ui_pal.bg, text);
	}
	ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_history = { .name = "history", .title = TITLE, .keys = keys, .needs_game = true, .input = input, .draw = draw };
