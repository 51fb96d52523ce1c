/* watchwire: the watch protocol's bytes (docs/watch.md) — each message built and parsed, a bounded reader of a stream of them, the screen state (struct ui) as sent; no sockets. */
#ifndef PIROGUE_APP_WATCHWIRE_H
#define PIROGUE_APP_WATCHWIRE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "game/game.h"
#include "game/serial.h"
#include "ui/ui.h"

/* The protocol's version, sent first (WATCH_HELLO); a watcher refuses any
 * other. Raised whenever a message's bytes change (2: the checksums are
 * game_digest, not game_checksum; 3: game_digest is a sum of parts kept up
 * to date, another value for the same state; 4: what follows a snapshot is
 * read from the ring all watchers share, WATCH_RING; 5: game_digest's
 * fourth definition, a part per word of a component of words, visible[]
 * as its rows of bits, the pools summed into one). */
#define WATCH_VERSION 5

/* A message is "length (u32 LE) type (u8) payload", length counting the
 * type and the payload (1 .. WATCH_MSG_MAX); all integers little-endian. */
#define WATCH_HEAD 5
#define WATCH_MSG_MAX (16u << 20) /* the largest message a reader takes (a snapshot) */

enum watch_type {
	/* the game to a watcher */
	WATCH_HELLO = 1,    /* u16 version, u8 n, n bytes: whose game it is ("ann@pi, kiosk") */
	WATCH_SNAPSHOT = 2, /* the screen (ui block), u8 has_game; with a game: u32 commands so far,
			     * u32 turn, u64 game_digest, then the game's encoding (game_encode) */
	WATCH_COMMAND = 3,  /* i32 c, item, x, y, choice: one command as played */
	WATCH_CHECK = 4,    /* u32 commands so far, u32 turn, u64 game_digest after them */
	WATCH_SCREEN = 5,   /* the screen changed (ui block) */
	WATCH_RING = 6,     /* u32 ring size, u64 position: follows each snapshot on the socket; what
			     * came after the snapshot is read from the ring from that position on
			     * (the first one carries the ring's memfd and wake-up eventfd, SCM_RIGHTS) */
	WATCH_RESET = 7,    /* in the ring: the game was replaced; a snapshot follows on the socket */
	/* a watcher to the game: nothing else is ever read from one */
	WATCH_RESYNC = 0x81 /* no payload: send me a new snapshot */
};

/* The ring (docs/watch.md): a memfd of WATCH_RING_HEAD + size bytes the
 * game writes and every watcher maps read-only. Its header: u32 magic
 * (WATCH_RING_MAGIC), u32 WATCH_VERSION, u32 size, u32 0, then at
 * WATCH_RING_AT_HEAD the u64 count of bytes ever written (whole messages),
 * at WATCH_RING_AT_LIMIT the u64 count the game is writing up to (set
 * before the bytes: a reader that finds it more than size past where it
 * read knows what it read was overwritten). Byte k of the stream is at
 * WATCH_RING_HEAD + k % size. */
#define WATCH_RING_HEAD 64
#define WATCH_RING_AT_HEAD 16
#define WATCH_RING_AT_LIMIT 24
#define WATCH_RING_MAGIC 0x52575250u
#define WATCH_RING_MIN 4096u
#define WATCH_RING_MAX (16u << 20)
/* The bytes of one WATCH_RESYNC (all a watcher ever sends). */
#define WATCH_RESYNC_LEN WATCH_HEAD
extern const unsigned char watch_resync_msg[WATCH_RESYNC_LEN];

/* Each appends one whole message to b (which may hold bytes already).
 * Return 0 or -ENOMEM (b then holds a partial message: cut it back to its
 * old len). watchwire_snapshot: g may be NULL (no game: the title); it also
 * returns game_encode's -errno. */
int watchwire_hello(struct serial_buf *b, const char *who);
int watchwire_command(struct serial_buf *b, const struct command *c);
int watchwire_check(struct serial_buf *b, int ncmd, int turn, uint64_t sum);
int watchwire_screen(struct serial_buf *b, const struct ui *u);

/* The same three messages written whole into a buffer, for the game's
 * every key (no allocation): a COMMAND is always WATCH_COMMAND_LEN bytes,
 * a CHECK WATCH_CHECK_LEN, a SCREEN at most WATCH_SCREEN_MAX. */
