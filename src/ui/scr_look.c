/* The look screen: a cursor over the map; what is under it is described. */
#include "game/map.h"
#include "ui/scr.h"

static const char *const hint_keys[] = { "Look: move the cursor", "Esc: done", NULL };
static const char *const hint_pad[] = { "Look: D-pad moves the cursor", "B: done", NULL };

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	(void)h;
	int dx, dy, mx, my;
	if (in->kind == UI_IN_CLICK) {
		if (ui_click_cell(u, g, in, &mx, &my) == 0) {
			u->look_x = mx;
			u->look_y = my;
		}
		return;
	}
	if (bind_move_delta(in->act, &dx, &dy)) {
		const struct map *m = game_map(g);
		int x = u->look_x + dx, y = u->look_y + dy;
		if (x >= 0 && y >= 0 && x < m->w && y < m->h) {
			u->look_x = x;
			u->look_y = y;
		}
		return;
	}
	switch (in->act) {
	case ACT_CANCEL: case ACT_PAD_B: case ACT_LOOK: case ACT_CONFIRM: case ACT_PAD_A:
		u->screen = UI_PLAY;
		break;
	default:
		break;
	}
}

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	ui_draw_world(u, l, g, c, true);
	ui_draw_hint(l, c, ui_pad(u) ? hint_pad : hint_keys);
}

const struct scr scr_look = { .name = "look", .needs_game = true, .cursor = true, .input = input, .draw = draw };
