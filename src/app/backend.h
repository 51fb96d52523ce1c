/* backend: which display backend runs the game — the one asked for, else the automatic choice and why; when nothing can show the game, one line (in kiosk mode, a wait for a display); a DRM card held by another program or closed to this user said before the VT is touched. */
#ifndef PIROGUE_APP_BACKEND_H
#define PIROGUE_APP_BACKEND_H
#include "app/app.h"
#include "platform/display.h"

/* The display options cfg asks for (no font yet) into o. */
void backend_opts(const struct app_config *cfg, struct display_opts *o);

/* The backend for cfg with options o: --backend (headless for --replay),
 * else display_auto's choice (its reason logged at --verbose; drm chosen
 * so has had its card probed: o->probed is set, which backend_check and
 * the open take for done). NULL after
 * one line when the named backend is not built in, or when nothing can
 * show the game (never a silent headless run); in kiosk mode, nothing is
 * one line and a wait that uses no CPU (woken by the kernel and udev) until
 * a display appears, which is then chosen (NULL only when displays cannot
 * be watched). */
const struct display_ops *backend_choose(const struct app_config *cfg, struct display_opts *o);

/* Before the VT is touched: refuses a DRM card that another program holds
 * (a second pirogue, X) or that this user may not open. Returns 0 (also for
 * any other backend, and at once when o->probed: the automatic choice's
 * probe found the card usable a moment ago), or the negative errno after
 * one line saying who holds it or what to do. */
int backend_check(const struct display_ops *ops, const struct display_opts *o);

/* True for the backends that own the machine's console (drm, fbdev): they
 * need the VT and the evdev input devices. */
bool backend_is_bare(const struct display_ops *ops);

#endif
