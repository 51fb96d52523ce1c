/* demo: attract mode's game — a game of its own, played by idle.h's bot on its own screen, never saved, scored, recorded or given a morgue; seeds 1, 2, 3... in turn. */
#ifndef PIROGUE_APP_DEMO_H
#define PIROGUE_APP_DEMO_H
#include <stdbool.h>
#include <stdint.h>
#include "game/game.h"
#include "ui/ui.h"

/* Moves of one demo game before the next one takes over (its history would
 * only grow). */
#define DEMO_MOVES_MAX 5000

/* Zero is no demo yet (the first one gets seed 1). */
struct demo {
	struct game *game;  /* the demo's game, NULL while none runs */
	struct ui ui;       /* its play screen (the player's ui is left as it was) */
	uint64_t seed;      /* the seed of the last demo game made */
	int moves;          /* moves of this demo game */
	struct command last; /* the move demo_step made last (a watcher is sent it) */
	int mapgen;         /* the map generator of the demo games */
	const struct bindings *binds;
};

/* Starts a demo game with the next seed on mapgen (an enum mapgen_kind),
 * its screen drawn with binds (NULL: the defaults), ending the one running.
 * Returns 0, or a negative errno having logged one line (no demo runs). */
int demo_start(struct demo *d, int mapgen, const struct bindings *binds);

/* One move of the bot in the running demo (kept in d->last); a finished
 * demo game, or one of DEMO_MOVES_MAX moves, makes way for the next. Returns 0, or the negative
 * errno of demo_start when the next could not be made (no demo runs). */
int demo_step(struct demo *d);

/* True while a demo game runs. */
bool demo_running(const struct demo *d);

/* Ends the running demo, if any (the seed goes on counting). */
void demo_end(struct demo *d);

#endif
