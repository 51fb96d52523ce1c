/* evdev: keyboards, gamepads and mice from /dev/input/event* (libevdev): classification, hotplug, exclusive grab, SYN_DROPPED recovery, key repeat. */
#ifndef PIROGUE_PLATFORM_EVDEV_H
#define PIROGUE_PLATFORM_EVDEV_H
#include "platform/keys.h"
#include <stdbool.h>
#include <stdio.h>

/* Held movement keys (arrows, keypad, hjklyubn, d-pad, stick) repeat after
 * EVDEV_REPEAT_DELAY_MS, then every EVDEV_REPEAT_INTERVAL_MS, driven by a
 * timerfd that is armed only while such a key is held. */
#define EVDEV_REPEAT_DELAY_MS 250
#define EVDEV_REPEAT_INTERVAL_MS 60
/* A node that appears unreadable is retried every EVDEV_RETRY_MS for up to
 * EVDEV_RETRY_FOR_MS (udev sets its group and ACL just after creating it)
 * before it is reported. */
#define EVDEV_RETRY_MS 100
#define EVDEV_RETRY_FOR_MS 2000

struct evdev;

struct evdev_opts {
	const char *dir;         /* where the event nodes are; NULL: /dev/input */
	const char *default_db;  /* the shipped GameControllerDB (gamepads/gamecontrollerdb.txt), or NULL */
	const char *gamepad_db;  /* the user's SDL GameControllerDB file, or NULL */
	bool grab;               /* take devices exclusively (EVIOCGRAB) while active */
};

/* Opens every input device in o->dir that is a keyboard, gamepad or mouse
 * and watches the directory for devices plugged in later. Gamepad mappings
 * come from o->default_db, then o->gamepad_db, then the
 * SDL_GAMECONTROLLERCONFIG environment variable, each overriding the ones
 * before for the GUIDs it maps; a file that cannot be read or a bad line is
 * reported in one line and skipped. Modifier keys (Shift, Ctrl, Alt, Meta)
 * and Caps Lock are shared by all keyboards; the keys a keyboard held are
 * released when it goes. Devices that cannot be
 * opened for lack of permission are named once each, with the fix. The new
 * instance is active (events are delivered, devices grabbed if o->grab).
 * Returns 0 and *out, or a negative errno after logging one line (the
 * directory cannot be watched, out of memory); *out is then NULL. */
int evdev_open(struct evdev **out, const struct evdev_opts *o);
/* Ungrabs and closes everything. Accepts NULL. */
void evdev_close(struct evdev *e);
/* Writes the fds to poll for POLLIN into fds: the hotplug watch, the repeat
 * and retry timers, and one per open device. The set changes as devices come
 * and go: call this before every poll(). Returns the number written, or
 * -ENOSPC if max is too small. */
int evdev_poll_fds(struct evdev *e, int *fds, int max);
/* Handles fd (one evdev_poll_fds gave, reported readable or in error):
 * reads device events, hotplug notifications or timer expiries, and writes
 * up to max events to ev. Returns how many were written; when that equals
 * max, more may be waiting: call again (same fd) before polling. A device
 * that was unplugged is dropped here, silently; the others are unaffected.
 * An fd that is no longer in the set is ignored (returns 0, or events still
 * pending from an earlier call). The repeat timer's fd reads the holding
 * device first: a release already there stops the repeat (none is given). */
int evdev_dispatch(struct evdev *e, int fd, struct in_event *ev, int max);
/* on: the game has the screen: devices are grabbed (if opts.grab) and events
 * delivered. off (VT switched away): devices are released to the rest of
 * the system, key repeat stops, and events are read but only tracked (so no
 * modifier sticks), never delivered. */
void evdev_grab(struct evdev *e, bool on);
/* Tells where the pointer lives: the screen is px_w x px_h pixels, a cell
 * cell_w x cell_h. Mice report EV_MOUSE_MOVE with the cell under the pointer
 * when it changes, and EV_MOUSE_CLICK; until this is called (or with a zero
 * size) mice produce no events. */
void evdev_set_pointer_space(struct evdev *e, int px_w, int px_h, int cell_w, int cell_h);
/* How many open devices can act as kind (DEV_KEYBOARD, DEV_GAMEPAD or
 * DEV_MOUSE; a keyboard with a pointing stick counts for both). */
int evdev_count(const struct evdev *e, enum dev_kind kind);
/* For --list-inputs: reads the gamepad mappings first (as evdev_open
 * does; a user's o->gamepad_db that cannot be read is an error), then
 * prints one line per event node in o->dir (path, name, vendor:product,
 * class and why, gamepad GUID and mapping with the file and line it came
 * from, whether it could be opened, with the fix when permission was
 * denied). Returns 0, or a negative errno if the user's mapping file or
 * the directory cannot be read (also printed). */
int evdev_list(FILE *out, const struct evdev_opts *o);

#endif
