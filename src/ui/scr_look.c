/* The look screen: a cursor over the map; what is under it is described. */
#include "ui/scr.h"

static const struct scr_key keys[] = {
	{ .keys = "", .dev = SCR_KEYBOARD, .hint = "Look: move the cursor", .brief = "Look", .keep = true },
	{ .keys = "", .dev = SCR_PAD, .hint = "Look: D-pad moves the cursor", .brief = "Look", .keep = true },
	{ .moves = true, .help = "move the cursor (or point)" },
	{ .act = ACT_CANCEL, .hint = "done", .keep = true, .help = "back to the map" },
	{ .act = ACT_BACK, .hint = "done", .keep = true, .help = "back to the map" },
	{ .act = ACT_LOOK, .help = "back to the map" },
	{ .act = ACT_CONFIRM, .help = "back to the map" },
	{ .act = ACT_DO, .help = "back to the map" },
	{ 0 },
};

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	(void)h;
	int mx, my;
	if (in->kind == UI_IN_CLICK) {
		if (ui_click_cell(u, g, in, &mx, &my) == 0) {
			u->look_x = mx;
			u->look_y = my;
		}
		return;
	}
	if (ui_move_cursor(u, g, in->act))
		return;
	switch (in->act) {
	case ACT_CANCEL: case ACT_BACK: case ACT_LOOK: case ACT_CONFIRM: case ACT_DO:
		u->screen = UI_PLAY;
		break;
	default:
		break;
	}
}

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	ui_draw_world(u, l, g, c, true, NULL);
	ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_look = { .name = "look", .title = "Looking", .keys = keys, .needs_game = true, .cursor = true, .input = input, .draw = draw };
