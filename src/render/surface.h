/* surface: a block of pixels the blitter draws into (display buffers, headless memory). */
#ifndef PIROGUE_RENDER_SURFACE_H
#define PIROGUE_RENDER_SURFACE_H
#include <stdint.h>

enum surf_format {
	SURF_XRGB8888, /* 32 bits: 0x00RRGGBB per pixel, native endian */
	SURF_RGB565,   /* 16 bits: RRRRRGGGGGGBBBBB per pixel, native endian */
};

/* width/height are the surface's own pixel size (as scanned out); stride is
 * bytes per row (>= width * bytes per pixel). rotation (0, 90, 180, 270,
 * clockwise) says how the console is turned on it: at 90 or 270 the console
 * is height pixels wide and width pixels tall. */
struct surface {
	void *pixels;
	int width, height;
	int stride;
	enum surf_format format;
	int rotation;
};

/* Bytes per pixel of a format (4 or 2). */
static inline int surf_bpp(enum surf_format f) { return f == SURF_RGB565 ? 2 : 4; }

#endif
