/* display: the list of display backends built in, lookup by name, and the automatic choice. */
#include "platform/display.h"
#include "platform/headless.h"
#include "platform/term.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Every backend is `extern const struct display_ops <name>_display_ops;` in
 * platform/<name>.h. The hardware ones are listed only when their source is
 * in the tree (and, for drm, built: WITH_DRM), so the list always links. */
#if defined(__has_include)
#if WITH_DRM && __has_include("platform/drm.h")
#include "platform/drm.h"
#define HAVE_DRM_BACKEND 1
#endif
#if __has_include("platform/fbdev.h")
#include "platform/fbdev.h"
#define HAVE_FBDEV_BACKEND 1
#endif
#endif

const struct display_ops *const display_backends[] = {
#ifdef HAVE_DRM_BACKEND
	&drm_display_ops,
#endif
#ifdef HAVE_FBDEV_BACKEND
	&fbdev_display_ops,
#endif
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
	char no_drm[240] = "drm not built in", no_fb[240] = "fbdev not built in";
#ifdef HAVE_DRM_BACKEND
	char r[200];
	if (drm_probe(o, r, sizeof r) == 0) {
		snprintf(why, len, "drm: %s", r);
		return &drm_display_ops;
	}
	snprintf(no_drm, sizeof no_drm, "no drm: %s", r);
#endif
#ifdef HAVE_FBDEV_BACKEND
	char path[64], rf[200];
	if (fbdev_probe(o, false, path, sizeof path, rf, sizeof rf) == 0) {
		snprintf(why, len, "fbdev %s: %s (%s)", path, rf, no_drm);
		return &fbdev_display_ops;
	}
	snprintf(no_fb, sizeof no_fb, "no fbdev: %s", rf);
#endif
	if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		snprintf(why, len, "term: stdin and stdout are a terminal (%s; %s)", no_drm, no_fb);
		return &term_display_ops;
	}
	snprintf(why, len, "headless: stdout is not a terminal (%s; %s)", no_drm, no_fb);
	return &headless_display_ops;
}
