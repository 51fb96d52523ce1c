/* evmap: pure translation of evdev event sequences into pirogue in_events (US keymap, gamepad and stick state, pointer, device classes, a GameControllerDB entry resolved against a device); no I/O on devices. */
#ifndef PIROGUE_PLATFORM_EVMAP_H
#define PIROGUE_PLATFORM_EVMAP_H

/* platform/keys.h names pirogue's keys KEY_UP, KEY_ENTER, KEY_F1...; the
 * kernel's <linux/input-event-codes.h> defines macros with the same names.
 * input.h must therefore be seen first; after this header the KEY_* names
 * are the kernel's and pirogue's keys are spelled PK_* below. */
#if defined(KEY_ESC) && !defined(PIROGUE_PLATFORM_KEYS_H)
#error "include platform/evmap.h (or platform/keys.h) before <linux/input.h> or libevdev"
#endif
#include "platform/keys.h"

enum evm_pkey {
	PK_NONE = KEY_NONE, PK_ENTER = KEY_ENTER, PK_ESCAPE = KEY_ESCAPE,
	PK_SPACE = KEY_SPACE, PK_TAB = KEY_TAB, PK_BACKSPACE = KEY_BACKSPACE,
	PK_UP = KEY_UP, PK_DOWN = KEY_DOWN, PK_LEFT = KEY_LEFT, PK_RIGHT = KEY_RIGHT,
	PK_HOME = KEY_HOME, PK_END = KEY_END, PK_PGUP = KEY_PGUP, PK_PGDN = KEY_PGDN,
	PK_INSERT = KEY_INSERT, PK_DELETE = KEY_DELETE,
	PK_KP0 = KEY_KP0, PK_KP1 = KEY_KP1, PK_KP2 = KEY_KP2, PK_KP3 = KEY_KP3,
	PK_KP4 = KEY_KP4, PK_KP5 = KEY_KP5, PK_KP6 = KEY_KP6, PK_KP7 = KEY_KP7,
	PK_KP8 = KEY_KP8, PK_KP9 = KEY_KP9, PK_KPENTER = KEY_KPENTER,
	PK_F1 = KEY_F1, PK_F2 = KEY_F2, PK_F3 = KEY_F3, PK_F4 = KEY_F4,
	PK_F5 = KEY_F5, PK_F6 = KEY_F6, PK_F7 = KEY_F7, PK_F8 = KEY_F8,
	PK_F9 = KEY_F9, PK_F10 = KEY_F10, PK_F11 = KEY_F11, PK_F12 = KEY_F12,
	PK_MODIFIER = KEY_MODIFIER, PK_LAST = KEY_LAST,
};

#include "platform/evdb.h"
#include <linux/input-event-codes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Most in_events one evm_dev_feed() call can write (a gamepad report with
 * every button pressed at once). */
#define EVM_MAX_OUT 16

/* Left stick: normalised axis values run -1000..1000. The stick engages
 * (emits a direction) when its deflection reaches EVM_STICK_ENGAGE and lets
 * go when it falls below EVM_STICK_RELEASE (dead zone with hysteresis). A
 * sector is 45 degrees wide; the current sector is kept until the stick is
 * more than EVM_STICK_HYST_DEG beyond its edge. */
#define EVM_STICK_ENGAGE 500
#define EVM_STICK_RELEASE 350
#define EVM_STICK_HYST_DEG 8

/* ---------- device capabilities and classes ---------- */

struct evm_caps {
	uint8_t key[(KEY_CNT + 7) / 8];
	uint8_t rel[(REL_CNT + 7) / 8];
	uint8_t abs[(ABS_CNT + 7) / 8];
	uint8_t prop[(INPUT_PROP_CNT + 7) / 8];
	uint16_t bus, vendor, product, version;
	char name[128];
};

enum evm_class {
	EVM_KEYBOARD = 1,
	EVM_GAMEPAD = 2,
	EVM_MOUSE = 4,
};

/* Bit helpers for struct evm_caps bitmaps (code beyond the map: false). */
bool evm_bit(const uint8_t *map, int nbytes, unsigned code);
void evm_set_bit(uint8_t *map, int nbytes, unsigned code);
#define EVM_HAS(caps, field, code) evm_bit((caps)->field, (int)sizeof (caps)->field, (code))
#define EVM_SET(caps, field, code) evm_set_bit((caps)->field, (int)sizeof (caps)->field, (code))

