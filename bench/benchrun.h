/* benchrun: running a program (the game, or the bench itself) under a callgrind of its own and reading its instruction count. */
#ifndef PIROGUE_BENCHRUN_H
#define PIROGUE_BENCHRUN_H
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/* Runs argv under valgrind's callgrind of its own (its dump to out, NULL:
 * none; opt, when not NULL, one more valgrind option, e.g.
 * "--collect-atstart=no" for a program that toggles collection around what
 * it measures) with stdin/stdout an 80x24 pty when pty is set (drained by
 * this process), else /dev/null; returns the instructions it collected
 * (callgrind's "Collected"), or -1. A callgrind of this process (make
 * bench-ir) does not follow the child. */
static inline long bench_ir_exec(const char *const argv[], int pty, const char *out, const char *opt)
{
	int lp[2];
	if (pipe(lp))
		return -1;
	int master = -1;
	char slave[128] = "";
	if (pty) {
		master = posix_openpt(O_RDWR | O_NOCTTY);
		if (master < 0 || grantpt(master) || unlockpt(master) || ptsname_r(master, slave, sizeof slave))
			return -1;
	}
	char outopt[PATH_MAX + 32];
	snprintf(outopt, sizeof outopt, "--callgrind-out-file=%s", out ? out : "/dev/null");
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		const char *va[64] = { "valgrind", "--tool=callgrind", outopt, "--log-fd=3" };
		int n = 4;
		if (opt)
			va[n++] = opt;
		for (int i = 0; argv[i] && n < 63; i++)
			va[n++] = argv[i];
		va[n] = NULL;
		int io = -1;
		if (pty) {
			setsid();
			io = open(slave, O_RDWR);
			struct winsize ws = { .ws_row = 24, .ws_col = 80 };
			if (io < 0 || ioctl(io, TIOCSCTTY, 0) || ioctl(io, TIOCSWINSZ, &ws))
				_exit(126);
			setenv("TERM", "xterm-256color", 1);
		} else {
			io = open("/dev/null", O_RDWR);
		}
		int null = open("/dev/null", O_WRONLY);
		dup2(io, 0);
		dup2(io, 1);
		dup2(null, 2);
		dup2(lp[1], 3);
		execvp("valgrind", (char *const *)va);
		_exit(127);
	}
	close(lp[1]);
	char log[8192];
	size_t have = 0;
	int log_open = 1;
	struct pollfd pf[2] = { { .fd = lp[0], .events = POLLIN }, { .fd = master, .events = POLLIN } };
	while (log_open) {
		if (poll(pf, master >= 0 ? 2 : 1, -1) < 0 && errno != EINTR)
			break;
		if (master >= 0 && pf[1].revents) {
			char junk[65536];
			if (read(master, junk, sizeof junk) <= 0) {
				pf[1].fd = -1; /* the slave closed: EIO */
			}
		}
		if (pf[0].revents) {
			ssize_t r = read(lp[0], log + have, sizeof log - 1 - have);
			if (r <= 0)
				log_open = 0;
			else
				have += (size_t)r;
			if (have > sizeof log / 2) {
				memmove(log, log + have - 1024, 1024);
				have = 1024;
			}
		}
	}
	log[have] = 0;
	close(lp[0]);
	int st;
	waitpid(pid, &st, 0);
	if (master >= 0)
		close(master);
	const char *c = strstr(log, "Collected : ");
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !c)
		return -1;
	return strtol(c + 12, NULL, 10);
}

/* The path of this bench's own executable into buf; 0 or -1. */
static inline int bench_self(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return 0;
}

#endif
