/* keys: the input event every input backend produces, and the key codes they share. */
#ifndef PIROGUE_PLATFORM_KEYS_H
#define PIROGUE_PLATFORM_KEYS_H
#include <stdint.h>

/* Keys: a printable key is its Unicode code point after Shift ('a', 'A',
 * '<', '>'); the rest are named below, above the Unicode range. */
enum key {
	KEY_NONE = 0,
	KEY_ENTER = '\r',
	KEY_ESCAPE = 0x1B,
	KEY_SPACE = ' ',
	KEY_TAB = '\t',
	KEY_BACKSPACE = 0x7F,
	KEY_SPECIAL = 0x110000,
	KEY_UP = KEY_SPECIAL, KEY_DOWN, KEY_LEFT, KEY_RIGHT,
	KEY_HOME, KEY_END, KEY_PGUP, KEY_PGDN, KEY_INSERT, KEY_DELETE,
	/* numeric keypad, distinct so numpad 5 can wait while 5 types */
	KEY_KP0, KEY_KP1, KEY_KP2, KEY_KP3, KEY_KP4, KEY_KP5, KEY_KP6, KEY_KP7, KEY_KP8, KEY_KP9,
	KEY_KPENTER,
	KEY_F1, KEY_F2, KEY_F3, KEY_F4, KEY_F5, KEY_F6, KEY_F7, KEY_F8, KEY_F9, KEY_F10, KEY_F11, KEY_F12,
	/* a modifier pressed alone (costs nothing, does nothing) */
	KEY_MODIFIER,
	/* gamepad buttons, evdev standard layout names */
	PAD_SOUTH, PAD_EAST, PAD_WEST, PAD_NORTH, PAD_TL, PAD_TR,
	PAD_START, PAD_SELECT, PAD_UP, PAD_DOWN, PAD_LEFT, PAD_RIGHT,
	/* diagonals produced by the d-pad with a shoulder held, or by the stick */
	PAD_UPLEFT, PAD_UPRIGHT, PAD_DOWNLEFT, PAD_DOWNRIGHT,
	/* triggers and thumb-stick clicks (GAME.md §7: right trigger or a
	 * thumb click explores) */
	PAD_TL2, PAD_TR2, PAD_THUMBL, PAD_THUMBR,
	KEY_LAST
};

enum ev_type {
	EV_NONE_,
	EV_KEY_PRESS,   /* key: a key or pad button went down (or repeats) */
	EV_MOUSE_MOVE,  /* x, y: pointer now over this console cell */
	EV_MOUSE_CLICK, /* x, y, button (1 left, 2 middle, 3 right) */
	EV_RESIZE,      /* the display's console size changed */
	EV_QUIT,        /* the user or the system asked to quit (SIGTERM, SIGHUP, end of script) */
	EV_VT_SWITCH,   /* button: the VT the user asked for (Ctrl+Alt+F1..F12 on an evdev keyboard) */
};

enum dev_kind {
	DEV_KEYBOARD,
	DEV_GAMEPAD,
	DEV_MOUSE,
	DEV_SCRIPT,
};

struct in_event {
	enum ev_type type;
	uint32_t key;        /* enum key or a code point */
	int x, y, button;
	enum dev_kind from;  /* which kind of device produced it (hints name its buttons) */
};

/* The names key_parse takes besides one printable character, as --help and
 * the messages list them ("a..b": from a to b, counting): KEY_NAMES the
 * keyboard's keys (and "modifier", a modifier pressed alone: keys files
 * only), PAD_NAMES the gamepad's buttons. tests/test_keyfile.c checks that
 * they are all of key_parse's names. */
#define KEY_NAMES                                                                                 \
	"up down left right home end pgup pgdn insert delete enter escape space tab backspace " \
	"kp0..kp9 kpenter f1..f12"
#define PAD_NAMES                                                                            \
	"pad_a pad_b pad_x pad_y pad_l pad_r pad_l2 pad_r2 pad_start pad_select pad_thumbl " \
	"pad_thumbr pad_up pad_down pad_left pad_right pad_upleft pad_upright pad_downleft " \
	"pad_downright"

/* Name of a key for --keys files and messages ("up", "a", "<"). Writes into
 * buf and returns it. */
const char *key_name(uint32_t key, char *buf, int len);
/* Parses a --keys line's token (case-insensitive names, or one printable
 * UTF-8 character). Returns 0 and sets *key, or -EINVAL. */
int key_parse(const char *token, uint32_t *key);

#endif
