/* daily: the daily challenge: the game of a UTC date (its seed, a documented function of the date) and the one attempt per day a state directory allows. */
#ifndef PIROGUE_SAVE_DAILY_H
#define PIROGUE_SAVE_DAILY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The file in the state directory that remembers the last daily game begun:
 * one line "YYYY-MM-DD SEED". */
#define DAILY_FILE "daily"

/* A UTC date. */
struct daily_date {
	int y, m, d;
};

/* The seed of the game of date: the 64-bit FNV-1a hash (offset basis
 * 0xcbf29ce484222325, prime 0x100000001b3) of the 24 bytes
 * "pirogue-daily-YYYY-MM-DD" (docs/rules.md), the same on every machine. */
uint64_t daily_seed(struct daily_date date);

/* Parses "YYYY-MM-DD" (a real date, years 1970 to 9999) into *out: 0, or
 * -EINVAL (*out untouched). */
int daily_parse(const char *s, struct daily_date *out);

/* The UTC date of t (seconds since 1970). */
struct daily_date daily_of_time(int64_t t);

/* "YYYY-MM-DD" into buf (len >= 11); returns buf. */
const char *daily_format(struct daily_date date, char *buf, size_t len);

/* Whether the daily game of date has been begun in dir already (its
 * DAILY_FILE names that date). */
bool daily_attempted(const char *dir, struct daily_date date);

/* Notes in dir that the daily game of date is begun (DAILY_FILE written
 * atomically). Returns 0 or -errno (logged). */
int daily_begin(const char *dir, struct daily_date date);

/* Whether a game of seed is the daily game noted in dir (its score goes to
 * the daily table, SCORES_DAILY_FILE). */
bool daily_is(const char *dir, uint64_t seed);

#endif
