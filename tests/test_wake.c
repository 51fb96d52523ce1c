/* The loop's one-shot timer (app/wake.c): fires once at its deadline,
 * disarmed never, and does nothing before it is made. */
#include "testutil.h"
#include "app/wake.h"
#include <poll.h>
#include <sys/timerfd.h>

/* Whether w's fd is readable now (no waiting). */
static bool readable(const struct wake *w)
{
	struct pollfd p = { .fd = w->fd, .events = POLLIN };
	return poll(&p, 1, 0) == 1;
}

static void test_fires_once(void **st)
{
	(void)st;
	struct wake w = WAKE_INIT;
	wake_at(&w, 0); /* not made yet: nothing */
	assert_int_equal(w.fd, -1);
	assert_int_equal(wake_open(&w), 0);
	int fd = w.fd;
	assert_int_equal(wake_open(&w), 0); /* made once */
	assert_int_equal(w.fd, fd);
	assert_false(readable(&w));
	assert_false(wake_fired(&w)); /* a stale wake-up reads nothing */
	/* a deadline already past fires at once, and once */
	int64_t now = wake_now_ms();
	assert_true(now >= 0);
	wake_at(&w, now - 1);
	struct pollfd p = { .fd = w.fd, .events = POLLIN };
	assert_int_equal(poll(&p, 1, 1000), 1);
	assert_true(wake_fired(&w));
	assert_false(readable(&w));
	assert_false(wake_fired(&w));
	/* a deadline at 0 ms of the clock is a deadline, not "disarm" */
	wake_at(&w, 0);
	assert_int_equal(poll(&p, 1, 1000), 1);
	assert_true(wake_fired(&w));
	wake_close(&w);
	assert_int_equal(w.fd, -1);
	wake_close(&w);
	wake_close(NULL);
}

/* Disarmed (-1), a deadline set before does not come. */
static void test_disarmed(void **st)
{
	(void)st;
	struct wake w = WAKE_INIT;
	assert_int_equal(wake_open(&w), 0);
	wake_at(&w, wake_now_ms() + 50);
	struct itimerspec its;
	assert_int_equal(timerfd_gettime(w.fd, &its), 0);
	assert_true(its.it_value.tv_sec || its.it_value.tv_nsec); /* armed */
	assert_int_equal(its.it_interval.tv_sec | its.it_interval.tv_nsec, 0); /* once, never periodic */
	wake_at(&w, -1);
	assert_int_equal(timerfd_gettime(w.fd, &its), 0);
	assert_int_equal(its.it_value.tv_sec | its.it_value.tv_nsec, 0); /* disarmed */
	assert_false(readable(&w));
	assert_false(wake_fired(&w));
	assert_true(wake_now_ms() >= 0);
	wake_close(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fires_once),
		cmocka_unit_test(test_disarmed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
