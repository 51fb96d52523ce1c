#include "ui/bind.h"
#include "platform/input.h"

/* The default key table (GAME.md §7). Everything at once: no modes. */
static const struct {
	uint32_t key;
	enum action act;
} bindings[] = {
	{ KEY_UP, ACT_MOVE_N }, { KEY_DOWN, ACT_MOVE_S }, { KEY_LEFT, ACT_MOVE_W }, { KEY_RIGHT, ACT_MOVE_E },
	{ KEY_HOME, ACT_MOVE_NW }, { KEY_PGUP, ACT_MOVE_NE }, { KEY_END, ACT_MOVE_SW }, { KEY_PGDN, ACT_MOVE_SE },
	{ KEY_KP8, ACT_MOVE_N }, { KEY_KP2, ACT_MOVE_S }, { KEY_KP4, ACT_MOVE_W }, { KEY_KP6, ACT_MOVE_E },
	{ KEY_KP7, ACT_MOVE_NW }, { KEY_KP9, ACT_MOVE_NE }, { KEY_KP1, ACT_MOVE_SW }, { KEY_KP3, ACT_MOVE_SE },
	{ 'k', ACT_MOVE_N }, { 'j', ACT_MOVE_S }, { 'h', ACT_MOVE_W }, { 'l', ACT_MOVE_E },
	{ 'y', ACT_MOVE_NW }, { 'u', ACT_MOVE_NE }, { 'b', ACT_MOVE_SW }, { 'n', ACT_MOVE_SE },
	{ '.', ACT_WAIT }, { KEY_KP5, ACT_WAIT }, { KEY_SPACE, ACT_WAIT },
	{ 'g', ACT_PICKUP }, { ',', ACT_PICKUP },
	{ 'i', ACT_INVENTORY }, { 'd', ACT_DROP },
	{ '>', ACT_DESCEND }, { '<', ACT_ASCEND },
	{ 'c', ACT_CHARACTER },
	{ '/', ACT_LOOK }, { 'x', ACT_LOOK },
	{ 'v', ACT_HISTORY },
	{ KEY_ENTER, ACT_CONFIRM }, { KEY_KPENTER, ACT_CONFIRM }, { '\n', ACT_CONFIRM },
	{ KEY_ESCAPE, ACT_CANCEL },
	{ 'Q', ACT_QUIT },
	{ PAD_UP, ACT_MOVE_N }, { PAD_DOWN, ACT_MOVE_S }, { PAD_LEFT, ACT_MOVE_W }, { PAD_RIGHT, ACT_MOVE_E },
	{ PAD_UPLEFT, ACT_MOVE_NW }, { PAD_UPRIGHT, ACT_MOVE_NE },
	{ PAD_DOWNLEFT, ACT_MOVE_SW }, { PAD_DOWNRIGHT, ACT_MOVE_SE },
	{ PAD_SOUTH, ACT_PAD_A }, { PAD_EAST, ACT_PAD_B }, { PAD_WEST, ACT_INVENTORY },
	{ PAD_NORTH, ACT_LOOK }, { PAD_START, ACT_MENU }, { PAD_SELECT, ACT_HISTORY },
};

enum action bind_action(uint32_t key)
{
	for (unsigned i = 0; i < sizeof bindings / sizeof bindings[0]; i++)
		if (bindings[i].key == key)
			return bindings[i].act;
	return ACT_NONE;
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

const char *bind_action_name(enum action a)
{
	static const char *const names[ACT_COUNT] = {
		[ACT_NONE] = "none", [ACT_MOVE_N] = "move_n", [ACT_MOVE_NE] = "move_ne",
		[ACT_MOVE_E] = "move_e", [ACT_MOVE_SE] = "move_se", [ACT_MOVE_S] = "move_s",
		[ACT_MOVE_SW] = "move_sw", [ACT_MOVE_W] = "move_w", [ACT_MOVE_NW] = "move_nw",
		[ACT_WAIT] = "wait", [ACT_PICKUP] = "pickup", [ACT_DESCEND] = "descend",
		[ACT_ASCEND] = "ascend", [ACT_INVENTORY] = "inventory", [ACT_DROP] = "drop",
		[ACT_CHARACTER] = "character", [ACT_LOOK] = "look", [ACT_HISTORY] = "history",
		[ACT_CONFIRM] = "confirm", [ACT_CANCEL] = "cancel", [ACT_QUIT] = "quit",
		[ACT_PAD_A] = "pad_a", [ACT_PAD_B] = "pad_b", [ACT_MENU] = "menu",
	};
	return a < ACT_COUNT && names[a] ? names[a] : "?";
}
