/* evmap: evdev events -> in_events, without devices (see evmap.h). */
#include "platform/evmap.h"
#include "core/log.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* ---------- GUID ---------- */

static void put_le16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v & 0xFF);
	p[1] = (uint8_t)(v >> 8);
}

void evm_guid(const struct evm_caps *c, uint8_t guid[16])
{
	memset(guid, 0, 16);
	put_le16(guid, c->bus);
	if (c->vendor && c->product) {
		put_le16(guid + 4, c->vendor);
		put_le16(guid + 8, c->product);
		put_le16(guid + 12, c->version);
	} else {
		size_t n = strnlen(c->name, 11);
		memcpy(guid + 4, c->name, n);
	}
}

void evm_guid_str(const uint8_t guid[16], char out[33])
{
	static const char hex[] = "0123456789abcdef";
	for (int i = 0; i < 16; i++) {
		out[2 * i] = hex[guid[i] >> 4];
		out[2 * i + 1] = hex[guid[i] & 15];
	}
	out[32] = 0;
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = tolower(ch);
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

int evm_guid_parse(const char *s, uint8_t guid[16])
{
	for (int i = 0; i < 32; i++)
		if (hexval((unsigned char)s[i]) < 0)
			return -EINVAL;
	if (s[32])
		return -EINVAL;
	for (int i = 0; i < 16; i++)
		guid[i] = (uint8_t)(hexval((unsigned char)s[2 * i]) << 4 | hexval((unsigned char)s[2 * i + 1]));
	return 0;
}

/* ---------- GameControllerDB ---------- */

static const struct { const char *name; int target; } db_targets[] = {
	{"a", EVM_B_SOUTH}, {"b", EVM_B_EAST}, {"x", EVM_B_WEST}, {"y", EVM_B_NORTH},
	{"leftshoulder", EVM_B_TL}, {"rightshoulder", EVM_B_TR},
	{"start", EVM_B_START}, {"back", EVM_B_SELECT},
	{"dpup", EVM_B_DUP}, {"dpdown", EVM_B_DDOWN}, {"dpleft", EVM_B_DLEFT}, {"dpright", EVM_B_DRIGHT},
	{"leftx", EVM_T_LX}, {"lefty", EVM_T_LY},
	/* SDL outputs pirogue does not use: checked, then dropped */
	{"guide", -1}, {"leftstick", -1}, {"rightstick", -1}, {"rightx", -1}, {"righty", -1},
	{"lefttrigger", -1}, {"righttrigger", -1}, {"misc1", -1}, {"misc2", -1}, {"misc3", -1},
	{"misc4", -1}, {"misc5", -1}, {"misc6", -1}, {"paddle1", -1}, {"paddle2", -1},
	{"paddle3", -1}, {"paddle4", -1}, {"touchpad", -1},
};

/* Parses an unsigned decimal at *p (advancing it). -1 if there is none. */
static long parse_uint(const char **p)
{
	const char *s = *p;
	long v = 0;
	if (!isdigit((unsigned char)*s))
		return -1;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (*s++ - '0');
		if (v > 65535)
			return -1;
	}
	*p = s;
	return v;
}

/* Parses a source ("b3", "a1", "+a2", "-a2", "a1~", "h0.4") into b. */
static int parse_source(const char *s, struct evm_dbbind *b)
{
	long idx, mask;
	b->in_half = 0;
	b->invert = false;
	b->hatmask = 0;
	if (*s == '+' || *s == '-') {
		b->in_half = *s == '+' ? 1 : -1;
		s++;
		if (*s != 'a')
			return -EINVAL;
	}
	b->kind = *s++;
	switch (b->kind) {
	case 'b':
	case 'a':
		if ((idx = parse_uint(&s)) < 0)
			return -EINVAL;
		if (b->kind == 'a' && *s == '~') {
			b->invert = true;
			s++;
		}
		break;
	case 'h':
		if ((idx = parse_uint(&s)) < 0 || *s++ != '.' || (mask = parse_uint(&s)) < 0)
			return -EINVAL;
		if (mask != 1 && mask != 2 && mask != 4 && mask != 8)
			return -ERANGE;
		b->hatmask = (uint8_t)mask;
		break;
	default:
		return -EINVAL;
	}
	if (*s)
		return -EINVAL;
	b->index = (uint16_t)idx;
	return 0;
}

