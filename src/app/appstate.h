/* appstate: the program's state, shared by its loop (app.c), the display's start-up and the consoles sized to it (appdisplay.c), the options screen's values (appoptions.c), the recording viewer's pace (appview.c) and the watch hooks (appwatch.c); private to app/. */
#ifndef PIROGUE_APP_APPSTATE_H
#define PIROGUE_APP_APPSTATE_H
#include "app/app.h"
#include "app/blank.h"
#include "app/demo.h"
#include "app/idle.h"
#include "app/input.h"
#include "app/session.h"
#include "app/view.h"
#include "app/wake.h"
#include "app/walk.h"
#include "app/watch.h"
#include "app/watcher.h"
#include "game/game.h"
#include "game/mapgen.h"
#include "platform/display.h"
#include "platform/vt.h"
#include "render/console.h"
#include "render/font.h"
#include "ui/bind.h"
#include "ui/ui.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct app {
	const struct app_config *cfg;
	bool no_watch;            /* watch = no (cfg's, then the options screen's) */
	bool live;                /* the interactive loop runs: the game may be published */
	int text_step;            /* text-size: -1, 0, 1 (cfg's, then the options screen's) */
	unsigned pickup;          /* GAME_PICKUP_* auto-explore gathers (cfg's, then the options screen's) */
	struct font *font;        /* --font, or NULL */
	struct font_tilesets tiles; /* the map's pictures (data_load_tiles) */
	struct font_cands fonts;  /* else the shipped fonts, decoded when chosen (data_load_fonts) */
	const struct display_ops *ops;
	struct display *disp;
	struct console *con;     /* what is on screen (damage = what changed) */
	struct console *scratch; /* where a whole screen is composed (then copied into con) */
	struct ui_drawn *drawn;  /* what con holds, so a frame redraws only what changed */
	int sfd;                 /* signalfd, -1 when not used */
	struct vt *vt;           /* the virtual terminal, for drm and fbdev */
	struct input_devs input;      /* input devices, for drm and fbdev */
	bool bare;               /* a console backend: VT + evdev */
	bool suspended;          /* our VT is switched away */
	bool stopped;            /* the terminal given back for a job-control stop */
	struct ui ui;
	struct bindings binds;   /* what each key and button means */
	struct walk walk;        /* auto-explore or travel going on */
	struct wake wake;        /* the timer armed for the next deadline (idle_deadline) */
	int64_t step_at;         /* wake_now_ms of the next walk or demo step, -1: none */
	struct idle_cfg idle;    /* attract and blank settings */
	int64_t last_input;      /* wake_now_ms of the last key, button or pointer input */
	struct blank blank;      /* the display is off (or shows a black frame) */
	struct demo demo;        /* attract mode's game */
	struct game *game;
	enum mapgen_kind mapgen;
	int map_w, map_h;        /* floor size of new games (0, 0: the default) */
	uint64_t next_seed;
	bool seeded;             /* next_seed came from --seed */
	struct session session;  /* the save, the recording, morgue and scores */
	struct view *view;       /* the recording watched (UI_VIEW), NULL when none */
	enum ui_screen view_back; /* where stopping goes; UI_SCREEN_COUNT: the program ends (--view) */
	int view_acc;
	bool view_attract;       /* the view is attract mode's: a key ends it */
	int attract_next;        /* the table's recorded game attract mode plays next */
	uint32_t *script;        /* --keys, read whole before anything is played (read_script) */
	size_t nscript;
	struct watch_pub *pub;   /* the game published for watchers, NULL: not */
	bool watching;           /* --watch: this program watches another's game */
	struct watcher watcher;  /* ... through this */
	int frames;
	bool quit;
	int status;
};

/* ---- appdisplay.c: the display's start-up, the consoles sized to it ---- */

