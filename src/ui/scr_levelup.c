/* The level-up screen: the player chooses what the new level brings; it
 * cannot be left without choosing. */
#include "core/utf8.h"
#include "game/content.h"
#include "ui/scr.h"
#include <stdio.h>

static const struct scr_key keys[] = {
	{ .keys = "a-c", .dev = SCR_KEYBOARD, .hint = "take", .help = "take that choice" },
	{ .act = ACT_MOVE_N, .act2 = ACT_MOVE_S, .hint = "choose", .help = "choose (or click)" },
	{ .act = ACT_CONFIRM, .hint = "take it", .help = "take the chosen one" },
	{ .act = ACT_DO, .hint = "take it", .help = "take the chosen one" },
	{ 0 },
};

#define BOX_MIN_W 32 /* the line over the choices ("You reach level 10. Choose:") and a margin */

/* The box, sized to its text: as wide as the longest choice needs (its
 * letter and margins round the label), at most the console; each choice
 * *per rows: its label's lines (two where one does not fit) and a gap. */
static void place(int cols, int rows, int *x, int *y, int *w, int *h, int *per)
{
	struct ui_layout l;
	ui_layout(cols, rows, 1, &l);
	*w = BOX_MIN_W;
	for (int i = 0; i < LEVELUP_COUNT; i++) {
		int need = (int)utf8_len(content_levelups[i].label) + 7;
		*w = need > *w ? need : *w;
	}
	*w = cols < *w ? cols : *w;
	*per = 2;
	for (int i = 0; i < LEVELUP_COUNT; i++)
		if (con_wrapped_lines(*w - 7, content_levelups[i].label) > 1)
			*per = 3;
	*h = 3 + LEVELUP_COUNT * *per + 1;
	*x = (cols - *w) / 2;
	*y = (l.view_h - *h) / 2;
	if (*y < 0)
		*y = 0;
}

static void choose(struct ui *u, struct game *g, const struct ui_host *h, int choice)
{
	struct command cmd = ui_cmd(CMD_LEVEL_UP);
	cmd.choice = choice;
	u->screen = UI_PLAY;
	ui_command(u, g, h, &cmd); /* another level still pending comes back here */
}

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	if (!game_levelup_pending(g)) {
		u->screen = UI_PLAY;
		return;
	}
	if (in->kind == UI_IN_CLICK) {
		int x, y, w, hh, per;
		place(in->cols, in->rows, &x, &y, &w, &hh, &per);
		int i = in->y - (y + 3);
		if (in->x > x && in->x < x + w - 1 && i >= 0 && i % per < per - 1 && i / per < LEVELUP_COUNT)
			choose(u, g, h, i / per);
		return;
	}
	if (in->kind != UI_IN_KEY)
		return;
	if (in->key >= 'a' && in->key < 'a' + LEVELUP_COUNT) {
		choose(u, g, h, (int)(in->key - 'a'));
		return;
	}
	switch (in->act) {
	case ACT_MOVE_N:
		u->levelup_sel = (u->levelup_sel + LEVELUP_COUNT - 1) % LEVELUP_COUNT;
		break;
	case ACT_MOVE_S:
		u->levelup_sel = (u->levelup_sel + 1) % LEVELUP_COUNT;
		break;
	case ACT_CONFIRM:
	case ACT_DO:
		choose(u, g, h, u->levelup_sel);
		break;
	default:
		/* no way out but a choice */
		snprintf(u->status, sizeof u->status, "Choose what your new level brings.");
		break;
	}
}

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	const struct ui_palette *pal = l->pal;
	ui_draw_world(u, l, g, c, false, NULL);
	struct game_stats s;
	game_stats(g, &s);
	int x, y, w, h, per;
	place(l->cols, l->rows, &x, &y, &w, &h, &per);
	con_fill(c, x, y, w, h, ' ', pal->text, pal->bg);
	con_box(c, x, y, w, h, pal->title, pal->bg, "Level up!");
	con_printf(c, x + 2, y + 1, pal->title, pal->bg, "You reach level %d. Choose:", s.level + 1);
	for (int i = 0; i < LEVELUP_COUNT; i++) {
		bool sel = i == u->levelup_sel;
		uint32_t bg = sel ? pal->select_bg : pal->bg;
		char letter[4];
		int ly = y + 3 + per * i;
		snprintf(letter, sizeof letter, "%c)", 'a' + i);
		/* the label wraps under itself, not under its letter */
		const char *label = content_levelups[i].label;
		int lines = con_wrapped_lines(w - 7, label);
		con_fill(c, x + 1, ly, w - 2, lines < 2 ? lines : 2, ' ', pal->text, bg);
		con_print(c, x + 2, ly, sel ? 0xFFFFFF : pal->text, bg, letter, -1);
		con_print_wrapped(c, x + 5, ly, w - 7, 2, sel ? 0xFFFFFF : pal->text, bg, label);
	}
	ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_levelup = { .name = "levelup", .title = "Level up", .keys = keys, .needs_game = true,
				 .input = input, .draw = draw };
