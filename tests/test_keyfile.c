/* keyfile: the --keys format, line by line and through a FILE. */
#include "testutil.h"
#include "app/keyfile.h"
#include "core/log.h"
#include "platform/keys.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int line(const char *s, uint32_t *key)
{
	return keyfile_parse_line(s, strlen(s), key);
}

static void test_lines(void **st)
{
	(void)st;
	uint32_t k = 0;
	assert_int_equal(line("j\n", &k), 1);
	assert_int_equal(k, 'j');
	assert_int_equal(line("  up  # north\r\n", &k), 1);
	assert_int_equal(k, KEY_UP);
	assert_int_equal(line(" \n", &k), 1); /* one space: the space key */
	assert_int_equal(k, KEY_SPACE);
	assert_int_equal(line("# just a comment\n", &k), 0);
	assert_int_equal(line("\t \n", &k), 0);
	assert_int_equal(line("", &k), 0);
	assert_int_equal(line("frobnicate\n", &k), -EINVAL);
}

/* issue 11, defect 13: a line over 255 characters was split silently (300
 * spaces then 'c' became the key c) and "j\0zz" was read as j. */
static void test_long_lines_and_nul(void **st)
{
	(void)st;
	uint32_t k = 0;
	char buf[KEYFILE_LINE_MAX + 8];
	memset(buf, ' ', sizeof buf);
	buf[KEYFILE_LINE_MAX - 1] = 'c';
	buf[KEYFILE_LINE_MAX] = '\n';
	assert_int_equal(keyfile_parse_line(buf, KEYFILE_LINE_MAX + 1, &k), 1); /* the longest line */
	assert_int_equal(k, 'c');
	buf[KEYFILE_LINE_MAX] = 'c';
	buf[KEYFILE_LINE_MAX + 1] = '\n';
	assert_int_equal(keyfile_parse_line(buf, KEYFILE_LINE_MAX + 2, &k), -E2BIG);
	assert_int_equal(keyfile_parse_line("j\0zz\n", 5, &k), -EILSEQ);
}

/* keyfile_next over text with the log captured; returns the last rc. */
static int read_all(const char *text, size_t len, uint32_t *keys, int *nkeys, int *lineno, char **log)
{
	FILE *f = fmemopen((void *)text, len, "r");
	assert_non_null(f);
	size_t loglen = 0;
	FILE *mem = open_memstream(log, &loglen);
	log_set_stream(mem);
	int rc;
	uint32_t k;
	*nkeys = 0;
	*lineno = 0;
	while ((rc = keyfile_next(f, "t.keys", lineno, &k)) > 0)
		keys[(*nkeys)++] = k;
	log_set_stream(NULL);
	fclose(mem);
	fclose(f);
	return rc;
}

static void test_reader(void **st)
{
	(void)st;
	uint32_t keys[16];
	int n, lineno;
	char *log = NULL;
	static const char good[] = "# walk\nl\n\nright\n \n";
	assert_int_equal(read_all(good, sizeof good - 1, keys, &n, &lineno, &log), 0);
	assert_int_equal(n, 3);
	assert_int_equal(keys[0], 'l');
	assert_int_equal(keys[1], KEY_RIGHT);
	assert_int_equal(keys[2], KEY_SPACE);
	assert_string_equal(log, "");
	free(log);
	static const char nul[] = "l\nj\0zz\nl\n";
	assert_int_equal(read_all(nul, sizeof nul - 1, keys, &n, &lineno, &log), -EILSEQ);
	assert_int_equal(n, 1);
	assert_non_null(strstr(log, "t.keys:2: the line holds a NUL byte"));
	free(log);
	char big[400];
	memset(big, ' ', 300);
	memcpy(big + 300, "c\n", 3);
	assert_int_equal(read_all(big, strlen(big), keys, &n, &lineno, &log), -E2BIG);
	assert_int_equal(n, 0);
	assert_non_null(strstr(log, "t.keys:1: line too long (at most 255 characters"));
	free(log);
	static const char bad[] = "l\n  \033[2J  # hostile\n";
	assert_int_equal(read_all(bad, sizeof bad - 1, keys, &n, &lineno, &log), -EINVAL);
	assert_non_null(strstr(log, "t.keys:2: unknown key '?[2J'"));
	assert_null(strchr(log, '\033'));
	free(log);
}

