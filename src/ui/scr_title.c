/* The title screen: the pirogue, the name, the menu (Continue, New game, High scores, Options, Help, Quit). */
#include "core/utf8.h"
#include "ui/scr.h"
#include <stdio.h>

/* A line of the title's picture and its colour. */
struct art_line {
	const char *text;
	uint32_t fg;
};

/* A pirogue (a dugout canoe) on the water, its paddler an @. */
static const struct art_line title_art[] = {
	{ "            @            ", 0xF0F0F0 },
	{ "           /|\\           ", 0xC8A060 },
	{ "  \xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84/\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84  ", 0xA06030 },
	{ "   \xe2\x96\x80\xe2\x96\x80\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x80\xe2\x96\x80    ", 0x804820 },
	{ "\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91", 0x3060C0 },
};

/* The same twice as large, by whole text cells (each cell of the art above
 * two columns and two rows), for a console with room for it: the blocks'
 * halves become whole cells, the paddler and his paddle strokes of two. */
static const struct art_line title_art2[] = {
	{ "                        \xe2\x96\x84\xe2\x96\x84                        ", 0xF0F0F0 },
	{ "                        \xe2\x96\x80\xe2\x96\x80                        ", 0xF0F0F0 },
	{ "                       /\xe2\x96\x88\xe2\x96\x88\\                       ", 0xC8A060 },
	{ "                      / \xe2\x96\x88\xe2\x96\x88 \\                      ", 0xC8A060 },
	{ "  \xe2\x96\x84\xe2\x96\x84                 /                        \xe2\x96\x84\xe2\x96\x84  ", 0xA06030 },
	{ "  \xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88/\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88  ", 0xA06030 },
	{ "    \xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88    ", 0x804820 },
	{ "       \xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80       ", 0x804820 },
	{ "\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91", 0x3060C0 },
	{ "\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91\xe2\x96\x92\xe2\x96\x92\xe2\x96\x91", 0x3060C0 },
};
#define ART2_W 50 /* the columns of title_art2 */

/* "PIROGUE" in block letters of square pixels (half cells), as wide as
 * the large boat, under it. */
static const char *const title_name2[] = {
	"\xe2\x96\x88\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x84  \xe2\x96\x80\xe2\x96\x80\xe2\x96\x88\xe2\x96\x80\xe2\x96\x80  \xe2\x96\x88\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x84  \xe2\x96\x84\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x84  \xe2\x96\x84\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80  \xe2\x96\x88   \xe2\x96\x88  \xe2\x96\x88\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80",
	"\xe2\x96\x88\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x80    \xe2\x96\x88    \xe2\x96\x88\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x80  \xe2\x96\x88   \xe2\x96\x88  \xe2\x96\x88 \xe2\x96\x84\xe2\x96\x84\xe2\x96\x84  \xe2\x96\x88   \xe2\x96\x88  \xe2\x96\x88\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80 ",
	"\xe2\x96\x88      \xe2\x96\x84\xe2\x96\x84\xe2\x96\x88\xe2\x96\x84\xe2\x96\x84  \xe2\x96\x88  \xe2\x96\x80\xe2\x96\x84  \xe2\x96\x80\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x80  \xe2\x96\x80\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x80  \xe2\x96\x80\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x80  \xe2\x96\x88\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84\xe2\x96\x84",
};

static const struct scr_key keys[] = {
	{ .act = ACT_MOVE_N, .act2 = ACT_MOVE_S, .hint = "choose", .help = "choose an entry" },
	{ .act = ACT_CONFIRM, .hint = "select", .help = "select it" },
	{ .act = ACT_DO, .hint = "select", .help = "select it" },
	{ .act = ACT_CANCEL, .hint = "quit", .keep = true, .help = "quit pirogue" },
	{ .act = ACT_BACK, .hint = "back", .keep = true, .help = "quit pirogue" },
	{ .act = ACT_QUIT, .help = "quit pirogue" },
	{ 0 },
};

static const char *menu_label(enum ui_menu_item it)
{
	switch (it) {
	case MENU_CONTINUE: return "Continue";
	case MENU_NEW_GAME: return "New game";
	case MENU_DAILY: return "Daily";
	case MENU_SCORES: return "High scores";
	case MENU_OPTIONS: return "Options";
	case MENU_HELP: return "Help";
	case MENU_QUIT: return "Quit";
	default: return "?";
	}
}

/* The question on the notice line, ending with the yes key as bound for
 * the device used last. */
static void ask(struct ui *u, const char *question)
{
	static const struct scr_key yes[2] = { { .act = ACT_CONFIRM, .act2 = ACT_DO } };
	char k[48];
	if (!ui_key_text(u, &yes[0], ui_pad(u), k, sizeof k))
		snprintf(k, sizeof k, "%s", ui_pad(u) ? "A" : "Enter");
	snprintf(u->notice, sizeof u->notice, "%s %s: yes, any other key: no", question, k);
}

/* Quit: at once, or in kiosk mode after a confirmation (the game then
 * restarts: its service brings it back). */
