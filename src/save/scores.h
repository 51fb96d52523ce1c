/* scores: the top-10 high-score table in the state directory (text, checksummed, written atomically). */
#ifndef PIROGUE_SAVE_SCORES_H
#define PIROGUE_SAVE_SCORES_H
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

#define SCORES_FILE "scores"
#define SCORES_DAILY_FILE "scores-daily" /* the daily games' own table */
#define SCORES_MAX 10
#define SCORES_CAUSE_LEN 48
#define SCORES_NAME_MAX 12 /* characters of a player's name */

/* One finished game. */
struct score {
	long score;                   /* scores_of: see docs/rules.md */
	int depth;                    /* deepest floor reached */
	int turns, level;
	uint64_t seed;
	int64_t when;                 /* end of the game, seconds since 1970 (UTC) */
	char cause[SCORES_CAUSE_LEN]; /* "killed by a troll" */
	char name[SCORES_NAME_MAX + 1]; /* who played it ("" not given): printable ASCII only */
};

struct score_table {
	int n; /* entries, best first */
	struct score e[SCORES_MAX];
};

/* The score of a finished game g (docs/rules.md "Score"): its entry, with
 * when = the given time. */
void scores_of(const struct game *g, int64_t when, struct score *out);

/* A name as it is kept and shown, from any bytes (in, inlen): printable
 * ASCII (0x20-0x7E) kept, control bytes dropped, every other byte (UTF-8
 * included) a '?', blanks at both ends trimmed, at most SCORES_NAME_MAX
 * characters; into out (SCORES_NAME_MAX + 1 bytes). */
void scores_clean_name(const char *in, size_t inlen, char *out);

/* Reads dir/SCORES_FILE into t. Returns 0 (an empty table when there is no
 * file yet), or -EINVAL with one line in why naming the file and what is
 * wrong (t is then empty), or another -errno with why saying so. */
int scores_load(const char *dir, struct score_table *t, char *why, size_t whylen);

/* Inserts s into t in order (best first; a tie goes below the older entry);
 * returns its rank 0..SCORES_MAX-1, or -1 when it does not make the table. */
int scores_insert(struct score_table *t, const struct score *s);

/* Writes t as dir/SCORES_FILE atomically. Returns 0 or -errno (logged). */
int scores_save(const char *dir, const struct score_table *t);

/* Adds s to the table in dir: loads it (a damaged or unreadable table is
 * renamed aside to SCORES_FILE.bad-..., logged, and a new one started; one
 * that cannot be renamed is left alone and nothing is written), inserts,
 * writes.
 * Returns the rank (0..9), -1 when s did not make the table, or -errno. */
int scores_add(const char *dir, const struct score *s);

/* The same three for the table dir/file (SCORES_FILE or SCORES_DAILY_FILE). */
int scores_load_file(const char *dir, const char *file, struct score_table *t, char *why, size_t whylen);
int scores_save_file(const char *dir, const char *file, const struct score_table *t);
int scores_add_file(const char *dir, const char *file, const struct score *s);

/* The entry of t that is the game s (the same seed, end, turns, score,
 * depth and level), or -1. */
int scores_find(const struct score_table *t, const struct score *s);

/* Gives the game s's entry in dir/file the name (cleaned by
 * scores_clean_name) and writes the table. Returns its rank, -1 when the
 * game is not in the table, or -errno (logged). */
int scores_set_name(const char *dir, const char *file, const struct score *s, const char *name);

#endif
