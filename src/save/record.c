#include "save/record.h"
#include "core/log.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct rec_writer {
	FILE *f;
	char path[256];
	int failed;
};

int rec_writer_open(struct rec_writer **out, const char *path, uint64_t seed, const char *mapgen)
{
	*out = NULL;
	struct rec_writer *w = calloc(1, sizeof *w);
	if (!w)
		return -ENOMEM;
	w->f = fopen(path, "w");
	if (!w->f) {
		int e = errno;
		log_error("cannot write recording %s: %s", path, strerror(e));
		free(w);
		return -e;
	}
	snprintf(w->path, sizeof w->path, "%s", path);
	fprintf(w->f, "%s\nseed %" PRIu64 "\nmapgen %s\n# command turn checksum\n", REC_MAGIC, seed, mapgen);
	fflush(w->f);
	*out = w;
	return 0;
}

int rec_writer_add(struct rec_writer *w, enum cmd c, int turn, uint64_t checksum)
{
	if (w->failed)
		return -EIO;
	if (fprintf(w->f, "%s %d %016" PRIx64 "\n", cmd_name(c), turn, checksum) < 0 || fflush(w->f)) {
		int e = errno ? errno : EIO;
		log_error("cannot write recording %s: %s", w->path, strerror(e));
		w->failed = 1;
		return -e;
	}
	return 0;
}

void rec_writer_close(struct rec_writer *w)
{
	if (!w)
		return;
	if (w->f)
		fclose(w->f);
	free(w);
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *hash = strchr(s, '#');
	if (hash)
		*hash = 0;
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
	return s;
}

int rec_load(const char *path, struct recording *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	FILE *f = fopen(path, "r");
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "cannot read recording %s: %s", path, strerror(e));
		return -e;
	}
	char buf[256];
	int lineno = 0, have_magic = 0, have_seed = 0, have_mapgen = 0;
	size_t cap = 0;
	int rc = 0;
	while (fgets(buf, sizeof buf, f)) {
		lineno++;
		if (!strchr(buf, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%d: line too long", path, lineno);
			rc = -EINVAL;
			goto out;
		}
		if (!have_magic) {
			if (strcmp(trim(buf), REC_MAGIC) != 0) {
				snprintf(err, errlen, "%s:%d: not a pirogue recording (expected '%s')", path,
					 lineno, REC_MAGIC);
				rc = -EINVAL;
				goto out;
			}
			have_magic = 1;
			continue;
		}
		char *s = trim(buf);
		if (!*s)
			continue;
		char word[32], rest[64] = "";
		int turn;
		if (sscanf(s, "%31s %63s", word, rest) < 1)
			continue;
		if (!strcmp(word, "seed")) {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(rest, &end, 10);
			if (!rest[0] || *end || errno || rest[0] == '-') {
				snprintf(err, errlen, "%s:%d: bad seed '%s'", path, lineno, rest);
				rc = -EINVAL;
				goto out;
			}
			out->seed = v;
			have_seed = 1;
			continue;
		}
		if (!strcmp(word, "mapgen")) {
			size_t len = strlen(rest);
			if (len == 0 || len >= sizeof out->mapgen) {
				snprintf(err, errlen, "%s:%d: bad map generator name '%s'", path, lineno, rest);
				rc = -EINVAL;
				goto out;
			}
			memcpy(out->mapgen, rest, len + 1);
			have_mapgen = 1;
			continue;
		}
		enum cmd c;
		if (cmd_parse(word, &c)) {
			snprintf(err, errlen, "%s:%d: unknown command '%s'", path, lineno, word);
			rc = -EINVAL;
			goto out;
		}
		char hex[32];
		if (sscanf(s, "%*s %d %31s", &turn, hex) != 2 || strlen(hex) != 16 ||
		    strspn(hex, "0123456789abcdefABCDEF") != 16) {
			snprintf(err, errlen, "%s:%d: expected '<command> <turn> <16 hex digit checksum>'", path,
				 lineno);
			rc = -EINVAL;
			goto out;
		}
		if (!have_seed) {
			snprintf(err, errlen, "%s:%d: command before the 'seed' line", path, lineno);
			rc = -EINVAL;
			goto out;
		}
		if (out->nsteps == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct rec_step *n = realloc(out->steps, ncap * sizeof *n);
			if (!n) {
				rc = -ENOMEM;
				snprintf(err, errlen, "%s: out of memory", path);
				goto out;
			}
			out->steps = n;
			cap = ncap;
		}
		out->steps[out->nsteps++] = (struct rec_step){
			.cmd = c, .turn = turn, .checksum = strtoull(hex, NULL, 16), .line = lineno,
		};
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read recording %s: %s", path, strerror(errno));
		rc = -EIO;
	} else if (!have_magic) {
		snprintf(err, errlen, "%s: empty file, not a pirogue recording", path);
		rc = -EINVAL;
	} else if (!have_seed) {
		snprintf(err, errlen, "%s: no 'seed' line", path);
		rc = -EINVAL;
	} else if (!have_mapgen) {
		snprintf(out->mapgen, sizeof out->mapgen, "classic");
	}
out:
	fclose(f);
	if (rc)
		rec_free(out);
	return rc;
}

void rec_free(struct recording *r)
{
	free(r->steps);
	r->steps = NULL;
	r->nsteps = 0;
}
