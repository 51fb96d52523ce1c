/* The high-score table: from the title menu, and after a game over (the
 * game just ended highlighted; Enter then starts a new one). */
#include "core/utf8.h"
#include "ui/scr.h"
#include <stdio.h>

static const struct scr_key keys[] = {
	{ .act = ACT_CONFIRM, .hint = "new game", .help = "after a game: start a new one" },
	{ .act = ACT_DO, .hint = "new game", .help = "after a game: start a new one" },
	{ .act = ACT_CANCEL, .hint = "menu", .help = "the title menu" },
	{ .act = ACT_BACK, .hint = "menu", .help = "the title menu" },
	{ .act = ACT_MOVE_W, .act2 = ACT_MOVE_E, .hint = "daily/all", .help = "the other table (daily, all)" },
	{ .act = ACT_MOVE_N, .act2 = ACT_MOVE_S, .hint = "choose", .help = "choose a game to watch" },
	{ .keys = "w", .dev = SCR_KEYBOARD, .hint = "watch", .help = "watch the chosen game" },
	{ .act = ACT_LOOK, .dev = SCR_PAD, .hint = "watch", .help = "watch the chosen game" },
	{ 0 },
};

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	(void)g;
	if (in->kind != UI_IN_KEY)
		return;
	bool pad = in->from == DEV_GAMEPAD || bind_is_pad(in->key);
	if ((!pad && in->key == 'w') || (pad && in->act == ACT_LOOK)) {
		if (u->watch >= 0 && u->watch < u->nscores && u->scores[u->watch].watchable)
			h->request(h->ctx, UI_REQ_WATCH);
		else
			snprintf(u->status, sizeof u->status, "No recording of that game is kept.");
		return;
	}
	switch (in->act) {
	case ACT_MOVE_N:
		if (u->nscores)
			u->watch = (u->watch + u->nscores - 1) % u->nscores;
		break;
	case ACT_MOVE_S:
		if (u->nscores)
			u->watch = (u->watch + 1) % u->nscores;
		break;
	case ACT_MOVE_E:
	case ACT_MOVE_W:
		/* the other table (the rank shown belongs to the one it was in) */
		u->scores_daily = !u->scores_daily;
		u->score_rank = -1;
		h->request(h->ctx, UI_REQ_SCORES);
		break;
	case ACT_CONFIRM:
	case ACT_DO:
		if (u->scores_after_death) {
			u->scores_after_death = false;
			h->request(h->ctx, UI_REQ_NEW_GAME);
		} else {
			u->screen = UI_TITLE; /* from the menu, back to it */
			u->menu_sel = 0;
		}
		break;
	case ACT_CANCEL:
	case ACT_BACK:
	case ACT_QUIT:
	case ACT_MENU:
		u->scores_after_death = false;
		u->screen = UI_TITLE;
		u->menu_sel = 0;
		break;
	default:
		break;
	}
}

/* The wide table's columns before the cause ("%2d. %6ld  %5d  %5d  %5d  %-12s  "). */
#define TABLE_W 47

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	const struct ui_palette *pal = l->pal;
	(void)g;
	const char *title = u->scores_daily ? "High scores: daily games" : "High scores";
	bool wide = l->cols >= 60;
	/* wide: a box as wide as the table (its columns and the longest
	 * cause), centred; narrow: the whole console */
	int bw = l->cols;
	if (wide) {
		int need = (int)utf8_len(title) + 6, cause = (int)utf8_len("how it ended");
		for (int i = 0; i < u->nscores; i++)
			cause = (int)utf8_len(u->scores[i].cause) > cause ? (int)utf8_len(u->scores[i].cause) : cause;
		need = 3 + TABLE_W + cause + 2 > need ? 3 + TABLE_W + cause + 2 : need;
		bw = need < l->cols ? need : l->cols;
	}
	/* as tall as its lines where they all fit (wide), centred */
	int bh = l->rows - 1, lines = u->nscores > 1 ? u->nscores : 1;
	if (wide && 2 * lines + 4 < bh)
		bh = 2 * lines + 4;
	int bx = (l->cols - bw) / 2, by = (l->rows - 1 - bh) / 2, x = bx + 3, tw = bw - 5;
	con_box(c, bx, by, bw, bh, pal->box, pal->bg, title);
	int y = by + 2;
	if (!u->nscores)
		con_print(c, x, y, pal->dim_text, pal->bg, "No game has ended yet.", tw);
	else
		con_print(c, x, y++, pal->dim_text, pal->bg,
			  wide ? "     score  depth  level  turns  name          how it ended" : "    score  D   who / how",
			  tw);
	for (int i = 0; i < u->nscores && y < by + bh - 1; i++, y += 2) {
		const struct ui_score *s = &u->scores[i];
		bool mine = i == u->score_rank;
		uint32_t fg = mine ? 0xFFFFFF : pal->text, bg = mine ? pal->select_bg : pal->bg;
		char line[160];
		if (wide) {
			snprintf(line, sizeof line, "%2d. %6ld  %5d  %5d  %5d  %-12s  %s", i + 1, s->score, s->depth, s->level,
				 s->turns, s->name[0] ? s->name : "-", s->cause);
			con_fill(c, bx + 1, y, bw - 2, 1, ' ', fg, bg);
			con_print(c, x, y, fg, bg, line, tw);
		} else {
			/* narrow: the cause wraps onto the entry's second row */
			int n = snprintf(line, sizeof line, "%2d. %6ld  %-2d  ", i + 1, s->score, s->depth);
			int w = l->cols - 5 - n;
			char who[96];
			if (s->name[0])
				snprintf(who, sizeof who, "%s, %s", s->name, s->cause);
			else
				snprintf(who, sizeof who, "%s", s->cause);
			bool two = w > 0 && con_wrapped_lines(w, who) > 1;
			con_fill(c, 1, y, l->cols - 2, two ? 2 : 1, ' ', fg, bg);
			con_print(c, 3, y, fg, bg, line, l->cols - 5);
			if (w > 0)
				con_print_wrapped(c, 3 + n, y, w, 2, fg, bg, who);
		}
		/* the line "watch" plays: marked */
		if (i == u->watch && s->watchable)
			con_put(c, bx + 1, y, 0x25B6, pal->accent, bg);
	}
	if (u->status[0]) {
		/* why "watch" did nothing: under the box, or over its foot
		 * when it fills the console (it was set and never shown) */
		int sy = by + bh < l->rows - 1 ? by + bh : by + bh - 1;
		con_fill(c, bx, sy, bw, 1, ' ', 0xFFE080, 0x302010);
		con_print_wrapped(c, bx + 1, sy, bw - 2, 1, 0xFFE080, 0x302010, u->status);
	}
	if (!u->scores_after_death) {
		/* from the menu: both keys go back */
		static const struct scr_key back[] = {
			{ .act = ACT_CANCEL, .hint = "back" },
			{ .act = ACT_BACK, .hint = "back" },
			{ .act = ACT_MOVE_W, .act2 = ACT_MOVE_E, .hint = "daily/all" },
			{ .keys = "w", .dev = SCR_KEYBOARD, .hint = "watch" },
			{ .act = ACT_LOOK, .dev = SCR_PAD, .hint = "watch" },
			{ 0 },
		};
		ui_draw_keys_hint(u, l, c, back);
	} else {
		ui_draw_keys_hint(u, l, c, keys);
	}
}

const struct scr scr_scores = { .name = "scores", .title = "High scores", .keys = keys, .input = input,
				.draw = draw };
