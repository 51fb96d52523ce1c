/* The shipped files (app/data.c): the fonts and the gamepad database found
 * under $PIROGUE_DATA_DIR, a missing or damaged one said in one line. */
#include "testutil.h"
#include "logcap.h"
#include "app/data.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tree[4096];

static int setup(void **st)
{
	(void)st;
	const char *d = getenv("PIROGUE_DATA_DIR");
	if (!d || !*d)
		d = ".";
	snprintf(tree, sizeof tree, "%s", d);
	return 0;
}

static void destroy(struct font **fonts, int n)
{
	for (int i = 0; i < n; i++)
		font_destroy(fonts[i]);
}

/* The shipped fonts: the 8×8 first, then the others that are there. */
static void test_shipped_fonts(void **st)
{
	(void)st;
	struct font *fonts[DATA_FONTS_MAX];
	int n = -1;
	setenv("PIROGUE_DATA_DIR", tree, 1);
	assert_int_equal(data_load_fonts(NULL, FONT_LAYOUT_AUTO, fonts, &n), 0);
	assert_true(n >= 2 && n <= DATA_FONTS_MAX);
	assert_int_equal(fonts[0]->cell_w, 8);
	assert_int_equal(fonts[0]->cell_h, 8);
	destroy(fonts, n);
}

/* --font: that font alone; a file that is not a font: one line, -EINVAL,
 * nothing loaded. */
static void test_given_font(void **st)
{
	(void)st;
	struct font *fonts[DATA_FONTS_MAX];
	char path[4200];
	int n = -1;
	snprintf(path, sizeof path, "%s/fonts/cp437-8x16.png", tree);
	assert_int_equal(data_load_fonts(path, FONT_LAYOUT_AUTO, fonts, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(fonts[0]->cell_h, 16);
	destroy(fonts, n);
	snprintf(path, sizeof path, "%s/fonts/README.md", tree);
	logcap_begin();
	assert_int_equal(data_load_fonts(path, FONT_LAYOUT_AUTO, fonts, &n), -EINVAL);
	logcap_end();
	assert_int_equal(n, 0);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "give --font a PNG tileset or a PSF font"));
}

/* Nothing shipped where it is looked for: one line saying where and what to
 * do, for the fonts and for the gamepad database. */
static void test_nothing_shipped(void **st)
{
	(void)st;
	if (access(PIROGUE_DATADIR "/fonts/cp437-8x8.png", F_OK) == 0) {
		skip(); /* installed on this machine: found there */
	}
	char empty[] = "/tmp/pirogue-data-XXXXXX";
	assert_non_null(mkdtemp(empty));
	setenv("PIROGUE_DATA_DIR", empty, 1);
	struct font *fonts[DATA_FONTS_MAX];
	int n = -1;
	logcap_begin();
	assert_int_equal(data_load_fonts(NULL, FONT_LAYOUT_AUTO, fonts, &n), -ENOENT);
	logcap_end();
	assert_int_equal(n, 0);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "no default font found"));
	assert_non_null(strstr(logcap_buf, "PIROGUE_DATA_DIR"));
	char db[4200];
	logcap_begin();
	assert_null(data_gamepad_db(db, sizeof db));
	logcap_end();
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "--gamepad-db"));
	setenv("PIROGUE_DATA_DIR", tree, 1);
	assert_non_null(data_gamepad_db(db, sizeof db));
	assert_non_null(strstr(db, "gamepads/gamecontrollerdb.txt"));
	rmdir(empty);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_fonts),
		cmocka_unit_test(test_given_font),
		cmocka_unit_test(test_nothing_shipped),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
