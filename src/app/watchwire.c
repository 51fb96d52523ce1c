/* The watch protocol's bytes: little-endian integers, strings as a length
 * byte and their bytes, every value checked when parsed. */
#include "app/watchwire.h"
#include "core/le.h"
#include "game/history.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const unsigned char watch_resync_msg[WATCH_RESYNC_LEN] = { 1, 0, 0, 0, WATCH_RESYNC };

/* ------------------------------------------------------------------ */
/* building */

/* A message being built at b (cap bytes): its head's room (WATCH_HEAD
 * bytes) then the payload. Only b[0 .. n) is ever read, so a builder sets
 * n = WATCH_HEAD and leaves b as it is (not 1 KiB cleared a message). */
struct out {
	unsigned char *b;
	size_t n, cap;
};

#define OUT_ROOM (WATCH_HEAD + 1024) /* the largest message built here but a snapshot's game */

static inline void o_u8(struct out *o, unsigned v)
{
	if (o->n < o->cap)
		o->b[o->n++] = (unsigned char)v;
}

static inline void o_u16(struct out *o, unsigned v)
{
	if (o->n + 2 > o->cap) {
		o->n = o->cap;
		return;
	}
	o->b[o->n] = (unsigned char)(v & 0xFF);
	o->b[o->n + 1] = (unsigned char)((v >> 8) & 0xFF);
	o->n += 2;
}

static inline void o_u32(struct out *o, uint32_t v)
{
	if (o->n + 4 > o->cap) {
		o->n = o->cap;
		return;
	}
	le_put32(o->b + o->n, v);
	o->n += 4;
}

static inline void o_u64(struct out *o, uint64_t v)
{
	o_u32(o, (uint32_t)v);
	o_u32(o, (uint32_t)(v >> 32));
}

/* A string of at most max bytes (the field it goes back into). */
static inline void o_str(struct out *o, const char *s, size_t max)
{
	size_t n = s[0] ? strnlen(s, max) : 0; /* (most are empty: no call) */
	if (o->n + 1 + n > o->cap) {
		o->n = o->cap;
		return;
	}
	o->b[o->n] = (unsigned char)n;
	memcpy(o->b + o->n + 1, s, n);
	o->n += 1 + n;
}

/* The message's head written: its length (of o's payload) and type.
 * Returns its whole length. */
static size_t seal(struct out *o, uint8_t type)
{
	le_put32(o->b, (uint32_t)(o->n - WATCH_HEAD + 1));
	o->b[4] = type;
	return o->n;
}

/* Appends the message of this type with the payload in o to b. */
static int put(struct serial_buf *b, uint8_t type, struct out *o)
{
	return serial_buf_append(b, o->b, seal(o, type));
}

int watchwire_hello(struct serial_buf *b, const char *who)
{
	unsigned char room[OUT_ROOM];
	struct out o = { room, WATCH_HEAD, sizeof room };
	o_u16(&o, WATCH_VERSION);
	o_str(&o, who, 255);
	return put(b, WATCH_HELLO, &o);
}

/* v at p, two bytes, low first. */
static inline void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v & 0xFF);
	p[1] = (unsigned char)((v >> 8) & 0xFF);
}

/* le_put32 as one store where the CPU is little-endian (the compiler
 * does not always merge le_put32's four at an odd offset). */
static inline void put32(unsigned char *p, uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, 4);
#else
	le_put32(p, v);
#endif
}

size_t watchwire_command_to(unsigned char buf[WATCH_COMMAND_LEN], const struct command *c)
{
	put32(buf, WATCH_COMMAND_LEN - WATCH_HEAD + 1);
	buf[4] = WATCH_COMMAND;
	put32(buf + 5, (uint32_t)c->c);
	put32(buf + 9, (uint32_t)c->item);
	put32(buf + 13, (uint32_t)c->x);
	put32(buf + 17, (uint32_t)c->y);
	put32(buf + 21, (uint32_t)c->choice);
	return WATCH_COMMAND_LEN;
}

