/* evmap: evdev events -> in_events, without devices (see evmap.h). */
#include "platform/evmap.h"
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------- bits ---------- */

bool evm_bit(const uint8_t *map, int nbytes, unsigned code)
{
	if (code / 8 >= (unsigned)nbytes)
		return false;
	return (map[code / 8] >> (code % 8)) & 1;
}

void evm_set_bit(uint8_t *map, int nbytes, unsigned code)
{
	if (code / 8 < (unsigned)nbytes)
		map[code / 8] |= (uint8_t)(1u << (code % 8));
}

/* ---------- classification ---------- */

static const uint16_t letter_codes[26] = {
	KEY_A, KEY_B, KEY_C, KEY_D, KEY_E, KEY_F, KEY_G, KEY_H, KEY_I, KEY_J, KEY_K, KEY_L, KEY_M,
	KEY_N, KEY_O, KEY_P, KEY_Q, KEY_R, KEY_S, KEY_T, KEY_U, KEY_V, KEY_W, KEY_X, KEY_Y, KEY_Z,
};

unsigned evm_classify(const struct evm_caps *c, const char **why)
{
	static const char *const combo[8] = {
		"", "has KEY_A..KEY_Z and KEY_ENTER", "", "",
		"", "has keyboard letters and a pointer", "has gamepad buttons and a pointer",
		"has keyboard letters, gamepad buttons and a pointer",
	};
	const char *w = NULL;
	bool letters = EVM_HAS(c, key, KEY_ENTER);
	for (int i = 0; i < 26 && letters; i++)
		letters = EVM_HAS(c, key, letter_codes[i]);
	bool pad = EVM_HAS(c, key, BTN_GAMEPAD);
	bool joybtn = false;
	for (unsigned k = BTN_JOYSTICK; k < BTN_GAMEPAD && !joybtn; k++)
		joybtn = EVM_HAS(c, key, k);
	bool absxy = EVM_HAS(c, abs, ABS_X) && EVM_HAS(c, abs, ABS_Y);
	bool joy = !pad && absxy && joybtn;
	bool relmouse = EVM_HAS(c, rel, REL_X) && EVM_HAS(c, rel, REL_Y) && EVM_HAS(c, key, BTN_LEFT);
	bool touchpad = absxy && EVM_HAS(c, key, BTN_TOOL_FINGER) && !EVM_HAS(c, prop, INPUT_PROP_DIRECT);
	bool absptr = absxy && !pad && !joy && !touchpad &&
		(EVM_HAS(c, key, BTN_LEFT) || EVM_HAS(c, key, BTN_TOUCH));
	unsigned cls = (letters ? EVM_KEYBOARD : 0) | (pad || joy ? EVM_GAMEPAD : 0) |
		(relmouse || absptr ? EVM_MOUSE : 0);
	switch (cls) {
	case 0:
		if (touchpad)
			w = "touchpad (not supported: use a mouse)";
		else if (EVM_HAS(c, prop, INPUT_PROP_ACCELEROMETER))
			w = "accelerometer";
		else
			w = "no letter keys, gamepad buttons or pointer axes";
		break;
	case EVM_GAMEPAD:
		w = pad ? "has BTN_SOUTH (kernel gamepad layout)" : "has ABS_X/ABS_Y and joystick buttons";
		break;
	case EVM_MOUSE:
		w = relmouse ? "has REL_X/REL_Y and BTN_LEFT" :
			"absolute pointer: ABS_X/ABS_Y with BTN_LEFT or BTN_TOUCH";
		break;
	default:
		w = combo[cls];
		break;
	}
	if (why)
		*why = w;
	return cls;
}

/* ---------- gamepad maps ---------- */

void evm_guid(const struct evm_caps *c, uint8_t guid[16])
{
	char name[sizeof c->name + 1];
	memcpy(name, c->name, sizeof c->name);
	name[sizeof c->name] = 0;
	evdb_guid(c->bus, c->vendor, c->product, c->version, name, guid);
}

#define AXIS_MIN (-32768)
#define AXIS_MAX 32767

static void add_rule(struct evm_padmap *m, struct evm_rule r)
{
	if (m->n < EVM_MAX_RULES)
		m->r[m->n++] = r;
}

static bool is_trigger(unsigned t)
{
	return t == EVDB_T_LT || t == EVDB_T_RT;
}

/* The output range of a target (SDL: leftx -32768..32767, +leftx 0..32767,
 * -leftx 0..-32768, a trigger 0..32767 whatever its sign; buttons none). */
static void out_range(struct evm_rule *r, int out_half)
{
	if (is_trigger(r->target))
		out_half = 1;
	r->out_min = (int16_t)(out_half ? 0 : AXIS_MIN);
	r->out_max = (int16_t)(out_half > 0 ? AXIS_MAX : out_half < 0 ? AXIS_MIN : AXIS_MAX);
}

static struct evm_rule key_rule(unsigned code, int target, int out_half)
{
	struct evm_rule r = {.type = EV_KEY, .code = (uint16_t)code, .target = (uint8_t)target};
	out_range(&r, out_half);
	return r;
}

