/* Tests for platform/headless (and the backend list in platform/display.c). */
#include "testutil.h"
#include "blitfont.h"
#include "platform/display.h"
#include "platform/headless.h"
#include "render/blit.h"
#include "render/console.h"
#include "core/log.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stb_image.h>

static char tmpdir[64];

static int setup(void **st)
{
	(void)st;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/pirogue-headless-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static struct display *open_hl(const struct font *f, int scale, int rot, int w, int h)
{
	struct display_opts o = { 0 };
	o.font = f;
	o.scale = scale;
	o.rotation = rot;
	o.width = w;
	o.height = h;
	struct display *d;
	assert_int_equal(headless_display_ops.open(&d, &o), 0);
	assert_non_null(d);
	assert_ptr_equal(d->ops, &headless_display_ops);
	return d;
}

/* The frame a correct backend shows: c blitted in full on a black surface. */
static struct surface expected(const struct font *f, int scale, const struct surface *like,
			       const struct console *c)
{
	struct surface e = *like;
	e.pixels = malloc((size_t)e.stride * (size_t)e.height);
	assert_non_null(e.pixels);
	blit_clear(&e, 0);
	struct blitter *b;
	assert_int_equal(blit_create(&b, f, scale), 0);
	blit_set_centred(b, true); /* as the pixel backends draw */
	blit_draw(b, c, &e, NULL);
	blit_destroy(b);
	return e;
}

/* Screenshot of d, read back, equals surface e pixel for pixel. */
static void check_screenshot(struct display *d, const struct surface *e, const char *name)
{
	char path[128];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	assert_int_equal(d->ops->screenshot(d, path), 0);
	int w, h, n;
	uint8_t *png = stbi_load(path, &w, &h, &n, 3);
	assert_non_null(png);
	assert_int_equal(w, e->width);
	assert_int_equal(h, e->height);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint32_t p;
			memcpy(&p, (const uint8_t *)e->pixels + (size_t)y * (size_t)e->stride + 4 * (size_t)x, 4);
			const uint8_t *q = png + ((size_t)y * (size_t)w + (size_t)x) * 3;
			uint32_t got = (uint32_t)q[0] << 16 | (uint32_t)q[1] << 8 | q[2];
			if (got != (p & 0xFFFFFF)) {
				stbi_image_free(png);
				fail_msg("%s: pixel (%d, %d) is %06x, want %06x", name, x, y, got, p & 0xFFFFFF);
			}
		}
	stbi_image_free(png);
}

static void test_present_and_screenshot(void **st)
{
	(void)st;
	struct font *f = tf_make(0);
	/* default size 640×400, turned: the console is 400 wide, 640 tall */
	struct display *d = open_hl(f, 2, 90, 0, 0);
	const struct surface *s = headless_surface(d);
	assert_int_equal(s->width, HEADLESS_DEFAULT_W);
	assert_int_equal(s->height, HEADLESS_DEFAULT_H);
	int cols, rows;
	d->ops->console_size(d, &cols, &rows);
	assert_int_equal(cols, 400 / (TF_W * 2));
	assert_int_equal(rows, 640 / (TF_H * 2));
	int fds[4];
	assert_int_equal(d->ops->poll_fds(d, fds, 4), 0);

	struct console *c;
	assert_int_equal(con_create(&c, cols, rows), 0);
	con_print(c, 1, 1, 0xFFFF00, 0x000080, "FR@g", -1);
	con_put(c, 0, 0, TF_BLEND_CP, 0xFF0000, 0x00FF00);
	con_put(c, cols - 1, rows - 1, 0x2588, 0x00FFFF, 0);
	assert_int_equal(d->ops->present(d, c), 0);
	con_clear_damage(c);
	struct surface e = expected(f, 2, s, c);
	check_screenshot(d, &e, "one.png");
	free(e.pixels);

	/* a few cells change: only they are redrawn, and the frame is right */
	con_print(c, 3, 5, 0xFFFFFF, 0x400040, "gRF", -1);
	con_put(c, 1, 1, 'R', 0x00FF00, 0);
	assert_int_equal(d->ops->present(d, c), 0);
	con_clear_damage(c);
	e = expected(f, 2, s, c);
	check_screenshot(d, &e, "two.png");
	free(e.pixels);

	/* a smaller console: what the bigger one drew outside it is gone */
	assert_int_equal(con_resize(c, 3, 2), 0);
	con_print(c, 0, 0, 0xFFFFFF, 0x203040, "@@@", -1);
	assert_int_equal(d->ops->present(d, c), 0);
	e = expected(f, 2, s, c);
	check_screenshot(d, &e, "three.png");
	free(e.pixels);

	con_destroy(c);
	d->ops->close(d);
	headless_display_ops.close(NULL);
	tf_free(f);
}