int evm_db_add_line(struct evm_db *db, const char *line, const char *src, int lineno)
{
	char buf[2048], why[160];
	struct evm_dbentry e;
	char *fields[64];
	int nf = 0;
	size_t len = strlen(line);
	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	while (len && isspace((unsigned char)*line)) {
		line++;
		len--;
	}
	if (!len || *line == '#')
		return 1;
	if (len >= sizeof buf) {
		snprintf(why, sizeof why, "line longer than %zu bytes", sizeof buf - 1);
		goto bad;
	}
	memcpy(buf, line, len);
	buf[len] = 0;
	for (char *p = buf, *f; (f = strsep(&p, ",")) != NULL;) {
		if (nf == (int)(sizeof fields / sizeof *fields)) {
			snprintf(why, sizeof why, "more than %d fields", nf);
			goto bad;
		}
		fields[nf++] = f;
	}
	for (int i = 2; i < nf; i++)
		if (!strncmp(fields[i], "platform:", 9) && strcmp(fields[i] + 9, "Linux"))
			return 1; /* another platform's line: not for us */
	memset(&e, 0, sizeof e);
	if (evm_guid_parse(fields[0], e.guid)) {
		snprintf(why, sizeof why, "GUID \"%.40s\" is not 32 hex digits", fields[0]);
		goto bad;
	}
	if (nf < 2 || !*fields[1]) {
		snprintf(why, sizeof why, "no controller name after the GUID");
		goto bad;
	}
	snprintf(e.name, sizeof e.name, "%s", fields[1]);
	for (int i = 2; i < nf; i++) {
		char *f = fields[i], *colon;
		struct evm_dbbind b = {0};
		if (!*f)
			continue;
		if (!(colon = strchr(f, ':'))) {
			snprintf(why, sizeof why, "\"%.40s\" is not target:source", f);
			goto bad;
		}
		*colon = 0;
		const char *tname = f, *srcs = colon + 1;
		if (!strcmp(tname, "platform") || !strcmp(tname, "crc") || !strcmp(tname, "hint") ||
		    !strcmp(tname, "sdk>=") || !strcmp(tname, "sdk<=") || !strcmp(tname, "type"))
			continue;
		if (*tname == '+' || *tname == '-') {
			b.out_half = *tname == '+' ? 1 : -1;
			tname++;
		}
		int target = -2;
		for (size_t k = 0; k < sizeof db_targets / sizeof *db_targets; k++)
			if (!strcmp(db_targets[k].name, tname))
				target = db_targets[k].target;
		if (target == -2)
			continue; /* an output newer than this parser: ignored, like SDL */
		int rc = parse_source(srcs, &b);
		if (rc == -ERANGE) {
			snprintf(why, sizeof why, "%s:%.20s: hat mask must be 1, 2, 4 or 8", tname, srcs);
			goto bad;
		}
		if (rc) {
			snprintf(why, sizeof why, "%s:%.20s: source must be bN, aN, +aN, -aN, aN~ or hN.M",
				 tname, srcs);
			goto bad;
		}
		if (target < 0)
			continue;
		if (e.nbinds == EVM_DB_MAXBINDS) {
			snprintf(why, sizeof why, "more than %d bindings", EVM_DB_MAXBINDS);
			goto bad;
		}
		b.target = (uint8_t)target;
		e.binds[e.nbinds++] = b;
	}
	if (db->n == db->cap) {
		int cap = db->cap ? db->cap * 2 : 16;
		struct evm_dbentry *v = realloc(db->v, (size_t)cap * sizeof *v);
		if (!v) {
			log_error("%s:%d: out of memory reading gamepad mappings", src, lineno);
			return -ENOMEM;
		}
		db->v = v;
		db->cap = cap;
	}
	db->v[db->n++] = e;
	return 0;
bad:
	log_error("%s:%d: bad gamepad mapping: %s; line ignored (format: GUID,name,a:b0,...)", src,
		  lineno, why);
	return -EINVAL;
}

