/* photons: input-to-photons timing with a clock the test controls (times given, not read): which input a flip is timed for, the four spans, and nothing logged without an input or a queued flip. */
#include "testutil.h"
#include "logcap.h"
#include "platform/photons.h"
#include <string.h>

static void test_spans_of_the_first_input(void **st)
{
	(void)st;
	struct photons p = {0};
	log_set_verbose(1);
	logcap_begin();
	photons_input(&p, 1000000, 1000250);  /* read 0.25 ms after the kernel stamped it */
	photons_input(&p, 1000300, 1000400);  /* a second key before the frame: not the one timed */
	photons_flip_queued(&p, 1000650);     /* 0.4 ms after the first was read */
	photons_flip_done(&p, 1016650);       /* the vblank 16 ms later */
	logcap_end();
	assert_non_null(strstr(logcap_buf, "photons: frame 1: input to read 0.250 ms, read to flip queued 0.400 ms "
					   "(the game's share), queued to flip done 16.000 ms, input to photons "
					   "16.650 ms"));
	assert_int_equal(logcap_lines(logcap_buf), 1);
	log_set_verbose(0);
}

static void test_nothing_without_input_or_flip(void **st)
{
	(void)st;
	struct photons p = {0};
	log_set_verbose(1);
	logcap_begin();
	photons_flip_queued(&p, 100);  /* a frame no input asked for (a timer, a redraw) */
	photons_flip_done(&p, 200);
	photons_input(&p, 300, 310);
	photons_flip_done(&p, 400);    /* a completion with no flip queued for the input */
	logcap_end();
	assert_int_equal(logcap_buf[0], 0);
	/* the input still waits: the next flip is timed for it */
	logcap_begin();
	photons_flip_queued(&p, 500);
	photons_flip_done(&p, 1500);
	logcap_end();
	assert_non_null(strstr(logcap_buf, "photons: frame 1: input to read 0.010 ms, read to flip queued 0.190 ms"));
	assert_non_null(strstr(logcap_buf, "input to photons 1.200 ms"));
	/* quiet without --verbose */
	log_set_verbose(0);
	logcap_begin();
	photons_input(&p, 2000, 2001);
	photons_flip_queued(&p, 2002);
	photons_flip_done(&p, 2003);
	logcap_end();
	assert_int_equal(logcap_buf[0], 0);
	assert_int_equal(p.frames, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spans_of_the_first_input),
		cmocka_unit_test(test_nothing_without_input_or_flip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
