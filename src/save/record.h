/* record: recordings of a game (seed, generator, every command with its arguments and the state after it, an end line), written, read and replayed. */
#ifndef PIROGUE_SAVE_RECORD_H
#define PIROGUE_SAVE_RECORD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "game/game.h"

/* The file format (docs/save.md), one item a line, '#' starts a comment:
 *   pirogue-recording 3
 *   seed 12345
 *   mapgen classic
 *   size 120x60                 <- only for floors other than 80x43
 *   stacks 120                  <- stacks start after command 120, or
 *                                  "never"; without it: from the start
 *   move_n 1 8f1c0a3e5d2b7c44   <- command, turn after it, checksum after it
 *   use c 31,12 57 0123456789abcdef  <- arguments between: inventory slot
 *   drop a all 58                    (a..z), target cell x,y, level-up choice
 *   levelup power 58 ...             (hp, power, defense); the checksum may
 *   end 4 58 0123456789abcdef        be left out; the end line: commands,
 *                                    final turn and checksum.
 * A recording without its end line is incomplete (cut short) and refused.
 * "drop a" drops one of a stack, "drop a all" all of it. Formats 2 (no
 * stacks line: a game without stacks) and 1 (no arguments, no end line)
 * are still read. */
#define REC_MAGIC "pirogue-recording 3"
#define REC_MAGIC_V2 "pirogue-recording 2"
#define REC_MAGIC_V1 "pirogue-recording 1"

struct rec_writer;

/* Creates (truncates) path and writes the header. Returns 0 or a negative
 * errno after logging one line naming the file. */
int rec_writer_open(struct rec_writer **out, const char *path, uint64_t seed, const char *mapgen);
/* The same for a game made with o (its seed, generator and floor size). */
int rec_writer_open_opts(struct rec_writer **out, const char *path, const struct game_opts *o);
/* Appends one command with its arguments (a command out of range is written
 * as "none": neither changes anything) and the turn and checksum after it;
 * flushed at once so a crash loses nothing written before. Returns 0 or a
 * negative errno (logged once). */
int rec_writer_command(struct rec_writer *w, const struct command *c, int turn, uint64_t checksum);
/* Same, for a command without arguments. */
int rec_writer_add(struct rec_writer *w, enum cmd c, int turn, uint64_t checksum);
/* Writes the end line (the number of commands, the turn and checksum after
 * the last one) and closes the file; accepts NULL. */
void rec_writer_close(struct rec_writer *w);

/* Writes g's whole history (game_history, from its seed) into w, just
 * opened for g's seed and generator: each command with its arguments and
 * the turn after it (found by replaying it on a copy), checksums as for
 * rec_write_history. Then commands of g given later may be added: --record
 * of a continued game records it from its seed. Returns 0, -EIO when the
 * replay does not end in g's state (logged), or -errno (logged). */
int rec_writer_history(struct rec_writer *w, const struct game *g, int every_sum);

/* Writes g's whole history (game_history, from its seed) as a recording at
 * path, replaying it on a copy to find each command's turn; checksums on
 * every line when every_sum is 1, every every_sum-th command else (and the
 * end line always). Checks that the replay ends in g's state: returns 0, or
 * -EIO when it does not (a determinism bug, logged), or -errno after logging
 * one line. */
int rec_write_history(const char *path, const struct game *g, int every_sum);

struct rec_step {
	struct command cmd;
	int turn;
	bool has_sum;
	uint64_t checksum;
	int line; /* line number in the file, for messages */
};

struct recording {
	int version; /* 1, 2 or 3 */
	int stacks_from; /* struct game_opts: GAME_STACKS_NEVER for formats 1 and 2 */
	uint64_t seed;
	char mapgen[16];
	int map_w, map_h; /* the size line; 0, 0 when absent (80x43) */
	struct rec_step *steps;
	size_t nsteps;
	int end_turn; /* format 2: the end line */
	bool end_has_sum;
	uint64_t end_sum;
};

/* Reads a recording. On a malformed or incomplete file returns -EINVAL and
 * writes one line into err naming the file, the line and the problem;
 * -errno when it cannot be read. */
int rec_load(const char *path, struct recording *out, char *err, size_t errlen);
/* Frees what rec_load allocated; accepts a zeroed struct. */
void rec_free(struct recording *r);

/* Plays r from its seed, checking the turn and checksum after every command
 * that has them and at the end. Returns 0 with the final game in *out, or
 * -EINVAL with one line in err ("NAME:LINE: replay diverged at turn T ...",
 * name being the file's name for messages), or -ENOMEM. */
int rec_replay(const struct recording *r, const char *name, struct game **out, char *err, size_t errlen);

#endif
