/* Which display backend runs the game (app/backend.c): the one asked for,
 * headless for a replay, one line for one not built in; which own the
 * console; no check but DRM's before the VT. */
#include "testutil.h"
#include "logcap.h"
#include "app/backend.h"
#include <string.h>

static void test_asked_for(void **st)
{
	(void)st;
	struct app_config cfg = { .backend = "headless", .scale = 2, .rotation = 90, .width = 320, .height = 240,
				  .card = "/dev/dri/card1", .fb = "/dev/fb1", .vt = 3 };
	struct display_opts o;
	backend_opts(&cfg, &o);
	assert_int_equal(o.scale, 2);
	assert_int_equal(o.rotation, 90);
	assert_int_equal(o.width, 320);
	assert_int_equal(o.height, 240);
	assert_string_equal(o.card, "/dev/dri/card1");
	assert_string_equal(o.fb, "/dev/fb1");
	assert_int_equal(o.vt, 3);
	assert_null(o.font);
	const struct display_ops *ops = backend_choose(&cfg, &o);
	assert_non_null(ops);
	assert_string_equal(ops->name, "headless");
	assert_false(backend_is_bare(ops));
	assert_int_equal(backend_check(ops, &o), 0);
	/* a replay is drawn headless whatever was asked */
	cfg.backend = "term";
	cfg.replay = "game.rec";
	assert_string_equal(backend_choose(&cfg, &o)->name, "headless");
	cfg.replay = NULL;
	assert_string_equal(backend_choose(&cfg, &o)->name, "term");
}

/* A backend not built in: NULL and one line naming it and the fix. */
static void test_not_built_in(void **st)
{
	(void)st;
	struct app_config cfg = { .backend = "vga" };
	struct display_opts o;
	backend_opts(&cfg, &o);
	logcap_begin();
	assert_null(backend_choose(&cfg, &o));
	logcap_end();
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "display backend 'vga' is not built into this pirogue"));
}

/* The console's own backends need the VT and evdev; the others do not. */
static void test_bare(void **st)
{
	(void)st;
	for (int i = 0; display_backends[i]; i++) {
		const char *n = display_backends[i]->name;
		assert_int_equal(backend_is_bare(display_backends[i]), !strcmp(n, "drm") || !strcmp(n, "fbdev"));
	}
	const struct display_ops *fb = display_find("fbdev");
	if (fb) {
		struct display_opts o = { 0 };
		assert_true(backend_is_bare(fb));
		assert_int_equal(backend_check(fb, &o), 0); /* nothing to check before the VT */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_asked_for),
		cmocka_unit_test(test_not_built_in),
		cmocka_unit_test(test_bare),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
