/* daily: the daily seed (FNV-1a of the date), dates, the attempt file. */
#include "save/daily.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "save/save.h"

uint64_t daily_seed(struct daily_date date)
{
	char s[32];
	int n = snprintf(s, sizeof s, "pirogue-daily-%04d-%02d-%02d", date.y, date.m, date.d);
	uint64_t h = 0xcbf29ce484222325ULL;
	for (int i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static bool leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in(int y, int m)
{
	static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	return m == 2 && leap(y) ? 29 : days[m - 1];
}

int daily_parse(const char *s, struct daily_date *out)
{
	int y, m, d, used = 0;
	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-' || sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &used) != 3 ||
	    used != 10 || strspn(s, "0123456789-") != 10)
		return -EINVAL;
	if (y < 1970 || y > 9999 || m < 1 || m > 12 || d < 1 || d > days_in(y, m))
		return -EINVAL;
	*out = (struct daily_date){y, m, d};
	return 0;
}

struct daily_date daily_of_time(int64_t t)
{
	/* days since 1970-01-01 to a civil date (Howard Hinnant's algorithm):
	 * no gmtime, so the same on every libc and time_t width */
	int64_t z = (t >= 0 ? t : t - 86399) / 86400 + 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	int d = (int)(doy - (153 * mp + 2) / 5 + 1);
	int m = (int)(mp < 10 ? mp + 3 : mp - 9);
	int y = (int)(yoe + era * 400 + (m <= 2));
	return (struct daily_date){y, m, d};
}

const char *daily_format(struct daily_date date, char *buf, size_t len)
{
	snprintf(buf, len, "%04d-%02d-%02d", date.y, date.m, date.d);
	return buf;
}

/* The date and seed DAILY_FILE notes: 0, or -1 when there is none (or it
 * is not one). */
static int noted(const char *dir, struct daily_date *date, uint64_t *seed)
{
	char path[4096], line[64], ds[16];
	if (snprintf(path, sizeof path, "%s/%s", dir, DAILY_FILE) >= (int)sizeof path)
		return -1;
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	bool ok = fgets(line, sizeof line, f) && sscanf(line, "%10s %" SCNu64, ds, seed) == 2 && !daily_parse(ds, date);
	fclose(f);
	return ok ? 0 : -1;
}

bool daily_attempted(const char *dir, struct daily_date date)
{
	struct daily_date d;
	uint64_t seed;
	return noted(dir, &d, &seed) == 0 && d.y == date.y && d.m == date.m && d.d == date.d;
}

int daily_begin(const char *dir, struct daily_date date)
{
	char line[64], ds[16];
	int n = snprintf(line, sizeof line, "%s %" PRIu64 "\n", daily_format(date, ds, sizeof ds), daily_seed(date));
	return save_write_atomic(dir, DAILY_FILE, line, (size_t)n);
}

bool daily_is(const char *dir, uint64_t seed)
{
	struct daily_date d;
	uint64_t noted_seed;
	return noted(dir, &d, &noted_seed) == 0 && noted_seed == seed && daily_seed(d) == seed;
}
