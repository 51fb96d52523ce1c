/* The name screen: a new high score asks who played (up to UI_NAME_MAX
 * characters), typed on the keyboard or dialled on the pad's letter wheel
 * (arcade style); the last name given is offered first. */
#include "ui/scr.h"
#include <stdio.h>
#include <string.h>

/* The letters of the wheel, in order (up goes forwards, down back). */
static const char wheel[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -.";
#define WHEEL_N ((int)sizeof wheel - 1)

static const struct scr_key keys[] = {
	{ .keys = "letters", .dev = SCR_KEYBOARD, .hint = "type", .keep = true, .help = "type the name" },
	{ .keys = "Backspace", .dev = SCR_KEYBOARD, .hint = "rub out", .help = "rub out the last letter" },
	{ .act = ACT_MOVE_N, .act2 = ACT_MOVE_S, .dev = SCR_PAD, .hint = "letter", .keep = true,
	  .help = "turn the wheel: the last letter" },
	{ .act = ACT_MOVE_E, .dev = SCR_PAD, .hint = "next", .help = "a new letter after it" },
	{ .act = ACT_BACK, .dev = SCR_PAD, .hint = "rub out", .help = "rub out the last letter" },
	{ .act = ACT_CONFIRM, .hint = "done", .keep = true, .help = "keep the name" },
	{ .act = ACT_DO, .hint = "done", .keep = true, .help = "keep the name" },
	{ .act = ACT_CANCEL, .dev = SCR_KEYBOARD, .hint = "no name", .help = "leave the score without a name" },
	{ 0 },
};

static void done(struct ui *u, const struct ui_host *h, bool named)
{
	if (!named)
		u->name[0] = 0;
	u->name_pending = false;
	h->request(h->ctx, UI_REQ_NAME);
	u->scores_after_death = true;
	h->request(h->ctx, UI_REQ_SCORES);
}

/* The wheel position of c, -1 when it is on none. */
static int on_wheel(char c)
{
	const char *p = c ? strchr(wheel, c) : NULL;
	return p ? (int)(p - wheel) : -1;
}

/* Turns the wheel of the last letter by step (a first letter when empty). */
static void turn(struct ui *u, int step)
{
	size_t n = strlen(u->name);
	if (n == 0) {
		u->name[0] = wheel[0];
		u->name[1] = 0;
		return;
	}
	int i = on_wheel(u->name[n - 1]);
	if (i < 0)
		i = 0;
	u->name[n - 1] = wheel[(i + step + WHEEL_N) % WHEEL_N];
}

static void add(struct ui *u, char c)
{
	size_t n = strlen(u->name);
	if (n < UI_NAME_MAX) {
		u->name[n] = c;
		u->name[n + 1] = 0;
	}
}

static void rub_out(struct ui *u)
{
	size_t n = strlen(u->name);
	if (n)
		u->name[n - 1] = 0;
}

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	(void)g;
	if (in->kind != UI_IN_KEY)
		return;
	bool pad = in->from == DEV_GAMEPAD || bind_is_pad(in->key);
	/* the keyboard types: every printable key is a letter of the name */
	if (!pad && in->key >= 0x20 && in->key < 0x7F) {
		add(u, (char)in->key);
		return;
	}
	if (!pad && in->key == KEY_BACKSPACE) {
		rub_out(u);
		return;
	}
	switch (in->act) {
	case ACT_MOVE_N:
		turn(u, 1);
		break;
	case ACT_MOVE_S:
		turn(u, -1);
		break;
	case ACT_MOVE_E:
		if (!u->name[0])
			turn(u, 0);
		else
			add(u, wheel[0]);
		break;
	case ACT_MOVE_W:
	case ACT_BACK:
		rub_out(u);
		break;
	case ACT_CONFIRM:
	case ACT_DO:
	case ACT_MENU:
		done(u, h, true);
		break;
	case ACT_CANCEL:
		done(u, h, false);
		break;
	default:
		break;
	}
}

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	const struct ui_palette *pal = l->pal;
	if (g)
		ui_draw_world(u, l, g, c, false, NULL);
	int x, y, w = 36;
	const uint32_t bg = 0x102030;
	ui_draw_box(l, c, w, 8, "A new high score!", pal->accent, bg, &x, &y);
	if (w > l->cols)
		w = l->cols;
	char line[64];
	snprintf(line, sizeof line, "Rank %d. Your name:", u->score_rank + 1);
	con_print(c, x + 2, y + 2, pal->text, bg, line, w - 4);
	/* the name in a field of UI_NAME_MAX cells, the wheel's letter lit */
	int fx = x + 2, fy = y + 4;
	size_t n = strlen(u->name);
	for (int i = 0; i < UI_NAME_MAX && i < w - 4; i++) {
		uint32_t ch = i < (int)n ? (unsigned char)u->name[i] : '_';
		bool last = n ? i == (int)n - 1 : i == 0;
		con_put(c, fx + i, fy, ch, last ? 0x000000 : 0xFFFFFF, last ? 0xFFD040 : bg);
	}
	ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_name = { .name = "name", .title = "A new high score: your name", .keys = keys,
			      .input = input, .draw = draw };
