/* Tests for platform/evmap: evdev event sequences (synthetic) translated
 * into pirogue's input events, and GameControllerDB entries (platform/evdb)
 * resolved against a device as SDL resolves them. */
#include "testutil.h"
#include "logcap.h"
#include "platform/evmap.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct evm_pointer ptr;
static struct in_event got[256];
static int ngot;

static void feed(struct evm_dev *d, unsigned type, unsigned code, int value)
{
	struct in_event out[EVM_MAX_OUT];
	int n = evm_dev_feed(d, &ptr, type, code, value, out);
	assert_true(n >= 0 && n <= EVM_MAX_OUT);
	assert_true(ngot + n <= (int)(sizeof got / sizeof *got));
	memcpy(got + ngot, out, (size_t)n * sizeof *out);
	ngot += n;
}

static void syn(struct evm_dev *d)
{
	feed(d, EV_SYN, SYN_REPORT, 0);
}

/* One key or button change followed by its SYN_REPORT. */
static void key(struct evm_dev *d, unsigned code, int value)
{
	feed(d, EV_KEY, code, value);
	syn(d);
}

static void tap(struct evm_dev *d, unsigned code)
{
	key(d, code, 1);
	key(d, code, 0);
}

static void abs1(struct evm_dev *d, unsigned code, int value)
{
	feed(d, EV_ABS, code, value);
	syn(d);
}

static void reset_got(void)
{
	ngot = 0;
	memset(got, 0, sizeof got);
}

static void expect_keys(const uint32_t *keys, int n)
{
	assert_int_equal(ngot, n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(got[i].type, EV_KEY_PRESS);
		assert_int_equal(got[i].key, keys[i]);
	}
	reset_got();
}

#define EXPECT(...) do { \
	const uint32_t want_[] = {__VA_ARGS__}; \
	expect_keys(want_, (int)(sizeof want_ / sizeof *want_)); \
} while (0)
#define EXPECT_NONE() do { assert_int_equal(ngot, 0); reset_got(); } while (0)

static void caps_keyboard(struct evm_caps *c)
{
	memset(c, 0, sizeof *c);
	for (unsigned k = KEY_ESC; k <= KEY_DELETE; k++)
		EVM_SET(c, key, k);
	c->bus = 0x11;
	c->vendor = 1;
	c->product = 1;
}

static void caps_pad(struct evm_caps *c, bool hat)
{
	static const uint16_t btn[] = {BTN_SOUTH, BTN_EAST, BTN_WEST, BTN_NORTH, BTN_TL, BTN_TR,
				       BTN_START, BTN_SELECT, BTN_MODE};
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < sizeof btn / sizeof *btn; i++)
		EVM_SET(c, key, btn[i]);
	if (hat) {
		EVM_SET(c, abs, ABS_HAT0X);
		EVM_SET(c, abs, ABS_HAT0Y);
	} else {
		for (unsigned k = BTN_DPAD_UP; k <= BTN_DPAD_RIGHT; k++)
			EVM_SET(c, key, k);
	}
	EVM_SET(c, abs, ABS_X);
	EVM_SET(c, abs, ABS_Y);
	EVM_SET(c, abs, ABS_RX);
	EVM_SET(c, abs, ABS_RY);
	c->bus = 3;
	c->vendor = 0x045e;
	c->product = 0x028e;
	c->version = 0x0114;
	snprintf(c->name, sizeof c->name, "Test Pad");
}

static void mk_dev(struct evm_dev *d, const struct evm_caps *c, unsigned cls)
{
	memset(d, 0, sizeof *d);
	for (int a = 0; a < ABS_CNT; a++) {
		d->absmin[a] = -32768;
		d->absmax[a] = 32767;
	}
	for (int a = ABS_HAT0X; a <= ABS_HAT3Y; a++) {
		d->absmin[a] = -1;
		d->absmax[a] = 1;
	}
	evm_dev_init(d, cls, c);
	reset_got();
}

static struct evm_dev kbd;

static void setup_kbd(void)
{
	struct evm_caps c;
	caps_keyboard(&c);
	assert_int_equal(evm_classify(&c, NULL), EVM_KEYBOARD);
	mk_dev(&kbd, &c, EVM_KEYBOARD);
}

/* ---------- classification ---------- */

static void test_classify(void **st)
{
	(void)st;
	struct evm_caps c;
	const char *why = NULL;
	caps_keyboard(&c);
	assert_int_equal(evm_classify(&c, &why), EVM_KEYBOARD);
	assert_non_null(strstr(why, "KEY_A"));

	caps_pad(&c, false);
	assert_int_equal(evm_classify(&c, &why), EVM_GAMEPAD);
	assert_non_null(strstr(why, "BTN_SOUTH"));

	/* a generic joystick: stick axes and BTN_TRIGGER.. buttons */
	memset(&c, 0, sizeof c);
	EVM_SET(&c, abs, ABS_X);
	EVM_SET(&c, abs, ABS_Y);
	EVM_SET(&c, key, BTN_TRIGGER);
	EVM_SET(&c, key, BTN_THUMB);
	assert_int_equal(evm_classify(&c, &why), EVM_GAMEPAD);
	assert_non_null(strstr(why, "joystick"));

	/* a mouse */
	memset(&c, 0, sizeof c);
	EVM_SET(&c, rel, REL_X);
	EVM_SET(&c, rel, REL_Y);
	EVM_SET(&c, rel, REL_WHEEL);
	EVM_SET(&c, key, BTN_LEFT);
	EVM_SET(&c, key, BTN_RIGHT);
	assert_int_equal(evm_classify(&c, &why), EVM_MOUSE);
	assert_non_null(strstr(why, "REL_X"));

	/* QEMU usb-tablet: absolute pointer */
	memset(&c, 0, sizeof c);
	EVM_SET(&c, abs, ABS_X);
	EVM_SET(&c, abs, ABS_Y);
	EVM_SET(&c, key, BTN_LEFT);
	assert_int_equal(evm_classify(&c, &why), EVM_MOUSE);
	assert_non_null(strstr(why, "absolute"));

	/* a laptop touchpad is not taken for a tablet */
	EVM_SET(&c, key, BTN_TOOL_FINGER);
	EVM_SET(&c, key, BTN_TOUCH);
	assert_int_equal(evm_classify(&c, &why), 0);
	assert_non_null(strstr(why, "touchpad"));
	/* ... but a touchscreen is a pointer */
	EVM_SET(&c, prop, INPUT_PROP_DIRECT);
	assert_int_equal(evm_classify(&c, &why), EVM_MOUSE);

	/* a power button: a few keys, no letters */
	memset(&c, 0, sizeof c);
	EVM_SET(&c, key, KEY_POWER);
	assert_int_equal(evm_classify(&c, &why), 0);
	assert_non_null(strstr(why, "no letter keys"));

	/* a keyboard with letters but no Enter is not a keyboard */
	caps_keyboard(&c);
	c.key[KEY_ENTER / 8] &= (uint8_t)~(1u << (KEY_ENTER % 8));
	assert_int_equal(evm_classify(&c, &why), 0);

	/* a keyboard with a built-in pointing stick */
	caps_keyboard(&c);
	EVM_SET(&c, rel, REL_X);
	EVM_SET(&c, rel, REL_Y);
	EVM_SET(&c, key, BTN_LEFT);
	assert_int_equal(evm_classify(&c, &why), EVM_KEYBOARD | EVM_MOUSE);
	assert_non_null(strstr(why, "pointer"));
}

/* ---------- keyboard ---------- */

