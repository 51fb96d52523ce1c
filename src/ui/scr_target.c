/* The targeting screen: a cursor chooses the monster or cell a scroll is
 * used on; a fireball's area is shown before confirming; a refused cell
 * says why (the game's own message) and Escape / B cancels, costing nothing. */
#include "game/map.h"
#include "ui/scr.h"
#include <stdio.h>

static const struct scr_key keys[] = {
	{ .moves = true, .hint = "aim", .keep = true, .help = "move the cursor (or click)" },
	{ .act = ACT_CONFIRM, .hint = "use", .help = "use the item there" },
	{ .act = ACT_DO, .hint = "use", .help = "use the item there" },
	{ .act = ACT_CANCEL, .hint = "cancel", .keep = true, .help = "cancel (costs nothing)" },
	{ .act = ACT_BACK, .hint = "cancel", .keep = true, .help = "cancel (costs nothing)" },
	{ 0 },
};

/* The item being aimed, 0, or -1 when it is no longer carried. */
static int item(const struct ui *u, const struct game *g, struct game_item_view *out)
{
	struct game_item_view it[26];
	int n = game_inventory(g, it, 26);
	for (int i = 0; i < n; i++) {
		if (it[i].slot == u->target_slot) {
			*out = it[i];
			return 0;
		}
	}
	return -1;
}

static void fire(struct ui *u, struct game *g, const struct ui_host *h)
{
	char why[128];
	if (game_target_check(g, u->target_slot, u->look_x, u->look_y, why, sizeof why)) {
		snprintf(u->status, sizeof u->status, "%s", why);
		return;
	}
	struct command cmd = ui_cmd(CMD_USE);
	cmd.item = u->target_slot;
	cmd.x = u->look_x;
	cmd.y = u->look_y;
	u->screen = UI_PLAY;
	ui_command(u, g, h, &cmd);
}

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	struct game_item_view it;
	if (item(u, g, &it)) {
		u->screen = UI_PLAY;
		return;
	}
	int mx, my;
	if (in->kind == UI_IN_CLICK) {
		/* a click aims; a click on the cell aimed at uses the item */
		if (ui_click_cell(u, g, in, &mx, &my))
			return;
		if (mx == u->look_x && my == u->look_y) {
			fire(u, g, h);
		} else {
			u->look_x = mx;
			u->look_y = my;
		}
		return;
	}
	if (in->kind != UI_IN_KEY)
		return;
	if (ui_move_cursor(u, g, in->act))
		return;
	switch (in->act) {
	case ACT_CONFIRM:
	case ACT_DO:
		fire(u, g, h);
		break;
	case ACT_CANCEL:
	case ACT_BACK:
	case ACT_MENU:
		u->screen = UI_PLAY;
		break;
	default:
		break;
	}
}

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	struct game_item_view it;
	char prompt[96];
	if (item(u, g, &it)) {
		ui_draw_world(u, l, g, c, true, NULL);
		return;
	}
	snprintf(prompt, sizeof prompt, "%s: choose a %s", it.name, it.target == TARGET_MONSTER ? "monster" : "cell");
	if (prompt[0] >= 'a' && prompt[0] <= 'z')
		prompt[0] = (char)(prompt[0] - 'a' + 'A');
	ui_draw_world(u, l, g, c, true, prompt);
	if (it.radius > 0) {
		/* the area it would hit (the cursor cell stays marked; the two
		 * text rows on top stay readable) */
		const struct map *m = game_map(g);
		int cam_x, cam_y, r = it.radius;
		ui_camera(l, m->w, m->h, u->look_x, u->look_y, &cam_x, &cam_y);
		for (int dy = -r; dy <= r; dy++) {
			for (int dx = -r; dx <= r; dx++) {
				int mx = u->look_x + dx, my = u->look_y + dy;
				int vx = mx - cam_x, vy = my - cam_y;
				if ((dx == 0 && dy == 0) || dx * dx + dy * dy > r * r || mx < 0 || my < 0 || mx >= m->w ||
				    my >= m->h || vx < 0 || vy < 2 || vx >= ui_view_cols(l) || vy >= l->view_h)
					continue;
				const struct con_cell *cell = ui_map_at(l, c, vx, vy);
				if (!cell)
					continue;
				struct con_cell v = *cell;
				v.bg = 0x803000;
				ui_put_map(l, c, vx, vy, v, -1, 0, 0);
			}
		}
	}
	ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_target = { .name = "target", .title = "Aiming a scroll", .keys = keys, .needs_game = true,
				.cursor = true, .input = input, .draw = draw };
