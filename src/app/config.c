#include "app/config.h"
#include "core/log.h"
#include "save/save.h"
#include <errno.h>
#include <stdbool.h>
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int config_binding(struct bindings *b, const char *setting, const char *value, char *why, size_t len)
{
	bool pad;
	if (!strncmp(setting, "key.", 4))
		pad = false;
	else if (!strncmp(setting, "pad.", 4))
		pad = true;
	else
		return -ENOENT;
	enum action a;
	if (bind_action_parse(setting + 4, &a)) {
		char list[400];
		size_t used = 0;
		list[0] = 0;
		for (int i = ACT_NONE + 1; i < ACT_COUNT && used < sizeof list; i++)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i > 1 ? " " : "",
						 bind_action_name((enum action)i));
		snprintf(why, len, "unknown action '%.40s' in '%.44s' (actions: %s)", setting + 4, setting, list);
		return -EINVAL;
	}
	char reason[200];
	if (bind_set(b, a, pad, value, reason, sizeof reason)) {
		snprintf(why, len, "%s: %s", setting, reason);
		return -EINVAL;
	}
	return 0;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

int config_read(const char *path, config_fn fn, void *ctx)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		int e = errno;
		if (e == ENOENT)
			return -ENOENT;
		log_error("cannot read settings file %s: %s", path, strerror(e));
		return -e;
	}
	char *buf = NULL;
	size_t cap = 0;
	ssize_t got;
	int line = 0, rc = 0;
	errno = 0;
	while ((got = getline(&buf, &cap, f)) >= 0) {
		line++;
		/* a UTF-8 byte order mark (Windows editors write one) is not
		 * part of the first setting's name */
		if (line == 1 && got >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
			memmove(buf, buf + 3, (size_t)got - 2);
			got -= 3;
		}
		if (memchr(buf, 0, (size_t)got)) {
			log_error("%s:%d: the line holds a NUL byte (a settings file is text: is it the right file?)", path,
				  line);
			rc = -EINVAL;
			break;
		}
		if (got > CONFIG_LINE_MAX + 1) {
			log_error("%s:%d: line too long (at most %d characters)", path, line, CONFIG_LINE_MAX);
			rc = -EINVAL;
			break;
		}
		char *s = trim(buf);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			if (strcmp(s, "[pirogue]") != 0) {
				log_error("%s:%d: unknown section '%s' (only [pirogue] is known)", path, line, s);
				rc = -EINVAL;
				break;
			}
			continue;
		}
		char *eq = strchr(s, '=');
		if (!eq) {
			log_error("%s:%d: expected 'setting = value', got '%s'", path, line, s);
			rc = -EINVAL;
			break;
		}
		*eq = 0;
		/* after the value, a blank then '#' or ';' starts a comment
		 * ("scale = 2  # big"); a value that is just "#" stays one */
		bool text = false;
		for (char *c = eq + 1; *c; c++) {
			if (text && (*c == '#' || *c == ';') && (c[-1] == ' ' || c[-1] == '\t')) {
				*c = 0;
				break;
			}
			text |= *c != ' ' && *c != '\t';
		}
		char *key = trim(s), *value = trim(eq + 1);
		if (!*key) {
			log_error("%s:%d: a value without a setting name", path, line);
			rc = -EINVAL;
			break;
		}
		rc = fn(ctx, path, line, key, value);
		if (rc)
			break;
		errno = 0;
	}
	if (!rc && ferror(f)) {
		/* the reason getline met (a directory: EISDIR), else EIO */
		int e = errno ? errno : EIO;
		rc = -e;
		log_error("cannot read settings file %s: %s", path, strerror(e));
	}
	free(buf);
	fclose(f);
	return rc;
}

const char *config_user_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (xdg && xdg[0] == '/') {
		snprintf(buf, len, "%s/pirogue/pirogue.conf", xdg);
		return buf;
	}
	const char *home = getenv("HOME");
	if (home && home[0]) {
		snprintf(buf, len, "%s/.config/pirogue/pirogue.conf", home);
		return buf;
	}
	return NULL;
}

/* The setting name a line of a settings file sets (into name), or false
 * for a blank line, a comment, a section header or no "=". */
static bool line_key(const char *line, size_t n, char *name, size_t len)
{
	while (n && (*line == ' ' || *line == '\t')) {
		line++;
		n--;
	}
	if (!n || *line == '#' || *line == ';' || *line == '[')
		return false;
	const char *eq = memchr(line, '=', n);
	if (!eq)
		return false;
	size_t k = (size_t)(eq - line);
	while (k && (line[k - 1] == ' ' || line[k - 1] == '\t'))
		k--;
	if (!k || k >= len)
		return false;
	memcpy(name, line, k);
	name[k] = 0;
	return true;
}

int config_state_set(const char *dir, const char *key, const char *value)
{
	if (strchr(key, '\n') || strchr(value, '\n'))
		return -EINVAL;
	int rc = save_make_dir(dir);
	if (rc)
		return rc;
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, CONFIG_STATE_FILE);
	char *old = NULL;
	size_t oldn = 0;
	FILE *f = fopen(path, "r");
	if (f) {
		FILE *m = open_memstream(&old, &oldn);
		char buf[4096];
		size_t got;
		while (m && (got = fread(buf, 1, sizeof buf, f)) > 0)
			fwrite(buf, 1, got, m);
		int bad = ferror(f) || !m;
		fclose(f);
		if (m)
			fclose(m);
		if (bad) {
			free(old);
			log_error("cannot read settings file %s: %s", path, strerror(EIO));
			return -EIO;
		}
	} else if (errno != ENOENT) {
		int e = errno;
		log_error("cannot read settings file %s: %s", path, strerror(e));
		return -e;
	}
	char *out = NULL;
	size_t outn = 0;
	FILE *m = open_memstream(&out, &outn);
	if (!m) {
		free(old);
		return -ENOMEM;
	}
	bool done = false;
	for (size_t at = 0; at < oldn;) {
		const char *nl = memchr(old + at, '\n', oldn - at);
		size_t n = nl ? (size_t)(nl - (old + at)) : oldn - at;
		char name[128];
		if (line_key(old + at, n, name, sizeof name) && !strcmp(name, key)) {
			if (!done)
				fprintf(m, "%s = %s\n", key, value);
			done = true;
		} else {
			fwrite(old + at, 1, n, m);
			fputc('\n', m);
		}
		at += n + (nl ? 1 : 0);
	}
	if (!done)
		fprintf(m, "%s = %s\n", key, value);
	free(old);
	if (fclose(m)) {
		free(out);
		return -ENOMEM;
	}
	rc = save_write_atomic(dir, CONFIG_STATE_FILE, out, outn);
	free(out);
	return rc;
}
