/* The recording viewer's pace and controls on the app's state: ticks of
 * the timer (or a script's keys) play the view (view.h), the top line
 * follows it. */
#include "app/appstate.h"
#include "core/log.h"
#include <stdio.h>
#include <string.h>

/* The time between two ticks of play and the commands a tick plays, at
 * speed (VIEW_RATE commands a second at 1x). */
int view_tick_ms(int speed)
{
	return speed <= 8 ? 1000 / VIEW_RATE / speed : 1000 / VIEW_RATE / 8;
}

int view_per_tick(int speed)
{
	return speed <= 8 ? 1 : speed / 8;
}

/* The line on top from where the view stands. */
static void view_sync(struct app *a)
{
	struct ui_view *u = &a->ui.view;
	u->turn = view_turn(a->view);
	u->end_turn = view_end_turn(a->view);
	u->at = view_at(a->view);
	u->count = view_count(a->view);
	if (u->at >= u->count)
		u->paused = true; /* the end: it stays there */
}

/* Arms the next tick while it plays (the timer and a script's keys alike). */
void view_arm(struct app *a)
{
	if (!a->view || a->ui.screen != UI_VIEW)
		return;
	if (a->ui.view.paused)
		a->step_at = -1;
	else if (a->step_at < 0)
		a->step_at = wake_now_ms(&a->wake) + view_tick_ms(a->ui.view.speed);
}

/* Plays n commands (fewer at the end). */
void view_play(struct app *a, int n)
{
	for (int i = 0; i < n && view_step(a->view); i++)
		;
	view_sync(a);
	ui_drawn_forget(a->drawn);
}

/* Starts watching path; back: the screen stopping returns to
 * (UI_SCREEN_COUNT: stopping ends the program). Returns 0, or -errno with
 * the one line why logged (and on the screens' status line). */
int view_start(struct app *a, const char *path, enum ui_screen back)
{
	char err[512];
	struct view *v;
	int rc = view_open(&v, path, VIEW_EVERY, err, sizeof err);
	if (rc) {
		log_error("%s", err);
		snprintf(a->ui.status, sizeof a->ui.status, "%.*s", (int)sizeof a->ui.status - 1, err);
		return rc;
	}
	view_close(a->view);
	a->view = v;
	a->view_back = back;
	a->view_acc = 0;
	const char *base = strrchr(path, '/');
	a->ui.view = (struct ui_view){ .speed = 1 };
	snprintf(a->ui.view.name, sizeof a->ui.view.name, "%s", base ? base + 1 : path);
	a->ui.screen = UI_VIEW;
	a->ui.status[0] = 0;
	a->ui.hover_x = a->ui.hover_y = -1;
	view_sync(a);
	ui_drawn_forget(a->drawn);
	a->step_at = -1;
	view_arm(a);
	return 0;
}

void stop_watching(struct app *a)
{
	view_close(a->view);
	a->view = NULL;
	a->step_at = -1;
	ui_drawn_forget(a->drawn);
	if (a->view_back == UI_SCREEN_COUNT) {
		a->quit = true;
		return;
	}
	a->ui.screen = a->view_back;
}

void view_jump(struct app *a, int turns)
{
	int to = view_turn(a->view) + turns;
	if (view_seek_turn(a->view, to < 0 ? 0 : to) < 0)
		snprintf(a->ui.status, sizeof a->ui.status, "The jump failed: out of memory.");
	view_sync(a);
	ui_drawn_forget(a->drawn);
}
