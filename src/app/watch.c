/* The publisher: one listening socket, up to WATCH_MAX watchers, one ring
 * they all read. Every socket is non-blocking and served from the game's
 * own poll() loop; a message is written once, into the ring (a memfd each
 * watcher maps read-only), and one eventfd write wakes every watcher; a
 * watcher's socket carries only the greeting, its snapshots (built once
 * per state of the game and shared) and where in the ring each continues. */
#include "app/watch.h"
#include "app/watchwire.h"
#include "core/le.h"
#include "core/log.h"
#include "game/history.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define WATCH_NEW ".new" /* the socket's name while it is made (watch_pub_open) */

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010 /* Linux 5.1 */
#endif

/* A snapshot, shared by the watchers sending it: the buffer it was
 * encoded into (its own, not copied). */
struct snap {
	int refs;
	size_t len;
	unsigned char *data;
};

struct conn {
	int fd;
	size_t hello_off;    /* of p->hello sent */
	struct snap *snap;   /* being sent, or NULL */
	size_t snap_off;
	unsigned char ring_msg[WATCH_HEAD + 12]; /* the WATCH_RING after the snapshot */
	size_t ring_off, ring_len; /* ring_msg[ring_off .. ring_len) unsent */
	bool fds_sent;       /* the ring's memfd and eventfd went with its first WATCH_RING */
	bool need_snap;      /* gets one once all it has been sent is through */
	bool wait_out;       /* the socket was full: POLLOUT */
	unsigned char in[WATCH_RESYNC_LEN]; /* what it sent, one message at most */
	size_t in_n;
};

_Static_assert(WATCH_MAX <= 64, "watch_pub's want has a bit a watcher");

/* The waker: a thread of the publisher's that makes the watchers'
 * eventfd write. The kernel wakes every watcher asleep on the eventfd
 * inside that write, which costs per watcher: on the game's thread that
 * made a key 2.6 times dearer with 11 watchers, 3.9 with 50, at a
 * person's pace (bench_wake, CPU time). The game's thread only marks it
 * pending, and wakes it (sem_post: one thread) only when it was not
 * pending already; a post finds it asleep or about to be. */
struct waker {
	pthread_t t;
	bool running;   /* the thread was started (else the game's thread writes the eventfd itself) */
	bool failed;    /* it could not be: said once */
	sem_t go;       /* posted once per pending: 0 -> 1 */
	int pending;    /* atomic: 1 while a write is asked for and not begun */
	int stop;       /* atomic: the thread ends after its next write */
	int fd;         /* the watchers' eventfd */
};
static void waker_stop(struct waker *k);
#define WAKER_STACK (128 * 1024) /* its stack's bytes */

struct watch_pub {
	int lfd; /* the socket, -1: none */
	char path[sizeof ((struct sockaddr_un *)0)->sun_path];
	struct conn *c[WATCH_MAX];
	int n;
	struct serial_buf hello;  /* the greeting, the same for all */
	struct serial_buf msg;    /* one message being built */
	struct serial_buf screen; /* the screen as last sent */
	bool screen_valid;
	struct watch_ui_seen ui_seen; /* the ui it was made from, as last looked at */
	struct snap *snap; /* the last snapshot made, NULL: none (or dropped) */
	uint64_t snap_pos; /* the ring's head when it was made: what follows it starts there */
	int since_check;   /* commands played since the last checksum */
	int woke_at;       /* since_check at the flush's last wake-up (0 after a checksum) */
	int ring_fd, wake_fd;  /* the ring's memfd and the watchers' eventfd, -1: not made yet */
	unsigned char *ring;   /* its mapping (WATCH_RING_HEAD + WATCH_RING_SIZE bytes), NULL: none */
	uint64_t head;         /* bytes ever written into it */
	uint64_t woken;        /* head at the last wake-up */
	int ep;                /* an epoll of the watchers' sockets (one descriptor to poll), -1: not yet */
	uint64_t want;         /* bit i: c[i] may need something sent on its socket by send_all (none: nothing to do; not those waiting for room, POLLOUT) */
	struct waker wk;       /* makes the eventfd writes, off the game's thread */
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
	if (n < 0 || (size_t)n >= len || (size_t)n + strlen(WATCH_NEW) >= sizeof ((struct sockaddr_un *)0)->sun_path)
		return -ENAMETOOLONG; /* (watch_pub_open binds at path.new first) */
	return 0;
}