/* Classifies a device by what it can report: keyboard (KEY_A..KEY_Z and
 * KEY_ENTER), gamepad (BTN_GAMEPAD/BTN_SOUTH, or ABS_X+ABS_Y with joystick
 * buttons), mouse (REL_X+REL_Y+BTN_LEFT, or an absolute pointer: ABS_X+ABS_Y
 * with BTN_LEFT or BTN_TOUCH that is neither a joystick nor a touchpad).
 * Returns a mask of enum evm_class (0: ignored) and sets *why to a short
 * static explanation of the decision. */
unsigned evm_classify(const struct evm_caps *c, const char **why);

/* ---------- gamepad mapping: evdev code -> logical control ---------- */

/* The SDL joystick GUID of a device with capabilities c (evdb_guid of its
 * bus, vendor, product, version and name). */
void evm_guid(const struct evm_caps *c, uint8_t guid[16]);

/* One binding resolved against a device. Values are in SDL's units
 * (-32768..32767, see evm_sdl_axis). */
struct evm_rule {
	uint16_t type;    /* EV_KEY, or EV_ABS: an axis, or a hat when hatmask != 0 */
	uint16_t code;    /* the key, the axis, or the hat's ABS_HATnX */
	uint8_t hatmask;
	uint8_t target;   /* enum evdb_btn, EVDB_T_LX .. EVDB_T_RT or EVDB_T_OTHER + n */
	int16_t in_min, in_max;   /* axis input range: a: -32768..32767, +a: 0..32767, -a: 0..-32768; ~ swaps */
	int16_t out_min, out_max; /* axis output range: leftx -32768..32767, +leftx 0..32767, -leftx 0..-32768,
				     triggers 0..32767 */
};

#define EVM_MAX_RULES 48
struct evm_padmap {
	int n;
	struct evm_rule r[EVM_MAX_RULES];
	char source[64];  /* "kernel layout" or the DB entry's name */
};

/* The kernel's standard gamepad layout (BTN_SOUTH..., BTN_TL2/TR2,
 * BTN_THUMBL/R, BTN_DPAD_*, ABS_HAT0X/Y, ABS_X/ABS_Y, and on a pad with
 * BTN_GAMEPAD the analog triggers ABS_Z/ABS_RZ as SDL takes them), plus
 * BTN_TRIGGER..BTN_BASE4 for generic joysticks. */
void evm_padmap_default(struct evm_padmap *m, const struct evm_caps *c);
/* Resolves a DB entry against a device's capabilities the way SDL numbers
 * them: buttons BTN_JOYSTICK..KEY_MAX then 0..BTN_JOYSTICK-1, axes in code
 * order without the hats, hats in order of presence. Bindings whose index the
 * device does not have are dropped. Returns the number of rules. */
int evm_padmap_from_db(struct evm_padmap *m, const struct evdb_entry *e, const struct evm_caps *c);

/* A trigger (0..32767 in SDL's units) presses L2/R2 from this value on. */
#define EVM_TRIGGER_PRESS 16384
/* Scales a raw absolute value from [min,max] to -1000..1000. */
int evm_norm_axis(int value, int min, int max);
/* A raw axis value in SDL's units, as SDL 2.26's Linux driver computes it
 * (no dead zones): min..max spread over -32768..32767, rounded down after
 * adding one half, clamped; the raw value clamped when min == max. */
int evm_sdl_axis(int value, int min, int max);

/* ---------- per-device translation state ---------- */

/* The event a held movement key/direction repeats. gen changes each time a
 * new hold starts, so the owner can restart its repeat timer. */
struct evm_hold {
	bool on;
	uint32_t gen;
	struct in_event ev;
};

/* The modifier state every keyboard shares, as the Linux console, X11 and
 * Wayland share it: Shift on one keyboard shifts the keys of another. */
struct evm_mods {
	uint8_t held[8];     /* per modifier key (left/right Shift, Ctrl, Alt, Meta): keyboards holding it */
	bool caps;           /* Caps Lock toggled on */
	uint16_t lone;       /* a modifier pressed with no other key since (on any keyboard), or 0 */
};

struct evm_kbd {
	uint16_t mods;       /* modifier keys this keyboard holds (bit per held[] slot) */
	uint16_t held_code;  /* evdev code behind the hold, 0 none */
};

