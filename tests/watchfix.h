/* watchfix: the watch tests' shared pieces — a game and its screen to publish, a publisher with watchers on socket pairs, the bytes moved from a socket into a watcher until a condition holds. */
#ifndef PIROGUE_TESTS_WATCHFIX_H
#define PIROGUE_TESTS_WATCHFIX_H
#include "testutil.h"
#include "app/watch.h"
#include "app/watcher.h"
#include "app/watchwire.h"
#include "game/history.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A socket pair: [0] given to the publisher, [1] the watcher's end (both
 * non-blocking). The watcher's end is returned. */
static inline int watchfix_pair(struct watch_pub *p)
{
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	assert_int_equal(fcntl(sv[1], F_SETFL, O_NONBLOCK), 0);
	assert_int_equal(watch_pub_adopt(p, sv[0]), 0);
	return sv[1];
}

/* Serves p's sockets once without waiting: every descriptor poll() finds
 * ready is dispatched. */
static inline void watchfix_serve(struct watch_pub *p)
{
	struct pollfd pfd[WATCH_MAX + 1];
	int n = watch_pub_poll_fds(p, pfd, WATCH_MAX + 1);
	if (poll(pfd, (nfds_t)n, 0) <= 0)
		return;
	/* descriptors first, dispatch after: a dispatch may close a watcher */
	int fds[WATCH_MAX + 1];
	short rev[WATCH_MAX + 1];
	int k = 0;
	for (int i = 0; i < n; i++)
		if (pfd[i].revents) {
			fds[k] = pfd[i].fd;
			rev[k++] = pfd[i].revents;
		}
	for (int i = 0; i < k; i++)
		if (watch_pub_owns(p, fds[i]))
			watch_pub_dispatch(p, fds[i], rev[i]);
}

/* Reads everything waiting on fd into w (w->fd is fd, so that its requests
 * go back). Returns watcher_read's result; fails the test on a protocol
 * error. */
static inline int watchfix_read(struct watcher *w)
{
	char why[512] = "";
	int rc = watcher_read(w, why, sizeof why);
	if (rc < 0)
		fail_msg("watcher_read: %d %s", rc, why);
	return rc;
}

/* Bytes waiting to be read on fd, without reading them. */
static inline int watchfix_pending(int fd)
{
	struct pollfd q = { .fd = fd, .events = POLLIN };
	return poll(&q, 1, 0) == 1 && (q.revents & POLLIN);
}

#endif
