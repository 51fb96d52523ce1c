#include "platform/evdb.h"
#include "core/log.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------- GUID ---------- */

static void put_le16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v & 0xFF);
	p[1] = (uint8_t)(v >> 8);
}

uint16_t evdb_crc16(uint16_t crc, const void *data, size_t n)
{
	const uint8_t *s = data;
	for (size_t i = 0; i < n; i++) {
		unsigned r = (crc ^ s[i]) & 0xFF, c = 0;
		for (int b = 0; b < 8; b++) {
			c = (((c ^ r) & 1) ? 0xA001u : 0) ^ (c >> 1);
			r >>= 1;
		}
		crc = (uint16_t)(c ^ (crc >> 8));
	}
	return crc;
}

void evdb_guid(uint16_t bus, uint16_t vendor, uint16_t product, uint16_t version, const char *name,
	      uint8_t guid[16])
{
	size_t len = strlen(name);
	memset(guid, 0, 16);
	put_le16(guid, bus);
	put_le16(guid + 2, evdb_crc16(0, name, len));
	if (vendor && product) {
		put_le16(guid + 4, vendor);
		put_le16(guid + 8, product);
		put_le16(guid + 12, version);
	} else {
		memcpy(guid + 4, name, len < 11 ? len : 11); /* SDL: strlcpy into 12 bytes */
	}
}

