/* The loop's one-shot timer (app/wake.c): fires once at its deadline,
 * disarmed never, and does nothing before it is made. */
#include "testutil.h"
#include "app/wake.h"
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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
	int64_t now = wake_now_ms(&w);
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
	wake_at(&w, wake_now_ms(&w) + 50);
	struct itimerspec its;
	assert_int_equal(timerfd_gettime(w.fd, &its), 0);
	assert_true(its.it_value.tv_sec || its.it_value.tv_nsec); /* armed */
	assert_int_equal(its.it_interval.tv_sec | its.it_interval.tv_nsec, 0); /* once, never periodic */
	wake_at(&w, -1);
	assert_int_equal(timerfd_gettime(w.fd, &its), 0);
	assert_int_equal(its.it_value.tv_sec | its.it_value.tv_nsec, 0); /* disarmed */
	assert_false(readable(&w));
	assert_false(wake_fired(&w));
	assert_true(wake_now_ms(NULL) >= 0);
	wake_close(&w);
}

/* Writes text into path in place, as `echo N >path` does. */
static void write_clock(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Whether the clock's watch says the file was rewritten (no waiting). */
static bool clock_readable(const struct wake *w)
{
	struct pollfd p = { .fd = w->clock_fd, .events = POLLIN };
	return poll(&p, 1, 0) == 1;
}

/* A test's clock (PIROGUE_IDLE_CLOCK): the file's milliseconds ahead of
 * the monotonic clock; a rewrite moves it, and a deadline an hour away
 * that the move passed comes at once; a rewrite that goes back or holds
 * no number is refused and the clock stays; a file that is not one is
 * one line. No real time passes in any of it. */
static void test_test_clock(void **st)
{
	(void)st;
	char path[] = "/tmp/pirogue-wake-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	char why[512] = "";
	struct wake w = WAKE_INIT;
	write_clock(path, "soon\n");
	assert_int_equal(wake_clock_open(&w, path, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "holds 'soon': expected milliseconds, 0 or more"));
	assert_int_equal(w.clock_fd, -1);
	write_clock(path, "0\n");
	assert_int_equal(wake_clock_open(&w, path, why, sizeof why), 0);
	assert_true(w.clock_fd >= 0);
	assert_int_equal(wake_open(&w), 0);
	int64_t t0 = wake_now_ms(&w), mono = wake_now_ms(NULL);
	assert_true(t0 <= mono && mono - t0 < 60000);
	wake_at(&w, t0 + 3600000); /* an hour away */
	assert_false(readable(&w));
	assert_false(clock_readable(&w));
	/* the test moves the clock two hours on: the deadline is due */
	write_clock(path, "7200000\n");
	assert_true(clock_readable(&w));
	assert_true(wake_clock_moved(&w));
	assert_false(clock_readable(&w));
	assert_true(wake_now_ms(&w) >= t0 + 7200000);
	struct pollfd p = { .fd = w.fd, .events = POLLIN };
	assert_int_equal(poll(&p, 1, 1000), 1);
	assert_true(wake_fired(&w));
	/* never back, never nothing: the clock stays */
	wake_at(&w, wake_now_ms(&w) + 3600000);
	write_clock(path, "100\n");
	assert_true(clock_readable(&w));
	assert_false(wake_clock_moved(&w));
	write_clock(path, "later");
	assert_false(wake_clock_moved(&w));
	assert_true(wake_now_ms(&w) >= t0 + 7200000);
	assert_false(readable(&w)); /* the deadline an hour on still an hour on */
	wake_close(&w);
	assert_int_equal(w.clock_fd, -1);
	unlink(path);
	assert_int_equal(wake_clock_open(&w, path, why, sizeof why), -ENOENT);
	assert_non_null(strstr(why, "cannot read the clock file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fires_once),
		cmocka_unit_test(test_disarmed),
		cmocka_unit_test(test_test_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
