/* The viewer: a recording played back on the map at the game's pace (the
 * app plays it): pause, faster and slower (1x to 64x), a step, jumps back
 * and forward, quit; a line on top with the turn and the speed. */
#include "ui/scr.h"
#include <stdio.h>

static const struct scr_key keys[] = {
	{ .act = ACT_CONFIRM, .hint = "pause", .keep = true, .help = "pause or go on (also Space)" },
	{ .act = ACT_DO, .hint = "pause", .keep = true, .help = "pause or go on" },
	{ .act = ACT_MOVE_N, .act2 = ACT_MOVE_S, .hint = "speed", .help = "faster, slower (also + -)" },
	{ .act = ACT_MOVE_W, .act2 = ACT_MOVE_E, .hint = "jump",
	  .help = "jump back, forward (also [ ])" },
	{ .act = ACT_WAIT, .dev = SCR_KEYBOARD, .hint = "step", .help = "one command on (paused)" },
	{ .act = ACT_INVENTORY, .dev = SCR_PAD, .hint = "step", .help = "one command on (paused)" },
	{ .act = ACT_CANCEL, .hint = "stop", .keep = true, .help = "stop watching (also q)" },
	{ .act = ACT_BACK, .hint = "stop", .keep = true, .help = "stop watching" },
	{ 0 },
};

static void speed(struct ui *u, bool faster)
{
	if (faster && u->view.speed < UI_VIEW_SPEED_MAX)
		u->view.speed *= 2;
	else if (!faster && u->view.speed > 1)
		u->view.speed /= 2;
}

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	(void)g;
	if (in->kind != UI_IN_KEY)
		return;
	bool pad = in->from == DEV_GAMEPAD || bind_is_pad(in->key);
	if (!pad) {
		switch (in->key) {
		case ' ':
			u->view.paused = !u->view.paused;
			return;
		case '+':
		case '=':
			speed(u, true);
			return;
		case '-':
			speed(u, false);
			return;
		case '[':
			h->request(h->ctx, UI_REQ_VIEW_BACK);
			return;
		case ']':
			h->request(h->ctx, UI_REQ_VIEW_ON);
			return;
		case 'q':
			h->request(h->ctx, UI_REQ_VIEW_STOP);
			return;
		default:
			break;
		}
	}
	switch (in->act) {
	case ACT_CONFIRM:
	case ACT_DO:
		u->view.paused = !u->view.paused;
		break;
	case ACT_MOVE_N:
		speed(u, true);
		break;
	case ACT_MOVE_S:
		speed(u, false);
		break;
	case ACT_MOVE_W:
		h->request(h->ctx, UI_REQ_VIEW_BACK);
		break;
	case ACT_MOVE_E:
		h->request(h->ctx, UI_REQ_VIEW_ON);
		break;
	case ACT_WAIT:
	case ACT_INVENTORY:
		u->view.paused = true; /* a step pauses: one command at a time */
		h->request(h->ctx, UI_REQ_VIEW_STEP);
		break;
	case ACT_CANCEL:
	case ACT_BACK:
	case ACT_QUIT:
	case ACT_MENU:
		h->request(h->ctx, UI_REQ_VIEW_STOP);
		break;
	default:
		break;
	}
}

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	char line[160];
	const struct ui_view *v = &u->view;
	snprintf(line, sizeof line, "Watching %.40s  turn %d/%d  %dx%s", v->name, v->turn, v->end_turn, v->speed,
		 v->at >= v->count ? "  (the end)" : v->paused ? "  paused" : "");
	if (g)
		ui_draw_world(u, l, g, c, false, line);
	ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_view = { .name = "view", .title = "Watching a recording", .keys = keys, .needs_game = true,
			      .input = input, .draw = draw };