struct evm_pad {
	uint16_t btn;        /* logical buttons down, bit per enum evdb_btn */
	uint16_t prev;       /* as of the last report */
	int ax[2];           /* left stick, -1000..1000 */
	uint8_t hat[4];      /* per ABS_HATn: SDL hat bits (1 up, 2 right, 4 down, 8 left) */
	uint8_t last[ABS_CNT]; /* per axis: 1 + the rule it drove last (SDL's last match), 0 none */
	int sector;          /* -1 centre, 0 right, 1 down-right ... 7 up-right */
	uint16_t hold_mask;  /* d-pad buttons behind the hold; 0 none */
	bool hold_stick;     /* the stick is behind the hold */
};

/* The pointer all mice share, in pixels, and the cell grid it is reported in. */
struct evm_pointer {
	int px_w, px_h, cell_w, cell_h;  /* 0 until evm_pointer_space() */
	int x, y;                        /* pixels */
	int cx, cy;                      /* last reported cell, -1 none */
};

struct evm_mouse {
	int dx, dy;          /* relative motion this report */
	int absx, absy;      /* absolute position this report */
	uint8_t absset;      /* bit 0: absx given this report, bit 1: absy */
	uint8_t clicks;      /* buttons pressed this report: bit 0 left, 1 middle, 2 right */
};

struct evm_dev {
	unsigned cls;        /* enum evm_class mask */
	bool syncing;        /* between evm_dev_sync_begin and _end */
	struct evm_kbd kbd;
	struct evm_mods own_mods;  /* used while shared is NULL */
	struct evm_mods *shared;   /* the seat's modifiers (evm_dev_share), or NULL */
	struct evm_pad pad;
	struct evm_padmap map;
	struct evm_mouse mouse;
	struct evm_hold hold;
	int absmin[ABS_CNT], absmax[ABS_CNT];
};

/* Sets up translation state for a device of classes cls with capabilities
 * c (absolute ranges come from absmin/absmax, filled by the caller; the
 * gamepad map is the kernel layout unless evm_padmap_from_db replaces it). */
void evm_dev_init(struct evm_dev *d, unsigned cls, const struct evm_caps *c);
/* Makes the keyboard share modifiers (and Caps Lock) with every other
 * device given the same m; NULL: its own. Call after evm_dev_init, before
 * feeding. */
void evm_dev_share(struct evm_dev *d, struct evm_mods *m);
/* Whether Caps Lock is on for this device (its shared state). */
bool evm_dev_caps(const struct evm_dev *d);
/* Sets Caps Lock (e.g. from a keyboard's LED when it is opened). */
void evm_dev_set_caps(struct evm_dev *d, bool on);
/* Feeds one evdev event. Writes at most EVM_MAX_OUT events to out and
 * returns how many. Keys act on press; gamepad axes, hats and mouse motion
 * act at SYN_REPORT. Kernel autorepeat (value 2) is ignored. */
int evm_dev_feed(struct evm_dev *d, struct evm_pointer *p, unsigned type, unsigned code, int value, struct in_event *out);
/* SYN_DROPPED recovery: between _begin and _end, the events fed are the
 * differences libevdev computed (LIBEVDEV_READ_FLAG_SYNC); they update the
 * state (modifiers, held keys and buttons, stick, pointer) but emit nothing,
 * so a key lost in the gap is neither stuck nor replayed. */
void evm_dev_sync_begin(struct evm_dev *d);
void evm_dev_sync_end(struct evm_dev *d, struct evm_pointer *p);
/* Forgets everything held (VT switched away, device gone): no hold, its
 * modifier keys released (also for the keyboards sharing them), stick
 * centred. Caps Lock survives. */
void evm_dev_release_all(struct evm_dev *d);

/* Sets the pixel size of the screen and of a cell; the pointer is clamped
 * into it. A zero or negative size turns pointer events off. */
void evm_pointer_space(struct evm_pointer *p, int px_w, int px_h, int cell_w, int cell_h);

/* Whether a key is a movement key that repeats while held: arrows,
 * Home/End/PgUp/PgDn, keypad 1-4 and 6-9, h j k l y u b n, and the pad
 * directions. */
bool evm_key_repeats(uint32_t key);

#endif
