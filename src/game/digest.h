/* digest: game_digest's pieces, kept up to date a turn at a time: the keyed mix every part is summed from, and the per-game cache of the entity pools' and the log's parts. */
#ifndef PIROGUE_GAME_DIGEST_H
#define PIROGUE_GAME_DIGEST_H
#include <stdint.h>

/* The part of game_digest one value v gives at the place k (a cell word,
 * an entity's component, a log slot): for any k, a bijection of v, so a
 * sum of parts changes whenever exactly one value does, whatever the
 * others are; different places mix the same value differently. Integers
 * only: the same on every CPU. */
static inline uint64_t digest_mix(uint64_t k, uint64_t v)
{
	uint64_t x = (v ^ (k * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL;
	x ^= x >> 31;
	x *= 0x94D049BB133111EBULL;
	return x ^ (x >> 29);
}

/* A cheaper part for the many words of a floor (eight cells each), 0 for
 * v = 0 so that a sum over a box holding every nonzero word is the sum
 * over all: for any k a bijection of v (a xorshift of v times an odd
 * constant, times an odd number made from k). */
static inline uint64_t digest_part(uint64_t k, uint64_t v)
{
	v *= 0xBF58476D1CE4E5B9ULL;
	v ^= v >> 29;
	return v * ((k * 0x9E3779B97F4A7C15ULL) | 1);
}

/* One step of a chain over a sequence of values (a component's fields, a
 * message): a bijection of h for any v and of v for any h, so two
 * sequences that differ in one value always end differently. */
static inline uint64_t digest_step(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9E3779B97F4A7C15ULL;
	return h ^ (h >> 29);
}

struct game_dig; /* what the last game_digest of a game saw (digest.c) */

/* A cache for one game's digests, empty (the next digest is made from
 * scratch). Returns 0 or -ENOMEM. */
int digest_cache_create(struct game_dig **out);
/* Frees d and all it holds; accepts NULL. */
void digest_cache_destroy(struct game_dig *d);

#endif
