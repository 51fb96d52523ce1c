/* watch: the game published for watchers (docs/watch.md) — its Unix socket, the ring every watcher reads (commands, checksums, screens written once, one wake-up for all, made by a thread of its own), the snapshots sent to each, never waiting for one. */
#ifndef PIROGUE_APP_WATCH_H
#define PIROGUE_APP_WATCH_H
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include "game/game.h"
#include "ui/ui.h"

#define WATCH_MAX 64            /* watchers at once; one more is closed at once */
#define WATCH_RING_SIZE (64 * 1024) /* bytes of the ring: how far a watcher may fall behind */
#define WATCH_SINCE (WATCH_RING_SIZE / 2) /* the ring's bytes after the last snapshot while the next watcher gets it */
#define WATCH_DEFER 8 /* commands played without the loop idle before a flush wakes the watchers without their checksum */
#define WATCH_GROUP "pirogue"   /* the group whose members may watch */

struct watch_pub; /* opaque */

/* Where a game publishes itself: $RUNTIME_DIRECTORY/watch.sock (the kiosk
 * unit's RuntimeDirectory=pirogue: /run/pirogue/watch.sock), else
 * $XDG_RUNTIME_DIR/pirogue/watch.sock. Returns 0 with the path in buf, or
 * -ENOENT when neither variable is set (non-empty), -ENAMETOOLONG when the
 * path does not fit buf or a socket address (with ".new" after it: see
 * watch_pub_open). */
int watch_pub_path(char *buf, size_t len);

/* Publishes on the Unix socket at path: its directory is made when missing
 * (0755), the socket is made mode 0660 and given the group pirogue when
 * that group exists (when it cannot be, one line says only the game's user
 * can watch), all at path.new, and renamed to path once it listens (a
 * watcher never finds one there that refuses it). A socket left there by a game that has ended is replaced; one
 * where a game still listens is left alone (-EADDRINUSE). who is what the
 * watchers are told they watch ("ann@pi"). Returns 0, or -errno after one
 * line logged. */
int watch_pub_open(struct watch_pub **out, const char *path, const char *who);
/* A publisher without a socket (tests, fuzzing): watchers come only through
 * watch_pub_adopt. Returns 0 or -ENOMEM. */
int watch_pub_new(struct watch_pub **out, const char *who);
/* Takes fd, a connected stream socket, as a new watcher (made non-blocking;
 * it gets the greeting and a snapshot at the next flush). Returns 0, or
 * -EMFILE (WATCH_MAX watch already) / -ENOMEM with fd closed. */
int watch_pub_adopt(struct watch_pub *p, int fd);
/* Closes every watcher and the socket (removing its file), and ends the
 * waker thread (see watch_pub_flush). NULL ok. */
void watch_pub_close(struct watch_pub *p);

/* The game shown played cmd (it is in its history now): written into the
 * ring. NULL p: nothing. */
void watch_pub_command(struct watch_pub *p, const struct command *cmd);
/* The game shown was replaced (a new game, the demo began or ended): the
 * ring says so (WATCH_RESET) and every watcher is sent a snapshot at the
 * next flush. NULL p: nothing. */
void watch_pub_replaced(struct watch_pub *p);
/* After a frame, with the screen u and the game g shown now (g may be
 * NULL): a screen message into the ring when u changed; to the watchers
 * that need a snapshot and have taken all they were sent, one on their
 * socket (the last made, while what followed it in the ring fits
 * WATCH_SINCE, else one made now: a snapshot is made at most once per
 * WATCH_SINCE bytes of the ring, however many watchers come) followed by
 * WATCH_RING (where in the ring they go on from); then as much of that as
 * each socket takes without waiting. Every watcher is woken at once (one
 * eventfd write) unless commands whose checksum is due (watch_pub_check,
 * which the loop calls as soon as it is idle, right after the frame that
 * shows them) can go with it: one wake-up a key; while the loop is never
 * idle, one every WATCH_DEFER commands. That write is made by a
 * thread of the publisher's (started at the first wake-up), since the
 * kernel wakes every watcher inside it: the caller's thread only posts
 * that thread when it is not already due to write, and never waits for it
 * (if it cannot be started, one line says so and the caller writes). A watcher that falls more
 * than WATCH_RING_SIZE behind finds so itself and asks for a snapshot
 * (WATCH_RESYNC); the game never sends to a watcher per command. Nothing
 * to do (no watcher): returns at once. NULL p: nothing. */
void watch_pub_flush(struct watch_pub *p, const struct ui *u, const struct game *g);
/* Whether commands were sent since the last checksum (and someone
 * watches): the loop then calls watch_pub_check once it has nothing else
 * to do (poll() finds nothing ready), so that the checksum's cost never
 * delays a turn or a frame. NULL p: false. */
bool watch_pub_check_due(const struct watch_pub *p);
/* The checksum of g (the game shown) after the commands sent, written into
 * the ring, and the watchers woken; one per batch of commands played
 * without a pause. Nothing when none is due. */
void watch_pub_check(struct watch_pub *p, const struct game *g);

/* The descriptors to poll: the socket (POLLIN) and each watcher's (POLLIN,
 * and POLLOUT while what it is sent waits for room). Writes at most max; returns
 * how many. NULL p: 0. */
int watch_pub_poll_fds(const struct watch_pub *p, struct pollfd *pfd, int max);
/* Whether fd is one of p's (NULL p: false). */
bool watch_pub_owns(const struct watch_pub *p, int fd);
/* Handles what poll() said of fd: new watchers accepted, a watcher's
 * request for a new snapshot noted, one that left, sent anything else or
 * failed closed; a socket with room written to. Never blocks. */
void watch_pub_dispatch(struct watch_pub *p, int fd, short revents);

/* What the publisher has done, for tests and benchmarks. */
struct watch_pub_stats {
	int watchers;          /* attached now */
	long snapshots;        /* snapshots sent (begun) */
	long snapshots_made;   /* snapshots made (game_encode): one serves many */
	long behind;           /* snapshots asked for (a watcher fell behind the ring, or its copy differed) */
	long dropped;          /* watchers closed for a bad message */
	long checks;           /* checksums computed */
	long wakes;            /* wake-ups asked for (each one eventfd write, however many watch) */
	size_t queued;         /* bytes waiting on the sockets now, besides snapshots (WATCH_RING messages) */
	size_t snapshot_bytes; /* the last snapshot's size */
	size_t since_bytes;    /* the ring's bytes after it (WATCH_SINCE at most) */
};
/* Fills *s with p's figures so far. */
void watch_pub_stats(const struct watch_pub *p, struct watch_pub_stats *s);

#endif
