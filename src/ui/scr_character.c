/* The character screen: the player's level, experience, HP, power and defence. */
#include "ui/scr.h"

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
	int x, y;
	ui_draw_box(l, c, 36, 11, "Character", pal->box, pal->bg, &x, &y);
	con_printf(c, x + 2, y + 2, pal->text, pal->bg, "Level: %d", s.level);
	con_printf(c, x + 2, y + 3, pal->text, pal->bg, "XP: %d", s.xp);
	con_printf(c, x + 2, y + 4, pal->text, pal->bg, "XP for next level: %d", s.xp_next);
	con_printf(c, x + 2, y + 5, pal->text, pal->bg, "HP: %d/%d", s.hp, s.max_hp);
	/* base + what the equipment adds */
	con_printf(c, x + 2, y + 7, pal->text, pal->bg, "Power: %d (%d %+d equipment)", s.power, s.base_power,
		   s.power - s.base_power);
	con_printf(c, x + 2, y + 8, pal->text, pal->bg, "Defence: %d (%d %+d equipment)", s.defense,
		   s.base_defense, s.defense - s.base_defense);
	ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_character = { .name = "character", .title = "Character", .keys = keys, .needs_game = true, .input = input, .draw = draw };
