/* Tests for platform/termkeys: terminal input bytes decoded into keys and
 * pointer events, fed to the decoder directly (test_term.c drives the
 * backend's dispatch). */
#include "testutil.h"
#include "platform/termkeys.h"
#include <string.h>

/* Feeds s (its bytes, as one read would give them) and takes up to max
 * events; an ESC left alone at the end is the Escape key, as the backend
 * decides when nothing follows it at once. */
static int feed_n(struct termkeys *k, const char *s, size_t n, struct in_event *ev, int max)
{
	assert_true(n <= TERMKEYS_BUF - k->pend);
	memcpy(k->in + k->pend, s, n);
	termkeys_feed(k, n);
	termkeys_flush_escape(k);
	return termkeys_take(k, ev, max);
}

static int feed(struct termkeys *k, const char *s, struct in_event *ev, int max)
{
	return feed_n(k, s, strlen(s), ev, max);
}

struct key_case {
	const char *bytes; /* one read */
	uint32_t keys[6];  /* expected key presses, KEY_NONE-terminated */
};

static const struct key_case key_cases[] = {
	{ "\033[A", { KEY_UP } },
	{ "\033[B", { KEY_DOWN } },
	{ "\033[C", { KEY_RIGHT } },
	{ "\033[D", { KEY_LEFT } },
	{ "\033OA", { KEY_UP } },
	{ "\033OD", { KEY_LEFT } },
	{ "\033[1;2A", { KEY_UP } },   /* Shift+Up (xterm modifiers) */
	{ "\033[1;5D", { KEY_LEFT } }, /* Ctrl+Left */
	{ "\033[H", { KEY_HOME } },
	{ "\033[F", { KEY_END } },
	{ "\033OH", { KEY_HOME } },
	{ "\033OF", { KEY_END } },
	{ "\033[1~", { KEY_HOME } },
	{ "\033[7~", { KEY_HOME } },
	{ "\033[4~", { KEY_END } },
	{ "\033[8~", { KEY_END } },
	{ "\033[5~", { KEY_PGUP } },
	{ "\033[6~", { KEY_PGDN } },
	{ "\033[5;5~", { KEY_PGUP } },
	{ "\033[6^", { KEY_PGDN } }, /* rxvt Ctrl+PgDn */
	{ "\033[2~", { KEY_INSERT } },
	{ "\033[3~", { KEY_DELETE } },
	{ "\033[E", { KEY_KP5 } },
	{ "\033[G", { KEY_KP5 } },
	{ "\033", { KEY_ESCAPE } },             /* alone in its read */
	{ "\033\033", { KEY_ESCAPE, KEY_ESCAPE } },
	{ "\033\033[A", { KEY_ESCAPE, KEY_UP } },
	{ "<", { '<' } },
	{ ">", { '>' } },
	{ "A", { 'A' } },
	{ "hjkl", { 'h', 'j', 'k', 'l' } },
	{ "\xc3\xa9", { 0xE9 } },        /* é */
	{ "\xe2\x99\xa5", { 0x2665 } },  /* ♥ */
	{ "\xf0\x9f\x90\x89", { 0x1F409 } },
	{ " ", { KEY_SPACE } },
	{ "\r", { KEY_ENTER } },
	{ "\n", { KEY_ENTER } },
	{ "\t", { KEY_TAB } },
	{ "\x7f", { KEY_BACKSPACE } },
	{ "\x08", { KEY_BACKSPACE } },
	{ "\033Op", { KEY_KP0 } },
	{ "\033Ou", { KEY_KP5 } },
	{ "\033Oy", { KEY_KP9 } },
	{ "\033OM", { KEY_KPENTER } },
	{ "\033Ok", { '+' } },
	{ "\033OP", { KEY_F1 } },
	{ "\033OS", { KEY_F4 } },
	{ "\033[1;2P", { KEY_F1 } },
	{ "\033[[A", { KEY_F1 } },
	{ "\033[[E", { KEY_F5 } },
	{ "\033[11~", { KEY_F1 } },
	{ "\033[15~", { KEY_F5 } },
	{ "\033[17~", { KEY_F6 } },
	{ "\033[21~", { KEY_F10 } },
	{ "\033[23~", { KEY_F11 } },
	{ "\033[24~", { KEY_F12 } },
	{ "ab\033[Ac", { 'a', 'b', KEY_UP, 'c' } },
	/* unknown or unused sequences vanish whole */
	{ "\033[99~", { KEY_NONE } },
	{ "x\033[99~y", { 'x', 'y' } },
	{ "\033[?1;2c", { KEY_NONE } }, /* a device-attributes reply */
	{ "\033[200~", { KEY_NONE } },  /* bracketed paste start */
	{ "\033[1;5X", { KEY_NONE } },
	{ "\033[Z", { KEY_NONE } },      /* Shift+Tab */
	{ "\033a", { KEY_NONE } },       /* Alt+a */
	{ "\033\xc3\xa9q", { 'q' } },    /* Alt+é, then q */
	{ "\033[12$q", { KEY_F2, 'q' } }, /* rxvt Shift variant */
	{ "\033[31;2;3 zq", { 'q' } },   /* intermediates */
	{ "\x01\x1a\x00", { KEY_NONE } }, /* Ctrl+A, Ctrl+Z, Ctrl+Space */
	{ "\xff" "a\x80", { 'a' } },      /* broken UTF-8 */
	{ "\xc2\x85", { KEY_NONE } },     /* a C1 control in UTF-8 */
	{ "\033[1;2\001A", { 'A' } },     /* a sequence broken off by a control */
	/* split across reads */
	{ "\033[", { KEY_NONE } },
	{ "A", { KEY_UP } },
	{ "\033[1;", { KEY_NONE } },
	{ "5C", { KEY_RIGHT } },
	{ "\033O", { KEY_NONE } },
	{ "q", { KEY_KP1 } },
	{ "\xe2\x99", { KEY_NONE } },
	{ "\xa5!", { 0x2665, '!' } },
	{ "\033", { KEY_ESCAPE } }, /* a read that ends right after ESC: Escape */
	{ "[A", { '[', 'A' } },
};

