/* record: recordings as text: writer (commands with arguments, end line), reader (formats 1 and 2), replay, a game's history written out. */
#include "save/record.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "game/history.h"
#include "game/serial.h"

/* ---- arguments as words ---- */

static const char *const choice_names[LEVELUP_COUNT] = {
	[LEVELUP_HP] = "hp",
	[LEVELUP_POWER] = "power",
	[LEVELUP_DEFENSE] = "defense",
};

/* An inventory slot: a..z, or #N for a number out of that range. */
static void slot_word(int slot, char *buf, size_t len)
{
	if (slot >= 0 && slot < 26)
		snprintf(buf, len, "%c", 'a' + slot);
	else
		snprintf(buf, len, "#%d", slot);
}

static void choice_word(int choice, char *buf, size_t len)
{
	if (choice >= 0 && choice < LEVELUP_COUNT)
		snprintf(buf, len, "%s", choice_names[choice]);
	else
		snprintf(buf, len, "#%d", choice);
}

/* "#N": a decimal number; 0 or -1. */
static int parse_hash_number(const char *s, int *out)
{
	if (s[0] != '#')
		return -1;
	char *end;
	errno = 0;
	long v = strtol(s + 1, &end, 10);
	if (errno || end == s + 1 || *end || v < -(1L << 30) || v > (1L << 30))
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_slot(const char *s, int *out)
{
	if (s[0] >= 'a' && s[0] <= 'z' && !s[1]) {
		*out = s[0] - 'a';
		return 0;
	}
	return parse_hash_number(s, out);
}

static int parse_choice(const char *s, int *out)
{
	for (int i = 0; i < LEVELUP_COUNT; i++) {
		if (!strcmp(s, choice_names[i])) {
			*out = i;
			return 0;
		}
	}
	return parse_hash_number(s, out);
}

/* "x,y" */
static int parse_cell(const char *s, int *x, int *y)
{
	char *end;
	errno = 0;
	long a = strtol(s, &end, 10);
	if (errno || end == s || *end != ',')
		return -1;
	const char *t = end + 1;
	long b = strtol(t, &end, 10);
	if (errno || end == t || *end || a < -(1L << 30) || a > (1L << 30) || b < -(1L << 30) || b > (1L << 30))
		return -1;
	*x = (int)a;
	*y = (int)b;
	return 0;
}

/* The command as it is written: its name and arguments. */
static void command_words(const struct command *c, char *buf, size_t len)
{
	char a[24], b[24];
	switch (c->c) {
	case CMD_USE:
		slot_word(c->item, a, sizeof a);
		if (c->x == -1 && c->y == -1)
			snprintf(buf, len, "use %s", a);
		else
			snprintf(buf, len, "use %s %d,%d", a, c->x, c->y);
		break;
	case CMD_DROP:
		slot_word(c->item, a, sizeof a);
		snprintf(buf, len, "drop %s%s", a, c->choice == GAME_DROP_ALL ? " all" : "");
		break;
	case CMD_LEVEL_UP:
		choice_word(c->choice, b, sizeof b);
		snprintf(buf, len, "levelup %s", b);
		break;
	default:
		snprintf(buf, len, "%s", (int)c->c > CMD_NONE && c->c < CMD_COUNT ? cmd_name(c->c) : "none");
		break;
	}
}

/* ---- writing ---- */

struct rec_writer {
	FILE *f;
	char path[256];
	int failed;
	size_t n;
	int last_turn;
	bool has_sum;
	uint64_t last_sum;
};

static int writer_open(struct rec_writer **out, const char *path, const struct game_opts *o, const char *mapgen);

int rec_writer_open(struct rec_writer **out, const char *path, uint64_t seed, const char *mapgen)
{
	struct game_opts o = {.seed = seed};
	return writer_open(out, path, &o, mapgen);
}

int rec_writer_open_opts(struct rec_writer **out, const char *path, const struct game_opts *o)
{
	return writer_open(out, path, o, mapgen_name(o->mapgen));
}

static int writer_open(struct rec_writer **out, const char *path, const struct game_opts *o, const char *mapgen)
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
	fprintf(w->f, "%s\nseed %" PRIu64 "\nmapgen %s\n", REC_MAGIC, o->seed, mapgen);
	if (o->stacks_from < 0)
		fputs("stacks never\n", w->f);
	else if (o->stacks_from > 0)
		fprintf(w->f, "stacks %d\n", o->stacks_from);
	if ((o->map_w || o->map_h) && (o->map_w != MAP_W || o->map_h != MAP_H))
		fprintf(w->f, "size %dx%d\n", o->map_w, o->map_h);
	fputs("# command [arguments] turn checksum\n", w->f);
	fflush(w->f);
	*out = w;
	return 0;
}