static void test_shift_punctuation(void **st)
{
	(void)st;
	setup_kbd();
	tap(&kbd, KEY_DOT);
	EXPECT('.');
	key(&kbd, KEY_LEFTSHIFT, 1);
	tap(&kbd, KEY_DOT);
	key(&kbd, KEY_LEFTSHIFT, 0);
	EXPECT('>'); /* no KEY_MODIFIER: Shift was not alone */
	key(&kbd, KEY_RIGHTSHIFT, 1);
	tap(&kbd, KEY_COMMA);
	tap(&kbd, KEY_A);
	tap(&kbd, KEY_1);
	tap(&kbd, KEY_SLASH);
	tap(&kbd, KEY_SEMICOLON);
	tap(&kbd, KEY_APOSTROPHE);
	key(&kbd, KEY_RIGHTSHIFT, 0);
	EXPECT('<', 'A', '!', '?', ':', '"');
	tap(&kbd, KEY_A);
	tap(&kbd, KEY_COMMA);
	tap(&kbd, KEY_SLASH);
	tap(&kbd, KEY_G);
	tap(&kbd, KEY_0);
	tap(&kbd, KEY_MINUS);
	EXPECT('a', ',', '/', 'g', '0', '-');
}

static void test_caps_lock(void **st)
{
	(void)st;
	setup_kbd();
	tap(&kbd, KEY_CAPSLOCK);
	EXPECT(KEY_MODIFIER); /* a lone lock key, too */
	tap(&kbd, KEY_Q);
	tap(&kbd, KEY_DOT); /* Caps Lock is for letters only */
	key(&kbd, KEY_LEFTSHIFT, 1);
	tap(&kbd, KEY_Q);
	tap(&kbd, KEY_DOT);
	key(&kbd, KEY_LEFTSHIFT, 0);
	EXPECT('Q', '.', 'q', '>');
	tap(&kbd, KEY_CAPSLOCK);
	tap(&kbd, KEY_Q);
	EXPECT(KEY_MODIFIER, 'q');
}

static void test_lone_modifier(void **st)
{
	(void)st;
	setup_kbd();
	tap(&kbd, KEY_LEFTSHIFT);
	EXPECT(KEY_MODIFIER);
	tap(&kbd, KEY_RIGHTCTRL);
	tap(&kbd, KEY_LEFTALT);
	tap(&kbd, KEY_LEFTMETA);
	tap(&kbd, KEY_NUMLOCK);
	EXPECT(KEY_MODIFIER, KEY_MODIFIER, KEY_MODIFIER, KEY_MODIFIER);
	/* the press alone produces nothing; the release of a lone one does */
	key(&kbd, KEY_LEFTSHIFT, 1);
	EXPECT_NONE();
	key(&kbd, KEY_LEFTSHIFT, 0);
	EXPECT(KEY_MODIFIER);
	/* Shift then Ctrl, released: only the last one pressed was alone */
	key(&kbd, KEY_LEFTSHIFT, 1);
	key(&kbd, KEY_LEFTCTRL, 1);
	key(&kbd, KEY_LEFTCTRL, 0);
	key(&kbd, KEY_LEFTSHIFT, 0);
	EXPECT(KEY_MODIFIER);
	/* unknown keys (volume) produce nothing */
	tap(&kbd, KEY_VOLUMEUP);
	EXPECT_NONE();
}

static void test_special_keys(void **st)
{
	(void)st;
	setup_kbd();
	tap(&kbd, KEY_UP);
	tap(&kbd, KEY_DOWN);
	tap(&kbd, KEY_LEFT);
	tap(&kbd, KEY_RIGHT);
	tap(&kbd, KEY_HOME);
	tap(&kbd, KEY_END);
	tap(&kbd, KEY_PAGEUP);
	tap(&kbd, KEY_PAGEDOWN);
	EXPECT(PK_UP, PK_DOWN, PK_LEFT, PK_RIGHT, PK_HOME, PK_END, PK_PGUP, PK_PGDN);
	tap(&kbd, KEY_ENTER);
	tap(&kbd, KEY_ESC);
	tap(&kbd, KEY_SPACE);
	tap(&kbd, KEY_TAB);
	tap(&kbd, KEY_BACKSPACE);
	tap(&kbd, KEY_KPENTER);
	tap(&kbd, KEY_INSERT);
	tap(&kbd, KEY_DELETE);
	EXPECT(PK_ENTER, PK_ESCAPE, ' ', '\t', PK_BACKSPACE, PK_KPENTER, PK_INSERT, PK_DELETE);
	assert_int_equal(PK_ENTER, '\r');
	assert_int_equal(PK_ESCAPE, 0x1B);
	tap(&kbd, KEY_F1);
	tap(&kbd, KEY_F10);
	tap(&kbd, KEY_F11);
	tap(&kbd, KEY_F12);
	EXPECT(PK_F1, PK_F10, PK_F11, PK_F12);
	/* the keypad is always directional numbers, whatever Num Lock says */
	static const unsigned kp[10] = {KEY_KP0, KEY_KP1, KEY_KP2, KEY_KP3, KEY_KP4,
					KEY_KP5, KEY_KP6, KEY_KP7, KEY_KP8, KEY_KP9};
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < 10; i++)
			tap(&kbd, kp[i]);
		EXPECT(PK_KP0, PK_KP1, PK_KP2, PK_KP3, PK_KP4, PK_KP5, PK_KP6, PK_KP7, PK_KP8, PK_KP9);
		tap(&kbd, KEY_NUMLOCK);
		EXPECT(KEY_MODIFIER);
	}
	key(&kbd, KEY_LEFTSHIFT, 1);
	tap(&kbd, KEY_KP8); /* Shift does not turn the keypad into anything else */
	key(&kbd, KEY_LEFTSHIFT, 0);
	tap(&kbd, KEY_KPDOT);
	tap(&kbd, KEY_KPPLUS);
	EXPECT(PK_KP8, '.', '+');
	/* kernel autorepeat (value 2) is ignored: pirogue repeats by itself */
	key(&kbd, KEY_A, 1);
	key(&kbd, KEY_A, 2);
	key(&kbd, KEY_A, 2);
	key(&kbd, KEY_A, 0);
	EXPECT('a');
}

static void test_ctrl_alt(void **st)
{
	(void)st;
	setup_kbd();
	key(&kbd, KEY_LEFTCTRL, 1);
	key(&kbd, KEY_LEFTALT, 1);
	tap(&kbd, KEY_F2);
	tap(&kbd, KEY_F12);
	key(&kbd, KEY_LEFTALT, 0);
	key(&kbd, KEY_LEFTCTRL, 0);
	assert_int_equal(ngot, 2);
	assert_int_equal(got[0].type, EV_VT_SWITCH);
	assert_int_equal(got[0].button, 2);
	assert_int_equal(got[1].type, EV_VT_SWITCH);
	assert_int_equal(got[1].button, 12);
	reset_got();
	/* Ctrl+letter is the control character, as a terminal sends it */
	key(&kbd, KEY_RIGHTCTRL, 1);
	tap(&kbd, KEY_C);
	tap(&kbd, KEY_F2); /* Ctrl+F2 without Alt is just F2 */
	key(&kbd, KEY_RIGHTCTRL, 0);
	/* Alt is ignored */
	key(&kbd, KEY_RIGHTALT, 1);
	tap(&kbd, KEY_X);
	key(&kbd, KEY_RIGHTALT, 0);
	assert_int_equal(got[0].from, DEV_KEYBOARD);
	EXPECT(3, PK_F2, 'x');
}

