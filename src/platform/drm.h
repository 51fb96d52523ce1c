/* drm: the DRM/KMS display backend (dumb buffers, page flips, hotplug, DPMS, CRTC restore); finding the card and output is drmcard's. */
#ifndef PIROGUE_PLATFORM_DRM_H
#define PIROGUE_PLATFORM_DRM_H
#include "platform/display.h"

/* The backend ("drm"). Uses o->card ("/dev/dri/card1" or "card1"; NULL:
 * the first card with a connected connector), o->connector ("HDMI-A-1";
 * NULL: the first connected), o->mode_w/h/hz (0: the preferred mode),
 * o->font, o->scale, o->rotation.
 * - Two dumb buffers (XRGB8888, or RGB565 when the device prefers depth 16),
 *   page flips with flip events, at most one in flight: present() while a
 *   flip is pending only records the frame, which is drawn when dispatch()
 *   sees the flip complete. Each buffer gets the cells that changed since it
 *   was last drawn (the union of the last two frames' damage); the scanout
 *   buffer is never read. Drivers that cannot flip get front-buffer drawing
 *   plus DirtyFB.
 * - The console passed to present() must stay valid until the next
 *   present() or close(): a deferred frame, a redraw after resume or after a
 *   display is plugged back in draw from it.
 * - Nothing connected at open: it opens anyway and waits (console 80×50
 *   cells until a display appears), having logged one line.
 * - Hotplug: kernel uevents (a netlink socket in poll_fds) make it re-probe
 *   the connectors: unplugged, it waits (frames are kept, not drawn);
 *   plugged (again), it sets the mode and redraws everything; dispatch()
 *   returns EV_RESIZE when the console size changed.
 * - suspend() drops DRM master; resume() takes it back, sets the mode again
 *   and redraws everything.
 * - close() (and drm_emergency_restore) put back the CRTC found at open. */
extern const struct display_ops drm_display_ops;

/* Puts back the CRTC(s) the open drm display found, with nothing but
 * ioctl(): for crash signal handlers. Does nothing when none is open. */
void drm_emergency_restore(void);

#endif
