#include "app/walk.h"
#include <stdio.h>
#include <string.h>

void walk_stop(struct walk *w, struct ui *ui, const char *why)
{
	if (why)
		snprintf(ui->status, sizeof ui->status, "%s", why);
	w->kind = WALK_NONE;
}

bool walk_step(struct walk *w, struct game *g, struct ui *ui, const struct ui_host *host)
{
	struct command step;
	char why[128];
	if (!g || game_is_over(g) || ui->screen != UI_PLAY) {
		walk_stop(w, ui, NULL);
		return false;
	}
	int r = w->kind == WALK_EXPLORE ? game_explore_pickup_step(g, w->pickup, &step, why, sizeof why)
					: game_travel_step(g, w->kind == WALK_DOWN, &step, why, sizeof why);
	if (r != 1) {
		walk_stop(w, ui, why);
		return false;
	}
	int turn = host->command(host->ctx, &step);
	ui_after_command(ui, g);
	if (ui->screen != UI_PLAY) {
		walk_stop(w, ui, NULL); /* died, or a level-up to choose */
		return false;
	}
	if (!turn) {
		walk_stop(w, ui, "Something is in the way.");
		return false;
	}
	return true;
}

bool walk_start(struct walk *w, enum walk_kind kind, bool at_once, struct game *g, struct ui *ui,
		const struct ui_host *host)
{
	w->kind = kind;
	ui->status[0] = 0;
	if (!walk_step(w, g, ui, host)) {
		/* refused at once for a monster in view: pressing the key again
		 * would only say the same, so say what to do */
		int mx, my;
		size_t n = strlen(ui->status);
		if (g && !game_is_over(g) && ui->screen == UI_PLAY && game_nearest_monster(g, &mx, &my) == 0 &&
		    !strncmp(ui->status, "You see ", 8) && ui->status[n - 1] == '.')
			snprintf(ui->status + n, sizeof ui->status - n, " Deal with it first.");
		return false;
	}
	if (at_once) {
		for (int i = 0; i < 100000 && walk_step(w, g, ui, host); i++)
			;
		return false;
	}
	return true;
}
