/* Tests for platform/drmcard: the backend probe and --list-displays on
 * whatever cards this host has (none is fine), and a card that is not there. */
#include "testutil.h"
#if WITH_DRM
#include "logcap.h"
#include "platform/drmcard.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	int fd = drmcard_find("card97", "", path, sizeof path);
	logcap_end();
	assert_int_equal(fd, -ENOENT);
	assert_string_equal(path, "/dev/dri/card97");
	assert_non_null(strstr(logcap_buf, "/dev/dri/card97: no such DRM card"));
	assert_int_equal(logcap_lines(logcap_buf), 1);
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
#else
		cmocka_unit_test(test_not_built),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
