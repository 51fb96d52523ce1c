/* view: watching a recording: its game replayed a command at a time, checked as it goes, with a snapshot every N turns so that a jump back or forward replays at most N turns; no devices, no clock (its player, the app, gives it the pace). */
#ifndef PIROGUE_APP_VIEW_H
#define PIROGUE_APP_VIEW_H
#include <stdbool.h>
#include <stddef.h>
#include "game/game.h"

/* Turns between two snapshots by default (view_open's every 0). */
#define VIEW_EVERY 100
/* The speeds, in commands a second at 1x (the game's pace: the demo's and
 * auto-explore's step) and the fastest multiple. */
#define VIEW_RATE 4
#define VIEW_SPEED_MAX 64

struct view;

/* Opens the recording at path (a morgue's .rec, --record's file) and
 * replays it once whole, checking every turn and checksum it has (as
 * --replay does) and keeping a snapshot of the game (its save encoding)
 * every `every` turns (0: VIEW_EVERY); then stands at its start. A missing,
 * damaged or diverging recording: -errno (-EINVAL for a bad one) with one
 * line in err naming the file and what is wrong. -ENOMEM. */
int view_open(struct view **out, const char *path, int every, char *err, size_t errlen);
/* Frees v and its games; accepts NULL. */
void view_close(struct view *v);

/* The game as it stands after view_at(v) commands (owned by v: valid until
 * the next call that moves v). */
const struct game *view_game(const struct view *v);
/* Commands played so far (0 .. view_count) and in the recording. */
size_t view_at(const struct view *v);
size_t view_count(const struct view *v);
/* The turn the game stands at, and the recording's last turn. */
int view_turn(const struct view *v);
int view_end_turn(const struct view *v);
/* The snapshots kept (for tests and the status line). */
size_t view_snapshots(const struct view *v);

/* Plays the next command; false at the end (nothing done). */
bool view_step(struct view *v);
/* Stands at command k (clamped to 0 .. view_count): from the last snapshot
 * at or before it (or from where it stands, when that is nearer), replaying
 * what lies between. Returns the commands replayed (at most a snapshot's
 * span, plus none), or -ENOMEM/-EINVAL (a snapshot that does not load:
 * then v stands where it stood). */
long view_seek(struct view *v, size_t k);
/* Stands at the first command after which the game's turn is at least turn
 * (clamped; a turn before the start: the start): view_seek's returns. */
long view_seek_turn(struct view *v, int turn);

#endif
