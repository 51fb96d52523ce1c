#include "testutil.h"
#include "save/record.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static int setup(void **st)
{
	(void)st;
	snprintf(dir, sizeof dir, "/tmp/pirogue-rec-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd);
}

static void write_file(const char *name, const char *text, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_round_trip(void **st)
{
	(void)st;
	char path[128];
	snprintf(path, sizeof path, "%s/a.rec", dir);
	struct rec_writer *w;
	assert_int_equal(rec_writer_open(&w, path, 18446744073709551615ull, "overlap"), 0);
	assert_int_equal(rec_writer_add(w, CMD_MOVE_N, 1, 0x0123456789abcdefull), 0);
	assert_int_equal(rec_writer_add(w, CMD_WAIT, 2, 0xfedcba9876543210ull), 0);
	assert_int_equal(rec_writer_add(w, CMD_NONE, 2, 1), 0);
	rec_writer_close(w);
	rec_writer_close(NULL);

	struct recording r;
	char err[256];
	assert_int_equal(rec_load(path, &r, err, sizeof err), 0);
	assert_true(r.seed == 18446744073709551615ull);
	assert_string_equal(r.mapgen, "overlap");
	assert_int_equal(r.nsteps, 3);
	assert_int_equal(r.steps[0].cmd, CMD_MOVE_N);
	assert_int_equal(r.steps[0].turn, 1);
	assert_true(r.steps[0].checksum == 0x0123456789abcdefull);
	assert_int_equal(r.steps[1].cmd, CMD_WAIT);
	assert_true(r.steps[1].checksum == 0xfedcba9876543210ull);
	assert_int_equal(r.steps[2].cmd, CMD_NONE);
	assert_int_equal(r.steps[0].line, 5);
	rec_free(&r);
}

static void expect_error(const char *text, const char *needle)
{
	char path[128], err[256] = "";
	struct recording r;
	write_file("bad.rec", text, path, sizeof path);
	assert_int_equal(rec_load(path, &r, err, sizeof err), -EINVAL);
	if (!strstr(err, needle))
		fail_msg("error '%s' does not contain '%s'", err, needle);
	assert_non_null(strstr(err, "bad.rec"));
	assert_null(r.steps);
}

static void test_damaged(void **st)
{
	(void)st;
	expect_error("", "empty file");
	expect_error("hello\n", "not a pirogue recording");
	expect_error(REC_MAGIC "\nmove_n 1 0000000000000000\n", "before the 'seed' line");
	expect_error(REC_MAGIC "\nseed 1\nfly 1 0000000000000000\n", ":3: unknown command 'fly'");
	expect_error(REC_MAGIC "\nseed 1\nwait 1 00000000\n", ":3: expected");
	expect_error(REC_MAGIC "\nseed 1\nwait x 000000000000000z\n", ":3: expected");
	expect_error(REC_MAGIC "\nseed -1\n", "bad seed");
	expect_error(REC_MAGIC "\nmapgen classic\n", "no 'seed' line");
	expect_error(REC_MAGIC "\nseed 1\nmapgen averyveryverylongname\n", ":3: bad map generator name");
	char path[128], err[256];
	struct recording r;
	snprintf(path, sizeof path, "%s/missing.rec", dir);
	assert_int_equal(rec_load(path, &r, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "missing.rec"));
}

static void test_comments_and_default_mapgen(void **st)
{
	(void)st;
	char path[128], err[256];
	struct recording r;
	write_file("c.rec", REC_MAGIC "\n# a comment\n\nseed 7   # trailing\nwait 1 00000000000000ff\n", path,
		   sizeof path);
	assert_int_equal(rec_load(path, &r, err, sizeof err), 0);
	assert_string_equal(r.mapgen, "classic");
	assert_int_equal(r.nsteps, 1);
	assert_true(r.steps[0].checksum == 0xff);
	rec_free(&r);
}

static void test_unwritable(void **st)
{
	(void)st;
	struct rec_writer *w;
	assert_int_equal(rec_writer_open(&w, "/nonexistent-dir/x.rec", 1, "classic"), -ENOENT);
	assert_null(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_comments_and_default_mapgen),
		cmocka_unit_test(test_unwritable),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