static struct evm_rule hat_rule(unsigned hat_code, unsigned mask, int target, int out_half)
{
	struct evm_rule r = {.type = EV_ABS, .code = (uint16_t)hat_code, .hatmask = (uint8_t)mask,
			     .target = (uint8_t)target};
	out_range(&r, out_half);
	return r;
}

static struct evm_rule axis_rule(unsigned code, int in_half, bool invert, int target, int out_half)
{
	struct evm_rule r = {.type = EV_ABS, .code = (uint16_t)code, .target = (uint8_t)target};
	int lo = in_half ? 0 : AXIS_MIN, hi = in_half > 0 ? AXIS_MAX : in_half < 0 ? AXIS_MIN : AXIS_MAX;
	r.in_min = (int16_t)(invert ? hi : lo);
	r.in_max = (int16_t)(invert ? lo : hi);
	out_range(&r, out_half);
	return r;
}

void evm_padmap_default(struct evm_padmap *m, const struct evm_caps *c)
{
	static const struct { uint16_t code; uint8_t target; } keys[] = {
		{BTN_SOUTH, EVDB_B_SOUTH}, {BTN_EAST, EVDB_B_EAST}, {BTN_WEST, EVDB_B_WEST},
		{BTN_NORTH, EVDB_B_NORTH}, {BTN_TL, EVDB_B_TL}, {BTN_TR, EVDB_B_TR},
		{BTN_START, EVDB_B_START}, {BTN_SELECT, EVDB_B_SELECT},
		{BTN_TL2, EVDB_B_TL2}, {BTN_TR2, EVDB_B_TR2}, {BTN_THUMBL, EVDB_B_THUMBL}, {BTN_THUMBR, EVDB_B_THUMBR},
		{BTN_DPAD_UP, EVDB_B_DUP}, {BTN_DPAD_DOWN, EVDB_B_DDOWN},
		{BTN_DPAD_LEFT, EVDB_B_DLEFT}, {BTN_DPAD_RIGHT, EVDB_B_DRIGHT},
		/* generic joysticks / cheap USB pads without the gamepad layout */
		{BTN_TRIGGER, EVDB_B_SOUTH}, {BTN_THUMB, EVDB_B_EAST}, {BTN_THUMB2, EVDB_B_WEST},
		{BTN_TOP, EVDB_B_NORTH}, {BTN_TOP2, EVDB_B_TL}, {BTN_PINKIE, EVDB_B_TR},
		{BTN_BASE3, EVDB_B_SELECT}, {BTN_BASE4, EVDB_B_START},
	};
	memset(m, 0, sizeof *m);
	snprintf(m->source, sizeof m->source, "kernel layout");
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (!c || EVM_HAS(c, key, keys[i].code))
			add_rule(m, key_rule(keys[i].code, keys[i].target, 0));
	if (!c || EVM_HAS(c, abs, ABS_HAT0X) || EVM_HAS(c, abs, ABS_HAT0Y)) {
		add_rule(m, hat_rule(ABS_HAT0X, 1, EVDB_B_DUP, 0));
		add_rule(m, hat_rule(ABS_HAT0X, 4, EVDB_B_DDOWN, 0));
		add_rule(m, hat_rule(ABS_HAT0X, 8, EVDB_B_DLEFT, 0));
		add_rule(m, hat_rule(ABS_HAT0X, 2, EVDB_B_DRIGHT, 0));
	}
	if (!c || EVM_HAS(c, abs, ABS_X))
		add_rule(m, axis_rule(ABS_X, 0, false, EVDB_T_LX, 0));
	if (!c || EVM_HAS(c, abs, ABS_Y))
		add_rule(m, axis_rule(ABS_Y, 0, false, EVDB_T_LY, 0));
	/* analog triggers, as SDL's automatic mapping of a BTN_GAMEPAD pad */
	if (c && EVM_HAS(c, key, BTN_GAMEPAD) && EVM_HAS(c, abs, ABS_Z))
		add_rule(m, axis_rule(ABS_Z, 0, false, EVDB_T_LT, 0));
	if (c && EVM_HAS(c, key, BTN_GAMEPAD) && EVM_HAS(c, abs, ABS_RZ))
		add_rule(m, axis_rule(ABS_RZ, 0, false, EVDB_T_RT, 0));
}

