#include "platform/crash.h"
#include "core/log.h"
#include "platform/vt.h"
#if WITH_DRM
#include "platform/drm.h"
#endif
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CRASH_NSIGS 5
static const int crash_signals[CRASH_NSIGS] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };

/* The module's state: what was installed before (chained to, so the
 * terminal backend's own restore still runs), and the alternate stack. */
static struct {
	struct sigaction old[CRASH_NSIGS];
	bool installed;
	char altstack[65536];
} crash_g;

void crash_restore_all(void)
{
#if WITH_DRM
	drm_emergency_restore(); /* the old picture first, then text mode over it */
#endif
	vt_emergency_restore();
}

static void crash_handler(int sig)
{
	int saved = errno;
	crash_restore_all();
	static const char msg[] = "pirogue: fatal signal; display and console restored\n";
	ssize_t n = write(STDERR_FILENO, msg, sizeof msg - 1);
	(void)n;
	/* hand the signal to whoever had it before (usually the default action,
	 * which ends the process with the same signal and core dump) */
	for (int i = 0; i < CRASH_NSIGS; i++)
		if (crash_signals[i] == sig)
			sigaction(sig, &crash_g.old[i], NULL);
	errno = saved;
	raise(sig);
}

int crash_install_handlers(void)
{
	if (crash_g.installed)
		return 0;
	/* a stack overflow's SIGSEGV needs another stack to run the handler on */
	stack_t cur;
	if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
		stack_t st = { .ss_sp = crash_g.altstack, .ss_size = sizeof crash_g.altstack };
		sigaltstack(&st, NULL);
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = crash_handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_ONSTACK;
	for (int i = 0; i < CRASH_NSIGS; i++) {
		if (sigaction(crash_signals[i], &sa, &crash_g.old[i]) < 0) {
			int rc = -errno;
			log_error("cannot install the crash handler for signal %d: %s", crash_signals[i], strerror(-rc));
			while (--i >= 0)
				sigaction(crash_signals[i], &crash_g.old[i], NULL);
			return rc;
		}
	}
	crash_g.installed = true;
	return 0;
}
