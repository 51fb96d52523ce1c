#include "core/log.h"
#include "core/utf8.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The log's own sink; allowed as the one piece of process-wide diagnostics state. */
static FILE *log_stream;
static int log_verbose;
static int log_holding;
static char log_held[4096];
static size_t log_held_len;

void log_set_stream(FILE *f) { log_stream = f; }
void log_set_verbose(int on) { log_verbose = on; }

/* Makes s one printable line, in place: control characters (C0, DEL, C1)
 * and bytes that are not UTF-8 become '?', so a message quoting a file or
 * a device name can neither break the line nor send the terminal an escape
 * sequence. A sequence cut by the buffer's end is dropped. */
static void log_clean(char *s, bool cut)
{
	size_t n = strlen(s), out = 0;
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp);
		bool bad = (cp == 0xfffd && k == 1) || cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
		if (bad && k == 1 && cut && (unsigned char)s[i] >= 0xc0 && i + 4 > n)
			break; /* a sequence vsnprintf cut */
		if (bad) {
			s[out++] = '?';
		} else {
			memmove(s + out, s + i, k);
			out += k;
		}
		i += k;
	}
	s[out] = 0;
}

__attribute__((format(printf, 1, 0))) static void log_v(const char *fmt, va_list ap)
{
	char line[512];
	int n = vsnprintf(line, sizeof line, fmt, ap);
	if (n < 0)
		return;
	log_clean(line, n >= (int)sizeof line);
	if (log_holding) {
		size_t len = strlen(line);
		if (log_held_len + len + 11 < sizeof log_held) {
			memcpy(log_held + log_held_len, "pirogue: ", 9);
			memcpy(log_held + log_held_len + 9, line, len);
			log_held[log_held_len + 9 + len] = '\n';
			log_held_len += len + 10;
			log_held[log_held_len] = 0;
		}
		return;
	}
	FILE *f = log_stream ? log_stream : stderr;
	fprintf(f, "pirogue: %s\n", line);
	fflush(f);
}

void log_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_v(fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	if (!log_verbose)
		return;
	va_list ap;
	va_start(ap, fmt);
	log_v(fmt, ap);
	va_end(ap);
}

void log_hold(int on) { log_holding = on; }

void log_flush_held(void)
{
	log_holding = 0;
	if (log_held_len) {
		FILE *f = log_stream ? log_stream : stderr;
		fputs(log_held, f);
		fflush(f);
		log_held_len = 0;
		log_held[0] = 0;
	}
}
