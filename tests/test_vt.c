#include "testutil.h"
#include "child.h"
#include "fakeproc.h"
#include "core/log.h"
#include "platform/vt.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include "openhook.h"

/* Runs vt_open(vtnum) in a child with no terminal at all (new session,
 * stdio on /dev/null), optionally with the VT signals blocked; returns the
 * child's -rc, and its log line in line. Never touches a real console:
 * vtnum is 0 (the current VT, which the child does not have) or invalid. */
struct open_args {
	int vtnum, block;
};

static int open_body(void *arg)
{
	const struct open_args *a = arg;
	setsid();
	int nul = open("/dev/null", O_RDWR);
	dup2(nul, 0);
	dup2(nul, 1);
	if (a->block) {
		sigset_t s;
		sigemptyset(&s);
		sigaddset(&s, VT_RELEASE_SIGNAL);
		sigaddset(&s, VT_ACQUIRE_SIGNAL);
		sigprocmask(SIG_BLOCK, &s, NULL);
	}
	struct vt *v = (struct vt *)1;
	int rc = vt_open(&v, a->vtnum);
	return v == NULL ? -rc : 200;
}

static int child_open(int vtnum, int block, char *line, size_t len)
{
	struct open_args a = { vtnum, block };
	int status = child_run(open_body, &a, line, len);
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
	/* a console the device policy refuses (EPERM: a systemd unit's
	 * DeviceAllow=) is said to be that, not blamed on the tty group; one
	 * whose mode refuses (EACCES) names the tty group */
	openhook_refuse("/dev/tty63", EPERM);
	openhook_refuse("/dev/tty62", EACCES);
	assert_int_equal(child_open(63, 1, line, sizeof line), EPERM);
	assert_non_null(strstr(line, "/dev/tty63: Operation not permitted: refused by the device policy"));
	assert_non_null(strstr(line, "DeviceAllow=/dev/tty1 rw"));
	assert_null(strstr(line, "tty group"));
	assert_int_equal(child_open(62, 1, line, sizeof line), EACCES);
	assert_non_null(strstr(line, "/dev/tty62: Permission denied: run as root"));
	assert_non_null(strstr(line, "tty group"));
	assert_null(strstr(line, "device policy"));
	openhook_clear();
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
	assert_int_equal(vt_reset(0, false), -EINVAL);
	assert_int_equal(vt_reset(64, false), -EINVAL);
	log_set_stream(NULL);
	fclose(mem);
	assert_non_null(strstr(buf, "VT 64: a VT number is 1..63"));
	free(buf);
}

/* issue 11, defect 1: --reset-vt took the VT from a game still drawing on
 * it. The holders are the processes with the VT and a display open: the
 * game (tty7 + card0), the fbdev game (console + fb0 when the VT is shown),
 * not a login shell (tty7 only) nor a compositor elsewhere (card0 only). */
static void test_display_holders(void **st)
{
	(void)st;
	char tmp[] = "/tmp/pirogue-vt-XXXXXX", dev[600], proc[600];
	assert_non_null(mkdtemp(tmp));
	snprintf(dev, sizeof dev, "%s/dev", tmp);
	snprintf(proc, sizeof proc, "%s/proc", tmp);
	mkdir(dev, 0755);
	mkdir(proc, 0755);
	char tty7[700], card0[700], fb0[700], console[700];
	snprintf(tty7, sizeof tty7, "%s/tty7", dev);
	snprintf(card0, sizeof card0, "%s/card0", dev);
	snprintf(fb0, sizeof fb0, "%s/fb0", dev);
	snprintf(console, sizeof console, "%s/console", dev);
	if (mknod(tty7, S_IFCHR | 0600, makedev(4, 7)) || mknod(card0, S_IFCHR | 0600, makedev(226, 0)) ||
	    mknod(fb0, S_IFCHR | 0600, makedev(29, 0)) || mknod(console, S_IFCHR | 0600, makedev(5, 1))) {
		char cmd[700];
		snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
		assert_int_equal(system(cmd), 0);
		print_message("skipped: making device nodes needs root (CAP_MKNOD)\n");
		skip();
	}
	fakeproc_comm(proc, 100, "pirogue");
	fakeproc_fd(proc, 100, 3, tty7);
	fakeproc_fd(proc, 100, 4, card0);
	fakeproc_comm(proc, 200, "bash"); /* a login shell on the VT */
	fakeproc_fd(proc, 200, 0, tty7);
	fakeproc_comm(proc, 300, "Xorg"); /* a display, another VT */
	fakeproc_fd(proc, 300, 9, card0);
	fakeproc_comm(proc, 400, "fb\033]0;x"); /* an fbdev game on the console, a hostile name */
	fakeproc_fd(proc, 400, 0, console);
	fakeproc_fd(proc, 400, 5, fb0);
	char who[256];
	dev_t one[1] = { makedev(4, 7) };
	assert_int_equal(vt_display_holders(proc, one, 1, 1, who, sizeof who), 1);
	assert_string_equal(who, "pirogue (pid 100)");
	assert_int_equal(vt_display_holders(proc, one, 1, 100, who, sizeof who), 0); /* itself */
	assert_string_equal(who, "");
	dev_t shown[3] = { makedev(4, 7), makedev(4, 0), makedev(5, 1) };
	int n = vt_display_holders(proc, shown, 3, 1, who, sizeof who);
	assert_int_equal(n, 2);
	assert_non_null(strstr(who, "pirogue (pid 100)"));
	assert_non_null(strstr(who, "fb?]0;x (pid 400)"));
	char small[8];
	assert_int_equal(vt_display_holders(proc, shown, 3, 1, small, sizeof small), 2); /* cut, still counted */
	assert_int_equal(vt_display_holders("/nonexistent", one, 1, 1, who, sizeof who), -ENOENT);
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_null_and_idle),
		cmocka_unit_test(test_reset_rejects),
		cmocka_unit_test(test_display_holders),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
