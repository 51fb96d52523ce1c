/* blank: the screen blanked and woken — the display switched off through its backend (DPMS, FBIOBLANK), else a black frame — and whether frames may be presented meanwhile. */
#ifndef PIROGUE_APP_BLANK_H
#define PIROGUE_APP_BLANK_H
#include <stdbool.h>
#include "platform/display.h"
#include "render/console.h"

/* Zero is awake. */
struct blank {
	bool on;   /* blanked: the display is off, or shows a black frame */
	bool dark; /* ... switched off by the backend: nothing may be presented */
};

/* Blanks the display of ops/d: its backend switches it off when it can
 * (then dark), else the caller draws black frames until blank_off. Logs
 * one line saying which. */
void blank_on(struct blank *b, const struct display_ops *ops, struct display *d);

/* Wakes the display: switched back on if it was off, and every cell of con
 * (what is on screen) marked changed so the next frame redraws it all. */
void blank_off(struct blank *b, const struct display_ops *ops, struct display *d, struct console *con);

#endif
