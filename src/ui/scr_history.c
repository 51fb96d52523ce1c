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

/* The box's inside, w×h cells of text: as wide as the longest message (or
 * the title), as tall as the messages take, at most the console above the
 * hint line. */
static void box_size(const struct ui_layout *l, const struct game *g, int *w, int *h)
{
	char text[160];
	int total = game_msg_count(g);
	*w = (int)utf8_len(TITLE) + 4;
	*h = 0;
	for (int i = 0; i < total; i++) {
		int n = (int)utf8_len(game_msg_format(game_msg_get(g, i), text, sizeof text));
		*w = n > *w ? n : *w;
	}
	if (*w > l->cols - 4)
		*w = l->cols - 4;
	for (int i = total - 1; i >= 0 && *h < l->rows - 3; i--)
		*h += con_wrapped_lines(*w, game_msg_format(game_msg_get(g, i), text, sizeof text));
	if (*h > l->rows - 3)
		*h = l->rows - 3;
	if (*h < 1)
		*h = 1;
}

/* The most newest messages that can be left out with the older ones still
 * filling the w×h box: where scrolling up stops, the oldest message on the
 * top line. */
static int max_top(const struct game *g, int w, int h)
{
	char text[160];
	/* the oldest messages that fit, from the first: the newest of them is
	 * the last one shown at the top */
	int lines = 0, last = 0;
	for (; last < game_msg_count(g); last++) {
		int need = con_wrapped_lines(w, game_msg_format(game_msg_get(g, last), text, sizeof text));
		if (lines + need > h)
			break;
		lines += need;
	}
	int top = game_msg_count(g) - last;
	return top > 0 ? top : 0;
}

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	(void)h;
	if (in->kind != UI_IN_KEY)
		return;
	struct ui_layout l;
	int bw, bh;
	ui_layout(in->cols, in->rows, ui_map_cw(u), &l);
	box_size(&l, g, &bw, &bh);
	int most = max_top(g, bw, bh);
	if (u->history_top > most)
		u->history_top = most; /* a smaller console since */
	if (in->act == ACT_MOVE_N && u->history_top < most)
		u->history_top++;
	else if (in->act == ACT_MOVE_S && u->history_top > 0)
		u->history_top--;
	else if (in->act == ACT_CANCEL || in->act == ACT_BACK || in->act == ACT_HISTORY || in->act == ACT_CONFIRM)
		u->screen = UI_PLAY;
}

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	const struct ui_palette *pal = l->pal;
	ui_draw_world(u, l, g, c, false, NULL);
	char text[160];
	/* the box, over the map, w×h inside, a column of margin each side */
	int w, h;
	box_size(l, g, &w, &h);
	int top = u->history_top, most = max_top(g, w, h);
	top = top > most ? most : top;
	int bx, by;
	ui_draw_box(l, c, w + 4, h + 2, TITLE, pal->box, pal->bg, &bx, &by);
	/* the newest messages (less history_top) that fit, drawn oldest first
	 * from the top of the box */
	int last = game_msg_count(g) - 1 - top, first = last + 1, used = 0;
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
		y += con_print_wrapped(c, bx + 2, by + 1 + y, w, h - y, m->fg, pal->bg, text);
	}
	ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_history = { .name = "history", .title = TITLE, .keys = keys, .needs_game = true, .input = input, .draw = draw };