static void test_key_table(void **st)
{
	(void)st;
	struct termkeys k;
	termkeys_init(&k);
	for (size_t i = 0; i < sizeof key_cases / sizeof key_cases[0]; i++) {
		const struct key_case *kc = &key_cases[i];
		size_t len = strlen(kc->bytes);
		if (len == 0)
			len = 1;
		if (strcmp(kc->bytes, "\x01\x1a") == 0)
			len = 3; /* the trailing NUL is part of the input */
		struct in_event ev[64];
		int n = feed_n(&k, kc->bytes, len, ev, 64);
		int want = 0;
		while (want < 6 && kc->keys[want] != KEY_NONE)
			want++;
		if (n != want)
			fail_msg("case %zu: %d events, expected %d", i, n, want);
		for (int j = 0; j < n; j++) {
			if (ev[j].type != EV_KEY_PRESS || ev[j].from != DEV_KEYBOARD ||
			    ev[j].key != kc->keys[j])
				fail_msg("case %zu, event %d: type %d key %#x, expected key %#x", i, j,
					 (int)ev[j].type, (unsigned)ev[j].key, (unsigned)kc->keys[j]);
		}
	}
}

static void test_mouse(void **st)
{
	(void)st;
	struct termkeys k;
	termkeys_init(&k);
	struct in_event ev[64];
	int n = feed(&k, "\033[<0;5;3M", ev, 64); /* left press at column 5, row 3 */
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].type, EV_MOUSE_CLICK);
	assert_int_equal(ev[0].from, DEV_MOUSE);
	assert_int_equal(ev[0].x, 4);
	assert_int_equal(ev[0].y, 2);
	assert_int_equal(ev[0].button, 1);
	assert_int_equal(feed(&k, "\033[<0;5;3m", ev, 64), 0); /* release */
	n = feed(&k, "\033[<35;6;3M\033[<35;6;3M\033[<35;7;4M", ev, 64);
	assert_int_equal(n, 2); /* the repeated cell is reported once */
	assert_int_equal(ev[0].type, EV_MOUSE_MOVE);
	assert_int_equal(ev[0].x, 5);
	assert_int_equal(ev[1].x, 6);
	assert_int_equal(ev[1].y, 3);
	n = feed(&k, "\033[<2;1;1M", ev, 64);
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].button, 3);
	assert_int_equal(feed(&k, "\033[<64;1;1M\033[<65;1;1M", ev, 64), 0); /* wheel */
	n = feed(&k, "\033[M !#", ev, 64); /* X10: left press at 0, 2 */
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].type, EV_MOUSE_CLICK);
	assert_int_equal(ev[0].x, 0);
	assert_int_equal(ev[0].y, 2);
	assert_int_equal(feed(&k, "\033[M#!!", ev, 64), 0); /* X10 release */
	/* the terminal taken again: the same cell is news */
	assert_int_equal(feed(&k, "\033[<35;9;9M", ev, 64), 1);
	assert_int_equal(feed(&k, "\033[<35;9;9M", ev, 64), 0);
	termkeys_forget_pointer(&k);
	assert_int_equal(feed(&k, "\033[<35;9;9M", ev, 64), 1);
}

