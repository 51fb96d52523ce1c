/* mkstate: writes a state directory holding a save of a game in a given
 * state, for the golden frames of the screens that a few keys cannot
 * reach (tests/frames.list: --state-dir @KIND). The game is seed 7's,
 * changed through the game's own world functions:
 *
 *   mkstate items DIR     one of every item kind carried (scrolls, potion,
 *                         sword, chain mail beside the dagger and armour)
 *   mkstate levelup DIR   enough experience for a level-up to be chosen
 *   mkstate dying DIR     tests/recordings/die.rec played up to the
 *                         command before the player's death (a troll
 *                         beside the player: waiting a turn dies), and a
 *                         high-score table of three earlier games
 *
 * The history in the items and levelup saves does not replay to them (they
 * were not played): they are fixtures for the screens, not games. The
 * dying one was played, so its morgue recording replays. */
#include "game/world.h"
#include "save/record.h"
#include "save/save.h"
#include "save/scores.h"
#include <stdio.h>
#include <string.h>

static int usage(void)
{
	fprintf(stderr, "usage: mkstate items|levelup|dying DIR\n");
	return 2;
}

/* Every item kind not carried yet, picked up from the player's cell. */
static int give_items(struct game *g)
{
	int px, py;
	game_player_pos(g, &px, &py);
	for (int k = 0; k < ITEM_COUNT; k++) {
		if (k == ITEM_DAGGER || k == ITEM_LEATHER_ARMOUR)
			continue;
		if (world_spawn_item(g, k, g->depth, px, py, NULL))
			return -1;
	}
	struct command pick = { .c = CMD_PICKUP, .item = -1, .x = -1, .y = -1, .choice = -1 };
	game_do(g, &pick);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return usage();
	const char *kind = argv[1], *dir = argv[2];
	struct game *g;
	struct game_opts o = { .seed = 7, .mapgen = MAPGEN_CLASSIC };
	if (game_create(&g, &o))
		return 1;
	int rc = 0;
	if (!strcmp(kind, "items")) {
		rc = give_items(g);
	} else if (!strcmp(kind, "levelup")) {
		struct c_player *pl = ecs_get_mut(g->w, g->player, COMP_PLAYER);
		struct game_stats s;
		game_stats(g, &s);
		pl->xp = s.xp_next;
	} else if (!strcmp(kind, "dying")) {
		/* the recorded game up to (not including) the command it died by */
		struct recording r;
		char err[256];
		size_t fatal = 0;
		if (rec_load("tests/recordings/die.rec", &r, err, sizeof err)) {
			fprintf(stderr, "mkstate: %s\n", err);
			return 1;
		}
		game_destroy(g);
		o.seed = r.seed; /* the recording's generator is the classic one */
		if (game_create(&g, &o)) {
			rec_free(&r);
			return 1;
		}
		for (size_t i = 0; i < r.nsteps && !game_is_over(g); i++) {
			game_do(g, &r.steps[i].cmd);
			fatal = i;
		}
		game_destroy(g);
		if (game_create(&g, &o)) {
			rec_free(&r);
			return 1;
		}
		for (size_t i = 0; i < fatal; i++)
			game_do(g, &r.steps[i].cmd);
		rec_free(&r);
		rc = game_is_over(g) ? -1 : 0;
		static const struct score earlier[] = {
			{ .score = 4210, .depth = 5, .turns = 1320, .level = 4, .seed = 11, .when = 1764460800,
			  .cause = "killed by a troll" },
			{ .score = 1650, .depth = 3, .turns = 610, .level = 2, .seed = 12, .when = 1764374400,
			  .cause = "killed by an orc" },
			{ .score = 240, .depth = 1, .turns = 95, .level = 1, .seed = 13, .when = 1764288000,
			  .cause = "killed by your own fireball" },
		};
		for (size_t i = 0; i < sizeof earlier / sizeof earlier[0] && !rc; i++)
			if (scores_add(dir, &earlier[i]) < 0)
				rc = -1;
	} else {
		game_destroy(g);
		return usage();
	}
	if (rc || save_make_dir(dir) || save_game(dir, g)) {
		fprintf(stderr, "mkstate: cannot make the %s state in %s\n", kind, dir);
		game_destroy(g);
		return 1;
	}
	game_destroy(g);
	return 0;
}
