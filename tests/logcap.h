/* logcap: what the code under test logs (core/log.h), captured into a buffer for the tests to read. */
#ifndef PIROGUE_TESTS_LOGCAP_H
#define PIROGUE_TESTS_LOGCAP_H
#include "testutil.h"
#include "core/log.h"
#include <stdio.h>
#include <string.h>

/* What was logged between logcap_begin() and logcap_end() (NUL-terminated,
 * at most its size - 1 bytes). */
static char logcap_buf[4096];
static FILE *logcap_f;

/* Empties logcap_buf and sends log lines into it until logcap_end(). */
static inline void logcap_begin(void)
{
	memset(logcap_buf, 0, sizeof logcap_buf);
	logcap_f = fmemopen(logcap_buf, sizeof logcap_buf - 1, "w");
	assert_non_null(logcap_f);
	log_set_stream(logcap_f);
}

/* Sends log lines to stderr again; logcap_buf holds what came. */
static inline void logcap_end(void)
{
	fflush(logcap_f);
	log_set_stream(NULL);
	fclose(logcap_f);
}

/* The number of lines (newline characters) in s. */
static inline int logcap_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

#endif
