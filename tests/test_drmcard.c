/* Tests for platform/drmcard: the backend probe and --list-displays on
 * whatever cards this host has (none is fine), a card that is not there,
 * and cards that open(2) refuses (tests/openhook.h): EACCES is the node's
 * permissions (the video group), EPERM a cgroup's device policy (a systemd
 * unit's DeviceAllow=), which no group mends. */
#include "testutil.h"
#if WITH_DRM
#include "logcap.h"
#include "platform/devnode.h"
#include "platform/drmcard.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "openhook.h"

static void test_probe_and_list(void **st)
{
	(void)st;
	char why[256];
	struct display_opts o = { .card = "card97" }; /* a bare name means /dev/dri/<name> */
	assert_int_equal(drmcard_probe(&o, why, sizeof why), -ENOENT);
	assert_non_null(strstr(why, "/dev/dri/card97 cannot be opened"));
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int n = drmcard_list(mem);
	fclose(mem);
	assert_true(n >= 0);
	if (n == 0)
		assert_non_null(strstr(buf, "none (/dev/dri/card* does not exist"));
	free(buf);
}

/* A card named but missing: opening it for the display says so in one line. */
static void test_find_missing(void **st)
{
	(void)st;
	char path[DRMCARD_PATH_LEN];
	logcap_begin();
	int fd = drmcard_find("card97", "", true, path, sizeof path);
	logcap_end();
	assert_int_equal(fd, -ENOENT);
	assert_string_equal(path, "/dev/dri/card97");
	assert_non_null(strstr(logcap_buf, "/dev/dri/card97: no such DRM card"));
	assert_int_equal(logcap_lines(logcap_buf), 1);
}

/* A card the device policy refuses (EPERM: what a systemd unit's
 * DevicePolicy=closed does to a card its DeviceAllow= does not cover) is
 * said to be that, with the fix, and not blamed on the video group; one
 * the node's permissions refuse (EACCES) names the video group. */
static void test_refused_open(void **st)
{
	(void)st;
	char path[DRMCARD_PATH_LEN];
	openhook_refuse("/dev/dri/card-eperm", EPERM);
	openhook_refuse("/dev/dri/card-eacces", EACCES);
	logcap_begin();
	int fd = drmcard_find("card-eperm", "", true, path, sizeof path);
	logcap_end();
	assert_int_equal(fd, -EPERM);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "/dev/dri/card-eperm: Operation not permitted: refused by the device policy"));
	assert_non_null(strstr(logcap_buf, "DeviceAllow=char-226 rw"));
	assert_null(strstr(logcap_buf, "video group"));

	char why[400];
	struct display_opts o = { .card = "card-eperm" };
	assert_int_equal(drmcard_probe(&o, why, sizeof why), -EPERM);
	assert_non_null(strstr(why, "cannot be opened (Operation not permitted): refused by the device policy"));
	assert_non_null(strstr(why, "char-226"));
	assert_null(strstr(why, "video group"));

	logcap_begin();
	fd = drmcard_find("card-eacces", "", true, path, sizeof path);
	logcap_end();
	assert_int_equal(fd, -EACCES);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "/dev/dri/card-eacces: Permission denied: add the user to the video group"));
	assert_null(strstr(logcap_buf, "device policy"));
	o.card = "card-eacces";
	assert_int_equal(drmcard_probe(&o, why, sizeof why), -EACCES);
	assert_non_null(strstr(why, "video group"));

	assert_string_equal(devnode_advice(DEVNODE_DRM, ENOENT), "");
	openhook_clear();
}
#else
static void test_not_built(void **st)
{
	(void)st;
	print_message("skipped: built with WITH_DRM=0: no DRM backend\n");
	skip();
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
#if WITH_DRM
		cmocka_unit_test(test_probe_and_list),
		cmocka_unit_test(test_find_missing),
		cmocka_unit_test(test_refused_open),
#else
		cmocka_unit_test(test_not_built),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
