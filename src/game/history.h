/* history: a game's commands since its seed — the newest in memory, the older ones, with a store given by the caller, in that store — read back in order, in chunks. */
#ifndef PIROGUE_GAME_HISTORY_H
#define PIROGUE_GAME_HISTORY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

/* Bytes one command takes in memory and in a store: c, item, x, y, choice
 * as 32-bit little-endian integers (what the save's HIST section holds). */
#define HIST_RECORD 20
/* Commands kept in memory when the history has a store: each full block of
 * them is written to the store (so steady play allocates nothing, however
 * long a floor is played). */
#define HIST_BLOCK 4096
/* Without a store, entering a floor or loading a game makes room for this
 * many more commands in memory (hist_reserve): only a floor played for more
 * than this grows the history in play. */
#define HIST_RESERVE 8192
/* Commands read back from a store at a time (hist_next_bytes' buf). */
#define HIST_CHUNK 256

/* Where the older commands go: bytes at byte offsets (a command i at
 * i * HIST_RECORD), written once each in increasing order. Both functions
 * move all len bytes or fail; they return 0 or -errno and log nothing (the
 * history says what failed, naming the store by name). The store outlives
 * every use of the game it is given to. */
struct hist_store {
	int (*write)(void *ctx, uint64_t off, const void *data, size_t len);
	int (*read)(void *ctx, uint64_t off, void *data, size_t len); /* fewer bytes there: -ENODATA */
	void *ctx;
	const char *name; /* for messages: "the history file in /var/lib/pirogue" */
};

/* A history; all zero is an empty one without a store (struct game holds
 * one). Fields are the history's own: use the functions. */
struct history {
	unsigned char *mem; /* commands [stored, n), HIST_RECORD bytes each */
	int n;              /* commands in all */
	int stored;         /* the first `stored` commands are in the store */
	int cap;            /* commands mem has room for */
	bool has_store;
	struct hist_store store;
	uint64_t sum; /* FNV-1a of the bytes written to the store, in order */
};

/* Frees the commands in memory (not the store); h is empty afterwards. */
void hist_free(struct history *h);

/* Number of commands in h. */
int hist_count(const struct history *h);

/* Appends c (as given: game_do normalises it). With a store, a full block
 * in memory is first written to the store; if that fails (logged once per
 * failure) the block stays in memory and the memory grows instead, so no
 * command is ever lost: the game and its saves stay whole, and the next
 * full block retries. Without a store the memory grows (by doubling).
 * Returns 0 or -ENOMEM (logged; h unchanged). */
int hist_add(struct history *h, const struct command *c);

/* Without a store: makes room in memory for at least `more` more commands
 * (growing at least twofold when it must grow). With one: does nothing (the
 * memory holds a block then, more only while the store fails). Returns 0 or -ENOMEM (h
 * unchanged: hist_add grows it later or fails). */
int hist_reserve(struct history *h, int more);

/* Gives h its store (once: -EBUSY when it has one) and writes every full
 * block of commands held in memory to it from offset 0 (a loaded game's
 * history), keeping only the rest in memory; the memory is made a block.
 * Returns 0; -ENOMEM (logged; h unchanged, still without a store); or the store's
 * -errno (logged): h keeps the store and its commands in memory, and tries
 * again when a block is full. */
int hist_set_store(struct history *h, const struct hist_store *s);

/* Makes h (empty, without a store) hold the n commands encoded at data
 * (n * HIST_RECORD bytes, as the save's HIST section holds them). Returns 0
 * or -ENOMEM. */
int hist_load(struct history *h, const void *data, int n);

/* Reads a history from its first command to its last, in order. Valid
 * while the history does not change. */
struct hist_reader {
	const struct history *h;
	int at;
	uint64_t sum;
	bool no_check; /* hist_no_check */
};
/* Starts r at h's first command. */
void hist_begin(struct hist_reader *r, const struct history *h);
/* Reads up to max (> 0) next commands into out. Returns how many (0 at the
 * end), or -errno when the store cannot give them back, -EIO when its bytes
 * are not those written (damaged): one line logged naming the store; the
 * game is untouched, but its whole history cannot be read. */
int hist_next(struct hist_reader *r, struct command *out, int max);
/* The number of commands in h's store (0: none), *key set to a key for
 * their bytes: two histories with as many stored commands and the same key
 * hold the same bytes there (the key is the FNV-1a the store's bytes are
 * checked by when read back, hist_next). */
int hist_stored(const struct history *h, uint64_t *key);
/* Makes r (at h's first command) read the commands in h's store back
 * without checking them by their FNV-1a: the caller compares them with a
 * copy it knows right (and calls hist_damaged when they differ). */
void hist_no_check(struct hist_reader *r);
/* Logs that h's store is damaged (its commands are not those written to
 * it), as hist_next does, and returns -EIO. */
int hist_damaged(const struct history *h);
/* Reads the next commands as their bytes (HIST_RECORD each, as the save's
 * HIST section holds them): at most max (> 0) of them, at most
 * HIST_CHUNK when they come from the store, at *p (in the history's
 * memory, or in buf, which has room for HIST_CHUNK commands), valid until
 * the next call or a change of the history. Returns how many (0 at the
 * end), or hist_next's failures (logged the same way). */
int hist_next_bytes(struct hist_reader *r, const unsigned char **p, unsigned char *buf, int max);

#endif
