#include "app/wake.h"
#include "core/log.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

int64_t wake_now_ms(const struct wake *w)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + (w ? w->ahead_ms : 0);
}

int wake_open(struct wake *w)
{
	if (w->fd >= 0)
		return 0;
	w->fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	return w->fd < 0 ? -errno : 0;
}

/* The milliseconds path holds into *ms. Returns 0, or a negative errno
 * with why (-EINVAL: not a number of milliseconds). */
static int read_clock(const char *path, int64_t *ms, char *why, size_t len)
{
	char buf[32];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int err = errno;
		snprintf(why, len, "cannot read the clock file %s (PIROGUE_IDLE_CLOCK): %s", path, strerror(err));
		return err ? -err : -EIO; /* never 0 */
	}
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n < 0) {
		int err = errno;
		snprintf(why, len, "cannot read the clock file %s (PIROGUE_IDLE_CLOCK): %s", path, strerror(err));
		return err ? -err : -EIO; /* never 0 */
	}
	buf[n] = 0;
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	char *end;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end || v < 0) {
		snprintf(why, len, "the clock file %s (PIROGUE_IDLE_CLOCK) holds '%.20s': expected milliseconds, 0 or more",
			 path, buf);
		return -EINVAL;
	}
	*ms = (int64_t)v;
	return 0;
}

int wake_clock_open(struct wake *w, const char *path, char *why, size_t len)
{
	int64_t ms = 0; /* (set when read_clock returns 0) */
	int rc = read_clock(path, &ms, why, len);
	if (rc)
		return rc;
	int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (fd < 0 || inotify_add_watch(fd, path, IN_CLOSE_WRITE) < 0) {
		rc = -errno;
		snprintf(why, len, "cannot watch the clock file %s (PIROGUE_IDLE_CLOCK): %s", path, strerror(-rc));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	if (w->clock_fd >= 0)
		close(w->clock_fd);
	w->clock_fd = fd;
	w->clock_path = path;
	w->ahead_ms = ms;
	return 0;
}

bool wake_clock_moved(struct wake *w)
{
	char ev[4096];
	while (read(w->clock_fd, ev, sizeof ev) > 0)
		; /* every rewrite since: the file says where the clock is now */
	int64_t ms = 0; /* (set when read_clock returns 0) */
	char why[320];
	if (read_clock(w->clock_path, &ms, why, sizeof why)) {
		log_error("%s; the clock stays where it was", why);
		return false;
	}
	if (ms < w->ahead_ms) {
		log_error("the clock file %s (PIROGUE_IDLE_CLOCK) went back from %lld to %lld ms; the clock never goes back",
			  w->clock_path, (long long)w->ahead_ms, (long long)ms);
		return false;
	}
	if (ms == w->ahead_ms)
		return false;
	w->ahead_ms = ms;
	wake_at(w, w->at_ms); /* a deadline now passed comes at once */
	return true;
}

void wake_at(struct wake *w, int64_t at_ms)
{
	w->at_ms = at_ms < 0 ? -1 : at_ms;
	if (w->fd < 0)
		return;
	struct itimerspec its = { 0 };
	if (at_ms >= 0) {
		int64_t mono = at_ms - w->ahead_ms; /* a deadline already passed: at once */
		if (mono < 0)
			mono = 0;
		its.it_value.tv_sec = mono / 1000;
		its.it_value.tv_nsec = mono % 1000 * 1000000L + 1; /* never 0 (disarms) */
	}
	timerfd_settime(w->fd, TFD_TIMER_ABSTIME, &its, NULL);
}

bool wake_fired(struct wake *w)
{
	uint64_t ticks;
	return !(read(w->fd, &ticks, sizeof ticks) < 0 && errno == EAGAIN);
}

void wake_close(struct wake *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	if (w->clock_fd >= 0)
		close(w->clock_fd);
	w->fd = w->clock_fd = -1;
}
