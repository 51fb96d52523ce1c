/* termkeys: the bytes a terminal sends (UTF-8 text, xterm/VT220/rxvt/Linux console key sequences, SGR and X10 mouse reports) decoded into in_events; no I/O. */
#ifndef PIROGUE_PLATFORM_TERMKEYS_H
#define PIROGUE_PLATFORM_TERMKEYS_H
#include "platform/keys.h"
#include <stdbool.h>
#include <stddef.h>

#define TERMKEYS_BUF 512     /* bytes held at once, an incomplete sequence's included */
#define TERMKEYS_SEQ_MAX 64  /* an incomplete sequence longer than this is garbage */
#define TERMKEYS_QUEUE 256   /* decoded events waiting to be taken */

/* A decoder: plain data, set up by termkeys_init. The caller reads bytes
 * into in + pend (at most TERMKEYS_BUF - pend) and hands them to
 * termkeys_feed. */
struct termkeys {
	unsigned char in[TERMKEYS_BUF]; /* an incomplete sequence stays at the front */
	size_t pend;                    /* its length */
	struct in_event q[TERMKEYS_QUEUE];
	int qn;
	int mx, my;                     /* the pointer's last reported cell, -1 none */
};

/* Sets k up empty: nothing pending, nothing queued, no pointer cell. */
void termkeys_init(struct termkeys *k);

/* Forgets the pointer's last cell (the terminal was taken again): the next
 * motion report is passed on whatever cell it names. */
void termkeys_forget_pointer(struct termkeys *k);

/* Decodes the n bytes the caller put at k->in + k->pend after the pending
 * ones: keys (EV_KEY_PRESS, DEV_KEYBOARD: text as code points, Enter, Tab,
 * Backspace, arrows, Home/End/PgUp/PgDn, Insert/Delete, F1-F12, the keypad
 * in application mode; an ESC before another ESC is the Escape key) and mouse reports
 * (EV_MOUSE_MOVE when the pointer enters another cell, EV_MOUSE_CLICK for
 * buttons 1-3; 0-based cells) are queued; sequences pirogue has no use for
 * (modifiers beyond the key, Alt+key, paste brackets, terminal replies,
 * control characters) and bytes that are not UTF-8 vanish whole. An
 * incomplete sequence stays pending (one of TERMKEYS_SEQ_MAX bytes or more
 * is dropped as garbage). With the queue full, further events are dropped. */
void termkeys_feed(struct termkeys *k, size_t n);

/* Whether the only pending byte is ESC: the Escape key, or the start of a
 * sequence whose rest has not come yet (the caller decides by waiting or
 * not; see termkeys_flush_escape). */
bool termkeys_esc_pending(const struct termkeys *k);

/* When the only pending byte is ESC, queues the Escape key and drops it;
 * else does nothing. */
void termkeys_flush_escape(struct termkeys *k);

/* The terminal hung up: drops what is pending and queues one EV_QUIT. */
void termkeys_hangup(struct termkeys *k);

/* Moves up to max queued events, oldest first, into ev and returns how many
 * (0 when none or max <= 0). */
int termkeys_take(struct termkeys *k, struct in_event *ev, int max);

#endif
