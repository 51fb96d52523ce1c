/* display: the contract every display backend (headless, term, drm, fbdev) fulfils. */
#ifndef PIROGUE_PLATFORM_DISPLAY_H
#define PIROGUE_PLATFORM_DISPLAY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "render/console.h"
#include "render/blit.h"
#include "render/font.h"
#include "platform/keys.h"

/* What the user asked for; backends ignore what does not apply to them. */
struct display_opts {
	const struct font *font; /* pixel backends draw with it (borrowed); NULL when fonts is set */
	/* When fonts is set (fonts->n >= 1): the automatic choice; pixel
	 * backends draw with the candidate blit_choose_cands picks for their
	 * surface (80×50 cells), decoding only that one (borrowed: the
	 * decoded fonts live in it), and say which in struct display. */
	struct font_cands *fonts;
	int scale;               /* 1..8; 0: the largest that fits 80×50 cells */
	int text_step;           /* with fonts: the automatic look's text one step larger (1), smaller (-1), or 0 */
	/* With fonts: the tile sheets (borrowed; NULL: none); pixel backends
	 * draw the map with the one of their map cells' size while tiles->on
	 * (blit_use_tilesets). */
	struct font_tilesets *tiles;
	int rotation;            /* 0, 90, 180, 270 */
	int width, height;       /* headless surface size in pixels */
	const char *card;        /* drm: device path or NULL for auto */
	const char *connector;   /* drm: connector name or NULL */
	int mode_w, mode_h, mode_hz; /* drm: mode wanted, 0 = preferred */
	const char *fb;          /* fbdev: device path or NULL */
	int vt;                  /* VT number, 0 = current */
	/* drm: the automatic choice has just probed the cards' connectors
	 * (drmcard_probe): the open reads what the kernel knows of them
	 * instead of probing them again (on a Pi, one EDID read, not three) */
	bool probed;
};

/* Every backend's own struct begins with this (struct drm_display { struct
 * display base; ... }), so the loop can hold any of them. */
struct display_ops;
struct display {
	const struct display_ops *ops;
	const struct font *font; /* the font a pixel backend draws with (NULL: o->font or none) */
	int map_cw;              /* text cells a map cell spans (docs/cells.md): 2 with a map sheet, else 1 (0: 1) */
	bool scrolls;            /* its present makes a console's whole vertical moves (console.h: scrolls) */
	struct blit_look look;   /* a pixel backend's surface, cells and margins (surf_w 0: none, the terminal) */
};

/* A backend. Every function pointer is set (no NULLs) unless noted. */
struct display_ops {
	const char *name;
	/* Opens the display. Returns 0 or a negative errno having logged one
	 * line naming the device and the fix. */
	int (*open)(struct display **out, const struct display_opts *o);
	/* Restores everything the backend changed and frees it; accepts NULL. */
	void (*close)(struct display *d);
	/* The console size, in cells, that this display shows. */
	void (*console_size)(struct display *d, int *cols, int *rows);
	/* Draws the damaged cells of c and presents them. The console's damage is
	 * cleared by the caller afterwards. Does not block on vblank: if a flip
	 * is still pending, the frame is drawn when it completes. */
	int (*present)(struct display *d, struct console *c);
	/* File descriptors the loop should poll for this display (flip events,
	 * hotplug, terminal input); returns how many were written (<= max). */
	int (*poll_fds)(struct display *d, int *fds, int max);
	/* Called when one of those fds is readable. May append input events
	 * (terminal keys, EV_RESIZE) to ev (room for max); returns how many. */
	int (*dispatch)(struct display *d, int fd, struct in_event *ev, int max);
	/* Writes the last presented frame as a PNG; NULL when unsupported. */
	int (*screenshot)(struct display *d, const char *path);
	/* The VT/session was released or acquired (drm: drop/take master). May be NULL. */
	void (*suspend)(struct display *d);
	void (*resume)(struct display *d);
	/* Switches the display itself off (off = true: DPMS off, the panel
	 * blanked) or back on, keeping the mode and the picture; a present
	 * while off is drawn but stays unseen until it is on again. Returns 0,
	 * or a negative errno (-ENOTSUP: this device cannot) after which the
	 * caller shows a black frame instead. May be NULL: the same as
	 * -ENOTSUP (terminal, headless). */
	int (*blank)(struct display *d, bool off);
	/* Makes the automatic look again with its text one step larger (step
	 * 1), smaller (-1) or as chosen (0) (blit_look_pick's step), for the
	 * frames from the next present on, drawn whole; the console size may
	 * change (ask console_size). Returns 0, or -ENOTSUP when this display
	 * makes no automatic choice (a --font given, the terminal); another
	 * negative errno (logged) leaves the look as it was. May be NULL: the
	 * same as -ENOTSUP. */
	int (*set_text_step)(struct display *d, int step);
	/* Draws the map with pictures (on: the tile sheet of its map cells'
	 * size, o->tiles) or with glyphs, from the next present on, drawn
	 * whole; sets o->tiles->on. Returns 0, or -ENOTSUP when this display
	 * keeps glyphs (the terminal, a --font, no tile sheets, or none of its
	 * map cells' size: then the map stays in glyphs). May be NULL: the
	 * same as -ENOTSUP. */
	int (*set_tiles)(struct display *d, bool on);
};

