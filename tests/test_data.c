/* The shipped files (app/data.c): the fonts and the gamepad database found
 * under $PIROGUE_DATA_DIR, a missing or damaged one said in one line. */
#include "testutil.h"
#include "logcap.h"
#include "app/data.h"
#include "render/blit.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* The shipped fonts: the 8×8 first, then the others that are there, known
 * by their cell size from their headers: none is decoded until the display
 * chooses one (a start used to decode all nine sheets). */
static void test_shipped_fonts(void **st)
{
	(void)st;
	struct font *font = (struct font *)&font;
	struct font_cands c = { 0 };
	setenv("PIROGUE_DATA_DIR", tree, 1);
	assert_int_equal(data_load_fonts(NULL, NULL, FONT_LAYOUT_AUTO, &font, &c), 0);
	assert_null(font);
	assert_true(c.n >= 2 && c.n <= DATA_FONTS_MAX);
	assert_int_equal(c.c[0].cell_w, 8);
	assert_int_equal(c.c[0].cell_h, 8);
	assert_int_equal(c.decodes, 0);
	for (int i = 0; i < c.n; i++)
		assert_null(c.c[i].font);
	font_cands_clear(&c);
}

/* --font: that font alone; a file that is not a font: one line, -EINVAL,
 * nothing loaded. */
static void test_given_font(void **st)
{
	(void)st;
	struct font *font;
	struct font_cands c = { 0 };
	char path[4200];
	snprintf(path, sizeof path, "%s/fonts/cp437-8x16.png", tree);
	assert_int_equal(data_load_fonts(path, NULL, FONT_LAYOUT_AUTO, &font, &c), 0);
	assert_non_null(font);
	assert_int_equal(c.n, 0);
	assert_int_equal(font->cell_h, 16);
	font_destroy(font);
	snprintf(path, sizeof path, "%s/fonts/README.md", tree);
	logcap_begin();
	assert_int_equal(data_load_fonts(path, NULL, FONT_LAYOUT_AUTO, &font, &c), -EINVAL);
	logcap_end();
	assert_null(font);
	assert_int_equal(c.n, 0);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "give --font a PNG tileset or a PSF font"));
}

/* Copies the first n bytes of src (all: n = 0) to dir/rel. */
static void copy_part(const char *src, const char *dir, const char *rel, size_t n)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	FILE *in = fopen(src, "rb"), *out = fopen(path, "wb");
	assert_non_null(in);
	assert_non_null(out);
	char buf[65536];
	size_t got = fread(buf, 1, sizeof buf, in);
	fwrite(buf, 1, n && n < got ? n : got, out);
	fclose(in);
	fclose(out);
}

/* An installed default that is damaged: a file that is not a font is said
 * at start, in one line (its size is not known without it); a sheet whose
 * header is whole but whose pixels are cut off is said when the display
 * chooses it, in one line with the same advice, and not at all when the
 * display takes another. */
static void test_damaged_shipped(void **st)
{
	(void)st;
	char dir[] = "/tmp/pirogue-data-XXXXXX", src[4200], sub[4200];
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof sub, "%s/fonts", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(src, sizeof src, "%s/fonts/cp437-8x8.png", tree);
	copy_part(src, dir, "fonts/cp437-8x8.png", 0);
	snprintf(src, sizeof src, "%s/fonts/dejavu-21x21.png", tree);
	copy_part(src, dir, "fonts/dejavu-21x21.png", 200);
	setenv("PIROGUE_DATA_DIR", dir, 1);
	struct font *font;
	struct font_cands c = { 0 };
	logcap_begin();
	assert_int_equal(data_load_fonts(NULL, NULL, FONT_LAYOUT_AUTO, &font, &c), 0);
	logcap_end();
	assert_int_equal(c.n, 2);
	assert_int_equal(c.c[1].cell_w, 21);
	assert_int_equal(c.decodes, 0);
	const struct font *f = NULL;
	char err[512];
	int scale;
	struct surface s = { .width = 640, .height = 400 };
	assert_int_equal(blit_choose_cands(&c, &s, 80, 50, 40, 24, 0, &f, &scale, err, sizeof err), 0);
	assert_ptr_equal(f, c.c[0].font);
	assert_null(c.c[1].font);
	s = (struct surface){ .width = 1920, .height = 1080 };
	assert_int_equal(blit_choose_cands(&c, &s, 80, 50, 40, 24, 0, &f, &scale, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "dejavu-21x21.png: cannot decode PNG image"));
	assert_non_null(strstr(err, "reinstall pirogue"));
	assert_null(strchr(err, '\n'));
	font_cands_clear(&c);

	snprintf(src, sizeof src, "%s/fonts/README.md", tree);
	copy_part(src, dir, "fonts/cp437-8x9.png", 0);
	logcap_begin();
	assert_int_equal(data_load_fonts(NULL, NULL, FONT_LAYOUT_AUTO, &font, &c), -EINVAL);
	logcap_end();
	assert_int_equal(c.n, 0);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "cp437-8x9.png: not a font"));
	assert_non_null(strstr(logcap_buf, "reinstall pirogue"));
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* Nothing shipped where it is looked for: one line saying where and what to
 * do, for the fonts and for the gamepad database. */
static void test_nothing_shipped(void **st)
{
	(void)st;
	if (access(PIROGUE_DATADIR "/fonts/cp437-8x8.png", F_OK) == 0) {
		print_message("skipped: pirogue is installed on this machine (" PIROGUE_DATADIR "): its fonts are found there\n");
		skip();
	}
	char empty[] = "/tmp/pirogue-data-XXXXXX";
	assert_non_null(mkdtemp(empty));
	setenv("PIROGUE_DATA_DIR", empty, 1);
	struct font *font;
	struct font_cands c = { 0 };
	logcap_begin();
	assert_int_equal(data_load_fonts(NULL, NULL, FONT_LAYOUT_AUTO, &font, &c), -ENOENT);
	logcap_end();
	assert_int_equal(c.n, 0);
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
		cmocka_unit_test(test_damaged_shipped),
		cmocka_unit_test(test_nothing_shipped),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