int evm_padmap_from_db(struct evm_padmap *m, const struct evdb_entry *e, const struct evm_caps *c)
{
	uint16_t btns[KEY_CNT], axes[ABS_CNT], hats[4];
	int nb = 0, na = 0, nh = 0;
	for (unsigned k = BTN_JOYSTICK; k < KEY_MAX; k++)
		if (EVM_HAS(c, key, k))
			btns[nb++] = (uint16_t)k;
	for (unsigned k = 0; k < BTN_JOYSTICK; k++)
		if (EVM_HAS(c, key, k))
			btns[nb++] = (uint16_t)k;
	for (unsigned a = 0; a < ABS_MAX; a++) {
		if (a >= ABS_HAT0X && a <= ABS_HAT3Y)
			continue;
		if (EVM_HAS(c, abs, a))
			axes[na++] = (uint16_t)a;
	}
	for (unsigned a = ABS_HAT0X; a <= ABS_HAT3Y; a += 2)
		if (EVM_HAS(c, abs, a) || EVM_HAS(c, abs, a + 1))
			hats[nh++] = (uint16_t)a;
	memset(m, 0, sizeof *m);
	snprintf(m->source, sizeof m->source, "%s", e->name);
	for (int i = 0; i < e->nbinds; i++) {
		const struct evdb_bind *b = &e->binds[i];
		switch (b->kind) {
		case 'b':
			if (b->index < nb)
				add_rule(m, key_rule(btns[b->index], b->target, b->out_half));
			break;
		case 'a':
			if (b->index < na)
				add_rule(m, axis_rule(axes[b->index], b->in_half, b->invert, b->target, b->out_half));
			break;
		case 'h':
			if (b->index < nh)
				add_rule(m, hat_rule(hats[b->index], b->hatmask, b->target, b->out_half));
			break;
		}
	}
	return m->n;
}

int evm_norm_axis(int value, int min, int max)
{
	if (max <= min)
		return 0;
	long long v = ((2LL * value - min - max) * 1000) / ((long long)max - min);
	return v < -1000 ? -1000 : v > 1000 ? 1000 : (int)v;
}

int evm_sdl_axis(int value, int min, int max)
{
	float v = (float)value;
	if (min != max) {
		float scale = (float)(AXIS_MAX - AXIS_MIN) / (float)((long long)max - min);
		v = floorf((float)((long long)value - min) * scale + (float)AXIS_MIN + 0.5f);
	}
	return v < (float)AXIS_MIN ? AXIS_MIN : v > (float)AXIS_MAX ? AXIS_MAX : (int)v;
}

/* ---------- keyboard ---------- */

enum {
	MOD_LSHIFT = 1, MOD_RSHIFT = 2, MOD_LCTRL = 4, MOD_RCTRL = 8,
	MOD_LALT = 16, MOD_RALT = 32, MOD_LMETA = 64, MOD_RMETA = 128,
	MOD_SHIFT = MOD_LSHIFT | MOD_RSHIFT, MOD_CTRL = MOD_LCTRL | MOD_RCTRL,
	MOD_ALT = MOD_LALT | MOD_RALT,
};

static unsigned mod_bit(unsigned code)
{
	switch (code) {
	case KEY_LEFTSHIFT: return MOD_LSHIFT;
	case KEY_RIGHTSHIFT: return MOD_RSHIFT;
	case KEY_LEFTCTRL: return MOD_LCTRL;
	case KEY_RIGHTCTRL: return MOD_RCTRL;
	case KEY_LEFTALT: return MOD_LALT;
	case KEY_RIGHTALT: return MOD_RALT;
	case KEY_LEFTMETA: return MOD_LMETA;
	case KEY_RIGHTMETA: return MOD_RMETA;
	default: return 0;
	}
}

static bool is_lock(unsigned code)
{
	return code == KEY_CAPSLOCK || code == KEY_NUMLOCK || code == KEY_SCROLLLOCK;
}

