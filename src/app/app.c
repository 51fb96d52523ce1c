/* The loop: one poll() over signals, the display and the input devices;
 * events become actions, actions become game commands or screen changes,
 * and a frame is presented only when a cell changed. */
#include "app/app.h"
#include "app/idle.h"
#include "app/keyfile.h"
#include "core/log.h"
#include "game/game.h"
#include "game/mapgen.h"
#include "platform/crash.h"
#include "platform/display.h"
#if WITH_DRM
#include "platform/drm.h"
#endif
#include "platform/vt.h"
#if WITH_EVDEV
#include "platform/evdev.h"
#endif
#include "render/console.h"
#include "render/font.h"
#include "save/record.h"
#include "game/serial.h"
#include "save/morgue.h"
#include "save/save.h"
#include "save/scores.h"
#include "ui/ui.h"
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_FDS 64
#define MAX_EVENTS 64

struct app {
	const struct app_config *cfg;
	struct font *font;       /* --font, or the first of fonts */
	struct font *fonts[9];   /* the shipped fonts when there is no --font */
	int nfonts;
	const struct display_ops *ops;
	struct display *disp;
	struct console *con;     /* what is on screen (damage = what changed) */
	struct console *scratch; /* where ui_draw composes the next frame */
	int sfd;                 /* signalfd, -1 when not used */
	struct vt *vt;           /* the virtual terminal, for drm and fbdev */
	struct evdev *ev;        /* input devices, for drm and fbdev */
	bool bare;               /* a console backend: VT + evdev */
	bool suspended;          /* our VT is switched away */
	struct ui ui;
	struct bindings binds;   /* what each key and button means */
	enum { WALK_NONE, WALK_EXPLORE, WALK_DOWN, WALK_UP } walk; /* auto-explore or travel going on */
	int tfd;                 /* timerfd armed for the next deadline (idle_deadline), -1 until needed */
	int64_t step_at;         /* monotonic ms of the next walk or demo step, -1: none */
	struct idle_cfg idle;    /* attract and blank settings */
	int64_t last_input;      /* monotonic ms of the last key, button or pointer input */
	bool blanked;            /* the display is off (or shows a black frame) */
	bool dark;               /* ... switched off by the backend: nothing is presented */
	struct game *demo;       /* attract mode's game: never saved, scored or recorded */
	struct ui demo_ui;       /* its screen (the player's ui is left as it was) */
	uint64_t demo_seed;      /* the next demo's seed: 1, 2, 3... */
	int demo_moves;          /* moves of this demo game (a long one makes way for the next) */
	struct game *game;
	enum mapgen_kind mapgen;
	uint64_t next_seed;
	bool seeded;             /* next_seed came from --seed */
	struct rec_writer *rec;
	bool recording_done;     /* --record covers the first game only */
	bool saving;             /* state_dir holds the save (see open_state) */
	char state_dir[PATH_MAX];
	int frames;
	bool quit;
	int status;
};

/* ------------------------------------------------------------------ */
/* fonts */

/* The directory of the running binary into buf, or "." if unknown. */
static const char *exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;
	if (n <= 0)
		return ".";
	buf[n] = 0;
	if (!(slash = strrchr(buf, '/')))
		return ".";
	*slash = 0;
	return buf;
}

/* Finds a shipped file (rel: "fonts/...", "gamepads/..."): under
 * $PIROGUE_DATA_DIR (tests, out-of-tree builds), next to the binary (a
 * build tree), then in the installed data directory. Returns 0 with the
 * path in out, or -ENOENT. */
