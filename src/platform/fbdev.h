/* fbdev: the Linux framebuffer display backend (/dev/fbN: SPI panels, old kernels) and its part of --list-displays. */
#ifndef PIROGUE_PLATFORM_FBDEV_H
#define PIROGUE_PLATFORM_FBDEV_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "platform/display.h"
#include "render/surface.h"

struct fb_var_screeninfo;

/* The backend ("fbdev"). Uses o->fb (default /dev/fb0), o->font, o->scale,
 * o->rotation. Only RGB565 and XRGB8888 framebuffers are taken; others are
 * refused with one line. It draws straight into the mmap'd framebuffer,
 * only the damaged cells, and never reads it: fbdev has no page flip to
 * wait for, so a private back buffer would only add a copy (and on a SPI
 * panel's deferred-io framebuffer, writing only what changed is what keeps
 * the panel's transfers small). No poll fds; suspend() stops drawing and
 * resume() redraws everything. */
extern const struct display_ops fbdev_display_ops;

/* The surface format of a framebuffer mode: 0 and *fmt set for RGB565 or
 * XRGB8888 (in the CPU's byte order), else -ENOTSUP. */
int fbdev_format(const struct fb_var_screeninfo *v, enum surf_format *fmt);

/* Prints every /dev/fbN: driver id, size, depth and whether the backend can
 * use it. Returns how many were found, or a negative errno. */
int fbdev_list_displays(FILE *out);

/* Tells whether the fbdev backend would run with options o: o->fb (or the
 * first /dev/fbN) opens and has a usable format. skip_drm_emulation: pass
 * over framebuffers that are a DRM driver's emulation ("...drmfb"), used
 * when DRM itself is usable. Writes the device path chosen into path
 * (pathlen bytes) and why into why (a node open(2) refused: with
 * devnode_advice's words, the same as the backend's open says; 400 bytes
 * hold any). Returns 0 or a negative errno. Logs nothing. */
int fbdev_probe(const struct display_opts *o, bool skip_drm_emulation, char *path, size_t pathlen, char *why,
		size_t len);

#endif
