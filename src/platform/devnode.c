/* devnode: see devnode.h. */
#include "platform/devnode.h"
#include <errno.h>

#define POLICY "refused by the device policy this runs under (a cgroup's: systemd's DeviceAllow=, a container's), " \
	       "not by the file's permissions: "
#define GROUP(g) "add the user to the " g " group (sudo usermod -aG " g " $USER, then log in again) or run as root"

static const struct {
	const char *eacces, *eperm;
} advice[] = {
	[DEVNODE_DRM] = { GROUP("video"), POLICY "allow DRM cards, major 226 (DeviceAllow=char-226 rw)" },
	[DEVNODE_FB] = { GROUP("video"), POLICY "allow framebuffers, major 29 (DeviceAllow=char-29 rw)" },
	[DEVNODE_INPUT] = { GROUP("input"), POLICY "allow input devices, major 13 (DeviceAllow=char-13 rw)" },
	[DEVNODE_TTY] = { "run as root, or from a login on that console, or add yourself to the tty group",
			  POLICY "allow the console, major 4 (DeviceAllow=/dev/tty1 rw, or char-4 rw for every VT)" },
};

const char *devnode_advice(enum devnode_kind kind, int err)
{
	if ((unsigned)kind >= sizeof advice / sizeof advice[0])
		return "";
	if (err == EACCES)
		return advice[kind].eacces;
	if (err == EPERM)
		return advice[kind].eperm;
	return "";
}
