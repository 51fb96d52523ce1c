/* morgue: what is kept of a finished game: a text morgue file and its recording in the state directory's morgue/, its high score, the save deleted. */
#ifndef PIROGUE_SAVE_MORGUE_H
#define PIROGUE_SAVE_MORGUE_H
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

#define MORGUE_DIR "morgue"
/* Messages and map area the morgue file shows. */
#define MORGUE_MESSAGES 20
#define MORGUE_MAP_W 41
#define MORGUE_MAP_H 21
/* The morgue's recording has a checksum on every this many commands (and
 * its end line): a divergence is found within that many, and a long game's
 * recording is written in a fraction of the time (bench/bench_save). */
#define MORGUE_REC_SUM_EVERY 10

/* Writes the morgue text of g into buf (len bytes, truncated; NUL ended):
 * seed, cause of death, depth, turns, level, stats, score, kills by kind,
 * inventory and equipment, the last MORGUE_MESSAGES messages and the map
 * around the player as text. when is the end of the game (seconds since
 * 1970, UTC); recording names the recording file beside it. Returns the
 * length the whole text needs (like snprintf). */
size_t morgue_text(const struct game *g, int64_t when, const char *recording, char *buf, size_t len);

/* A finished game (over, or a victory): writes dir/morgue/morgue-DATE-SEED.txt
 * and, beside it, .rec (the whole game's recording, replayable with --replay
 * even when the game was saved and continued; written in place: one cut
 * short by a kill lacks its end line, which --replay refuses), the text
 * atomically; adds its
 * score to the high-score table; then deletes the save (permadeath). name
 * (namelen bytes) gets the morgue file's path. *rank gets the score's rank
 * in the table (0..9) or -1. The save is deleted last, also when something
 * before failed (a dead game is never continued). Returns 0, or the first
 * -errno (each failure logged in one line). */
int morgue_game_over(const char *dir, const struct game *g, int64_t when, char *name, size_t namelen, int *rank);

/* Removes the temporary files a morgue file's write killed before its
 * rename left in dir/morgue (save_remove_temps); called when the state
 * directory is opened. */
void morgue_tidy(const char *dir);

#endif
