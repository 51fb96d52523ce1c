#include "app/wake.h"
#include <errno.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

int64_t wake_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int wake_open(struct wake *w)
{
	if (w->fd >= 0)
		return 0;
	w->fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	return w->fd < 0 ? -errno : 0;
}

void wake_at(struct wake *w, int64_t at_ms)
{
	if (w->fd < 0)
		return;
	struct itimerspec its = { 0 };
	if (at_ms >= 0) {
		its.it_value.tv_sec = at_ms / 1000;
		its.it_value.tv_nsec = at_ms % 1000 * 1000000L + 1; /* never 0 (disarms) */
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
	if (!w || w->fd < 0)
		return;
	close(w->fd);
	w->fd = -1;
}