static void test_key_hold(void **st)
{
	(void)st;
	setup_kbd();
	key(&kbd, KEY_UP, 1);
	assert_true(kbd.hold.on);
	assert_int_equal(kbd.hold.ev.key, PK_UP);
	uint32_t gen = kbd.hold.gen;
	key(&kbd, KEY_I, 1); /* another key stops the repeat */
	assert_false(kbd.hold.on);
	key(&kbd, KEY_I, 0);
	key(&kbd, KEY_UP, 0);
	assert_false(kbd.hold.on);
	key(&kbd, KEY_H, 1);
	assert_true(kbd.hold.on);
	assert_int_equal(kbd.hold.ev.key, 'h');
	assert_int_not_equal(kbd.hold.gen, gen);
	key(&kbd, KEY_KP9, 1); /* the newest held key repeats */
	assert_int_equal(kbd.hold.ev.key, PK_KP9);
	key(&kbd, KEY_H, 0); /* releasing the older one changes nothing */
	assert_true(kbd.hold.on);
	key(&kbd, KEY_KP9, 0);
	assert_false(kbd.hold.on);
	key(&kbd, KEY_KP5, 1); /* waiting does not repeat */
	assert_false(kbd.hold.on);
	key(&kbd, KEY_KP5, 0);
	key(&kbd, KEY_LEFTSHIFT, 1);
	key(&kbd, KEY_H, 1); /* 'H' is not a movement key */
	assert_false(kbd.hold.on);
	key(&kbd, KEY_H, 0);
	key(&kbd, KEY_LEFT, 1); /* Shift+arrow is */
	assert_true(kbd.hold.on);
	key(&kbd, KEY_LEFT, 0);
	key(&kbd, KEY_LEFTSHIFT, 0);
	key(&kbd, KEY_LEFTCTRL, 1);
	key(&kbd, KEY_LEFT, 1);
	assert_false(kbd.hold.on);
	assert_true(evm_key_repeats(PAD_UPLEFT));
	assert_true(evm_key_repeats('n'));
	assert_false(evm_key_repeats('.'));
	assert_false(evm_key_repeats(PAD_SOUTH));
	assert_false(evm_key_repeats(0));
}

/* ---------- gamepad ---------- */

/* issue 11 defect 3: Shift, Ctrl, Alt and Caps Lock are shared between
 * keyboards, as the Linux console, X11 and Wayland share them; a modifier
 * held on a keyboard that goes away is released. */
static void test_shared_modifiers(void **st)
{
	(void)st;
	struct evm_caps c;
	struct evm_dev kb2;
	struct evm_mods seat = {0};
	caps_keyboard(&c);
	mk_dev(&kbd, &c, EVM_KEYBOARD);
	mk_dev(&kb2, &c, EVM_KEYBOARD);
	evm_dev_share(&kbd, &seat);
	evm_dev_share(&kb2, &seat);
	key(&kbd, KEY_LEFTSHIFT, 1);
	tap(&kb2, KEY_DOT); /* '>': descend */
	tap(&kb2, KEY_Q);
	key(&kb2, KEY_RIGHTSHIFT, 1); /* both hold a Shift: one letting go leaves the other */
	key(&kbd, KEY_LEFTSHIFT, 0);
	tap(&kb2, KEY_COMMA);
	key(&kb2, KEY_RIGHTSHIFT, 0);
	tap(&kb2, KEY_COMMA);
	EXPECT('>', 'Q', '<', ',');
	/* Ctrl on one, Alt on the other, F2 on the first: a VT switch */
	key(&kbd, KEY_LEFTCTRL, 1);
	key(&kb2, KEY_LEFTALT, 1);
	feed(&kbd, EV_KEY, KEY_F2, 1);
	syn(&kbd);
	assert_int_equal(ngot, 1);
	assert_int_equal(got[0].type, EV_VT_SWITCH);
	assert_int_equal(got[0].button, 2);
	reset_got();
	key(&kbd, KEY_F2, 0);
	key(&kb2, KEY_LEFTALT, 0);
	tap(&kb2, KEY_C);
	EXPECT(3); /* Ctrl+C from the other keyboard */
	key(&kbd, KEY_LEFTCTRL, 0);
	/* Caps Lock toggled on one keyboard shifts the letters of the other */
	tap(&kbd, KEY_CAPSLOCK);
	tap(&kb2, KEY_A);
	assert_true(evm_dev_caps(&kb2));
	tap(&kb2, KEY_CAPSLOCK);
	tap(&kbd, KEY_A);
	EXPECT(KEY_MODIFIER, 'A', KEY_MODIFIER, 'a');
	/* a keyboard unplugged with Shift down: Shift is released */
	key(&kbd, KEY_LEFTSHIFT, 1);
	tap(&kb2, KEY_DOT);
	evm_dev_release_all(&kbd);
	tap(&kb2, KEY_DOT);
	EXPECT('>', '.');
	/* a device with no seat keeps its own */
	struct evm_dev alone;
	mk_dev(&alone, &c, EVM_KEYBOARD);
	key(&kb2, KEY_LEFTSHIFT, 1);
	tap(&alone, KEY_DOT);
	EXPECT('.');
}

static struct evm_dev pad;

static void setup_pad(bool hat)
{
	struct evm_caps c;
	caps_pad(&c, hat);
	assert_int_equal(evm_classify(&c, NULL), EVM_GAMEPAD);
	mk_dev(&pad, &c, EVM_GAMEPAD);
}

static void test_pad_buttons(void **st)
{
	(void)st;
	setup_pad(false);
	feed(&pad, EV_KEY, BTN_SOUTH, 1);
	EXPECT_NONE(); /* gamepads act on the report */
	syn(&pad);
	assert_int_equal(got[0].from, DEV_GAMEPAD);
	EXPECT(PAD_SOUTH);
	key(&pad, BTN_SOUTH, 0);
	EXPECT_NONE();
	tap(&pad, BTN_EAST);
	tap(&pad, BTN_WEST);
	tap(&pad, BTN_NORTH);
	tap(&pad, BTN_START);
	tap(&pad, BTN_SELECT);
	tap(&pad, BTN_MODE); /* guide: not used */
	EXPECT(PAD_EAST, PAD_WEST, PAD_NORTH, PAD_START, PAD_SELECT);
	/* two buttons in one report */
	feed(&pad, EV_KEY, BTN_SOUTH, 1);
	feed(&pad, EV_KEY, BTN_START, 1);
	syn(&pad);
	EXPECT(PAD_SOUTH, PAD_START);
}

static void test_dpad_buttons(void **st)
{
	(void)st;
	setup_pad(false);
	key(&pad, BTN_DPAD_UP, 1);
	EXPECT(PAD_UP);
	assert_true(pad.hold.on);
	assert_int_equal(pad.hold.ev.key, PAD_UP);
	key(&pad, BTN_DPAD_UP, 0);
	assert_false(pad.hold.on);
	tap(&pad, BTN_DPAD_DOWN);
	tap(&pad, BTN_DPAD_LEFT);
	tap(&pad, BTN_DPAD_RIGHT);
	EXPECT(PAD_DOWN, PAD_LEFT, PAD_RIGHT);
	/* rolling the thumb from up to left: up, then left, no diagonal */
	key(&pad, BTN_DPAD_UP, 1);
	key(&pad, BTN_DPAD_LEFT, 1);
	key(&pad, BTN_DPAD_UP, 0);
	assert_true(pad.hold.on); /* left, the newest, still repeats */
	assert_int_equal(pad.hold.ev.key, PAD_LEFT);
	key(&pad, BTN_DPAD_LEFT, 0);
	assert_false(pad.hold.on);
	EXPECT(PAD_UP, PAD_LEFT);
	/* both in one report: the d-pad was pressed on its diagonal */
	feed(&pad, EV_KEY, BTN_DPAD_DOWN, 1);
	feed(&pad, EV_KEY, BTN_DPAD_RIGHT, 1);
	syn(&pad);
	EXPECT(PAD_DOWNRIGHT);
	assert_true(pad.hold.on);
}

static void test_dpad_hat(void **st)
{
	(void)st;
	setup_pad(true);
	abs1(&pad, ABS_HAT0Y, -1);
	abs1(&pad, ABS_HAT0Y, 0);
	abs1(&pad, ABS_HAT0Y, 1);
	abs1(&pad, ABS_HAT0Y, 0);
	abs1(&pad, ABS_HAT0X, -1);
	abs1(&pad, ABS_HAT0X, 1); /* straight from left to right */
	abs1(&pad, ABS_HAT0X, 0);
	EXPECT(PAD_UP, PAD_DOWN, PAD_LEFT, PAD_RIGHT);
	feed(&pad, EV_ABS, ABS_HAT0X, -1);
	feed(&pad, EV_ABS, ABS_HAT0Y, -1);
	syn(&pad);
	EXPECT(PAD_UPLEFT);
	assert_true(pad.hold.on);
	feed(&pad, EV_ABS, ABS_HAT0X, 0);
	feed(&pad, EV_ABS, ABS_HAT0Y, 0);
	syn(&pad);
	EXPECT_NONE();
	assert_false(pad.hold.on);
}

