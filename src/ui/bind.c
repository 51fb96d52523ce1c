/* The key table: defaults, lookups, and rebinding from settings. */
#include "ui/bind.h"
#include "platform/keys.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The default key table (GAME.md §7). Everything at once: no modes. */
#define DEFAULT_BINDINGS \
	{ KEY_UP, ACT_MOVE_N }, { KEY_DOWN, ACT_MOVE_S }, { KEY_LEFT, ACT_MOVE_W }, { KEY_RIGHT, ACT_MOVE_E }, \
	{ KEY_HOME, ACT_MOVE_NW }, { KEY_PGUP, ACT_MOVE_NE }, { KEY_END, ACT_MOVE_SW }, { KEY_PGDN, ACT_MOVE_SE }, \
	{ KEY_KP8, ACT_MOVE_N }, { KEY_KP2, ACT_MOVE_S }, { KEY_KP4, ACT_MOVE_W }, { KEY_KP6, ACT_MOVE_E }, \
	{ KEY_KP7, ACT_MOVE_NW }, { KEY_KP9, ACT_MOVE_NE }, { KEY_KP1, ACT_MOVE_SW }, { KEY_KP3, ACT_MOVE_SE }, \
	{ 'k', ACT_MOVE_N }, { 'j', ACT_MOVE_S }, { 'h', ACT_MOVE_W }, { 'l', ACT_MOVE_E }, \
	{ 'y', ACT_MOVE_NW }, { 'u', ACT_MOVE_NE }, { 'b', ACT_MOVE_SW }, { 'n', ACT_MOVE_SE }, \
	{ '.', ACT_WAIT }, { KEY_KP5, ACT_WAIT }, { KEY_SPACE, ACT_WAIT }, \
	{ 'g', ACT_PICKUP }, { ',', ACT_PICKUP }, \
	{ 'i', ACT_INVENTORY }, { 'd', ACT_DROP }, \
	{ '>', ACT_DESCEND }, { '<', ACT_ASCEND }, \
	{ 'c', ACT_CHARACTER }, \
	{ 'x', ACT_LOOK }, { '/', ACT_LOOK }, \
	{ 'v', ACT_HISTORY }, \
	{ 'o', ACT_EXPLORE }, \
	{ '?', ACT_HELP }, { KEY_F1, ACT_HELP }, \
	{ KEY_ENTER, ACT_CONFIRM }, { KEY_KPENTER, ACT_CONFIRM }, { '\n', ACT_CONFIRM }, \
	{ KEY_ESCAPE, ACT_CANCEL }, \
	{ 'Q', ACT_QUIT }, { 'O', ACT_OPTIONS }, \
	{ PAD_UP, ACT_MOVE_N }, { PAD_DOWN, ACT_MOVE_S }, { PAD_LEFT, ACT_MOVE_W }, { PAD_RIGHT, ACT_MOVE_E }, \
	{ PAD_UPLEFT, ACT_MOVE_NW }, { PAD_UPRIGHT, ACT_MOVE_NE }, \
	{ PAD_DOWNLEFT, ACT_MOVE_SW }, { PAD_DOWNRIGHT, ACT_MOVE_SE }, \
	{ PAD_SOUTH, ACT_DO }, { PAD_EAST, ACT_BACK }, { PAD_WEST, ACT_INVENTORY }, \
	{ PAD_NORTH, ACT_LOOK }, { PAD_START, ACT_MENU }, { PAD_SELECT, ACT_HISTORY }, \
	{ PAD_TR2, ACT_EXPLORE }, { PAD_THUMBL, ACT_OPTIONS }, { PAD_THUMBR, ACT_CHARACTER }, \
	{ PAD_TL2, ACT_HELP },

#define DEFAULT_COUNT (sizeof(struct bind_entry[]){ DEFAULT_BINDINGS } / sizeof(struct bind_entry))
static const struct bindings defaults = {
	.n = (int)DEFAULT_COUNT,
	.e = { DEFAULT_BINDINGS },
};
_Static_assert(DEFAULT_COUNT <= BIND_MAX, "BIND_MAX too small for the defaults");