void evdb_guid_str(const uint8_t guid[16], char out[33])
{
	static const char hex[] = "0123456789abcdef";
	for (int i = 0; i < 16; i++) {
		out[2 * i] = hex[guid[i] >> 4];
		out[2 * i + 1] = hex[guid[i] & 15];
	}
	out[32] = 0;
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = tolower(ch);
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

int evdb_guid_parse(const char *s, uint8_t guid[16])
{
	for (int i = 0; i < 32; i++)
		if (hexval((unsigned char)s[i]) < 0)
			return -EINVAL;
	if (s[32])
		return -EINVAL;
	for (int i = 0; i < 16; i++)
		guid[i] = (uint8_t)(hexval((unsigned char)s[2 * i]) << 4 | hexval((unsigned char)s[2 * i + 1]));
	return 0;
}

/* ---------- GameControllerDB ---------- */

/* SDL 2.26's outputs (names compared ignoring case, as SDL does). */
static const struct { const char *name; uint8_t target; bool axis; } db_targets[] = {
	{"a", EVDB_B_SOUTH, false}, {"b", EVDB_B_EAST, false}, {"x", EVDB_B_WEST, false},
	{"y", EVDB_B_NORTH, false}, {"back", EVDB_B_SELECT, false}, {"guide", EVDB_T_OTHER + 0, false},
	{"start", EVDB_B_START, false}, {"leftstick", EVDB_B_THUMBL, false},
	{"rightstick", EVDB_B_THUMBR, false}, {"leftshoulder", EVDB_B_TL, false},
	{"rightshoulder", EVDB_B_TR, false}, {"dpup", EVDB_B_DUP, false}, {"dpdown", EVDB_B_DDOWN, false},
	{"dpleft", EVDB_B_DLEFT, false}, {"dpright", EVDB_B_DRIGHT, false},
	{"misc1", EVDB_T_OTHER + 1, false}, {"paddle1", EVDB_T_OTHER + 2, false},
	{"paddle2", EVDB_T_OTHER + 3, false}, {"paddle3", EVDB_T_OTHER + 4, false},
	{"paddle4", EVDB_T_OTHER + 5, false}, {"touchpad", EVDB_T_OTHER + 6, false},
	{"leftx", EVDB_T_LX, true}, {"lefty", EVDB_T_LY, true}, {"rightx", EVDB_T_OTHER + 7, true},
	{"righty", EVDB_T_OTHER + 8, true}, {"lefttrigger", EVDB_T_LT, true},
	{"righttrigger", EVDB_T_RT, true},
};

/* Fields that are not outputs, and outputs of later SDL versions: SDL 2.26
 * skips them too, and they are no mistake, so nothing is said. */
static const char *const db_quiet[] = {
	"platform", "crc", "hint", "sdk>=", "sdk<=", "type", "face",
	"misc2", "misc3", "misc4", "misc5", "misc6",
};

static bool quiet_field(const char *name)
{
	for (size_t j = 0; j < sizeof db_quiet / sizeof *db_quiet; j++)
		if (!strcasecmp(name, db_quiet[j]))
			return true;
	return false;
}

/* Parses decimal digits at *p like atoi, saturating at 65535. */
static unsigned parse_digits(const char **p)
{
	unsigned v = 0;
	for (; isdigit((unsigned char)**p); (*p)++) {
		v = v * 10 + (unsigned)(**p - '0');
		if (v > 65535)
			v = 65535;
	}
	return v;
}

/* Reads a source as SDL's SDL_PrivateGameControllerParseElement does:
 * optional '+'/'-', then "a<digit>...", "b<digit>..." or
 * "h<digit>.<digit>..." (digits read like atoi, the rest ignored); a final
 * '~' inverts. Returns false when SDL would skip the element. */
static bool parse_source(const char *s, struct evdb_bind *b)
{
	size_t n;
	b->in_half = 0;
	if (*s == '+' || *s == '-')
		b->in_half = *s++ == '+' ? 1 : -1;
	n = strlen(s);
	b->invert = n > 0 && s[n - 1] == '~';
	b->kind = s[0];
	if ((s[0] == 'a' || s[0] == 'b') && isdigit((unsigned char)s[1])) {
		s++;
		b->index = (uint16_t)parse_digits(&s);
		return true;
	}
	if (s[0] == 'h' && isdigit((unsigned char)s[1]) && s[2] == '.' && isdigit((unsigned char)s[3])) {
		b->index = (uint16_t)(s[1] - '0');
		s += 3;
		b->hatmask = (uint8_t)(parse_digits(&s) & 0xFF);
		return true;
	}
	return false;
}

bool evdb_hint(const char *f)
{
	char name[128];
	size_t n = 0;
	bool neg = *f == '!', def = false, v;
	if (neg)
		f++;
	while (*f && *f != ',' && *f != ':' && n < sizeof name - 1)
		name[n++] = *f++;
	name[n] = 0;
	if (f[0] == ':' && f[1] == '=')
		def = strtol(f + 2, NULL, 10) != 0;
	const char *env = getenv(name);
	if (!env || !*env)
		v = def;
	else
		v = !(*env == '0' || !strcasecmp(env, "false"));
	return neg ? !v : v;
}

/* Appends "what" to the note of skipped elements (cut, never overflowing). */
static void note_add(char *note, size_t cap, const char *what)
{
	size_t len = strlen(note);
	if (len + 1 < cap)
		snprintf(note + len, cap - len, "%s%s", len ? ", " : "", what);
}

static const char *db_src(struct evdb *db, const char *src)
{
	for (int i = 0; i < db->nsrcs; i++)
		if (!strcmp(db->srcs[i], src))
			return db->srcs[i];
	char **v = realloc(db->srcs, (size_t)(db->nsrcs + 1) * sizeof *v);
	if (!v)
		return NULL;
	db->srcs = v;
	if (!(v[db->nsrcs] = strdup(src)))
		return NULL;
	return v[db->nsrcs++];
}

/* Reads the elements after the name (SDL's
 * SDL_PrivateGameControllerParseControllerConfigString): blanks are dropped
 * everywhere, ',' ends an element, ':' starts (or restarts) its source, and
 * a target or source of 20 characters or more ends the reading. */
static void parse_elements(const char *p, const char *end, struct evdb_entry *e, char *note, size_t cap)
{
	char tgt[21] = "", srcb[21] = "";
	size_t i = 0;
	bool in_src = false;
	for (;; p++) {
		bool done = p == end;
		if (!done && *p == ' ')
			continue;
		if (!done && *p == ':') {
			in_src = true;
			i = 0;
			continue;
		}
		if (done || *p == ',') {
			if (done && !tgt[0] && !srcb[0])
				return;
			char what[128];
			struct evdb_bind b = {0};
			const char *t = tgt;
			int k = -1;
			if (*t == '+' || *t == '-')
				b.out_half = *t++ == '+' ? 1 : -1;
			for (size_t j = 0; j < sizeof db_targets / sizeof *db_targets && k < 0; j++)
				if (!strcasecmp(t, db_targets[j].name))
					k = (int)j;
			if (k < 0) {
				if (!quiet_field(tgt) && (tgt[0] || srcb[0])) {
					snprintf(what, sizeof what, "%s:%s (unknown output)", tgt, srcb);
					note_add(note, cap, what);
				}
			} else if (!parse_source(srcb, &b)) {
				snprintf(what, sizeof what, "%s:%s (%s)", tgt, srcb,
					 srcb[0] ? "source is not bN, aN or hN.M" : "no source");
				note_add(note, cap, what);
			} else if (e->nbinds == EVDB_MAXBINDS) {
				snprintf(what, sizeof what, "%s:%s (more than %d elements)", tgt, srcb, EVDB_MAXBINDS);
				note_add(note, cap, what);
			} else {
				if (!db_targets[k].axis)
					b.out_half = 0;
				b.target = db_targets[k].target;
				e->binds[e->nbinds++] = b;
			}
			if (done)
				return;
			memset(tgt, 0, sizeof tgt);
			memset(srcb, 0, sizeof srcb);
			in_src = false;
			i = 0;
			continue;
		}
		char *buf = in_src ? srcb : tgt;
		if (i >= sizeof tgt - 1) {
			/* SDL stops reading here: name what that loses (a long
			 * hint: before platform: loses nothing worth a word) */
			const char *t = tgt;
			if (in_src && quiet_field(tgt))
				t = NULL;
			for (const char *q = p; t || q < end;) {
				if (t && *t) {
					char what[96];
					snprintf(what, sizeof what, "%.20s: (SDL reads nothing after an element longer "
						 "than 20 characters)", t);
					note_add(note, cap, what);
				}
				t = NULL;
				if (!(q = memchr(q, ',', (size_t)(end - q))))
					break;
				size_t k = 0;
				for (q++; q < end && *q != ',' && *q != ':'; q++)
					if (*q != ' ' && k < sizeof tgt - 1)
						tgt[k++] = *q;
				tgt[k] = 0;
				if (k && !quiet_field(tgt))
					t = tgt;
			}
			return;
		}
		buf[i++] = *p;
	}
}

/* Whether s[0..n) holds "platform:NAME," with NAME Linux (SDL's file reader). */
static int file_platform(const char *s, size_t n)
{
	static const char key[] = "platform:";
	for (size_t i = 0; i + sizeof key - 1 <= n; i++) {
		if (memcmp(s + i, key, sizeof key - 1))
			continue;
		const char *v = s + i + sizeof key - 1, *end = s + n;
		const char *comma = memchr(v, ',', (size_t)(end - v));
		if (!comma || comma - v + 2 >= 64)
			return -1;
		return comma - v == 5 && !strncasecmp(v, "Linux", 5);
	}
	return -1;
}

int evdb_add_line(struct evdb *db, const char *line, size_t len, const char *src, int lineno,
		    unsigned flags)
{
	struct evdb_entry e;
	char why[160], note[512] = "";
	char *buf = NULL;
	int rc;
	len = strnlen(line, len); /* SDL's string ends at a NUL byte */
	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	while (len && isspace((unsigned char)*line)) {
		line++;
		len--;
	}
	if (!len || *line == '#')
		return 1;
	if (!(buf = malloc(len + 1)))
		goto nomem;
	memcpy(buf, line, len);
	buf[len] = 0;
	if (flags & EVDB_FILE) {
		int pf = file_platform(buf, len);
		if (pf == 0) {
			free(buf);
			return 1; /* another platform's line: not for us */
		}
		if (pf < 0) {
			log_error("%s:%d: gamepad mapping skipped: no \"platform:Linux,\" field (SDL reads a "
				  "file's line only with one; add it, comma included)", src, lineno);
			free(buf);
			return 1;
		}
	}
	const char *hint = strstr(buf, "hint:");
	if (hint && !evdb_hint(hint + 5)) {
		log_info("%s:%d: gamepad mapping skipped: its hint:%.60s is false", src, lineno, hint + 5);
		free(buf);
		return 1;
	}
	char *c1 = strchr(buf, ',');
	if (c1)
		*c1 = 0;
	if (!strcasecmp(buf, "xinput") || !strcasecmp(buf, "default")) {
		log_info("%s:%d: SDL's \"%s\" gamepad mapping skipped (pirogue has no use for it)", src,
			 lineno, buf);
		free(buf);
		return 1;
	}
	memset(&e, 0, sizeof e);
	if (evdb_guid_parse(buf, e.guid)) {
		snprintf(why, sizeof why, "GUID \"%.40s\" is not 32 hex digits", buf);
		goto bad;
	}
	char *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
	if (!c2) {
		snprintf(why, sizeof why, "no controller name between commas after the GUID");
		goto bad;
	}
	*c2 = 0;
	snprintf(e.name, sizeof e.name, "%s", c1 + 1);
	e.line = lineno;
	e.crc = (uint16_t)(e.guid[2] | e.guid[3] << 8);
	e.guid[2] = e.guid[3] = 0;
	const char *crc = strstr(c2 + 1, "crc:");
	if (!e.crc && crc)
		e.crc = (uint16_t)strtol(crc + 4, NULL, 16);
	parse_elements(c2 + 1, buf + len, &e, note, sizeof note);
	if (note[0]) {
		if (db->quiet)
			log_info("%s:%d: gamepad mapping \"%s\": skipped %s; the rest of the line is used",
				 src, lineno, e.name, note);
		else
			log_error("%s:%d: gamepad mapping \"%s\": skipped %s; the rest of the line is used",
				  src, lineno, e.name, note);
	}
	if (!(e.src = db_src(db, src)))
		goto nomem;
	/* a GUID already held: SDL updates that mapping in place (the one with
	 * the same crc first, else any) */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < db->n; i++) {
			if (!memcmp(db->v[i].guid, e.guid, 16) && (pass || db->v[i].crc == e.crc)) {
				db->v[i] = e;
				free(buf);
				return 0;
			}
		}
	}
	if (db->n == db->cap) {
		int cap = db->cap ? db->cap * 2 : 64;
		struct evdb_entry *v = realloc(db->v, (size_t)cap * sizeof *v);
		if (!v)
			goto nomem;
		db->v = v;
		db->cap = cap;
	}
	db->v[db->n++] = e;
	free(buf);
	return 0;