/* The US layout: unshifted and shifted result of each key. */
static const struct { uint32_t plain, shifted; } keymap[KEY_CNT] = {
	[KEY_ESC] = {PK_ESCAPE, PK_ESCAPE},
	[KEY_1] = {'1', '!'}, [KEY_2] = {'2', '@'}, [KEY_3] = {'3', '#'}, [KEY_4] = {'4', '$'},
	[KEY_5] = {'5', '%'}, [KEY_6] = {'6', '^'}, [KEY_7] = {'7', '&'}, [KEY_8] = {'8', '*'},
	[KEY_9] = {'9', '('}, [KEY_0] = {'0', ')'},
	[KEY_MINUS] = {'-', '_'}, [KEY_EQUAL] = {'=', '+'},
	[KEY_BACKSPACE] = {PK_BACKSPACE, PK_BACKSPACE}, [KEY_TAB] = {PK_TAB, PK_TAB},
	[KEY_Q] = {'q', 'Q'}, [KEY_W] = {'w', 'W'}, [KEY_E] = {'e', 'E'}, [KEY_R] = {'r', 'R'},
	[KEY_T] = {'t', 'T'}, [KEY_Y] = {'y', 'Y'}, [KEY_U] = {'u', 'U'}, [KEY_I] = {'i', 'I'},
	[KEY_O] = {'o', 'O'}, [KEY_P] = {'p', 'P'},
	[KEY_LEFTBRACE] = {'[', '{'}, [KEY_RIGHTBRACE] = {']', '}'},
	[KEY_ENTER] = {PK_ENTER, PK_ENTER},
	[KEY_A] = {'a', 'A'}, [KEY_S] = {'s', 'S'}, [KEY_D] = {'d', 'D'}, [KEY_F] = {'f', 'F'},
	[KEY_G] = {'g', 'G'}, [KEY_H] = {'h', 'H'}, [KEY_J] = {'j', 'J'}, [KEY_K] = {'k', 'K'},
	[KEY_L] = {'l', 'L'},
	[KEY_SEMICOLON] = {';', ':'}, [KEY_APOSTROPHE] = {'\'', '"'}, [KEY_GRAVE] = {'`', '~'},
	[KEY_BACKSLASH] = {'\\', '|'},
	[KEY_Z] = {'z', 'Z'}, [KEY_X] = {'x', 'X'}, [KEY_C] = {'c', 'C'}, [KEY_V] = {'v', 'V'},
	[KEY_B] = {'b', 'B'}, [KEY_N] = {'n', 'N'}, [KEY_M] = {'m', 'M'},
	[KEY_COMMA] = {',', '<'}, [KEY_DOT] = {'.', '>'}, [KEY_SLASH] = {'/', '?'},
	[KEY_SPACE] = {PK_SPACE, PK_SPACE},
	[KEY_102ND] = {'<', '>'},
	[KEY_KPASTERISK] = {'*', '*'}, [KEY_KPMINUS] = {'-', '-'}, [KEY_KPPLUS] = {'+', '+'},
	[KEY_KPDOT] = {'.', '.'}, [KEY_KPSLASH] = {'/', '/'}, [KEY_KPEQUAL] = {'=', '='},
	[KEY_KPCOMMA] = {',', ','}, [KEY_KPENTER] = {PK_KPENTER, PK_KPENTER},
	[KEY_KP0] = {PK_KP0, PK_KP0}, [KEY_KP1] = {PK_KP1, PK_KP1}, [KEY_KP2] = {PK_KP2, PK_KP2},
	[KEY_KP3] = {PK_KP3, PK_KP3}, [KEY_KP4] = {PK_KP4, PK_KP4}, [KEY_KP5] = {PK_KP5, PK_KP5},
	[KEY_KP6] = {PK_KP6, PK_KP6}, [KEY_KP7] = {PK_KP7, PK_KP7}, [KEY_KP8] = {PK_KP8, PK_KP8},
	[KEY_KP9] = {PK_KP9, PK_KP9},
	[KEY_F1] = {PK_F1, PK_F1}, [KEY_F2] = {PK_F2, PK_F2}, [KEY_F3] = {PK_F3, PK_F3},
	[KEY_F4] = {PK_F4, PK_F4}, [KEY_F5] = {PK_F5, PK_F5}, [KEY_F6] = {PK_F6, PK_F6},
	[KEY_F7] = {PK_F7, PK_F7}, [KEY_F8] = {PK_F8, PK_F8}, [KEY_F9] = {PK_F9, PK_F9},
	[KEY_F10] = {PK_F10, PK_F10}, [KEY_F11] = {PK_F11, PK_F11}, [KEY_F12] = {PK_F12, PK_F12},
	[KEY_HOME] = {PK_HOME, PK_HOME}, [KEY_END] = {PK_END, PK_END},
	[KEY_PAGEUP] = {PK_PGUP, PK_PGUP}, [KEY_PAGEDOWN] = {PK_PGDN, PK_PGDN},
	[KEY_UP] = {PK_UP, PK_UP}, [KEY_DOWN] = {PK_DOWN, PK_DOWN},
	[KEY_LEFT] = {PK_LEFT, PK_LEFT}, [KEY_RIGHT] = {PK_RIGHT, PK_RIGHT},
	[KEY_INSERT] = {PK_INSERT, PK_INSERT}, [KEY_DELETE] = {PK_DELETE, PK_DELETE},
};

bool evm_key_repeats(uint32_t k)
{
	return (k >= PK_UP && k <= PK_PGDN) || (k >= PK_KP1 && k <= PK_KP9 && k != PK_KP5) ||
		(k && k < 128 && strchr("hjklyubn", (int)k)) ||
		(k >= PAD_UP && k <= PAD_RIGHT) || (k >= PAD_UPLEFT && k <= PAD_DOWNRIGHT);
}

static void hold_start(struct evm_hold *h, const struct in_event *ev)
{
	h->on = true;
	h->gen++;
	h->ev = *ev;
}

static struct evm_mods *mods_of(struct evm_dev *d)
{
	return d->shared ? d->shared : &d->own_mods;
}

/* The modifier bits held by any keyboard sharing d's modifiers. */
static unsigned mods_held(struct evm_dev *d)
{
	const struct evm_mods *m = mods_of(d);
	unsigned bits = 0;
	for (int i = 0; i < 8; i++)
		if (m->held[i])
			bits |= 1u << i;
	return bits;
}

/* This keyboard presses (on) or releases the modifier keys in bits. */
static void mods_set(struct evm_dev *d, unsigned bits, bool on)
{
	struct evm_mods *m = mods_of(d);
	for (int i = 0; i < 8; i++) {
		unsigned b = 1u << i;
		if (!(bits & b) || on == ((d->kbd.mods & b) != 0))
			continue;
		if (on) {
			d->kbd.mods |= (uint16_t)b;
			if (m->held[i] < UINT8_MAX)
				m->held[i]++;
		} else {
			d->kbd.mods &= (uint16_t)~b;
			if (m->held[i])
				m->held[i]--;
		}
	}
}