int evm_db_add_text(struct evm_db *db, const char *text, const char *src)
{
	int added = 0, lineno = 0;
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		char line[2048 + 2];
		lineno++;
		if (len >= sizeof line)
			len = sizeof line - 1; /* reported as too long by add_line */
		memcpy(line, text, len);
		line[len] = 0;
		int rc = evm_db_add_line(db, line, src, lineno);
		if (rc == -ENOMEM)
			return rc;
		if (rc == 0)
			added++;
		text = nl ? nl + 1 : text + len;
	}
	return added;
}

int evm_db_load_file(struct evm_db *db, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int added = 0, lineno = 0, rc;
	if (!f) {
		rc = -errno;
		log_error("%s: cannot open gamepad mapping file: %s", path, strerror(errno));
		return rc;
	}
	while (getline(&line, &cap, f) >= 0) {
		rc = evm_db_add_line(db, line, path, ++lineno);
		if (rc == -ENOMEM)
			goto out;
		if (rc == 0)
			added++;
	}
	if (ferror(f)) {
		rc = -EIO;
		log_error("%s: read error in gamepad mapping file", path);
		goto out;
	}
	rc = added;
out:
	free(line);
	fclose(f);
	return rc;
}

static bool guid_match(const uint8_t *a, const uint8_t *b, int pass)
{
	for (int i = 0; i < 16; i++) {
		if (pass >= 1 && (i == 2 || i == 3))
			continue;
		if (pass >= 2 && (i == 12 || i == 13))
			continue;
		if (a[i] != b[i])
			return false;
	}
	return true;
}

const struct evm_dbentry *evm_db_find(const struct evm_db *db, const uint8_t guid[16])
{
	for (int pass = 0; pass < 3; pass++)
		for (int i = db->n - 1; i >= 0; i--)
			if (guid_match(db->v[i].guid, guid, pass))
				return &db->v[i];
	return NULL;
}

void evm_db_free(struct evm_db *db)
{
	if (!db)
		return;
	free(db->v);
	db->v = NULL;
	db->n = db->cap = 0;
}

/* ---------- gamepad maps ---------- */

static void add_rule(struct evm_padmap *m, unsigned type, unsigned code, int in_half, bool invert,
		     int target, int out_half)
{
	if (m->n == EVM_MAX_RULES)
		return;
	m->r[m->n++] = (struct evm_rule){
		.type = (uint16_t)type, .code = (uint16_t)code, .in_half = (int8_t)in_half,
		.invert = invert, .target = (uint8_t)target, .out_half = (int8_t)out_half,
	};
}

