/* conrow: a console's rows read back as text, for tests that look for words on a screen. */
#ifndef PIROGUE_TESTS_CONROW_H
#define PIROGUE_TESTS_CONROW_H
#include "testutil.h"
#include "render/console.h"
#include <stdbool.h>
#include <string.h>

/* Row y of c as text into buf (c->w + 1 bytes at least): code points
 * outside printable ASCII as '*'; with trim, trailing blanks cut. Returns
 * buf. */
static inline const char *conrow_text(const struct console *c, int y, char *buf, bool trim)
{
	int x;
	for (x = 0; x < c->w; x++) {
		uint32_t ch = con_at(c, x, y)->ch;
		buf[x] = ch >= 0x20 && ch < 0x7F ? (char)ch : '*';
	}
	buf[x] = 0;
	while (trim && x > 0 && buf[x - 1] == ' ')
		buf[--x] = 0;
	return buf;
}

/* Whether any row of c (at most 255 columns) holds text. */
static inline bool conrow_find(const struct console *c, const char *text)
{
	char buf[256];
	assert_true(c->w < (int)sizeof buf);
	for (int y = 0; y < c->h; y++)
		if (strstr(conrow_text(c, y, buf, false), text))
			return true;
	return false;
}

/* The same, setting (*x, *y) to where the first such text starts. */
static inline bool conrow_find_at(const struct console *c, const char *text, int *x, int *y)
{
	char buf[256];
	assert_true(c->w < (int)sizeof buf);
	for (*y = 0; *y < c->h; (*y)++) {
		const char *at = strstr(conrow_text(c, *y, buf, false), text);
		if (at) {
			*x = (int)(at - buf);
			return true;
		}
	}
	return false;
}

#endif