static void test_shoulder_diagonals(void **st)
{
	(void)st;
	static const struct { unsigned shoulder, dir; uint32_t want; } t[] = {
		{BTN_TL, BTN_DPAD_UP, PAD_UPLEFT}, {BTN_TR, BTN_DPAD_UP, PAD_UPRIGHT},
		{BTN_TL, BTN_DPAD_DOWN, PAD_DOWNLEFT}, {BTN_TR, BTN_DPAD_DOWN, PAD_DOWNRIGHT},
		{BTN_TL, BTN_DPAD_LEFT, PAD_UPLEFT}, {BTN_TR, BTN_DPAD_LEFT, PAD_DOWNLEFT},
		{BTN_TL, BTN_DPAD_RIGHT, PAD_UPRIGHT}, {BTN_TR, BTN_DPAD_RIGHT, PAD_DOWNRIGHT},
	};
	setup_pad(false);
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		key(&pad, t[i].shoulder, 1);
		key(&pad, t[i].dir, 1);
		assert_true(pad.hold.on);
		assert_int_equal(pad.hold.ev.key, t[i].want);
		key(&pad, t[i].dir, 0);
		key(&pad, t[i].shoulder, 0);
		EXPECT(t[i].shoulder == BTN_TL ? PAD_TL : PAD_TR, t[i].want);
	}
	/* both shoulders: no diagonal */
	key(&pad, BTN_TL, 1);
	key(&pad, BTN_TR, 1);
	tap(&pad, BTN_DPAD_UP);
	key(&pad, BTN_TL, 0);
	key(&pad, BTN_TR, 0);
	EXPECT(PAD_TL, PAD_TR, PAD_UP);
	/* the same with a hat */
	setup_pad(true);
	key(&pad, BTN_TR, 1);
	abs1(&pad, ABS_HAT0Y, 1);
	EXPECT(PAD_TR, PAD_DOWNRIGHT);
}

static void stick(struct evm_dev *d, int x, int y)
{
	feed(d, EV_ABS, ABS_X, x);
	feed(d, EV_ABS, ABS_Y, y);
	syn(d);
}

static void test_stick_sectors(void **st)
{
	(void)st;
	static const struct { int x, y; uint32_t want; } dirs[8] = {
		{30000, 0, PAD_RIGHT}, {21000, 21000, PAD_DOWNRIGHT}, {0, 30000, PAD_DOWN},
		{-21000, 21000, PAD_DOWNLEFT}, {-30000, 0, PAD_LEFT}, {-21000, -21000, PAD_UPLEFT},
		{0, -30000, PAD_UP}, {21000, -21000, PAD_UPRIGHT},
	};
	setup_pad(false);
	for (int i = 0; i < 8; i++) {
		stick(&pad, dirs[i].x, dirs[i].y);
		assert_true(pad.hold.on);
		stick(&pad, 0, 0);
		assert_false(pad.hold.on);
		EXPECT(dirs[i].want);
	}
	/* the dead zone: 30% does nothing */
	stick(&pad, 9800, 0);
	stick(&pad, 0, -9800);
	EXPECT_NONE();
	/* engage at 50%, stay engaged down to 35% */
	stick(&pad, 17000, 0);
	EXPECT(PAD_RIGHT);
	stick(&pad, 13000, 0);
	EXPECT_NONE();
	assert_true(pad.hold.on);
	stick(&pad, 11000, 0); /* below 35%: let go */
	assert_false(pad.hold.on);
	stick(&pad, 15000, 0); /* 46%: not yet again */
	EXPECT_NONE();
	/* sector hysteresis: from right, 30 degrees is still right, 35 is down-right */
	stick(&pad, 30000, 0);
	stick(&pad, 25981, 15000); /* 30 degrees */
	EXPECT(PAD_RIGHT);
	stick(&pad, 24575, 17207); /* 35 degrees */
	EXPECT(PAD_DOWNRIGHT);
	/* and back: 20 degrees is within down-right's widened edge (45-30.5=14.5) */
	stick(&pad, 28191, 10261); /* 20 degrees */
	EXPECT_NONE();
	stick(&pad, 29544, 5209); /* 10 degrees */
	EXPECT(PAD_RIGHT);
	/* the stick and the d-pad share the hold: the newest wins */
	key(&pad, BTN_DPAD_UP, 1);
	assert_int_equal(pad.hold.ev.key, PAD_UP);
	stick(&pad, 0, 0); /* the stick letting go does not stop the d-pad's hold */
	assert_true(pad.hold.on);
	key(&pad, BTN_DPAD_UP, 0);
	assert_false(pad.hold.on);
	EXPECT(PAD_UP);
}

/* ---------- SYN_DROPPED ---------- */

static void test_syn_dropped(void **st)
{
	(void)st;
	setup_kbd();
	/* Shift went up while events were lost: it must not stay stuck */
	key(&kbd, KEY_LEFTSHIFT, 1);
	feed(&kbd, EV_SYN, SYN_DROPPED, 0);
	assert_true(kbd.syncing);
	feed(&kbd, EV_KEY, KEY_LEFTSHIFT, 0); /* libevdev's computed difference */
	feed(&kbd, EV_KEY, KEY_A, 1);         /* pressed during the gap: not replayed */
	feed(&kbd, EV_SYN, SYN_REPORT, 0);
	evm_dev_sync_end(&kbd, &ptr);
	assert_false(kbd.syncing);
	EXPECT_NONE();
	key(&kbd, KEY_A, 0);
	tap(&kbd, KEY_DOT);
	EXPECT('.');
	/* a held movement key released in the gap stops repeating */
	key(&kbd, KEY_RIGHT, 1);
	assert_true(kbd.hold.on);
	evm_dev_sync_begin(&kbd);
	feed(&kbd, EV_KEY, KEY_RIGHT, 0);
	evm_dev_sync_end(&kbd, &ptr);
	assert_false(kbd.hold.on);
	EXPECT(PK_RIGHT);
	/* a modifier pressed in the gap counts but is not "alone" */
	evm_dev_sync_begin(&kbd);
	feed(&kbd, EV_KEY, KEY_RIGHTSHIFT, 1);
	evm_dev_sync_end(&kbd, &ptr);
	tap(&kbd, KEY_COMMA);
	key(&kbd, KEY_RIGHTSHIFT, 0);
	EXPECT('<');

	/* gamepad: a button pressed in the gap does not fire later; the stick
	 * moved in the gap does not start a repeat */
	setup_pad(false);
	stick(&pad, 30000, 0);
	EXPECT(PAD_RIGHT);
	evm_dev_sync_begin(&pad);
	feed(&pad, EV_KEY, BTN_SOUTH, 1);
	feed(&pad, EV_ABS, ABS_X, 0);
	feed(&pad, EV_ABS, ABS_Y, 30000);
	feed(&pad, EV_SYN, SYN_REPORT, 0);
	evm_dev_sync_end(&pad, &ptr);
	EXPECT_NONE();
	assert_false(pad.hold.on);
	syn(&pad);
	EXPECT_NONE();
	key(&pad, BTN_SOUTH, 0);
	tap(&pad, BTN_SOUTH);
	stick(&pad, 0, 0);
	stick(&pad, 0, 30000);
	EXPECT(PAD_SOUTH, PAD_DOWN);

	evm_dev_release_all(&pad);
	assert_false(pad.hold.on);
	assert_int_equal(pad.pad.sector, -1);
}

/* ---------- mouse ---------- */

/* A relative mouse (REL_X/REL_Y, BTN_LEFT); the pointer starts anew. */
static void rel_mouse(struct evm_dev *m)
{
	struct evm_caps c;
	memset(&c, 0, sizeof c);
	EVM_SET(&c, rel, REL_X);
	EVM_SET(&c, rel, REL_Y);
	EVM_SET(&c, key, BTN_LEFT);
	mk_dev(m, &c, EVM_MOUSE);
	memset(&ptr, 0, sizeof ptr);
}

