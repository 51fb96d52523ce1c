/* The loop: one poll() over signals, the display and the input devices;
 * events become actions, actions become game commands or screen changes,
 * and a frame is presented only when a cell changed. */
#include "app/app.h"
#include "app/appstate.h"
#include "app/blank.h"
#include "app/demo.h"
#include "app/idle.h"
#include "app/input.h"
#include "app/keyfile.h"
#include "app/pathwait.h"
#include "app/session.h"
#include "app/view.h"
#include "app/walk.h"
#include "app/wake.h"
#include "app/watch.h"
#include "app/watcher.h"
#include "core/log.h"
#include "game/game.h"
#include "game/history.h"
#include "game/mapgen.h"
#include "platform/display.h"
#include "platform/vt.h"
#include "render/console.h"
#include "render/font.h"
#include "ui/ui.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_FDS (64 + WATCH_MAX + 1) /* ours, the devices', the watch socket and its watchers */
#define MAX_EVENTS 64 /* read from the display at a time */

/* ------------------------------------------------------------------ */
/* display */

/* The font the display draws with (its automatic choice, or --font). */
static const struct font *drawn_font(const struct app *a)
{
	return a->disp && a->disp->font ? a->disp->font : a->font;
}

static void set_pointer_space(struct app *a);
static void on_vt_release(struct app *a);
static void on_vt_acquire(struct app *a);
static void on_stop(struct app *a);
static void on_continue(struct app *a);

/* Draws the current screen and presents it if any cell changed: what
 * changed is drawn into the shown console (ui_draw_frame; a whole screen
 * is composed in scratch first), whose damage goes to the display. */
static int frame(struct app *a)
{
	if (a->blank.dark)
		return 0; /* a flip on a switched-off CRTC may fail; nothing would show */
	a->con->scrolls = a->disp->scrolls; /* (the display may have changed) */
	/* map cells carry pictures only while the display is asked for them */
	a->ui.pictures = a->demo.ui.pictures = a->watcher.ui.pictures = a->tiles.on;
	if (a->blank.on) {
		con_clear(a->con, 0); /* a black frame (unseen when the display is off) */
		ui_drawn_forget(a->drawn);
	} else if (a->watching) {
		a->watcher.ui.map_cw = a->ui.map_cw; /* our display's map cells, not the game's */
		int rc = watcher_draw(&a->watcher, a->drawn, a->con, a->scratch);
		if (rc)
			return rc;
	} else if (demo_running(&a->demo)) {
		a->demo.ui.map_cw = a->ui.map_cw;
		ui_draw_frame(a->drawn, &a->demo.ui, a->demo.game, a->con, a->scratch);
	} else if (a->view) {
		ui_draw_frame(a->drawn, &a->ui, view_game(a->view), a->con, a->scratch);
	} else {
		ui_draw_frame(a->drawn, &a->ui, a->game, a->con, a->scratch);
	}
	if (!a->con->damaged && !a->con->move.w)
		return 0; /* (a whole move damages nothing: presented) */
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
	uint64_t seed = a->seeded ? a->next_seed++ : fresh_seed();
	int rc = session_new_game(&a->session, &a->game, seed, (int)a->mapgen, a->map_w, a->map_h);
	if (rc)
		return rc;
	a->ui.screen = UI_PLAY;
	a->ui.can_continue = true;
	a->ui.hover_x = a->ui.hover_y = -1;
	ui_drawn_forget(a->drawn); /* the new game may lie where the old one did */
	watch_pub_replaced(a->pub);
	return 0;
}

/* ------------------------------------------------------------------ */
/* the daily game */

/* Today's daily game (session_daily): shown, or the title says why not. */
static int daily_game(struct app *a)
{
	int rc = session_daily(&a->session, &a->game, &a->ui);
	if (rc == 1)
		return 0; /* refused: the title's notice says why */
	if (rc) {
		a->quit = true;
		a->status = 1;
		return rc;
	}
	a->ui.notice[0] = 0;
	a->ui.screen = UI_PLAY;
	a->ui.can_continue = true;
	a->ui.hover_x = a->ui.hover_y = -1;
	ui_drawn_forget(a->drawn);
	return 0;
}

