/* Fuzz target: what a terminal sends (termkeys: UTF-8, key sequences, SGR
 * and X10 mouse reports), read in pieces of the sizes the input's first
 * byte picks, with the lone-ESC decision and small takes as the backend
 * makes them. Checks: pending bytes stay under TERMKEYS_SEQ_MAX, the queue
 * within TERMKEYS_QUEUE, every event is a key (not KEY_NONE) from the
 * keyboard or a mouse event on a cell, and one EV_QUIT comes at hang-up. */
#include "fuzz.h"
#include "platform/termkeys.h"

static void check(const struct in_event *ev, int n)
{
	for (int i = 0; i < n; i++) {
		if (ev[i].type == EV_KEY_PRESS) {
			if (ev[i].key == KEY_NONE || ev[i].from != DEV_KEYBOARD)
				abort();
		} else if (ev[i].type == EV_MOUSE_MOVE || ev[i].type == EV_MOUSE_CLICK) {
			if (ev[i].from != DEV_MOUSE || ev[i].x < 0 || ev[i].y < 0)
				abort();
			if (ev[i].type == EV_MOUSE_CLICK && (ev[i].button < 1 || ev[i].button > 3))
				abort();
		} else {
			abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct termkeys k;
	struct in_event ev[8];
	termkeys_init(&k);
	size_t piece = size ? (size_t)data[0] % 17 + 1 : 1, off = size ? 1 : 0;
	while (off < size) {
		size_t n = size - off < piece ? size - off : piece;
		if (n > TERMKEYS_BUF - k.pend)
			n = TERMKEYS_BUF - k.pend;
		memcpy(k.in + k.pend, data + off, n);
		off += n;
		termkeys_feed(&k, n);
		if (k.pend >= TERMKEYS_SEQ_MAX || k.qn < 0 || k.qn > TERMKEYS_QUEUE)
			abort();
		if ((off & 3) == 0)
			termkeys_flush_escape(&k);
		int got = termkeys_take(&k, ev, 1 + (int)(off % 8));
		check(ev, got);
	}
	termkeys_flush_escape(&k);
	int got;
	while ((got = termkeys_take(&k, ev, 8)) > 0)
		check(ev, got);
	termkeys_hangup(&k);
	if (termkeys_take(&k, ev, 8) != 1 || ev[0].type != EV_QUIT || k.pend)
		abort();
	return 0;
}
