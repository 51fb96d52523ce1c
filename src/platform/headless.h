/* headless: the display backend that draws into a surface in memory (tests, screenshots, no hardware). */
#ifndef PIROGUE_PLATFORM_HEADLESS_H
#define PIROGUE_PLATFORM_HEADLESS_H
#include "platform/display.h"
#include "render/surface.h"

/* Default surface size when o->width/height are 0: 640×400, which holds
 * an 80×50 console with an 8×8 font (80×25 with 8×16) at scale 1. */
#define HEADLESS_DEFAULT_W 640
#define HEADLESS_DEFAULT_H 400
/* Largest surface side accepted (pixels). */
#define HEADLESS_MAX_SIDE 16384

/* The backend ("headless"). open() needs o->font, o->scale 1..8 (0: the
 * largest that still shows 80×50 cells, else 1) and o->rotation
 * 0/90/180/270; o->width × o->height is the surface's own
 * (scan-out) size, before rotation, so at 90/270 the console is
 * o->height pixels wide. The surface is XRGB8888, black at open.
 * - console_size: the cells that fit (blit_console_size).
 * - present: draws the console's damaged cells (one buffer, so the current
 *   damage is all it needs); a console of another size than the last one
 *   presented clears the surface first and redraws every cell.
 * - screenshot: writes the last presented frame (black before any) as an
 *   RGB PNG; on failure logs one line naming the file and the reason, and
 *   returns a negative errno.
 * - poll_fds and dispatch: none (0); suspend/resume: NULL. */
extern const struct display_ops headless_display_ops;

/* The surface a headless display draws into (read-only; for tests).
 * d must have been opened by headless_display_ops. */
const struct surface *headless_surface(struct display *d);

#endif
