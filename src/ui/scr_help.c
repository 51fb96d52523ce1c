/* The help screen: every binding of every screen, as currently bound (the
 * settings file's too), scrollable. Made from each screen's key list. */
#include "core/utf8.h"
#include "ui/scr.h"
#include <stdio.h>
#include <string.h>

static const struct scr_key keys[] = {
	{ .act = ACT_MOVE_N, .act2 = ACT_MOVE_S, .hint = "scroll" },
	{ .act = ACT_MOVE_N, .help = "scroll up" },
	{ .act = ACT_MOVE_S, .help = "scroll down" },
	{ .act = ACT_CANCEL, .hint = "close", .keep = true, .help = "back" },
	{ .act = ACT_BACK, .hint = "close", .keep = true, .help = "back" },
	{ .act = ACT_MOVE_W, .act2 = ACT_MOVE_E, .hint = "page" },
	{ .act = ACT_MOVE_W, .help = "a page up" },
	{ .act = ACT_MOVE_E, .help = "a page down" },
	{ .act = ACT_HELP, .help = "back" },
	{ .act = ACT_CONFIRM, .help = "back" },
	{ 0 },
};

/* One row of the listing: a screen's title, or a binding. */
struct row {
	const char *title; /* a section: the screen's title */
	char label[48];
	char keys[96];     /* keyboard */
	char pad[64];      /* gamepad */
};

#define MAX_ROWS 200
#define PAD_FG 0x80D080 /* gamepad buttons, apart from keys */

static const char *const dir_names[8] = {
	"north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west",
};

/* All labels of the keys bound to a on the device, blank-separated. */
static void all_keys(const struct ui *u, enum action a, bool pad, char *buf, size_t len)
{
	uint32_t k[32];
	int n = bind_keys(ui_binds(u), a, pad, k, 32);
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; i < n && i < 32 && used < len; i++) {
		char l[24];
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", bind_key_label(k[i], l, sizeof l));
	}
}

static void entry_keys(const struct ui *u, const struct scr_key *k, enum action a, struct row *r)
{
	r->keys[0] = r->pad[0] = 0;
	if (k->keys) {
		if (k->dev != SCR_PAD)
			snprintf(r->keys, sizeof r->keys, "%s", k->keys);
		if (k->dev != SCR_KEYBOARD)
			snprintf(r->pad, sizeof r->pad, "%s", k->keys);
		return;
	}
	if (k->dev != SCR_PAD)
		all_keys(u, a, false, r->keys, sizeof r->keys);
	if (k->dev != SCR_KEYBOARD)
		all_keys(u, a, true, r->pad, sizeof r->pad);
	if (k->act2 != ACT_NONE && a == k->act) {
		/* a pair ("choose": up and down): both actions' keys */
		struct row second;
		entry_keys(u, &(struct scr_key){ .act = k->act2, .act2 = ACT_NONE, .dev = k->dev }, k->act2, &second);
		size_t kl = strlen(r->keys), pl = strlen(r->pad);
		if (second.keys[0])
			snprintf(r->keys + kl, sizeof r->keys - kl, "%s%s", kl ? " " : "", second.keys);
		if (!strncmp(r->pad, "D-pad", 5) && !strncmp(second.pad, "D-pad", 5) && !strchr(r->pad, ' ') &&
		    !strchr(second.pad, ' '))
			snprintf(r->pad + pl, sizeof r->pad - pl, "%s", second.pad + 5); /* "D-pad↑↓" */
		else if (second.pad[0])
			snprintf(r->pad + pl, sizeof r->pad - pl, "%s%s", pl ? " " : "", second.pad);
	}
}

/* Adds row r to the listing, or merges its keys into the previous row
 * when that one says the same (Escape and B both "back to the map"). */