static void test_screenshot_before_present_is_black(void **st)
{
	(void)st;
	struct font *f = tf_make(1);
	struct display *d = open_hl(f, 1, 0, 33, 17);
	const struct surface *s = headless_surface(d);
	struct surface e = *s;
	e.pixels = calloc((size_t)s->stride, (size_t)s->height);
	assert_non_null(e.pixels);
	check_screenshot(d, &e, "black.png");
	free(e.pixels);
	d->ops->close(d);
	tf_free(f);
}

static void test_bad_screenshot_path(void **st)
{
	(void)st;
	struct font *f = tf_make(0);
	struct display *d = open_hl(f, 1, 0, 64, 48);
	char *msg = NULL;
	size_t msglen = 0;
	FILE *mf = open_memstream(&msg, &msglen);
	assert_non_null(mf);
	log_set_stream(mf);
	char path[128];
	snprintf(path, sizeof path, "%s/no-such-dir/shot.png", tmpdir);
	int rc = d->ops->screenshot(d, path);
	log_set_stream(NULL);
	fclose(mf);
	assert_int_equal(rc, -ENOENT);
	assert_non_null(strstr(msg, path));
	assert_non_null(strchr(msg, '\n'));
	assert_ptr_equal(strchr(msg, '\n'), msg + strlen(msg) - 1); /* one line */
	free(msg);
	assert_int_not_equal(access(path, F_OK), 0);
	if (access("/dev/full", W_OK) == 0) { /* a full disk */
		FILE *nul = fopen("/dev/null", "w");
		log_set_stream(nul);
		rc = d->ops->screenshot(d, "/dev/full");
		log_set_stream(NULL);
		if (nul)
			fclose(nul);
		assert_int_equal(rc, -ENOSPC);
		assert_int_equal(access("/dev/full", F_OK), 0);
	}
	d->ops->close(d);
	tf_free(f);
}

static void test_open_rejects(void **st)
{
	(void)st;
	struct font *f = tf_make(0);
	struct display_opts o = { 0 };
	struct display *d = (struct display *)&o;
	o.scale = 1;
	assert_int_equal(headless_display_ops.open(&d, &o), -EINVAL); /* no font */
	assert_null(d);
	o.font = f;
	o.width = -5;
	assert_int_equal(headless_display_ops.open(&d, &o), -EINVAL);
	o.width = HEADLESS_MAX_SIDE + 1;
	assert_int_equal(headless_display_ops.open(&d, &o), -EINVAL);
	o.width = 100;
	o.rotation = 45;
	assert_int_equal(headless_display_ops.open(&d, &o), -EINVAL);
	o.rotation = 270;
	o.scale = 9;
	assert_int_equal(headless_display_ops.open(&d, &o), -EINVAL);
	o.scale = 3;
	assert_int_equal(headless_display_ops.open(&d, &o), 0);
	int cols, rows;
	d->ops->console_size(d, &cols, &rows);
	assert_int_equal(cols, HEADLESS_DEFAULT_H / (TF_W * 3)); /* width 100, height default 400, turned */
	assert_int_equal(rows, 100 / (TF_H * 3));
	d->ops->close(d);
	/* scale 0: the largest that shows 80×50 cells of 10×12 (800×600 at 1) */
	o.rotation = 0;
	o.scale = 0;
	o.width = 1700;
	o.height = 1250;
	assert_int_equal(headless_display_ops.open(&d, &o), 0);
	d->ops->console_size(d, &cols, &rows);
	assert_int_equal(cols, 85); /* scale 2 */
	assert_int_equal(rows, 52);
	d->ops->close(d);
	o.width = 300; /* not even at scale 1: scale 1 */
	assert_int_equal(headless_display_ops.open(&d, &o), 0);
	d->ops->console_size(d, &cols, &rows);
	assert_int_equal(cols, 30);
	d->ops->close(d);
	tf_free(f);
}