void bind_defaults(struct bindings *b)
{
	*b = defaults;
}

const struct bindings *bind_default(void)
{
	return &defaults;
}

enum action bind_action(const struct bindings *b, uint32_t key)
{
	for (int i = 0; i < b->n; i++)
		if (b->e[i].key == key)
			return b->e[i].act;
	return ACT_NONE;
}

bool bind_is_pad(uint32_t key)
{
	return key >= PAD_SOUTH && key < KEY_LAST;
}

int bind_keys(const struct bindings *b, enum action a, bool pad, uint32_t *keys, int max)
{
	int n = 0;
	for (int i = 0; i < b->n; i++) {
		if (b->e[i].act != a || bind_is_pad(b->e[i].key) != pad)
			continue;
		if (n < max)
			keys[n] = b->e[i].key;
		n++;
	}
	return n;
}

int bind_set(struct bindings *b, enum action a, bool pad, const char *list, char *why, size_t len)
{
	uint32_t keys[BIND_MAX];
	int nk = 0;
	const char *s = list;
	char tok[64];
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		size_t n = strcspn(s, " \t");
		if (n >= sizeof tok) {
			snprintf(why, len, "key name '%.20s...' is too long", s);
			return -EINVAL;
		}
		memcpy(tok, s, n);
		tok[n] = 0;
		s += n;
		uint32_t k;
		if (key_parse(tok, &k) || k == KEY_MODIFIER) {
			if (pad)
				snprintf(why, len, "unknown key '%s' (a gamepad button: one of " PAD_NAMES ")", tok);
			else
				snprintf(why, len, "unknown key '%s' (a character or one of: " KEY_NAMES ")", tok);
			return -EINVAL;
		}
		if (bind_is_pad(k) != pad) {
			snprintf(why, len, "'%s' is a %s; it goes in %s.%s", tok, pad ? "keyboard key" : "gamepad button",
				 pad ? "key" : "pad", bind_action_name(a));
			return -EINVAL;
		}
		if (nk == BIND_MAX) {
			snprintf(why, len, "too many keys (at most %d)", BIND_MAX);
			return -EINVAL;
		}
		keys[nk++] = k;
	}
	/* drop a's old keys of this kind and the listed keys from anything else */
	struct bindings nb = { 0 };
	for (int i = 0; i < b->n; i++) {
		const struct bind_entry *e = &b->e[i];
		bool listed = false;
		for (int j = 0; j < nk; j++)
			listed |= keys[j] == e->key;
		if (listed || (e->act == a && bind_is_pad(e->key) == pad))
			continue;
		nb.e[nb.n++] = *e;
	}
	for (int j = 0; j < nk; j++) {
		if (nb.n == BIND_MAX) {
			snprintf(why, len, "too many bindings in all (at most %d)", BIND_MAX);
			return -EINVAL;
		}
		nb.e[nb.n++] = (struct bind_entry){ keys[j], a };
	}
	*b = nb;
	return 0;
}

int bind_move_delta(enum action a, int *dx, int *dy)
{
	static const signed char d[8][2] = {
		{ 0, -1 }, { 1, -1 }, { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 }, { -1, 0 }, { -1, -1 },
	};
	if (a < ACT_MOVE_N || a > ACT_MOVE_NW)
		return 0;
	*dx = d[a - ACT_MOVE_N][0];
	*dy = d[a - ACT_MOVE_N][1];
	return 1;
}

