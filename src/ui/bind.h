/* bind: the actions a key or button can ask for, and which key or button means which (GAME.md §7). */
#ifndef PIROGUE_UI_BIND_H
#define PIROGUE_UI_BIND_H
#include <stdint.h>

/* What a key asks for, before the screen in front decides what it means. */
enum action {
	ACT_NONE,
	ACT_MOVE_N, ACT_MOVE_NE, ACT_MOVE_E, ACT_MOVE_SE,
	ACT_MOVE_S, ACT_MOVE_SW, ACT_MOVE_W, ACT_MOVE_NW,
	ACT_WAIT,
	ACT_PICKUP,
	ACT_DESCEND,
	ACT_ASCEND,
	ACT_INVENTORY,
	ACT_DROP,
	ACT_CHARACTER,
	ACT_LOOK,
	ACT_HISTORY,
	ACT_CONFIRM,
	ACT_CANCEL,     /* Escape: cancel a screen; from play, save and quit to menu */
	ACT_QUIT,       /* Q: save and quit to the menu */
	ACT_PAD_A,      /* gamepad south: confirm / pick up / use the stairs */
	ACT_PAD_B,      /* gamepad east: cancel / wait */
	ACT_MENU,       /* gamepad Start */
	ACT_COUNT
};

/* The action bound to key (enum key or a code point), ACT_NONE if none. */
enum action bind_action(uint32_t key);
/* For a move action, the step (dx, dy) and 1; 0 for any other action. */
int bind_move_delta(enum action a, int *dx, int *dy);
/* Stable name of an action ("move_n", "wait", ...). */
const char *bind_action_name(enum action a);

#endif
