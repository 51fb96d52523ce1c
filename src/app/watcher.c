/* The watcher: the stream read in pieces, each message checked before it
 * touches the copy of the game; the copy played with the same game_do as
 * the game, so its checksum is the game's. */
#include "app/watcher.h"
#include "core/le.h"
#include "core/log.h"
#include "game/history.h"
#include "game/serial.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define LINE_FG 0x101018u
#define LINE_BG 0xE8D8A8u
#define WARN_BG 0xFF9060u

int watcher_path(const char *opt, char *buf, size_t len, char *why, int wlen)
{
	if (opt && opt[0]) {
		snprintf(buf, len, "%s", opt);
		return 0;
	}
	char mine[4096] = "";
	const char *x = getenv("XDG_RUNTIME_DIR");
	if (x && x[0])
		snprintf(mine, sizeof mine, "%s/pirogue/watch.sock", x);
	static const char kiosk[] = "/run/pirogue/watch.sock";
	struct stat st;
	if (mine[0] && stat(mine, &st) == 0) {
		snprintf(buf, len, "%s", mine);
		return 0;
	}
	if (stat(kiosk, &st) == 0 || errno == EACCES) {
		snprintf(buf, len, "%s", kiosk);
		return 0;
	}
	if (mine[0])
		snprintf(why, (size_t)wlen, "no game to watch: no pirogue publishes at %s or %s (start one, or give "
			 "--watch SOCKET)", mine, kiosk);
	else
		snprintf(why, (size_t)wlen, "no game to watch: no pirogue publishes at %s (start one, or give --watch "
			 "SOCKET)", kiosk);
	return -ENOENT;
}

int watcher_connect(struct watcher *w, const char *path, char *why, int wlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	w->fd = -1;
	if (strlen(path) >= sizeof sa.sun_path) {
		snprintf(why, (size_t)wlen, "cannot watch %.200s...: the path is too long for a Unix socket", path);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		int e = errno;
		snprintf(why, (size_t)wlen, "cannot watch %s: no socket: %s", path, strerror(e));
		return -e;
	}
	if (connect(fd, (const struct sockaddr *)&sa, sizeof sa) < 0) {
		int e = errno;
		close(fd);
		if (e == EACCES || e == EPERM)
			snprintf(why, (size_t)wlen, "cannot watch %s: permission denied: add yourself to the pirogue group "
				 "(sudo adduser $USER pirogue, then log in again)", path);
		else if (e == ENOENT || e == ECONNREFUSED)
			snprintf(why, (size_t)wlen, "no game to watch: no pirogue publishes at %s (%s)", path,
				 e == ENOENT ? "no such socket" : "the game that made it has ended");
		else if (e == ENOTSOCK)
			snprintf(why, (size_t)wlen, "cannot watch %s: it is not a socket", path);
		else
			snprintf(why, (size_t)wlen, "cannot watch %s: %s", path, strerror(e));
		return -e;
	}
	w->fd = fd; /* the game closes it when it ends; reads never wait (MSG_DONTWAIT) */
	return 0;
}

/* Asks the game for a fresh snapshot (an untaken request is harmless: the
 * game sends one snapshot for any number of them). */
static void ask_snapshot(struct watcher *w)
{
	if (w->fd >= 0)
		(void)!send(w->fd, watch_resync_msg, sizeof watch_resync_msg, MSG_NOSIGNAL | MSG_DONTWAIT);
}

static void replace_game(struct watcher *w, struct game *g)
{
	game_destroy(w->game);
	w->game = g;
	w->fresh = true;
}

/* Whether the screen u can be drawn over the copy g (a game screen needs a
 * game, the look cursor its floor). */
static bool screen_fits(const struct ui *u, const struct game *g)
{
	enum ui_screen s = u->screen == UI_HELP ? u->help_from : u->screen;
	if (s != UI_TITLE && s != UI_HELP && s != UI_SCORES && !g)
		return false;
	if ((u->screen == UI_LOOK || u->screen == UI_TARGET) && g) {
		const struct map *m = game_map(g);
		if (u->look_x < 0 || u->look_y < 0 || u->look_x >= m->w || u->look_y >= m->h)
			return false;
	}
	return true;
}

