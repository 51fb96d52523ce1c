#include "app/demo.h"
#include "app/idle.h"
#include "core/log.h"
#include <stdio.h>

int demo_start(struct demo *d, int mapgen, const struct bindings *binds)
{
	demo_end(d);
	d->mapgen = mapgen;
	d->binds = binds;
	struct game_opts o = { .seed = ++d->seed, .mapgen = mapgen };
	int rc = game_create(&d->game, &o);
	if (rc) {
		log_error("attract mode: cannot start a demo game; the title stays");
		d->game = NULL;
		return rc;
	}
	d->ui = (struct ui){ .screen = UI_PLAY, .hover_x = -1, .hover_y = -1, .binds = binds, .score_rank = -1,
			    .demo = true };
	snprintf(d->ui.status, sizeof d->ui.status, "Demo - press any key");
	d->moves = 0;
	log_info("attract mode: demo game, seed %llu", (unsigned long long)o.seed);
	return 0;
}

int demo_step(struct demo *d)
{
	struct command c = idle_demo_command(d->game);
	game_do(d->game, &c);
	d->last = c;
	if (game_is_over(d->game) || ++d->moves >= DEMO_MOVES_MAX)
		return demo_start(d, d->mapgen, d->binds);
	return 0;
}

bool demo_running(const struct demo *d)
{
	return d->game != NULL;
}

void demo_end(struct demo *d)
{
	game_destroy(d->game);
	d->game = NULL;
}
