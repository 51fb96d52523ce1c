/* display: the list of display backends built in, lookup by name, and the automatic choice. */
#include "platform/display.h"
#include "platform/headless.h"
#include "platform/term.h"
#include <errno.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <unistd.h>

/* Every backend is `extern const struct display_ops <name>_display_ops;` in
 * platform/<name>.h. drm needs libdrm and is built only with WITH_DRM=1;
 * fbdev needs nothing but the kernel headers and is always there. */
#include "platform/fbdev.h"
#if WITH_DRM
#include "platform/drm.h"
#include "platform/drmcard.h"
#define HAVE_DRM_BACKEND 1
#endif

const struct display_ops *const display_backends[] = {
#ifdef HAVE_DRM_BACKEND
	&drm_display_ops,
#endif
	&fbdev_display_ops,
	&term_display_ops,
	&headless_display_ops,
	NULL,
};

const struct display_ops *display_find(const char *name)
{
	for (int i = 0; display_backends[i]; i++)
		if (!strcmp(display_backends[i]->name, name))
			return display_backends[i];
	return NULL;
}

const struct display_ops *display_auto(const struct display_opts *o, char *why, size_t len)
{
	static const struct display_opts none = { 0 };
	if (!o)
		o = &none;
	char no_drm[280] = "drm not built in", no_fb[280] = "fbdev not built in";
#ifdef HAVE_DRM_BACKEND
	char r[200];
	if (drmcard_probe(o, r, sizeof r) == 0) {
		snprintf(why, len, "drm: %s", r);
		return &drm_display_ops;
	}
	snprintf(no_drm, sizeof no_drm, "no DRM card could be mastered with a display: %s", r);
#endif
	char path[64], rf[200];
	/* A DRM driver's fbdev emulation ("...drmfb") shows nothing the drm
	 * backend could not: when drm is unusable (held by X, nothing
	 * connected) so is it. Without the drm backend it is the way to draw. */
#ifdef HAVE_DRM_BACKEND
	bool skip_emulation = !o->fb;
#else
	bool skip_emulation = false;
#endif
	if (fbdev_probe(o, skip_emulation, path, sizeof path, rf, sizeof rf) == 0) {
		snprintf(why, len, "fbdev: %s; %s", rf, no_drm);
		return &fbdev_display_ops;
	}
	snprintf(no_fb, sizeof no_fb, "no usable framebuffer: %s", rf);
	if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		snprintf(why, len, "term: stdin and stdout are a terminal; %s; %s", no_drm, no_fb);
		return &term_display_ops;
	}
	/* headless shows nothing to anyone: only when asked for (--backend) */
	snprintf(why, len, "none: nothing can show the game: %s; %s; and stdin or stdout is not a terminal", no_drm,
		 no_fb);
	return NULL;
}

int display_wait_change(int timeout_ms)
{
	struct pollfd p[2] = { { .fd = -1, .events = POLLIN }, { .fd = -1, .events = POLLIN } };
	p[0].fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (p[0].fd >= 0) {
		struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
		if (bind(p[0].fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
			close(p[0].fd);
			p[0].fd = -1;
		}
	}
	p[1].fd = inotify_init1(IN_CLOEXEC);
	if (p[1].fd >= 0) {
		int w = inotify_add_watch(p[1].fd, "/dev", IN_CREATE | IN_ATTRIB | IN_MOVED_TO);
		/* /dev/dri may not exist yet: its creation shows on /dev */
		int wd = inotify_add_watch(p[1].fd, "/dev/dri", IN_CREATE | IN_ATTRIB | IN_MOVED_TO);
		if (w < 0 && wd < 0) {
			close(p[1].fd);
			p[1].fd = -1;
		}
	}
	int rc;
	if (p[0].fd < 0 && p[1].fd < 0) {
		rc = -errno;
		goto out;
	}
	int n;
	do
		n = poll(p, 2, timeout_ms);
	while (n < 0 && errno == EINTR);
	rc = n < 0 ? -errno : n == 0 ? -ETIMEDOUT : 0;
out:
	for (int i = 0; i < 2; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
	return rc;
}

int display_list(FILE *out, const struct display_opts *o)
{
	int rc = 0;
#ifdef HAVE_DRM_BACKEND
	rc = drmcard_list(out);
#else
	fprintf(out, "DRM: not built in (built with WITH_DRM=0)\n");
#endif
	int rf = fbdev_list_displays(out);
	if (rc >= 0 && rf < 0)
		rc = rf;
	else if (rc >= 0)
		rc += rf;
	char why[768];
	display_auto(o, why, sizeof why);
	fprintf(out, "Automatic choice: %s\n", why);
	return rc;
}