static void quit(struct ui *u, const struct ui_host *h)
{
	if (!u->kiosk) {
		h->request(h->ctx, UI_REQ_QUIT);
		return;
	}
	u->confirm_quit = true;
	ask(u, "Quit and restart the game?");
}

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	(void)g;
	if (in->kind != UI_IN_KEY)
		return;
	if (u->confirm_quit || u->confirm_new || u->confirm_daily) {
		/* only a second, deliberate yes quits (kiosk: and so restarts)
		 * or gives up the game in progress for a new one */
		enum ui_request r = u->confirm_quit ? UI_REQ_QUIT : u->confirm_daily ? UI_REQ_DAILY : UI_REQ_NEW_GAME;
		u->confirm_quit = u->confirm_new = u->confirm_daily = false;
		u->notice[0] = 0;
		if (in->act == ACT_CONFIRM || in->act == ACT_DO)
			h->request(h->ctx, r);
		return;
	}
	enum ui_menu_item items[MENU_COUNT];
	int n = ui_menu_items(u, items);
	if (u->menu_sel >= n)
		u->menu_sel = n - 1;
	switch (in->act) {
	case ACT_MOVE_N:
		u->menu_sel = (u->menu_sel + n - 1) % n;
		break;
	case ACT_MOVE_S:
		u->menu_sel = (u->menu_sel + 1) % n;
		break;
	case ACT_CONFIRM:
	case ACT_DO:
		u->notice[0] = 0;
		switch (items[u->menu_sel]) {
		case MENU_CONTINUE:
			h->request(h->ctx, UI_REQ_CONTINUE);
			break;
		case MENU_NEW_GAME:
			/* the game in progress would be replaced at the new
			 * one's first save: one key too many must not lose it */
			if (u->can_continue) {
				u->confirm_new = true;
				ask(u, "New game? The saved game will be lost.");
			} else {
				h->request(h->ctx, UI_REQ_NEW_GAME);
			}
			break;
		case MENU_DAILY:
			if (u->can_continue) {
				u->confirm_daily = true;
				ask(u, "Today's daily game? The saved game will be lost.");
			} else {
				h->request(h->ctx, UI_REQ_DAILY);
			}
			break;
		case MENU_SCORES:
			u->scores_after_death = false;
			u->scores_daily = false;
			u->score_rank = -1;
			h->request(h->ctx, UI_REQ_SCORES);
			break;
		case MENU_OPTIONS:
			u->opt_from = UI_TITLE;
			u->opt_sel = 0;
			u->screen = UI_OPTIONS;
			break;
		case MENU_HELP:
			u->help_from = UI_TITLE;
			u->help_top = 0;
			u->screen = UI_HELP;
			break;
		default:
			quit(u, h);
			break;
		}
		break;
	case ACT_CANCEL:
	case ACT_QUIT:
	case ACT_BACK:
		quit(u, h);
		break;
	default:
		break;
	}
}

#define LEN(a) ((int)(sizeof a / sizeof a[0]))

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	const struct ui_palette *pal = l->pal;
	(void)g;
	enum ui_menu_item items[MENU_COUNT];
	int n = ui_menu_items(u, items);
	/* the boat and the name twice as large where the console has room
	 * for them above the notice lines (c->h - 4 on) and the hint line (a
	 * large screen's console: not a small block in the middle of it); the
	 * menu's entries a row apart where two do not fit (80x24) */
	int big_h = LEN(title_art2) + 1 + LEN(title_name2) + 1 + 2 + (n - 1) + 1;
	bool big = c->w >= ART2_W + 2 && big_h <= c->h - 5;
	const struct art_line *art = big ? title_art2 : title_art;
	int art_h = big ? LEN(title_art2) : LEN(title_art), name_h = big ? LEN(title_name2) : 1;
	int gap = big ? 1 : 0; /* between the block letters and the line under them */
	int step = 2, h = art_h + 1 + name_h + gap + 2 + (n - 1) * step + 1;
	if (h > c->h - 5) {
		step = 1;
		h -= n - 1;
	}
	int y = (c->h - 4 - h) / 2;
	if (y < 1)
		y = 1;
	for (int i = 0; i < art_h; i++)
		ui_center_text(c, y + i, art[i].fg, pal->bg, art[i].text);
	y += art_h + 1;
	for (int i = 0; i < name_h; i++)
		ui_center_text(c, y + i, pal->title, pal->bg, big ? title_name2[i] : "P I R O G U E");
	y += name_h + gap;
	ui_center_text(c, y, pal->dim_text, pal->bg, "a roguelike for the bare console");
	y += 2;
	for (int i = 0; i < n; i++) {
		bool sel = i == u->menu_sel;
		char line[32];
		snprintf(line, sizeof line, "%s %-11s", sel ? "\xe2\x96\xba" : " ", menu_label(items[i]));
		int x = (c->w - 13) / 2;
		con_print(c, x, y + i * step, sel ? 0xFFFFFF : pal->text, sel ? pal->select_bg : pal->bg, line, -1);
	}
	if (u->notice[0])
		con_print_wrapped(c, 1, c->h - 4, c->w - 2, 2, 0xFF8060, pal->bg, u->notice);
	ui_draw_keys_hint_at(u, l, c, keys, true);
}

const struct scr scr_title = { .name = "title", .title = "Title menu", .keys = keys, .input = input, .draw = draw };
