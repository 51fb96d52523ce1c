/* drmcard: finding a DRM card and an output on it (cards, DRM master and who holds it, connector, mode and CRTC choice), and what the automatic backend choice and --list-displays say about them. */
#ifndef PIROGUE_PLATFORM_DRMCARD_H
#define PIROGUE_PLATFORM_DRMCARD_H
#include "platform/display.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <xf86drmMode.h>

#define DRMCARD_MAX 16      /* cards looked at, at most */
#define DRMCARD_PATH_LEN 64 /* a card's node path, NUL included */

/* An output: which connector, on which CRTC, in which mode. */
struct drmcard_output {
	uint32_t conn_id, crtc_id;
	char name[32]; /* the connector's name, e.g. "HDMI-A-1" */
	drmModeModeInfo mode;
};

/* Opens a card for the display: card (a path, or a name under /dev/dri)
 * when given; else the first card with a connected display (to want_conn,
 * "HDMI-A-1", when not empty; probe: the connectors probed, else what the
 * kernel knows of them, as drmcard_choose), else the first that drives
 * outputs at all (to wait there for a display), else the first, to report
 * on. Writes the card's path into path (len bytes) and returns its fd, or
 * a negative errno after logging one line naming the card and what to do. */
int drmcard_find(const char *card, const char *want_conn, bool probe, char *path, size_t len);

/* Writes the name of fd's driver ("vc4", "unknown driver") into buf. */
void drmcard_driver(int fd, char *buf, size_t len);

/* 0 when fd is (or could become) DRM master, else the negative errno. */
int drmcard_master(int fd);

/* Logs the one line for "cannot become DRM master" on card path (err: the
 * positive errno), naming the processes that hold the card open when they
 * can be seen and what to do. */
void drmcard_log_master_failure(const char *path, int err);

/* A mode's refresh rate in Hz (its vrefresh, else from its clock and
 * totals; 0 when unknown). */
int drmcard_mode_hz(const drmModeModeInfo *m);

/* Finds the output on card fd (path: for messages) for the wishes:
 * connector want_conn (NULL or "": any), mode ww x wh @ whz (0: the
 * preferred mode; whz 0: any rate). probe: ask the kernel to re-probe
 * connectors (slow: EDID) rather than use what it knows. prefer: a
 * connector id to keep when it is still usable (0: none). strict: a wished
 * mode the display lacks is an error (at open) rather than a fall back to
 * the preferred mode (after a hotplug). Fills *ch and returns 0; -ENOENT
 * when nothing usable is connected, -EINVAL for a wish that cannot be met,
 * -ENODEV when no CRTC can drive it, or the errno of reading the card's
 * resources; logs one line when loud. */
int drmcard_choose(int fd, const char *path, const char *want_conn, int ww, int wh, int whz, bool probe,
		   uint32_t prefer, bool strict, bool loud, struct drmcard_output *ch);

/* Tells whether the DRM backend would run with options o without opening
 * it for real: a card (o->card, or any) that opens, can be mastered and has
 * a connected connector (o->connector when given). Returns 0 with why =
 * e.g. "/dev/dri/card0 (bochs-drm) has a connected connector Virtual-1", or
 * a negative errno with why = the reason none qualifies. Logs nothing. */
int drmcard_probe(const struct display_opts *o, char *why, size_t len);

/* Prints every DRM card (path, driver, whether it can be mastered or who
 * holds it), its connectors with status and modes (the preferred one marked
 * '*'). Returns the number of cards found (0 when none) or a negative errno. */
int drmcard_list(FILE *out);

#endif
