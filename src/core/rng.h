/* rng: the seeded pseudo-random generator (PCG32), integer-only, identical on every CPU. */
#ifndef PIROGUE_CORE_RNG_H
#define PIROGUE_CORE_RNG_H
#include <stdint.h>

/* State of one generator; plain data, so it can be saved and restored. */
struct rng {
	uint64_t state;
	uint64_t inc;
};

/* Seeds r from seed; the same seed always gives the same sequence. */
void rng_seed(struct rng *r, uint64_t seed);
/* Next 32 uniformly distributed bits. */
uint32_t rng_next(struct rng *r);
/* Uniform integer in [lo, hi] (inclusive, lo <= hi), without modulo bias. */
int rng_range(struct rng *r, int lo, int hi);
/* Index chosen with probability weights[i] / sum(weights); n > 0, sum > 0.
 * Returns -1 when every weight is 0. */
int rng_weighted(struct rng *r, const int *weights, int n);

#endif