static int proto(char *why, int wlen, const char *what, const char *detail)
{
	snprintf(why, (size_t)wlen, "the game sent %s%s%s (stopped watching)", what, detail[0] ? ": " : "", detail);
	return -EPROTO;
}

/* The ring of size bytes mapped read-only from the memfd the game passed
 * (checked: its size and header), its wake-ups on an epoll; a second
 * WATCH_RING only says where to go on. Returns 0, -EPROTO with why. */
static int ring_map(struct watcher *w, uint32_t size, char *why, int wlen)
{
	if (w->ring)
		return size == w->ring_size ? 0 : proto(why, wlen, "a ring of another size", "");
	if (!w->has_fds)
		return proto(why, wlen, "a ring without its memory", "");
	struct stat st;
	size_t len = WATCH_RING_HEAD + (size_t)size;
	if (fstat(w->ring_fd, &st) < 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size < len)
		return proto(why, wlen, "a ring smaller than it says", "");
	void *m = mmap(NULL, len, PROT_READ, MAP_SHARED, w->ring_fd, 0);
	if (m == MAP_FAILED) {
		snprintf(why, (size_t)wlen, "cannot map the game's ring: %s", strerror(errno));
		return -EPROTO;
	}
	const unsigned char *r = m;
	if (le_get32(r) != WATCH_RING_MAGIC || le_get32(r + 4) != WATCH_VERSION || le_get32(r + 8) != size) {
		munmap(m, len);
		return proto(why, wlen, "a ring that is not one", "");
	}
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET };
	unsigned char *copy = malloc(size);
	if (ep < 0 || !copy || epoll_ctl(ep, EPOLL_CTL_ADD, w->wake_fd, &ev) < 0) {
		int e = errno;
		if (ep >= 0)
			close(ep);
		free(copy);
		munmap(m, len);
		snprintf(why, (size_t)wlen, "cannot follow the game's ring: %s", strerror(e));
		return -EPROTO;
	}
	w->ring = r;
	w->ring_size = size;
	w->ring_copy = copy;
	w->ep = ep;
	return 0;
}

