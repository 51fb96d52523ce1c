/* The targeting screen: a cursor chooses the monster or cell a scroll is
 * used on; a fireball's area is shown before confirming, and one that holds
 * the player says so (his cell in red, the prompt and the hint) and needs a
 * second confirm; a refused cell says why (the game's own message) and
 * Escape / B cancels, costing nothing. */
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

/* The keys while the area holds the player: confirming hits him too. */
static const struct scr_key self_keys[] = {
	{ .moves = true, .hint = "aim", .keep = true, .help = "move the cursor (or click)" },
	{ .act = ACT_CONFIRM, .hint = "use: hits you too, twice to confirm", .brief = "use (hits you)",
	  .help = "use the item there" },
	{ .act = ACT_DO, .hint = "use: hits you too, twice to confirm", .brief = "use (hits you)",
	  .help = "use the item there" },
	{ .act = ACT_CANCEL, .hint = "cancel", .keep = true, .help = "cancel (costs nothing)" },
	{ .act = ACT_BACK, .hint = "cancel", .keep = true, .help = "cancel (costs nothing)" },
	{ 0 },
};

/* Whether the area of it (radius > 0) centred on the cursor holds the player. */
static bool hits_player(const struct ui *u, const struct game *g, const struct game_item_view *it)
{
	int px, py;
	game_player_pos(g, &px, &py);
	int dx = px - u->look_x, dy = py - u->look_y;
	return it->radius > 0 && dx * dx + dy * dy <= it->radius * it->radius;
}

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

static void fire(struct ui *u, struct game *g, const struct ui_host *h, const struct game_item_view *it)
{
	char why[128];
	if (game_target_check(g, u->target_slot, u->look_x, u->look_y, why, sizeof why)) {
		snprintf(u->status, sizeof u->status, "%s", why);
		return;
	}
	if (hits_player(u, g, it) && !(u->target_armed && u->armed_x == u->look_x && u->armed_y == u->look_y)) {
		/* no surprise self-harm: the first confirm only warns */
		u->target_armed = true;
		u->armed_x = u->look_x;
		u->armed_y = u->look_y;
		snprintf(u->status, sizeof u->status, "The %s would hit you too! Confirm again to use it.", it->name);
		return;
	}
	u->target_armed = false;
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
			fire(u, g, h, &it);
		} else {
			u->look_x = mx;
			u->look_y = my;
		}
		return;
	}
	if (in->kind != UI_IN_KEY)
		return;
	if (ui_move_cursor(u, g, in->act)) {
		u->target_armed = false; /* aimed elsewhere: asked again */
		return;
	}
	switch (in->act) {
	case ACT_CONFIRM:
	case ACT_DO:
		fire(u, g, h, &it);
		break;
	case ACT_CANCEL:
	case ACT_BACK:
	case ACT_MENU:
		u->target_armed = false;
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
	bool self = hits_player(u, g, &it);
	/* the warning is never cut: on a narrow view the item's name and
	 * then the rest give way to it ("YOU ARE IN" was left at 45 columns) */
	const char *what = it.target == TARGET_MONSTER ? "monster" : "cell";
	int fit = l->view_w - 2;
	if (snprintf(prompt, sizeof prompt, "%s: choose a %s%s", it.name, what, self ? " - YOU ARE IN ITS AREA" : "") >
		    fit &&
	    self && snprintf(prompt, sizeof prompt, "%s - YOU ARE IN ITS AREA", it.name) > fit)
		snprintf(prompt, sizeof prompt, "YOU ARE IN ITS AREA");
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
				int px, py;
				game_player_pos(g, &px, &py);
				/* the player's own cell in the area: red */
				v.bg = mx == px && my == py ? 0xC00000 : 0x803000;
				ui_put_map(l, c, vx, vy, v, -1, 0, 0);
			}
		}
	}
	ui_draw_keys_hint(u, l, c, self ? self_keys : keys);
}

const struct scr scr_target = { .name = "target", .title = "Aiming a scroll", .keys = keys, .needs_game = true,
				.cursor = true, .input = input, .draw = draw };