void evm_dev_share(struct evm_dev *d, struct evm_mods *m)
{
	unsigned mine = d->kbd.mods;
	mods_set(d, mine, false);
	d->shared = m;
	mods_set(d, mine, true);
}

bool evm_dev_caps(const struct evm_dev *d)
{
	return d->shared ? d->shared->caps : d->own_mods.caps;
}

void evm_dev_set_caps(struct evm_dev *d, bool on)
{
	mods_of(d)->caps = on;
}

static int kbd_key(struct evm_dev *d, unsigned code, int value, struct in_event *out)
{
	struct evm_kbd *k = &d->kbd;
	unsigned bit = mod_bit(code);
	if (bit || is_lock(code)) {
		if (value) {
			mods_set(d, bit, true);
			if (!d->syncing) {
				if (code == KEY_CAPSLOCK)
					mods_of(d)->caps = !mods_of(d)->caps;
				mods_of(d)->lone = (uint16_t)code;
			}
			return 0;
		}
		mods_set(d, bit, false);
		if (mods_of(d)->lone == code && !d->syncing) {
			mods_of(d)->lone = 0;
			out[0] = (struct in_event){.type = EV_KEY_PRESS, .key = PK_MODIFIER, .from = DEV_KEYBOARD};
			return 1;
		}
		return 0;
	}
	if (value == 0) {
		if (k->held_code == code) {
			k->held_code = 0;
			d->hold.on = false;
		}
		return 0;
	}
	mods_of(d)->lone = 0;
	if (d->syncing)
		return 0;
	unsigned mods = mods_held(d);
	bool ctrl = mods & MOD_CTRL, alt = mods & MOD_ALT, shift = mods & MOD_SHIFT;
	uint32_t key = code < KEY_CNT ? keymap[code].plain : 0;
	if (!key)
		return 0;
	k->held_code = 0;
	d->hold.on = false;
	if (ctrl && alt && key >= PK_F1 && key <= PK_F12) {
		out[0] = (struct in_event){.type = EV_VT_SWITCH, .button = (int)(key - PK_F1) + 1,
					   .from = DEV_KEYBOARD};
		return 1;
	}
	if (key >= 'a' && key <= 'z') {
		if (shift != mods_of(d)->caps)
			key = keymap[code].shifted;
		if (ctrl)
			key &= 0x1F;
	} else if (shift) {
		key = keymap[code].shifted;
	}
	out[0] = (struct in_event){.type = EV_KEY_PRESS, .key = key, .from = DEV_KEYBOARD};
	if (!ctrl && !alt && evm_key_repeats(key)) {
		k->held_code = (uint16_t)code;
		hold_start(&d->hold, &out[0]);
	}
	return 1;
}

/* ---------- gamepad ---------- */

#define DPAD_MASK ((1u << EVDB_B_DUP) | (1u << EVDB_B_DDOWN) | (1u << EVDB_B_DLEFT) | (1u << EVDB_B_DRIGHT))
#define B(x) (1u << (x))

static const uint32_t sector_key[8] = {
	PAD_RIGHT, PAD_DOWNRIGHT, PAD_DOWN, PAD_DOWNLEFT, PAD_LEFT, PAD_UPLEFT, PAD_UP, PAD_UPRIGHT,
};

static uint32_t dir_key(int v, int h)
{
	static const uint32_t k[3][3] = {
		{PAD_UPLEFT, PAD_UP, PAD_UPRIGHT},
		{PAD_LEFT, 0, PAD_RIGHT},
		{PAD_DOWNLEFT, PAD_DOWN, PAD_DOWNRIGHT},
	};
	return k[v + 1][h + 1];
}

static void out_button(struct evm_pad *p, unsigned target, bool down)
{
	if (target >= EVDB_B_COUNT)
		return;
	if (down)
		p->btn |= (uint16_t)B(target);
	else
		p->btn &= (uint16_t)~B(target);
}

/* Sets a stick axis or a trigger from a value in SDL's units. */
static void out_axis(struct evm_pad *p, unsigned target, int v)
{
	if (target == EVDB_T_LT || target == EVDB_T_RT) {
		out_button(p, target == EVDB_T_LT ? EVDB_B_TL2 : EVDB_B_TR2, v >= EVM_TRIGGER_PRESS);
		return;
	}
	if (target != EVDB_T_LX && target != EVDB_T_LY)
		return;
	long long n = (long long)v * 1000 / AXIS_MAX;
	p->ax[target - EVDB_T_LX] = n < -1000 ? -1000 : n > 1000 ? 1000 : (int)n;
}

static bool is_axis_target(unsigned t)
{
	return (t >= EVDB_T_LX && t <= EVDB_T_RT) || t == EVDB_T_OTHER + 7 || t == EVDB_T_OTHER + 8;
}

/* SDL's ResetOutput: a button is released, an axis goes to 0. */
static void out_reset(struct evm_pad *p, const struct evm_rule *r)
{
	if (is_axis_target(r->target))
		out_axis(p, r->target, 0);
	else
		out_button(p, r->target, false);
}

