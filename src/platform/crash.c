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

/* Every signal whose default action ends the process (signal(7): Term and
 * Core), the real-time ones added at run time. The loop reads SIGINT, SIGTERM,
 * SIGHUP and the VT signals through its signalfd (they are blocked then, so
 * these handlers never see them); before that, they too must not leave the
 * VT dark. */
static const int crash_signals[] = {
	SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, /* the faults: always caught */
	SIGQUIT, SIGSYS, SIGTRAP, SIGXCPU, SIGXFSZ,
	SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF, SIGIO,
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
#ifdef SIGPWR
	SIGPWR,
#endif
};
#define CRASH_NFIXED ((int)(sizeof crash_signals / sizeof crash_signals[0]))
#define CRASH_NFAULTS 5

/* The module's state: what was installed before, by signal number (chained
 * to, so the terminal backend's own restore still runs), and the alternate
 * stack. */
static struct {
	struct sigaction old[NSIG];
	bool caught[NSIG];
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
	if (sig > 0 && sig < NSIG && crash_g.caught[sig])
		sigaction(sig, &crash_g.old[sig], NULL);
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
	int nrt = SIGRTMAX - SIGRTMIN + 1;
	for (int i = 0; i < CRASH_NFIXED + nrt; i++) {
		int sig = i < CRASH_NFIXED ? crash_signals[i] : SIGRTMIN + (i - CRASH_NFIXED);
		if (sig <= 0 || sig >= NSIG || crash_g.caught[sig])
			continue;
		/* A signal ignored from the start (SIGQUIT and SIGINT for a job
		 * a shell starts in the background, SIGHUP under nohup) ends
		 * nothing: it stays ignored, or it would take the console from
		 * a game that goes on running. A fault kills whatever its
		 * disposition. */
		struct sigaction now;
		if (i >= CRASH_NFAULTS && sigaction(sig, NULL, &now) == 0 && !(now.sa_flags & SA_SIGINFO) &&
		    now.sa_handler == SIG_IGN)
			continue;
		if (sigaction(sig, &sa, &crash_g.old[sig]) < 0) {
			int rc = -errno;
			log_error("cannot install the crash handler for signal %d: %s", sig, strerror(-rc));
			for (int k = 1; k < NSIG; k++)
				if (crash_g.caught[k]) {
					sigaction(k, &crash_g.old[k], NULL);
					crash_g.caught[k] = false;
				}
			return rc;
		}
		crash_g.caught[sig] = true;
	}
	crash_g.installed = true;
	return 0;
}