/* Every backend built in, NULL-terminated, in auto-selection order. */
extern const struct display_ops *const display_backends[];
/* Finds a backend by name; NULL when unknown or not built in. */
const struct display_ops *display_find(const char *name);

/* The automatic choice (DESIGN.md): drm if a card (o->card, else any) can
 * be mastered and has a connected display (o->connector when given), else
 * fbdev if a framebuffer (o->fb, else the first /dev/fbN that is not a DRM
 * driver's emulation) opens in a usable format, else term if stdin and
 * stdout are a terminal, else nothing: headless is never chosen, only asked
 * for. Writes the reason into why (len bytes), e.g. "drm: /dev/dri/card0
 * (vc4) has a connected connector HDMI-A-1" or "fbdev: /dev/fb1 (fb_ili9341)
 * opens, 320x240 RGB565; no DRM card could be mastered with a display: ...",
 * or when it returns NULL "none: nothing can show the game: <why not drm>;
 * <why not fbdev>; ...". o may be NULL. */
const struct display_ops *display_auto(const struct display_opts *o, char *why, size_t len);

/* A watch on what may change display_auto's answer: kernel uevents (a DRM
 * card or framebuffer added, a connector plugged in) and device nodes
 * created or changed under a /dev directory (udev giving a node its group).
 * Opened before the look that may find nothing, it keeps what happens
 * between that look and the wait. */
struct display_watch {
	int uevents, nodes; /* netlink, inotify; -1 when not open */
	char dri[80];	    /* DEV/dri, watched once it exists */
};

/* Opens w on directory dev ("/dev"; a test gives its own) and dev/dri.
 * Returns 0, or a negative errno when nothing can be watched. */
int display_watch_open(struct display_watch *w, const char *dev);

/* Blocks until w has seen something since it was opened or since the last
 * wait, or until timeout_ms passes (-1: no time limit); what was seen is
 * used up. No periodic wake-up; signals are not touched. Returns 0 after an
 * event, -ETIMEDOUT, or a negative errno. */
int display_watch_wait(struct display_watch *w, int timeout_ms);

/* Closes w (an unopened, zeroed-to--1 or closed one: nothing). */
void display_watch_close(struct display_watch *w);

/* For --list-displays: prints the DRM cards (driver, connectors, status,
 * modes with the preferred one marked), the framebuffers, and the line
 * "Automatic choice: <backend>: <why>" for options o (NULL: defaults).
 * Returns the number of devices found or a negative errno. */
int display_list(FILE *out, const struct display_opts *o);

#endif