/* A binding's input is on (a button pressed, a hat direction held). */
static void out_on(struct evm_pad *p, const struct evm_rule *r, bool on)
{
	if (is_axis_target(r->target))
		out_axis(p, r->target, on ? r->out_max : r->out_min);
	else
		out_button(p, r->target, on);
}

/* SDL's HandleJoystickAxis: the first binding whose input range holds the
 * value drives its output; the output the axis drove before is reset when
 * another output (or none) takes over. */
static void pad_axis(struct evm_dev *d, unsigned code, int raw)
{
	struct evm_pad *p = &d->pad;
	int v = evm_sdl_axis(raw, d->absmin[code], d->absmax[code]);
	int match = -1;
	for (int i = 0; i < d->map.n && match < 0; i++) {
		const struct evm_rule *r = &d->map.r[i];
		if (r->type != EV_ABS || r->hatmask || r->code != code)
			continue;
		int lo = r->in_min < r->in_max ? r->in_min : r->in_max;
		int hi = r->in_min < r->in_max ? r->in_max : r->in_min;
		if (v >= lo && v <= hi)
			match = i;
	}
	if (p->last[code]) {
		const struct evm_rule *l = &d->map.r[p->last[code] - 1];
		if (match < 0 || d->map.r[match].target != l->target)
			out_reset(p, l);
	}
	p->last[code] = (uint8_t)(match + 1);
	if (match < 0)
		return;
	const struct evm_rule *r = &d->map.r[match];
	if (is_axis_target(r->target)) {
		if (r->in_min != r->out_min || r->in_max != r->out_max) {
			float f = (float)(v - r->in_min) / (float)(r->in_max - r->in_min);
			v = r->out_min + (int)(f * (float)(r->out_max - r->out_min));
		}
		out_axis(p, r->target, v);
	} else {
		int mid = r->in_min + (r->in_max - r->in_min) / 2;
		out_button(p, r->target, r->in_max < r->in_min ? v <= mid : v >= mid);
	}
}

/* SDL's HandleHat: each binding whose mask meets a changed direction is on
 * while the hat holds any direction of its mask. Directions come from the
 * sign of each hat axis, as SDL's Linux driver reads them. */
static void pad_hat(struct evm_dev *d, unsigned code, int value)
{
	struct evm_pad *p = &d->pad;
	unsigned h = (code - ABS_HAT0X) / 2, y = (code - ABS_HAT0X) % 2;
	unsigned old = p->hat[h], bits = old & (y ? 0xAu : 0x5u);
	if (value)
		bits |= y ? (value < 0 ? 1u : 4u) : (value < 0 ? 8u : 2u);
	unsigned changed = old ^ bits;
	p->hat[h] = (uint8_t)bits;
	for (int i = 0; i < d->map.n; i++) {
		const struct evm_rule *r = &d->map.r[i];
		if (r->type == EV_ABS && r->hatmask && r->code == ABS_HAT0X + 2 * h && (changed & r->hatmask))
			out_on(p, r, (bits & r->hatmask) != 0);
	}
}

/* Applies one evdev event through the map. Returns true if a rule uses the
 * input. */
static bool pad_input(struct evm_dev *d, unsigned type, unsigned code, int value)
{
	bool hat = type == EV_ABS && code >= ABS_HAT0X && code <= ABS_HAT3Y;
	unsigned rule_code = hat ? ABS_HAT0X + (code - ABS_HAT0X) / 2 * 2 : code;
	int first = -1;
	for (int i = 0; i < d->map.n && first < 0; i++) {
		const struct evm_rule *r = &d->map.r[i];
		if (r->type == type && r->code == rule_code && (r->hatmask != 0) == hat)
			first = i;
	}
	if (first < 0)
		return false;
	if (type == EV_KEY)
		out_on(&d->pad, &d->map.r[first], value != 0); /* SDL: the first binding of a button only */
	else if (hat)
		pad_hat(d, code, value);
	else
		pad_axis(d, code, value);
	return true;
}

