/* fakeproc: a /proc of the test's own making (PID/comm, PID/fd/N links), for code that looks for the processes holding a device. */
#ifndef PIROGUE_TESTS_FAKEPROC_H
#define PIROGUE_TESTS_FAKEPROC_H
#include "testutil.h"
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* Makes root/pid/fd/fd a link to target (a device node). */
static inline void fakeproc_fd(const char *root, int pid, int fd, const char *target)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%d", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/%d/fd", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/%d/fd/%d", root, pid, fd);
	assert_int_equal(symlink(target, path), 0);
}

/* Writes comm (and a newline, as the kernel does) into root/pid/comm. */
static inline void fakeproc_comm(const char *root, int pid, const char *comm)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%d", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/%d/comm", root, pid);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", comm);
	fclose(f);
}

#endif
