/* openhook: open(2) as the code under test sees it, with paths the test names refused with an errno of its choice, as the kernel refuses a device node (EACCES: the node's mode; EPERM: a device cgroup's policy, a systemd unit's DeviceAllow=); include it in one file of a test binary, after the system headers. */
#ifndef PIROGUE_TESTS_OPENHOOK_H
#define PIROGUE_TESTS_OPENHOOK_H
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define OPENHOOK_MAX 8

/* The refused paths (as open(2) is given them) and their errno. */
static struct {
	char path[256];
	int err;
} openhook_rules[OPENHOOK_MAX];
static int openhook_n;

/* From now on open(2) of path (exactly this string) fails with err (a
 * positive errno); at most OPENHOOK_MAX paths (naming more ends the test
 * binary with one line and exit 99). */
static inline void openhook_refuse(const char *path, int err)
{
	if (openhook_n == OPENHOOK_MAX) {
		fprintf(stderr, "openhook: more than %d refused paths\n", OPENHOOK_MAX);
		_exit(99);
	}
	snprintf(openhook_rules[openhook_n].path, sizeof openhook_rules[0].path, "%s", path);
	openhook_rules[openhook_n++].err = err;
}

/* Every path opens for real again. */
static inline void openhook_clear(void)
{
	openhook_n = 0;
}

/* The refused errno of path, or 0 when it opens for real. */
static inline int openhook_err(const char *path)
{
	for (int i = 0; i < openhook_n; i++)
		if (!strcmp(path, openhook_rules[i].path))
			return openhook_rules[i].err;
	return 0;
}

/* open(2) of path with flags (and the mode in ap with O_CREAT or O_TMPFILE):
 * the refusal named for path, else the real open. */
static inline int openhook_open(const char *path, int flags, va_list ap)
{
	mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
	int err = openhook_err(path);
	if (err) {
		errno = err;
		return -1;
	}
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	int fd = openhook_open(path, flags, ap);
	va_end(ap);
	return fd;
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	int fd = openhook_open(path, flags, ap);
	va_end(ap);
	return fd;
}

#endif