static int pad_report(struct evm_dev *d, struct in_event *out)
{
	static const struct { uint8_t b; uint32_t key; } face[] = {
		{EVDB_B_SOUTH, PAD_SOUTH}, {EVDB_B_EAST, PAD_EAST}, {EVDB_B_WEST, PAD_WEST},
		{EVDB_B_NORTH, PAD_NORTH}, {EVDB_B_TL, PAD_TL}, {EVDB_B_TR, PAD_TR},
		{EVDB_B_START, PAD_START}, {EVDB_B_SELECT, PAD_SELECT}, {EVDB_B_TL2, PAD_TL2},
		{EVDB_B_TR2, PAD_TR2}, {EVDB_B_THUMBL, PAD_THUMBL}, {EVDB_B_THUMBR, PAD_THUMBR},
	};
	struct evm_pad *p = &d->pad;
	bool quiet = d->syncing;
	unsigned pressed = p->btn & ~p->prev & 0xFFFFu, released = p->prev & ~p->btn & 0xFFFFu;
	int n = 0;
	if (!quiet)
		for (size_t i = 0; i < sizeof face / sizeof *face; i++)
			if (pressed & B(face[i].b))
				out[n++] = (struct in_event){.type = EV_KEY_PRESS, .key = face[i].key,
							     .from = DEV_GAMEPAD};
	if (p->hold_mask && (released & p->hold_mask)) {
		p->hold_mask = 0;
		d->hold.on = false;
	}
	unsigned newly = pressed & DPAD_MASK;
	if (newly && !quiet) {
		int v = (newly & B(EVDB_B_DUP) ? -1 : 0) + (newly & B(EVDB_B_DDOWN) ? 1 : 0);
		int h = (newly & B(EVDB_B_DLEFT) ? -1 : 0) + (newly & B(EVDB_B_DRIGHT) ? 1 : 0);
		bool tl = p->btn & B(EVDB_B_TL), tr = p->btn & B(EVDB_B_TR);
		if (tl != tr && (v == 0) != (h == 0)) {
			/* a shoulder turns a d-pad direction into a diagonal:
			 * L adds left to up/down and up to left/right,
			 * R adds right to up/down and down to left/right */
			if (v)
				h = tl ? -1 : 1;
			else
				v = tl ? -1 : 1;
		}
		uint32_t key = dir_key(v, h);
		if (key) {
			out[n] = (struct in_event){.type = EV_KEY_PRESS, .key = key, .from = DEV_GAMEPAD};
			p->hold_mask = (uint16_t)newly;
			p->hold_stick = false;
			hold_start(&d->hold, &out[n]);
			n++;
		}
	}
	/* the left stick: 8 sectors, dead zone and hysteresis */
	long long x = p->ax[0], y = p->ax[1], r2 = x * x + y * y;
	int sector = p->sector;
	if (r2 < (long long)EVM_STICK_RELEASE * EVM_STICK_RELEASE ||
	    (sector < 0 && r2 < (long long)EVM_STICK_ENGAGE * EVM_STICK_ENGAGE)) {
		sector = -1;
	} else {
		double deg = atan2((double)y, (double)x) * (180.0 / M_PI);
		if (deg < 0)
			deg += 360.0;
		bool keep = false;
		if (sector >= 0) {
			double off = fabs(deg - sector * 45.0);
			if (off > 180.0)
				off = 360.0 - off;
			keep = off <= 22.5 + EVM_STICK_HYST_DEG;
		}
		if (!keep)
			sector = (int)floor((deg + 22.5) / 45.0) % 8;
	}
	if (sector != p->sector) {
		if (p->hold_stick) {
			p->hold_stick = false;
			d->hold.on = false;
		}
		if (sector >= 0 && !quiet) {
			out[n] = (struct in_event){.type = EV_KEY_PRESS, .key = sector_key[sector],
						   .from = DEV_GAMEPAD};
			p->hold_stick = true;
			p->hold_mask = 0;
			hold_start(&d->hold, &out[n]);
			n++;
		}
		p->sector = sector;
	}
	p->prev = p->btn;
	return n;
}

/* ---------- pointer ---------- */