void evm_padmap_default(struct evm_padmap *m, const struct evm_caps *c)
{
	static const struct { uint16_t code; uint8_t target; } keys[] = {
		{BTN_SOUTH, EVM_B_SOUTH}, {BTN_EAST, EVM_B_EAST}, {BTN_WEST, EVM_B_WEST},
		{BTN_NORTH, EVM_B_NORTH}, {BTN_TL, EVM_B_TL}, {BTN_TR, EVM_B_TR},
		{BTN_START, EVM_B_START}, {BTN_SELECT, EVM_B_SELECT},
		{BTN_DPAD_UP, EVM_B_DUP}, {BTN_DPAD_DOWN, EVM_B_DDOWN},
		{BTN_DPAD_LEFT, EVM_B_DLEFT}, {BTN_DPAD_RIGHT, EVM_B_DRIGHT},
		/* generic joysticks / cheap USB pads without the gamepad layout */
		{BTN_TRIGGER, EVM_B_SOUTH}, {BTN_THUMB, EVM_B_EAST}, {BTN_THUMB2, EVM_B_WEST},
		{BTN_TOP, EVM_B_NORTH}, {BTN_TOP2, EVM_B_TL}, {BTN_PINKIE, EVM_B_TR},
		{BTN_BASE3, EVM_B_SELECT}, {BTN_BASE4, EVM_B_START},
	};
	memset(m, 0, sizeof *m);
	snprintf(m->source, sizeof m->source, "kernel layout");
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (!c || EVM_HAS(c, key, keys[i].code))
			add_rule(m, EV_KEY, keys[i].code, 0, false, keys[i].target, 0);
	if (!c || EVM_HAS(c, abs, ABS_HAT0X)) {
		add_rule(m, EV_ABS, ABS_HAT0X, -1, false, EVM_B_DLEFT, 0);
		add_rule(m, EV_ABS, ABS_HAT0X, 1, false, EVM_B_DRIGHT, 0);
	}
	if (!c || EVM_HAS(c, abs, ABS_HAT0Y)) {
		add_rule(m, EV_ABS, ABS_HAT0Y, -1, false, EVM_B_DUP, 0);
		add_rule(m, EV_ABS, ABS_HAT0Y, 1, false, EVM_B_DDOWN, 0);
	}
	if (!c || EVM_HAS(c, abs, ABS_X))
		add_rule(m, EV_ABS, ABS_X, 0, false, EVM_T_LX, 0);
	if (!c || EVM_HAS(c, abs, ABS_Y))
		add_rule(m, EV_ABS, ABS_Y, 0, false, EVM_T_LY, 0);
}

