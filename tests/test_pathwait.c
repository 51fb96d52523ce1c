/* A file's appearance waited for (app/pathwait.c): seen when it is made or
 * renamed into place after the watch (queued, never missed), at once when
 * it is there before, a link to nothing counts; a readable signal fd ends
 * the wait; a missing folder is refused. No threads, no sleeps: the test
 * makes each change before it waits. */
#include "testutil.h"
#include "app/pathwait.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static int setup(void **st)
{
	(void)st;
	snprintf(dir, sizeof dir, "/tmp/pathwait.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	close(fd);
}

/* Whether the watch has something to read (no waiting). */
static bool queued(const struct pathwait *w)
{
	struct pollfd p = { .fd = w->fd, .events = POLLIN };
	return poll(&p, 1, 0) == 1;
}

static void test_made_after(void **st)
{
	(void)st;
	char path[128];
	snprintf(path, sizeof path, "%s/ready", dir);
	struct pathwait w = PATHWAIT_INIT;
	assert_int_equal(pathwait_open(&w, path), 0);
	assert_false(pathwait_there(&w));
	assert_false(queued(&w));
	touch(path); /* after the watch, before the wait: queued */
	assert_true(queued(&w));
	assert_int_equal(pathwait_wait(&w, -1), 0);
	assert_true(pathwait_there(&w));
	pathwait_close(&w);
	assert_int_equal(w.fd, -1);
	pathwait_close(&w);
	pathwait_close(NULL);
	unlink(path);
}

static void test_renamed_and_links(void **st)
{
	(void)st;
	char path[128], aside[128];
	snprintf(path, sizeof path, "%s/ready", dir);
	snprintf(aside, sizeof aside, "%s/.ready.tmp", dir);
	struct pathwait w = PATHWAIT_INIT;
	assert_int_equal(pathwait_open(&w, path), 0);
	touch(aside); /* another name made: the wait goes on past it */
	assert_int_equal(rename(aside, path), 0);
	assert_int_equal(pathwait_wait(&w, -1), 0);
	pathwait_close(&w);
	unlink(path);
	/* a link that leads nowhere is a name there */
	assert_int_equal(symlink("/nonexistent/pirogue", path), 0);
	assert_int_equal(pathwait_open(&w, path), 0);
	assert_true(pathwait_there(&w));
	assert_int_equal(pathwait_wait(&w, -1), 0); /* there before: at once */
	pathwait_close(&w);
	unlink(path);
}

static void test_signal_and_refusals(void **st)
{
	(void)st;
	char path[128];
	snprintf(path, sizeof path, "%s/ready", dir);
	struct pathwait w = PATHWAIT_INIT;
	assert_int_equal(pathwait_open(&w, path), 0);
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "x", 1), 1); /* a signal: the wait ends, 1 */
	assert_int_equal(pathwait_wait(&w, p[0]), 1);
	touch(path); /* both at once: the file wins */
	assert_int_equal(pathwait_wait(&w, p[0]), 0);
	pathwait_close(&w);
	close(p[0]);
	close(p[1]);
	unlink(path);
	char none[160];
	snprintf(none, sizeof none, "%s/none/ready", dir);
	assert_int_equal(pathwait_open(&w, none), -ENOENT);
	assert_int_equal(w.fd, -1);
	assert_false(pathwait_there(&w));
	/* a file named in the current folder: watched there */
	assert_int_equal(pathwait_open(&w, "pathwait-no-such-file"), 0);
	assert_false(pathwait_there(&w));
	pathwait_close(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_made_after),
		cmocka_unit_test(test_renamed_and_links),
		cmocka_unit_test(test_signal_and_refusals),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
