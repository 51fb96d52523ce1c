/* fuzzwatch: what the watcher targets (fuzz_watch_reader, fuzz_watch_ring) check alike when an input has been fed: the watcher refused it only as watcher_feed promises, and said so in one line. */
#ifndef PIROGUE_TESTS_FUZZWATCH_H
#define PIROGUE_TESTS_FUZZWATCH_H
#include "fuzz.h"
#include "app/watcher.h"
#include <errno.h>

/* Aborts unless rc is 0, or a refusal watcher_feed promises (-EPROTO or
 * -ENOMEM) with why one printable line; and unless the watcher's own line
 * (whom it watches, a mismatch) is one printable line. */
static inline void fuzz_watch_verdict(int rc, const char *why, const struct watcher *w)
{
	if (rc) {
		if (rc != -EPROTO && rc != -ENOMEM)
			abort();
		if (!why[0])
			abort();
		fuzz_check_line(why);
	}
	fuzz_check_line(w->line);
}

#endif
