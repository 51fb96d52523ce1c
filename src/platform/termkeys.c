/* termkeys: see termkeys.h. */
#include "platform/termkeys.h"
#include "core/utf8.h"
#include <string.h>

void termkeys_init(struct termkeys *k)
{
	memset(k, 0, sizeof *k);
	k->mx = k->my = -1;
}

void termkeys_forget_pointer(struct termkeys *k)
{
	k->mx = k->my = -1;
}

static void push(struct termkeys *k, enum ev_type type, uint32_t key, int x, int y, int button,
		 enum dev_kind from)
{
	if (k->qn >= TERMKEYS_QUEUE)
		return;
	k->q[k->qn++] = (struct in_event){ .type = type, .key = key, .x = x, .y = y,
					    .button = button, .from = from };
}

static void push_key(struct termkeys *k, uint32_t key)
{
	push(k, EV_KEY_PRESS, key, 0, 0, 0, DEV_KEYBOARD);
}

/* Length of the UTF-8 character at s: its byte count when complete and
 * valid (*cp set), 0 when it is a valid but incomplete start, -1 when invalid. */
static int utf8_char(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char b = s[0];
	size_t len = b < 0x80 ? 1 : b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 :
		     b >= 0xF0 && b <= 0xF4 ? 4 : 0;
	if (len == 0)
		return -1;
	if (n < len) {
		for (size_t i = 1; i < n; i++)
			if ((s[i] & 0xC0) != 0x80)
				return -1;
		return 0;
	}
	if (utf8_decode((const char *)s, len, cp) != len)
		return -1;
	return (int)len;
}

/* A mouse report: b is the xterm button byte, (x, y) 0-based cells. */
static void mouse(struct termkeys *k, int b, int x, int y, bool press)
{
	if (!press || (b & (64 | 128)) || x < 0 || y < 0)
		return; /* releases, wheel and extra buttons are not used */
	if (b & 32) {
		if (x == k->mx && y == k->my)
			return;
		k->mx = x;
		k->my = y;
		push(k, EV_MOUSE_MOVE, 0, x, y, 0, DEV_MOUSE);
		return;
	}
	if ((b & 3) == 3)
		return; /* X10 release */
	k->mx = x;
	k->my = y;
	push(k, EV_MOUSE_CLICK, 0, x, y, (b & 3) + 1, DEV_MOUSE);
}

/* The key of "CSI n ~" (and rxvt's $ ^ @ variants), or KEY_NONE. */
static uint32_t tilde_key(int n)
{
	switch (n) {
	case 1: case 7: return KEY_HOME;
	case 2: return KEY_INSERT;
	case 3: return KEY_DELETE;
	case 4: case 8: return KEY_END;
	case 5: return KEY_PGUP;
	case 6: return KEY_PGDN;
	case 11: case 12: case 13: case 14: case 15: return KEY_F1 + (uint32_t)(n - 11);
	case 17: case 18: case 19: case 20: case 21: return KEY_F6 + (uint32_t)(n - 17);
	case 23: return KEY_F11;
	case 24: return KEY_F12;
	default: return KEY_NONE;
	}
}

/* The key of a final byte shared by CSI and SS3 forms, or KEY_NONE. */
static uint32_t final_key(unsigned char f)
{
	switch (f) {
	case 'A': return KEY_UP;
	case 'B': return KEY_DOWN;
	case 'C': return KEY_RIGHT;
	case 'D': return KEY_LEFT;
	case 'H': return KEY_HOME;
	case 'F': return KEY_END;
	case 'E': return KEY_KP5; /* keypad 5 with NumLock off ("begin") */
	case 'P': return KEY_F1;
	case 'Q': return KEY_F2;
	case 'R': return KEY_F3;
	case 'S': return KEY_F4;
	default: return KEY_NONE;
	}
}

