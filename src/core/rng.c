#include "core/rng.h"

void rng_seed(struct rng *r, uint64_t seed)
{
	r->state = 0;
	r->inc = (seed << 1u) | 1u;
	(void)rng_next(r);
	r->state += seed ^ 0x853c49e6748fea9bULL;
	(void)rng_next(r);
}

uint32_t rng_next(struct rng *r)
{
	uint64_t old = r->state;
	r->state = old * 6364136223846793005ULL + r->inc;
	uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
	uint32_t rot = (uint32_t)(old >> 59u);
	return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

int rng_range(struct rng *r, int lo, int hi)
{
	uint32_t span = (uint32_t)((int64_t)hi - lo) + 1u;
	if (span == 0) /* full 32-bit range */
		return (int)((int64_t)lo + rng_next(r));
	uint32_t threshold = (-span) % span;
	for (;;) {
		uint32_t x = rng_next(r);
		if (x >= threshold)
			return (int)((int64_t)lo + (x % span));
	}
}

int rng_weighted(struct rng *r, const int *weights, int n)
{
	int total = 0;
	for (int i = 0; i < n; i++)
		total += weights[i] > 0 ? weights[i] : 0;
	if (total <= 0)
		return -1;
	int pick = rng_range(r, 0, total - 1);
	for (int i = 0; i < n; i++) {
		int w = weights[i] > 0 ? weights[i] : 0;
		if (pick < w)
			return i;
		pick -= w;
	}
	return n - 1;
}