/* One whole message. */
static int take(struct watcher *w, uint8_t type, const unsigned char *p, size_t n, char *why, int wlen)
{
	char d[240] = "";
	if (!w->hello && type != WATCH_HELLO)
		return proto(why, wlen, "no greeting first", "");
	switch (type) {
	case WATCH_HELLO:
		if (w->hello)
			return proto(why, wlen, "a second greeting", "");
		if (watchwire_parse_hello(p, n, w->who, sizeof w->who, d, sizeof d)) {
			snprintf(why, (size_t)wlen, "cannot watch: %s", d);
			return -EPROTO;
		}
		w->hello = true;
		return 0;
	case WATCH_SNAPSHOT: {
		struct ui u = w->ui;
		struct game *g;
		int ncmd, turn;
		uint64_t sum;
		int rc = watchwire_parse_snapshot(p, n, &u, &g, &ncmd, &turn, &sum, d, sizeof d);
		if (rc == -ENOMEM)
			return rc;
		if (rc)
			return proto(why, wlen, "a bad snapshot", d);
		if (g && (game_digest(g) != sum || hist_count(game_history(g)) != ncmd || game_turn(g) != turn)) {
			game_destroy(g);
			return proto(why, wlen, "a snapshot that does not match its own checksum", "");
		}
		replace_game(w, g);
		w->following = false; /* until its WATCH_RING: what follows it */
		u.hover_x = u.hover_y = -1;
		u.binds = w->binds;
		w->ui = u;
		w->ncmd = ncmd;
		w->synced = true;
		if (w->mismatches) {
			char *at = strstr(w->line, "asked for a new snapshot");
			if (at)
				snprintf(at, sizeof w->line - (size_t)(at - w->line), "took a new snapshot");
		}
		if (g)
			w->last_sum = sum, w->last_turn = turn, w->last_ncmd = ncmd;
		return 0;
	}
	case WATCH_SCREEN: {
		struct ui u = w->ui;
		size_t used;
		if (watchwire_parse_ui(p, n, &used, &u, d, sizeof d))
			return proto(why, wlen, "a bad screen", d);
		if (used != n)
			return proto(why, wlen, "a bad screen", "bytes after its end");
		if (!w->synced)
			return 0; /* of a game we no longer follow: the snapshot brings the screen */
		if (!screen_fits(&u, w->game))
			return proto(why, wlen, "a screen that does not fit its game", "");
		if (u.screen != w->ui.screen)
			w->fresh = true;
		w->ui = u;
		return 0;
	}
	case WATCH_COMMAND: {
		struct command c;
		if (watchwire_parse_command(p, n, &c, d, sizeof d))
			return proto(why, wlen, "a bad command", d);
		if (!w->synced || !w->game)
			return 0; /* waiting for a snapshot */
		game_do(w->game, &c);
		w->ncmd = hist_count(game_history(w->game));
		return 0;
	}
	case WATCH_CHECK: {
		int ncmd, turn;
		uint64_t sum;
		if (watchwire_parse_check(p, n, &ncmd, &turn, &sum, d, sizeof d))
			return proto(why, wlen, "a bad checksum message", d);
		if (!w->synced || !w->game)
			return 0;
		w->checks++;
		/* the digest (a word at a time), not the recordings' checksum
		 * (byte by byte): the same state compared at a fraction of
		 * the cost, on the game's side too */
		uint64_t mine = game_digest(w->game);
		if (mine == sum && w->ncmd == ncmd) {
			w->last_sum = sum;
			w->last_ncmd = ncmd;
			w->last_turn = turn;
			log_info("watching %s: turn %d checked, the same as the game's", w->who, turn); /* (--verbose) */
			return 0;
		}
		w->mismatches++;
		snprintf(w->line, sizeof w->line, "checksum mismatch at turn %d (game %016llx, here %016llx): "
			 "asked for a new snapshot", turn, (unsigned long long)sum, (unsigned long long)mine);
		log_error("watching %s: %s", w->who, w->line);
		w->synced = false;
		ask_snapshot(w);
		return 0;
	}
	case WATCH_RING: {
		uint32_t size;
		uint64_t pos;
		if (watchwire_parse_ring(p, n, &size, &pos, d, sizeof d))
			return proto(why, wlen, "a bad ring message", d);
		int rc = ring_map(w, size, why, wlen);
		if (rc)
			return rc;
		w->pos = pos;
		w->following = true;
		watchwire_reader_free(&w->rrd); /* a message begins there */
		return 0;
	}
	case WATCH_RESET:
		/* another game: nothing more is played until its snapshot */
		w->following = false;
		w->synced = false;
		return 0;
	default:
		snprintf(d, sizeof d, "type %u", type);
		return proto(why, wlen, "a message of an unknown kind", d);
	}
}

int watcher_feed(struct watcher *w, const void *data, size_t n, char *why, int wlen)
{
	const unsigned char *p = data;
	while (n) {
		size_t used;
		int rc = watchwire_read(&w->rd, p, n, &used);
		p += used;
		n -= used;
		if (rc == -EMSGSIZE)
			return proto(why, wlen, "a message of a length no game sends", "");
		if (rc == -ENOMEM) {
			snprintf(why, (size_t)wlen, "out of memory reading the game's stream");
			return rc;
		}
		if (rc == 1 && (rc = take(w, w->rd.type, w->rd.body, w->rd.got, why, wlen)))
			return rc;
	}
	return 0;
}

/* fds that came with the stream: the first two (the ring's memfd and
 * eventfd, with the first WATCH_RING) kept, any others closed. */
