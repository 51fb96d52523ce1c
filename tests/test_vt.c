#include "testutil.h"
#include "core/log.h"
#include "platform/vt.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs vt_open(vtnum) in a child with no terminal at all (new session,
 * stdio on /dev/null), optionally with the VT signals blocked; returns the
 * child's -rc, and its log line in line. Never touches a real console:
 * vtnum is 0 (the current VT, which the child does not have) or invalid. */
static int child_open(int vtnum, int block, char *line, size_t len)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		setsid();
		int nul = open("/dev/null", O_RDWR);
		dup2(nul, 0);
		dup2(nul, 1);
		dup2(p[1], 2);
		if (block) {
			sigset_t s;
			sigemptyset(&s);
			sigaddset(&s, VT_RELEASE_SIGNAL);
			sigaddset(&s, VT_ACQUIRE_SIGNAL);
			sigprocmask(SIG_BLOCK, &s, NULL);
		}
		struct vt *v = (struct vt *)1;
		int rc = vt_open(&v, vtnum);
		_exit(v == NULL ? -rc : 200);
	}
	close(p[1]);
	ssize_t n = read(p[0], line, len - 1);
	line[n > 0 ? n : 0] = 0;
	close(p[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void test_open_errors(void **st)
{
	(void)st;
	char line[512];
	assert_int_equal(child_open(0, 0, line, sizeof line), EINVAL); /* signals not blocked */
	assert_non_null(strstr(line, "SIGUSR1/SIGUSR2 must be blocked"));
	assert_int_equal(child_open(0, 1, line, sizeof line), ENOTTY);
	assert_non_null(strstr(line, "not running on a virtual console"));
	assert_non_null(strstr(line, "--vt N"));
	assert_int_equal(child_open(64, 1, line, sizeof line), EINVAL);
	assert_non_null(strstr(line, "--vt 64"));
	assert_int_equal(child_open(-1, 1, line, sizeof line), EINVAL);
}

static void test_null_and_idle(void **st)
{
	(void)st;
	vt_close(NULL);
	vt_release_ack(NULL);
	vt_acquire_ack(NULL);
	vt_emergency_restore(); /* nothing open: nothing happens */
	assert_int_equal(vt_switch_to(NULL, 2), -EINVAL);
	assert_int_equal(vt_number(NULL), 0);
}

static void test_reset_rejects(void **st)
{
	(void)st;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	log_set_stream(mem);
	assert_int_equal(vt_reset(0), -EINVAL);
	assert_int_equal(vt_reset(64), -EINVAL);
	log_set_stream(NULL);
	fclose(mem);
	assert_non_null(strstr(buf, "VT 64: a VT number is 1..63"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_null_and_idle),
		cmocka_unit_test(test_reset_rejects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