int watchwire_command(struct serial_buf *b, const struct command *c)
{
	unsigned char m[WATCH_COMMAND_LEN];
	return serial_buf_append(b, m, watchwire_command_to(m, c));
}

size_t watchwire_check_to(unsigned char buf[WATCH_CHECK_LEN], int ncmd, int turn, uint64_t sum)
{
	put32(buf, WATCH_CHECK_LEN - WATCH_HEAD + 1);
	buf[4] = WATCH_CHECK;
	put32(buf + 5, (uint32_t)ncmd);
	put32(buf + 9, (uint32_t)turn);
	put32(buf + 13, (uint32_t)sum);
	put32(buf + 17, (uint32_t)(sum >> 32));
	return WATCH_CHECK_LEN;
}

int watchwire_check(struct serial_buf *b, int ncmd, int turn, uint64_t sum)
{
	unsigned char m[WATCH_CHECK_LEN];
	return serial_buf_append(b, m, watchwire_check_to(m, ncmd, turn, sum));
}

int watchwire_ring(struct serial_buf *b, uint32_t size, uint64_t pos)
{
	unsigned char room[OUT_ROOM];
	struct out o = { room, WATCH_HEAD, sizeof room };
	o_u32(&o, size);
	o_u64(&o, pos);
	return put(b, WATCH_RING, &o);
}

int watchwire_reset(struct serial_buf *b)
{
	unsigned char room[OUT_ROOM];
	struct out o = { room, WATCH_HEAD, sizeof room };
	return put(b, WATCH_RESET, &o);
}

#define UI_FIXED 18 /* the ui block's bytes before its strings */

static void o_ui(struct out *o, const struct ui *u)
{
	if (o->n + UI_FIXED > o->cap) {
		o->n = o->cap;
		return;
	}
	unsigned char *b = o->b + o->n;
	b[0] = (unsigned char)u->screen;
	b[1] = (unsigned char)u->menu_sel;
	b[2] = (unsigned char)u->can_continue;
	b[3] = (unsigned char)u->help_from;
	b[4] = (unsigned char)u->last_dev;
	b[5] = (unsigned char)(u->kiosk | u->demo << 1 | u->confirm_quit << 2 | u->confirm_new << 3 |
			       u->scores_after_death << 4);
	put16(b + 6, (unsigned)u->history_top);
	put16(b + 8, (unsigned)u->help_top);
	put16(b + 10, (unsigned)(u->look_x & 0xFFFF));
	put16(b + 12, (unsigned)(u->look_y & 0xFFFF));
	b[14] = (unsigned char)u->inv_sel;
	b[15] = (unsigned char)u->target_slot;
	b[16] = (unsigned char)u->levelup_sel;
	b[17] = (unsigned char)(u->score_rank & 0xFF);
	o->n += UI_FIXED;
	o_str(o, u->notice, sizeof u->notice - 1);
	o_str(o, u->status, sizeof u->status - 1);
	int n = u->nscores < 0 ? 0 : u->nscores > UI_SCORES_MAX ? UI_SCORES_MAX : u->nscores;
	o_u8(o, (unsigned)n);
	for (int i = 0; i < n; i++) {
		const struct ui_score *s = &u->scores[i];
		o_u64(o, (uint64_t)s->score);
		o_u16(o, (unsigned)s->depth);
		o_u32(o, (uint32_t)s->turns);
		o_u16(o, (unsigned)s->level);
		o_str(o, s->cause, sizeof s->cause - 1);
	}
}

/* The spans watch_ui_seen keeps hold every number o_ui reads but the
 * scores' (kept apart). */
