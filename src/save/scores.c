/* scores: the high-score table: score of a game, text format with a count and CRC32 end line, atomic rewrite. */
#include "save/scores.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/log.h"
#include "save/why.h"
#include "game/content.h"
#include "save/save.h"

#define SCORES_MAGIC "pirogue-scores 1"
#define FLOOR_POINTS 200

void scores_of(const struct game *g, int64_t when, struct score *out)
{
	struct game_stats s;
	game_stats(g, &s);
	long xp = s.xp; /* counted from the last level-up: add the levels' */
	for (int l = content_rules.start_level; l < s.level; l++)
		xp += content_rules.xp_base + (long)l * content_rules.xp_per_level;
	memset(out, 0, sizeof *out);
	out->depth = s.depth;
	out->score = xp + FLOOR_POINTS * (long)(s.depth - 1);
	out->turns = s.turn;
	out->level = s.level;
	out->seed = game_seed(g);
	out->when = when;
	const char *cause = game_death_cause(g);
	snprintf(out->cause, sizeof out->cause, "%s", cause[0] ? cause : game_is_over(g) ? "died" : "alive");
}

/* One entry as its line (without the newline). */
static int format_line(const struct score *s, char *buf, size_t len)
{
	return snprintf(buf, len, "%ld %d %d %d %" PRIu64 " %" PRId64 " %s", s->score, s->depth, s->turns, s->level,
			s->seed, s->when, s->cause);
}

int scores_load(const char *dir, struct score_table *t, char *why, size_t whylen)
{
	memset(t, 0, sizeof *t);
	char path[4096];
	if (snprintf(path, sizeof path, "%s/%s", dir, SCORES_FILE) >= (int)sizeof path)
		return why_set(why, whylen, -ENAMETOOLONG, "%s/%s: path too long", dir, SCORES_FILE);
	FILE *f = fopen(path, "r");
	if (!f) {
		int e = errno;
		if (e == ENOENT)
			return 0;
		return why_set(why, whylen, -e, "cannot read the high scores %s: %s", path, strerror(e));
	}
	char line[256];
	int lineno = 0, rc = 0;
	bool ended = false;
	uLong crc = crc32(0L, Z_NULL, 0);
	errno = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		size_t n = strlen(line);
		if (n == 0 || line[n - 1] != '\n') {
			rc = why_set(why, whylen, -EINVAL, "%s:%d: line cut short or too long", path, lineno);
			goto out;
		}
		if (ended) {
			rc = why_set(why, whylen, -EINVAL, "%s:%d: text after the end line", path, lineno);
			goto out;
		}
		if (lineno == 1) {
			if (strcmp(line, SCORES_MAGIC "\n")) {
				rc = why_set(why, whylen, -EINVAL, "%s: not a pirogue high-score table", path);
				goto out;
			}
			crc = crc32(crc, (const Bytef *)line, (uInt)n);
			continue;
		}
		unsigned count;
		char hex[16];
		if (sscanf(line, "end %u %8[0-9a-f]", &count, hex) == 2) {
			if (count != (unsigned)t->n || strtoul(hex, NULL, 16) != crc) {
				rc = why_set(why, whylen, -EINVAL, "%s: damaged (its end line does not match its entries)",
					     path);
				goto out;
			}
			ended = true;
			continue;
		}
		crc = crc32(crc, (const Bytef *)line, (uInt)n);
		if (t->n == SCORES_MAX) {
			rc = why_set(why, whylen, -EINVAL, "%s:%d: more than %d entries", path, lineno, SCORES_MAX);
			goto out;
		}
		struct score *s = &t->e[t->n];
		int off = 0;
		line[n - 1] = 0;
		if (sscanf(line, "%ld %d %d %d %" SCNu64 " %" SCNd64 " %n", &s->score, &s->depth, &s->turns, &s->level,
			   &s->seed, &s->when, &off) != 6 ||
		    off == 0 || s->depth < 1 || s->turns < 0 || s->level < 1 ||
		    strlen(line + off) >= sizeof s->cause || (t->n > 0 && s->score > t->e[t->n - 1].score)) {
			rc = why_set(why, whylen, -EINVAL, "%s:%d: not a high-score entry", path, lineno);
			goto out;
		}
		snprintf(s->cause, sizeof s->cause, "%s", line + off);
		t->n++;
		errno = 0;
	}
	if (ferror(f)) {
		int e = errno ? errno : EIO; /* a directory: EISDIR */
		rc = why_set(why, whylen, -e, "cannot read the high scores %s: %s", path, strerror(e));
	}
	else if (!ended)
		rc = why_set(why, whylen, -EINVAL, "%s: cut short (no end line)", path);
out:
	fclose(f);
	if (rc)
		memset(t, 0, sizeof *t);
	return rc;
}

int scores_insert(struct score_table *t, const struct score *s)
{
	int at = t->n;
	while (at > 0 && t->e[at - 1].score < s->score)
		at--;
	if (at >= SCORES_MAX)
		return -1;
	int last = t->n < SCORES_MAX ? t->n : SCORES_MAX - 1;
	memmove(&t->e[at + 1], &t->e[at], (size_t)(last - at) * sizeof t->e[0]);
	t->e[at] = *s;
	if (t->n < SCORES_MAX)
		t->n++;
	return at;
}

int scores_save(const char *dir, const struct score_table *t)
{
	char buf[SCORES_MAX * 256 + 128];
	size_t len = (size_t)snprintf(buf, sizeof buf, "%s\n", SCORES_MAGIC);
	for (int i = 0; i < t->n; i++) {
		struct score s = t->e[i];
		/* the cause is one line of text */
		for (char *c = s.cause; *c; c++)
			if (*c == '\n' || *c == '\r')
				*c = ' ';
		len += (size_t)format_line(&s, buf + len, sizeof buf - len);
		buf[len++] = '\n';
	}
	uLong crc = crc32(crc32(0L, Z_NULL, 0), (const Bytef *)buf, (uInt)len);
	len += (size_t)snprintf(buf + len, sizeof buf - len, "end %d %08lx\n", t->n, (unsigned long)crc);
	return save_write_atomic(dir, SCORES_FILE, buf, len);
}

int scores_add(const char *dir, const struct score *s)
{
	struct score_table t;
	char why[512];
	int rc = scores_load(dir, &t, why, sizeof why);
	/* damaged or unreadable (a directory in its place, no permission):
	 * kept aside and a new table begun, so this game's score is kept */
	if (rc && rc != -ENOMEM && rc != -EMFILE && rc != -ENFILE && rc != -ENAMETOOLONG) {
		char kept[300];
		if (save_set_aside(dir, SCORES_FILE, kept, sizeof kept)) {
			log_error("%s; it could not be renamed aside, so it is left as it is", why);
			return rc;
		}
		log_error("%s; kept as %s, a new table begins", why, kept);
	} else if (rc) {
		log_error("%s", why);
		return rc;
	}
	int rank = scores_insert(&t, s);
	if (rank < 0)
		return -1;
	rc = scores_save(dir, &t);
	return rc ? rc : rank;
}
