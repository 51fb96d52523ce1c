#include "app/backend.h"
#include "core/log.h"
#if WITH_DRM
#include "platform/drmcard.h"
#endif
#include <errno.h>
#include <string.h>

void backend_opts(const struct app_config *cfg, struct display_opts *o)
{
	*o = (struct display_opts){
		.scale = cfg->scale,
		.text_step = cfg->text_step,
		.rotation = cfg->rotation,
		.width = cfg->width,
		.height = cfg->height,
		.card = cfg->card,
		.connector = cfg->connector,
		.mode_w = cfg->mode_w,
		.mode_h = cfg->mode_h,
		.mode_hz = cfg->mode_hz,
		.fb = cfg->fb,
		.vt = cfg->vt,
	};
}

/* Nothing can show the game (why: display_auto's reason, "none: ..."): one
 * line and no backend, so the program exits non-zero. In kiosk mode the
 * game is the console: it says so once and waits for a display (a driver
 * loaded late, a screen plugged in) on watch w, opened before the first
 * look, so nothing that happened since is missed; a new reason on the way
 * (a card that appeared but cannot be opened), once things settled, is said
 * once too; then it goes on with the display that appeared. */
static const struct display_ops *no_display(const struct app_config *cfg, const struct display_opts *o,
					     struct display_watch *w, char *why, size_t len)
{
	const char *said = strncmp(why, "none: ", 6) ? why : why + 6;
	if (!cfg->kiosk) {
		log_error("%s (--list-displays shows what there is; --backend headless runs without a display)", said);
		return NULL;
	}
	if (w->uevents < 0 && w->nodes < 0) {
		log_error("kiosk: no display yet (%s), and nothing to watch for one to appear with", said);
		return NULL;
	}
	log_error("kiosk: no display yet (%s); waiting for one to appear", said);
	char last[1024];
	snprintf(last, sizeof last, "%s", why);
	bool settle = false;
	for (;;) {
		/* after an event, one more look a second later: udev may still
		 * be giving the new node its group */
		int rc = display_watch_wait(w, settle ? 1000 : -1);
		if (rc < 0 && rc != -ETIMEDOUT) {
			log_error("kiosk: cannot watch for displays to appear (%s)", strerror(-rc));
			return NULL;
		}
		const struct display_ops *ops = display_auto(o, why, len);
		if (ops) {
			log_error("kiosk: a display appeared: %s", why);
			return ops;
		}
		/* said only when things have settled (a second after the last
		 * event): not for the moment before udev gives a node its group */
		if (rc == -ETIMEDOUT && strcmp(why, last)) {
			snprintf(last, sizeof last, "%s", why);
			log_error("kiosk: still no display (%s); waiting", strncmp(why, "none: ", 6) ? why : why + 6);
		}
		settle = rc == 0;
	}
}

const struct display_ops *backend_choose(const struct app_config *cfg, struct display_opts *o)
{
	const char *name = cfg->replay ? "headless" : cfg->backend;
	if (name) {
		const struct display_ops *ops = display_find(name);
		if (!ops)
			log_error("display backend '%s' is not built into this pirogue (rebuild with it enabled)", name);
		return ops;
	}
	char why[1024];
	/* kiosk mode may wait for a display: watched from before the first look */
	struct display_watch w = { .uevents = -1, .nodes = -1 };
	if (cfg->kiosk)
		display_watch_open(&w, "/dev");
	const struct display_ops *ops = display_auto(o, why, sizeof why);
	if (!ops)
		ops = no_display(cfg, o, &w, why, sizeof why);
	else
		log_info("display: %s", why);
	display_watch_close(&w);
	/* display_auto chose drm by probing it (drmcard_probe: opened,
	 * mastered, a display connected): not probed again */
	o->probed = ops && !strcmp(ops->name, "drm");
	return ops;
}

int backend_check(const struct display_ops *ops, const struct display_opts *o)
{
#if WITH_DRM
	if (!strcmp(ops->name, "drm") && !o->probed) {
		/* A display held by another program (a second pirogue, X) is
		 * refused before the VT is touched: taking that VT and giving it
		 * back would change it, and the picture, under the program that
		 * owns it. */
		char why[512];
		int rc = drmcard_probe(o, why, sizeof why);
		if ((rc == -EBUSY || rc == -EACCES) && strstr(why, "held by")) {
			log_error("the display is taken: %s; stop that program, or run pirogue where it is not running "
				  "(--list-displays shows who holds which card)", why);
			return rc;
		}
		if (rc == -EACCES || rc == -EPERM) {
			/* the card refuses this user: a permission, not a holder */
			log_error("the display cannot be used: %s%s", why,
				  strstr(why, "cannot be mastered") ? " (run pirogue from a text console login, or as root)"
								    : "");
			return rc;
		}
	}
#else
	(void)ops;
	(void)o;
#endif
	return 0;
}

bool backend_is_bare(const struct display_ops *ops)
{
	return !strcmp(ops->name, "drm") || !strcmp(ops->name, "fbdev");
}