static int writer_line(struct rec_writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int writer_line(struct rec_writer *w, const char *fmt, ...)
{
	if (w->failed)
		return -EIO;
	va_list ap;
	va_start(ap, fmt);
	int rc = vfprintf(w->f, fmt, ap);
	va_end(ap);
	if (rc < 0 || fflush(w->f)) {
		int e = errno ? errno : EIO;
		log_error("cannot write recording %s: %s", w->path, strerror(e));
		w->failed = 1;
		return -e;
	}
	return 0;
}

/* One command line; has_sum false leaves the checksum out. */
static int writer_step(struct rec_writer *w, const struct command *c, int turn, bool has_sum, uint64_t sum)
{
	char words[64];
	command_words(c, words, sizeof words);
	int rc = has_sum ? writer_line(w, "%s %d %016" PRIx64 "\n", words, turn, sum)
			 : writer_line(w, "%s %d\n", words, turn);
	if (rc)
		return rc;
	w->n++;
	w->last_turn = turn;
	w->has_sum = has_sum;
	w->last_sum = sum;
	return 0;
}

int rec_writer_command(struct rec_writer *w, const struct command *c, int turn, uint64_t checksum)
{
	return writer_step(w, c, turn, true, checksum);
}

int rec_writer_add(struct rec_writer *w, enum cmd c, int turn, uint64_t checksum)
{
	struct command cmd = {.c = c, .item = -1, .x = -1, .y = -1, .choice = -1};
	return writer_step(w, &cmd, turn, true, checksum);
}

/* Writes the end line; the final checksum is the last command's. */
static int writer_end(struct rec_writer *w)
{
	if (w->has_sum || w->n == 0)
		return w->n ? writer_line(w, "end %zu %d %016" PRIx64 "\n", w->n, w->last_turn, w->last_sum)
			    : writer_line(w, "end 0 0\n");
	return writer_line(w, "end %zu %d\n", w->n, w->last_turn);
}

static void writer_free(struct rec_writer *w)
{
	if (w->f)
		fclose(w->f);
	free(w);
}

void rec_writer_close(struct rec_writer *w)
{
	if (!w)
		return;
	(void)writer_end(w);
	writer_free(w);
}

int rec_writer_history(struct rec_writer *w, const struct game *g, int every_sum)
{
	struct game_opts o;
	game_opts_of(g, &o);
	const struct history *h = game_history(g);
	int n = hist_count(h);
	struct game *r = NULL;
	int rc = game_create(&r, &o);
	if (rc) {
		log_error("cannot write recording %s: cannot create the game (%s)", w->path, strerror(-rc));
		return rc;
	}
	if (every_sum < 1)
		every_sum = 1;
	/* the history in chunks (a long one is mostly in its store) */
	struct hist_reader hr;
	hist_begin(&hr, h);
	struct command chunk[256];
	for (int i = 0, k; !rc && (k = hist_next(&hr, chunk, 256)) != 0;) {
		if (k < 0) {
			rc = k; /* logged by hist_next */
			break;
		}
		for (int j = 0; j < k && !rc; j++, i++) {
			game_do(r, &chunk[j]);
			bool sum = (i + 1) % every_sum == 0 || i == n - 1;
			rc = writer_step(w, &chunk[j], game_turn(r), sum, sum ? game_checksum(r) : 0);
		}
	}
	if (!rc && game_checksum(r) != game_checksum(g)) {
		log_error("recording %s: the history of the game (seed %" PRIu64 ", %d commands) does not replay to it",
			  w->path, o.seed, n);
		rc = -EIO;
	}
	if (rc)
		w->failed = 1; /* no end line: the file is refused, not taken for a shorter game */
	game_destroy(r);
	return rc;
}

int rec_write_history(const char *path, const struct game *g, int every_sum)
{
	struct game_opts o;
	game_opts_of(g, &o);
	struct rec_writer *w;
	int rc = rec_writer_open_opts(&w, path, &o);
	if (rc || !w) /* (!w never: said for the clang analyzer, which takes -errno for 0) */
		return rc ? rc : -EIO;
	rc = rec_writer_history(w, g, every_sum);
	if (!rc)
		rc = writer_end(w);
	writer_free(w);
	return rc;
}

/* ---- reading ---- */

/* Strips blanks and a comment: '#' at the start of a word, unless a number
 * follows it ("#3" is an argument). */
static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	for (char *h = s; (h = strchr(h, '#')); h++) {
		bool word_start = h == s || h[-1] == ' ' || h[-1] == '\t';
		bool number = h[1] == '-' || (h[1] >= '0' && h[1] <= '9');
		if (word_start && !number) {
			*h = 0;
			break;
		}
	}
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
	return s;
}