/* What the decoder keeps and drops: an incomplete sequence waits (and is
 * dropped as garbage once too long), a full queue drops what comes after,
 * events are taken oldest first, a hang-up is one EV_QUIT. */
static void test_pending_queue_hangup(void **st)
{
	(void)st;
	struct termkeys k;
	termkeys_init(&k);
	struct in_event ev[8];
	assert_int_equal(feed(&k, "\033[1;", ev, 8), 0);
	assert_int_equal(k.pend, 4);
	assert_false(termkeys_esc_pending(&k));
	/* a "sequence" of TERMKEYS_SEQ_MAX bytes with no end: garbage, gone */
	char junk[TERMKEYS_SEQ_MAX];
	memset(junk, '1', sizeof junk);
	assert_int_equal(feed_n(&k, junk, sizeof junk, ev, 8), 0);
	assert_int_equal(k.pend, 0);
	assert_int_equal(feed(&k, "x", ev, 8), 1);
	assert_int_equal(ev[0].key, 'x');
	/* a lone ESC is held until the caller decides */
	memcpy(k.in, "\033", 1);
	termkeys_feed(&k, 1);
	assert_true(termkeys_esc_pending(&k));
	assert_int_equal(termkeys_take(&k, ev, 8), 0);
	termkeys_flush_escape(&k);
	assert_false(termkeys_esc_pending(&k));
	assert_int_equal(termkeys_take(&k, ev, 8), 1);
	assert_int_equal(ev[0].key, KEY_ESCAPE);
	termkeys_flush_escape(&k); /* nothing pending: nothing queued */
	assert_int_equal(termkeys_take(&k, ev, 8), 0);
	/* a full queue drops the rest; taking gives the oldest first */
	memset(k.in, 'a', TERMKEYS_BUF); /* more keys than the queue holds */
	termkeys_feed(&k, TERMKEYS_BUF);
	assert_int_equal(k.qn, TERMKEYS_QUEUE);
	assert_int_equal(termkeys_take(&k, ev, 3), 3);
	assert_int_equal(ev[0].key, 'a');
	assert_int_equal(k.qn, TERMKEYS_QUEUE - 3);
	assert_int_equal(termkeys_take(&k, ev, 0), 0);
	while (termkeys_take(&k, ev, 8) > 0)
		;
	/* the terminal hangs up in the middle of a sequence */
	memcpy(k.in, "\033[", 2);
	termkeys_feed(&k, 2);
	termkeys_hangup(&k);
	assert_int_equal(k.pend, 0);
	assert_int_equal(termkeys_take(&k, ev, 8), 1);
	assert_int_equal(ev[0].type, EV_QUIT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_table),
		cmocka_unit_test(test_mouse),
		cmocka_unit_test(test_pending_queue_hangup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