static void test_mouse_relative(void **st)
{
	(void)st;
	struct evm_dev m;
	rel_mouse(&m);
	/* before the app tells the pointer space: nothing */
	feed(&m, EV_REL, REL_X, 5);
	syn(&m);
	key(&m, BTN_LEFT, 1);
	EXPECT_NONE();
	evm_pointer_space(&ptr, 640, 480, 8, 16); /* 80x30 cells, pointer in the middle */
	feed(&m, EV_REL, REL_X, 8);
	feed(&m, EV_REL, REL_Y, 1);
	syn(&m);
	assert_int_equal(ngot, 1);
	assert_int_equal(got[0].type, EV_MOUSE_MOVE);
	assert_int_equal(got[0].x, 41);
	assert_int_equal(got[0].y, 15);
	assert_int_equal(got[0].from, DEV_MOUSE);
	reset_got();
	feed(&m, EV_REL, REL_X, 1); /* same cell: no event */
	syn(&m);
	EXPECT_NONE();
	key(&m, BTN_LEFT, 0);
	feed(&m, EV_KEY, BTN_LEFT, 1);
	syn(&m);
	assert_int_equal(ngot, 1);
	assert_int_equal(got[0].type, EV_MOUSE_CLICK);
	assert_int_equal(got[0].x, 41);
	assert_int_equal(got[0].y, 15);
	assert_int_equal(got[0].button, 1);
	reset_got();
	key(&m, BTN_LEFT, 0);
	EXPECT_NONE();
	/* clamped at the edges */
	feed(&m, EV_REL, REL_X, -100000);
	feed(&m, EV_REL, REL_Y, 100000);
	syn(&m);
	assert_int_equal(got[0].x, 0);
	assert_int_equal(got[0].y, 29);
	reset_got();
	/* motion and a right click in one report: move first, then the click there */
	feed(&m, EV_REL, REL_X, 20);
	feed(&m, EV_KEY, BTN_RIGHT, 1);
	syn(&m);
	assert_int_equal(ngot, 2);
	assert_int_equal(got[0].type, EV_MOUSE_MOVE);
	assert_int_equal(got[1].type, EV_MOUSE_CLICK);
	assert_int_equal(got[1].x, 2);
	assert_int_equal(got[1].button, 3);
	reset_got();
	/* a new space (resize) re-reports the cell on the next motion */
	evm_pointer_space(&ptr, 320, 240, 8, 16);
	feed(&m, EV_REL, REL_Y, -1);
	syn(&m);
	assert_int_equal(ngot, 1);
	assert_int_equal(got[0].y, 14);
	reset_got();
}

/* An absolute pointer (a tablet, a touchscreen): ABS_X/ABS_Y from 0 to max. */
static void abs_mouse(struct evm_dev *m, unsigned button, int max)
{
	struct evm_caps c;
	memset(&c, 0, sizeof c);
	EVM_SET(&c, abs, ABS_X);
	EVM_SET(&c, abs, ABS_Y);
	EVM_SET(&c, key, button);
	mk_dev(m, &c, EVM_MOUSE);
	m->absmin[ABS_X] = m->absmin[ABS_Y] = 0;
	m->absmax[ABS_X] = m->absmax[ABS_Y] = max;
}

static void test_mouse_absolute(void **st)
{
	(void)st;
	struct evm_dev m;
	abs_mouse(&m, BTN_LEFT, 32767); /* QEMU usb-tablet */
	memset(&ptr, 0, sizeof ptr);
	evm_pointer_space(&ptr, 800, 600, 10, 20);
	feed(&m, EV_ABS, ABS_X, 32767);
	feed(&m, EV_ABS, ABS_Y, 0);
	syn(&m);
	assert_int_equal(ngot, 1);
	assert_int_equal(got[0].x, 79);
	assert_int_equal(got[0].y, 0);
	reset_got();
	feed(&m, EV_ABS, ABS_Y, 16384); /* x stays */
	feed(&m, EV_KEY, BTN_LEFT, 1);
	syn(&m);
	assert_int_equal(ngot, 2);
	assert_int_equal(got[0].x, 79);
	assert_int_equal(got[0].y, 15);
	assert_int_equal(got[1].type, EV_MOUSE_CLICK);
	reset_got();
}

/* issue 11 defect 12: a crafted device cannot overflow the pointer: two
 * INT_MAX steps in one report saturate, and an absolute value far outside
 * its advertised range counts as the nearest end. */
static void test_mouse_extremes(void **st)
{
	(void)st;
	struct evm_dev m;
	rel_mouse(&m);
	evm_pointer_space(&ptr, 800, 600, 10, 20); /* 80x30 cells */
	feed(&m, EV_REL, REL_X, INT_MAX);
	feed(&m, EV_REL, REL_X, INT_MAX);
	feed(&m, EV_REL, REL_Y, INT_MIN);
	feed(&m, EV_REL, REL_Y, INT_MIN);
	syn(&m);
	assert_int_equal(ngot, 1);
	assert_int_equal(got[0].x, 79);
	assert_int_equal(got[0].y, 0);
	reset_got();
	feed(&m, EV_REL, REL_X, INT_MIN);
	feed(&m, EV_REL, REL_Y, INT_MAX);
	syn(&m);
	assert_int_equal(got[0].x, 0);
	assert_int_equal(got[0].y, 29);
	reset_got();

	abs_mouse(&m, BTN_TOUCH, 100);
	feed(&m, EV_ABS, ABS_X, INT_MAX);
	feed(&m, EV_ABS, ABS_Y, INT_MIN);
	syn(&m);
	assert_int_equal(ngot, 1);
	assert_int_equal(got[0].x, 79);
	assert_int_equal(got[0].y, 0);
	reset_got();
	m.absmin[ABS_X] = INT_MIN; /* the widest range a device can claim */
	m.absmax[ABS_X] = INT_MAX;
	feed(&m, EV_ABS, ABS_X, INT_MIN);
	feed(&m, EV_ABS, ABS_Y, 50);
	syn(&m);
	assert_int_equal(got[0].x, 0);
	assert_int_equal(got[0].y, 14);
	reset_got();
}

/* A device's GUID is evdb_guid of its caps' bus, ids and name. */
static void test_guid(void **st)
{
	(void)st;
	struct evm_caps c;
	uint8_t g[16], want[16];
	caps_pad(&c, false); /* bus 3, 045e:028e version 0114: an Xbox 360 pad named "Test Pad" */
	evm_guid(&c, g);
	evdb_guid(3, 0x045e, 0x028e, 0x0114, "Test Pad", want);
	assert_memory_equal(g, want, 16);
	/* a name filling the whole field (no NUL in caps) is read to its end */
	memset(c.name, 'x', sizeof c.name);
	char name[sizeof c.name + 1];
	memset(name, 'x', sizeof c.name);
	name[sizeof c.name] = 0;
	evm_guid(&c, g);
	evdb_guid(3, 0x045e, 0x028e, 0x0114, name, want);
	assert_memory_equal(g, want, 16);
}

/* One mapping line, read as SDL_GAMECONTROLLERCONFIG's lines are. */
static int addl(struct evdb *db, const char *line, const char *src, int lineno)
{
	return evdb_add_line(db, line, strlen(line), src, lineno, 0);
}