/* Without --font the shipped fonts are candidates: the display takes the
 * one that fills it best (blit_choose_cands), says which, and decodes only
 * that one (on a small panel also those whose lines it had to look at). */
static void test_automatic_font(void **st)
{
	(void)st;
	static const char *const paths[] = { "fonts/cp437-8x8.png",    "fonts/cp437-8x9.png",	 "fonts/cp437-8x16.png",
					      "fonts/dejavu-12x12.png", "fonts/dejavu-14x14.png", "fonts/dejavu-16x16.png",
					      "fonts/dejavu-18x18.png", "fonts/dejavu-21x21.png", "fonts/dejavu-24x24.png" };
	char err[512];
	static const struct {
		int w, h, font, cols, rows, decodes;
	} cases[] = {
		{ 640, 400, 0, 80, 50, 1 },  { 1280, 800, 5, 80, 50, 1 }, { 1920, 1080, 7, 91, 51, 1 },
		{ 1366, 768, 4, 97, 54, 1 }, { 320, 240, 1, 40, 26, 2 }, /* the 8×8's lines touch: looked at */
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct font_cands c = { 0 };
		for (int k = 0; k < 9; k++)
			if (font_cands_add(&c, paths[k], err, sizeof err))
				fail_msg("%s", err);
		struct display_opts o = { 0 };
		o.fonts = &c;
		struct display *d;
		o.width = cases[i].w;
		o.height = cases[i].h;
		assert_int_equal(headless_display_ops.open(&d, &o), 0);
		assert_non_null(d->font);
		assert_ptr_equal(d->font, c.c[cases[i].font].font);
		assert_int_equal(c.decodes, cases[i].decodes);
		int cols, rows;
		d->ops->console_size(d, &cols, &rows);
		assert_int_equal(cols, cases[i].cols);
		assert_int_equal(rows, cases[i].rows);
		d->ops->close(d);
		font_cands_clear(&c);
	}
}

static void test_backend_list(void **st)
{
	(void)st;
	assert_ptr_equal(display_find("headless"), &headless_display_ops);
	assert_non_null(display_find("term"));
	assert_null(display_find("nope"));
	int n = 0, seen_headless = 0;
	for (; display_backends[n]; n++) {
		assert_non_null(display_backends[n]->name);
		assert_ptr_equal(display_find(display_backends[n]->name), display_backends[n]);
		seen_headless += display_backends[n] == &headless_display_ops;
	}
	assert_int_equal(seen_headless, 1);
	assert_ptr_equal(display_backends[n - 1], &headless_display_ops); /* the last resort */
	char why[512];
	const struct display_ops *a = display_auto(&(struct display_opts){ 0 }, why, sizeof why);
	/* headless is never the automatic choice: a backend that shows the
	 * game, or none with the reason (issue 11, defect 2) */
	assert_ptr_not_equal(a, &headless_display_ops);
	if (a)
		assert_non_null(strstr(why, a->name));
	else
		assert_non_null(strstr(why, "none: nothing can show the game"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_present_and_screenshot),
		cmocka_unit_test(test_screenshot_before_present_is_black),
		cmocka_unit_test(test_bad_screenshot_path),
		cmocka_unit_test(test_open_rejects),
		cmocka_unit_test(test_automatic_font),
		cmocka_unit_test(test_backend_list),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
