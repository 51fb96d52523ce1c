/* keyfile: the --keys file format (one key a line, '#' comments), read key by key. */
#ifndef PIROGUE_APP_KEYFILE_H
#define PIROGUE_APP_KEYFILE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The longest line accepted, without its newline. */
#define KEYFILE_LINE_MAX 255

/* Parses one line of len bytes (its newline, CR included, may be there).
 * Blanks around the token are ignored, '#' starts a comment (so '#' itself
 * cannot be given), and a line that is exactly one space is the space key.
 * Returns 1 with *key set, 0 for a line with no key (blank or comment),
 * -EILSEQ when the line holds a NUL byte, -E2BIG when it is longer than
 * KEYFILE_LINE_MAX, -EINVAL for an unknown key. Logs nothing. */
int keyfile_parse_line(const char *line, size_t len, uint32_t *key);

/* Reads the next key from f (name: the file's name, for messages; *lineno
 * counts lines, start it at 0). Returns 1 with *key set, 0 at the end of the
 * file, or a negative errno having logged one line "NAME:LINE: ..." naming
 * the problem (unknown key, NUL byte, line too long, read error). */
int keyfile_next(FILE *f, const char *name, int *lineno, uint32_t *key);

#endif
