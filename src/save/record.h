/* record: recordings of a game (seed, generator, and every command with the state checksum after it), written and read as text. */
#ifndef PIROGUE_SAVE_RECORD_H
#define PIROGUE_SAVE_RECORD_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "game/game.h"

/* The file format, one item a line ('#' starts a comment):
 *   pirogue-recording 1
 *   seed 12345
 *   mapgen classic
 *   move_n 1 8f1c0a3e5d2b7c44     <- command, turn after it, checksum after it (hex)
 */
#define REC_MAGIC "pirogue-recording 1"

struct rec_writer;

/* Creates (truncates) path and writes the header. Returns 0 or a negative
 * errno after logging one line naming the file. */
int rec_writer_open(struct rec_writer **out, const char *path, uint64_t seed, const char *mapgen);
/* Appends one command with the turn and checksum after it; flushed at once
 * so a crash loses nothing. Returns 0 or a negative errno (logged once). */
int rec_writer_add(struct rec_writer *w, enum cmd c, int turn, uint64_t checksum);
/* Closes the file; accepts NULL. */
void rec_writer_close(struct rec_writer *w);

struct rec_step {
	enum cmd cmd;
	int turn;
	uint64_t checksum;
	int line; /* line number in the file, for messages */
};

struct recording {
	uint64_t seed;
	char mapgen[16];
	struct rec_step *steps;
	size_t nsteps;
};

/* Reads a recording. On a malformed file returns -EINVAL and writes one line
 * into err naming the file, the line and the problem; -errno when it cannot
 * be read. */
int rec_load(const char *path, struct recording *out, char *err, size_t errlen);
/* Frees what rec_load allocated; accepts a zeroed struct. */
void rec_free(struct recording *r);

#endif
