/* The publisher: one listening socket, up to WATCH_MAX watchers, each with
 * a fixed queue. Every socket is non-blocking and served from the game's own
 * poll() loop; a message is built once and copied into each queue; a
 * snapshot is built once per state of the game and shared. */
#include "app/watch.h"
#include "app/watchwire.h"
#include "core/le.h"
#include "core/log.h"
#include "game/history.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* A snapshot, shared by the watchers sending it. */
struct snap {
	int refs;
	size_t len;
	unsigned char data[];
};

struct conn {
	int fd;
	size_t hello_off;    /* of p->hello sent */
	struct snap *snap;   /* being sent (whole, before q), or NULL */
	size_t snap_off;
	bool need_snap;      /* gets one once all it has been sent is through */
	bool in_snap_behind; /* fell behind while its snapshot was being sent */
	bool wait_out;       /* the socket was full: POLLOUT */
	unsigned char in[WATCH_RESYNC_LEN]; /* what it sent, one message at most */
	size_t in_n;
	size_t q_off, q_len, q_bound; /* q[q_off .. q_off + q_len) unsent; q_bound: start of the first message not all sent */
	unsigned char q[WATCH_QUEUE];
};

struct watch_pub {
	int lfd; /* the socket, -1: none */
	char path[sizeof ((struct sockaddr_un *)0)->sun_path];
	struct conn *c[WATCH_MAX];
	int n;
	struct serial_buf hello;  /* the greeting, the same for all */
	struct serial_buf msg;    /* one message being built */
	struct serial_buf screen; /* the screen as last sent */
	bool screen_valid;
	struct snap *snap; /* the last snapshot made, NULL: none (or dropped) */
	struct serial_buf since; /* every message broadcast since snap was made (WATCH_SINCE at most) */
	int since_check;   /* commands played since the last checksum */
	struct watch_pub_stats st;
};

int watch_pub_path(char *buf, size_t len)
{
	const char *rt = getenv("RUNTIME_DIRECTORY"), *x = getenv("XDG_RUNTIME_DIR");
	int n;
	if (rt && rt[0]) {
		/* systemd may give several, separated by ':': the first */
		size_t k = strcspn(rt, ":");
		n = snprintf(buf, len, "%.*s/watch.sock", (int)k, rt);
	} else if (x && x[0]) {
		n = snprintf(buf, len, "%s/pirogue/watch.sock", x);
	} else {
		return -ENOENT;
	}
	if (n < 0 || (size_t)n >= len || (size_t)n >= sizeof ((struct sockaddr_un *)0)->sun_path)
		return -ENAMETOOLONG;
	return 0;
}

static void snap_put(struct snap *s)
{
	if (s && --s->refs == 0)
		free(s);
}

static void conn_close(struct watch_pub *p, int i)
{
	struct conn *c = p->c[i];
	close(c->fd);
	snap_put(c->snap);
	free(c);
	p->c[i] = p->c[--p->n];
	p->st.watchers = p->n;
}

static int pub_alloc(struct watch_pub **out, const char *who)
{
	struct watch_pub *p = calloc(1, sizeof *p);
	if (!p)
		return -ENOMEM;
	p->lfd = -1;
	if (watchwire_hello(&p->hello, who)) {
		free(p->hello.data);
		free(p);
		return -ENOMEM;
	}
	*out = p;
	return 0;
}

int watch_pub_new(struct watch_pub **out, const char *who)
{
	return pub_alloc(out, who);
}

/* Whether a game listens at path (connecting to it succeeds). */
static bool someone_listens(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	bool yes = connect(fd, (const struct sockaddr *)sa, sizeof *sa) == 0;
	close(fd);
	return yes;
}

/* The directory holding path, made when missing. */
static int make_dir_of(const char *path)
{
	char dir[sizeof ((struct sockaddr_un *)0)->sun_path];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = 0;
	if (mkdir(dir, 0755) == 0 || errno == EEXIST)
		return 0;
	return -errno;
}