static void take_fds(struct watcher *w, struct msghdr *mh)
{
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		size_t k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		int fds[8];
		if (k > 8)
			k = 8;
		memcpy(fds, CMSG_DATA(cm), k * sizeof(int));
		size_t i = 0;
		if (!w->has_fds && k >= 2) {
			w->ring_fd = fds[0];
			w->wake_fd = fds[1];
			w->has_fds = true;
			i = 2;
		}
		for (; i < k; i++)
			close(fds[i]);
	}
}

/* The watcher fell behind the ring (or what it copied was written over):
 * a new snapshot asked for, nothing played until it comes. */
static void behind(struct watcher *w)
{
	w->following = false;
	w->synced = false;
	ask_snapshot(w);
}

/* What the ring holds past w->pos, copied, then checked not to have been
 * written over meanwhile, then fed; returns as watcher_feed. */
static int ring_read(struct watcher *w, char *why, int wlen)
{
	if (!w->ring || !w->following)
		return 0;
	uint64_t h = __atomic_load_n((const uint64_t *)(const void *)(w->ring + WATCH_RING_AT_HEAD), __ATOMIC_ACQUIRE);
	uint64_t n = h - w->pos;
	if (!n)
		return 0;
	if (n > w->ring_size) {
		behind(w);
		return 0;
	}
	size_t at = (size_t)(w->pos % w->ring_size), first = n < w->ring_size - at ? (size_t)n : w->ring_size - at;
	memcpy(w->ring_copy, w->ring + WATCH_RING_HEAD + at, first);
	if (first < n)
		memcpy(w->ring_copy + first, w->ring + WATCH_RING_HEAD, (size_t)n - first);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	uint64_t limit = __atomic_load_n((const uint64_t *)(const void *)(w->ring + WATCH_RING_AT_LIMIT), __ATOMIC_RELAXED);
	if (limit - w->pos > w->ring_size) {
		behind(w); /* the game wrote over what was copied */
		return 0;
	}
	w->pos = h;
	const unsigned char *p = w->ring_copy;
	while (n && w->following) {
		size_t used;
		int rc = watchwire_read(&w->rrd, p, (size_t)n, &used);
		p += used;
		n -= used;
		if (rc == -EMSGSIZE)
			return proto(why, wlen, "a message of a length no game sends", "");
		if (rc == -ENOMEM) {
			snprintf(why, (size_t)wlen, "out of memory reading the game's stream");
			return rc;
		}
		if (rc == 1) {
			if (w->rrd.type == WATCH_HELLO || w->rrd.type == WATCH_SNAPSHOT || w->rrd.type == WATCH_RING)
				return proto(why, wlen, "in its ring what only its socket sends", "");
			if ((rc = take(w, w->rrd.type, w->rrd.body, w->rrd.got, why, wlen)))
				return rc;
		}
	}
	if (!w->following)
		watchwire_reader_free(&w->rrd); /* the rest is not read */
	return 0;
}

int watcher_read(struct watcher *w, char *why, int wlen)
{
	if (w->ring) {
		/* the wake-ups taken (edge-triggered: one a write) */
		struct epoll_event ev[4];
		while (epoll_wait(w->ep, ev, 4, 0) == 4)
			;
	}
	for (int round = 0; round < 64; round++) {
		unsigned char buf[16384];
		union {
			struct cmsghdr h;
			unsigned char b[CMSG_SPACE(8 * sizeof(int))];
		} u;
		struct iovec iov = { .iov_base = buf, .iov_len = sizeof buf };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.b, .msg_controllen = sizeof u.b };
		ssize_t k = recvmsg(w->fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (k < 0) {
			int e = errno;
			snprintf(why, (size_t)wlen, "the game's stream failed: %s", strerror(e));
			return -e;
		}
		take_fds(w, &mh);
		if (k == 0) {
			/* the game ended: what it wrote into the ring before is
			 * played first */
			int rc = ring_read(w, why, wlen);
			return rc ? rc : 1;
		}
		int rc = watcher_feed(w, buf, (size_t)k, why, wlen);
		if (rc)
			return rc;
	}
	return ring_read(w, why, wlen);
}