#define WATCH_COMMAND_LEN (WATCH_HEAD + 20)
#define WATCH_CHECK_LEN (WATCH_HEAD + 16)
#define WATCH_SCREEN_MAX (WATCH_HEAD + 1024) /* a ui block is at most 913 bytes */
/* watchwire_command's message into buf; returns WATCH_COMMAND_LEN. */
size_t watchwire_command_to(unsigned char buf[WATCH_COMMAND_LEN], const struct command *c);
/* watchwire_check's message into buf; returns WATCH_CHECK_LEN. */
size_t watchwire_check_to(unsigned char buf[WATCH_CHECK_LEN], int ncmd, int turn, uint64_t sum);
/* watchwire_screen's message into buf; returns its length. */
size_t watchwire_screen_to(unsigned char buf[WATCH_SCREEN_MAX], const struct ui *u);
/* What of a ui its screen block is made from (watchwire_screen_to), as
 * last seen by watchwire_ui_unchanged: the three spans of struct ui that
 * hold the block's numbers (and a few others), its two strings, and the
 * score lines in use. */
#define WATCH_UI_A0 offsetof(struct ui, screen)
#define WATCH_UI_A1 offsetof(struct ui, notice)
#define WATCH_UI_B0 offsetof(struct ui, kiosk)
#define WATCH_UI_B1 offsetof(struct ui, status)
#define WATCH_UI_C0 offsetof(struct ui, inv_sel)
#define WATCH_UI_C1 (offsetof(struct ui, levelup_sel) + sizeof(int))
struct watch_ui_seen {
	bool ok; /* the rest holds a ui */
	unsigned char a[WATCH_UI_A1 - WATCH_UI_A0], b[WATCH_UI_B1 - WATCH_UI_B0], c[WATCH_UI_C1 - WATCH_UI_C0];
	char notice[sizeof(((struct ui *)0)->notice)], status[sizeof(((struct ui *)0)->status)];
	int nscores, score_rank;
	bool scores_after_death;
	struct ui_score scores[UI_SCORES_MAX];
};
/* False, and s made u's, unless s holds u's bytes already (true): then
 * u's screen block is the one it was (the other way round not always: a
 * field the block does not hold may have changed). The game's "did the
 * screen change?" each frame, cheaper than building the block. */
bool watchwire_ui_unchanged(struct watch_ui_seen *s, const struct ui *u);
int watchwire_snapshot(struct serial_buf *b, const struct ui *u, const struct game *g);
int watchwire_ring(struct serial_buf *b, uint32_t size, uint64_t pos);
int watchwire_reset(struct serial_buf *b);

/* A stream of messages read in pieces of any size. Zero it before use
 * (max 0 means WATCH_MSG_MAX); watchwire_reader_free when done. The body
 * grows with the bytes that arrive, never ahead of them, so a length that
 * lies costs nothing. */
struct watch_reader {
	unsigned char head[WATCH_HEAD];
	size_t have_head;
	uint32_t len;          /* of the message being read (type + payload) */
	unsigned char *body;   /* its payload so far */
	size_t got, cap;
	uint32_t max;          /* the largest length taken */
	bool ready;            /* body holds a whole message (type, body, got) */
	uint8_t type;
};

/* Takes bytes from data (n of them) until one message is whole; *used says
 * how many were taken. Returns 1 with r->type and r->body / r->got holding
 * the message (valid until the next call), 0 when every byte was taken and
 * no message is whole yet, -EMSGSIZE for a length of 0 or over the maximum
 * (the stream cannot be trusted past it), -ENOMEM. */
int watchwire_read(struct watch_reader *r, const void *data, size_t n, size_t *used);
/* Frees what r holds; r is as zeroed (its max kept). */
void watchwire_reader_free(struct watch_reader *r);

/* The parsers of the payloads: each returns 0, or -EINVAL with one line in
 * why (len > 0) naming what is wrong; they read only the n bytes given. */
int watchwire_parse_hello(const unsigned char *p, size_t n, char *who, int wholen, char *why, int len);
int watchwire_parse_command(const unsigned char *p, size_t n, struct command *c, char *why, int len);
int watchwire_parse_check(const unsigned char *p, size_t n, int *ncmd, int *turn, uint64_t *sum, char *why,
			  int len);
/* WATCH_RING's payload: a size within WATCH_RING_MIN .. WATCH_RING_MAX. */
int watchwire_parse_ring(const unsigned char *p, size_t n, uint32_t *size, uint64_t *pos, char *why, int len);
/* A ui block at p into *u (every field the block holds; the rest of *u is
 * left as it was), each value checked against what the screens accept;
 * *used: its length (the snapshot's game follows it). */
int watchwire_parse_ui(const unsigned char *p, size_t n, size_t *used, struct ui *u, char *why, int len);
/* A whole snapshot: its ui into *u, its game decoded into *g (NULL: none)
 * with the commands, turn and checksum it was sent with; the ui is checked
 * against the game too (a screen that needs a game has one, the look cursor
 * lies on its floor). */
int watchwire_parse_snapshot(const unsigned char *p, size_t n, struct ui *u, struct game **g, int *ncmd,
			     int *turn, uint64_t *sum, char *why, int len);

#endif