int watch_pub_open(struct watch_pub **out, const char *path, const char *who)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof sa.sun_path) {
		log_error("watch socket %s: the path is too long for a Unix socket (%zu bytes at most)", path,
			  sizeof sa.sun_path - 1);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	int rc = make_dir_of(path);
	if (rc) {
		log_error("watch socket %s: cannot make its directory: %s (the game is not watchable)", path,
			  strerror(-rc));
		return rc;
	}
	struct stat st;
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			log_error("watch socket %s: something else is there (not a socket): remove it to watch this game",
				  path);
			return -EEXIST;
		}
		if (someone_listens(&sa)) {
			log_error("watch socket %s: another pirogue publishes its game there; this one is not watchable",
				  path);
			return -EADDRINUSE;
		}
		unlink(path); /* left by a game that ended without removing it */
	}
	struct watch_pub *p;
	if ((rc = pub_alloc(&p, who)))
		return rc;
	p->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (p->lfd < 0) {
		rc = -errno;
		log_error("watch socket %s: cannot make a socket: %s", path, strerror(errno));
		goto fail;
	}
	/* 0660 from the start: nobody outside the group connects meanwhile */
	mode_t old = umask(0117);
	int b = bind(p->lfd, (const struct sockaddr *)&sa, sizeof sa);
	int e = errno;
	umask(old);
	if (b < 0) {
		rc = -e;
		log_error("watch socket %s: cannot bind it: %s", path, strerror(e));
		goto fail;
	}
	snprintf(p->path, sizeof p->path, "%s", path);
	if (chmod(path, 0660) < 0)
		log_error("watch socket %s: cannot make it mode 0660: %s", path, strerror(errno));
	struct group *gr = getgrnam(WATCH_GROUP);
	struct stat made;
	if (!gr)
		log_info("watch socket %s: no group %s here: only this user can watch", path, WATCH_GROUP);
	else if (stat(path, &made) == 0 && made.st_gid == gr->gr_gid)
		; /* the game's own group already (the kiosk unit's user pirogue): no chown, which the unit's
		   * SystemCallFilter=~@privileged (@chown) answers with SIGSYS */
	else if (chown(path, (uid_t)-1, gr->gr_gid) < 0)
		log_error("watch socket %s: cannot give it to group %s (%s): only this user can watch (make the game's "
			  "user a member of %s)", path, WATCH_GROUP, strerror(errno), WATCH_GROUP);
	if (listen(p->lfd, 16) < 0) {
		rc = -errno;
		log_error("watch socket %s: cannot listen on it: %s", path, strerror(errno));
		goto fail;
	}
	log_info("watchable: pirogue --watch %s", path);
	*out = p;
	return 0;
fail:
	watch_pub_close(p);
	return rc;
}

int watch_pub_adopt(struct watch_pub *p, int fd)
{
	if (p->n == WATCH_MAX) {
		close(fd);
		return -EMFILE;
	}
	struct conn *c = calloc(1, sizeof *c);
	if (!c) {
		close(fd);
		return -ENOMEM;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	c->fd = fd;
	c->need_snap = true;
	p->c[p->n++] = c;
	p->st.watchers = p->n;
	return 0;
}

void watch_pub_close(struct watch_pub *p)
{
	if (!p)
		return;
	while (p->n)
		conn_close(p, p->n - 1);
	if (p->lfd >= 0) {
		close(p->lfd);
		if (p->path[0])
			unlink(p->path);
	}
	snap_put(p->snap);
	free(p->since.data);
	free(p->hello.data);
	free(p->msg.data);
	free(p->screen.data);
	free(p);
}

/* ------------------------------------------------------------------ */
/* queues */

/* c fell behind (or asked for a snapshot): what it has begun is finished
 * (the greeting, a snapshot, the message under way), the rest forgotten,
 * and a fresh snapshot follows. */
static void fall_behind(struct conn *c)
{
	if (c->q_len && c->q_bound < c->q_off) {
		size_t end = c->q_bound + 4 + le_get32(c->q + c->q_bound);
		c->q_len = end - c->q_off;
	} else {
		c->q_len = 0;
		c->q_off = c->q_bound = 0;
	}
	c->need_snap = true;
}

/* Queues the message in m for c, unless c waits for a snapshot. */
static void enqueue(struct watch_pub *p, int i, const struct serial_buf *m)
{
	struct conn *c = p->c[i];
	if (c->need_snap)
		return;
	if (c->q_len + m->len > WATCH_QUEUE) {
		p->st.behind++;
		if (c->snap) {
			/* not even its snapshot has gone through: a second time,
			 * it goes */
			if (c->in_snap_behind) {
				log_info("a watcher fell behind twice during its snapshot: dropped");
				p->st.dropped++;
				conn_close(p, i);
				return;
			}
			c->in_snap_behind = true;
		}
		fall_behind(c);
		return;
	}
	if (c->q_off + c->q_len + m->len > WATCH_QUEUE) {
		memmove(c->q, c->q + c->q_bound, c->q_off + c->q_len - c->q_bound);
		c->q_off -= c->q_bound;
		c->q_bound = 0;
	}
	if (m->len)
		memcpy(c->q + c->q_off + c->q_len, m->data, m->len);
	c->q_len += m->len;
}

/* The snapshot and the messages since it forgotten: the next watcher
 * that needs one gets one made then. */
static void snap_drop(struct watch_pub *p)
{
	snap_put(p->snap);
	p->snap = NULL;
	p->since.len = 0;
}

/* Queues m for every watcher following the game (the last first: one may
 * be dropped), and after the snapshot's messages while they fit. */
static void broadcast(struct watch_pub *p, const struct serial_buf *m)
{
	for (int i = p->n - 1; i >= 0; i--)
		enqueue(p, i, m);
	if (p->snap && (p->since.len + m->len > WATCH_SINCE || serial_buf_append(&p->since, m->data, m->len)))
		snap_drop(p);
}

/* Sends what c has as far as its socket takes it. Returns 0, or -1 when it
 * failed or left (then closed by the caller). */
static int send_some(struct watch_pub *p, struct conn *c)
{
	for (;;) {
		const unsigned char *d;
		size_t n;
		if (c->hello_off < p->hello.len) {
			d = p->hello.data + c->hello_off;
			n = p->hello.len - c->hello_off;
		} else if (c->snap) {
			d = c->snap->data + c->snap_off;
			n = c->snap->len - c->snap_off;
		} else if (c->q_len) {
			d = c->q + c->q_off;
			n = c->q_len;
		} else {
			c->wait_out = false;
			return 0;
		}
		ssize_t k = send(c->fd, d, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				c->wait_out = true;
				return 0;
			}
			return -1;
		}
		size_t s = (size_t)k;
		if (c->hello_off < p->hello.len) {
			c->hello_off += s;
		} else if (c->snap) {
			c->snap_off += s;
			if (c->snap_off == c->snap->len) {
				snap_put(c->snap);
				c->snap = NULL;
				c->in_snap_behind = false;
			}
		} else {
			c->q_off += s;
			c->q_len -= s;
			while (c->q_bound < c->q_off && c->q_bound + 4 + le_get32(c->q + c->q_bound) <= c->q_off)
				c->q_bound += 4 + le_get32(c->q + c->q_bound);
			if (!c->q_len)
				c->q_off = c->q_bound = 0;
		}
	}
}

