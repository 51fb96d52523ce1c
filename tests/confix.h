/* confix: console fixtures shared by the tests that read what a screen drew: a row of cells as text. */
#ifndef PIROGUE_CONFIX_H
#define PIROGUE_CONFIX_H
#include "render/console.h"
#include <string.h>

/* Row y of c as text into buf (at least c->w + 1 bytes): code points
 * outside printable ASCII as '*', every column kept (trailing blanks too).
 * Returns buf. */
static inline const char *confix_row(const struct console *c, int y, char *buf)
{
	int x;
	for (x = 0; x < c->w; x++) {
		uint32_t ch = con_at(c, x, y)->ch;
		buf[x] = ch >= 0x20 && ch < 0x7F ? (char)ch : '*';
	}
	buf[x] = 0;
	return buf;
}

/* confix_row with the trailing blanks cut. */
static inline const char *confix_line(const struct console *c, int y, char *buf)
{
	confix_row(c, y, buf);
	for (size_t n = strlen(buf); n > 0 && buf[n - 1] == ' '; n--)
		buf[n - 1] = 0;
	return buf;
}

#endif
