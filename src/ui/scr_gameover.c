/* The game-over screen: the player died; a new game or the title. */
#include "ui/scr.h"
#include <stdio.h>

static const struct scr_key keys[] = {
	{ .act = ACT_CONFIRM, .hint = "scores", .help = "high scores, then a new game" },
	{ .act = ACT_DO, .hint = "scores", .help = "high scores, then a new game" },
	{ .act = ACT_CANCEL, .hint = "menu", .keep = true, .help = "the title menu" },
	{ .act = ACT_BACK, .hint = "menu", .keep = true, .help = "the title menu" },
	{ .act = ACT_QUIT, .help = "the title menu" },
	{ .act = ACT_MENU, .help = "the title menu" },
	{ 0 },
};

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	(void)g;
	if (in->kind != UI_IN_KEY)
		return;
	if ((in->act == ACT_CONFIRM || in->act == ACT_DO) && u->name_pending) {
		u->screen = UI_NAME; /* a new high score: who played? */
	} else if (in->act == ACT_CONFIRM || in->act == ACT_DO) {
		u->scores_after_death = true;
		h->request(h->ctx, UI_REQ_SCORES);
	} else if (in->act == ACT_CANCEL || in->act == ACT_BACK || in->act == ACT_QUIT || in->act == ACT_MENU) {
		u->screen = UI_TITLE;
		u->menu_sel = 0;
	}
}

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	const struct ui_palette *pal = l->pal;
	ui_draw_world(u, l, g, c, false, NULL);
	struct game_stats s;
	game_stats(g, &s);
	int x, y, px, py, cam_x, cam_y;
	const uint32_t bg = 0x200000;
	char cause[64];
	snprintf(cause, sizeof cause, "%s.", game_death_cause(g)[0] ? game_death_cause(g) : "dead");
	if (cause[0] >= 'a' && cause[0] <= 'z')
		cause[0] = (char)(cause[0] - 'a' + 'A');
	char line[128], more[64], hint[128];
	int n = snprintf(line, sizeof line, "On dungeon level %d after %d turns,", s.depth, s.turn);
	int m = snprintf(more, sizeof more, "at level %d with %d experience.", s.level, s.xp);
	const char *text[] = { cause, line, more, ui_keys_line(u, keys, "   ", hint, sizeof hint) };
	/* the box sized to its text (it was a fixed 40) */
	int w = ui_box_width(text, 4, "You died", l->cols);
	/* the box leaves the row of the player's remains (and the killer
	 * beside them) in view */
	game_player_pos(g, &px, &py);
	ui_camera(l, game_map(g)->w, game_map(g)->h, px, py, &cam_x, &cam_y);
	ui_draw_box_clear(l, c, w, 10, "You died", 0xFF4040, bg, py - cam_y + l->view_y, &x, &y);
	con_print(c, x + 2, y + 2, 0xFFFFFF, bg, cause, w - 4);
	/* a column of padding on both sides: the text never touches the frame */
	if (n <= w - 4 && m <= w - 4) {
		con_print(c, x + 2, y + 4, pal->text, bg, line, w - 4);
		con_print(c, x + 2, y + 5, pal->text, bg, more, w - 4);
	} else {
		/* a narrow console: one sentence wrapped inside the box (3 rows) */
		snprintf(line + n, sizeof line - (size_t)n, " %s", more);
		con_print_wrapped(c, x + 2, y + 4, w - 4, 3, pal->text, bg, line);
	}
	con_print(c, x + 2, y + 7, 0xFFFFFF, bg, text[3], w - 4);
	ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_gameover = { .name = "gameover", .title = "Game over", .keys = keys, .needs_game = true, .input = input, .draw = draw };
