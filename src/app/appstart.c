/* The program's start-up before its loop: the configuration's settings
 * taken into the app, and with --state-wait the display opened before the
 * state directory is there, the state waited for, its settings taken and
 * the display opened again when they change it (app_run). */
#include "app/appstate.h"
#include "core/log.h"
#include <string.h>

/* The settings the app keeps (contract in appstate.h). */
int take_config(struct app *a, const struct app_config *cfg)
{
	a->cfg = cfg;
	options_init(a);
	if (a->watching)
		a->idle.attract_s = a->idle.blank_s = 0; /* a watcher shows the game, never a demo */
	if (cfg->bindings)
		a->binds = *cfg->bindings;
	else
		bind_defaults(&a->binds);
	a->ui.binds = &a->binds;
	a->ui.kiosk = cfg->kiosk;
	a->mapgen = MAPGEN_CLASSIC;
	if (cfg->mapgen && mapgen_parse(cfg->mapgen, &a->mapgen)) {
		log_error("unknown map generator '%s' (classic or overlap)", cfg->mapgen);
		return 2;
	}
	a->map_w = cfg->map_w;
	a->map_h = cfg->map_h;
	a->seeded = cfg->has_seed;
	a->next_seed = cfg->seed;
	a->session.record = cfg->record;
	a->session.has_now = cfg->has_now;
	a->session.now = cfg->now;
	return 0;
}

/* The display before the state (contract in appstate.h). */
int after_state(struct app *a, struct pathwait *w, int rc)
{
	const struct app_config *was = a->cfg;
	if (!rc && (rc = size_consoles(a)) == 0)
		log_layout(a);
	if (rc)
		close_display(a); /* tried again once the state's settings are read */
	else if (open_signals(a)) {
		a->quit = true;
		a->status = 1;
		return rc;
	}
	if (!pathwait_there(w))
		log_error("waiting for %s before using the state directory (--state-wait)", w->path);
	while (!a->quit) {
		int wr = pathwait_wait(w, a->sfd);
		if (wr == 0)
			break;
		if (wr < 0) {
			log_error("cannot wait for %s (%s): using the state directory as it is", w->path, strerror(-wr));
			break;
		}
		on_signal(a);
	}
	pathwait_close(w);
	if (a->quit)
		return rc;
	log_info("%s is there: reading the state directory", w->path);
	int status = 0;
	const struct app_config *now = was->restate(&status);
	if (!now || take_config(a, now)) {
		a->quit = true;
		a->status = now ? 2 : status;
		return rc;
	}
	if (!display_config_differs(was, now))
		return rc; /* the display as it was opened (or its failure) stands */
	if (!rc) {
		log_info("the state directory's settings change the display: opening it again");
		close_display(a);
	}
	if (!(rc = open_display(a)) && !(rc = size_consoles(a)))
		log_layout(a);
	return rc;
}
