/* Fuzz target: what a watcher reads from a game (watcher_feed: the
 * protocol's reader, every message's parser, the snapshot's game, the
 * commands played on the copy) in pieces whose sizes the input's first
 * byte sets, each piece followed by a frame drawn of whatever screen it
 * left (the game's screens given hostile values). A refusal is one line;
 * the reader never holds more than twice the bytes that came. */
#include "fuzzwatch.h"
#include "render/console.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	size_t piece = (size_t)data[0] * 7 + 1;
	data++;
	size--;
	struct fuzz_log l;
	fuzz_log_begin(&l);
	struct watcher w = { .fd = -1 };
	struct console *c, *s;
	struct ui_drawn *d = calloc(1, sizeof *d);
	if (!d || con_create(&c, 80, 24) || con_create(&s, 80, 24))
		abort();
	char why[512] = "";
	int rc = 0;
	for (size_t at = 0; at < size && !rc;) {
		size_t n = size - at < piece ? size - at : piece;
		rc = watcher_feed(&w, data + at, n, why, sizeof why);
		at += n;
		if (w.rd.cap > 2 * at + 256 || w.rd.cap > WATCH_MSG_MAX)
			abort(); /* held more than what came */
		if (watcher_draw(&w, d, c, s))
			abort();
	}
	fuzz_log_end(&l);
	fuzz_watch_verdict(rc, why, &w);
	watcher_close(&w);
	con_destroy(c);
	con_destroy(s);
	free(d);
	return 0;
}
