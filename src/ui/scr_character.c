/* The character screen: the player's level, experience, HP, power and defence. */
#include "ui/scr.h"
#include <stdio.h>

static const struct scr_key keys[] = {
	{ .act = ACT_CANCEL, .hint = "close", .keep = true, .help = "back to the map" },
	{ .act = ACT_BACK, .hint = "close", .keep = true, .help = "back to the map" },
	{ .act = ACT_CHARACTER, .help = "back to the map" },
	{ .act = ACT_CONFIRM, .help = "back to the map" },
	{ 0 },
};

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	(void)g;
	(void)h;
	if (in->kind != UI_IN_KEY)
		return;
	if (in->act == ACT_CANCEL || in->act == ACT_BACK || in->act == ACT_CHARACTER || in->act == ACT_CONFIRM)
		u->screen = UI_PLAY;
}

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	const struct ui_palette *pal = l->pal;
	ui_draw_world(u, l, g, c, false, NULL);
	struct game_stats s;
	game_stats(g, &s);
	/* the box sized to its lines (it was a fixed 36 for 29 columns of text) */
	char lines[6][64];
	snprintf(lines[0], sizeof lines[0], "Level: %d", s.level);
	snprintf(lines[1], sizeof lines[1], "XP: %d", s.xp);
	snprintf(lines[2], sizeof lines[2], "XP for next level: %d", s.xp_next);
	snprintf(lines[3], sizeof lines[3], "HP: %d/%d", s.hp, s.max_hp);
	/* base + what the equipment adds */
	snprintf(lines[4], sizeof lines[4], "Power: %d (%d %+d equipment)", s.power, s.base_power,
		 s.power - s.base_power);
	snprintf(lines[5], sizeof lines[5], "Defence: %d (%d %+d equipment)", s.defense, s.base_defense,
		 s.defense - s.base_defense);
	const char *text[6] = { lines[0], lines[1], lines[2], lines[3], lines[4], lines[5] };
	int x, y, w = ui_box_width(text, 6, "Character", l->cols);
	ui_draw_box(l, c, w, 11, "Character", pal->box, pal->bg, &x, &y);
	static const int row[6] = { 2, 3, 4, 5, 7, 8 }; /* a blank row before power and defence */
	for (int i = 0; i < 6; i++)
		con_print(c, x + 2, y + row[i], pal->text, pal->bg, text[i], w - 4);
	ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_character = { .name = "character", .title = "Character", .keys = keys, .needs_game = true, .input = input, .draw = draw };