static void add_row(struct row *rows, int *n, int max, const struct row *r)
{
	if (*n > 0 && *n <= max && !r->title && !rows[*n - 1].title && r->label[0] &&
	    !strcmp(rows[*n - 1].label, r->label)) {
		struct row *p = &rows[*n - 1];
		size_t kl = strlen(p->keys), pl = strlen(p->pad);
		if (r->keys[0])
			snprintf(p->keys + kl, sizeof p->keys - kl, "%s%s", kl ? " " : "", r->keys);
		if (r->pad[0])
			snprintf(p->pad + pl, sizeof p->pad - pl, "%s%s", pl ? " " : "", r->pad);
		return;
	}
	if (*n < max)
		rows[*n] = *r;
	(*n)++;
}

/* Fills rows with the whole listing, the map's keys first; returns the count. */
static int listing(const struct ui *u, struct row *rows, int max)
{
	int n = 0;
	for (int s = -1; s < ui_screen_count(); s++) {
		if (s == UI_PLAY)
			continue;
		const struct scr *sc = ui_screen_at(s < 0 ? UI_PLAY : s);
		if (!sc || !sc->keys)
			continue;
		struct row r = { .title = sc->title ? sc->title : sc->name };
		add_row(rows, &n, max, &r);
		for (const struct scr_key *k = sc->keys; k->hint || k->help; k++) {
			if (!k->help)
				continue;
			if (k->moves && s >= 0) {
				/* the same eight moves as on the map, listed there
				 * one by one: here one row */
				r = (struct row){ 0 };
				snprintf(r.label, sizeof r.label, "%s", k->help);
				ui_key_text(u, k, false, r.keys, sizeof r.keys);
				ui_key_text(u, k, true, r.pad, sizeof r.pad);
				add_row(rows, &n, max, &r);
				continue;
			}
			if (k->moves) {
				r = (struct row){ 0 };
				snprintf(r.label, sizeof r.label, "%s:", k->help);
				add_row(rows, &n, max, &r);
				for (int d = 0; d < 8; d++) {
					r = (struct row){ 0 };
					snprintf(r.label, sizeof r.label, "  %s", dir_names[d]);
					entry_keys(u, k, (enum action)(ACT_MOVE_N + d), &r);
					add_row(rows, &n, max, &r);
				}
				continue;
			}
			r = (struct row){ 0 };
			snprintf(r.label, sizeof r.label, "%s", k->help);
			entry_keys(u, k, k->act, &r);
			if (!r.keys[0] && !r.pad[0])
				snprintf(r.keys, sizeof r.keys, "(not bound)");
			add_row(rows, &n, max, &r);
		}
	}
	return n;
}

/* Whether the listing is narrow: under 72 columns each entry's keys go on
 * a line below its label. */
static bool narrow(int cols)
{
	return cols < 72;
}

/* Lines row r takes: two when narrow (its keys below its label), one for
 * a title or a heading without keys (the moves' "walk"). */
static int row_lines(const struct row *r, bool nar)
{
	return nar && !r->title && (r->keys[0] || r->pad[0]) ? 2 : 1;
}

static int page(int rows)
{
	return rows - 4;
}

static int max_top(const struct ui *u, int cols, int rows)
{
	struct row r[MAX_ROWS];
	int n = listing(u, r, MAX_ROWS);
	if (n > MAX_ROWS)
		n = MAX_ROWS;
	int lines = 0;
	for (int i = 0; i < n; i++)
		lines += row_lines(&r[i], narrow(cols));
	int m = lines - page(rows);
	return m < 0 ? 0 : m;
}

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	(void)g;
	(void)h;
	if (in->kind != UI_IN_KEY)
		return;
	int top = u->help_top, m = max_top(u, in->cols, in->rows);
	switch (in->act) {
	case ACT_MOVE_N: top--; break;
	case ACT_MOVE_S: top++; break;
	case ACT_MOVE_W: case ACT_MOVE_NE: top -= page(in->rows); break;
	case ACT_MOVE_E: case ACT_MOVE_SE: top += page(in->rows); break;
	case ACT_CANCEL: case ACT_BACK: case ACT_HELP: case ACT_CONFIRM:
		u->screen = u->help_from == UI_HELP ? UI_TITLE : u->help_from;
		return;
	default:
		return;
	}
	u->help_top = top < 0 ? 0 : top > m ? m : top;
}