/* A pad that does not follow the kernel layout, mapped by a DB line. */
static void test_db_mapping(void **st)
{
	(void)st;
	struct evm_caps c;
	struct evdb db = {0};
	memset(&c, 0, sizeof c);
	/* SDL numbers buttons from BTN_JOYSTICK up, then the codes below it */
	EVM_SET(&c, key, KEY_BACK);            /* b4 */
	EVM_SET(&c, key, BTN_TRIGGER);         /* b0 */
	EVM_SET(&c, key, BTN_THUMB);           /* b1 */
	EVM_SET(&c, key, BTN_THUMB2);          /* b2 */
	EVM_SET(&c, key, BTN_TRIGGER_HAPPY1);  /* b3 */
	/* axes in code order, hats left out; hats in order of presence */
	EVM_SET(&c, abs, ABS_X);      /* a0 */
	EVM_SET(&c, abs, ABS_Y);      /* a1 */
	EVM_SET(&c, abs, ABS_HAT1X);  /* h0 (the first hat present) */
	EVM_SET(&c, abs, ABS_HAT1Y);
	EVM_SET(&c, abs, ABS_MISC);   /* a2 */
	c.bus = 3;
	c.vendor = 0x0079;
	c.product = 0x0006;
	c.version = 0x0110;
	assert_int_equal(evm_classify(&c, NULL), EVM_GAMEPAD);
	uint8_t g[16];
	evm_guid(&c, g);
	char s[33];
	evdb_guid_str(g, s);
	assert_string_equal(s, "03000000790000000600000010010000");
	char line[512];
	snprintf(line, sizeof line,
		 "%s,DragonRise Generic,a:b1,b:b2,x:b0,y:b3,back:b4,start:a2,dpup:h0.1,dpdown:h0.4,"
		 "dpleft:h0.8,dpright:h0.2,leftx:a0,lefty:a1~,leftshoulder:b9,platform:Linux,", s);
	assert_int_equal(addl(&db, line, "t", 1), 0);
	const struct evdb_entry *e = evdb_find(&db, g);
	assert_non_null(e);
	mk_dev(&pad, &c, EVM_GAMEPAD);
	pad.absmin[ABS_MISC] = 0;
	pad.absmax[ABS_MISC] = 255;
	assert_int_equal(evm_padmap_from_db(&pad.map, e, &c), 12); /* b9 does not exist */
	assert_string_equal(pad.map.source, "DragonRise Generic");
	tap(&pad, BTN_THUMB);
	tap(&pad, BTN_THUMB2);
	tap(&pad, BTN_TRIGGER);
	tap(&pad, BTN_TRIGGER_HAPPY1);
	tap(&pad, KEY_BACK);
	abs1(&pad, ABS_MISC, 255); /* an axis as a button */
	abs1(&pad, ABS_MISC, 0);
	abs1(&pad, ABS_HAT1Y, -1);
	abs1(&pad, ABS_HAT1Y, 0);
	abs1(&pad, ABS_HAT1X, 1);
	abs1(&pad, ABS_HAT1X, 0);
	abs1(&pad, ABS_HAT0X, 1); /* not mapped any more */
	stick(&pad, 0, 30000); /* lefty inverted: pushing "down" is up */
	EXPECT(PAD_SOUTH, PAD_EAST, PAD_WEST, PAD_NORTH, PAD_SELECT, PAD_START, PAD_UP, PAD_RIGHT, PAD_UP);

	/* buttons driving half axes (+leftx:b0,-leftx:b1) */
	evdb_free(&db);
	snprintf(line, sizeof line, "%s,Halves,+leftx:b0,-leftx:b1", s);
	assert_int_equal(addl(&db, line, "t", 1), 0);
	mk_dev(&pad, &c, EVM_GAMEPAD);
	assert_int_equal(evm_padmap_from_db(&pad.map, &db.v[0], &c), 2);
	key(&pad, BTN_THUMB, 1);
	key(&pad, BTN_THUMB, 0);
	key(&pad, BTN_TRIGGER, 1);
	EXPECT(PAD_LEFT, PAD_RIGHT);
	evdb_free(&db);

	/* the kernel layout needs no line */
	caps_pad(&c, true);
	evm_padmap_default(&pad.map, &c);
	assert_string_equal(pad.map.source, "kernel layout");
	assert_int_equal(pad.map.n, 8 + 4 + 2);

	/* its triggers and thumb clicks (explore, GAME.md 7): digital, or
	 * analog ABS_Z/ABS_RZ from half way as SDL reads them */
	EVM_SET(&c, key, BTN_TL2);
	EVM_SET(&c, key, BTN_THUMBL);
	EVM_SET(&c, key, BTN_THUMBR);
	EVM_SET(&c, abs, ABS_Z);
	EVM_SET(&c, abs, ABS_RZ);
	mk_dev(&pad, &c, EVM_GAMEPAD);
	pad.absmin[ABS_Z] = pad.absmin[ABS_RZ] = 0;
	pad.absmax[ABS_Z] = pad.absmax[ABS_RZ] = 255;
	tap(&pad, BTN_TL2);
	tap(&pad, BTN_THUMBL);
	tap(&pad, BTN_THUMBR);
	abs1(&pad, ABS_RZ, 100); /* under half way: nothing */
	abs1(&pad, ABS_RZ, 200);
	abs1(&pad, ABS_RZ, 0);
	abs1(&pad, ABS_Z, 255);
	abs1(&pad, ABS_Z, 0);
	EXPECT(PAD_TL2, PAD_THUMBL, PAD_THUMBR, PAD_TR2, PAD_TL2);
	/* a joystick's ABS_Z (a throttle) is no trigger */
	memset(&c, 0, sizeof c);
	EVM_SET(&c, key, BTN_TRIGGER);
	EVM_SET(&c, abs, ABS_X);
	EVM_SET(&c, abs, ABS_Y);
	EVM_SET(&c, abs, ABS_Z);
	mk_dev(&pad, &c, EVM_GAMEPAD);
	abs1(&pad, ABS_Z, 32767);
	EXPECT_NONE();
}

/* An axis bound to a button is pressed from the midpoint of its input range
 * on, as SDL's HandleJoystickAxis reads it (threshold = min + (max - min)
 * / 2; pressed at or past it, toward max). Only the SDL comparison, which
 * skips without libSDL2, saw a slip at the midpoint itself. */
static void test_axis_button_midpoint(void **st)
{
	(void)st;
	struct evm_caps c;
	struct evdb db = {0};
	memset(&c, 0, sizeof c);
	EVM_SET(&c, key, BTN_TRIGGER);
	EVM_SET(&c, abs, ABS_X);  /* a0 */
	EVM_SET(&c, abs, ABS_Y);  /* a1 */
	EVM_SET(&c, abs, ABS_Z);  /* a2 */
	EVM_SET(&c, abs, ABS_RX); /* a3 */
	c.bus = 3;
	c.vendor = 0x1234;
	c.product = 0x5678;
	uint8_t g[16];
	evm_guid(&c, g);
	char s[33], line[256];
	evdb_guid_str(g, s);
	/* a0 whole (-32768..32767: threshold -1), a1 its positive half
	 * (0..32767: 16383), a2 its negative half (0..-32768: -16384, pressed
	 * at or below), a3 whole and inverted (32767..-32768: 0, at or below) */
	snprintf(line, sizeof line, "%s,Axes as buttons,a:a0,b:+a1,x:-a2,y:a3~,platform:Linux,", s);
	assert_int_equal(addl(&db, line, "t", 1), 0);
	mk_dev(&pad, &c, EVM_GAMEPAD);
	assert_int_equal(evm_padmap_from_db(&pad.map, &db.v[0], &c), 4);
	static const struct {
		unsigned code;
		int off, on; /* raw values (SDL's units on this axis): the last one released, the first pressed */
		uint32_t key;
	} axes[] = {
		{ABS_X, -2, -1, PAD_SOUTH},
		{ABS_Y, 16382, 16383, PAD_EAST},
		{ABS_Z, -16383, -16384, PAD_WEST},
		{ABS_RX, 1, 0, PAD_NORTH},
	};
	for (size_t i = 0; i < sizeof axes / sizeof *axes; i++) {
		assert_int_equal(evm_sdl_axis(axes[i].on, -32768, 32767), axes[i].on);
		abs1(&pad, axes[i].code, axes[i].off);
		EXPECT_NONE();
		abs1(&pad, axes[i].code, axes[i].on);
		EXPECT(axes[i].key);
		abs1(&pad, axes[i].code, axes[i].off); /* let go */
		abs1(&pad, axes[i].code, axes[i].on);
		EXPECT(axes[i].key);
	}
	evdb_free(&db);
	/* on a 0..255 axis SDL's units put the raw 127 at -129 and 128 at
	 * 128: the whole axis's threshold (-1) lies between them */
	assert_int_equal(evm_sdl_axis(127, 0, 255), -129);
	assert_int_equal(evm_sdl_axis(128, 0, 255), 128);
	assert_int_equal(evm_sdl_axis(0, 0, 255), -32768);
	assert_int_equal(evm_sdl_axis(255, 0, 255), 32767);
}

