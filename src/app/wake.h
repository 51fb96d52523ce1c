/* wake: the one-shot timer that wakes the loop at its next deadline (a timerfd on the monotonic clock), and the clock every deadline is told in: the monotonic clock, or a test's clock running ahead of it by what a file says; disarmed, it never wakes. */
#ifndef PIROGUE_APP_WAKE_H
#define PIROGUE_APP_WAKE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The timer: fd (to poll) is -1 until wake_open made it; clock_fd (to
 * poll as well) is -1 unless wake_clock_open gave it a test's clock. Start
 * it as WAKE_INIT. */
struct wake {
	int fd;
	int clock_fd;          /* inotify on clock_path: the test moved its clock */
	const char *clock_path; /* borrowed: lives as long as the timer */
	int64_t ahead_ms;      /* the clock: the monotonic clock plus this */
	int64_t at_ms;         /* the deadline armed (this clock), -1: none */
};
#define WAKE_INIT { .fd = -1, .clock_fd = -1, .at_ms = -1 }

/* w's clock in milliseconds (the time every deadline is told in): the
 * monotonic clock, ahead by what a test's clock file says (w NULL: the
 * monotonic clock). It never goes back. */
int64_t wake_now_ms(const struct wake *w);

/* Makes the timer (non-blocking, close-on-exec) unless it is made already.
 * Returns 0, or a negative errno having logged nothing (the caller says
 * what goes without it). */
int wake_open(struct wake *w);

/* For tests (PIROGUE_IDLE_CLOCK): from now on w's clock runs the
 * milliseconds the file path holds (a decimal number, 0 or more) ahead of
 * the monotonic clock, and each rewrite of the file (echo N >path, in
 * place) moves it there once clock_fd is readable and wake_clock_moved has
 * read it; so a test makes the idle timers' deadlines come when it says,
 * not when a loaded machine gets there. Returns 0, or a negative errno with
 * the one line why in why (len bytes): the file cannot be read or holds no
 * such number, or cannot be watched. */
int wake_clock_open(struct wake *w, const char *path, char *why, size_t len);

/* After poll said clock_fd is readable: the file read again. A number at
 * least the one in force moves the clock there and the armed deadline
 * comes at once if it has passed; anything else (a smaller number, no
 * number) is said in the log and leaves the clock as it was. Returns true
 * when the clock moved. */
bool wake_clock_moved(struct wake *w);

/* Arms the timer to fire once at at_ms (wake_now_ms time; at once when
 * that has passed), or disarms it when at_ms < 0. Does nothing while the
 * timer is not made. */
void wake_at(struct wake *w, int64_t at_ms);

/* After poll said the fd is readable: consumes the expiry. Returns false
 * when there was none to read (a stale wake-up), else true. */
bool wake_fired(struct wake *w);

/* Closes the timer and the test's clock watch; it may be opened again
 * (the clock stays where it was). NULL or an unopened timer is fine. */
void wake_close(struct wake *w);

#endif
