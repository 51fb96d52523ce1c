#include "core/log.h"
#include <stdarg.h>
#include <string.h>

/* The log's own sink; allowed as the one piece of process-wide diagnostics state. */
static FILE *log_stream;
static int log_verbose;
static int log_holding;
static char log_held[4096];
static size_t log_held_len;

void log_set_stream(FILE *f) { log_stream = f; }
void log_set_verbose(int on) { log_verbose = on; }

__attribute__((format(printf, 1, 0))) static void log_v(const char *fmt, va_list ap)
{
	char line[512];
	int n = vsnprintf(line, sizeof line, fmt, ap);
	if (n < 0)
		return;
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
