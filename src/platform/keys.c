/* Key names shared by --keys files, bindings and messages. */
#include "platform/keys.h"
#include "core/utf8.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	uint32_t key;
} key_names[] = {
	{ "up", KEY_UP }, { "down", KEY_DOWN }, { "left", KEY_LEFT }, { "right", KEY_RIGHT },
	{ "home", KEY_HOME }, { "end", KEY_END }, { "pgup", KEY_PGUP }, { "pgdn", KEY_PGDN },
	{ "enter", KEY_ENTER }, { "escape", KEY_ESCAPE }, { "space", KEY_SPACE }, { "tab", KEY_TAB },
	{ "backspace", KEY_BACKSPACE }, { "insert", KEY_INSERT }, { "delete", KEY_DELETE },
	{ "kp0", KEY_KP0 }, { "kp1", KEY_KP1 }, { "kp2", KEY_KP2 }, { "kp3", KEY_KP3 }, { "kp4", KEY_KP4 },
	{ "kp5", KEY_KP5 }, { "kp6", KEY_KP6 }, { "kp7", KEY_KP7 }, { "kp8", KEY_KP8 }, { "kp9", KEY_KP9 },
	{ "kpenter", KEY_KPENTER },
	{ "f1", KEY_F1 }, { "f2", KEY_F2 }, { "f3", KEY_F3 }, { "f4", KEY_F4 }, { "f5", KEY_F5 },
	{ "f6", KEY_F6 }, { "f7", KEY_F7 }, { "f8", KEY_F8 }, { "f9", KEY_F9 }, { "f10", KEY_F10 },
	{ "f11", KEY_F11 }, { "f12", KEY_F12 },
	{ "modifier", KEY_MODIFIER },
	{ "pad_a", PAD_SOUTH }, { "pad_b", PAD_EAST }, { "pad_x", PAD_WEST }, { "pad_y", PAD_NORTH },
	{ "pad_l", PAD_TL }, { "pad_r", PAD_TR }, { "pad_start", PAD_START }, { "pad_select", PAD_SELECT },
	{ "pad_up", PAD_UP }, { "pad_down", PAD_DOWN }, { "pad_left", PAD_LEFT }, { "pad_right", PAD_RIGHT },
	{ "pad_upleft", PAD_UPLEFT }, { "pad_upright", PAD_UPRIGHT },
	{ "pad_downleft", PAD_DOWNLEFT }, { "pad_downright", PAD_DOWNRIGHT },
	{ "pad_l2", PAD_TL2 }, { "pad_r2", PAD_TR2 }, { "pad_thumbl", PAD_THUMBL }, { "pad_thumbr", PAD_THUMBR },
};

const char *key_name(uint32_t key, char *buf, int len)
{
	if (len <= 0)
		return buf;
	for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++) {
		if (key_names[i].key == key) {
			snprintf(buf, (size_t)len, "%s", key_names[i].name);
			return buf;
		}
	}
	if (key > 0x20 && key < KEY_SPECIAL && key != 0x7F) {
		char u[5];
		size_t n = utf8_encode(key, u);
		u[n] = 0;
		snprintf(buf, (size_t)len, "%s", u);
	} else {
		snprintf(buf, (size_t)len, "key-0x%x", (unsigned)key);
	}
	return buf;
}

int key_parse(const char *token, uint32_t *key)
{
	size_t n = strlen(token);
	if (n == 0)
		return -EINVAL;
	/* every name is two characters or more: one byte is the key itself */
	for (size_t i = 0; n > 1 && i < sizeof key_names / sizeof key_names[0]; i++) {
		if (strcasecmp(token, key_names[i].name) == 0) {
			*key = key_names[i].key;
			return 0;
		}
	}
	uint32_t cp;
	size_t used = utf8_decode(token, n, &cp);
	if (used != n || cp == 0xFFFD || cp <= 0x20 || cp == 0x7F)
		return -EINVAL;
	*key = cp;
	return 0;
}