#define UI_IN(f, lo, hi) (offsetof(struct ui, f) >= (lo) && offsetof(struct ui, f) + sizeof(((struct ui *)0)->f) <= (hi))
#define UI_IN_SPAN(f)                                                                                              \
	_Static_assert(UI_IN(f, WATCH_UI_A0, WATCH_UI_A1) || UI_IN(f, WATCH_UI_B0, WATCH_UI_B1) ||                  \
			       UI_IN(f, WATCH_UI_C0, WATCH_UI_C1),                                                 \
		       "struct ui's " #f " is no longer within watch_ui_seen's spans")
UI_IN_SPAN(screen);
UI_IN_SPAN(menu_sel);
UI_IN_SPAN(can_continue);
UI_IN_SPAN(help_from);
UI_IN_SPAN(last_dev);
UI_IN_SPAN(kiosk);
UI_IN_SPAN(demo);
UI_IN_SPAN(confirm_quit);
UI_IN_SPAN(confirm_new);
UI_IN_SPAN(history_top);
UI_IN_SPAN(help_top);
UI_IN_SPAN(look_x);
UI_IN_SPAN(look_y);
UI_IN_SPAN(inv_sel);
UI_IN_SPAN(target_slot);
UI_IN_SPAN(levelup_sel);

/* Whether two strings give o_str the same bytes (at most sizeof - 1). */
#define STR_SAME(x, y) ((x)[0] == (y)[0] && (!(x)[0] || strncmp((x), (y), sizeof(x) - 1) == 0))

bool watchwire_ui_unchanged(struct watch_ui_seen *s, const struct ui *u)
{
	const unsigned char *b = (const unsigned char *)u;
	int ns = u->nscores < 0 ? 0 : u->nscores > UI_SCORES_MAX ? UI_SCORES_MAX : u->nscores;
	if (s->ok && s->nscores == u->nscores && s->score_rank == u->score_rank &&
	    s->scores_after_death == u->scores_after_death && memcmp(s->a, b + WATCH_UI_A0, sizeof s->a) == 0 &&
	    memcmp(s->b, b + WATCH_UI_B0, sizeof s->b) == 0 && memcmp(s->c, b + WATCH_UI_C0, sizeof s->c) == 0 &&
	    STR_SAME(s->notice, u->notice) && STR_SAME(s->status, u->status) &&
	    (!ns || memcmp(s->scores, u->scores, (size_t)ns * sizeof *u->scores) == 0))
		return true;
	memcpy(s->a, b + WATCH_UI_A0, sizeof s->a);
	memcpy(s->b, b + WATCH_UI_B0, sizeof s->b);
	memcpy(s->c, b + WATCH_UI_C0, sizeof s->c);
	memcpy(s->notice, u->notice, sizeof s->notice);
	memcpy(s->status, u->status, sizeof s->status);
	s->nscores = u->nscores;
	s->score_rank = u->score_rank;
	s->scores_after_death = u->scores_after_death;
	memcpy(s->scores, u->scores, (size_t)ns * sizeof *u->scores);
	s->ok = true;
	return false;
}

/* The largest ui block: its fixed part, two strings, the scores. */
_Static_assert(WATCH_SCREEN_MAX >= WATCH_HEAD + UI_FIXED + sizeof(((struct ui *)0)->notice) +
				    sizeof(((struct ui *)0)->status) + 1 +
				    UI_SCORES_MAX * (16 + sizeof(((struct ui_score *)0)->cause)),
	       "a ui block no longer fits WATCH_SCREEN_MAX");

size_t watchwire_screen_to(unsigned char buf[WATCH_SCREEN_MAX], const struct ui *u)
{
	struct out o = { buf, WATCH_HEAD, WATCH_SCREEN_MAX };
	o_ui(&o, u);
	return seal(&o, WATCH_SCREEN);
}

int watchwire_screen(struct serial_buf *b, const struct ui *u)
{
	unsigned char m[WATCH_SCREEN_MAX];
	return serial_buf_append(b, m, watchwire_screen_to(m, u));
}

int watchwire_snapshot(struct serial_buf *b, const struct ui *u, const struct game *g)
{
	unsigned char room[OUT_ROOM];
	struct out o = { room, WATCH_HEAD, sizeof room };
	o_ui(&o, u);
	o_u8(&o, g != NULL);
	if (g) {
		o_u32(&o, (uint32_t)hist_count(game_history(g)));
		o_u32(&o, (uint32_t)game_turn(g));
		o_u64(&o, game_digest(g));
	}
	size_t start = b->len;
	int rc = put(b, WATCH_SNAPSHOT, &o);
	if (rc || !g)
		return rc;
	if ((rc = game_encode(g, b)))
		return rc;
	size_t len = b->len - start - 4;
	if (len > WATCH_MSG_MAX)
		return -EMSGSIZE;
	le_put32(b->data + start, (uint32_t)len);
	return 0;
}

/* ------------------------------------------------------------------ */
/* reading */

int watchwire_read(struct watch_reader *r, const void *data, size_t n, size_t *used)
{
	const unsigned char *p = data;
	size_t i = 0;
	uint32_t max = r->max ? r->max : WATCH_MSG_MAX;
	if (r->ready) {
		/* the last message was handed out: start the next */
		r->ready = false;
		r->have_head = 0;
		r->got = 0;
	}
	*used = 0;
	while (r->have_head < WATCH_HEAD) {
		if (i == n)
			return 0;
		r->head[r->have_head++] = p[i++];
		*used = i;
		if (r->have_head == WATCH_HEAD) {
			r->len = le_get32(r->head);
			r->type = r->head[4];
			if (r->len == 0 || r->len > max)
				return -EMSGSIZE;
		}
	}
	size_t want = r->len - 1 - r->got, take = n - i < want ? n - i : want;
	if (r->got + take > r->cap) {
		size_t nc = r->cap ? r->cap : 256;
		while (nc < r->got + take)
			nc *= 2;
		if (nc > r->len - 1)
			nc = r->len - 1;
		unsigned char *nb = realloc(r->body, nc);
		if (!nb)
			return -ENOMEM;
		r->body = nb;
		r->cap = nc;
	}
	if (take)
		memcpy(r->body + r->got, p + i, take);
	r->got += take;
	i += take;
	*used = i;
	if (r->got < r->len - 1)
		return 0;
	r->ready = true;
	return 1;
}

void watchwire_reader_free(struct watch_reader *r)
{
	uint32_t max = r->max;
	free(r->body);
	*r = (struct watch_reader){ .max = max };
}

struct in {
	const unsigned char *p;
	size_t n, at;
	bool short_;
};

static uint64_t i_n(struct in *s, int bytes)
{
	if (s->n - s->at < (size_t)bytes) {
		s->short_ = true;
		s->at = s->n;
		return 0;
	}
	uint64_t v = 0;
	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)s->p[s->at + (size_t)i] << (8 * i);
	s->at += (size_t)bytes;
	return v;
}

