/* daily: the daily game's seed (the documented function of the date), dates, and the one attempt per day of a state directory (issue 18, item 5). */
#include "savefix.h"

#include <errno.h>
#include <string.h>

#include "save/daily.h"
#include "save/morgue.h"
#include "save/scores.h"

static char dir[64];

static int setup(void **st)
{
	(void)st;
	return savefix_mkdtemp(dir, sizeof dir, "daily");
}

static int teardown(void **st)
{
	(void)st;
	return savefix_rmtree(dir);
}

/* FNV-1a 64 of the bytes, written out here again from its definition. */
static uint64_t fnv(const char *s)
{
	uint64_t h = 14695981039346656037ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void test_seed(void **st)
{
	(void)st;
	struct daily_date a, b;
	assert_int_equal(daily_parse("2026-12-01", &a), 0);
	assert_int_equal(daily_parse("2026-12-02", &b), 0);
	/* the documented function, and its value on every machine */
	assert_true(daily_seed(a) == fnv("pirogue-daily-2026-12-01"));
	assert_true(daily_seed(a) == 14507367728944865521ULL);
	assert_true(daily_seed(a) != daily_seed(b));
	/* no two days of a few years share a seed */
	static uint64_t seen[366 * 5];
	int n = 0;
	for (int64_t t = 1767225600; t < 1767225600 + 5 * 365 * 86400LL; t += 86400) {
		uint64_t s = daily_seed(daily_of_time(t));
		for (int i = 0; i < n; i++)
			assert_true(seen[i] != s);
		seen[n++] = s;
	}
}

static void test_dates(void **st)
{
	(void)st;
	struct daily_date d;
	char buf[16];
	const char *bad[] = {"2026-13-01", "2026-02-29", "2026-00-10", "2026-1-01", "26-12-01", "2026-12-01x",
			     "2026/12/01", "",           "1969-12-31", "2026-12-32", "abcd-ef-gh", "2026-12-0 "};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(daily_parse(bad[i], &d), -EINVAL);
	assert_int_equal(daily_parse("2028-02-29", &d), 0); /* a leap day */
	assert_string_equal(daily_format(d, buf, sizeof buf), "2028-02-29");
	/* the UTC date of a time, around midnights, leap days and 1970 */
	static const struct {
		int64_t t;
		const char *date;
	} when[] = {
		{0, "1970-01-01"},          {86399, "1970-01-01"},      {86400, "1970-01-02"},
		{951782400, "2000-02-29"},  {1796083199, "2026-11-30"}, {1796083200, "2026-12-01"},
		{4107542400, "2100-03-01"}, {253402300799, "9999-12-31"},
	};
	for (size_t i = 0; i < sizeof when / sizeof when[0]; i++)
		assert_string_equal(daily_format(daily_of_time(when[i].t), buf, sizeof buf), when[i].date);
}

/* One attempt a day in a state directory; the daily game's score goes to
 * its own table. */
static void test_attempt_and_table(void **st)
{
	(void)st;
	struct daily_date today, tomorrow;
	assert_int_equal(daily_parse("2026-12-01", &today), 0);
	assert_int_equal(daily_parse("2026-12-02", &tomorrow), 0);
	assert_false(daily_attempted(dir, today));
	assert_int_equal(daily_begin(dir, today), 0);
	assert_true(daily_attempted(dir, today));
	assert_false(daily_attempted(dir, tomorrow));
	assert_true(daily_is(dir, daily_seed(today)));
	assert_false(daily_is(dir, daily_seed(tomorrow)));
	assert_false(daily_is(dir, 7));
	/* a game of today's seed ends: its score is in the daily table only */
	struct game_opts o = {.seed = daily_seed(today)};
	struct game *g;
	assert_int_equal(game_create(&g, &o), 0);
	assert_string_equal(morgue_table(dir, g), SCORES_DAILY_FILE);
	assert_int_equal(morgue_add_score(dir, g, 1796083300), 0);
	struct score_table t;
	char why[256];
	assert_int_equal(scores_load_file(dir, SCORES_DAILY_FILE, &t, why, sizeof why), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(scores_load(dir, &t, why, sizeof why), 0);
	assert_int_equal(t.n, 0);
	game_destroy(g);
	/* another seed: the usual table */
	o.seed = 99;
	assert_int_equal(game_create(&g, &o), 0);
	assert_string_equal(morgue_table(dir, g), SCORES_FILE);
	game_destroy(g);
	/* the next day begun: today's is attempted no more, tomorrow's is */
	assert_int_equal(daily_begin(dir, tomorrow), 0);
	assert_true(daily_attempted(dir, tomorrow));
	assert_false(daily_attempted(dir, today));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_attempt_and_table),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
