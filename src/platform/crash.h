/* crash: last-gasp handlers for fatal signals that give the console back (CRTC, text mode, keyboard) before the process dies. */
#ifndef PIROGUE_PLATFORM_CRASH_H
#define PIROGUE_PLATFORM_CRASH_H

/* Installs handlers for every signal whose default action ends the process
 * (SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGQUIT, SIGSYS, SIGTRAP,
 * SIGXCPU, SIGXFSZ, SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1/2,
 * SIGVTALRM, SIGPROF, SIGIO, SIGSTKFLT, SIGPWR and the real-time signals;
 * on an alternate stack, so a stack overflow is caught too; all but the
 * five faults are left alone when they are ignored, SIG_IGN, at the time
 * of the call, since they end nothing then) that run every
 * backend's emergency restore (DRM CRTC, VT text mode and keyboard) and then
 * re-raise the signal with its default action, so the exit status and core
 * dump are those of the crash. Call once, early. Returns 0 or a negative
 * errno (having logged one line). */
int crash_install_handlers(void);

/* Runs every emergency restore now (what the handlers do); for tests and
 * for exit paths that cannot reach the normal cleanup. */
void crash_restore_all(void);

#endif