static void snap_put(struct snap *s)
{
	if (s && --s->refs == 0) {
		free(s->data);
		free(s);
	}
}

static void conn_close(struct watch_pub *p, int i)
{
	struct conn *c = p->c[i];
	if (p->ep >= 0)
		epoll_ctl(p->ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	snap_put(c->snap);
	free(c);
	int last = p->n - 1; /* the last takes its place, and its bit */
	uint64_t moved = (p->want >> last) & 1;
	p->want &= ~(1ull << last);
	if (i != last)
		p->want = (p->want & ~(1ull << i)) | moved << i;
	p->c[i] = p->c[--p->n];
	p->st.watchers = p->n;
}

static int pub_alloc(struct watch_pub **out, const char *who)
{
	struct watch_pub *p = calloc(1, sizeof *p);
	if (!p)
		return -ENOMEM;
	p->lfd = -1;
	p->ring_fd = p->wake_fd = p->ep = -1;
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
	struct sockaddr_un sa = { .sun_family = AF_UNIX }, at = { .sun_family = AF_UNIX };
	if (strlen(path) + strlen(WATCH_NEW) >= sizeof sa.sun_path) {
		log_error("watch socket %s: the path is too long for a Unix socket (%zu bytes at most)", path,
			  sizeof sa.sun_path - 1 - strlen(WATCH_NEW));
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	/* made, given its mode and group and listening at path.new, then
	 * renamed to path: a watcher finds nothing there, or a game that
	 * answers (not one that refuses it because it does not listen yet) */
	snprintf(at.sun_path, sizeof at.sun_path, "%s" WATCH_NEW, path);
	const char *tmp = at.sun_path;
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
	unlink(tmp); /* (left by a game killed while it published) */
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
	int b = bind(p->lfd, (const struct sockaddr *)&at, sizeof at);
	int e = errno;
	umask(old);
	if (b < 0) {
		rc = -e;
		log_error("watch socket %s: cannot bind it: %s", path, strerror(e));
		goto fail;
	}
	snprintf(p->path, sizeof p->path, "%s", tmp); /* (removed by watch_pub_close until renamed) */
	if (chmod(tmp, 0660) < 0)
		log_error("watch socket %s: cannot make it mode 0660: %s", path, strerror(errno));
	struct group *gr = getgrnam(WATCH_GROUP);
	struct stat made;
	if (!gr)
		log_info("watch socket %s: no group %s here: only this user can watch", path, WATCH_GROUP);
	else if (stat(tmp, &made) == 0 && made.st_gid == gr->gr_gid)
		; /* the game's own group already (the kiosk unit's user pirogue): no chown, which the unit's
		   * SystemCallFilter=~@privileged (@chown) answers with SIGSYS */
	else if (chown(tmp, (uid_t)-1, gr->gr_gid) < 0)
		log_error("watch socket %s: cannot give it to group %s (%s): only this user can watch (make the game's "
			  "user a member of %s)", path, WATCH_GROUP, strerror(errno), WATCH_GROUP);
	if (listen(p->lfd, 16) < 0) {
		rc = -errno;
		log_error("watch socket %s: cannot listen on it: %s", path, strerror(errno));
		goto fail;
	}
	if (rename(tmp, path) < 0) {
		rc = -errno;
		log_error("watch socket %s: cannot put it there: %s", path, strerror(errno));
		goto fail;
	}
	snprintf(p->path, sizeof p->path, "%s", path);
	log_info("watchable: pirogue --watch %s", path);
	*out = p;
	return 0;
fail:
	watch_pub_close(p);
	return rc;
}

/* The ring made (once, for the first watcher): the memfd mapped for
 * writing here, sealed so that no one else can map it for writing or
 * change its size, its header written; the eventfd that wakes the
 * watchers. Returns 0 or -errno. */
static int ring_open(struct watch_pub *p)
{
	if (p->ring)
		return 0;
	size_t len = WATCH_RING_HEAD + WATCH_RING_SIZE;
	int fd = memfd_create("pirogue-watch", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	void *m = MAP_FAILED;
	int wake = -1, ep = -1;
	if (ftruncate(fd, (off_t)len) < 0 || (m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED ||
	    (wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0 || (ep = epoll_create1(EPOLL_CLOEXEC)) < 0) {
		int e = errno;
		if (m != MAP_FAILED)
			munmap(m, len);
		if (wake >= 0)
			close(wake);
		close(fd);
		log_error("cannot make the watchers' ring: %s", strerror(e));
		return -e;
	}
	/* the watchers only read it (a kernel before 5.1 cannot say so: then
	 * only its size is fixed; a watcher writing into it would spoil only
	 * what the watchers read, never the game) */
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE | F_SEAL_SEAL) < 0)
		(void)fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	unsigned char *r = m;
	memset(r, 0, WATCH_RING_HEAD);
	le_put32(r, WATCH_RING_MAGIC);
	le_put32(r + 4, WATCH_VERSION);
	le_put32(r + 8, WATCH_RING_SIZE);
	p->ring = r;
	p->ring_fd = fd;
	p->wake_fd = wake;
	p->ep = ep;
	p->head = p->woken = 0;
	return 0;
}

int watch_pub_adopt(struct watch_pub *p, int fd)
{
	if (p->n == WATCH_MAX) {
		close(fd);
		return -EMFILE;
	}
	int rc = ring_open(p);
	if (rc) {
		close(fd);
		return rc;
	}
	struct conn *c = calloc(1, sizeof *c);
	if (!c) {
		close(fd);
		return -ENOMEM;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };
	if (epoll_ctl(p->ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
		int e = errno;
		free(c);
		close(fd);
		return -e;
	}
	c->fd = fd;
	c->need_snap = true;
	p->want |= 1ull << p->n;
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
	waker_stop(&p->wk);
	if (p->ring)
		munmap(p->ring, WATCH_RING_HEAD + WATCH_RING_SIZE);
	if (p->ring_fd >= 0)
		close(p->ring_fd);
	if (p->wake_fd >= 0)
		close(p->wake_fd);
	if (p->ep >= 0)
		close(p->ep);
	free(p->hello.data);
	free(p->msg.data);
	free(p->screen.data);
	free(p);
}

/* ------------------------------------------------------------------ */
/* the ring */

/* The snapshot forgotten: the next watcher that needs one gets one made
 * then. */
static void snap_drop(struct watch_pub *p)
{
	snap_put(p->snap);
	p->snap = NULL;
}

/* n bytes at d written into the ring as the stream's next bytes: limit
 * raised first (a reader finding it past what it copied knows the copy may
 * be spoilt), then the bytes, then head (whole messages only). */
static void ring_put(struct watch_pub *p, const unsigned char *d, size_t n)
{
	if (!p->ring || !n || n > WATCH_RING_SIZE / 4)
		return; /* (no message is that long: commands, checksums, screens) */
	uint64_t h = p->head;
	__atomic_store_n((uint64_t *)(void *)(p->ring + WATCH_RING_AT_LIMIT), h + n, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	size_t at = (size_t)(h % WATCH_RING_SIZE), first = n < WATCH_RING_SIZE - at ? n : WATCH_RING_SIZE - at;
	memcpy(p->ring + WATCH_RING_HEAD + at, d, first);
	if (first < n)
		memcpy(p->ring + WATCH_RING_HEAD, d + first, n - first);
	__atomic_store_n((uint64_t *)(void *)(p->ring + WATCH_RING_AT_HEAD), h + n, __ATOMIC_RELEASE);
	p->head = h + n;
}

/* The eventfd written once: every watcher asleep on it woken (the
 * kernel's work, per watcher). */
static void eventfd_wake(int fd)
{
	uint64_t one = 1;
	if (write(fd, &one, sizeof one) < 0 && errno == EAGAIN) {
		/* the count is full (a watcher wrote to it): emptied, then again */
		uint64_t v;
		(void)!read(fd, &v, sizeof v);
		(void)!write(fd, &one, sizeof one);
	}
}

/* The waker's thread: each time it is posted, pending taken back (a
 * later wish posts again) and the eventfd written; ends after the write
 * that finds stop. */
static void *waker_main(void *arg)
{
	struct waker *k = arg;
	for (;;) {
		while (sem_wait(&k->go) && errno == EINTR)
			;
		__atomic_store_n(&k->pending, 0, __ATOMIC_SEQ_CST);
		eventfd_wake(k->fd);
		if (__atomic_load_n(&k->stop, __ATOMIC_SEQ_CST))
			return NULL;
	}
}

/* The waker's thread started for fd, with every signal blocked in it
 * (they are the game's thread's: its signalfd). Returns 0 or -errno (then
 * the game's thread writes the eventfd itself; said once). */
static int waker_start(struct waker *k, int fd)
{
	if (k->running)
		return 0;
	if (k->failed)
		return -EAGAIN;
	k->fd = fd;
	k->pending = k->stop = 0;
	if (sem_init(&k->go, 0, 0)) {
		int e = errno;
		k->failed = true;
		log_error("cannot start the watchers' waker thread (%s): the game wakes them itself", strerror(e));
		return -e;
	}
	sigset_t all, old;
	sigfillset(&all);
	pthread_attr_t at;
	int rc = pthread_attr_init(&at);
	if (!rc) {
		(void)pthread_attr_setstacksize(&at, WAKER_STACK); /* (it needs next to none) */
		pthread_sigmask(SIG_SETMASK, &all, &old);
		rc = pthread_create(&k->t, &at, waker_main, k);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		pthread_attr_destroy(&at);
	}
	if (rc) {
		sem_destroy(&k->go);
		k->failed = true;
		log_error("cannot start the watchers' waker thread (%s): the game wakes them itself", strerror(rc));
		return -rc;
	}
	k->running = true;
	return 0;
}

/* The waker asked for one write: posted only when it was not pending
 * already (one thread woken at most; none while a write is due). */
static void waker_post(struct waker *k)
{
	if (!__atomic_exchange_n(&k->pending, 1, __ATOMIC_SEQ_CST))
		sem_post(&k->go);
}

/* The waker's thread ended (after one last write) and joined. */
static void waker_stop(struct waker *k)
{
	if (!k->running)
		return;
	__atomic_store_n(&k->stop, 1, __ATOMIC_SEQ_CST);
	waker_post(k);
	pthread_join(k->t, NULL);
	sem_destroy(&k->go);
	k->running = false;
}

/* Wakes every watcher at once when the ring has bytes they have not been
 * woken for: the game's thread asks the waker (one write of the eventfd,
 * however many there are, made on the waker's thread). */
static void wake(struct watch_pub *p)
{
	if (p->wake_fd < 0 || p->head == p->woken)
		return;
	p->st.wakes++;
	if (waker_start(&p->wk, p->wake_fd) == 0)
		waker_post(&p->wk);
	else
		eventfd_wake(p->wake_fd);
	p->woken = p->head;
}

/* The n bytes at m (one message) into the ring, for every watcher
 * following it; the snapshot is let go once what followed it no longer
 * fits WATCH_SINCE (a watcher given it then might not find its start in
 * the ring any more). */
static void broadcast(struct watch_pub *p, const unsigned char *m, size_t n)
{
	ring_put(p, m, n);
	if (p->snap && p->head - p->snap_pos > WATCH_SINCE)
		snap_drop(p);
}

/* Every watcher gets a fresh snapshot once what it has begun is through;
 * the ring says so to those following it (WATCH_RESET), so that nothing
 * of another game is played on their copy meanwhile. */
static void all_need_snap(struct watch_pub *p)
{
	static const unsigned char reset[WATCH_HEAD] = { 1, 0, 0, 0, WATCH_RESET };
	snap_drop(p);
	ring_put(p, reset, sizeof reset);
	for (int i = 0; i < p->n; i++)
		p->c[i]->need_snap = true;
	p->want = p->n == 64 ? ~0ull : (1ull << p->n) - 1;
}

/* Whether c waits for room on its socket (POLLOUT asked of the epoll). */
static void set_wait_out(struct watch_pub *p, struct conn *c, bool on)
{
	if (c->wait_out == on)
		return;
	c->wait_out = on;
	struct epoll_event ev = { .events = EPOLLIN | (on ? EPOLLOUT : 0), .data.fd = c->fd };
	epoll_ctl(p->ep, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Sends what c has as far as its socket takes it: the greeting, a
 * snapshot, the WATCH_RING after it (the first with the ring's fds).
 * Returns 0, or -1 when it failed or left (then closed by the caller). */
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
		} else if (c->ring_off < c->ring_len) {
			d = c->ring_msg + c->ring_off;
			n = c->ring_len - c->ring_off;
		} else {
			set_wait_out(p, c, false);
			return 0;
		}
		ssize_t k;
		bool fds = !c->snap && c->hello_off >= p->hello.len && !c->fds_sent;
		if (fds) {
			/* the ring's memfd and eventfd with its first byte */
			int two[2] = { p->ring_fd, p->wake_fd };
			union {
				struct cmsghdr h;
				unsigned char b[CMSG_SPACE(sizeof two)];
			} u;
			memset(&u, 0, sizeof u);
			struct iovec iov = { .iov_base = (void *)d, .iov_len = n };
			struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.b,
					     .msg_controllen = sizeof u.b };
			struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
			cm->cmsg_level = SOL_SOCKET;
			cm->cmsg_type = SCM_RIGHTS;
			cm->cmsg_len = CMSG_LEN(sizeof two);
			memcpy(CMSG_DATA(cm), two, sizeof two);
			k = sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		} else {
			k = send(c->fd, d, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		}
		if (k < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				set_wait_out(p, c, true);
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
			}
		} else {
			if (fds && s)
				c->fds_sent = true;
			c->ring_off += s;
			if (c->ring_off == c->ring_len)
				c->ring_off = c->ring_len = 0;
		}
	}
}

/* The last snapshot made while what followed it fits WATCH_SINCE, else
 * one of (u, g) as they are now. */
static struct snap *current_snap(struct watch_pub *p, const struct ui *u, const struct game *g)
{
	if (p->snap)
		return p->snap;
	struct snap *s = malloc(sizeof *s);
	if (!s)
		return NULL;
	/* encoded into a buffer the size of the last one and a little more
	 * (one allocation, nothing copied as it grows), which it keeps */
	size_t cap = p->st.snapshot_bytes ? p->st.snapshot_bytes + p->st.snapshot_bytes / 8 + 4096 : 64 * 1024;
	struct serial_buf b = { malloc(cap), 0, 0 };
	if (b.data)
		b.cap = cap;
	int rc = watchwire_snapshot(&b, u, g);
	if (rc) {
		log_error("cannot make a snapshot for the watchers: %s", strerror(-rc));
		free(b.data);
		free(s);
		return NULL;
	}
	s->refs = 1;
	s->len = b.len;
	s->data = b.data;
	p->snap = s;
	p->snap_pos = p->head;
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
	unsigned char m[WATCH_COMMAND_LEN];
	broadcast(p, m, watchwire_command_to(m, cmd));
	p->since_check++;
}

void watch_pub_replaced(struct watch_pub *p)
{
	if (!p)
		return;
	p->since_check = p->woke_at = 0;
	all_need_snap(p);
}

static void send_all(struct watch_pub *p, const struct ui *u, const struct game *g);

void watch_pub_flush(struct watch_pub *p, const struct ui *u, const struct game *g)
{
	if (!p)
		return;
	if (!p->n) {
		p->since_check = p->woke_at = 0;
		p->screen_valid = false;
		snap_drop(p);
		return;
	}
	/* the screen, when it changed (the message built only when a byte
	 * of the ui it is made from did) */
	bool same = watchwire_ui_unchanged(&p->ui_seen, u); /* (ui_seen follows u either way) */
	if (!p->screen_valid || !same) {
		unsigned char m[WATCH_SCREEN_MAX];
		size_t n = watchwire_screen_to(m, u);
		if (!p->screen_valid || n != p->screen.len || memcmp(m, p->screen.data, n)) {
			p->screen.len = 0;
			p->screen_valid = serial_buf_append(&p->screen, m, n) == 0;
			broadcast(p, m, n);
		}
	}
	send_all(p, u, g);
	/* the watchers are woken for commands whose checksum is due together
	 * with it, as soon as the loop is idle (watch_pub_check): one wake-up a
	 * key, not two; while the loop is never idle, every WATCH_DEFER
	 * commands (not every flush after the first WATCH_DEFER: the
	 * waker's round is ~250 instructions a key, on some core)
	 * commands */
	if (p->since_check == 0 || p->since_check - p->woke_at >= WATCH_DEFER) {
		wake(p);
		p->woke_at = p->since_check;
	}
}

bool watch_pub_check_due(const struct watch_pub *p)
{
	return p && p->n && p->since_check;
}

void watch_pub_check(struct watch_pub *p, const struct game *g)
{
	if (!watch_pub_check_due(p))
		return;
	p->since_check = p->woke_at = 0;
	if (!g)
		return;
	p->st.checks++;
	unsigned char m[WATCH_CHECK_LEN];
	broadcast(p, m, watchwire_check_to(m, hist_count(game_history(g)), game_turn(g), game_digest(g)));
	wake(p);
}

/* Snapshots to those that need one and have taken all they had (u NULL:
 * none now), each followed by its WATCH_RING (where what followed the
 * snapshot starts in the ring); then as much of what each has begun as its
 * socket takes. Only those p wants are visited (a new one, one that asked
 * for a snapshot, one whose socket has room again: watch_pub_dispatch),
 * until they have nothing left to be sent; one whose socket is full waits
 * for POLLOUT. A watcher following the ring is sent nothing and costs a
 * flush nothing, and so does a stalled one. */
static void send_all(struct watch_pub *p, const struct ui *u, const struct game *g)
{
	/* the last first: one closed takes the last's place, already done */
	for (uint64_t m = p->want; m;) {
		int i = 63 - __builtin_clzll(m);
		m &= ~(1ull << i);
		struct conn *c = p->c[i];
		if (c->wait_out) {
			p->want &= ~(1ull << i);
			continue;
		}
		if (u && c->need_snap && !c->snap && c->ring_off == c->ring_len) {
			struct snap *s = current_snap(p, u, g);
			p->msg.len = 0;
			if (s && watchwire_ring(&p->msg, WATCH_RING_SIZE, p->snap_pos) == 0 &&
			    p->msg.len == sizeof c->ring_msg) {
				s->refs++;
				c->snap = s;
				c->snap_off = 0;
				c->need_snap = false;
				memcpy(c->ring_msg, p->msg.data, p->msg.len);
				c->ring_off = 0;
				c->ring_len = p->msg.len;
				p->st.snapshots++;
			}
		}
		if ((c->hello_off < p->hello.len || c->snap || c->ring_off < c->ring_len) && send_some(p, c)) {
			conn_close(p, i);
			continue;
		}
		if (c->wait_out || !(c->need_snap || c->hello_off < p->hello.len || c->snap || c->ring_off < c->ring_len))
			p->want &= ~(1ull << i);
	}
}

int watch_pub_poll_fds(const struct watch_pub *p, struct pollfd *pfd, int max)
{
	if (!p)
		return 0;
	int k = 0;
	if (p->lfd >= 0 && k < max)
		pfd[k++] = (struct pollfd){ .fd = p->lfd, .events = POLLIN };
	if (p->ep >= 0 && p->n && k < max) /* every watcher's socket: one descriptor, however many */
		pfd[k++] = (struct pollfd){ .fd = p->ep, .events = POLLIN };
	return k;
}

bool watch_pub_owns(const struct watch_pub *p, int fd)
{
	if (!p || fd < 0)
		return false;
	if (fd == p->lfd || fd == p->ep)
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
				if (!c->need_snap) {
					c->need_snap = true; /* fell behind the ring, or its copy differs */
					p->want |= 1ull << i;
					p->st.behind++;
				}
			}
		}
	}
	return true;
}

static void conn_event(struct watch_pub *p, int fd, short revents);

void watch_pub_dispatch(struct watch_pub *p, int fd, short revents)
{
	if (!p || fd < 0)
		return;
	if (fd == p->lfd) {
		accept_all(p);
		return;
	}
	if (fd == p->ep) {
		/* the sockets that are ready (events first, handled after: one
		 * may close another's slot) */
		struct epoll_event ev[WATCH_MAX];
		int n = epoll_wait(p->ep, ev, WATCH_MAX, 0);
		for (int k = 0; k < n; k++)
			conn_event(p, ev[k].data.fd,
				   (short)((ev[k].events & EPOLLIN ? POLLIN : 0) | (ev[k].events & EPOLLOUT ? POLLOUT : 0) |
					   (ev[k].events & EPOLLHUP ? POLLHUP : 0) | (ev[k].events & EPOLLERR ? POLLERR : 0)));
		return;
	}
	conn_event(p, fd, revents);
}

/* What poll() or the epoll said of watcher socket fd. */
static void conn_event(struct watch_pub *p, int fd, short revents)
{
	for (int i = 0; i < p->n; i++) {
		struct conn *c = p->c[i];
		if (c->fd != fd)
			continue;
		if ((revents & (POLLIN | POLLHUP | POLLERR)) && !read_conn(p, i))
			return;
		if (revents & POLLOUT) {
			set_wait_out(p, c, false); /* room again (the next flush gives a snapshot) */
			p->want |= 1ull << i;
			if (send_some(p, c))
				conn_close(p, i);
		}
		return;
	}
}

void watch_pub_stats(const struct watch_pub *p, struct watch_pub_stats *s)
{
	*s = p->st;
	s->queued = 0;
	for (int i = 0; i < p->n; i++)
		s->queued += p->c[i]->ring_len - p->c[i]->ring_off;
	s->since_bytes = p->snap ? (size_t)(p->head - p->snap_pos) : 0;
}
