#include "testutil.h"
#include "blitfont.h"
#include "core/log.h"
#include "platform/display.h"
#include "platform/fbdev.h"
#include <errno.h>
#include <linux/fb.h>
#include <stdlib.h>
#include <string.h>
#include "openhook.h"

static struct fb_var_screeninfo var(int bpp, int ro, int rl, int go, int gl, int bo, int bl)
{
	struct fb_var_screeninfo v;
	memset(&v, 0, sizeof v);
	v.xres = 320;
	v.yres = 240;
	v.bits_per_pixel = (unsigned)bpp;
	v.red = (struct fb_bitfield){ (unsigned)ro, (unsigned)rl, 0 };
	v.green = (struct fb_bitfield){ (unsigned)go, (unsigned)gl, 0 };
	v.blue = (struct fb_bitfield){ (unsigned)bo, (unsigned)bl, 0 };
	return v;
}

static void test_format(void **st)
{
	(void)st;
	enum surf_format f = (enum surf_format)99;
	struct fb_var_screeninfo v = var(16, 11, 5, 5, 6, 0, 5);
	assert_int_equal(fbdev_format(&v, &f), 0);
	assert_int_equal(f, SURF_RGB565);
	v = var(32, 16, 8, 8, 8, 0, 8);
	v.transp = (struct fb_bitfield){ 24, 8, 0 };
	assert_int_equal(fbdev_format(&v, &f), 0);
	assert_int_equal(f, SURF_XRGB8888);
	v = var(32, 0, 8, 8, 8, 16, 8); /* BGR order */
	assert_int_equal(fbdev_format(&v, &f), -ENOTSUP);
	v = var(24, 16, 8, 8, 8, 0, 8);
	assert_int_equal(fbdev_format(&v, &f), -ENOTSUP);
	v = var(16, 10, 5, 5, 5, 0, 5); /* RGB555 */
	assert_int_equal(fbdev_format(&v, &f), -ENOTSUP);
	v = var(8, 0, 8, 0, 8, 0, 8);
	assert_int_equal(fbdev_format(&v, &f), -ENOTSUP);
	v = var(16, 11, 5, 5, 6, 0, 5);
	v.grayscale = 1;
	assert_int_equal(fbdev_format(&v, &f), -ENOTSUP);
}

/* Opens with o, capturing the one log line into line. */
static int open_logged(const struct display_opts *o, char *line, size_t len)
{
	char *buf = NULL;
	size_t blen = 0;
	FILE *mem = open_memstream(&buf, &blen);
	assert_non_null(mem);
	log_set_stream(mem);
	struct display *d = (struct display *)1;
	int rc = fbdev_display_ops.open(&d, o);
	log_set_stream(NULL);
	fclose(mem);
	assert_null(d);
	snprintf(line, len, "%s", buf ? buf : "");
	free(buf);
	return rc;
}

static void test_open_errors(void **st)
{
	(void)st;
	struct font *f = tf_make(0);
	char line[512];
	struct display_opts o = { .font = f, .scale = 1, .fb = "/nonexistent/fb7" };
	assert_int_equal(open_logged(&o, line, sizeof line), -ENOENT);
	assert_non_null(strstr(line, "/nonexistent/fb7"));
	assert_non_null(strstr(line, "--fb"));
	assert_int_equal(strchr(line, '\n'), line + strlen(line) - 1); /* one line */
	o.fb = "/dev/null";
	assert_true(open_logged(&o, line, sizeof line) < 0);
	assert_non_null(strstr(line, "/dev/null: not a framebuffer"));
	o.font = NULL;
	assert_int_equal(open_logged(&o, line, sizeof line), -EINVAL);
	fbdev_display_ops.close(NULL);
	tf_free(f);
}

static void test_probe_and_list(void **st)
{
	(void)st;
	char path[64] = "", why[256] = "";
	struct display_opts o = { .fb = "/nonexistent/fb7" };
	assert_true(fbdev_probe(&o, false, path, sizeof path, why, sizeof why) < 0);
	assert_non_null(strstr(why, "/nonexistent/fb7 cannot be opened"));
	assert_string_equal(path, "");
	char *buf = NULL;
	size_t blen = 0;
	FILE *mem = open_memstream(&buf, &blen);
	int n = fbdev_list_displays(mem);
	fclose(mem);
	assert_true(n >= 0);
	assert_true(!strncmp(buf, "Framebuffers:\n", 14));
	if (n == 0)
		assert_non_null(strstr(buf, "none"));
	free(buf);
}

