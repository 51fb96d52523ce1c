/* serial: the whole game as bytes and back (every floor, entity id, component, the RNG, the log), for save files. */
#ifndef PIROGUE_GAME_SERIAL_H
#define PIROGUE_GAME_SERIAL_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "game/game.h"

/* Version of the encoding game_encode writes. Raised whenever what is
 * written changes (a component's fields, a new part of the state); the
 * decoder refuses other versions with a reason. */
#define SERIAL_VERSION 4
/* The oldest version game_decode still reads. */
#define SERIAL_OLDEST 2
/* The largest stack a save may hold (more is taken for damage). */
#define SERIAL_STACK_MAX 100000

/* The encoding is a list of sections, each "tag (4 bytes) length (u32 LE)
 * payload", all integers little-endian. The tags, in order: "GAME" (version,
 * seed, generator, RNG, turn, depth, player, where stacks start), "FLOR" (every floor), "ENTS"
 * (the entity slots: generations, free list, living ids), "COMP" (every
 * component type: its field layout, then each holder in storage order with
 * its fields), "LOG " (the messages: the ring's slots as they lie and where
 * it starts), "HIST" (every command given since the seed, with its
 * arguments). docs/save.md describes each. Version 3 (the messages oldest
 * first, no start) is read as it was; version 2 (before
 * stacks: no COMP_STACK type, no stacks start) is read, its game given stacks
 * from then on (its carried potions and scrolls merged); version 1 (no
 * history, the first component layout) is no longer read. */

/* How a component's fields are written (and hashed by game_checksum): each
 * field is n values (an array; one for a plain field) of one kind, at byte
 * off of the component's struct. */
enum serial_fkind {
	SERIAL_I32,
	SERIAL_U32,
	SERIAL_U8,
	SERIAL_U64,
	SERIAL_CHARS /* n bytes, one of them a NUL */
};
struct serial_field {
	size_t off;
	uint8_t kind; /* enum serial_fkind */
	uint16_t n;
};
/* The fields of component type c in the order they are written, *n of
 * them; NULL with *n = 0 for an unknown c. */
const struct serial_field *serial_fields(int c, int *n);
/* Value k (0 .. f->n - 1) of field f of the component at p (p: the field's
 * first byte), widened to 64 bits: SERIAL_I32 sign-extended, the others
 * (a SERIAL_CHARS byte too) zero-extended. */
static inline uint64_t serial_value(const struct serial_field *f, const unsigned char *p, int k)
{
	/* inline: the digest widens each field of each entry it hashes */
	switch (f->kind) {
	case SERIAL_I32: {
		int32_t v;
		memcpy(&v, p + 4 * k, 4);
		return (uint64_t)(int64_t)v;
	}
	case SERIAL_U32: {
		uint32_t v;
		memcpy(&v, p + 4 * k, 4);
		return v;
	}
	case SERIAL_U64: {
		uint64_t v;
		memcpy(&v, p + 8 * k, 8);
		return v;
	}
	default: /* SERIAL_U8, SERIAL_CHARS */
		return p[k];
	}
}

/* A growing byte buffer; zero it before first use, free data when done. */
struct serial_buf {
	unsigned char *data;
	size_t len, cap;
};

/* Appends n bytes at p to b, growing it. Returns 0 or -ENOMEM (b unchanged). */
int serial_buf_append(struct serial_buf *b, const void *p, size_t n);

/* Appends the encoding of g to out (which may already hold bytes), its
 * history read from its store when it has one. Returns 0, -ENOMEM, or the
 * -errno of a history store that cannot give the commands back (logged by
 * hist_next); out then holds a partial encoding: discard it. */
int game_encode(const struct game *g, struct serial_buf *out);

/* Where game_encode_to writes the encoding, in order: each section opened
 * with its tag, its payload in pieces, then closed (begin writes the tag and
 * what frames it; the payload's length is known at end). Each returns 0 or
 * -errno (the encoding then stops and returns it). */
struct serial_sink {
	int (*begin)(void *ctx, const char tag[4]);
	int (*write)(void *ctx, const void *data, size_t len);
	int (*end)(void *ctx);
	/* Optional (NULL: the encoder always writes). The next len bytes of
	 * the open section are known by key: two spans given the same key
	 * and length hold the same bytes (the history's stored commands,
	 * hist_stored). Returns 1 when the sink took them as it kept them
	 * (given at this place of this section under this key in the last
	 * encoding it took whole): the encoder goes on after them; 0 when
	 * the encoder must write them (the sink may keep them under key);
	 * or -errno. */
	int (*same)(void *ctx, size_t len, uint64_t key);
	/* With same: after it took a span, the span's bytes as the encoder
	 * has them now, n at p from at in it, in order: 0 when they are those
	 * the sink wrote, else -EIO (the encoder's source is damaged: the
	 * encoding fails). */
	int (*kept_is)(void *ctx, size_t at, const void *p, size_t n);
	void *ctx;
};
/* Writes the encoding of g to s (game_encode's bytes, framed as s frames
 * them), in pieces (of at most 8 KB but for the spans of the game's own
 * memory handed over as they lie: the log, the history's newest
 * commands), the history read in chunks (its stored commands, when
 * s->same takes them, only compared with what s wrote, s->kept_is): it
 * allocates nothing, so a save costs no memory however long the game.
 * Returns 0, the first -errno of s, or the -errno of g's history store
 * (logged by hist_next). */
int game_encode_to(const struct game *g, const struct serial_sink *s);

/* Rebuilds a game from the bytes game_encode wrote: the same entity ids,
 * storage order and free slots, so game_checksum equals the saved game's and
 * the game goes on exactly as the saved one would. Damaged or foreign bytes
 * are refused: returns -EINVAL with one line in why (whylen > 0) saying what
 * is wrong, -ENOMEM when memory runs out; never reads outside data. */
int game_decode(struct game **out, const void *data, size_t len, char *why, int whylen);

/* The options g was created with (seed, generator): a new game made from
 * them and given g's history (game_history) becomes g again. */
void game_opts_of(const struct game *g, struct game_opts *out);

#endif
