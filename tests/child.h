/* child: running a piece of a test in a forked process and reading what it wrote to stderr. */
#ifndef PIROGUE_TESTS_CHILD_H
#define PIROGUE_TESTS_CHILD_H
#include "testutil.h"
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs fn(arg) in a forked child with its stderr on a pipe; the child ends
 * with _exit(fn's return value) unless fn ends it first (by a signal, or
 * _exit itself). Reads what the child wrote to stderr into out (len bytes,
 * NUL-terminated, cut when longer) until it ends; returns its wait status. */
static inline int child_run(int (*fn)(void *), void *arg, char *out, size_t len)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		dup2(p[1], 2);
		_exit(fn(arg));
	}
	close(p[1]);
	size_t used = 0;
	ssize_t n;
	while (used < len - 1 && (n = read(p[0], out + used, len - 1 - used)) > 0)
		used += (size_t)n;
	out[used] = 0;
	close(p[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

#endif
