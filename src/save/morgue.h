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
/* The same with the player's name on a "Name:" line (cleaned by
 * scores_clean_name; NULL or "": no line). */
size_t morgue_text_named(const struct game *g, int64_t when, const char *recording, const char *player, char *buf,
			 size_t len);

/* The file of the state directory holding the last name given
 * (morgue_set_name), offered first at the next high score. */
#define MORGUE_NAME_FILE "name"

/* A finished game (over, or a victory), crash-safe in four steps, each
 * done again harmlessly by the next start when a crash stops the end:
 * 1. g replaces the save (save_game_ended, its modification time = when),
 *    so a crash from here on leaves a finished game there, never the last
 *    save of the living one (that would bring the dead game back);
 * 2. dir/morgue/morgue-DATE-SEED.txt and, beside it, .rec (the whole game's
 *    recording, replayable with --replay even when the game was saved and
 *    continued; written in place: one cut short by a kill lacks its end
 *    line, which --replay refuses), the text atomically (morgue_write_files);
 * 3. its score added to the high-score table unless already there
 *    (morgue_add_score);
 * 4. the save deleted (permadeath), also when something before failed (a
 *    dead game is never continued).
 * Steps 2-4 are morgue_finish, which the next start runs on a save holding
 * a finished game with when = save_end_time: the same file names and score
 * entry, so nothing is lost or kept twice. name (namelen bytes) gets the
 * morgue file's path. *rank gets the score's rank in the table (0..9) or
 * -1. Returns 0, or the first -errno (each failure logged in one line). */
int morgue_game_over(const char *dir, const struct game *g, int64_t when, char *name, size_t namelen, int *rank);

/* Steps 2-4 of morgue_game_over: for a finished game found in the save at
 * the start (a crash stopped its end), when being save_end_time. Same
 * arguments and returns. */
int morgue_finish(const char *dir, const struct game *g, int64_t when, char *name, size_t namelen, int *rank);

/* Step 2 of morgue_game_over: the morgue file and its recording (written
 * over those of the same game and when, if any). name as there. Returns 0
 * or the first -errno (logged). */
int morgue_write_files(const char *dir, const struct game *g, int64_t when, char *name, size_t namelen);

/* Step 3 of morgue_game_over: adds g's score (scores_of with when) to dir's
 * table, unless an entry of the same seed, end, turns, score, depth and
 * level is there already (added before a crash): then returns its rank.
 * Returns the rank (0..9), -1 when it does not make the table, or -errno
 * (scores_add). */
int morgue_add_score(const char *dir, const struct game *g, int64_t when);

/* The recording of the game of seed that ended at when, as
 * morgue_game_over names it (dir/morgue/morgue-DATE-SEED.rec), into buf:
 * 0, or -ENAMETOOLONG. */
int morgue_rec_path(const char *dir, uint64_t seed, int64_t when, char *buf, size_t len);

/* The high-score table g's score goes to: SCORES_DAILY_FILE for the daily
 * game noted in dir (daily_is), else SCORES_FILE. */
const char *morgue_table(const char *dir, const struct game *g);

/* After the end of g (when as given to morgue_game_over): gives it the
 * player's name (cleaned by scores_clean_name): its morgue file rewritten
 * with a "Name:" line, its score entry named, and the name kept as the last
 * one (MORGUE_NAME_FILE). Returns 0 or the first -errno (logged). */
int morgue_set_name(const char *dir, const struct game *g, int64_t when, const char *name);

/* The last name given in dir (cleaned), "" when none; out holds
 * SCORES_NAME_MAX + 1 bytes. */
void morgue_last_name(const char *dir, char *out);

/* Removes the temporary files a morgue file's write killed before its
 * rename left in dir/morgue (save_remove_temps); called when the state
 * directory is opened. */
void morgue_tidy(const char *dir);

#endif
