/* walk: auto-explore and travel to the stairs — one step at a time, each asked of the game and given through the ui host as the move it is (so it is recorded), until something happens. */
#ifndef PIROGUE_APP_WALK_H
#define PIROGUE_APP_WALK_H
#include <stdbool.h>
#include "game/game.h"
#include "ui/ui.h"

/* The time between two steps the loop takes (a person sees each). */
#define WALK_STEP_MS 60

enum walk_kind { WALK_NONE, WALK_EXPLORE, WALK_DOWN, WALK_UP };

/* Zero is no walk. */
struct walk {
	enum walk_kind kind; /* the walk going on, WALK_NONE when none */
	unsigned pickup;     /* GAME_PICKUP_* bits auto-explore picks up (game_explore_pickup_step) */
};

/* Starts a walk of kind on g (ui: the player's screens, host: where its
 * commands go) with its first step; at_once (a script, a run with no loop)
 * walks every step now, up to 100,000. Refused at once because a monster
 * is in view, the reason gets " Deal with it first." ("You see an orc.
 * Deal with it first."). Returns true when the walk goes on
 * and the caller takes the next step with walk_step, WALK_STEP_MS later;
 * false when it has stopped, or was walked at once. */
bool walk_start(struct walk *w, enum walk_kind kind, bool at_once, struct game *g, struct ui *ui,
		const struct ui_host *host);

/* One step: the game's next step of the walk, given to host->command, then
 * ui_after_command. Returns true while the walk goes on. It stops (kind
 * WALK_NONE, false) with the game's reason in ui->status ("You see an
 * orc.", "Explored this floor."), "Something is in the way." when the
 * step took no turn, or silently when there is no game, the game is over,
 * the play screen is not in front, or the step brought a death or a
 * level-up to choose. */
bool walk_step(struct walk *w, struct game *g, struct ui *ui, const struct ui_host *host);

/* Stops the walk; why (NULL: nothing) goes to ui->status. */
void walk_stop(struct walk *w, struct ui *ui, const char *why);

#endif
