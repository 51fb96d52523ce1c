/* kmsutil: the hardware-free parts of the pixel display backends (mode strings, connector names, mode choice, kernel uevents, per-buffer damage), unit-tested without a display. */
#ifndef PIROGUE_PLATFORM_KMSUTIL_H
#define PIROGUE_PLATFORM_KMSUTIL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "render/console.h"

/* Parses a mode string "WxH" or "WxH@Hz" (e.g. "1280x720", "1920x1080@60";
 * 'X' accepted for 'x'). Sets *hz to 0 when no rate is given. Returns 0, or
 * -EINVAL for anything else (sizes 1..16384, rates 1..1000). */
int kms_parse_mode(const char *s, int *w, int *h, int *hz);

/* Writes the connector name the kernel uses in sysfs and the one
 * --connector takes: "<type name>-<type id>", e.g. "HDMI-A-1", "Virtual-1". */
void kms_connector_name(char *buf, size_t len, const char *type_name, unsigned type_id);

/* True when the user's --connector value `want` names connector `name`:
 * case-insensitive, and a value without the trailing "-N" matches
 * connector 1 of that type ("HDMI-A" matches "HDMI-A-1"). */
bool kms_connector_match(const char *want, const char *name);

/* One mode a connector offers. */
struct kms_mode {
	int w, h, hz;
	bool preferred;
};

/* Chooses among n modes: with want_w/want_h 0, the preferred mode (else the
 * first listed, which is the kernel's best). Otherwise the modes of exactly
 * want_w×want_h, with want_hz (0 = any) matching the rounded refresh rate,
 * the preferred one among them first, else the highest rate. Returns the
 * index, or -ENOENT when none fits (or n is 0). */
int kms_choose_mode(const struct kms_mode *modes, int n, int want_w, int want_h, int want_hz);

/* What a kernel uevent (NETLINK_KOBJECT_UEVENT, group 1) says, as far as the
 * display backends care. */
struct kms_uevent {
	char action[16];    /* "change", "add", "remove" */
	char subsystem[16]; /* "drm", "graphics", ... */
	char devname[32];   /* "dri/card0" (may be empty) */
	bool hotplug;       /* HOTPLUG=1: a connector's status may have changed */
};

/* Parses one uevent message ("ACTION@DEVPATH\0KEY=VALUE\0..."), len bytes.
 * Returns 0, or -EINVAL when it is not a kernel uevent (for example a
 * libudev message, which starts with "libudev"). */
int kms_uevent_parse(const char *buf, size_t len, struct kms_uevent *ev);

/* True when the uevent asks a DRM backend on card `card_path`
 * ("/dev/dri/card0") to re-probe its connectors: a drm "change" event for
 * that card (or for no card in particular). */
bool kms_uevent_is_drm_hotplug(const struct kms_uevent *ev, const char *card_path);

/* Damage bookkeeping for a display with two buffers. map[i] marks the cells
 * that changed since buffer i was last drawn; each frame's console damage is
 * added to both, and drawing buffer i clears map[i]. Drawing only map[i]'s
 * cells into a buffer that showed an older frame yields the current frame:
 * with strict alternation this is exactly "the union of the last two frames'
 * damage", and it stays right when frames are skipped or a buffer must be
 * redrawn whole (after a mode change or a VT switch). */
struct kms_stale {
	int w, h;
	uint8_t *map[2];
	struct con_span *rows[2]; /* rows[i][y] spans the stale cells of row y of map[i] */
};

/* Sizes the maps for a w×h console and marks everything stale in both.
 * Returns 0, -EINVAL or -ENOMEM (then s is unchanged). */
int kms_stale_resize(struct kms_stale *s, int w, int h);
/* Adds a console damage map (w×h bytes, nonzero = changed) to both maps;
 * rows (h spans of where each row's damage lies, as struct console keeps
 * them) lets the rest go unread, NULL reads every row whole. Map bytes are
 * "nonzero = stale" (not necessarily 1). */
void kms_stale_add(struct kms_stale *s, const uint8_t *damage, const struct con_span *rows);
/* Marks every cell of buffer i (0 or 1; -1 for both) stale. */
void kms_stale_all(struct kms_stale *s, int i);
/* True when buffer i has a stale cell. */
bool kms_stale_any(const struct kms_stale *s, int i);
/* Forgets buffer i's stale cells (after drawing them). */
void kms_stale_clear(struct kms_stale *s, int i);
/* Frees the maps; the struct may be reused. Accepts NULL. */
void kms_stale_free(struct kms_stale *s);

struct blitter;
struct surface;
/* Draws the cells of c stale in buffer i into surf (the buffer's pixels)
 * with b, and forgets them: what a two-buffer display does before it shows
 * buffer i. Returns whether any cell was stale (false: nothing drawn). */
bool kms_stale_draw(struct kms_stale *s, int i, struct blitter *b, const struct console *c, struct surface *surf);

#endif
