/* Tests for platform/holders: the processes holding character devices, in
 * a /proc of the test's making whose fd links point at /dev/null (1:3) and
 * /dev/zero (1:5). */
#include "testutil.h"
#include "fakeproc.h"
#include "platform/holders.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* Bit 1: /dev/null; bit 2: /dev/zero. */
static unsigned null_zero(dev_t rdev, void *ctx)
{
	(void)ctx;
	return rdev == makedev(1, 3) ? 1 : rdev == makedev(1, 5) ? 2 : 0;
}

static void test_find(void **st)
{
	(void)st;
	char tmp[] = "/tmp/pirogue-holders-XXXXXX";
	assert_non_null(mkdtemp(tmp));
	char proc[64];
	snprintf(proc, sizeof proc, "%s/proc", tmp);
	mkdir(proc, 0755);
	fakeproc_comm(proc, 10, "both");
	fakeproc_fd(proc, 10, 3, "/dev/null");
	fakeproc_fd(proc, 10, 4, "/dev/zero");
	fakeproc_comm(proc, 20, "null\033]0;x"); /* a hostile name */
	fakeproc_fd(proc, 20, 0, "/dev/null");
	fakeproc_fd(proc, 30, 1, "/dev/null"); /* no comm file */
	fakeproc_comm(proc, 40, "nothing");
	fakeproc_fd(proc, 40, 1, "/tmp");
	char self[96];
	snprintf(self, sizeof self, "%s/self", proc);
	mkdir(self, 0755); /* not a pid */
	char who[256];
	/* both devices: one process */
	assert_int_equal(holders_find(proc, 1, null_zero, NULL, 3, 0, who, sizeof who), 1);
	assert_string_equal(who, "both (pid 10)");
	/* itself is left out */
	assert_int_equal(holders_find(proc, 10, null_zero, NULL, 3, 0, who, sizeof who), 0);
	assert_string_equal(who, "");
	/* /dev/null alone: three, names cleaned, "?" without a name */
	assert_int_equal(holders_find(proc, 1, null_zero, NULL, 1, 0, who, sizeof who), 3);
	assert_non_null(strstr(who, "both (pid 10)"));
	assert_non_null(strstr(who, "null?]0;x (pid 20)"));
	assert_non_null(strstr(who, "? (pid 30)"));
	/* at most two; a small buffer is cut, the count stays */
	assert_int_equal(holders_find(proc, 1, null_zero, NULL, 1, 2, who, sizeof who), 2);
	char small[8];
	assert_int_equal(holders_find(proc, 1, null_zero, NULL, 1, 0, small, sizeof small), 3);
	assert_int_equal(strlen(small), 7);
	assert_int_equal(holders_find("/nonexistent", 1, null_zero, NULL, 1, 0, who, sizeof who), -ENOENT);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
