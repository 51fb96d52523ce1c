/* save: the state directory and the one save file in it (versioned, checksummed sections, written atomically, set aside when bad). */
#ifndef PIROGUE_SAVE_SAVE_H
#define PIROGUE_SAVE_SAVE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "game/serial.h"

/* The save's name inside the state directory. */
#define SAVE_FILE "pirogue.sav"
/* The file's first 8 bytes. */
#define SAVE_MAGIC "\x89PIRSAV\n"
/* Longest one-line reason given for a refused save. */
#define SAVE_WHY_MAX 256

/* Finds the state directory: opt (--state-dir or the state-dir setting) when
 * given, else $STATE_DIRECTORY (systemd; the first of a ':' list), else
 * $XDG_STATE_HOME/pirogue, else $HOME/.local/state/pirogue. Writes it into
 * buf (len bytes). Returns 0, or -ENOENT (no HOME either) / -ENAMETOOLONG
 * after logging one line. The directory need not exist yet. */
int save_state_dir(const char *opt, char *buf, size_t len);

/* Creates dir (and its parents) when missing, mode 0700. Returns 0 or
 * -errno after logging one line naming it. */
int save_make_dir(const char *dir);
/* Removes from dir the temporary files of atomic writes (save_write_atomic:
 * the save's, the score table's, the morgue file's) killed before their
 * rename, and a history file killed before it was unlinked (histfile, where
 * the filesystem has no unnamed files): NAME.tmp-XXXXXX. Nothing else; a
 * missing dir is fine. */
void save_remove_temps(const char *dir);

/* Writes len bytes to dir/name atomically: a temporary file in dir,
 * fsync, rename over name, fsync of dir. Until the rename the old file is
 * untouched; after a crash at any moment dir/name is the old file or the
 * new one, whole. Creates dir when missing. Returns 0 or -errno after
 * logging one line naming the file. */
int save_write_atomic(const char *dir, const char *name, const void *data, size_t len);

/* Writes all len bytes at p to fd at byte offset off (pwrite, EINTR
 * retried). Returns 0 or -errno (-EIO when nothing more is written, -EFBIG
 * past what off_t holds); logs nothing. */
int save_pwrite_all(int fd, const void *p, size_t len, uint64_t off);
/* Reads all len bytes at byte offset off of fd into p (pread, EINTR
 * retried). Returns 0 or -errno (-ENODATA when the file ends first or off
 * lies past what off_t holds); logs nothing. */
int save_pread_all(int fd, void *p, size_t len, uint64_t off);

/* The bytes of a save file holding g: the header and game_encode's sections,
 * each with its length and CRC32 (docs/save.md). Appends to out; returns 0,
 * -ENOMEM, or the -errno of g's history store (game_encode). */
int save_encode(const struct game *g, struct serial_buf *out);
/* The bytes the last save_encode or save_game wrote from the copies it
 * kept of the save before (the history's stored commands, when the save
 * before wrote the same ones there: only compared with the store, not
 * summed), 0 when none. */
size_t save_kept_last(void);
/* Rebuilds the game from a save file's bytes. Returns 0 with *out set, or
 * -EINVAL with one line in why (a foreign file, a newer or older format, a
 * cut or damaged section, a game that does not hold together), or -ENOMEM. */
int save_decode(const void *data, size_t len, struct game **out, char *why, size_t whylen);

/* Every this many turns the game is saved during play (GAME.md §8). */
#define SAVE_EVERY_TURNS 100
/* Whether a command that took the game from (turn0, depth0) to (turn1,
 * depth1) calls for a save: the floor changed, or the turn crossed a
 * multiple of SAVE_EVERY_TURNS. */
bool save_due(int turn0, int depth0, int turn1, int depth1);

/* Saves g as dir/SAVE_FILE (atomically, see save_write_atomic). Returns 0
 * or -errno after logging one line; the file there before is then kept
 * as it was (also when g's history store cannot give its commands back). */
int save_game(const char *dir, const struct game *g);
/* Saves g, a finished game, as dir/SAVE_FILE (as save_game), the file's
 * modification time set to when (the game's end, seconds since 1970) before
 * it is made durable: the first step of a game's end, so that a crash after
 * it finds a finished game there, never the last save of a living one
 * (morgue_game_over). Returns 0 or -errno after logging one line. */
int save_game_ended(const char *dir, const struct game *g, int64_t when);
/* The end of the finished game in dir/SAVE_FILE (its modification time, set
 * by save_game_ended) into *when. Returns 0 or -errno; logs nothing. */
int save_end_time(const char *dir, int64_t *when);
/* True when dir/SAVE_FILE exists (it may still be refused when loaded). */
bool save_exists(const char *dir);
/* Loads the save file at path. Returns 0 with *out set; -ENOENT when there
 * is none; -EINVAL with the reason in why; another -errno (unreadable)
 * with why saying so. Never changes the file. */
int save_load_file(const char *path, struct game **out, char *why, size_t whylen);
/* Loads dir/SAVE_FILE. A refused save (-EINVAL) or one that cannot be read
 * (another -errno but -ENOENT, -ENOMEM, -EMFILE, -ENFILE: a directory in
 * its place, no permission, an I/O error) is renamed aside (see
 * save_set_aside), so no later save replaces it, and why ends with where it
 * was kept. Also removes the
 * temporary files (NAME.tmp-XXXXXX) of writes killed in dir. Same returns as
 * save_load_file. */
int save_load(const char *dir, struct game **out, char *why, size_t whylen);
/* Renames dir/name (a refused save, a damaged score table) to
 * dir/name.bad-YYYYMMDD-HHMMSS[-N] (UTC; never over another file) and writes
 * that name (without dir) into kept. Returns 0, -ENOENT when there is no
 * such file, or -errno after logging one line. */
int save_set_aside(const char *dir, const char *name, char *kept, size_t keptlen);
/* The same with another tag than "bad": dir/name.TAG-YYYYMMDD-HHMMSS[-N]
 * (a game in progress that a new game would replace: "old"). */
int save_keep_aside(const char *dir, const char *name, const char *tag, char *kept, size_t keptlen);
/* The same at the time when (UTC seconds since the epoch) instead of now:
 * the caller's clock (a test's, so that the names tried are known). */
int save_keep_aside_at(const char *dir, const char *name, const char *tag, int64_t when, char *kept,
		       size_t keptlen);
/* Deletes dir/SAVE_FILE (permadeath: after the morgue file is written) and
 * makes that durable. Returns 0 (also when there was none) or -errno after
 * logging one line. */
int save_delete(const char *dir);

/* --check-save: loads path (or dir/SAVE_FILE when path is NULL) without
 * playing or changing it and prints one line to stdout: "ok turn T depth D
 * checksum HEX" (16 hex digits, as recordings write checksums; a finished
 * game's line says so after it, save_game_ended) or "FILE: reason". Returns the exit status: 0 for a good save, else 1. */
int save_check(const char *dir, const char *path);

#endif