int evm_padmap_from_db(struct evm_padmap *m, const struct evm_dbentry *e, const struct evm_caps *c)
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
		const struct evm_dbbind *b = &e->binds[i];
		switch (b->kind) {
		case 'b':
			if (b->index < nb)
				add_rule(m, EV_KEY, btns[b->index], 0, false, b->target, b->out_half);
			break;
		case 'a':
			if (b->index < na)
				add_rule(m, EV_ABS, axes[b->index], b->in_half, b->invert, b->target, b->out_half);
			break;
		case 'h':
			if (b->index < nh) {
				bool y = b->hatmask == 1 || b->hatmask == 4;
				int sign = b->hatmask == 1 || b->hatmask == 8 ? -1 : 1;
				add_rule(m, EV_ABS, hats[b->index] + (y ? 1u : 0u), sign, false, b->target,
					 b->out_half);
			}
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

static int kbd_key(struct evm_dev *d, unsigned code, int value, struct in_event *out)
{
	struct evm_kbd *k = &d->kbd;
	unsigned bit = mod_bit(code);
	if (bit || is_lock(code)) {
		if (value) {
			k->mods |= (uint16_t)bit;
			if (!d->syncing) {
				if (code == KEY_CAPSLOCK)
					k->caps = !k->caps;
				k->lone = (uint16_t)code;
			}
			return 0;
		}
		k->mods &= (uint16_t)~bit;
		if (k->lone == code && !d->syncing) {
			k->lone = 0;
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
	k->lone = 0;
	if (d->syncing)
		return 0;
	bool ctrl = k->mods & MOD_CTRL, alt = k->mods & MOD_ALT, shift = k->mods & MOD_SHIFT;
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
		if (shift != k->caps)
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

#define DPAD_MASK ((1u << EVM_B_DUP) | (1u << EVM_B_DDOWN) | (1u << EVM_B_DLEFT) | (1u << EVM_B_DRIGHT))
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

/* Applies one evdev event through the map. Returns true if a rule used it. */
static bool pad_input(struct evm_dev *d, unsigned type, unsigned code, int value)
{
	struct evm_pad *p = &d->pad;
	bool used = false;
	for (int i = 0; i < d->map.n; i++) {
		const struct evm_rule *r = &d->map.r[i];
		if (r->type != type || r->code != code)
			continue;
		used = true;
		int v;
		if (type == EV_KEY)
			v = value ? 1000 : 0;
		else
			v = evm_norm_axis(value, d->absmin[code], d->absmax[code]);
		if (r->invert)
			v = -v;
		if (r->in_half)
			v = v * r->in_half < 0 ? 0 : v * r->in_half;
		if (r->target < EVM_B_COUNT) {
			bool down = (type == EV_KEY || r->in_half) ? v >= EVM_AXIS_PRESS : v > 0;
			if (down)
				p->btn |= (uint16_t)B(r->target);
			else
				p->btn &= (uint16_t)~B(r->target);
			continue;
		}
		int ax = r->target - EVM_T_LX;
		if (r->out_half) /* a button or half axis drives one half of the stick */
			p->part[ax][r->out_half + 1] = (type == EV_KEY || r->in_half) ? v : (v + 1000) / 2;
		else
			p->part[ax][1] = (type == EV_ABS && r->in_half) ? 2 * v - 1000 : v;
		int sum = p->part[ax][1] + p->part[ax][2] - p->part[ax][0];
		p->ax[ax] = sum < -1000 ? -1000 : sum > 1000 ? 1000 : sum;
	}
	return used;
}

static int pad_report(struct evm_dev *d, struct in_event *out)
{
	static const struct { uint8_t b; uint32_t key; } face[] = {
		{EVM_B_SOUTH, PAD_SOUTH}, {EVM_B_EAST, PAD_EAST}, {EVM_B_WEST, PAD_WEST},
		{EVM_B_NORTH, PAD_NORTH}, {EVM_B_TL, PAD_TL}, {EVM_B_TR, PAD_TR},
		{EVM_B_START, PAD_START}, {EVM_B_SELECT, PAD_SELECT},
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
		int v = (newly & B(EVM_B_DUP) ? -1 : 0) + (newly & B(EVM_B_DDOWN) ? 1 : 0);
		int h = (newly & B(EVM_B_DLEFT) ? -1 : 0) + (newly & B(EVM_B_DRIGHT) ? 1 : 0);
		bool tl = p->btn & B(EVM_B_TL), tr = p->btn & B(EVM_B_TR);
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

static int mouse_report(struct evm_dev *d, struct evm_pointer *p, struct in_event *out)
{
	struct evm_mouse *m = &d->mouse;
	int n = 0;
	if (p->px_w > 0) {
		if (m->absset & 1) {
			long long span = (long long)d->absmax[ABS_X] - d->absmin[ABS_X] + 1;
			if (span > 0)
				p->x = (int)(((long long)m->absx - d->absmin[ABS_X]) * p->px_w / span);
		}
		if (m->absset & 2) {
			long long span = (long long)d->absmax[ABS_Y] - d->absmin[ABS_Y] + 1;
			if (span > 0)
				p->y = (int)(((long long)m->absy - d->absmin[ABS_Y]) * p->px_h / span);
		}
		p->x = clampi(p->x + m->dx, 0, p->px_w - 1);
		p->y = clampi(p->y + m->dy, 0, p->px_h - 1);
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
		m->dx += value;
	else if (type == EV_REL && code == REL_Y)
		m->dy += value;
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
	d->kbd.lone = 0;
	d->syncing = false;
}

void evm_dev_release_all(struct evm_dev *d)
{
	d->kbd.mods = 0;
	d->kbd.lone = 0;
	d->kbd.held_code = 0;
	d->pad.btn = d->pad.prev = 0;
	memset(d->pad.ax, 0, sizeof d->pad.ax);
	memset(d->pad.part, 0, sizeof d->pad.part);
	d->pad.sector = -1;
	d->pad.hold_mask = 0;
	d->pad.hold_stick = false;
	d->mouse.dx = d->mouse.dy = 0;
	d->mouse.absset = 0;
	d->mouse.clicks = 0;
	d->hold.on = false;
}
