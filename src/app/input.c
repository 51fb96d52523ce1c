#include "app/input.h"
#include "app/data.h"
#include "core/log.h"
#if WITH_EVDEV
#include "platform/evdev.h"
#endif
#include <errno.h>
#include <limits.h>

#define MAX_EVENTS 64

int input_open(struct input_devs *in, const char *gamepad_db, const char *backend)
{
#if WITH_EVDEV
	char db[PATH_MAX + 32];
	struct evdev_opts o = { .dir = NULL, .default_db = data_gamepad_db(db, sizeof db), .gamepad_db = gamepad_db,
				.grab = true };
	int rc = evdev_open(&in->ev, &o);
	if (rc)
		return rc;
	if (!evdev_count(in->ev, DEV_KEYBOARD) && !evdev_count(in->ev, DEV_GAMEPAD))
		log_error("no keyboard or gamepad found yet (plug one in; --list-inputs shows what is there)");
	return 0;
#else
	(void)in;
	(void)gamepad_db;
	log_error("this pirogue was built without evdev (WITH_EVDEV=0): the %s backend has no keyboard; "
		  "rebuild with WITH_EVDEV=1", backend);
	return -ENOTSUP;
#endif
}

void input_pointer_space(struct input_devs *in, int px_w, int px_h, int cell_w, int cell_h)
{
#if WITH_EVDEV
	if (in->ev)
		evdev_set_pointer_space(in->ev, px_w, px_h, cell_w, cell_h);
#else
	(void)in;
	(void)px_w;
	(void)px_h;
	(void)cell_w;
	(void)cell_h;
#endif
}

void input_grab(struct input_devs *in, bool on)
{
#if WITH_EVDEV
	if (in->ev)
		evdev_grab(in->ev, on);
#else
	(void)in;
	(void)on;
#endif
}

int input_poll_fds(struct input_devs *in, int *fds, int max)
{
#if WITH_EVDEV
	if (in->ev) {
		int n = evdev_poll_fds(in->ev, fds, max);
		return n < 0 ? 0 : n;
	}
#endif
	(void)in;
	(void)fds;
	(void)max;
	return 0;
}

void input_dispatch(struct input_devs *in, int fd, bool (*on_event)(void *ctx, const struct in_event *ev), void *ctx)
{
#if WITH_EVDEV
	struct in_event ev[MAX_EVENTS];
	int n;
	do {
		n = evdev_dispatch(in->ev, fd, ev, MAX_EVENTS);
		for (int k = 0; k < n; k++)
			if (!on_event(ctx, &ev[k]))
				return;
	} while (n == MAX_EVENTS);
#else
	(void)in;
	(void)fd;
	(void)on_event;
	(void)ctx;
#endif
}

int input_list(FILE *out, const char *gamepad_db)
{
#if WITH_EVDEV
	char db[PATH_MAX + 32];
	struct evdev_opts o = { .default_db = data_gamepad_db(db, sizeof db), .gamepad_db = gamepad_db };
	return evdev_list(out, &o) < 0 ? -1 : 0;
#else
	(void)gamepad_db;
	fprintf(out, "input devices: not available (built with WITH_EVDEV=0)\n");
	return 0;
#endif
}

void input_close(struct input_devs *in)
{
#if WITH_EVDEV
	if (!in)
		return;
	evdev_close(in->ev);
	in->ev = NULL;
#else
	(void)in;
#endif
}
