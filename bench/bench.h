/* bench: what every benchmark shares: the clock, best and median of N timed repetitions, the target verdict. */
#ifndef PIROGUE_BENCH_H
#define PIROGUE_BENCH_H
#include <stdlib.h>
#include <time.h>

/* Seconds on the monotonic clock (only differences mean anything). */
static inline double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

struct bench_stat {
	double best, median;
};

/* Sorts the n > 0 times t ascending; returns the smallest and the middle one. */
static inline struct bench_stat bench_summarise(double *t, int n)
{
	qsort(t, (size_t)n, sizeof *t, bench_cmp_double);
	return (struct bench_stat){ t[0], t[n / 2] };
}

/* "met" or "NOT met", for a line naming a target. */
static inline const char *bench_met(int ok)
{
	return ok ? "met" : "NOT met";
}

#endif
