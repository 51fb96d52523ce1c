/* watcher: pirogue --watch's side (docs/watch.md) — finds and connects to a game's socket, follows its stream (a copy of the game from each snapshot, every command played on it and checked against the game's checksum) and shows it with the game's own screens, their hint line saying whom it watches. */
#ifndef PIROGUE_APP_WATCHER_H
#define PIROGUE_APP_WATCHER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "app/watchwire.h"
#include "game/game.h"
#include "render/console.h"
#include "ui/ui.h"

/* Zero it, then set fd = -1 (watcher_connect does). */
struct watcher {
	int fd;                /* the game's socket, -1: none (fed by hand: tests, fuzzing) */
	struct watch_reader rd;  /* the socket's stream */
	/* the ring (WATCH_RING): its memfd and eventfd as the game passed them */
	bool has_fds;
	int ring_fd, wake_fd;
	int ep;                /* an epoll of wake_fd, edge-triggered (while ring is mapped: watcher_poll_fd) */
	const unsigned char *ring; /* the ring mapped read-only, NULL: not yet */
	uint32_t ring_size;
	unsigned char *ring_copy;  /* what is read from it, copied before it is trusted */
	bool following;        /* reading the ring from pos on */
	uint64_t pos;
	struct watch_reader rrd; /* the ring's stream */
	char who[256];         /* whose game (the greeting), "" before it */
	bool hello;            /* the greeting was read */
	struct game *game;     /* the copy, NULL before the first snapshot or on a screen without one */
	struct ui ui;          /* the game's screen as sent (hover off; bindings: binds) */
	const struct bindings *binds; /* what hints name (NULL: the defaults) */
	bool no_keys;          /* nothing typed reaches it (a second screen: the game has the keyboard) */
	bool synced;           /* a snapshot was taken and every command since played */
	bool fresh;            /* the game or screen was replaced: the next frame draws all */
	int ncmd;              /* commands in the copy's history */
	long checks;           /* checksums compared (all equal but the last mismatches) */
	long mismatches;       /* checksums that differed (each followed by a new snapshot) */
	uint64_t last_sum;     /* the last digest (game_digest) the game sent that the copy matched */
	int last_turn;
	int last_ncmd;         /* the copy's commands then */
	char line[160];        /* what the top line says besides whom it watches ("" nothing) */
	struct console *inner; /* the game's screens are drawn here, at the size shown */
	const struct console *shown; /* where the last frame was copied (its changes then): */
	uint64_t shown_changes;      /* the next copies only inner's damage */
	char shown_top[512];         /* the line last printed over the hints there (and its colour): */
	uint32_t shown_top_bg;       /* printed again only when it changes */
};

/* The socket to watch: opt when given (--watch SOCKET), else the first that
 * exists of $XDG_RUNTIME_DIR/pirogue/watch.sock (your own game) and
 * /run/pirogue/watch.sock (the kiosk's). Returns 0 with it in buf, or
 * -ENOENT with one line in why (none exists: no game to watch). */
int watcher_path(const char *opt, char *buf, size_t len, char *why, int wlen);

/* Connects w (zeroed) to the game at path. Returns 0, or -errno with one
 * line in why: no game there (-ENOENT, -ECONNREFUSED), "permission denied:
 * add yourself to the pirogue group" (-EACCES, -EPERM), ... */
int watcher_connect(struct watcher *w, const char *path, char *why, int wlen);

/* Takes n bytes of the game's stream (in pieces of any size). A checksum
 * that differs from the copy's is said in w->line and in the log (one
 * line), and a new snapshot is asked for (written to fd when there is one);
 * until it comes, commands are not played. Returns 0, or -EPROTO (a
 * malformed stream: what is wrong in why, one line; stop watching), or
 * -ENOMEM. */
int watcher_feed(struct watcher *w, const void *data, size_t n, char *why, int wlen);

/* Reads what the game sent (fd non-blocking, a bounded number of reads)
 * and feeds it, then what the ring holds past where w follows it (copied
 * first, and dropped when the game wrote over it meanwhile: then, as when
 * w fell more than the ring behind, a new snapshot is asked for). Returns
 * 0, 1 when the game closed the stream (it ended; what it wrote into the
 * ring before was played), or as watcher_feed /
 * -errno with why. */
int watcher_read(struct watcher *w, char *why, int wlen);
/* The descriptor besides fd to poll for reading (the ring's wake-ups), or
 * -1 before the ring is mapped; when it is readable, call watcher_read. */
int watcher_poll_fd(const struct watcher *w);

/* Draws the watched game into shown: the game's screen at shown's size
 * (drawn by ui_draw_frame into w->inner, d and scratch as ui_draw_frame
 * takes them; blank before the first snapshot), its last row, the key
 * hints' line, replaced by the line saying whom it watches (and w->line,
 * or that it waits for the game, and that q leaves unless no_keys). Only cells that change are damaged.
 * Returns 0 or -ENOMEM. */
int watcher_draw(struct watcher *w, struct ui_drawn *d, struct console *shown, struct console *scratch);

/* The recordings' checksum (game_checksum, what --replay prints) of the
 * copy as it was at the last digest that matched the game's, made now
 * (once: it costs several digests). Returns 0 with it in sum, or -ENOENT
 * when no digest matched yet or commands came after it. */
int watcher_checksum(const struct watcher *w, uint64_t *sum);

/* Closes the socket and frees the copy; w can be connected again. NULL ok. */
void watcher_close(struct watcher *w);

#endif