nomem:
	log_error("%s:%d: out of memory reading gamepad mappings", src, lineno);
	free(buf);
	return -ENOMEM;
bad:
	log_error("%s:%d: bad gamepad mapping: %s; line ignored (format: GUID,name,a:b0,...)", src,
		  lineno, why);
	free(buf);
	rc = -EINVAL;
	return rc;
}

int evdb_add_text(struct evdb *db, const char *text, const char *src, unsigned flags)
{
	int added = 0, lineno = 0;
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		int rc = evdb_add_line(db, text, len, src, ++lineno, flags);
		if (rc == -ENOMEM)
			return rc;
		if (rc == 0)
			added++;
		text += len + (nl ? 1 : 0);
	}
	return added;
}

int evdb_load_file(struct evdb *db, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int added = 0, lineno = 0, rc;
	if (!f) {
		rc = -errno;
		log_error("%s: cannot open gamepad mapping file: %s", path, strerror(errno));
		return rc;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		rc = evdb_add_line(db, line, (size_t)len, path, ++lineno, EVDB_FILE);
		if (rc == -ENOMEM)
			goto out;
		if (rc == 0)
			added++;
	}
	if (ferror(f)) {
		rc = -EIO;
		log_error("%s: read error in gamepad mapping file", path);
		goto out;
	}
	rc = added;
out:
	free(line);
	fclose(f);
	return rc;
}