/* ---------- the shipped database against SDL ---------- */

/* Real lines of gamepads/gamecontrollerdb.txt (SDL 2.26's own list) and
 * what SDL 2.26 makes of each input on a pad they map: pressing it (press)
 * gives key (0: nothing), letting go (release) gives nothing. The pad has
 * buttons BTN_JOYSTICK..+31 (SDL's b0..b31), axes ABS_X..ABS_MISC-1 (a0 =
 * ABS_X, a4 = ABS_RY...) from -32768 to 32767 and two -1..1 hats. */
struct sdl_probe {
	unsigned type, code;
	int press, release;
	uint32_t key;
};

static const struct {
	const char *lines, *what, *devname;
	struct sdl_probe probe[6];
} sdl_cases[] = {
	{
		"03000000120c0000f70e000011010000,Brook Universal Fighting Board,a:b1,b:b2,back:b8,dpdown"
		":h0.4,dpleft:h0.8,dpright:h0.2,dpup:h0.1,guide:b12,leftshoulder:b4,leftstick:b10,lefttri"
		"gger:b6,leftx:,lefty:,rightshoulder:b5,rightstick:b11,righttrigger:b7,rightx:,righty:,st"
		"art:b9,x:b0,y:b3,platform:Linux,\n",
		"leftx:, lefty:, rightx:, righty: are empty: skipped, the rest used (issue 12 #1)", "pirogue probe",
		{{EV_KEY, BTN_THUMB, 1, 0, PAD_SOUTH}, {EV_KEY, BTN_TRIGGER, 1, 0, PAD_WEST}, {EV_KEY, BTN_BASE4, 1, 0, PAD_START}, {EV_ABS, ABS_HAT0Y, -1, 0, PAD_UP}, {EV_ABS, ABS_X, 32767, 0, 0}, {EV_KEY, BTN_BASE, 1, 0, PAD_TL2}},
	},
	{
		"03000000341a00000908000010010000,SL-6566,a:b0,b:b1,back:b8,dpdown:h0.4,dpleft:h0.8,dprig"
		"ht:h0.2,dpup:h0.1,guide:,leftshoulder:b4,leftstick:b10,lefttrigger:b6,leftx:a0,lefty:a1,"
		"rightshoulder:b5,rightstick:b11,righttrigger:b7,rightx:a2,righty:a3,start:b9,x:b2,y:b3,p"
		"latform:Linux,\n",
		"guide: is empty: skipped, the rest used (issue 12 #1)", "pirogue probe",
		{{EV_KEY, BTN_TRIGGER, 1, 0, PAD_SOUTH}, {EV_KEY, BTN_BASE4, 1, 0, PAD_START}, {EV_KEY, BTN_TOP2, 1, 0, PAD_TL}, {EV_ABS, ABS_X, 32767, 0, PAD_RIGHT}},
	},
	{
		"03000000c62400003a54000001010000,PowerA XBox One Controller,a:b0,b:b1,back:b6,dpdown:h0."
		"7,dpleft:h0.8,dpright:h0.2,dpup:h0.1,guide:b8,leftshoulder:b4,leftstick:b9,lefttrigger:a"
		"2,leftx:a0,lefty:a1,rightshoulder:b5,rightstick:b10,righttrigger:a5,rightx:a3,righty:a4,"
		"start:b7,x:b2,y:b3,platform:Linux,\n",
		"dpdown:h0.7 is on for up, right and down (issue 12 #1): up is up+down (nothing), right is down-right", "pirogue probe",
		{{EV_ABS, ABS_HAT0Y, -1, 0, 0}, {EV_ABS, ABS_HAT0X, 1, 0, PAD_DOWNRIGHT}, {EV_ABS, ABS_HAT0Y, 1, 0, PAD_DOWN}, {EV_ABS, ABS_HAT0X, -1, 0, PAD_LEFT}, {EV_KEY, BTN_TRIGGER, 1, 0, PAD_SOUTH}},
	},
	{
		"03000000790000001100000000010000,USB Gamepad1,a:b2,b:b1,back:b8,dpdown:a0,dpleft:a1,dpri"
		"ght:a2,dpup:a4,start:b9,platform:Linux,\n",
		"whole axes as buttons: pressed at or above the midpoint (issue 12 #2)", "pirogue probe",
		{{EV_ABS, ABS_RY, 0, -32768, PAD_UP}, {EV_ABS, ABS_RY, -2, -32768, 0}, {EV_ABS, ABS_X, 0, -32768, PAD_DOWN}, {EV_KEY, BTN_THUMB2, 1, 0, PAD_SOUTH}},
	},
	{
		"03000000c82d00000090000011010000,8BitDo FC30 Pro,a:b0,b:b1,back:b10,dpdown:h0.4,dpleft:h"
		"0.8,dpright:h0.2,dpup:h0.1,leftshoulder:b6,leftstick:b13,lefttrigger:a4,leftx:a0,lefty:a"
		"1,rightshoulder:b7,rightstick:b14,righttrigger:a5,rightx:a2,righty:a3,start:b11,x:b3,y:b"
		"4,hint:SDL_GAMECONTROLLER_USE_BUTTON_LABELS:=1,platform:Linux,\n"
		"03000000c82d00000090000011010000,8BitDo FC30 Pro,a:b1,b:b0,back:b10,dpdown:h0.4,dpleft:h"
		"0.8,dpright:h0.2,dpup:h0.1,leftshoulder:b6,leftstick:b13,lefttrigger:a4,leftx:a0,lefty:a"
		"1,rightshoulder:b7,rightstick:b14,righttrigger:a5,rightx:a2,righty:a3,start:b11,x:b4,y:b"
		"3,hint:!SDL_GAMECONTROLLER_USE_BUTTON_LABELS:=1,platform:Linux,\n",
		"a hinted pair: with SDL's default hints the first line is used (issue 12 #3)", "pirogue probe",
		{{EV_KEY, BTN_TRIGGER, 1, 0, PAD_SOUTH}, {EV_KEY, BTN_TOP, 1, 0, PAD_WEST}, {EV_KEY, BTN_TOP2, 1, 0, PAD_NORTH}, {EV_ABS, ABS_HAT0X, 1, 0, PAD_RIGHT}},
	},
	{
		"03000000830500006020000010010000,iBuffalo SNES Controller,a:b0,b:b1,back:b6,dpdown:+a1,d"
		"pleft:-a0,dpright:+a0,dpup:-a1,leftshoulder:b4,rightshoulder:b5,start:b7,x:b2,y:b3,hint:"
		"SDL_GAMECONTROLLER_USE_BUTTON_LABELS:=1,platform:Linux,\n"
		"03000000830500006020000010010000,iBuffalo SNES Controller,a:b1,b:b0,back:b6,dpdown:+a1,d"
		"pleft:-a0,dpright:+a0,dpup:-a1,leftshoulder:b4,rightshoulder:b5,start:b7,x:b3,y:b2,hint:"
		"!SDL_GAMECONTROLLER_USE_BUTTON_LABELS:=1,platform:Linux,\n",
		"half axes as the d-pad: -a1 up, +a1 down, each pressed past half way", "pirogue probe",
		{{EV_ABS, ABS_Y, -32768, 0, PAD_UP}, {EV_ABS, ABS_Y, 20000, 0, PAD_DOWN}, {EV_ABS, ABS_Y, 10000, 0, 0}, {EV_ABS, ABS_X, 32767, 0, PAD_RIGHT}, {EV_KEY, BTN_TRIGGER, 1, 0, PAD_SOUTH}},
	},
	{
		"050000007e0500000620000001800000,Nintendo Switch Joy-Con (L),a:b15,b:b16,guide:b4,leftsh"
		"oulder:b6,leftstick:b12,leftx:a1,lefty:a0~,rightshoulder:b8,start:b9,x:b17,y:b14,hint:SD"
		"L_GAMECONTROLLER_USE_BUTTON_LABELS:=1,platform:Linux,\n",
		"the stick on swapped axes, one inverted; buttons past BTN_JOYSTICK+15", "pirogue probe",
		{{EV_KEY, BTN_DEAD, 1, 0, PAD_SOUTH}, {EV_KEY, BTN_SOUTH, 1, 0, PAD_EAST}, {EV_ABS, ABS_Y, 32767, 0, PAD_RIGHT}, {EV_ABS, ABS_X, 32767, 0, PAD_UP}},
	},
	{
		"050000007e0500000603000000060000,Nintendo Wii Remote,crc:60be,a:b1,b:b0,back:b4,dpdown:b"
		"8,dpleft:b6,dpright:b7,dpup:b5,guide:b2,start:b3,x:b9,y:b10,platform:Linux,\n",
		"a line with crc: (found for the device named \"Nintendo Wii Remote\")", "Nintendo Wii Remote",
		{{EV_KEY, BTN_THUMB, 1, 0, PAD_SOUTH}, {EV_KEY, BTN_PINKIE, 1, 0, PAD_UP}, {EV_KEY, BTN_BASE3, 1, 0, PAD_DOWN}},
	},
	{
		"030000005e0400008e02000014010000,X360 Controller,a:b0,b:b1,back:b6,dpdown:h0.4,dpleft:h0"
		".8,dpright:h0.2,dpup:h0.1,guide:b8,leftshoulder:b4,leftstick:b9,lefttrigger:a2,leftx:a0,"
		"lefty:a1,rightshoulder:b5,rightstick:b10,righttrigger:a5,rightx:a3,righty:a4,start:b7,x:"
		"b2,y:b3,platform:Linux,\n",
		"an ordinary line; analog triggers count from half way", "pirogue probe",
		{{EV_KEY, BTN_TRIGGER, 1, 0, PAD_SOUTH}, {EV_ABS, ABS_HAT0X, -1, 0, PAD_LEFT}, {EV_ABS, ABS_Y, 32767, 0, PAD_DOWN}, {EV_KEY, BTN_BASE2, 1, 0, PAD_START}, {EV_ABS, ABS_RZ, 32767, -32768, PAD_TR2}, {EV_KEY, BTN_BASE4, 1, 0, PAD_THUMBL}},
	},
};

