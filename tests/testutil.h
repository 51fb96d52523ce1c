/* testutil: what every cmocka test file includes (cmocka's prerequisites, helpers). */
#ifndef PIROGUE_TESTUTIL_H
#define PIROGUE_TESTUTIL_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* Directory holding tests/ data; tests run from the repository root. */
#define TEST_DIR "tests"

#endif
