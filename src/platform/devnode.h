/* devnode: what to tell the user when open(2) refuses a device node: its permissions (EACCES: a group) or the device policy of the cgroup this runs in (EPERM: systemd's DeviceAllow=, a container's). */
#ifndef PIROGUE_PLATFORM_DEVNODE_H
#define PIROGUE_PLATFORM_DEVNODE_H

/* The kinds of device node the game opens. */
enum devnode_kind {
	DEVNODE_DRM,   /* /dev/dri/cardN, major 226, group video */
	DEVNODE_FB,    /* /dev/fbN, major 29, group video */
	DEVNODE_INPUT, /* /dev/input/eventN, major 13, group input */
	DEVNODE_TTY,   /* /dev/ttyN, major 4, group tty */
};

/* What to do about a node of kind that open(2) refused with err (a
 * positive errno), for the end of a one-line message: for EACCES the
 * node's permissions (the group to join, or root); for EPERM the device
 * policy of the cgroup this runs in (a systemd unit's DevicePolicy= and
 * DeviceAllow=, a container's rules), which no group changes, with the
 * DeviceAllow= line that admits the kind's major; "" for any other errno.
 * The string is static. */
const char *devnode_advice(enum devnode_kind kind, int err);

#endif
