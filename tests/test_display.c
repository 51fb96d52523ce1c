/* Tests for platform/display's watch (display_watch_*), on a directory of
 * the test's own in place of /dev: what happens after the watch opened and
 * before the wait (a card node created, udev changing its group) is not
 * missed, and is used up by the wait that sees it; dev/dri is watched once
 * it exists. */
#include "testutil.h"
#include "platform/display.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void mkdev(void)
{
	snprintf(dir, sizeof dir, "/tmp/pirogue-watch-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static void touch(const char *name)
{
	char p[128];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	int fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	close(fd);
}

static void rmdev(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* A node created between the look and the wait (the kiosk's race: the
 * driver loads just after the look found nothing) wakes the wait at once. */
static void test_kept_until_wait(void **st)
{
	(void)st;
	mkdev();
	struct display_watch w;
	assert_int_equal(display_watch_open(&w, dir), 0);
	touch("fb0");
	assert_int_equal(display_watch_wait(&w, 0), 0);
	/* used up: nothing new since */
	assert_int_equal(display_watch_wait(&w, 0), -ETIMEDOUT);
	/* udev giving the node its group: a change of attributes */
	char p[128];
	snprintf(p, sizeof p, "%s/fb0", dir);
	assert_int_equal(chmod(p, 0660), 0);
	assert_int_equal(display_watch_wait(&w, 0), 0);
	display_watch_close(&w);
	display_watch_close(&w); /* closed: nothing */
	rmdev();
}

/* dev/dri appears (the first DRM card's driver loaded): its creation is an
 * event, and the cards created in it from then on are too. */
static void test_dri_appears(void **st)
{
	(void)st;
	mkdev();
	struct display_watch w;
	assert_int_equal(display_watch_open(&w, dir), 0);
	char p[128];
	snprintf(p, sizeof p, "%s/dri", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(display_watch_wait(&w, 0), 0);
	touch("dri/card0");
	assert_int_equal(display_watch_wait(&w, 0), 0);
	assert_int_equal(display_watch_wait(&w, 0), -ETIMEDOUT);
	display_watch_close(&w);
	rmdev();
}

/* Nothing to watch with: said by the return value, and a wait on it fails
 * instead of sleeping forever. */
static void test_nothing_to_watch(void **st)
{
	(void)st;
	struct display_watch w = { .uevents = -1, .nodes = -1 };
	assert_int_equal(display_watch_wait(&w, 0), -EBADF);
	display_watch_close(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept_until_wait),
		cmocka_unit_test(test_dri_appears),
		cmocka_unit_test(test_nothing_to_watch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