static const char *const names[ACT_COUNT] = {
	[ACT_NONE] = "none", [ACT_MOVE_N] = "move_n", [ACT_MOVE_NE] = "move_ne",
	[ACT_MOVE_E] = "move_e", [ACT_MOVE_SE] = "move_se", [ACT_MOVE_S] = "move_s",
	[ACT_MOVE_SW] = "move_sw", [ACT_MOVE_W] = "move_w", [ACT_MOVE_NW] = "move_nw",
	[ACT_WAIT] = "wait", [ACT_PICKUP] = "pickup", [ACT_DESCEND] = "descend",
	[ACT_ASCEND] = "ascend", [ACT_INVENTORY] = "inventory", [ACT_DROP] = "drop",
	[ACT_CHARACTER] = "character", [ACT_LOOK] = "look", [ACT_HISTORY] = "history",
	[ACT_EXPLORE] = "explore", [ACT_HELP] = "help",
	[ACT_CONFIRM] = "confirm", [ACT_CANCEL] = "cancel", [ACT_QUIT] = "quit",
	[ACT_DO] = "do", [ACT_BACK] = "back", [ACT_MENU] = "menu", [ACT_OPTIONS] = "options",
};

const char *bind_action_name(enum action a)
{
	return (unsigned)a < ACT_COUNT && names[a] ? names[a] : "?";
}

int bind_action_parse(const char *name, enum action *a)
{
	for (int i = ACT_NONE + 1; i < ACT_COUNT; i++) {
		if (!strcmp(names[i], name)) {
			*a = (enum action)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *bind_key_label(uint32_t key, char *buf, size_t len)
{
	static const struct {
		uint32_t key;
		const char *label;
	} labels[] = {
		{ KEY_UP, "\xe2\x86\x91" }, { KEY_DOWN, "\xe2\x86\x93" }, { KEY_LEFT, "\xe2\x86\x90" },
		{ KEY_RIGHT, "\xe2\x86\x92" }, { KEY_HOME, "Home" }, { KEY_END, "End" }, { KEY_PGUP, "PgUp" },
		{ KEY_PGDN, "PgDn" }, { KEY_ENTER, "Enter" }, { KEY_KPENTER, "NumEnter" }, { '\n', "^J" },
		{ KEY_ESCAPE, "Esc" }, { KEY_SPACE, "Space" }, { KEY_TAB, "Tab" }, { KEY_BACKSPACE, "Backspace" },
		{ KEY_INSERT, "Ins" }, { KEY_DELETE, "Del" },
		{ PAD_SOUTH, "A" }, { PAD_EAST, "B" }, { PAD_WEST, "X" }, { PAD_NORTH, "Y" }, { PAD_TL, "L" },
		{ PAD_TR, "R" }, { PAD_TL2, "L2" }, { PAD_TR2, "R2" }, { PAD_THUMBL, "L3" }, { PAD_THUMBR, "R3" },
		{ PAD_START, "Start" }, { PAD_SELECT, "Select" },
		{ PAD_UP, "D-pad\xe2\x86\x91" }, { PAD_DOWN, "D-pad\xe2\x86\x93" }, { PAD_LEFT, "D-pad\xe2\x86\x90" },
		{ PAD_RIGHT, "D-pad\xe2\x86\x92" }, { PAD_UPLEFT, "D-pad\xe2\x86\x91\xe2\x86\x90" },
		{ PAD_UPRIGHT, "D-pad\xe2\x86\x91\xe2\x86\x92" }, { PAD_DOWNLEFT, "D-pad\xe2\x86\x93\xe2\x86\x90" },
		{ PAD_DOWNRIGHT, "D-pad\xe2\x86\x93\xe2\x86\x92" },
	};
	if (len == 0)
		return buf;
	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		if (labels[i].key == key) {
			snprintf(buf, len, "%s", labels[i].label);
			return buf;
		}
	}
	if (key >= KEY_KP0 && key <= KEY_KP9) {
		snprintf(buf, len, "Num%u", (unsigned)(key - KEY_KP0));
		return buf;
	}
	if (key >= KEY_F1 && key <= KEY_F12) {
		snprintf(buf, len, "F%u", (unsigned)(key - KEY_F1 + 1));
		return buf;
	}
	/* anything else (a character: itself) by its settings name */
	char name[32];
	snprintf(buf, len, "%s", key_name(key, name, sizeof name));
	return buf;
}
