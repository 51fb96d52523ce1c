/* testutil: what every cmocka test file includes (cmocka's prerequisites, helpers). */
#ifndef PIROGUE_TESTUTIL_H
#define PIROGUE_TESTUTIL_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

/* Directory holding tests/ data; tests run from the repository root. */
#define TEST_DIR "tests"

/* Writes into buf (len bytes) and returns the path of a file the game ships
 * (rel, e.g. "gamepads/gamecontrollerdb.txt") under $PIROGUE_DATA_DIR
 * (make test sets it), else under the current directory. */
static inline const char *test_data_path(char *buf, size_t len, const char *rel)
{
	const char *dir = getenv("PIROGUE_DATA_DIR");
	snprintf(buf, len, "%s/%s", dir && *dir ? dir : ".", rel);
	return buf;
}

#endif