/* A string into out (room for max bytes and the NUL); false when it does
 * not fit or holds a control byte (every line shown is one printable line). */
static bool i_str(struct in *s, char *out, size_t max)
{
	size_t n = (size_t)i_n(s, 1);
	if (s->short_ || n > max || s->n - s->at < n) {
		s->short_ = s->short_ || s->n - s->at < n;
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s->p[s->at + i];
		if (c < 0x20 || c == 0x7f)
			return false;
		out[i] = (char)c;
	}
	out[n] = 0;
	s->at += n;
	return true;
}

static int bad(char *why, int len, const char *what)
{
	snprintf(why, (size_t)len, "%s", what);
	return -EINVAL;
}

int watchwire_parse_hello(const unsigned char *p, size_t n, char *who, int wholen, char *why, int len)
{
	struct in s = { .p = p, .n = n };
	unsigned v = (unsigned)i_n(&s, 2);
	if (s.short_)
		return bad(why, len, "the game's greeting is cut short");
	if (v != WATCH_VERSION) {
		snprintf(why, (size_t)len, "the game speaks watch protocol version %u, this pirogue version %d "
			 "(watch with the same pirogue as the game)", v, WATCH_VERSION);
		return -EINVAL;
	}
	char name[256];
	if (!i_str(&s, name, sizeof name - 1) || s.at != n)
		return bad(why, len, "the game's greeting names its player badly");
	snprintf(who, (size_t)wholen, "%s", name);
	return 0;
}