/* ------------------------------------------------------------------ */
/* the ui's host */

static int host_request(void *ctx, enum ui_request r);

/* A screen's (or a walk's) command goes to the game, the save and the
 * recording. */
static int host_command(void *ctx, const struct command *cmd)
{
	struct app *a = ctx;
	struct game *g = a->game;
	int n0 = g ? hist_count(game_history(g)) : 0;
	int rc = session_command(&a->session, g, &a->ui, cmd);
	if (g && a->game == g && hist_count(game_history(g)) > n0)
		watch_pub_command(a->pub, cmd); /* played: the watchers play it too */
	return rc;
}

static struct ui_host host_of(struct app *a)
{
	return (struct ui_host){ .ctx = a, .command = host_command, .request = host_request };
}

/* ------------------------------------------------------------------ */
/* auto-explore and travel (walk.h): one step a tick of the timer, or all at
 * once from a script */

static void stop_walk(struct app *a, const char *why)
{
	walk_stop(&a->walk, &a->ui, why);
	a->step_at = -1;
}

/* A script (or a run without a loop) walks every step at once; the loop
 * takes one step per timer tick, so a person sees it and any key stops it. */
static void start_walk(struct app *a, enum walk_kind kind)
{
	const struct ui_host host = host_of(a);
	a->step_at = -1;
	a->walk.pickup = a->pickup;
	if (!walk_start(&a->walk, kind, a->cfg->keys || a->sfd < 0, a->game, &a->ui, &host))
		return;
	int rc = wake_open(&a->wake);
	if (rc) {
		log_error("cannot create a timer for auto-explore: %s", strerror(-rc));
		stop_walk(a, "Cannot explore here (no timer).");
		return;
	}
	a->step_at = wake_now_ms(&a->wake) + WALK_STEP_MS;
}

/* ------------------------------------------------------------------ */
/* attract mode and screen blanking (docs/kiosk.md): one timer armed for
 * the next deadline (idle.h), none while nothing is due */

static struct idle_state idle_now(const struct app *a)
{
	return (struct idle_state){ .last_input_ms = a->last_input,
				    .title = a->ui.screen == UI_TITLE,
				    .demo = demo_running(&a->demo) || a->view_attract,
				    .blanked = a->blank.on,
				    .step_ms = a->step_at };
}

static void end_demo(struct app *a)
{
	if (a->view_attract) {
		a->view_attract = false;
		stop_watching(a); /* back to the title */
	}
	demo_end(&a->demo);
	watch_pub_replaced(a->pub); /* the player's screen again */
	if (a->walk.kind == WALK_NONE)
		a->step_at = -1;
	con_damage_all(a->con);
}

/* After demo_start or demo_step returned rc: the next demo move is due, or,
 * when no demo game could be made, attract mode is off for this run. */
static void demo_next(struct app *a, int rc)
{
	if (rc) {
		a->idle.attract_s = 0;
		a->step_at = -1;
		return;
	}
	a->step_at = wake_now_ms(&a->wake) + WALK_STEP_MS;
}

static void go_blank(struct app *a)
{
	if (demo_running(&a->demo))
		end_demo(a);
	if (a->walk.kind != WALK_NONE)
		stop_walk(a, NULL);
	blank_on(&a->blank, a->ops, a->disp);
}

/* Arms the timer for the next deadline, or disarms it. */
static void arm_timer(struct app *a)
{
	struct idle_state st = idle_now(a);
	wake_at(&a->wake, a->suspended ? -1 : idle_deadline(&a->idle, &st));
}

