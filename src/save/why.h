/* why: the one-line reasons the save module's readers write into a caller's buffer. */
#ifndef PIROGUE_SAVE_WHY_H
#define PIROGUE_SAVE_WHY_H
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Writes the reason (printf format) into why (whylen bytes; nothing when 0)
 * and returns rc, for "return why_set(why, len, -EINVAL, ...)". */
static inline int why_set(char *why, size_t whylen, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static inline int why_set(char *why, size_t whylen, int rc, const char *fmt, ...)
{
	if (whylen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

#endif