int watchwire_parse_command(const unsigned char *p, size_t n, struct command *c, char *why, int len)
{
	if (n != 20)
		return bad(why, len, "a command of the wrong length");
	struct in s = { .p = p, .n = n };
	int32_t v[5];
	for (int i = 0; i < 5; i++)
		v[i] = (int32_t)(uint32_t)i_n(&s, 4);
	if (v[0] < 0 || v[0] >= CMD_COUNT)
		return bad(why, len, "an unknown command");
	if (v[1] < -1 || v[1] > 25 || v[2] < -1 || v[2] >= MAP_MAX_W || v[3] < -1 || v[3] >= MAP_MAX_H ||
	    v[4] < -1 || v[4] >= LEVELUP_COUNT)
		return bad(why, len, "a command with an argument out of range");
	*c = (struct command){ .c = (enum cmd)v[0], .item = v[1], .x = v[2], .y = v[3], .choice = v[4] };
	return 0;
}

int watchwire_parse_check(const unsigned char *p, size_t n, int *ncmd, int *turn, uint64_t *sum, char *why,
			  int len)
{
	if (n != 16)
		return bad(why, len, "a checksum message of the wrong length");
	struct in s = { .p = p, .n = n };
	uint32_t c = (uint32_t)i_n(&s, 4), t = (uint32_t)i_n(&s, 4);
	if (c > INT32_MAX || t > INT32_MAX)
		return bad(why, len, "a checksum message with a count out of range");
	*ncmd = (int)c;
	*turn = (int)t;
	*sum = i_n(&s, 8);
	return 0;
}

int watchwire_parse_ring(const unsigned char *p, size_t n, uint32_t *size, uint64_t *pos, char *why, int len)
{
	if (n != 12)
		return bad(why, len, "a ring message of the wrong length");
	struct in s = { .p = p, .n = n };
	uint32_t z = (uint32_t)i_n(&s, 4);
	if (z < WATCH_RING_MIN || z > WATCH_RING_MAX)
		return bad(why, len, "a ring of a size no game makes");
	*size = z;
	*pos = i_n(&s, 8);
	return 0;
}

int watchwire_parse_ui(const unsigned char *p, size_t n, size_t *used, struct ui *u, char *why, int len)
{
	struct in s = { .p = p, .n = n };
	struct ui v = *u;
	unsigned screen = (unsigned)i_n(&s, 1), menu = (unsigned)i_n(&s, 1), cont = (unsigned)i_n(&s, 1);
	unsigned from = (unsigned)i_n(&s, 1), dev = (unsigned)i_n(&s, 1), flags = (unsigned)i_n(&s, 1);
	unsigned htop = (unsigned)i_n(&s, 2), hltop = (unsigned)i_n(&s, 2);
	int lx = (int16_t)(uint16_t)i_n(&s, 2), ly = (int16_t)(uint16_t)i_n(&s, 2);
	unsigned inv = (unsigned)i_n(&s, 1), slot = (unsigned)i_n(&s, 1), lvl = (unsigned)i_n(&s, 1);
	int rank = (int8_t)(uint8_t)i_n(&s, 1);
	if (s.short_)
		return bad(why, len, "a screen message cut short");
	if (screen >= UI_SCREEN_COUNT || from >= UI_SCREEN_COUNT || menu >= MENU_COUNT || cont > 1 ||
	    dev > DEV_SCRIPT || flags > 0x1F || htop > GAME_LOG_MAX || hltop > 1000 || lx < -1 || lx >= MAP_MAX_W ||
	    ly < -1 || ly >= MAP_MAX_H || inv > 25 || slot > 25 || lvl >= LEVELUP_COUNT || rank < -1 ||
	    rank >= UI_SCORES_MAX)
		return bad(why, len, "a screen message with a value out of range");
	if (!i_str(&s, v.notice, sizeof v.notice - 1) || !i_str(&s, v.status, sizeof v.status - 1))
		return bad(why, len, "a screen message with a bad line of text");
	unsigned ns = (unsigned)i_n(&s, 1);
	if (s.short_ || ns > UI_SCORES_MAX)
		return bad(why, len, "a screen message with a bad score table");
	for (unsigned i = 0; i < ns; i++) {
		struct ui_score *sc = &v.scores[i];
		int64_t score = (int64_t)i_n(&s, 8);
		unsigned depth = (unsigned)i_n(&s, 2);
		uint32_t turns = (uint32_t)i_n(&s, 4);
		unsigned level = (unsigned)i_n(&s, 2);
		if (s.short_ || score < 0 || score > 1000000000000LL || turns > INT32_MAX ||
		    !i_str(&s, sc->cause, sizeof sc->cause - 1))
			return bad(why, len, "a screen message with a bad score table");
		sc->score = (long)score;
		sc->depth = (int)depth;
		sc->turns = (int)turns;
		sc->level = (int)level;
	}
	v.screen = (enum ui_screen)screen;
	v.menu_sel = (int)menu;
	v.can_continue = cont;
	v.help_from = (enum ui_screen)from;
	v.last_dev = (enum dev_kind)dev;
	v.kiosk = flags & 1;
	v.demo = flags >> 1 & 1;
	v.confirm_quit = flags >> 2 & 1;
	v.confirm_new = flags >> 3 & 1;
	v.scores_after_death = flags >> 4 & 1;
	v.history_top = (int)htop;
	v.help_top = (int)hltop;
	v.look_x = lx;
	v.look_y = ly;
	v.inv_sel = (int)inv;
	v.target_slot = (int)slot;
	v.levelup_sel = (int)lvl;
	v.score_rank = rank;
	v.nscores = (int)ns;
	*u = v;
	*used = s.at;
	return 0;
}