static void on_timer(struct app *a)
{
	if (!wake_fired(&a->wake))
		return;
	struct idle_state st = idle_now(a);
	const struct ui_host host = host_of(a);
	switch (idle_due(&a->idle, &st, wake_now_ms(&a->wake))) {
	case IDLE_STEP:
		if (demo_running(&a->demo)) {
			uint64_t seed = a->demo.seed;
			demo_next(a, demo_step(&a->demo));
			if (a->demo.seed != seed || !demo_running(&a->demo))
				watch_pub_replaced(a->pub); /* the next demo game */
			else
				watch_pub_command(a->pub, &a->demo.last);
		} else if (a->view && a->ui.screen == UI_VIEW && !a->ui.view.paused) {
			view_play(a, view_per_tick(a->ui.view.speed));
			a->step_at = -1;
			view_arm(a);
			if (a->view_attract && a->ui.view.paused) {
				/* attract's recording ended: the title, and the next one */
				a->view_attract = false;
				stop_watching(a);
			}
		} else if (a->walk.kind != WALK_NONE && walk_step(&a->walk, a->game, &a->ui, &host))
			a->step_at = wake_now_ms(&a->wake) + WALK_STEP_MS;
		else
			a->step_at = -1; /* nothing left to step */
		break;
	case IDLE_ATTRACT: {
		/* the best recorded games of the table first, then the demo bot */
		char path[PATH_MAX];
		if (session_attract(&a->session, a->attract_next, path, sizeof path) == 0 &&
		    view_start(a, path, UI_TITLE) == 0) {
			a->attract_next++;
			a->view_attract = true;
			a->ui.view.speed = 4;
			view_arm(a);
			break;
		}
		a->attract_next = 0;
		demo_next(a, demo_start(&a->demo, (int)a->mapgen, &a->binds));
		watch_pub_replaced(a->pub);
		break;
	}
	case IDLE_BLANK:
		go_blank(a);
		break;
	case IDLE_NOTHING:
		break;
	}
}

/* What a screen asks of the program. */
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
		session_continue(&a->session, a->game);
		a->ui.screen = UI_PLAY;
		ui_after_command(&a->ui, a->game); /* a level-up still to choose */
		break;
	case UI_REQ_SAVE_QUIT:
		session_save(&a->session, a->game, &a->ui);
		a->ui.screen = UI_TITLE;
		a->ui.menu_sel = 0;
		if (a->ui.status[0]) {
			/* the title shows no status line: a failed save goes to
			 * its notice, or the player would leave believing it kept */
			snprintf(a->ui.notice, sizeof a->ui.notice, "%s", a->ui.status);
			a->ui.status[0] = 0;
		}
		break;
	case UI_REQ_QUIT:
		a->quit = true;
		break;
	case UI_REQ_SCORES:
		session_scores(&a->session, &a->ui);
		a->ui.screen = UI_SCORES;
		break;
	case UI_REQ_NAME:
		session_set_name(&a->session, a->game, &a->ui);
		break;
	case UI_REQ_DAILY:
		rc = daily_game(a);
		break;
	case UI_REQ_VIEW_STEP:
		if (a->view)
			view_play(a, 1);
		break;
	case UI_REQ_VIEW_BACK:
		if (a->view)
			view_jump(a, -VIEW_EVERY);
		break;
	case UI_REQ_VIEW_ON:
		if (a->view)
			view_jump(a, VIEW_EVERY);
		break;
	case UI_REQ_VIEW_STOP:
		if (a->view)
			stop_watching(a);
		break;
	case UI_REQ_WATCH: {
		char path[PATH_MAX];
		if (session_recording(&a->session, &a->ui, a->ui.watch, path, sizeof path) == 0)
			(void)view_start(a, path, UI_SCORES);
		break;
	}
	case UI_REQ_EXPLORE:
		start_walk(a, WALK_EXPLORE);
		break;
	case UI_REQ_TRAVEL_DOWN:
		start_walk(a, WALK_DOWN);
		break;
	case UI_REQ_OPTION:
		options_changed(a);
		break;
	case UI_REQ_TRAVEL_UP:
		start_walk(a, WALK_UP);
		break;
	}
	return rc;
}

/* Hands one input to the screen in front. */
static void to_screen(struct app *a, struct ui_input *in)
{
	const struct ui_host host = host_of(a);
	in->cols = a->con->w;
	in->rows = a->con->h;
	ui_input(&a->ui, a->view ? (struct game *)view_game(a->view) : a->game, &host, in);
	if (a->view)
		view_arm(a); /* paused, resumed or sped up: the next tick */
}

