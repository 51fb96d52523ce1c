/* wake: the one-shot timer that wakes the loop at its next deadline (a timerfd on the monotonic clock), and that clock; disarmed, it never wakes. */
#ifndef PIROGUE_APP_WAKE_H
#define PIROGUE_APP_WAKE_H
#include <stdbool.h>
#include <stdint.h>

/* The timer: fd (to poll) is -1 until wake_open made it. Start it as
 * WAKE_INIT. */
struct wake {
	int fd;
};
#define WAKE_INIT { .fd = -1 }

/* The monotonic clock in milliseconds (the time every deadline is told in). */
int64_t wake_now_ms(void);

/* Makes the timer (non-blocking, close-on-exec) unless it is made already.
 * Returns 0, or a negative errno having logged nothing (the caller says
 * what goes without it). */
int wake_open(struct wake *w);

/* Arms the timer to fire once at at_ms (wake_now_ms time), or disarms it
 * when at_ms < 0. Does nothing while the timer is not made. */
void wake_at(struct wake *w, int64_t at_ms);

/* After poll said the fd is readable: consumes the expiry. Returns false
 * when there was none to read (a stale wake-up), else true. */
bool wake_fired(struct wake *w);

/* Closes the timer; it may be opened again. NULL or an unopened timer is
 * fine. */
void wake_close(struct wake *w);

#endif
