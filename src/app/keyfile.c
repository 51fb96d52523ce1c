#include "app/keyfile.h"
#include "core/log.h"
#include "platform/keys.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

int keyfile_parse_line(const char *line, size_t len, uint32_t *key)
{
	if (memchr(line, 0, len))
		return -EILSEQ;
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (len > KEYFILE_LINE_MAX)
		return -E2BIG;
	if (len == 1 && line[0] == ' ') {
		*key = KEY_SPACE;
		return 1;
	}
	char buf[KEYFILE_LINE_MAX + 1];
	memcpy(buf, line, len);
	buf[len] = 0;
	char *s = buf, *hash = strchr(s, '#');
	if (hash)
		*hash = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
	if (!*s)
		return 0;
	return key_parse(s, key) ? -EINVAL : 1;
}

int keyfile_next(FILE *f, const char *name, int *lineno, uint32_t *key)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int rc = 0;
	errno = 0;
	while ((got = getline(&line, &cap, f)) >= 0) {
		(*lineno)++;
		rc = keyfile_parse_line(line, (size_t)got, key);
		if (rc == -EILSEQ) {
			log_error("%s:%d: the line holds a NUL byte (a keys file is text: one key a line)", name, *lineno);
		} else if (rc == -E2BIG) {
			log_error("%s:%d: line too long (at most %d characters; one key a line)", name, *lineno,
				  KEYFILE_LINE_MAX);
		} else if (rc == -EINVAL) {
			/* the token, without blanks or comment, for the message */
			char *s = line + strspn(line, " \t");
			s[strcspn(s, "#\r\n")] = 0;
			size_t n = strlen(s);
			while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
				s[--n] = 0;
			for (char *c = s; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = '?';
			log_error("%s:%d: unknown key '%s' (a character or one of: " KEY_NAMES
				  " modifier; gamepad buttons: " PAD_NAMES ")",
				  name, *lineno, s);
		}
		if (rc)
			break;
		errno = 0;
	}
	if (!rc && ferror(f)) {
		/* the reason getline met (a directory: EISDIR), else EIO */
		int e = errno ? errno : EIO;
		rc = -e;
		log_error("cannot read keys file %s: %s", name, strerror(e));
	}
	free(line);
	return rc;
}
