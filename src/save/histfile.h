/* histfile: the store of a game's older commands (game/history.h) as an unnamed file in the state directory, written with pwrite and read with pread. */
#ifndef PIROGUE_SAVE_HISTFILE_H
#define PIROGUE_SAVE_HISTFILE_H

#include "game/history.h"

struct histfile;

/* Creates the store in dir (made when missing): a file without a name
 * (O_TMPFILE; where the filesystem has none, pirogue.hist.tmp-XXXXXX removed
 * at once), on the state directory's disk rather than in memory, which the
 * kernel frees when it is closed or the program dies: nothing is left
 * behind. Returns 0, or -errno after logging one line naming dir. */
int histfile_open(struct histfile **out, const char *dir);
/* The same over an open read-write fd (tests give a memfd); the store owns
 * fd from then on (also on failure). name is what messages call it. Returns
 * 0 or -ENOMEM. */
int histfile_open_fd(struct histfile **out, int fd, const char *name);
/* Empties the store for the next game. Returns 0 or -errno (logged). */
int histfile_reset(struct histfile *f);
/* The store's functions for hist_set_store / game_set_history_store (valid
 * until histfile_close). */
void histfile_store(struct histfile *f, struct hist_store *out);
/* Closes the store (its bytes are gone); accepts NULL. A game given it must
 * not read its history afterwards. */
void histfile_close(struct histfile *f);

#endif
