/* The game-over screen: the player died; a new game or the title. */
#include "ui/scr.h"

static const struct scr_key keys[] = {
	{ .act = ACT_CONFIRM, .hint = "new game", .help = "start a new game" },
	{ .act = ACT_DO, .hint = "new game", .help = "start a new game" },
	{ .act = ACT_CANCEL, .hint = "menu", .help = "the title menu" },
	{ .act = ACT_BACK, .hint = "menu", .help = "the title menu" },
	{ .act = ACT_QUIT, .help = "the title menu" },
	{ .act = ACT_MENU, .help = "the title menu" },
	{ 0 },
};

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	(void)g;
	if (in->kind != UI_IN_KEY)
		return;
	if (in->act == ACT_CONFIRM || in->act == ACT_DO) {
		h->request(h->ctx, UI_REQ_NEW_GAME);
	} else if (in->act == ACT_CANCEL || in->act == ACT_BACK || in->act == ACT_QUIT || in->act == ACT_MENU) {
		u->screen = UI_TITLE;
		u->menu_sel = 0;
	}
}

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	ui_draw_world(u, l, g, c, false);
	struct game_stats s;
	game_stats(g, &s);
	int w = l->cols < 36 ? l->cols : 36, h = 9;
	int x = (l->cols - w) / 2, y = (l->view_h - h) / 2;
	if (y < 0)
		y = 0;
	con_fill(c, x, y, w, h, ' ', ui_pal.text, 0x200000);
	con_box(c, x, y, w, h, 0xFF4040, 0x200000, "You died");
	con_printf(c, x + 2, y + 2, ui_pal.text, 0x200000, "Killed on dungeon level %d", s.depth);
	con_printf(c, x + 2, y + 3, ui_pal.text, 0x200000, "after %d turns, level %d", s.turn, s.level);
	con_printf(c, x + 2, y + 4, ui_pal.text, 0x200000, "with %d experience.", s.xp);
	char line[128];
	con_print(c, x + 2, y + 6, 0xFFFFFF, 0x200000, ui_keys_line(u, keys, "   ", line, sizeof line), w - 4);
	ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_gameover = { .name = "gameover", .title = "Game over", .keys = keys, .needs_game = true, .input = input, .draw = draw };