static bool is_hex16(const char *s)
{
	return strlen(s) == 16 && strspn(s, "0123456789abcdefABCDEF") == 16;
}

static bool parse_turn(const char *s, int *out)
{
	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 9)
		return false;
	*out = atoi(s);
	return true;
}

#define MAX_WORDS 8

static int split(char *s, char **words)
{
	int n = 0;
	for (char *tok = strtok(s, " \t"); tok; tok = strtok(NULL, " \t")) {
		if (n == MAX_WORDS)
			return MAX_WORDS + 1;
		words[n++] = tok;
	}
	return n;
}

/* The words of a command line after its name: arguments, turn, [checksum]. */
static int parse_step(int version, char **wd, int nw, struct rec_step *st, char *what, size_t len)
{
	enum cmd c;
	if (cmd_parse(wd[0], &c)) {
		snprintf(what, len, "unknown command '%s'", wd[0]);
		return -1;
	}
	st->cmd = (struct command){.c = c, .item = -1, .x = -1, .y = -1, .choice = -1};
	int last = nw - 1;
	st->has_sum = last >= 2 && is_hex16(wd[last]);
	if (st->has_sum)
		st->checksum = strtoull(wd[last--], NULL, 16);
	if (version == 1 && !st->has_sum) {
		snprintf(what, len, "expected '<command> <turn> <16 hex digit checksum>'");
		return -1;
	}
	if (last < 1 || !parse_turn(wd[last], &st->turn)) {
		snprintf(what, len, "expected '<command> [arguments] <turn> [<16 hex digit checksum>]'");
		return -1;
	}
	int nargs = last - 1;
	char **arg = wd + 1;
	bool ok;
	switch (c) {
	case CMD_USE:
		ok = (nargs == 1 || nargs == 2) && !parse_slot(arg[0], &st->cmd.item) &&
		     (nargs == 1 || !parse_cell(arg[1], &st->cmd.x, &st->cmd.y));
		if (!ok)
			snprintf(what, len, "expected 'use <slot a-z> [<x>,<y>] <turn> ...'");
		break;
	case CMD_DROP:
		ok = (nargs == 1 || (nargs == 2 && !strcmp(arg[1], "all"))) && !parse_slot(arg[0], &st->cmd.item);
		if (nargs == 2)
			st->cmd.choice = GAME_DROP_ALL;
		if (!ok)
			snprintf(what, len, "expected 'drop <slot a-z> [all] <turn> ...'");
		break;
	case CMD_LEVEL_UP:
		ok = nargs == 1 && !parse_choice(arg[0], &st->cmd.choice);
		if (!ok)
			snprintf(what, len, "expected 'levelup <hp, power or defense> <turn> ...'");
		break;
	default:
		ok = nargs == 0;
		if (!ok)
			snprintf(what, len, "'%s' takes no arguments", wd[0]);
		break;
	}
	return ok ? 0 : -1;
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
	char buf[256], what[128];
	int lineno = 0, have_seed = 0, have_mapgen = 0, ended = 0;
	size_t cap = 0;
	int rc = 0;
	while (fgets(buf, sizeof buf, f)) {
		lineno++;
		if (!strchr(buf, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%d: line too long", path, lineno);
			rc = -EINVAL;
			goto out;
		}
		if (!out->version) {
			char *m = trim(buf);
			if (strcmp(m, REC_MAGIC) == 0) {
				out->version = 3;
			} else if (strcmp(m, REC_MAGIC_V2) == 0) {
				out->version = 2;
				out->stacks_from = GAME_STACKS_NEVER;
			} else if (strcmp(m, REC_MAGIC_V1) == 0) {
				out->version = 1;
				out->stacks_from = GAME_STACKS_NEVER;
			} else if (strncmp(m, "pirogue-recording ", 18) == 0) {
				snprintf(err, errlen, "%s:%d: a recording of a newer format ('%s'; this pirogue reads '%s')",
					 path, lineno, m, REC_MAGIC);
				rc = -EINVAL;
				goto out;
			} else {
				snprintf(err, errlen, "%s:%d: not a pirogue recording (expected '%s')", path, lineno,
					 REC_MAGIC);
				rc = -EINVAL;
				goto out;
			}
			continue;
		}
		bool whole = strchr(buf, '\n') != NULL;
		char *s = trim(buf);
		if (!*s)
			continue;
		if (ended) {
			snprintf(err, errlen, "%s:%d: text after the end line", path, lineno);
			rc = -EINVAL;
			goto out;
		}
		if (out->version >= 2 && !whole) {
			snprintf(err, errlen, "%s:%d: the last line is cut short (no end of line)", path, lineno);
			rc = -EINVAL;
			goto out;
		}
		char *wd[MAX_WORDS + 1] = {0};
		int nw = split(s, wd);
		if (nw == 0)
			continue;
		if (nw > MAX_WORDS) {
			snprintf(err, errlen, "%s:%d: too many words", path, lineno);
			rc = -EINVAL;
			goto out;
		}
		const char *rest = nw > 1 ? wd[1] : "";
		if (!strcmp(wd[0], "seed")) {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(rest, &end, 10);
			if (nw != 2 || *end || errno || rest[0] == '-') {
				snprintf(err, errlen, "%s:%d: bad seed '%s'", path, lineno, rest);
				rc = -EINVAL;
				goto out;
			}
			out->seed = v;
			have_seed = 1;
			continue;
		}
		if (!strcmp(wd[0], "size")) {
			if (nw != 2 || map_size_parse(rest, &out->map_w, &out->map_h)) {
				snprintf(err, errlen, "%s:%d: bad floor size '%s' (WxH, %dx%d to %dx%d)", path, lineno, rest,
					 MAP_MIN_W, MAP_MIN_H, MAP_MAX_W, MAP_MAX_H);
				rc = -EINVAL;
				goto out;
			}
			continue;
		}
		if (!strcmp(wd[0], "stacks") && out->version >= 3) {
			char *end = NULL;
			long v = nw == 2 ? strtol(rest, &end, 10) : -1;
			if (nw == 2 && !strcmp(rest, "never")) {
				out->stacks_from = GAME_STACKS_NEVER;
			} else if (nw != 2 || !end || *end || end == rest || v < 0 || v > (1L << 30)) {
				snprintf(err, errlen, "%s:%d: bad stacks line '%s' (a number of commands, or never)", path,
					 lineno, rest);
				rc = -EINVAL;
				goto out;
			} else {
				out->stacks_from = (int)v;
			}
			continue;
		}
		if (!strcmp(wd[0], "mapgen")) {
			size_t len = strlen(rest);
			if (nw != 2 || len >= sizeof out->mapgen) {
				snprintf(err, errlen, "%s:%d: bad map generator name '%s'", path, lineno, rest);
				rc = -EINVAL;
				goto out;
			}
			memcpy(out->mapgen, rest, len + 1);
			have_mapgen = 1;
			continue;
		}
		if (!have_seed) {
			snprintf(err, errlen, "%s:%d: '%s' before the 'seed' line", path, lineno, wd[0]);
			rc = -EINVAL;
			goto out;
		}
		if (out->version >= 2 && !strcmp(wd[0], "end")) {
			unsigned long long count;
			char *end;
			count = strtoull(rest, &end, 10);
			if ((nw != 3 && nw != 4) || *end || !parse_turn(wd[2], &out->end_turn) ||
			    (nw == 4 && !is_hex16(wd[3]))) {
				snprintf(err, errlen, "%s:%d: expected 'end <commands> <turn> [<checksum>]'", path, lineno);
				rc = -EINVAL;
				goto out;
			}
			if (count != out->nsteps) {
				snprintf(err, errlen, "%s:%d: the end line counts %llu commands, the recording has %zu",
					 path, lineno, count, out->nsteps);
				rc = -EINVAL;
				goto out;
			}
			out->end_has_sum = nw == 4;
			if (out->end_has_sum)
				out->end_sum = strtoull(wd[3], NULL, 16);
			ended = 1;
			continue;
		}
		struct rec_step st = {.line = lineno};
		if (parse_step(out->version, wd, nw, &st, what, sizeof what)) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, what);
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
		out->steps[out->nsteps++] = st;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read recording %s: %s", path, strerror(errno));
		rc = -EIO;
	} else if (!out->version) {
		snprintf(err, errlen, "%s: empty file, not a pirogue recording", path);
		rc = -EINVAL;
	} else if (!have_seed) {
		snprintf(err, errlen, "%s: no 'seed' line", path);
		rc = -EINVAL;
	} else if (out->version >= 2 && !ended) {
		snprintf(err, errlen, "%s: incomplete recording: no end line after its %zu commands (cut short?)", path,
			 out->nsteps);
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

int rec_replay(const struct recording *r, const char *name, struct game **out, char *err, size_t errlen)
{
	*out = NULL;
	struct game_opts o = {.seed = r->seed, .map_w = r->map_w, .map_h = r->map_h, .stacks_from = r->stacks_from};
	if (mapgen_parse(r->mapgen, &o.mapgen)) {
		snprintf(err, errlen, "%s: unknown map generator '%s'", name, r->mapgen);
		return -EINVAL;
	}
	struct game *g;
	int rc = game_create(&g, &o);
	if (rc) {
		snprintf(err, errlen, "%s: cannot create the game (%s)", name, strerror(-rc));
		return rc;
	}
	for (size_t i = 0; i < r->nsteps; i++) {
		const struct rec_step *s = &r->steps[i];
		game_do(g, &s->cmd); /* after death too: the history keeps what was pressed */
		uint64_t sum = s->has_sum ? game_checksum(g) : 0;
		if (game_turn(g) != s->turn || sum != s->checksum) {
			char words[64];
			command_words(&s->cmd, words, sizeof words);
			snprintf(err, errlen, "%s:%d: replay diverged at turn %d (%s): state %016" PRIx64
				 ", recorded turn %d state %016" PRIx64, name, s->line, game_turn(g), words, sum, s->turn,
				 s->checksum);
			goto diverged;
		}
	}
	if (r->version >= 2) {
		uint64_t sum = game_checksum(g);
		if (game_turn(g) != r->end_turn || (r->end_has_sum && sum != r->end_sum)) {
			snprintf(err, errlen, "%s: replay diverged at the end: turn %d state %016" PRIx64
				 ", recorded turn %d state %016" PRIx64, name, game_turn(g), sum, r->end_turn, r->end_sum);
			goto diverged;
		}
	}
	*out = g;
	return 0;
diverged:
	game_destroy(g);
	return -EINVAL;
}
