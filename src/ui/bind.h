/* bind: the actions a key or button can ask for, and the table of which key or button means which (GAME.md §7, rebindable from the settings file). */
#ifndef PIROGUE_UI_BIND_H
#define PIROGUE_UI_BIND_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a key asks for, before the screen in front decides what it means. */
enum action {
	ACT_NONE,
	ACT_MOVE_N, ACT_MOVE_NE, ACT_MOVE_E, ACT_MOVE_SE,
	ACT_MOVE_S, ACT_MOVE_SW, ACT_MOVE_W, ACT_MOVE_NW,
	ACT_WAIT,
	ACT_PICKUP,
	ACT_DESCEND,    /* down the stairs; away from them, travel to them */
	ACT_ASCEND,
	ACT_INVENTORY,  /* use an item */
	ACT_DROP,
	ACT_CHARACTER,
	ACT_LOOK,
	ACT_HISTORY,
	ACT_EXPLORE,    /* auto-explore */
	ACT_HELP,       /* every binding of every screen */
	ACT_CONFIRM,
	ACT_CANCEL,     /* Escape: cancel a screen; from play, save and quit to menu */
	ACT_QUIT,       /* Q: save and quit to the menu */
	ACT_DO,         /* gamepad A: confirm; on the map pick up or take the stairs */
	ACT_BACK,       /* gamepad B: cancel; on the map wait a turn */
	ACT_MENU,       /* gamepad Start: save and quit to the menu */
	ACT_OPTIONS,    /* the options screen */
	ACT_COUNT
};

/* The key table: each entry a key (enum key or a code point) and its action. */
#define BIND_MAX 256
struct bindings {
	int n;
	struct bind_entry {
		uint32_t key;
		enum action act;
	} e[BIND_MAX];
};

/* Fills b with the default bindings of GAME.md §7. */
void bind_defaults(struct bindings *b);
/* The default bindings, read-only. */
const struct bindings *bind_default(void);
/* The action bound to key in b, ACT_NONE if none. */
enum action bind_action(const struct bindings *b, uint32_t key);
/* The keys bound to a (gamepad buttons when pad, else keyboard keys), in
 * the table's order, up to max of them into keys; returns how many there
 * are in all. */
int bind_keys(const struct bindings *b, enum action a, bool pad, uint32_t *keys, int max);
/* Replaces the keyboard (or, when pad, the gamepad) bindings of a with the
 * keys listed in list (key names as --keys takes them, separated by
 * blanks; empty: a is left without one). A listed key bound to another
 * action is taken from it. Returns 0, or -EINVAL with a one-line reason in
 * why (an unknown key name, a gamepad button for the keyboard or the
 * other way round, too many keys), b unchanged. */
int bind_set(struct bindings *b, enum action a, bool pad, const char *list, char *why, size_t len);
/* Whether key is a gamepad button (else a keyboard key). */
bool bind_is_pad(uint32_t key);

/* For a move action, the step (dx, dy) and 1; 0 for any other action. */
int bind_move_delta(enum action a, int *dx, int *dy);
/* Stable name of an action ("move_n", "wait", ...), as the settings use it. */
const char *bind_action_name(enum action a);
/* The action named name: 0 and *a, or -EINVAL. */
int bind_action_parse(const char *name, enum action *a);
/* A short label of key for hints and help ("Esc", "↑", "A", "g"); written
 * into buf, which is returned. */
const char *bind_key_label(uint32_t key, char *buf, size_t len);

#endif
