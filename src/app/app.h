/* app: the program's loop — backends chosen and opened, poll(), input to commands, frames. */
#ifndef PIROGUE_APP_APP_H
#define PIROGUE_APP_APP_H
#include <stdbool.h>
#include <stdint.h>
#include "render/font.h"
#include "ui/bind.h"

/* Everything the command line (and later the config file) decides. Strings
 * are borrowed from argv. Zero/NULL means "default". */
struct app_config {
	const char *backend;      /* headless, term, drm, fbdev or NULL = auto */
	const char *font;         /* font file or NULL = shipped default */
	const char *font_from;    /* where font was set: "FILE:LINE" of a settings file, NULL = --font */
	enum font_layout font_layout; /* how a PNG tileset is laid out (auto by default) */
	int scale;                /* 1..8, 0 = largest that fits 80×50 cells */
	int text_step;            /* text-size: 0 the automatic choice, 1 one step larger, -1 smaller */
	const char *tiles;        /* tiles: "on", "off" (NULL: off) or a tile sheet file */
	const char *tiles_from;   /* where tiles was set: "FILE:LINE" of a settings file, NULL = --tiles */
	int rotation;             /* 0, 90, 180, 270 */
	int width, height;        /* headless surface size, 0 = default */
	const char *screenshot;   /* PNG written from the frame after the last input */
	const char *keys;         /* --keys file */
	bool has_seed;
	uint64_t seed;
	const char *mapgen;       /* classic, overlap */
	int map_w, map_h;         /* floor size of new games, 0 = 80x43 (map_size_ok) */
	const char *record;       /* --record FILE */
	const char *replay;       /* --replay FILE */
	const char *view;         /* --view FILE: watch the recording */
	const char *state_dir;    /* --state-dir DIR or NULL = save_state_dir's default */
	const char *card, *connector, *fb, *gamepad_db;
	int mode_w, mode_h, mode_hz;
	int vt;
	bool verbose;
	const struct bindings *bindings; /* keys and buttons, NULL = the defaults */
	bool kiosk;               /* the machine's console: wait for a display, no VT
	                           * switching, Quit confirms (pirogue.service) */
	bool has_attract, has_blank;
	int attract;              /* seconds on the title screen before the demo, 0 = never (default 60) */
	int blank;                /* seconds without input before the screen blanks, 0 = never
	                           * (default 10 minutes in kiosk mode, else 0) */
	bool daily;               /* --daily: today's daily game at once */
	bool has_now;             /* the clock's time instead of the system's (PIROGUE_NOW: tests) */
	int64_t now;              /* seconds since 1970, UTC */
	const char *idle_clock;   /* PIROGUE_IDLE_CLOCK (tests): the file of the idle timers' clock (wake_clock_open) */
	bool has_auto_pickup;
	unsigned auto_pickup;     /* GAME_PICKUP_* bits auto-explore gathers (default GAME_PICKUP_DEFAULT) */
	int palette;              /* enum ui_palette_kind (default UI_PALETTE_DEFAULT) */
	bool no_watch;            /* watch = no, --no-watch: the game is not published for watchers */
	bool watch;               /* --watch [SOCKET]: watch a game instead of playing one */
	const char *watch_socket; /* ... its socket, NULL = watcher_path's default */
	/* --state-wait FILE, not there when the program started: the display
	 * is opened first, then FILE waited for before the state directory is
	 * used; NULL: no wait */
	const char *state_wait;
	/* ... then the configuration read again, now with the state
	 * directory's settings file (main's): the one to run with, or NULL
	 * with *status the exit status after one line (a bad setting) */
	const struct app_config *(*restate)(int *status);
};

/* Runs the program with cfg; returns the process exit status (0 ok, 1 a
 * runtime failure that has been reported in one line). */
int app_run(const struct app_config *cfg);

/* --list-displays / --list-inputs: prints what was found to stdout; returns
 * the exit status. */
int app_list(bool displays, bool inputs, const struct app_config *cfg);

#endif