static void on_event(struct app *a, const struct in_event *ev)
{
	struct ui_input in = { .from = ev->from, .x = ev->x, .y = ev->y, .button = ev->button };
	if (a->watching && (ev->type == EV_KEY_PRESS || ev->type == EV_MOUSE_MOVE || ev->type == EV_MOUSE_CLICK)) {
		/* a watcher's keys reach nothing but its own way out */
		if (ev->type == EV_KEY_PRESS && (ev->key == 'q' || ev->key == 'Q'))
			a->quit = true;
		return;
	}
	if (ev->type == EV_KEY_PRESS || ev->type == EV_MOUSE_MOVE || ev->type == EV_MOUSE_CLICK) {
		/* a key, button or the pointer: the machine is in use */
		struct idle_state st = idle_now(a);
		a->last_input = wake_now_ms(&a->wake);
		switch (idle_on_input(&st)) {
		case IDLE_IN_WAKE:
			blank_off(&a->blank, a->ops, a->disp, a->con);
			return;
		case IDLE_IN_END_DEMO:
			end_demo(a);
			return;
		case IDLE_IN_PASS:
			break;
		}
	}
	switch (ev->type) {
	case EV_KEY_PRESS:
		if (a->walk.kind != WALK_NONE) {
			/* any key stops auto-explore (and only stops it) */
			stop_walk(a, "Stopped.");
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

/* --keys: one key a line, '#' comments, read whole into a->script before
 * the state directory is touched, so a bad file changes nothing there (a
 * --seed game in progress is not kept aside, no save is written). Returns
 * 0, 1 when it cannot be read, 2 for a bad line (the user's mistake); the
 * line is said in the log. */
static int read_script(struct app *a)
{
	FILE *f = fopen(a->cfg->keys, "r");
	if (!f) {
		log_error("cannot read keys file %s: %s", a->cfg->keys, strerror(errno));
		return 1;
	}
	int lineno = 0, status = 0, rc;
	size_t cap = 0;
	uint32_t key;
	while ((rc = keyfile_next(f, a->cfg->keys, &lineno, &key)) != 0) {
		if (rc < 0) {
			/* a bad line is the user's mistake (2), a read error not (1) */
			status = rc == -EINVAL || rc == -E2BIG || rc == -EILSEQ ? 2 : 1;
			break;
		}
		if (a->nscript == cap) {
			size_t nc = cap ? cap * 2 : 256;
			uint32_t *p = realloc(a->script, nc * sizeof *p);
			if (!p) {
				log_error("keys file %s: out of memory at line %d", a->cfg->keys, lineno);
				status = 1;
				break;
			}
			a->script = p;
			cap = nc;
		}
		a->script[a->nscript++] = key;
	}
	fclose(f);
	return status;
}

/* Every key of the script handled and drawn in turn; the frame after the
 * last one stays for --screenshot. */
static int run_script(struct app *a)
{
	for (size_t i = 0; i < a->nscript && !a->quit; i++) {
		struct in_event ev = { .type = EV_KEY_PRESS, .key = a->script[i], .from = DEV_SCRIPT };
		on_event(a, &ev);
		/* watching: a key is followed by one second's play (VIEW_RATE
		 * commands at 1x), unless paused: the script's own clock */
		if (a->view && a->ui.screen == UI_VIEW && !a->ui.view.paused)
			view_play(a, VIEW_RATE * a->ui.view.speed);
		if (frame(a))
			return 1;
	}
	return 0;
}

/* The signals read (contract in appstate.h). */
void on_signal(struct app *a)
{
	struct signalfd_siginfo si;
	while (read(a->sfd, &si, sizeof si) == (ssize_t)sizeof si) {
		if (!a->disp && (si.ssi_signo == SIGWINCH || si.ssi_signo == SIGTSTP || si.ssi_signo == SIGCONT))
			continue; /* no display to size or give back (a failed opening, --state-wait) */
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
		case SIGTSTP:
			on_stop(a);
			break;
		case SIGCONT:
			on_continue(a);
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
	int rc = input_open(&a->input, a->cfg->gamepad_db, a->ops->name);
	if (rc == 0)
		set_pointer_space(a);
	return rc;
}

/* The mouse pointer moves over the console in unscaled font pixels. */
static void set_pointer_space(struct app *a)
{
	const struct font *f = drawn_font(a);
	if (!f)
		return; /* the terminal: no devices of its own, no font */
	input_pointer_space(&a->input, a->con->w * f->cell_w, a->con->h * f->cell_h, f->cell_w, f->cell_h);
}

/* Our VT is being switched away: give up the display and the devices, then
 * let the switch happen. */
static void on_vt_release(struct app *a)
{
	if (a->suspended)
		return;
	session_save(&a->session, a->game, &a->ui); /* the VT switched away may never come back */
	if (a->walk.kind != WALK_NONE)
		stop_walk(a, "Stopped.");
	if (demo_running(&a->demo))
		end_demo(a);
	input_grab(&a->input, false);
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
	if (a->blank.on)
		blank_off(&a->blank, a->ops, a->disp, a->con); /* someone switched back: they are here */
	a->last_input = wake_now_ms(&a->wake);
	input_grab(&a->input, true);
	con_damage_all(a->con);
	log_info("VT acquired");
}

/* SIGTSTP (in the terminal: Ctrl+Z, kill or a job-control tool): save,
 * give the terminal back as it was (its settings, the normal screen), then
 * stop. SIGCONT resumes (on_continue). */
static void on_stop(struct app *a)
{
	if (!a->stopped) {
		session_save(&a->session, a->game, &a->ui); /* a stopped game may be killed */
		if (a->walk.kind != WALK_NONE)
			stop_walk(a, "Stopped.");
		if (a->ops->suspend)
			a->ops->suspend(a->disp);
		a->stopped = true;
		log_info("stopped (SIGTSTP)");
	}
	raise(SIGSTOP);
}

/* SIGCONT: take the terminal again and redraw all of it. After a stop that
 * on_stop did not see (SIGSTOP cannot be caught), whoever ran the terminal
 * meanwhile (a shell's job control) may have changed its settings and
 * screen: it is given back and taken again, which reads its settings anew. */
static void on_continue(struct app *a)
{
	if (!a->stopped && a->ops->suspend)
		a->ops->suspend(a->disp);
	a->stopped = false;
	if (a->ops->resume)
		a->ops->resume(a->disp);
	log_info("continued (SIGCONT)");
	struct in_event ev = { .type = EV_RESIZE }; /* the size may have changed too */
	on_event(a, &ev);
}

/* An input event in the loop; false once the program is to quit. */
static bool input_event(void *ctx, const struct in_event *ev)
{
	struct app *a = ctx;
	on_event(a, ev);
	return !a->quit;
}

/* ------------------------------------------------------------------ */
/* watching and being watched (docs/watch.md) */

/* The interactive loop: sleeps in poll() until a signal or input arrives;
 * never wakes up on its own. */
static int run_loop(struct app *a)
{
	a->last_input = wake_now_ms(&a->wake);
	if (a->idle.attract_s > 0 || a->idle.blank_s > 0) {
		int rc = wake_open(&a->wake);
		if (rc)
			log_error("cannot create a timer: %s (no attract mode or screen blanking)", strerror(-rc));
	}
	while (!a->quit) {
		if (!a->suspended && !a->stopped && frame(a))
			return 1;
		watch_pub_flush(a->pub, shown_ui(a), shown_game(a));
		arm_timer(a);
		struct pollfd pfd[MAX_FDS];
		int nfd = 0;
		pfd[nfd++] = (struct pollfd){ .fd = a->sfd, .events = POLLIN };
		int fds[MAX_FDS];
		int nd = a->ops->poll_fds(a->disp, fds, MAX_FDS / 4);
		for (int i = 0; i < nd; i++)
			pfd[nfd++] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
		int ni = input_poll_fds(&a->input, fds, MAX_FDS - nfd);
		for (int i = 0; i < ni; i++)
			pfd[nfd++] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
		/* the timer is armed only when something is due: idle stays idle */
		if (a->wake.fd >= 0 && nfd < MAX_FDS)
			pfd[nfd++] = (struct pollfd){ .fd = a->wake.fd, .events = POLLIN };
		if (a->wake.clock_fd >= 0 && nfd < MAX_FDS) /* a test's clock (PIROGUE_IDLE_CLOCK) */
			pfd[nfd++] = (struct pollfd){ .fd = a->wake.clock_fd, .events = POLLIN };
		nfd += watch_pub_poll_fds(a->pub, pfd + nfd, MAX_FDS - nfd);
		if (a->watching && nfd < MAX_FDS)
			pfd[nfd++] = (struct pollfd){ .fd = a->watcher.fd, .events = POLLIN };
		if (a->watching && watcher_poll_fd(&a->watcher) >= 0 && nfd < MAX_FDS) /* the ring's wake-ups */
			pfd[nfd++] = (struct pollfd){ .fd = watcher_poll_fd(&a->watcher), .events = POLLIN };
		/* the watchers' checksum when nothing else is to be done (the
		 * frame presented, the watchers flushed, nothing ready): a key
		 * there first is served first, so its cost never delays a turn
		 * or a frame; then the same descriptors waited on, since the
		 * checksum changed nothing to draw or to poll (a frame drawn
		 * again would cost a watched key ~3,000 instructions) */
		int rc;
		while ((rc = poll(pfd, (nfds_t)nfd, watch_pub_check_due(a->pub) ? 0 : -1)) == 0)
			watch_pub_check(a->pub, shown_game(a));
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
			if (pfd[i].fd == a->wake.fd) {
				on_timer(a);
				continue;
			}
			if (pfd[i].fd == a->wake.clock_fd) {
				wake_clock_moved(&a->wake); /* a deadline it passed comes at once */
				continue;
			}
			if (a->watching && (pfd[i].fd == a->watcher.fd || pfd[i].fd == watcher_poll_fd(&a->watcher))) {
				on_watched(a);
				continue;
			}
			if (i > nd && watch_pub_owns(a->pub, pfd[i].fd)) {
				watch_pub_dispatch(a->pub, pfd[i].fd, pfd[i].revents);
				continue;
			}
			if (i > nd) {
				input_dispatch(&a->input, pfd[i].fd, input_event, a);
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
	ui_drawn_forget(a->drawn);
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
	session_save(&a->session, a->game, &a->ui); /* quitting, SIGTERM, SIGHUP, SIGINT, a failure */
	uint64_t sum;
	if (a->watching && a->watcher.checks && watcher_checksum(&a->watcher, &sum) == 0)
		log_info("watched %s: %ld checksums compared, %ld mismatches; last checked turn %d checksum %016llx",
			 a->watcher.who, a->watcher.checks, a->watcher.mismatches, a->watcher.last_turn,
			 (unsigned long long)sum);
	else if (a->watching && a->watcher.checks)
		log_info("watched %s: %ld checksums compared, %ld mismatches; last checked turn %d digest %016llx",
			 a->watcher.who, a->watcher.checks, a->watcher.mismatches, a->watcher.last_turn,
			 (unsigned long long)a->watcher.last_sum);
	session_close(&a->session);
	watch_pub_close(a->pub);
	watcher_close(&a->watcher);
	game_destroy(a->game);
	view_close(a->view);
	demo_end(&a->demo);
	input_close(&a->input);
	if (a->disp)
		a->ops->close(a->disp);
	vt_close(a->vt); /* text mode and keyboard back, after the CRTC */
	con_destroy(a->con);
	con_destroy(a->scratch);
	free(a->drawn);
	free(a->script);
	font_destroy(a->font);
	font_cands_clear(&a->fonts);
	font_tilesets_clear(&a->tiles);
	if (a->sfd >= 0)
		close(a->sfd);
	wake_close(&a->wake);
}

int app_run(const struct app_config *cfg)
{
	struct app a = { .cfg = cfg, .sfd = -1, .wake = WAKE_INIT, .step_at = -1, .watcher.fd = -1 };
	struct pathwait sw = PATHWAIT_INIT;
	int rc = 0;
	a.ui.hover_x = a.ui.hover_y = -1;
	if (take_config(&a, cfg))
		return 2;
	if (cfg->idle_clock) {
		char why[PATH_MAX + 128];
		if (wake_clock_open(&a.wake, cfg->idle_clock, why, sizeof why)) {
			log_error("%s", why);
			return 2;
		}
	}
	/* a recording to watch is read first: a bad one is its one line, not a
	 * display's */
	if (cfg->view && view_start(&a, cfg->view, UI_SCREEN_COUNT)) {
		a.status = 1;
		goto out;
	}
	if (cfg->watch) {
		/* the game to watch first: none, and nothing is opened */
		char path[4096], why[512];
		if (watcher_path(cfg->watch_socket, path, sizeof path, why, sizeof why) ||
		    watcher_connect(&a.watcher, path, why, sizeof why)) {
			log_error("%s", why);
			a.status = 1;
			goto out;
		}
		a.watching = true;
		a.watcher.binds = &a.binds;
		a.idle.attract_s = a.idle.blank_s = 0;
	}
	/* --state-wait: watched from before the display opens, so that its
	 * file's appearance is not missed */
	if (cfg->state_wait && cfg->restate && (rc = pathwait_open(&sw, cfg->state_wait))) {
		log_error("cannot wait for %s (--state-wait): %s (give it a file in an existing folder)", cfg->state_wait,
			  strerror(-rc));
		a.status = 2;
		goto out;
	}
	rc = open_display(&a);
	bool waited = sw.fd >= 0; /* after_state logged the layout */
	if (waited) {
		rc = after_state(&a, &sw, rc);
		cfg = a.cfg;
		if (a.quit)
			goto out;
	}
	if (rc || size_consoles(&a)) {
		a.status = rc == 1 ? 2 : 1;
		goto out;
	}
	if (!waited)
		log_layout(&a);
	a.watcher.no_keys = a.bare; /* no VT, no devices of its own: open_display */
	if (a.watching) {
		/* until the game ends or q: no game of our own, nothing saved */
		if (open_signals(&a))
			a.status = 1;
		else if (run_loop(&a))
			a.status = 1; /* else what the stream's end left (on_watched) */
		/* the copy as the stream left it (its end may have come with the
		 * last commands, after the last frame): what --screenshot shows */
		if (!a.status && cfg->screenshot && frame(&a))
			a.status = 1;
	} else if (cfg->replay) {
		a.status = replay(&a);
	} else if (cfg->view) {
		/* watching a recording: no game of one's own, nothing saved */
		ui_drawn_forget(a.drawn);
		if (cfg->keys) {
			if ((a.status = read_script(&a)) != 0)
				goto out;
			a.status = frame(&a) ? 1 : run_script(&a);
			/* where the keys left it (the tests read it) */
			const struct ui_view *u = &a.ui.view;
			printf("watched %s to command %zu of %zu, turn %d of %d, at %dx%s\n", u->name, u->at, u->count,
			       u->turn, u->end_turn, u->speed, a.view ? u->paused ? ", paused" : "" : ", stopped");
			fflush(stdout);
		} else if (!strcmp(a.ops->name, "headless")) {
			a.status = frame(&a) ? 1 : 0;
		} else {
			if (open_signals(&a) || (a.bare && open_input(&a))) {
				a.status = 1;
				goto out;
			}
			a.status = run_loop(&a);
		}
	} else {
		if (cfg->keys && (a.status = read_script(&a)) != 0)
			goto out;
		if (cfg->has_seed && new_game(&a)) {
			a.status = 1;
			goto out;
		}
		if (session_open(&a.session, cfg->state_dir, cfg->keys || !strcmp(a.ops->name, "headless"), &a.game,
				 &a.ui)) {
			a.status = 1;
			goto out;
		}
		if (cfg->daily && a.game) {
			/* a game in progress would be lost to it: said, nothing done */
			log_error("a game is in progress in %s: continue it (or end it) before --daily", a.session.state_dir);
			a.status = 1;
			goto out;
		}
		if (cfg->daily) {
			int drc = session_daily(&a.session, &a.game, &a.ui);
			if (drc) {
				if (drc == 1)
					log_error("%s", a.ui.notice);
				a.status = 1;
				goto out;
			}
			a.ui.notice[0] = 0;
			a.ui.screen = UI_PLAY;
			a.ui.can_continue = true;
		}
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
			a.live = true;
			start_publishing(&a);
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
	pathwait_close(&sw);
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
		if (input_list(stdout, cfg->gamepad_db))
			status = 1;
	}
	fflush(stdout);
	return status;
}
