/* input: the bare console's input devices (evdev keyboards, gamepads, mice; hotplug), grabbed while the game has the screen, read into events; nothing without evdev built in. */
#ifndef PIROGUE_APP_INPUT_H
#define PIROGUE_APP_INPUT_H
#include <stdbool.h>
#include <stdio.h>
#include "platform/keys.h"

/* Zero is no devices open. */
struct input_devs {
	struct evdev *ev; /* NULL until input_open */
};

/* Opens every input device, grabbed, with the shipped gamepad database and
 * the user's (gamepad_db, NULL: none); says so when no keyboard or gamepad
 * is there yet (one may be plugged in later). backend names the display in
 * the message of a pirogue built without evdev. Returns 0, or a negative
 * errno having logged one line. */
int input_open(struct input_devs *in, const char *gamepad_db, const char *backend);

/* The pointer moves over px_w x px_h unscaled font pixels in cells of
 * cell_w x cell_h. Nothing before input_open. */
void input_pointer_space(struct input_devs *in, int px_w, int px_h, int cell_w, int cell_h);

/* Grabs the devices (on) or lets them go (the VT is switched away). */
void input_grab(struct input_devs *in, bool on);

/* Puts up to max fds to poll into fds; returns how many (0 without devices). */
int input_poll_fds(struct input_devs *in, int *fds, int max);

/* Reads fd (readable) until it has nothing more, giving every event to
 * on_event(ctx, ev) in order; stops early when on_event returns false. */
void input_dispatch(struct input_devs *in, int fd, bool (*on_event)(void *ctx, const struct in_event *ev), void *ctx);

/* --list-inputs: what each device is, to out, with the gamepad databases;
 * returns 0, or -1 when the devices could not be listed (said). */
int input_list(FILE *out, const char *gamepad_db);

/* Lets the devices go and closes them; a zero struct is fine. */
void input_close(struct input_devs *in);

#endif
