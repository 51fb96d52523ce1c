#include "testutil.h"
#include "app/config.h"
#include "platform/keys.h"
#include "core/log.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct seen {
	int n;
	char keys[8][32], values[8][64];
	int lines[8];
	int stop_at; /* return 7 on this call (1-based), 0 = never */
};

static int collect(void *ctx, const char *file, int line, const char *key, const char *value)
{
	(void)file;
	struct seen *s = ctx;
	if (s->n < 8) {
		snprintf(s->keys[s->n], sizeof s->keys[0], "%s", key);
		snprintf(s->values[s->n], sizeof s->values[0], "%s", value);
		s->lines[s->n] = line;
	}
	s->n++;
	return s->n == s->stop_at ? 7 : 0;
}

static const char *write_tmp(const char *text)
{
	static char path[64];
	snprintf(path, sizeof path, "/tmp/pirogue-conf-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_lines(void **st)
{
	(void)st;
	struct seen s = { 0 };
	const char *p = write_tmp("# comment\n; another\n\n[pirogue]\n  scale=2 \r\nfont =  /x/y z.png\nfb =\n");
	assert_int_equal(config_read(p, collect, &s), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.keys[0], "scale");
	assert_string_equal(s.values[0], "2");
	assert_int_equal(s.lines[0], 5);
	assert_string_equal(s.values[1], "/x/y z.png");
	assert_string_equal(s.keys[2], "fb");
	assert_string_equal(s.values[2], "");
	unlink(p);
}

static void test_errors(void **st)
{
	(void)st;
	struct seen s = { 0 };
	const char *bad[] = { "scale 2\n", "[keys]\n", " = 3\n" };
	for (int i = 0; i < 3; i++) {
		const char *p = write_tmp(bad[i]);
		assert_int_equal(config_read(p, collect, &s), -EINVAL);
		unlink(p);
	}
	assert_int_equal(s.n, 0);
	assert_int_equal(config_read("/nonexistent/pirogue.conf", collect, &s), -ENOENT);
	/* the callback can stop the reading with its own status */
	s.stop_at = 2;
	const char *p = write_tmp("a = 1\nb = 2\nc = 3\n");
	assert_int_equal(config_read(p, collect, &s), 7);
	assert_int_equal(s.n, 2);
	unlink(p);
	/* an over-long line */
	char big[1500];
	memset(big, 'x', sizeof big - 2);
	big[sizeof big - 2] = '\n';
	big[sizeof big - 1] = 0;
	p = write_tmp(big);
	assert_int_equal(config_read(p, collect, &s), -EINVAL);
	unlink(p);
}

/* Writes len bytes (NULs allowed) to a temporary file. */
static const char *write_tmp_bytes(const char *data, size_t len)
{
	static char path[64];
	snprintf(path, sizeof path, "/tmp/pirogue-conf-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
	return path;
}

/* config_read with the log captured into *log (the caller frees it). */
static int capture_config(const char *path, struct seen *s, char **log)
{
	size_t len = 0;
	FILE *mem = open_memstream(log, &len);
	log_set_stream(mem);
	int rc = config_read(path, collect, s);
	log_set_stream(NULL);
	fclose(mem);
	return rc;
}

/* issue 11, defect 13: a NUL byte was reported as "line too long"; an
 * inline comment after a value was an error. */
static void test_nul_and_inline_comments(void **st)
{
	(void)st;
	struct seen s = { 0 };
	char *log = NULL;
	static const char nul[] = "scale = 2\nfont = a\0b\n";
	const char *p = write_tmp_bytes(nul, sizeof nul - 1);
	assert_int_equal(capture_config(p, &s, &log), -EINVAL);
	assert_non_null(strstr(log, ":2: the line holds a NUL byte"));
	assert_null(strstr(log, "too long"));
	free(log);
	unlink(p);
	memset(&s, 0, sizeof s);
	p = write_tmp("scale = 2  # big\nrotate = 90\t; portrait\nfont = /f/a#b.png\nmapgen = #\nfb = ;x\n");
	assert_int_equal(config_read(p, collect, &s), 0);
	assert_int_equal(s.n, 5);
	assert_string_equal(s.values[0], "2");
	assert_string_equal(s.values[1], "90");
	assert_string_equal(s.values[2], "/f/a#b.png"); /* no blank before: part of the value */
	assert_string_equal(s.values[3], "#");          /* the value itself */
	assert_string_equal(s.values[4], ";x");
	unlink(p);
	/* the longest line is accepted, one more is refused */
	char longl[CONFIG_LINE_MAX + 3];
	memset(longl, ' ', sizeof longl);
	memcpy(longl, "fb=x", 4);
	longl[CONFIG_LINE_MAX] = '\n';
	p = write_tmp_bytes(longl, CONFIG_LINE_MAX + 1);
	memset(&s, 0, sizeof s);
	assert_int_equal(config_read(p, collect, &s), 0);
	unlink(p);
	longl[CONFIG_LINE_MAX] = ' ';
	longl[CONFIG_LINE_MAX + 1] = '\n';
	p = write_tmp_bytes(longl, CONFIG_LINE_MAX + 2);
	log = NULL;
	assert_int_equal(capture_config(p, &s, &log), -EINVAL);
	assert_non_null(strstr(log, ":1: line too long"));
	free(log);
	unlink(p);
}

/* A UTF-8 byte order mark (a file saved by a Windows editor) is not part of
 * the first setting's name (it was "unknown setting '\xef\xbb\xbfscale'",
 * the mark unseen); a settings file that cannot be read says why (a
 * directory: "Is a directory", it said "Input/output error"). */
static void test_bom_and_read_error(void **st)
{
	(void)st;
	struct seen s = { 0 };
	const char *p = write_tmp("\xef\xbb\xbfscale = 2\nrotate = 90\n");
	assert_int_equal(config_read(p, collect, &s), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.keys[0], "scale");
	assert_string_equal(s.values[0], "2");
	unlink(p);
	memset(&s, 0, sizeof s);
	p = write_tmp("\xef\xbb\xbf\n");
	assert_int_equal(config_read(p, collect, &s), 0);
	assert_int_equal(s.n, 0);
	unlink(p);
	char *log = NULL;
	memset(&s, 0, sizeof s);
	assert_int_equal(capture_config("/", &s, &log), -EISDIR);
	assert_non_null(strstr(log, "cannot read settings file /: Is a directory"));
	free(log);
}

static void test_user_path(void **st)
{
	(void)st;
	char buf[256];
	setenv("XDG_CONFIG_HOME", "/cfg", 1);
	assert_string_equal(config_user_path(buf, sizeof buf), "/cfg/pirogue/pirogue.conf");
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", "/home/u", 1);
	assert_string_equal(config_user_path(buf, sizeof buf), "/home/u/.config/pirogue/pirogue.conf");
	unsetenv("HOME");
	assert_null(config_user_path(buf, sizeof buf));
}

static void test_bindings(void **st)
{
	(void)st;
	struct bindings b;
	char why[512];
	bind_defaults(&b);
	/* not a binding: left to the other settings */
	assert_int_equal(config_binding(&b, "scale", "2", why, sizeof why), -ENOENT);
	assert_int_equal(config_binding(&b, "keys.wait", "z", why, sizeof why), -ENOENT);
	assert_int_equal(config_binding(&b, "key.wait", "z space", why, sizeof why), 0);
	assert_int_equal(bind_action(&b, 'z'), ACT_WAIT);
	assert_int_equal(config_binding(&b, "pad.explore", "pad_y", why, sizeof why), 0);
	assert_int_equal(bind_action(&b, PAD_NORTH), ACT_EXPLORE);
	assert_int_equal(config_binding(&b, "key.fly", "f", why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "unknown action 'fly' in 'key.fly' (actions: move_n move_ne"));
	assert_non_null(strstr(why, " explore help "));
	assert_int_equal(config_binding(&b, "pad.wait", "pad_q", why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "pad.wait: unknown key 'pad_q'"));
	assert_int_equal(config_binding(&b, "key.look", "pad_y", why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "key.look: 'pad_y' is a gamepad button; it goes in pad.look"));
	assert_int_equal(config_binding(&b, "key.", "x", why, sizeof why), -EINVAL);
	assert_null(strchr(why, '\n'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_user_path),
		cmocka_unit_test(test_bindings),
		cmocka_unit_test(test_nul_and_inline_comments),
		cmocka_unit_test(test_bom_and_read_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
