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

#define SCORES_MAGIC "pirogue-scores 2"
#define SCORES_MAGIC_V1 "pirogue-scores 1"
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

void scores_clean_name(const char *in, size_t inlen, char *out)
{
	size_t n = 0;
	for (size_t i = 0; i < inlen && in[i] && n < SCORES_NAME_MAX; i++) {
		unsigned char c = (unsigned char)in[i];
		if (c < 0x20 || c == 0x7F)
			continue;
		if (c == ' ' && n == 0)
			continue; /* leading blanks */
		out[n++] = c < 0x7F ? (char)c : '?';
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = 0;
}

/* The name as one word of the file: "-" for none, else every byte outside
 * '!'..'~', and '%', as %XX (a name is never a "-" word: that is %2D). */
static void name_word(const char *name, char *buf, size_t len)
{
	size_t n = 0;
	if (!name[0] && len > 1) {
		buf[n++] = '-';
	}
	for (const unsigned char *c = (const unsigned char *)name; *c && n + 4 < len; c++) {
		if (*c > 0x20 && *c < 0x7F && *c != '%' && !(*c == '-' && c == (const unsigned char *)name && !c[1]))
			buf[n++] = (char)*c;
		else
			n += (size_t)snprintf(buf + n, len - n, "%%%02X", *c);
	}
	buf[n] = 0;
}

/* The name from its word; -1 when it is not one. */
static int parse_name_word(const char *w, char *out)
{
	char raw[4 * SCORES_NAME_MAX + 1];
	size_t n = 0;
	if (!strcmp(w, "-")) {
		out[0] = 0;
		return 0;
	}
	for (const char *c = w; *c; c++) {
		if (n + 1 >= sizeof raw)
			return -1;
		unsigned v;
		if (*c == '%') {
			if (sscanf(c + 1, "%2x", &v) != 1 || !c[1] || !c[2])
				return -1;
			raw[n++] = (char)v;
			c += 2;
		} else {
			raw[n++] = *c;
		}
	}
	scores_clean_name(raw, n, out); /* whatever the file says, printable out */
	return 0;
}

/* One entry as its line (without the newline). */
static int format_line(const struct score *s, char *buf, size_t len)
{
	char name[4 * SCORES_NAME_MAX + 4];
	name_word(s->name, name, sizeof name);
	return snprintf(buf, len, "%ld %d %d %d %" PRIu64 " %" PRId64 " %s %s", s->score, s->depth, s->turns,
			s->level, s->seed, s->when, name, s->cause);
}

int scores_load(const char *dir, struct score_table *t, char *why, size_t whylen)
{
	return scores_load_file(dir, SCORES_FILE, t, why, whylen);
}

int scores_load_file(const char *dir, const char *file, struct score_table *t, char *why, size_t whylen)
{
	memset(t, 0, sizeof *t);
	char path[4096];
	int version = 0;
	if (snprintf(path, sizeof path, "%s/%s", dir, file) >= (int)sizeof path)
		return why_set(why, whylen, -ENAMETOOLONG, "%s/%s: path too long", dir, file);
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
			version = !strcmp(line, SCORES_MAGIC "\n") ? 2 : !strcmp(line, SCORES_MAGIC_V1 "\n") ? 1 : 0;
			if (!version) {
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
		    (t->n > 0 && s->score > t->e[t->n - 1].score)) {
			rc = why_set(why, whylen, -EINVAL, "%s:%d: not a high-score entry", path, lineno);
			goto out;
		}
		if (version >= 2) {
			/* the name's word, then the cause */
			char word[4 * SCORES_NAME_MAX + 4];
			size_t wl = strcspn(line + off, " ");
			if (wl == 0 || wl >= sizeof word || !line[off + wl]) {
				rc = why_set(why, whylen, -EINVAL, "%s:%d: not a high-score entry (no name)", path, lineno);
				goto out;
			}
			memcpy(word, line + off, wl);
			word[wl] = 0;
			if (parse_name_word(word, s->name)) {
				rc = why_set(why, whylen, -EINVAL, "%s:%d: a damaged name", path, lineno);
				goto out;
			}
			off += (int)wl + 1;
		}
		if (strlen(line + off) >= sizeof s->cause) {
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
	return scores_save_file(dir, SCORES_FILE, t);
}

int scores_save_file(const char *dir, const char *file, const struct score_table *t)
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
	return save_write_atomic(dir, file, buf, len);
}

int scores_add(const char *dir, const struct score *s)
{
	return scores_add_file(dir, SCORES_FILE, s);
}

int scores_find(const struct score_table *t, const struct score *s)
{
	for (int i = 0; i < t->n; i++) {
		const struct score *e = &t->e[i];
		if (e->seed == s->seed && e->when == s->when && e->turns == s->turns && e->score == s->score &&
		    e->depth == s->depth && e->level == s->level)
			return i;
	}
	return -1;
}

int scores_set_name(const char *dir, const char *file, const struct score *s, const char *name)
{
	struct score_table t;
	char why[512];
	int rc = scores_load_file(dir, file, &t, why, sizeof why);
	if (rc) {
		log_error("%s", why);
		return rc;
	}
	int i = scores_find(&t, s);
	if (i < 0)
		return -1;
	scores_clean_name(name, strlen(name), t.e[i].name);
	rc = scores_save_file(dir, file, &t);
	return rc ? rc : i;
}

int scores_add_file(const char *dir, const char *file, const struct score *s)
{
	struct score_table t;
	char why[512];
	int rc = scores_load_file(dir, file, &t, why, sizeof why);
	/* damaged or unreadable (a directory in its place, no permission):
	 * kept aside and a new table begun, so this game's score is kept */
	if (rc && rc != -ENOMEM && rc != -EMFILE && rc != -ENFILE && rc != -ENAMETOOLONG) {
		char kept[300];
		if (save_set_aside(dir, file, kept, sizeof kept)) {
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
	rc = scores_save_file(dir, file, &t);
	return rc ? rc : rank;
}