void evm_pointer_space(struct evm_pointer *p, int px_w, int px_h, int cell_w, int cell_h)
{
	bool was = p->px_w > 0;
	if (px_w <= 0 || px_h <= 0 || cell_w <= 0 || cell_h <= 0) {
		p->px_w = p->px_h = p->cell_w = p->cell_h = 0;
		p->cx = p->cy = -1;
		return;
	}
	p->px_w = px_w;
	p->px_h = px_h;
	p->cell_w = cell_w;
	p->cell_h = cell_h;
	if (!was) {
		p->x = px_w / 2;
		p->y = px_h / 2;
	}
	p->x = p->x < 0 ? 0 : p->x >= px_w ? px_w - 1 : p->x;
	p->y = p->y < 0 ? 0 : p->y >= px_h ? px_h - 1 : p->y;
	p->cx = p->cy = -1;
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static long long clampll(long long v, long long lo, long long hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* An absolute value in [min,max] scaled to 0..px-1; a value outside the
 * advertised range counts as its nearest end. An empty range keeps cur. */
static int abs_to_px(int v, int min, int max, int px, int cur)
{
	long long span = (long long)max - min + 1;
	if (span <= 0)
		return cur;
	long long off = clampll((long long)v - min, 0, span - 1);
	return (int)(off * px / span);
}

/* Adds a relative step to an accumulated motion, saturating at the int range. */
static int add_sat(int acc, int step)
{
	return (int)clampll((long long)acc + step, INT_MIN, INT_MAX);
}

static int mouse_report(struct evm_dev *d, struct evm_pointer *p, struct in_event *out)
{
	struct evm_mouse *m = &d->mouse;
	int n = 0;
	if (p->px_w > 0) {
		if (m->absset & 1)
			p->x = abs_to_px(m->absx, d->absmin[ABS_X], d->absmax[ABS_X], p->px_w, p->x);
		if (m->absset & 2)
			p->y = abs_to_px(m->absy, d->absmin[ABS_Y], d->absmax[ABS_Y], p->px_h, p->y);
		p->x = (int)clampll((long long)p->x + m->dx, 0, p->px_w - 1);
		p->y = (int)clampll((long long)p->y + m->dy, 0, p->px_h - 1);
		int cols = p->px_w / p->cell_w, rows = p->px_h / p->cell_h;
		int cx = clampi(p->x / p->cell_w, 0, cols > 0 ? cols - 1 : 0);
		int cy = clampi(p->y / p->cell_h, 0, rows > 0 ? rows - 1 : 0);
		if (!d->syncing) {
			if (cx != p->cx || cy != p->cy) {
				p->cx = cx;
				p->cy = cy;
				if (m->dx || m->dy || m->absset || m->clicks)
					out[n++] = (struct in_event){.type = EV_MOUSE_MOVE, .x = cx, .y = cy,
								     .from = DEV_MOUSE};
			}
			for (int b = 0; b < 3; b++)
				if (m->clicks & (1u << b))
					out[n++] = (struct in_event){.type = EV_MOUSE_CLICK, .x = cx, .y = cy,
								     .button = b + 1, .from = DEV_MOUSE};
		}
	}
	m->dx = m->dy = 0;
	m->absset = 0;
	m->clicks = 0;
	return n;
}

static bool mouse_input(struct evm_dev *d, unsigned type, unsigned code, int value)
{
	struct evm_mouse *m = &d->mouse;
	if (type == EV_REL && code == REL_X)
		m->dx = add_sat(m->dx, value);
	else if (type == EV_REL && code == REL_Y)
		m->dy = add_sat(m->dy, value);
	else if (type == EV_ABS && code == ABS_X) {
		m->absx = value;
		m->absset |= 1;
	} else if (type == EV_ABS && code == ABS_Y) {
		m->absy = value;
		m->absset |= 2;
	}
	else if (type == EV_KEY && value == 1 && !d->syncing) {
		if (code == BTN_LEFT || code == BTN_TOUCH)
			m->clicks |= 1;
		else if (code == BTN_MIDDLE)
			m->clicks |= 2;
		else if (code == BTN_RIGHT)
			m->clicks |= 4;
		else
			return false;
	} else
		return false;
	return true;
}

/* ---------- device ---------- */

void evm_dev_init(struct evm_dev *d, unsigned cls, const struct evm_caps *c)
{
	int absmin[ABS_CNT], absmax[ABS_CNT];
	memcpy(absmin, d->absmin, sizeof absmin);
	memcpy(absmax, d->absmax, sizeof absmax);
	memset(d, 0, sizeof *d);
	memcpy(d->absmin, absmin, sizeof absmin);
	memcpy(d->absmax, absmax, sizeof absmax);
	d->cls = cls;
	d->pad.sector = -1;
	evm_padmap_default(&d->map, c);
}

int evm_dev_feed(struct evm_dev *d, struct evm_pointer *p, unsigned type, unsigned code, int value,
		 struct in_event *out)
{
	switch (type) {
	case EV_SYN:
		if (code == SYN_DROPPED) {
			evm_dev_sync_begin(d);
			return 0;
		}
		if (code != SYN_REPORT)
			return 0;
		{
			int n = 0;
			if (d->cls & EVM_GAMEPAD)
				n += pad_report(d, out + n);
			if (d->cls & EVM_MOUSE)
				n += mouse_report(d, p, out + n);
			return n;
		}
	case EV_KEY:
		if (value == 2)
			return 0;
		if ((d->cls & EVM_KEYBOARD) && code < BTN_MISC)
			return kbd_key(d, code, value, out);
		/* fall through */
	case EV_ABS:
		if ((d->cls & EVM_GAMEPAD) && pad_input(d, type, code, value))
			return 0;
		/* fall through */
	case EV_REL:
		if (d->cls & EVM_MOUSE)
			mouse_input(d, type, code, value);
		return 0;
	default:
		return 0;
	}
}

void evm_dev_sync_begin(struct evm_dev *d)
{
	d->syncing = true;
}

void evm_dev_sync_end(struct evm_dev *d, struct evm_pointer *p)
{
	struct in_event scratch[EVM_MAX_OUT];
	if (!d->syncing)
		return;
	if (d->cls & EVM_GAMEPAD)
		pad_report(d, scratch);
	if (d->cls & EVM_MOUSE)
		mouse_report(d, p, scratch);
	mods_of(d)->lone = 0;
	d->syncing = false;
}

void evm_dev_release_all(struct evm_dev *d)
{
	mods_set(d, d->kbd.mods, false);
	mods_of(d)->lone = 0;
	d->kbd.held_code = 0;
	d->pad.btn = d->pad.prev = 0;
	memset(d->pad.ax, 0, sizeof d->pad.ax);
	memset(d->pad.hat, 0, sizeof d->pad.hat);
	memset(d->pad.last, 0, sizeof d->pad.last);
	d->pad.sector = -1;
	d->pad.hold_mask = 0;
	d->pad.hold_stick = false;
	d->mouse.dx = d->mouse.dy = 0;
	d->mouse.absset = 0;
	d->mouse.clicks = 0;
	d->hold.on = false;
}