/* Whether screen s draws from a game (the title, help and scores do not). */
static bool needs_game(enum ui_screen s)
{
	return s != UI_TITLE && s != UI_HELP && s != UI_SCORES;
}

int watchwire_parse_snapshot(const unsigned char *p, size_t n, struct ui *u, struct game **g, int *ncmd,
			     int *turn, uint64_t *sum, char *why, int len)
{
	struct ui v = *u;
	size_t at;
	*g = NULL;
	int rc = watchwire_parse_ui(p, n, &at, &v, why, len);
	if (rc)
		return rc;
	struct in s = { .p = p, .n = n, .at = at };
	unsigned has = (unsigned)i_n(&s, 1);
	if (s.short_ || has > 1)
		return bad(why, len, "a snapshot cut short");
	if (!has) {
		if (s.at != n)
			return bad(why, len, "a snapshot without a game holds bytes after its screen");
		if (needs_game(v.screen) || (v.screen == UI_HELP && needs_game(v.help_from)))
			return bad(why, len, "a snapshot shows a game screen without a game");
		*u = v;
		*ncmd = *turn = 0;
		*sum = 0;
		return 0;
	}
	uint32_t c = (uint32_t)i_n(&s, 4), t = (uint32_t)i_n(&s, 4);
	uint64_t k = i_n(&s, 8);
	if (s.short_ || c > INT32_MAX || t > INT32_MAX)
		return bad(why, len, "a snapshot cut short");
	char gwhy[200] = "";
	struct game *ng = NULL;
	rc = game_decode(&ng, p + s.at, n - s.at, gwhy, sizeof gwhy);
	if (rc) {
		if (rc == -EINVAL)
			snprintf(why, (size_t)len, "a snapshot whose game is refused: %s", gwhy);
		else
			snprintf(why, (size_t)len, "a snapshot whose game cannot be loaded: %s", strerror(-rc));
		return rc;
	}
	const struct map *m = game_map(ng);
	bool cursor = v.screen == UI_LOOK || v.screen == UI_TARGET;
	if (cursor && (v.look_x < 0 || v.look_y < 0 || v.look_x >= m->w || v.look_y >= m->h)) {
		game_destroy(ng);
		return bad(why, len, "a snapshot whose cursor lies off the map");
	}
	*u = v;
	*g = ng;
	*ncmd = (int)c;
	*turn = (int)t;
	*sum = k;
	return 0;
}