static int data_file(const char *rel, char *out, size_t len)
{
	char exe[PATH_MAX];
	const char *dirs[3] = { getenv("PIROGUE_DATA_DIR"), exe_dir(exe, sizeof exe), PIROGUE_DATADIR };
	for (int i = 0; i < 3; i++) {
		if (!dirs[i] || !dirs[i][0])
			continue;
		if ((size_t)snprintf(out, len, "%s/%s", dirs[i], rel) < len && access(out, R_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

#if WITH_EVDEV
/* The shipped gamepad database (loaded before the user's mappings), or
 * NULL after saying so. */
static const char *default_gamepad_db(char *buf, size_t len)
{
	char exe[PATH_MAX];
	if (data_file("gamepads/gamecontrollerdb.txt", buf, len) == 0)
		return buf;
	log_error("no default gamepad database in %s/gamepads or %s/gamepads: pads that do not follow the "
		  "kernel layout need --gamepad-db FILE (reinstall pirogue, or set PIROGUE_DATA_DIR)",
		  exe_dir(exe, sizeof exe), PIROGUE_DATADIR);
	return NULL;
}
#endif

static int load_font(struct app *a)
{
	char err[256];
	if (a->cfg->font) {
		if (font_load_as(&a->font, a->cfg->font, a->cfg->font_layout, err, sizeof err)) {
			log_error("%s (give --font a PNG tileset or a PSF font)", err);
			return -EINVAL;
		}
		return 0;
	}
	/* The shipped fonts, candidates of the automatic choice (the display
	 * picks the one that fills it best: blit_choose); the first must be
	 * there, the others are used when they are. */
	static const char *const shipped[] = {
		"fonts/cp437-8x8.png",	  "fonts/cp437-8x9.png",    "fonts/cp437-8x16.png",   "fonts/dejavu-12x12.png",
		"fonts/dejavu-14x14.png", "fonts/dejavu-16x16.png", "fonts/dejavu-18x18.png", "fonts/dejavu-21x21.png",
		"fonts/dejavu-24x24.png"
	};
	_Static_assert(sizeof shipped / sizeof *shipped <= sizeof a->fonts / sizeof *a->fonts, "room for the fonts");
	char path[PATH_MAX + 32], exe[PATH_MAX];
	for (size_t i = 0; i < sizeof shipped / sizeof *shipped; i++) {
		if (data_file(shipped[i], path, sizeof path)) {
			if (i == 0)
				break;
			log_info("default font %s is not installed; choosing among the others", shipped[i]);
			continue;
		}
		struct font *f;
		if (font_load(&f, path, err, sizeof err)) {
			log_error("%s (the installed default font is damaged: reinstall pirogue or use --font)", err);
			return -EINVAL;
		}
		a->fonts[a->nfonts++] = f;
	}
	if (a->nfonts) {
		a->font = a->fonts[0];
		return 0;
	}
	log_error("no default font found in %s/fonts or %s/fonts: reinstall pirogue, set PIROGUE_DATA_DIR "
		  "to the directory holding fonts/, or give --font FILE", exe_dir(exe, sizeof exe), PIROGUE_DATADIR);
	return -ENOENT;
}

/* The font the display draws with (its automatic choice, or --font). */
static const struct font *drawn_font(const struct app *a)
{
	return a->disp && a->disp->font ? a->disp->font : a->font;
}

/* ------------------------------------------------------------------ */
/* display */

/* Nothing can show the game (why: display_auto's reason, "none: ..."): one
 * line and no backend, so the program exits non-zero. Never a silent
 * headless run. In kiosk mode the game is the console: it says so once and
 * waits for a display (a driver loaded late, a screen plugged in), woken
 * only by the kernel and udev; then it goes on with that display. */
static const struct display_ops *no_display(struct app *a, const struct display_opts *o, char *why, size_t len)
{
	if (!a->cfg->kiosk) {
		log_error("%s (--list-displays shows what there is; --backend headless runs without a display)",
			  strncmp(why, "none: ", 6) ? why : why + 6);
		return NULL;
	}
	log_error("kiosk: no display yet (%s); waiting for one to appear", strncmp(why, "none: ", 6) ? why : why + 6);
	bool settle = false;
	for (;;) {
		/* after an event, one more look a second later: udev may still
		 * be giving the new node its group */
		int rc = display_wait_change(settle ? 1000 : -1);
		if (rc < 0 && rc != -ETIMEDOUT) {
			log_error("kiosk: cannot watch for displays to appear (%s)", strerror(-rc));
			return NULL;
		}
		const struct display_ops *ops = display_auto(o, why, len);
		if (ops) {
			log_error("kiosk: a display appeared: %s", why);
			return ops;
		}
		settle = rc == 0;
	}
}

static const struct display_ops *choose_backend(struct app *a, const struct display_opts *o)
{
	const char *name = a->cfg->backend;
	if (a->cfg->replay)
		name = "headless";
	if (name) {
		const struct display_ops *ops = display_find(name);
		if (!ops)
			log_error("display backend '%s' is not built into this pirogue (rebuild with it enabled)", name);
		return ops;
	}
	char why[1024];
	const struct display_ops *ops = display_auto(o, why, sizeof why);
	if (!ops)
		return no_display(a, o, why, sizeof why);
	log_info("display: %s", why);
	return ops;
}

static int open_signals(struct app *a);
static void set_pointer_space(struct app *a);
static void on_vt_release(struct app *a);
static void on_vt_acquire(struct app *a);

static int open_display(struct app *a)
{
	struct display_opts o = {
		.scale = a->cfg->scale,
		.rotation = a->cfg->rotation,
		.width = a->cfg->width,
		.height = a->cfg->height,
		.card = a->cfg->card,
		.connector = a->cfg->connector,
		.mode_w = a->cfg->mode_w,
		.mode_h = a->cfg->mode_h,
		.mode_hz = a->cfg->mode_hz,
		.fb = a->cfg->fb,
		.vt = a->cfg->vt,
	};
	a->ops = choose_backend(a, &o);
	if (!a->ops)
		return -ENODEV;
	a->bare = !strcmp(a->ops->name, "drm") || !strcmp(a->ops->name, "fbdev");
#if WITH_DRM
	if (!strcmp(a->ops->name, "drm")) {
		/* A display held by another program (a second pirogue, X) is
		 * refused before the VT is touched: taking that VT and giving it
		 * back would change it, and the picture, under the program that
		 * owns it. */
		char why[512];
		int rc = drm_probe(&o, why, sizeof why);
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
#endif
	if (a->bare) {
		/* the console: crash handlers first, so that nothing below can
		 * leave it in graphics mode; VT signals blocked before vt_open */
		int rc;
		if ((rc = crash_install_handlers()) || (rc = open_signals(a)) || (rc = vt_open(&a->vt, a->cfg->vt)))
			return rc;
	}
	/* the terminal draws text, but a bad --font is never silently ignored */
	if ((strcmp(a->ops->name, "term") || a->cfg->font) && load_font(a))
		return -EINVAL;
	o.font = a->font;
	if (a->nfonts > 1) {
		o.fonts = (const struct font *const *)a->fonts;
		o.nfonts = a->nfonts;
	}
	/* the terminal backend itself holds log lines back while it owns the
	 * terminal, and writes them when it gives it back */
	return a->ops->open(&a->disp, &o);
}

static int size_consoles(struct app *a)
{
	int cols, rows;
	a->ops->console_size(a->disp, &cols, &rows);
	if (cols < 1)
		cols = 1;
	if (rows < 1)
		rows = 1;
	int rc;
	if (!a->con) {
		if ((rc = con_create(&a->con, cols, rows)) || (rc = con_create(&a->scratch, cols, rows)))
			return rc;
	} else if (a->con->w != cols || a->con->h != rows) {
		if ((rc = con_resize(a->con, cols, rows)) || (rc = con_resize(a->scratch, cols, rows)))
			return rc;
	}
	return 0;
}

/* Draws the current screen and presents it if any cell changed. */
static int frame(struct app *a)
{
	if (a->dark)
		return 0; /* a flip on a switched-off CRTC may fail; nothing would show */
	if (a->blanked)
		con_clear(a->scratch, 0); /* a black frame (unseen when the display is off) */
	else if (a->demo)
		ui_draw(&a->demo_ui, a->demo, a->scratch);
	else
		ui_draw(&a->ui, a->game, a->scratch);
	con_copy(a->con, a->scratch);
	if (!a->con->damaged)
		return 0;
	int rc = a->ops->present(a->disp, a->con);
	if (rc) {
		log_error("cannot present a frame on the %s display (%s)", a->ops->name, strerror(-rc));
		return rc;
	}
	con_clear_damage(a->con);
	a->frames++;
	log_info("frame presented %d", a->frames);
	return 0;
}

/* ------------------------------------------------------------------ */
/* game */

static uint64_t fresh_seed(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
}

static int new_game(struct app *a)
{
	game_destroy(a->game);
	a->game = NULL;
	uint64_t seed = a->seeded ? a->next_seed++ : fresh_seed();
	struct game_opts o = { .seed = seed, .mapgen = (int)a->mapgen };
	int rc = game_create(&a->game, &o);
	if (rc) {
		log_error("cannot start a new game (%s)", strerror(-rc));
		return rc;
	}
	log_info("new game, seed %llu", (unsigned long long)seed);
	if (a->cfg->record && !a->recording_done) {
		a->recording_done = true;
		rc = rec_writer_open(&a->rec, a->cfg->record, seed, mapgen_name(a->mapgen));
		if (rc)
			return rc;
	} else if (a->rec) {
		/* a recording holds one game: the next one is not recorded */
		rec_writer_close(a->rec);
		a->rec = NULL;
	}
	a->ui.screen = UI_PLAY;
	a->ui.can_continue = true;
	a->ui.hover_x = a->ui.hover_y = -1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* saving (docs/save.md) */

/* The state directory. Interactive play uses --state-dir or the default;
 * scripted and headless runs only an explicit --state-dir, so that tests
 * never see (or change) the player's saves. The save is loaded at once: a
 * good one is offered as Continue, a refused one is renamed aside and its
 * reason shown on the title screen. */
static void open_state(struct app *a)
{
	if ((a->cfg->keys || !strcmp(a->ops->name, "headless")) && !a->cfg->state_dir)
		return;
	if (save_state_dir(a->cfg->state_dir, a->state_dir, sizeof a->state_dir))
		return; /* said why; the game is played without saving */
	a->saving = true;
	if (a->game)
		return; /* --seed: a new game was asked for */
	char why[SAVE_WHY_MAX];
	int rc = save_load(a->state_dir, &a->game, why, sizeof why);
	if (rc == 0) {
		a->ui.can_continue = true;
		a->ui.menu_sel = 0;
	} else if (rc != -ENOENT) {
		log_error("%s/%s: %s", a->state_dir, SAVE_FILE, why);
		/* the title gets it without the details in parentheses (the
		 * log has them), capitalised: "The save is cut short; kept
		 * as pirogue.sav.bad-20261130-202742" */
		size_t n = 0;
		for (const char *p = why; *p && n + 1 < sizeof a->ui.notice; p++) {
			const char *close = p[0] == ' ' && p[1] == '(' ? strchr(p, ')') : NULL;
			if (close) {
				p = close;
				continue;
			}
			a->ui.notice[n] = n == 0 && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
			n++;
		}
		a->ui.notice[n] = 0;
	}
}

/* Saves the game in progress (a finished game is not kept). */
static void save_now(struct app *a)
{
	if (a->saving && a->game && !game_is_over(a->game) && save_game(a->state_dir, a->game))
		snprintf(a->ui.status, sizeof a->ui.status, "The game could not be saved (the log says why).");
}

/* The game has ended: its morgue file and recording, its score (its rank
 * for the high-score screen); then the save is deleted (permadeath). */
static void game_ended(struct app *a)
{
	a->ui.can_continue = false;
	a->ui.score_rank = -1;
	if (a->saving) {
		char name[PATH_MAX];
		int rank = -1;
		if (morgue_game_over(a->state_dir, a->game, (int64_t)time(NULL), name, sizeof name, &rank) == 0)
			log_info("morgue file %s, high score rank %d", name, rank + 1);
		a->ui.score_rank = rank >= 0 ? rank : -1;
	}
	if (a->rec) {
		rec_writer_close(a->rec);
		a->rec = NULL;
	}
}

/* The ui's host: a screen's command goes to the game and the recording. */
static int host_command(void *ctx, const struct command *cmd)
{
	struct app *a = ctx;
	if (!a->game || game_is_over(a->game))
		return 0;
	int turn0 = game_turn(a->game), depth0 = game_depth(a->game);
	int turn = game_do(a->game, cmd);
	if (save_due(turn0, depth0, game_turn(a->game), game_depth(a->game)))
		save_now(a);
	if (a->rec)
		rec_writer_command(a->rec, cmd, game_turn(a->game), game_checksum(a->game));
	if (game_is_over(a->game))
		game_ended(a);
	return turn;
}

/* The high-score table from the state directory, into the ui. */
static void load_scores(struct app *a)
{
	a->ui.nscores = 0;
	if (!a->saving)
		return;
	struct score_table t;
	char why[256];
	if (scores_load(a->state_dir, &t, why, sizeof why)) {
		log_error("%s", why);
		snprintf(a->ui.status, sizeof a->ui.status, "%.*s", (int)sizeof a->ui.status - 1, why);
	}
	for (int i = 0; i < t.n && i < UI_SCORES_MAX; i++) {
		struct ui_score *s = &a->ui.scores[i];
		s->score = t.e[i].score;
		s->depth = t.e[i].depth;
		s->turns = t.e[i].turns;
		s->level = t.e[i].level;
		snprintf(s->cause, sizeof s->cause, "%s", t.e[i].cause);
		a->ui.nscores = i + 1;
	}
}

/* ------------------------------------------------------------------ */
/* auto-explore and travel: one step a tick of the timer (or all at once
 * from a script), each step given and recorded as the move it is */

#define WALK_STEP_MS 60

static int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void walk_timer(struct app *a, bool on)
{
	a->step_at = on && a->tfd >= 0 ? mono_ms() + WALK_STEP_MS : -1;
}

static void walk_stop(struct app *a, const char *why)
{
	if (why)
		snprintf(a->ui.status, sizeof a->ui.status, "%s", why);
	a->walk = WALK_NONE;
	walk_timer(a, false);
}

/* One step; false when the walk has stopped (and says why). */
static bool walk_step(struct app *a)
{
	struct command step;
	char why[128];
	if (!a->game || game_is_over(a->game) || a->ui.screen != UI_PLAY) {
		walk_stop(a, NULL);
		return false;
	}
	int r = a->walk == WALK_EXPLORE ? game_explore_step(a->game, &step, why, sizeof why)
					: game_travel_step(a->game, a->walk == WALK_DOWN, &step, why, sizeof why);
	if (r != 1) {
		walk_stop(a, why);
		return false;
	}
	int turn = host_command(a, &step);
	ui_after_command(&a->ui, a->game);
	if (a->ui.screen != UI_PLAY) {
		walk_stop(a, NULL); /* died, or a level-up to choose */
		return false;
	}
	if (!turn) {
		walk_stop(a, "Something is in the way.");
		return false;
	}
	return true;
}

/* Starts walking. A script (or a run without a loop) walks every step at
 * once; the loop takes one step per timer tick, so a person sees it and
 * any key stops it. */
static void walk_start(struct app *a, int kind)
{
	a->walk = kind;
	a->ui.status[0] = 0;
	if (!walk_step(a))
		return;
	if (a->cfg->keys || a->sfd < 0) {
		for (int i = 0; i < 100000 && walk_step(a); i++)
			;
		return;
	}
	if (a->tfd < 0) {
		a->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (a->tfd < 0) {
			log_error("cannot create a timer for auto-explore: %s", strerror(errno));
			walk_stop(a, "Cannot explore here (no timer).");
			return;
		}
	}
	walk_timer(a, true);
}

/* ------------------------------------------------------------------ */
/* attract mode and screen blanking (docs/kiosk.md): one timer armed for
 * the next deadline (idle.h), none while nothing is due */

static struct idle_state idle_now(const struct app *a)
{
	return (struct idle_state){ .last_input_ms = a->last_input,
				    .title = a->ui.screen == UI_TITLE,
				    .demo = a->demo != NULL,
				    .blanked = a->blanked,
				    .step_ms = a->step_at };
}

static void demo_end(struct app *a)
{
	game_destroy(a->demo);
	a->demo = NULL;
	if (a->walk == WALK_NONE)
		a->step_at = -1;
	con_damage_all(a->con);
}

/* A new demo game (the next seed); false when none could be made. */
static bool demo_start(struct app *a)
{
	game_destroy(a->demo);
	a->demo = NULL;
	struct game_opts o = { .seed = ++a->demo_seed, .mapgen = (int)a->mapgen };
	if (game_create(&a->demo, &o)) {
		log_error("attract mode: cannot start a demo game; the title stays");
		a->idle.attract_s = 0;
		a->step_at = -1;
		return false;
	}
	a->demo_ui = (struct ui){ .screen = UI_PLAY, .hover_x = -1, .hover_y = -1, .binds = &a->binds,
				  .score_rank = -1 };
	snprintf(a->demo_ui.status, sizeof a->demo_ui.status, "Demo - press any key");
	a->step_at = mono_ms() + WALK_STEP_MS;
	a->demo_moves = 0;
	log_info("attract mode: demo game, seed %llu", (unsigned long long)o.seed);
	return true;
}

/* One move of the demo's bot; a finished demo game (or one of 5000 moves,
 * whose history would only grow) makes way for the next. */
static void demo_step(struct app *a)
{
	struct command c = idle_demo_command(a->demo);
	game_do(a->demo, &c);
	if ((game_is_over(a->demo) || ++a->demo_moves >= 5000) && !demo_start(a))
		return;
	a->step_at = mono_ms() + WALK_STEP_MS;
}

static void blank_on(struct app *a)
{
	if (a->demo)
		demo_end(a);
	if (a->walk != WALK_NONE)
		walk_stop(a, NULL);
	a->blanked = true;
	int rc = a->ops->blank ? a->ops->blank(a->disp, true) : -ENOTSUP;
	a->dark = rc == 0;
	log_info("screen blanked (%s)", rc ? "a black frame" : "display off");
}

static void blank_off(struct app *a)
{
	a->blanked = false;
	if (a->dark && a->ops->blank)
		a->ops->blank(a->disp, false);
	a->dark = false;
	con_damage_all(a->con);
	log_info("screen unblanked");
}

/* Arms the timer for the next deadline, or disarms it. */
static void arm_timer(struct app *a)
{
	if (a->tfd < 0)
		return;
	struct idle_state st = idle_now(a);
	int64_t at = a->suspended ? -1 : idle_deadline(&a->idle, &st);
	struct itimerspec its = { 0 };
	if (at >= 0) {
		its.it_value.tv_sec = at / 1000;
		its.it_value.tv_nsec = at % 1000 * 1000000L + 1; /* never 0 (disarms) */
	}
	timerfd_settime(a->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

static void on_timer(struct app *a)
{
	uint64_t ticks;
	if (read(a->tfd, &ticks, sizeof ticks) < 0 && errno == EAGAIN)
		return;
	struct idle_state st = idle_now(a);
	switch (idle_due(&a->idle, &st, mono_ms())) {
	case IDLE_STEP:
		if (a->demo)
			demo_step(a);
		else if (a->walk != WALK_NONE && walk_step(a))
			a->step_at = mono_ms() + WALK_STEP_MS;
		else
			a->step_at = -1; /* nothing left to step */
		break;
	case IDLE_ATTRACT:
		demo_start(a);
		break;
	case IDLE_BLANK:
		blank_on(a);
		break;
	case IDLE_NOTHING:
		break;
	}
}

/* The ui's host: what a screen asks of the program. */
static int host_request(void *ctx, enum ui_request r)
{
	struct app *a = ctx;
	int rc = 0;
	switch (r) {
	case UI_REQ_NEW_GAME:
		rc = new_game(a);
		if (rc) {
			a->quit = true;
			a->status = 1;
		}
		break;
	case UI_REQ_CONTINUE:
		if (a->cfg->record && !a->recording_done && a->game) {
			/* --record and a game from the save: recorded from its seed */
			struct game_opts o;
			game_opts_of(a->game, &o);
			a->recording_done = true;
			if (rec_writer_open(&a->rec, a->cfg->record, o.seed, mapgen_name(o.mapgen)) == 0 &&
			    rec_writer_history(a->rec, a->game, 1)) {
				rec_writer_close(a->rec);
				a->rec = NULL;
			}
		}
		a->ui.screen = UI_PLAY;
		ui_after_command(&a->ui, a->game); /* a level-up still to choose */
		break;
	case UI_REQ_SAVE_QUIT:
		save_now(a);
		a->ui.screen = UI_TITLE;
		a->ui.menu_sel = 0;
		break;
	case UI_REQ_QUIT:
		a->quit = true;
		break;
	case UI_REQ_SCORES:
		load_scores(a);
		a->ui.screen = UI_SCORES;
		break;
	case UI_REQ_EXPLORE:
		walk_start(a, WALK_EXPLORE);
		break;
	case UI_REQ_TRAVEL_DOWN:
		walk_start(a, WALK_DOWN);
		break;
	case UI_REQ_TRAVEL_UP:
		walk_start(a, WALK_UP);
		break;
	}
	return rc;
}

/* Hands one input to the screen in front. */
static void to_screen(struct app *a, struct ui_input *in)
{
	const struct ui_host host = { .ctx = a, .command = host_command, .request = host_request };
	in->cols = a->con->w;
	in->rows = a->con->h;
	ui_input(&a->ui, a->game, &host, in);
}

static void on_event(struct app *a, const struct in_event *ev)
{
	struct ui_input in = { .from = ev->from, .x = ev->x, .y = ev->y, .button = ev->button };
	if (ev->type == EV_KEY_PRESS || ev->type == EV_MOUSE_MOVE || ev->type == EV_MOUSE_CLICK) {
		/* a key, button or the pointer: the machine is in use */
		struct idle_state st = idle_now(a);
		a->last_input = mono_ms();
		switch (idle_on_input(&st)) {
		case IDLE_IN_WAKE:
			blank_off(a);
			return;
		case IDLE_IN_END_DEMO:
			demo_end(a);
			return;
		case IDLE_IN_PASS:
			break;
		}
	}
	switch (ev->type) {
	case EV_KEY_PRESS:
		if (a->walk != WALK_NONE) {
			/* any key stops auto-explore (and only stops it) */
			walk_stop(a, "Stopped.");
			break;
		}
		in.kind = UI_IN_KEY;
		in.key = ev->key;
		in.act = bind_action(&a->binds, ev->key);
		to_screen(a, &in);
		break;
	case EV_MOUSE_MOVE:
		in.kind = UI_IN_HOVER;
		to_screen(a, &in);
		break;
	case EV_MOUSE_CLICK:
		in.kind = UI_IN_CLICK;
		to_screen(a, &in);
		break;
	case EV_RESIZE:
		if (size_consoles(a) == 0) {
			con_damage_all(a->con);
			set_pointer_space(a);
		}
		break;
	case EV_QUIT:
		a->quit = true;
		break;
	case EV_VT_SWITCH:
		/* Ctrl+Alt+Fn: the console keyboard is muted, so the game asks;
		 * in kiosk mode there is nowhere to go */
		if (a->vt && !a->cfg->kiosk && ev->button != vt_number(a->vt))
			vt_switch_to(a->vt, ev->button);
		break;
	default:
		break;
	}
}

/* ------------------------------------------------------------------ */
/* input sources */

/* --keys: one key a line, '#' comments. Every key is handled and drawn in
 * turn; the frame after the last one stays for --screenshot. */
static int run_script(struct app *a)
{
	FILE *f = fopen(a->cfg->keys, "r");
	if (!f) {
		log_error("cannot read keys file %s: %s", a->cfg->keys, strerror(errno));
		return 1;
	}
	int lineno = 0, status = 0, rc;
	uint32_t key;
	while (!a->quit && (rc = keyfile_next(f, a->cfg->keys, &lineno, &key)) != 0) {
		if (rc < 0) {
			status = rc == -EIO ? 1 : 2;
			break;
		}
		struct in_event ev = { .type = EV_KEY_PRESS, .key = key, .from = DEV_SCRIPT };
		on_event(a, &ev);
		if (frame(a)) {
			status = 1;
			break;
		}
	}
	fclose(f);
	return status;
}

static int open_signals(struct app *a)
{
	if (a->sfd >= 0)
		return 0;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGWINCH);
	sigaddset(&set, VT_RELEASE_SIGNAL);
	sigaddset(&set, VT_ACQUIRE_SIGNAL);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -errno;
	a->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (a->sfd < 0) {
		int e = errno;
		log_error("cannot create a signalfd: %s", strerror(e));
		return -e;
	}
	return 0;
}

static void on_signal(struct app *a)
{
	struct signalfd_siginfo si;
	while (read(a->sfd, &si, sizeof si) == (ssize_t)sizeof si) {
		switch (si.ssi_signo) {
		case SIGWINCH: {
			struct in_event ev = { .type = EV_RESIZE };
			on_event(a, &ev);
			break;
		}
		case VT_RELEASE_SIGNAL:
			if (a->vt)
				on_vt_release(a);
			break;
		case VT_ACQUIRE_SIGNAL:
			if (a->vt)
				on_vt_acquire(a);
			break;
		default:
			log_info("signal %u: quitting", si.ssi_signo);
			a->quit = true;
			break;
		}
	}
}

/* The bare-console input: evdev devices, grabbed while we have the screen. */
static int open_input(struct app *a)
{
#if WITH_EVDEV
	char db[PATH_MAX + 32];
	struct evdev_opts o = { .dir = NULL, .default_db = default_gamepad_db(db, sizeof db),
				.gamepad_db = a->cfg->gamepad_db, .grab = true };
	int rc = evdev_open(&a->ev, &o);
	if (rc)
		return rc;
	if (!evdev_count(a->ev, DEV_KEYBOARD) && !evdev_count(a->ev, DEV_GAMEPAD))
		log_error("no keyboard or gamepad found yet (plug one in; --list-inputs shows what is there)");
	set_pointer_space(a);
	return 0;
#else
	log_error("this pirogue was built without evdev (WITH_EVDEV=0): the %s backend has no keyboard; "
		  "rebuild with WITH_EVDEV=1", a->ops->name);
	return -ENOTSUP;
#endif
}

/* The mouse pointer moves over the console in unscaled font pixels. */
static void set_pointer_space(struct app *a)
{
#if WITH_EVDEV
	if (a->ev)
		evdev_set_pointer_space(a->ev, a->con->w * drawn_font(a)->cell_w, a->con->h * drawn_font(a)->cell_h,
					drawn_font(a)->cell_w, drawn_font(a)->cell_h);
#else
	(void)a;
#endif
}

static void input_grab(struct app *a, bool on)
{
#if WITH_EVDEV
	if (a->ev)
		evdev_grab(a->ev, on);
#else
	(void)a;
	(void)on;
#endif
}

/* Our VT is being switched away: give up the display and the devices, then
 * let the switch happen. */
static void on_vt_release(struct app *a)
{
	if (a->suspended)
		return;
	save_now(a); /* the VT switched away may never come back */
	if (a->walk != WALK_NONE)
		walk_stop(a, "Stopped.");
	if (a->demo)
		demo_end(a);
	input_grab(a, false);
	if (a->ops->suspend)
		a->ops->suspend(a->disp);
	a->suspended = true;
	vt_release_ack(a->vt);
	log_info("VT released");
}

/* Our VT is back: take the display and devices again and redraw everything. */
static void on_vt_acquire(struct app *a)
{
	vt_acquire_ack(a->vt);
	if (!a->suspended)
		return;
	a->suspended = false;
	if (a->ops->resume)
		a->ops->resume(a->disp);
	if (a->blanked)
		blank_off(a); /* someone switched back: they are here */
	a->last_input = mono_ms();
	input_grab(a, true);
	con_damage_all(a->con);
	log_info("VT acquired");
}

static int poll_input_fds(struct app *a, int *fds, int max)
{
#if WITH_EVDEV
	if (a->ev) {
		int n = evdev_poll_fds(a->ev, fds, max);
		return n < 0 ? 0 : n;
	}
#endif
	(void)a;
	(void)fds;
	(void)max;
	return 0;
}

/* Reads one input fd until it has nothing more, handling every event. */
static void dispatch_input(struct app *a, int fd)
{
#if WITH_EVDEV
	struct in_event ev[MAX_EVENTS];
	int n;
	do {
		n = evdev_dispatch(a->ev, fd, ev, MAX_EVENTS);
		for (int k = 0; k < n && !a->quit; k++)
			on_event(a, &ev[k]);
	} while (n == MAX_EVENTS && !a->quit);
#else
	(void)a;
	(void)fd;
#endif
}

/* The interactive loop: sleeps in poll() until a signal or input arrives;
 * never wakes up on its own. */
static int run_loop(struct app *a)
{
	a->last_input = mono_ms();
	if ((a->idle.attract_s > 0 || a->idle.blank_s > 0) && a->tfd < 0) {
		a->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (a->tfd < 0)
			log_error("cannot create a timer: %s (no attract mode or screen blanking)", strerror(errno));
	}
	while (!a->quit) {
		if (!a->suspended && frame(a))
			return 1;
		arm_timer(a);
		struct pollfd pfd[MAX_FDS];
		int nfd = 0;
		pfd[nfd++] = (struct pollfd){ .fd = a->sfd, .events = POLLIN };
		int fds[MAX_FDS];
		int nd = a->ops->poll_fds(a->disp, fds, MAX_FDS / 4);
		for (int i = 0; i < nd; i++)
			pfd[nfd++] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
		int ni = poll_input_fds(a, fds, MAX_FDS - nfd);
		for (int i = 0; i < ni; i++)
			pfd[nfd++] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
		/* the timer is armed only when something is due: idle stays idle */
		if (a->tfd >= 0 && nfd < MAX_FDS)
			pfd[nfd++] = (struct pollfd){ .fd = a->tfd, .events = POLLIN };
		int rc = poll(pfd, (nfds_t)nfd, -1);
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			log_error("poll failed: %s", strerror(errno));
			return 1;
		}
		for (int i = 0; i < nfd && !a->quit; i++) {
			if (!pfd[i].revents)
				continue;
			if (pfd[i].fd == a->sfd) {
				on_signal(a);
				continue;
			}
			if (pfd[i].fd == a->tfd) {
				on_timer(a);
				continue;
			}
			if (i > nd) {
				dispatch_input(a, pfd[i].fd);
				continue;
			}
			struct in_event ev[MAX_EVENTS];
			int n = a->ops->dispatch(a->disp, pfd[i].fd, ev, MAX_EVENTS);
			if (n < 0) {
				log_error("the %s display failed (%s)", a->ops->name, strerror(-n));
				return 1;
			}
			for (int k = 0; k < n && !a->quit; k++)
				on_event(a, &ev[k]);
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* replay */

/* --replay: plays the recording headless, checking every state it records;
 * a good replay prints one line (commands, turn, depth, final checksum) and
 * draws the final frame. */
static int replay(struct app *a)
{
	struct recording r;
	char err[512];
	if (rec_load(a->cfg->replay, &r, err, sizeof err)) {
		log_error("%s", err);
		return 1;
	}
	int status = 0;
	if (rec_replay(&r, a->cfg->replay, &a->game, err, sizeof err)) {
		log_error("%s", err);
		status = 1;
		goto out;
	}
	a->ui.screen = UI_PLAY;
	ui_after_command(&a->ui, a->game); /* game over, or a level-up to choose */
	a->ui.hover_x = a->ui.hover_y = -1;
	printf("replayed %zu commands: turn %d depth %d checksum %016llx\n", r.nsteps, game_turn(a->game),
	       game_depth(a->game), (unsigned long long)game_checksum(a->game));
	fflush(stdout);
	if (frame(a))
		status = 1;
out:
	rec_free(&r);
	return status;
}

/* ------------------------------------------------------------------ */

static void app_close(struct app *a)
{
	save_now(a); /* quitting, SIGTERM, SIGHUP, SIGINT, a failure */
	rec_writer_close(a->rec);
	game_destroy(a->game);
	game_destroy(a->demo);
#if WITH_EVDEV
	evdev_close(a->ev);
#endif
	if (a->disp)
		a->ops->close(a->disp);
	vt_close(a->vt); /* text mode and keyboard back, after the CRTC */
	con_destroy(a->con);
	con_destroy(a->scratch);
	if (a->nfonts)
		for (int i = 0; i < a->nfonts; i++)
			font_destroy(a->fonts[i]);
	else
		font_destroy(a->font);
	if (a->sfd >= 0)
		close(a->sfd);
	if (a->tfd >= 0)
		close(a->tfd);
}

int app_run(const struct app_config *cfg)
{
	struct app a = { .cfg = cfg, .sfd = -1, .tfd = -1, .step_at = -1 };
	a.idle.attract_s = cfg->has_attract ? cfg->attract : 60;
	a.idle.blank_s = cfg->has_blank ? cfg->blank : cfg->kiosk ? 600 : 0;
	a.ui.hover_x = a.ui.hover_y = -1;
	if (cfg->bindings)
		a.binds = *cfg->bindings;
	else
		bind_defaults(&a.binds);
	a.ui.binds = &a.binds;
	a.ui.kiosk = cfg->kiosk;
	a.mapgen = MAPGEN_CLASSIC;
	if (cfg->mapgen && mapgen_parse(cfg->mapgen, &a.mapgen)) {
		log_error("unknown map generator '%s' (classic or overlap)", cfg->mapgen);
		return 2;
	}
	a.seeded = cfg->has_seed;
	a.next_seed = cfg->seed;
	if (open_display(&a) || size_consoles(&a)) {
		a.status = 1;
		goto out;
	}
	if (cfg->replay) {
		a.status = replay(&a);
	} else {
		if (cfg->has_seed && new_game(&a)) {
			a.status = 1;
			goto out;
		}
		open_state(&a);
		if (cfg->keys) {
			if (frame(&a))
				a.status = 1;
			else
				a.status = run_script(&a);
		} else if (!strcmp(a.ops->name, "headless")) {
			/* nothing will ever arrive: draw the first frame and stop */
			a.status = frame(&a) ? 1 : 0;
		} else {
			if (open_signals(&a) || (a.bare && open_input(&a))) {
				a.status = 1;
				goto out;
			}
			a.status = run_loop(&a);
		}
	}
	if (cfg->screenshot && a.status == 0) {
		if (!a.ops->screenshot) {
			log_error("--screenshot needs the headless backend (this display is %s)", a.ops->name);
			a.status = 1;
		} else if (a.ops->screenshot(a.disp, cfg->screenshot)) {
			a.status = 1;
		}
	}
out:
	app_close(&a);
	return a.status;
}

int app_list(bool displays, bool inputs, const struct app_config *cfg)
{
	int status = 0;
	if (displays) {
		struct display_opts o = { .card = cfg->card, .connector = cfg->connector, .fb = cfg->fb };
		if (display_list(stdout, &o) < 0)
			status = 1;
		printf("Backends built in:");
		for (int i = 0; display_backends[i]; i++)
			printf(" %s", display_backends[i]->name);
		printf("\n");
	}
	if (inputs) {
#if WITH_EVDEV
		char db[PATH_MAX + 32];
		struct evdev_opts o = { .default_db = default_gamepad_db(db, sizeof db), .gamepad_db = cfg->gamepad_db };
		if (evdev_list(stdout, &o) < 0)
			status = 1;
#else
		printf("input devices: not available (built with WITH_EVDEV=0)\n");
#endif
	}
	fflush(stdout);
	return status;
}