/* The signals the loop reads (SIGINT, SIGTERM, SIGHUP, SIGWINCH, the VT's;
 * SIGTSTP and SIGCONT for the terminal) blocked and read through a->sfd
 * (once: nothing when it is open). Returns 0 or -errno (logged). */
int open_signals(struct app *a);
/* Chooses the display backend for a->cfg and opens it with its font: on
 * the console (a->bare) the crash handlers, the signals and the VT first
 * (not for a watcher, which takes no VT); the fonts and tile sheet loaded.
 * Returns 0, -errno having said why, or 1 when the font or tile sheet
 * asked for (--font, font =, --tiles FILE) cannot be used (said: a wrong
 * value, exit status 2). What it opened before a failure stays open for
 * close_display (or app_close). */
int open_display(struct app *a);
/* Closes what open_display opened (the display, the VT, the fonts and
 * tiles), so that it may be called again; nothing opened is fine. */
void close_display(struct app *a);
/* Whether open_display would open another display, font or VT for now
 * than it did for was: any setting it reads differs (backend, font,
 * tiles, scale, text size, rotation, size, card, connector, mode, fb, vt,
 * kiosk). */
bool display_config_differs(const struct app_config *was, const struct app_config *now);

/* Sizes the consoles to the display's grid of text cells (made the first
 * time, resized when the grid changed; at least 1x1) and takes the
 * display's map cell width. Returns 0 or -errno (no memory). */
int size_consoles(struct app *a);
/* With --verbose, the display's layout line (README); nothing for a
 * display that has no pixels (the terminal). */
void log_layout(const struct app *a);

/* ---- appoptions.c: the options screen's values (scr_options.c's rows) ---- */

/* The settings the options screen holds (attract, blank, watch,
 * auto-pickup, palette, text size) from a->cfg, their defaults where it
 * gives none, and each row's value (ui.opt_val, ui.opt_other) from them.
 * Called once, before anything is opened. */
void options_init(struct app *a);
/* The options screen's row ui.opt_sel has a new value (UI_REQ_OPTION): in
 * force at once, then written to the state directory's settings file. A
 * value that cannot be put in force (a text size the display cannot take)
 * is neither kept nor written, its row back to the value in force; that,
 * a failed write or no state directory is said on the screen's notice
 * line. */
void options_changed(struct app *a);

/* ---- appview.c: watching a recording (view.h), the app giving the pace ---- */

/* The time between two ticks of play at speed (VIEW_RATE commands a second
 * at 1x), in milliseconds. */
int view_tick_ms(int speed);
/* The commands one tick plays at speed. */
int view_per_tick(int speed);
/* Arms the next tick while the view plays (the timer and a script's keys
 * alike); none while paused or not on the view screen. */
void view_arm(struct app *a);
/* Plays n commands of the view (fewer at the end); the top line follows. */
void view_play(struct app *a, int n);
/* Starts watching the recording path; back: the screen stopping returns to
 * (UI_SCREEN_COUNT: stopping ends the program). Returns 0, or -errno with
 * the one line why logged (and on the screens' status line). */
int view_start(struct app *a, const char *path, enum ui_screen back);
/* Stops watching the recording: back to where view_start was told, or the
 * program ends. */
void stop_watching(struct app *a);
/* Jumps turns forward (negative: back; clipped at the start), replaying
 * from the nearest snapshot; out of memory is said on the status line. */
void view_jump(struct app *a, int turns);

/* ---- appwatch.c: watching and being watched (docs/watch.md) ---- */

/* The screen and game shown now (the demo's while it plays): what watchers
 * see. */
const struct ui *shown_ui(const struct app *a);
const struct game *shown_game(const struct app *a);
/* Publishes the game on its socket (watch_pub_path) unless watch = no;
 * a game that cannot be published plays on (the reason is logged). */
void start_publishing(struct app *a);
/* The watched game's stream is readable: read it; its end or a bad stream
 * ends the program (a bad one with status 1, after one line). */
void on_watched(struct app *a);

#endif
