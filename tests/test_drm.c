#include "testutil.h"
#include "blitfont.h"
#include "core/log.h"
#include "platform/display.h"
#if WITH_DRM
#include "platform/drm.h"
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Everything printed to a memory stream by fn(arg). */
static char *capture_log(int (*fn)(void *), void *arg, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	assert_non_null(mem);
	log_set_stream(mem);
	*rc = fn(arg);
	log_set_stream(NULL);
	fclose(mem);
	return buf;
}

static int list_into(void *arg)
{
	char **out = arg;
	size_t len = 0;
	FILE *mem = open_memstream(out, &len);
	int rc = display_list(mem, NULL);
	fclose(mem);
	return rc;
}

static void test_display_list(void **st)
{
	(void)st;
	char *out = NULL;
	int rc;
	free(capture_log(list_into, &out, &rc));
	assert_true(rc >= 0);
	assert_non_null(strstr(out, "Framebuffers:"));
	char *auto_line = strstr(out, "Automatic choice: ");
	assert_non_null(auto_line);
	/* the chosen backend is named first, and it is one that is built in */
	char name[16] = "";
	sscanf(auto_line + 18, "%15[a-z]", name);
	assert_true(display_find(name) || !strcmp(name, "none"));
	assert_string_not_equal(name, "headless");
#if WITH_DRM
	assert_non_null(strstr(out, "DRM cards"));
#else
	assert_non_null(strstr(out, "DRM: not built in"));
#endif
	free(out);
}

static void test_auto_explains_refusals(void **st)
{
	(void)st;
	char why[768];
	struct display_opts o = { .card = "/nonexistent/card9", .fb = "/nonexistent/fb9" };
	const struct display_ops *a = display_auto(&o, why, sizeof why);
	assert_true(a == display_find("term") || a == NULL);
	const char *name = a ? a->name : "none";
	assert_true(!strncmp(why, name, strlen(name)));
	assert_non_null(strstr(why, "/nonexistent/fb9 cannot be opened"));
#if WITH_DRM
	assert_non_null(strstr(why, "/nonexistent/card9 cannot be opened"));
#else
	assert_null(display_find("drm"));
	assert_non_null(strstr(why, "drm not built in"));
#endif
}

#if WITH_DRM
struct open_args {
	struct display_opts o;
	struct display *d;
};

static int do_open(void *arg)
{
	struct open_args *a = arg;
	a->d = (struct display *)1;
	return drm_display_ops.open(&a->d, &a->o);
}

static void test_open_errors(void **st)
{
	(void)st;
	struct font *f = tf_make(0);
	struct open_args a = { .o = { .font = f, .scale = 1, .card = "/nonexistent/card9" } };
	int rc;
	char *line = capture_log(do_open, &a, &rc);
	assert_int_equal(rc, -ENOENT);
	assert_null(a.d);
	assert_non_null(strstr(line, "/nonexistent/card9: no such DRM card"));
	assert_non_null(strstr(line, "--list-displays"));
	assert_ptr_equal(strchr(line, '\n'), line + strlen(line) - 1); /* one line */
	free(line);

	a.o.card = "/dev/null"; /* opens, but is no display controller */
	line = capture_log(do_open, &a, &rc);
	assert_int_equal(rc, -ENODEV);
	assert_null(a.d);
	assert_non_null(strstr(line, "/dev/null"));
	assert_non_null(strstr(line, "--card"));
	assert_ptr_equal(strchr(line, '\n'), line + strlen(line) - 1);
	free(line);

	a.o.font = NULL;
	line = capture_log(do_open, &a, &rc);
	assert_int_equal(rc, -EINVAL);
	free(line);
	drm_display_ops.close(NULL);
	drm_emergency_restore(); /* nothing open: nothing happens */
	tf_free(f);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_display_list),
		cmocka_unit_test(test_auto_explains_refusals),
#if WITH_DRM
		cmocka_unit_test(test_open_errors),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
