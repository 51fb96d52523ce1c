/* log: one-line diagnostics to stderr (or a file), one place for the program's voice. */
#ifndef PIROGUE_CORE_LOG_H
#define PIROGUE_CORE_LOG_H
#include <stdio.h>

/* Writes "pirogue: <message>\n" to the log stream. The message is always
 * one printable line: control characters (newlines and escapes included)
 * and bytes that are not UTF-8 are written as '?', so quoting a file's or a
 * device's bytes is safe. At most 511 bytes. Never fails loudly. */
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same, but only when verbose logging was switched on (log_set_verbose). */
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Where messages go: NULL means stderr. The stream belongs to the caller. */
void log_set_stream(FILE *f);
/* Non-zero: log_info messages are written too; 0 (the default): dropped. */
void log_set_verbose(int on);
/* While a full-screen backend owns the terminal, messages are held back and
 * written when log_flush_held() is called (after the terminal is restored). */
void log_hold(int on);
void log_flush_held(void);

#endif
