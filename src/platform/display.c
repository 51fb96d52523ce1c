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
	char no_drm[480] = "drm not built in", no_fb[480] = "fbdev not built in";
#ifdef HAVE_DRM_BACKEND
	char r[400]; /* a reason with its advice (devnode_advice) */
	if (drmcard_probe(o, r, sizeof r) == 0) {
		snprintf(why, len, "drm: %s", r);
		return &drm_display_ops;
	}
	snprintf(no_drm, sizeof no_drm, "no DRM card could be mastered with a display: %s", r);
#endif
	char path[64], rf[400]; /* the same, for a framebuffer */
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

int display_watch_open(struct display_watch *w, const char *dev)
{
	w->uevents = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
	if (w->uevents >= 0) {
		struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
		if (bind(w->uevents, (struct sockaddr *)&sa, sizeof sa) < 0) {
			close(w->uevents);
			w->uevents = -1;
		}
	}
	int err = errno;
	snprintf(w->dri, sizeof w->dri, "%s/dri", dev);
	w->nodes = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (w->nodes >= 0) {
		int wd = inotify_add_watch(w->nodes, dev, IN_CREATE | IN_ATTRIB | IN_MOVED_TO);
		/* dev/dri may not exist yet: its creation shows on dev, and each
		 * wait adds it once it does */
		int wdri = inotify_add_watch(w->nodes, w->dri, IN_CREATE | IN_ATTRIB | IN_MOVED_TO);
		if (wd < 0 && wdri < 0) {
			err = errno;
			close(w->nodes);
			w->nodes = -1;
		}
	} else {
		err = errno;
	}
	if (w->uevents < 0 && w->nodes < 0)
		return -err;
	return 0;
}

/* Reads everything queued on fd (non-blocking). */
static void drain(int fd)
{
	char buf[4096];
	if (fd < 0)
		return;
	for (;;) {
		ssize_t r = read(fd, buf, sizeof buf);
		if (r > 0 || (r < 0 && errno == EINTR))
			continue;
		return; /* EAGAIN: all read (or an error the next poll shows) */
	}
}

int display_watch_wait(struct display_watch *w, int timeout_ms)
{
	if (w->uevents < 0 && w->nodes < 0)
		return -EBADF;
	if (w->nodes >= 0)
		inotify_add_watch(w->nodes, w->dri, IN_CREATE | IN_ATTRIB | IN_MOVED_TO);
	struct pollfd p[2] = { { .fd = w->uevents, .events = POLLIN }, { .fd = w->nodes, .events = POLLIN } };
	int n;
	do
		n = poll(p, 2, timeout_ms);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ETIMEDOUT;
	drain(w->uevents);
	drain(w->nodes);
	/* the event may have been dev/dri's creation: its nodes are watched
	 * from before the caller's next look */
	if (w->nodes >= 0)
		inotify_add_watch(w->nodes, w->dri, IN_CREATE | IN_ATTRIB | IN_MOVED_TO);
	return 0;
}

void display_watch_close(struct display_watch *w)
{
	if (w->uevents >= 0)
		close(w->uevents);
	if (w->nodes >= 0)
		close(w->nodes);
	w->uevents = w->nodes = -1;
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
	char why[1024];
	display_auto(o, why, sizeof why);
	fprintf(out, "Automatic choice: %s\n", why);
	return rc;
}