/* The last snapshot made while the messages since it fit WATCH_SINCE
 * (p->since), else one of (u, g) as they are now (none since). */
static struct snap *current_snap(struct watch_pub *p, const struct ui *u, const struct game *g)
{
	if (p->snap)
		return p->snap;
	p->since.len = 0;
	p->msg.len = 0;
	int rc = watchwire_snapshot(&p->msg, u, g);
	if (rc) {
		log_error("cannot make a snapshot for the watchers: %s", strerror(-rc));
		return NULL;
	}
	struct snap *s = malloc(sizeof *s + p->msg.len);
	if (!s)
		return NULL;
	s->refs = 1;
	s->len = p->msg.len;
	if (p->msg.len)
		memcpy(s->data, p->msg.data, p->msg.len);
	p->snap = s;
	p->st.snapshot_bytes = s->len;
	p->st.snapshots_made++;
	return s;
}

void watch_pub_command(struct watch_pub *p, const struct command *cmd)
{
	if (!p)
		return;
	if (!p->n) {
		snap_drop(p);
		return;
	}
	p->msg.len = 0;
	if (watchwire_command(&p->msg, cmd)) {
		/* out of memory: nobody can follow without it */
		snap_drop(p);
		for (int i = 0; i < p->n; i++)
			fall_behind(p->c[i]);
		return;
	}
	broadcast(p, &p->msg);
	p->since_check++;
}

void watch_pub_replaced(struct watch_pub *p)
{
	if (!p)
		return;
	snap_drop(p);
	p->since_check = 0;
	for (int i = 0; i < p->n; i++)
		fall_behind(p->c[i]);
}

static void send_all(struct watch_pub *p, const struct ui *u, const struct game *g, bool all);

void watch_pub_flush(struct watch_pub *p, const struct ui *u, const struct game *g)
{
	if (!p)
		return;
	if (!p->n) {
		p->since_check = 0;
		p->screen_valid = false;
		snap_drop(p);
		return;
	}
	/* the screen, when it changed */
	p->msg.len = 0;
	if (watchwire_screen(&p->msg, u) == 0 &&
	    (!p->screen_valid || p->msg.len != p->screen.len || memcmp(p->msg.data, p->screen.data, p->msg.len))) {
		p->screen.len = 0;
		p->screen_valid = serial_buf_append(&p->screen, p->msg.data, p->msg.len) == 0;
		broadcast(p, &p->msg);
	}
	/* commands whose checksum is due go out with it, as soon as the loop
	 * is idle (watch_pub_check): one send per watcher a key, not two;
	 * while the loop is never idle, every WATCH_DEFER commands (a new
	 * snapshot goes at once) */
	send_all(p, u, g, !(p->since_check > 0 && p->since_check < WATCH_DEFER));
}

bool watch_pub_check_due(const struct watch_pub *p)
{
	return p && p->n && p->since_check;
}