/* Calls fn(name, ctx) for every name of list, its "a..b" ranges (the same
 * letters, then a number from a to b) spelled out; returns how many. */
static int each_name(const char *list, void (*fn)(const char *, void *), void *ctx)
{
	int n = 0;
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", list);
	for (char *w = strtok(buf, " ;:,()"); w; w = strtok(NULL, " ;:,()")) {
		char *dots = strstr(w, "..");
		if (!dots) {
			fn(w, ctx);
			n++;
			continue;
		}
		*dots = 0;
		size_t letters = strcspn(w, "0123456789");
		assert_true(letters > 0 && !strncmp(w, dots + 2, letters));
		int lo = atoi(w + letters), hi = atoi(dots + 2 + letters);
		assert_true(lo < hi);
		for (int i = lo; i <= hi; i++) {
			char name[64];
			snprintf(name, sizeof name, "%.*s%d", (int)letters, w, i);
			fn(name, ctx);
			n++;
		}
	}
	return n;
}

static void parses(const char *name, void *ctx)
{
	(void)ctx;
	uint32_t k;
	if (key_parse(name, &k))
		fail_msg("'%s' is listed but not a key name", name);
}

struct seek {
	const char *name;
	bool found;
};

static void seek(const char *name, void *ctx)
{
	struct seek *s = ctx;
	s->found |= !strcmp(name, s->name);
}

/* A keys file's unknown key lists every name key_parse takes: kp0..kp9,
 * f1..f12 and the gamepad's buttons too (they were left out), and every
 * name listed is one. */
static void test_unknown_key_lists_every_name(void **st)
{
	(void)st;
	uint32_t keys[4];
	int n, lineno;
	char *log = NULL;
	static const char bad[] = "frobnicate\n";
	assert_int_equal(read_all(bad, sizeof bad - 1, keys, &n, &lineno, &log), -EINVAL);
	const char *from = strstr(log, "(a character or one of: ");
	assert_non_null(from);
	from += strlen("(a character or one of: ");
	/* the names up to ')', the keyboard's then the gamepad's */
	char list[1024];
	snprintf(list, sizeof list, "%.*s", (int)strcspn(from, ")"), from);
	char *pads = strstr(list, "; gamepad buttons: ");
	assert_non_null(pads);
	memset(pads, ' ', strlen("; gamepad buttons: "));
	int total = 0;
	for (uint32_t k = KEY_SPECIAL; k < KEY_LAST; k++) {
		char name[64];
		key_name(k, name, sizeof name);
		assert_int_equal(key_parse(name, &keys[0]), 0);
		assert_int_equal(keys[0], k);
		struct seek s = {name, false};
		each_name(list, seek, &s);
		if (!s.found)
			fail_msg("the keys file's error does not list '%s': %s", name, log);
		total++;
	}
	/* the names of characters (enter, escape, space, tab, backspace) too */
	assert_int_equal(each_name(list, parses, NULL), total + 5);
	assert_int_equal(each_name(KEY_NAMES " modifier " PAD_NAMES, parses, NULL), total + 5);
	free(log);
}

/* A keys file that cannot be read says why: a directory opens but every
 * read fails with EISDIR (it said "Input/output error"). */
static void test_read_error_named(void **st)
{
	(void)st;
	FILE *f = fopen(".", "r");
	if (!f) {
		print_message("skipped: a directory cannot be opened as a file here (%s)\n", strerror(errno));
		skip();
	}
	size_t loglen = 0;
	char *log = NULL;
	FILE *mem = open_memstream(&log, &loglen);
	log_set_stream(mem);
	int lineno = 0;
	uint32_t k;
	int rc = keyfile_next(f, "somedir", &lineno, &k);
	log_set_stream(NULL);
	fclose(mem);
	fclose(f);
	assert_int_equal(rc, -EISDIR);
	assert_non_null(strstr(log, "cannot read keys file somedir: Is a directory"));
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_long_lines_and_nul),
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_unknown_key_lists_every_name),
		cmocka_unit_test(test_read_error_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
