/* log: one printable line per message, whatever the message quotes. */
#include "testutil.h"
#include "core/log.h"
#include <stdlib.h>
#include <string.h>

static char *logged(const char *what)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	log_set_stream(mem);
	log_error("file x: '%s'", what);
	log_set_stream(NULL);
	fclose(mem);
	return buf;
}

/* issue 11 (defects 9 and 13): messages quoting a file's bytes put raw
 * escape sequences and line breaks on the terminal. */
static void test_control_bytes_replaced(void **st)
{
	(void)st;
	char *s = logged("a\033[2Jb\nc\rd\x7f" "e\x9b" "f\xc2\x9b" "g\tx");
	assert_string_equal(s, "pirogue: file x: 'a?[2Jb?c?d?e?f?g?x'\n");
	free(s);
	s = logged("caf\xc3\xa9 \xe2\x99\xa5 \xef\xbf\xbd"); /* UTF-8 text, U+FFFD itself, stays */
	assert_string_equal(s, "pirogue: file x: 'caf\xc3\xa9 \xe2\x99\xa5 \xef\xbf\xbd'\n");
	free(s);
}

static void test_long_message_cut_cleanly(void **st)
{
	(void)st;
	char big[700];
	memset(big, 'a', sizeof big);
	for (size_t i = 490; i + 2 < sizeof big; i += 2)
		memcpy(big + i, "\xc3\xa9", 2); /* é across the cut */
	big[sizeof big - 1] = 0;
	char *s = logged(big);
	assert_non_null(strchr(s, '\n'));
	assert_true(strchr(s, '\n') == s + strlen(s) - 1); /* one line */
	assert_null(strchr(s, '?'));                        /* no half character turned into '?' */
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_control_bytes_replaced),
		cmocka_unit_test(test_long_message_cut_cleanly),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