void watch_pub_check(struct watch_pub *p, const struct game *g)
{
	if (!watch_pub_check_due(p))
		return;
	p->since_check = 0;
	if (!g)
		return;
	p->msg.len = 0;
	p->st.checks++;
	if (watchwire_check(&p->msg, hist_count(game_history(g)), game_turn(g), game_digest(g)) == 0)
		broadcast(p, &p->msg);
	send_all(p, NULL, g, true);
}

/* Snapshots to those that need one and have taken all they had (u NULL:
 * none now), each followed by the messages since it; then as much of
 * every queue as each socket takes (one whose socket was full waits for
 * POLLOUT: watch_pub_dispatch), or with all false only of those just
 * given a snapshot. */
static void send_all(struct watch_pub *p, const struct ui *u, const struct game *g, bool all)
{
	size_t q = 0;
	for (int i = p->n - 1; i >= 0; i--) {
		struct conn *c = p->c[i];
		if (c->wait_out) {
			q += c->q_len;
			continue;
		}
		/* all it had is through: a snapshot, and what followed it */
		bool given = false;
		if (u && c->need_snap && !c->snap && !c->q_len) {
			struct snap *s = current_snap(p, u, g);
			if (s) {
				s->refs++;
				c->snap = s;
				c->snap_off = 0;
				c->need_snap = false;
				if (p->since.len) /* none yet: its data may be NULL */
					memcpy(c->q, p->since.data, p->since.len);
				c->q_off = c->q_bound = 0;
				c->q_len = p->since.len;
				p->st.snapshots++;
				given = true;
			}
		}
		if ((all || given) && send_some(p, c)) {
			conn_close(p, i);
			continue;
		}
		q += c->q_len;
	}
	p->st.queued = q;
}

int watch_pub_poll_fds(const struct watch_pub *p, struct pollfd *pfd, int max)
{
	if (!p)
		return 0;
	int k = 0;
	if (p->lfd >= 0 && k < max)
		pfd[k++] = (struct pollfd){ .fd = p->lfd, .events = POLLIN };
	for (int i = 0; i < p->n && k < max; i++)
		pfd[k++] = (struct pollfd){ .fd = p->c[i]->fd,
					    .events = (short)(POLLIN | (p->c[i]->wait_out ? POLLOUT : 0)) };
	return k;
}

bool watch_pub_owns(const struct watch_pub *p, int fd)
{
	if (!p || fd < 0)
		return false;
	if (fd == p->lfd)
		return true;
	for (int i = 0; i < p->n; i++)
		if (p->c[i]->fd == fd)
			return true;
	return false;
}

static void accept_all(struct watch_pub *p)
{
	for (int k = 0; k < WATCH_MAX; k++) {
		int fd = accept4(p->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		if (watch_pub_adopt(p, fd) == -EMFILE)
			log_info("a watcher refused: %d watch already", WATCH_MAX);
	}
}

/* Reads what watcher i sent: only whole WATCH_RESYNC messages are taken;
 * anything else, or the end of its stream, closes it. Returns false when
 * it was closed. */
static bool read_conn(struct watch_pub *p, int i)
{
	struct conn *c = p->c[i];
	for (int round = 0; round < 16; round++) {
		unsigned char buf[64];
		ssize_t k = recv(c->fd, buf, sizeof buf, MSG_DONTWAIT);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		if (k <= 0) {
			conn_close(p, i); /* it left (or its socket failed) */
			return false;
		}
		for (ssize_t j = 0; j < k; j++) {
			if (buf[j] != watch_resync_msg[c->in_n]) {
				log_info("a watcher sent what no watcher sends: dropped");
				p->st.dropped++;
				conn_close(p, i);
				return false;
			}
			if (++c->in_n == WATCH_RESYNC_LEN) {
				c->in_n = 0;
				if (!c->need_snap)
					fall_behind(c);
			}
		}
	}
	return true;
}

void watch_pub_dispatch(struct watch_pub *p, int fd, short revents)
{
	if (!p || fd < 0)
		return;
	if (fd == p->lfd) {
		accept_all(p);
		return;
	}
	for (int i = 0; i < p->n; i++) {
		struct conn *c = p->c[i];
		if (c->fd != fd)
			continue;
		if ((revents & (POLLIN | POLLHUP | POLLERR)) && !read_conn(p, i))
			return;
		if (revents & POLLOUT) {
			c->wait_out = false; /* room again: the next flush sends (and gives a snapshot) */
			if (send_some(p, c))
				conn_close(p, i);
		}
		return;
	}
}

void watch_pub_stats(const struct watch_pub *p, struct watch_pub_stats *s)
{
	*s = p->st;
	s->since_bytes = p->since.len;
}