static void sdl_pad(struct evm_caps *c, const char *line, const char *name)
{
	uint8_t g[16];
	char gs[33];
	memset(c, 0, sizeof *c);
	for (unsigned k = BTN_JOYSTICK; k < BTN_JOYSTICK + 32; k++)
		EVM_SET(c, key, k);
	for (unsigned a = ABS_X; a < ABS_HAT0X; a++)
		EVM_SET(c, abs, a);
	for (unsigned a = ABS_HAT0X; a <= ABS_HAT1Y; a++)
		EVM_SET(c, abs, a);
	snprintf(gs, sizeof gs, "%.32s", line);
	assert_int_equal(evdb_guid_parse(gs, g), 0);
	c->bus = (uint16_t)(g[0] | g[1] << 8);
	c->vendor = (uint16_t)(g[4] | g[5] << 8);
	c->product = (uint16_t)(g[8] | g[9] << 8);
	c->version = (uint16_t)(g[12] | g[13] << 8);
	snprintf(c->name, sizeof c->name, "%s", name);
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *buf = malloc(1 << 20);
	assert_non_null(buf);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void test_sdl_database(void **st)
{
	(void)st;
	char path[512];
	test_data_path(path, sizeof path, "gamepads/gamecontrollerdb.txt");
	unsetenv("SDL_GAMECONTROLLER_USE_BUTTON_LABELS");
	struct evdb db = {0};
	char *file = read_all(path);

	for (size_t i = 0; i < sizeof sdl_cases / sizeof *sdl_cases; i++) {
		struct evm_caps c;
		uint8_t g[16];
		/* the lines are the database's, word for word */
		for (const char *l = sdl_cases[i].lines; *l;) {
			const char *nl = strchr(l, '\n');
			char one[1024];
			snprintf(one, sizeof one, "\n%.*s\n", (int)(nl - l), l);
			if (!strstr(file, one))
				fail_msg("case %zu: line not in %s: %s", i, path, one);
			l = nl + 1;
		}
		assert_int_equal(evdb_add_text(&db, sdl_cases[i].lines, "case", EVDB_FILE), 1);
		sdl_pad(&c, sdl_cases[i].lines, sdl_cases[i].devname);
		evm_guid(&c, g);
		const struct evdb_entry *e = evdb_find(&db, g);
		assert_non_null(e);
		mk_dev(&pad, &c, EVM_GAMEPAD);
		evm_padmap_from_db(&pad.map, e, &c);
		for (int k = 0; k < 6 && sdl_cases[i].probe[k].type; k++) {
			const struct sdl_probe *p = &sdl_cases[i].probe[k];
			feed(&pad, p->type, p->code, p->press);
			syn(&pad);
			if (p->key ? ngot != 1 || got[0].key != p->key : ngot != 0)
				fail_msg("%s (%s), probe %d: %d events, first key 0x%x; want key 0x%x",
					 e->name, sdl_cases[i].what, k, ngot, ngot ? got[0].key : 0, p->key);
			reset_got();
			feed(&pad, p->type, p->code, p->release);
			syn(&pad);
			if (ngot)
				fail_msg("%s, probe %d: release gave key 0x%x", e->name, k, got[0].key);
		}
		evdb_free(&db);
	}
	free(file);
}

static void test_norm_axis(void **st)
{
	(void)st;
	assert_int_equal(evm_norm_axis(-1, -1, 1), -1000);
	assert_int_equal(evm_norm_axis(0, -1, 1), 0);
	assert_int_equal(evm_norm_axis(1, -1, 1), 1000);
	assert_int_equal(evm_norm_axis(0, 0, 255), -1000);
	assert_int_equal(evm_norm_axis(255, 0, 255), 1000);
	assert_int_equal(evm_norm_axis(-32768, -32768, 32767), -1000);
	assert_int_equal(evm_norm_axis(32767, -32768, 32767), 1000);
	assert_int_equal(evm_norm_axis(0, -32768, 32767), 0);
	assert_int_equal(evm_norm_axis(99999, 0, 10), 1000);
	assert_int_equal(evm_norm_axis(5, 5, 5), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_shift_punctuation),
		cmocka_unit_test(test_caps_lock),
		cmocka_unit_test(test_lone_modifier),
		cmocka_unit_test(test_special_keys),
		cmocka_unit_test(test_ctrl_alt),
		cmocka_unit_test(test_key_hold),
		cmocka_unit_test(test_shared_modifiers),
		cmocka_unit_test(test_pad_buttons),
		cmocka_unit_test(test_dpad_buttons),
		cmocka_unit_test(test_dpad_hat),
		cmocka_unit_test(test_shoulder_diagonals),
		cmocka_unit_test(test_stick_sectors),
		cmocka_unit_test(test_syn_dropped),
		cmocka_unit_test(test_mouse_relative),
		cmocka_unit_test(test_mouse_absolute),
		cmocka_unit_test(test_mouse_extremes),
		cmocka_unit_test(test_guid),
		cmocka_unit_test(test_db_mapping),
		cmocka_unit_test(test_axis_button_midpoint),
		cmocka_unit_test(test_sdl_database),
		cmocka_unit_test(test_norm_axis),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