/* ESC [ ...: returns bytes consumed, 0 when incomplete. */
static size_t parse_csi(struct termkeys *k, const unsigned char *s, size_t n)
{
	size_t i = 2;
	if (i >= n)
		return 0;
	if (s[i] == '[') { /* Linux console F1..F5: ESC [ [ A..E */
		if (n < 4)
			return 0;
		if (s[3] >= 'A' && s[3] <= 'E') {
			push_key(k, KEY_F1 + (uint32_t)(s[3] - 'A'));
			return 4;
		}
		return s[3] >= 0x40 && s[3] <= 0x7E ? 4 : 3;
	}
	if (s[i] == 'M') { /* X10 mouse: ESC [ M b x y (terminals without SGR 1006) */
		if (n < 6)
			return 0;
		mouse(k, s[3] - 32, s[4] - 33, s[5] - 33, true);
		return 6;
	}
	unsigned char priv = 0;
	if (s[i] >= 0x3C && s[i] <= 0x3F)
		priv = s[i++];
	int p[8] = { 0 };
	int np = 0;
	bool bad = false, sub = false;
	for (; i < n; i++) {
		unsigned char c = s[i];
		if (c >= '0' && c <= '9') {
			if (np < 8 && !sub && p[np] < 100000)
				p[np] = p[np] * 10 + (c - '0');
		} else if (c == ';') {
			np++;
			sub = false;
		} else if (c == ':') {
			sub = true; /* sub-parameters are not used */
		} else if (c >= 0x3C && c <= 0x3F) {
			bad = true;
		} else {
			break;
		}
	}
	for (; i < n && s[i] >= 0x20 && s[i] <= 0x2F && s[i] != '$'; i++)
		bad = true; /* intermediates: nothing a key sends */
	if (i >= n)
		return 0;
	unsigned char f = s[i];
	if (f != '$' && (f < 0x40 || f > 0x7E))
		return i; /* broken off: drop it, reread the byte that broke it */
	i++;
	if (priv == '<' && !bad && (f == 'M' || f == 'm')) {
		if (np >= 2)
			mouse(k, p[0], p[1] - 1, p[2] - 1, f == 'M');
		return i;
	}
	if (priv || bad)
		return i;
	uint32_t key;
	if (f == '~' || f == '$' || f == '^' || f == '@')
		key = tilde_key(p[0]);
	else if (f == 'G')
		key = KEY_KP5; /* Linux console keypad 5 */
	else
		key = final_key(f);
	if (key != KEY_NONE)
		push_key(k, key);
	return i;
}

/* ESC O ...: returns bytes consumed, 0 when incomplete. */
static size_t parse_ss3(struct termkeys *k, const unsigned char *s, size_t n)
{
	size_t i = 2;
	while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';'))
		i++;
	if (i >= n)
		return 0;
	unsigned char f = s[i];
	if (f < 0x40 || f > 0x7E)
		return i;
	uint32_t key = final_key(f);
	if (f >= 'p' && f <= 'y')
		key = KEY_KP0 + (uint32_t)(f - 'p');
	else if (f == 'M')
		key = KEY_KPENTER;
	else if (f >= 'j' && f <= 'o')
		key = (uint32_t)"*+,-./"[f - 'j']; /* keypad operators type themselves */
	else if (f == 'X')
		key = '=';
	if (key != KEY_NONE)
		push_key(k, key);
	return i + 1;
}

/* One key or sequence at s: bytes consumed, 0 when incomplete. */
static size_t parse_one(struct termkeys *k, const unsigned char *s, size_t n)
{
	unsigned char b = s[0];
	uint32_t cp;
	int len;
	if (b == 0x1B) {
		if (n < 2)
			return 0;
		if (s[1] == '[')
			return parse_csi(k, s, n);
		if (s[1] == 'O')
			return parse_ss3(k, s, n);
		if (s[1] == 0x1B) {
			push_key(k, KEY_ESCAPE); /* the second ESC starts anew */
			return 1;
		}
		/* ESC + a character is Alt+character: not a key we use, dropped whole */
		len = utf8_char(s + 1, n - 1, &cp);
		return len == 0 ? 0 : len < 0 ? 2 : (size_t)len + 1;
	}
	if (b == '\r' || b == '\n') {
		push_key(k, KEY_ENTER);
		return 1;
	}
	if (b == '\t') {
		push_key(k, KEY_TAB);
		return 1;
	}
	if (b == 0x7F || b == 0x08) {
		push_key(k, KEY_BACKSPACE);
		return 1;
	}
	if (b < 0x20)
		return 1; /* other control characters (Ctrl+letter) are not keys we use */
	len = utf8_char(s, n, &cp);
	if (len < 0)
		return 1;
	if (len == 0)
		return 0;
	if (cp >= 0x20 && !(cp >= 0x7F && cp < 0xA0))
		push_key(k, cp);
	return (size_t)len;
}

void termkeys_feed(struct termkeys *k, size_t n)
{
	size_t len = k->pend + n, i = 0;
	while (i < len) {
		size_t used = parse_one(k, k->in + i, len - i);
		if (used == 0) {
			if (len - i >= TERMKEYS_SEQ_MAX)
				i = len; /* no sequence is that long: garbage */
			break;
		}
		i += used;
	}
	memmove(k->in, k->in + i, len - i);
	k->pend = len - i;
}

bool termkeys_esc_pending(const struct termkeys *k)
{
	return k->pend == 1 && k->in[0] == 0x1B;
}

void termkeys_flush_escape(struct termkeys *k)
{
	if (!termkeys_esc_pending(k))
		return;
	push_key(k, KEY_ESCAPE);
	k->pend = 0;
}

void termkeys_hangup(struct termkeys *k)
{
	k->pend = 0;
	push(k, EV_QUIT, 0, 0, 0, 0, DEV_KEYBOARD);
}

int termkeys_take(struct termkeys *k, struct in_event *ev, int max)
{
	int n = k->qn < max ? k->qn : max;
	if (n <= 0)
		return 0;
	memcpy(ev, k->q, (size_t)n * sizeof *ev);
	memmove(k->q, k->q + n, (size_t)(k->qn - n) * sizeof *k->q);
	k->qn -= n;
	return n;
}