/* SDL's SDL_PrivateMatchControllerMappingForGUID: the device's GUID with
 * its CRC bytes cleared (and its version too unless match_version) against
 * the entry's; with match_crc the device's CRC must equal the entry's crc. */
static const struct evdb_entry *db_match(const struct evdb *db, const uint8_t guid[16], bool match_crc,
					  bool match_version)
{
	uint8_t g[16];
	uint16_t crc = match_crc ? (uint16_t)(guid[2] | guid[3] << 8) : 0;
	memcpy(g, guid, 16);
	g[2] = g[3] = 0;
	if (!match_version)
		g[12] = g[13] = 0;
	for (int i = 0; i < db->n; i++) {
		uint8_t m[16];
		memcpy(m, db->v[i].guid, 16);
		if (!match_version)
			m[12] = m[13] = 0;
		if (!memcmp(g, m, 16) && crc == (match_crc ? db->v[i].crc : 0))
			return &db->v[i];
	}
	return NULL;
}

const struct evdb_entry *evdb_find(const struct evdb *db, const uint8_t guid[16])
{
	const struct evdb_entry *e = NULL;
	bool crc = guid[2] || guid[3];
	bool vp = (guid[4] || guid[5]) && (guid[8] || guid[9]);
	if (crc)
		e = db_match(db, guid, true, true);
	if (!e)
		e = db_match(db, guid, false, true);
	if (!e && vp && crc)
		e = db_match(db, guid, true, false);
	if (!e && vp)
		e = db_match(db, guid, false, false);
	return e;
}

void evdb_free(struct evdb *db)
{
	if (!db)
		return;
	free(db->v);
	for (int i = 0; i < db->nsrcs; i++)
		free(db->srcs[i]);
	free(db->srcs);
	db->v = NULL;
	db->srcs = NULL;
	db->n = db->cap = db->nsrcs = 0;
}
