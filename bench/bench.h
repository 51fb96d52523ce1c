/* bench: what every benchmark shares: the clock, best and median of N timed repetitions, the target verdict. */
#ifndef PIROGUE_BENCH_H
#define PIROGUE_BENCH_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

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

/* Instruction counts (make bench-ir runs every bench with --ir under
 * callgrind, bench/ir.sh reads the dumps): bench_ir_start() zeroes the
 * counters, bench_ir_stop(key, side, calls, target) dumps what ran since,
 * named "key|side|calls|target"; bench/ir.sh prints instructions per call for
 * each side of a key (pirogue, libtcod, baseline...) and the ratio to the
 * second side, and "met"/"NOT met" when target > 0 (most instructions per
 * call allowed); the formatting of the name is not counted. Outside
 * valgrind both do nothing. */
static inline void bench_ir_start(void)
{
	CALLGRIND_ZERO_STATS;
}

static inline void bench_ir_stop(const char *key, const char *side, long calls, long target)
{
	char name[256];
	CALLGRIND_TOGGLE_COLLECT; /* naming the dump is not the work measured */
	snprintf(name, sizeof name, "%s|%s|%ld|%ld", key, side, calls, target);
	CALLGRIND_DUMP_STATS_AT(name);
	CALLGRIND_TOGGLE_COLLECT;
}

/* The same, with a target that is a ratio (e.g. "1.01": instructions per
 * call of this side at most 1.01 x those of the key's second side, its
 * baseline, dumped in the same run; bench/ir.sh says "met"/"NOT met" with
 * both figures). NULL target: none. */
static inline void bench_ir_stop_ratio(const char *key, const char *side, long calls, const char *target)
{
	char name[256];
	CALLGRIND_TOGGLE_COLLECT;
	snprintf(name, sizeof name, "%s|%s|%ld|%s%s", key, side, calls, target ? "x" : "", target ? target : "0");
	CALLGRIND_DUMP_STATS_AT(name);
	CALLGRIND_TOGGLE_COLLECT;
}

/* True when the bench was started with --ir (instruction counts: run each
 * case once, no timing). */
static inline int bench_ir_mode(int argc, char **argv)
{
	return argc > 1 && strcmp(argv[1], "--ir") == 0;
}

#endif