/* A framebuffer that open(2) refuses: EPERM is the device policy this runs
 * under (a systemd unit's DeviceAllow=, a container's), said to be that
 * with the line that admits framebuffers, never the video group; EACCES is
 * the node's mode, which the video group mends. Both at open and in
 * --list-displays, one line each. */
static void test_refused_open(void **st)
{
	(void)st;
	struct font *f = tf_make(0);
	char line[512];
	openhook_refuse("/dev/fb-eperm", EPERM);
	openhook_refuse("/dev/fb-eacces", EACCES);
	struct display_opts o = { .font = f, .scale = 1, .fb = "/dev/fb-eperm" };
	assert_int_equal(open_logged(&o, line, sizeof line), -EPERM);
	assert_non_null(strstr(line, "/dev/fb-eperm: Operation not permitted: refused by the device policy"));
	assert_non_null(strstr(line, "DeviceAllow=char-29 rw"));
	assert_null(strstr(line, "video group"));
	assert_int_equal(strchr(line, '\n'), line + strlen(line) - 1);
	o.fb = "/dev/fb-eacces";
	assert_int_equal(open_logged(&o, line, sizeof line), -EACCES);
	assert_non_null(strstr(line, "/dev/fb-eacces: Permission denied: add the user to the video group"));
	assert_null(strstr(line, "device policy"));
	assert_int_equal(strchr(line, '\n'), line + strlen(line) - 1);
	tf_free(f);

	/* --list-displays looks at /dev/fb0, fb1, ... whatever this host has */
	static const int errs[] = { EPERM, EACCES };
	for (int i = 0; i < 2; i++) {
		openhook_clear();
		openhook_refuse("/dev/fb0", errs[i]);
		char *buf = NULL;
		size_t blen = 0;
		FILE *mem = open_memstream(&buf, &blen);
		assert_true(fbdev_list_displays(mem) >= 1);
		fclose(mem);
		char *l = strstr(buf, "/dev/fb0: cannot open: ");
		assert_non_null(l);
		*strchr(l, '\n') = 0;
		if (errs[i] == EPERM) {
			assert_non_null(strstr(l, "refused by the device policy"));
			assert_non_null(strstr(l, "DeviceAllow=char-29 rw"));
			assert_null(strstr(l, "video group"));
		} else {
			assert_non_null(strstr(l, "video group"));
			assert_null(strstr(l, "device policy"));
		}
		free(buf);
	}
	openhook_clear();
}

/* The automatic choice's summary (display_auto: the program's "display:"
 * or "nothing can show the game" line, --list-displays' "Automatic
 * choice") gives a refused framebuffer the same advice as its open does,
 * whole: the device policy for EPERM, the video group for EACCES. */
static void test_auto_choice_refused(void **st)
{
	(void)st;
	static const int errs[] = { EPERM, EACCES };
	for (int i = 0; i < 2; i++) {
		openhook_clear();
		openhook_refuse("/dev/fb-refused", errs[i]);
		struct display_opts o = { .card = "/nonexistent/card9", .fb = "/dev/fb-refused" };
		char path[64] = "", why[1024];
		assert_int_equal(fbdev_probe(&o, false, path, sizeof path, why, sizeof why), -errs[i]);
		const char *want = errs[i] == EPERM
					   ? "/dev/fb-refused cannot be opened (Operation not permitted): refused by the "
					     "device policy this runs under (a cgroup's: systemd's DeviceAllow=, a "
					     "container's), not by the file's permissions: allow framebuffers, major 29 "
					     "(DeviceAllow=char-29 rw)"
					   : "/dev/fb-refused cannot be opened (Permission denied): add the user to the "
					     "video group (sudo usermod -aG video $USER, then log in again) or run as root";
		assert_string_equal(why, want);
		const struct display_ops *a = display_auto(&o, why, sizeof why);
		assert_true(a == NULL || a == display_find("term"));
		const char *at = strstr(why, "no usable framebuffer: ");
		assert_non_null(at);
		assert_non_null(strstr(at, want));
		if (errs[i] == EPERM)
			assert_null(strstr(why, "video group"));
		else
			assert_null(strstr(why, "device policy"));
	}
	openhook_clear();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_probe_and_list),
		cmocka_unit_test(test_refused_open),
		cmocka_unit_test(test_auto_choice_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