int watcher_poll_fd(const struct watcher *w)
{
	return w->ring ? w->ep : -1;
}

int watcher_draw(struct watcher *w, struct ui_drawn *d, struct console *shown, struct console *scratch)
{
	int rows = shown->h;
	int rc;
	if (!w->inner) {
		if ((rc = con_create(&w->inner, shown->w, rows)))
			return rc;
		w->fresh = true;
	} else if (w->inner->w != shown->w || w->inner->h != rows) {
		if ((rc = con_resize(w->inner, shown->w, rows)))
			return rc;
		w->fresh = true;
	}
	if (w->fresh)
		ui_drawn_forget(d);
	w->fresh = false;
	if (w->synced || w->game) {
		ui_draw_frame(d, &w->ui, w->game, w->inner, scratch);
	} else {
		con_clear(w->inner, 0); /* before the first snapshot */
		ui_drawn_forget(d);
	}
	/* the game's screen, but for its key hints (the game's keys, not ours):
	 * only what changed in it since the last frame, unless shown was
	 * changed by another since this copied into it (or is another) */
	bool all = shown != w->shown || shown->changes != w->shown_changes;
	const struct console *in = w->inner;
	int y1 = all ? shown->h - 2 : in->damage_y1 < shown->h - 2 ? in->damage_y1 : shown->h - 2;
	for (int y = all ? 0 : in->damage_y0; y <= y1; y++) {
		struct con_span sp = all ? (struct con_span){ 0, (uint16_t)(shown->w - 1) } : in->row_damage[y];
		for (int x = sp.lo; x <= sp.hi && x < shown->w; x++)
			if (all || in->damage[y * in->w + x])
				con_cell_set(shown, x, y, in->cells[y * in->w + x]);
	}
	con_clear_damage(w->inner);
	/* where the hints were: whom it watches */
	char top[512];
	const char *q = w->no_keys ? "" : " - q leaves";
	if (!w->synced && !w->game && !w->line[0])
		snprintf(top, sizeof top, " Watching %s - waiting for its game%s", w->who[0] ? w->who : "...", q);
	else if (w->line[0])
		snprintf(top, sizeof top, " Watching %s - %s%s", w->who, w->line, q);
	else
		snprintf(top, sizeof top, " Watching %s%s", w->who, q);
	uint32_t bg = w->line[0] ? WARN_BG : LINE_BG;
	if (all || bg != w->shown_top_bg || strcmp(top, w->shown_top)) {
		/* (else the row holds it still: nothing above writes there) */
		int y = shown->h - 1;
		int k = con_print(shown, 0, y, LINE_FG, bg, top, shown->w);
		con_fill(shown, k, y, shown->w - k, 1, ' ', LINE_FG, bg);
		snprintf(w->shown_top, sizeof w->shown_top, "%s", top);
		w->shown_top_bg = bg;
	}
	w->shown = shown;
	w->shown_changes = shown->changes;
	return 0;
}

int watcher_checksum(const struct watcher *w, uint64_t *sum)
{
	if (!w->game || !w->checks || w->mismatches >= w->checks || hist_count(game_history(w->game)) != w->last_ncmd ||
	    game_digest(w->game) != w->last_sum)
		return -ENOENT;
	*sum = game_checksum(w->game);
	return 0;
}

void watcher_close(struct watcher *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	if (w->ring) {
		munmap((void *)w->ring, WATCH_RING_HEAD + (size_t)w->ring_size);
		close(w->ep);
	}
	if (w->has_fds) {
		close(w->ring_fd);
		close(w->wake_fd);
	}
	w->ring = NULL;
	w->has_fds = w->following = false;
	free(w->ring_copy);
	w->ring_copy = NULL;
	watchwire_reader_free(&w->rrd);
	game_destroy(w->game);
	w->game = NULL;
	watchwire_reader_free(&w->rd);
	con_destroy(w->inner);
	w->inner = NULL;
	w->shown = NULL;
}