/* s at (x, y) in at most w cells, whole words only (a column's text is
 * never cut mid-word); its leading blanks (an indent) kept. */
static void words(struct console *c, int x, int y, int w, uint32_t fg, uint32_t bg, const char *s)
{
	int lead = 0;
	while (s[lead] == ' ')
		lead++;
	if (lead < w)
		con_print_wrapped(c, x + lead, y, w - lead, 1, fg, bg, s + lead);
}

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	const struct ui_palette *pal = l->pal;
	(void)g;
	struct row r[MAX_ROWS];
	int n = listing(u, r, MAX_ROWS);
	if (n > MAX_ROWS)
		n = MAX_ROWS;
	bool nar = narrow(l->cols);
	/* wide: a box as wide as its three columns need (the longest label,
	 * the keys, the buttons), centred, not the whole width with the keys
	 * far from what they do; narrow: the whole console */
	int bw = l->cols;
	if (!nar) {
		int need = 40;
		for (int i = 0; i < n && i < MAX_ROWS; i++) {
			int w = r[i].title ? (int)utf8_len(r[i].title) + 4 : (int)utf8_len(r[i].label) + 4 + 27 + 16 + 2;
			need = w > need ? w : need;
		}
		bw = need < l->cols ? need : l->cols;
	}
	int bx = (l->cols - bw) / 2;
	con_box(c, bx, 0, bw, l->rows - 1, pal->box, pal->bg, "Help: every key");
	int h = page(l->rows), line = 0, y = 2;
	int pw = nar ? 0 : 16, px = bx + bw - 2 - pw, kx = nar ? 5 : px - 27;
	if (nar) {
		con_print(c, 2, 1, pal->accent, pal->bg, "keys", -1);
		con_print(c, 8, 1, PAD_FG, pal->bg, "gamepad", -1);
	} else {
		con_print(c, bx + 2, 1, pal->dim_text, pal->bg, "action", -1);
		con_print(c, kx, 1, pal->dim_text, pal->bg, "keyboard", -1);
		con_print(c, px, 1, pal->dim_text, pal->bg, "gamepad", -1);
	}
	for (int i = 0; i < n && line < u->help_top + h; i++) {
		int need = row_lines(&r[i], nar);
		for (int part = 0; part < need; part++, line++) {
			if (line < u->help_top || line >= u->help_top + h)
				continue;
			if (r[i].title) {
				con_print(c, bx + 2, y, pal->title, pal->bg, r[i].title, bw - 4);
			} else if (part == 0) {
				words(c, bx + 3, y, nar ? l->cols - 5 : kx - bx - 4, pal->text, pal->bg, r[i].label);
			}
			if (!r[i].title && (nar ? part == 1 : part == 0)) {
				if (nar) {
					/* the keys, then the pad buttons in their colour */
					int kl = (int)utf8_len(r[i].keys);
					words(c, kx, y, l->cols - kx - 2, pal->accent, pal->bg, r[i].keys);
					int btn_x = kx + kl + (kl ? 2 : 0);
					if (btn_x < l->cols - 2)
						words(c, btn_x, y, l->cols - btn_x - 2, PAD_FG, pal->bg, r[i].pad);
				} else {
					words(c, kx, y, px - kx - 1, pal->accent, pal->bg, r[i].keys);
					words(c, px, y, pw, PAD_FG, pal->bg, r[i].pad);
				}
			}
			y++;
		}
	}
	ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_help = { .name = "help", .title = "Help", .keys = keys, .input = input, .draw = draw };
