/* Which display backend runs the game (app/backend.c): the one asked for,
 * headless for a replay, one line for one not built in; which own the
 * console; no check but DRM's before the VT, and that one not again when
 * the automatic choice has just probed the card (o.probed: the card is
 * opened once less). */
#include "testutil.h"
#include "logcap.h"
#include "app/backend.h"
#include <string.h>
#if WITH_DRM
#include "openhook.h"
#endif

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

/* DRM's check before the VT opens the card (here refused: EACCES, one line
 * naming it); after the automatic choice's probe (o.probed) it opens
 * nothing and says nothing: the card is probed once at start, not twice
 * before the backend opens it. A backend asked for is not probed by the
 * choice (o.probed stays false), so it is checked. */
static void test_probed_once(void **st)
{
	(void)st;
#if WITH_DRM
	const struct display_ops *drm = display_find("drm");
	assert_non_null(drm);
	openhook_refuse("/dev/dri/card-probed", EACCES);
	struct app_config cfg = { .backend = "drm", .card = "/dev/dri/card-probed" };
	struct display_opts o;
	backend_opts(&cfg, &o);
	assert_false(o.probed);
	assert_ptr_equal(backend_choose(&cfg, &o), drm);
	assert_false(o.probed); /* asked for, not probed */
	logcap_begin();
	assert_int_equal(backend_check(drm, &o), -EACCES);
	logcap_end();
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "/dev/dri/card-probed cannot be opened"));
	o.probed = true; /* as display_auto's choice of drm leaves it */
	logcap_begin();
	assert_int_equal(backend_check(drm, &o), 0);
	logcap_end();
	assert_int_equal(logcap_lines(logcap_buf), 0);
	/* backend_opts starts every choice unprobed */
	backend_opts(&cfg, &o);
	assert_false(o.probed);
#else
	skip();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_asked_for),
		cmocka_unit_test(test_not_built_in),
		cmocka_unit_test(test_bare),
		cmocka_unit_test(test_probed_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
