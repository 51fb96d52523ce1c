/* photons: input-to-photons timing of the pixel backends — from an input event's kernel timestamp to the page flip that shows its effect being queued and completed, logged with --verbose. */
#ifndef PIROGUE_PLATFORM_PHOTONS_H
#define PIROGUE_PLATFORM_PHOTONS_H
#include <stdbool.h>
#include <stdint.h>

/* One display's timings, in microseconds of CLOCK_MONOTONIC (evdev's
 * timestamps with EVIOCSCLOCKID CLOCK_MONOTONIC, drm's flip events, and
 * clock_gettime). Zero it before use. */
struct photons {
	bool waiting;          /* an input not yet in a queued flip */
	int64_t in_kernel_us;  /* the first such input: its kernel timestamp */
	int64_t in_read_us;    /* and when it was read */
	bool pending;          /* a flip queued for it, not completed yet */
	int64_t q_kernel_us, q_read_us, queued_us;
	long frames;           /* flips timed so far */
};

/* An input event with kernel timestamp kernel_us was read at read_us. Only
 * the first input since the last queued flip counts (it waited longest).
 * p NULL: the process's own (photons_self). */
void photons_input(struct photons *p, int64_t kernel_us, int64_t read_us);
/* A page flip was queued at now_us: the input waiting, if any, is in it. */
void photons_flip_queued(struct photons *p, int64_t now_us);
/* The queued flip completed at done_us (the flip event's timestamp): when an
 * input was in it, logs (log_info, so with --verbose) one line
 * "photons: frame N: input to read A ms, read to flip queued B ms (the
 * game's share), queued to flip done C ms, input to photons D ms". */
void photons_flip_done(struct photons *p, int64_t done_us);
/* The process's own timings, which evdev feeds and drm flips. */
struct photons *photons_self(void);
/* CLOCK_MONOTONIC now, in microseconds. */
int64_t photons_now_us(void);

#endif
