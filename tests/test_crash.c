#include "testutil.h"
#include "child.h"
#include "platform/crash.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static void old_handler(int sig)
{
	static const char m[] = "old handler ran\n";
	ssize_t n = write(2, m, sizeof m - 1);
	(void)n;
	_exit(42);
}

struct crash_args {
	int sig, chain;
};

/* In the child: installs the handlers (after an earlier handler for SIGBUS
 * when chain) and dies of sig. */
static int crash_body(void *arg)
{
	const struct crash_args *a = arg;
	struct rlimit nocore = { 0, 0 }; /* no core file in the work tree */
	setrlimit(RLIMIT_CORE, &nocore);
	/* cmocka catches some signals itself: start from the default */
	signal(a->sig, a->chain ? old_handler : SIG_DFL);
	if (crash_install_handlers())
		return 3;
	if (crash_install_handlers()) /* twice is harmless */
		return 4;
	if (a->sig == SIGABRT)
		abort();
	raise(a->sig);
	return 5;
}

/* Runs crash_body in a child; returns its wait status and stderr. */
static int crash_child(int sig, int chain, char *out, size_t len)
{
	struct crash_args a = { sig, chain };
	return child_run(crash_body, &a, out, len);
}

static void test_dies_of_the_same_signal(void **st)
{
	(void)st;
	char out[256];
	int status = crash_child(SIGABRT, 0, out, sizeof out);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	assert_non_null(strstr(out, "display and console restored"));
}

static void test_chains_to_earlier_handler(void **st)
{
	(void)st;
	char out[256];
	int status = crash_child(SIGBUS, 1, out, sizeof out);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 42);
	char *a = strstr(out, "restored"), *b = strstr(out, "old handler ran");
	assert_non_null(a);
	assert_non_null(b);
	assert_true(a < b); /* ours first, then the one that was there */
}

/* Whether sig's default action ends the process: a child without handlers
 * raises it (stopping signals are left out: they do not end it). */
static int default_ends_process(int sig)
{
	if (sig == SIGKILL || sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
		return 0;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit nocore = { 0, 0 };
		setrlimit(RLIMIT_CORE, &nocore);
		signal(sig, SIG_DFL);
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
		_exit(0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFSIGNALED(status) && WTERMSIG(status) == sig;
}

/* issue 11, defect 4: SIGQUIT, SIGSYS, SIGTRAP, SIGXCPU, SIGXFSZ left the VT
 * in graphics mode. Every signal whose default action ends the process runs
 * the restore, and the process still dies of that signal. */
static void test_every_deadly_signal_restores(void **st)
{
	(void)st;
	int checked = 0;
	for (int sig = 1; sig <= SIGRTMAX; sig++) {
		if (!default_ends_process(sig))
			continue;
		char out[256];
		int status = crash_child(sig, 0, out, sizeof out);
		if (!strstr(out, "display and console restored"))
			fail_msg("signal %d (%s) ends the process without restoring the console", sig, strsignal(sig));
		if (!WIFSIGNALED(status) || WTERMSIG(status) != sig)
			fail_msg("signal %d (%s): the process ended with status %#x, not of the signal", sig,
				 strsignal(sig), (unsigned)status);
		checked++;
	}
	assert_true(checked >= 20 + (SIGRTMAX - SIGRTMIN + 1));
}

/* In the child: SIGQUIT ignored, the handlers installed, SIGQUIT raised;
 * 0 when it is still ignored. */
static int ignored_quit_body(void *arg)
{
	(void)arg;
	signal(SIGQUIT, SIG_IGN);
	if (crash_install_handlers())
		return 3;
	raise(SIGQUIT);
	struct sigaction cur;
	sigaction(SIGQUIT, NULL, &cur);
	return cur.sa_handler == SIG_IGN ? 0 : 4;
}

/* A signal ignored at start (SIGQUIT for a background job of a shell)
 * stays ignored: the handler would give the console back and then let the
 * game run on without it. */
static void test_ignored_signal_stays_ignored(void **st)
{
	(void)st;
	char out[256];
	int status = child_run(ignored_quit_body, NULL, out, sizeof out);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_null(strstr(out, "restored"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dies_of_the_same_signal),
		cmocka_unit_test(test_chains_to_earlier_handler),
		cmocka_unit_test(test_every_deadly_signal_restores),
		cmocka_unit_test(test_ignored_signal_stays_ignored),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
