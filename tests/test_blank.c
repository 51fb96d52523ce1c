/* Screen blanking (app/blank.c): the display switched off through its
 * backend when it can (dark: nothing may be presented), else black frames;
 * woken, switched on again and redrawn whole. */
#include "testutil.h"
#include "logcap.h"
#include "app/blank.h"
#include <errno.h>
#include <string.h>

/* A display whose blank op records its calls and answers rc. */
struct fake {
	struct display base;
	int calls;
	bool last_off;
	int rc;
};

static int fake_blank(struct display *d, bool off)
{
	struct fake *f = (struct fake *)d;
	f->calls++;
	f->last_off = off;
	return f->rc;
}

static const struct display_ops with_blank = { .name = "fake", .blank = fake_blank };
static const struct display_ops without_blank = { .name = "fake" };

/* A backend that switches the display off: dark, then on again on wake,
 * every cell redrawn. */
static void test_backend_switches_off(void **st)
{
	(void)st;
	struct fake f = { .base.ops = &with_blank };
	struct blank b = { 0 };
	struct console *c;
	assert_int_equal(con_create(&c, 10, 4), 0);
	con_clear_damage(c);
	logcap_begin();
	blank_on(&b, &with_blank, &f.base);
	assert_true(b.on);
	assert_true(b.dark);
	assert_int_equal(f.calls, 1);
	assert_true(f.last_off);
	blank_off(&b, &with_blank, &f.base, c);
	logcap_end();
	assert_non_null(strstr(logcap_buf, "screen blanked (display off)\n"));
	assert_non_null(strstr(logcap_buf, "screen unblanked\n"));
	assert_false(b.on);
	assert_false(b.dark);
	assert_int_equal(f.calls, 2);
	assert_false(f.last_off);
	assert_int_equal(c->damaged, 10 * 4);
	con_destroy(c);
}

/* A backend that refuses, or has no blank op (the terminal): blanked but
 * not dark (the caller draws black frames), and waking asks nothing of
 * the backend. */
static void test_black_frame_instead(void **st)
{
	(void)st;
	struct fake f = { .base.ops = &with_blank, .rc = -ENOTSUP };
	struct blank b = { 0 };
	struct console *c;
	assert_int_equal(con_create(&c, 10, 4), 0);
	logcap_begin();
	blank_on(&b, &with_blank, &f.base);
	assert_true(b.on);
	assert_false(b.dark);
	con_clear_damage(c);
	blank_off(&b, &with_blank, &f.base, c);
	assert_int_equal(f.calls, 1); /* not asked to switch on what it never switched off */
	assert_false(b.on);
	assert_int_equal(c->damaged, 10 * 4);

	struct display plain = { .ops = &without_blank };
	blank_on(&b, &without_blank, &plain);
	assert_true(b.on);
	assert_false(b.dark);
	blank_off(&b, &without_blank, &plain, c);
	logcap_end();
	assert_false(b.on);
	assert_non_null(strstr(logcap_buf, "screen blanked (a black frame)\n"));
	con_destroy(c);
}

int main(void)
{
	log_set_verbose(1); /* blank says which way it went in log_info */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backend_switches_off),
		cmocka_unit_test(test_black_frame_instead),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
