/* vmhelper: the VM rig's hands inside the guest — uinput gamepads, mouse and
 * two keyboards, and a report of a VT's display and keyboard mode.
 *
 *   vmhelper uinput      reads commands, one per line, from stdin:
 *                          pad | pad2 | mouse | kbd1 | kbd2  create that device
 *                          tap DEV CODE             press, sync, release, sync
 *                          emit DEV TYPE CODE VALUE one event (names as in
 *                                                   linux/input-event-codes.h)
 *                          sync DEV                 SYN_REPORT
 *                          unplug DEV               destroy the device
 *                        and answers each with "VH ok ..." or "VH error ..."
 *   vmhelper vt [N]      prints "VH vt active=A tty=N mode=text|graphics
 *                        kbmode=raw|xlate|mediumraw|unicode|off"
 *                        for /dev/ttyN (default: the active VT)
 *   vmhelper dfl CMD ARG...  runs CMD with every signal at its default
 *                        action and none blocked (a shell's background job
 *                        ignores SIGINT and SIGQUIT; a unit's game does not)
 *   vmhelper asuser UID CMD ARG...  runs CMD as user and group UID, with no
 *                        supplementary groups (busybox's setpriv cannot)
 *
 * Exit status 0, or 1 after a line on stdout naming what failed. */
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <grp.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

struct vdev {
	const char *name;
	struct libevdev_uinput *ui;
};

/* A new description of a USB device named name with ids vendor:product (and
 * version, unless 0), or NULL when out of memory. */
static struct libevdev *dev_new(const char *name, int vendor, int product, int version)
{
	struct libevdev *d = libevdev_new();

	if (!d)
		return NULL;
	libevdev_set_name(d, name);
	libevdev_set_id_bustype(d, BUS_USB);
	libevdev_set_id_vendor(d, vendor);
	libevdev_set_id_product(d, product);
	if (version)
		libevdev_set_id_version(d, version);
	return d;
}

/* The uinput device d describes, or NULL after a line on stdout naming it
 * (what); frees d either way (NULL d: NULL). */
static struct libevdev_uinput *dev_create(struct libevdev *d, const char *what)
{
	struct libevdev_uinput *ui = NULL;
	int rc;

	if (!d)
		return NULL;
	rc = libevdev_uinput_create_from_device(d, LIBEVDEV_UINPUT_OPEN_MANAGED, &ui);
	libevdev_free(d);
	if (rc < 0) {
		printf("VH error uinput %s: %s\n", what, strerror(-rc));
		return NULL;
	}
	return ui;
}

static struct libevdev_uinput *make_pad(void)
{
	static const int buttons[] = {
		BTN_SOUTH, BTN_EAST, BTN_NORTH, BTN_WEST, BTN_TL, BTN_TR, BTN_SELECT,
		BTN_START, BTN_MODE, BTN_THUMBL, BTN_THUMBR, BTN_DPAD_UP,
		BTN_DPAD_DOWN, BTN_DPAD_LEFT, BTN_DPAD_RIGHT,
	};
	struct input_absinfo stick = { .minimum = -32768, .maximum = 32767, .fuzz = 16, .flat = 128 };
	struct input_absinfo trigger = { .minimum = 0, .maximum = 255 };
	struct input_absinfo hat = { .minimum = -1, .maximum = 1 };
	/* Follows the kernel layout, and its ids (pid.codes' test vendor) are in
	 * no SDL mapping: pirogue's shipped database does not remap it (an Xbox
	 * 360 id would get SDL's "X360 Controller" line, whose d-pad is a hat). */
	struct libevdev *d = dev_new("vmrig virtual gamepad", 0x1209, 0x0001, 0x0100);

	if (!d)
		return NULL;
	libevdev_enable_event_type(d, EV_KEY);
	for (size_t i = 0; i < sizeof buttons / sizeof buttons[0]; i++)
		libevdev_enable_event_code(d, EV_KEY, buttons[i], NULL);
	libevdev_enable_event_type(d, EV_ABS);
	libevdev_enable_event_code(d, EV_ABS, ABS_X, &stick);
	libevdev_enable_event_code(d, EV_ABS, ABS_Y, &stick);
	libevdev_enable_event_code(d, EV_ABS, ABS_RX, &stick);
	libevdev_enable_event_code(d, EV_ABS, ABS_RY, &stick);
	libevdev_enable_event_code(d, EV_ABS, ABS_Z, &trigger);
	libevdev_enable_event_code(d, EV_ABS, ABS_RZ, &trigger);
	libevdev_enable_event_code(d, EV_ABS, ABS_HAT0X, &hat);
	libevdev_enable_event_code(d, EV_ABS, ABS_HAT0Y, &hat);
	return dev_create(d, "gamepad");
}

static struct libevdev_uinput *make_mouse(void)
{
	struct libevdev *d = dev_new("vmrig virtual mouse", 0x046d, 0xc077, 0);

	if (!d)
		return NULL;
	libevdev_enable_event_type(d, EV_KEY);
	libevdev_enable_event_code(d, EV_KEY, BTN_LEFT, NULL);
	libevdev_enable_event_code(d, EV_KEY, BTN_RIGHT, NULL);
	libevdev_enable_event_code(d, EV_KEY, BTN_MIDDLE, NULL);
	libevdev_enable_event_type(d, EV_REL);
	libevdev_enable_event_code(d, EV_REL, REL_X, NULL);
	libevdev_enable_event_code(d, EV_REL, REL_Y, NULL);
	libevdev_enable_event_code(d, EV_REL, REL_WHEEL, NULL);
	return dev_create(d, "mouse");
}

/* pad2: a pad that does not follow the kernel layout and that SDL's own
 * mappings know: the ids of a "Mayflash GameCube Controller"
 * (03000000790000004418000010010000: d-pad on b12..b15), 16 joystick
 * buttons BTN_TRIGGER..BTN_DEAD and six axes. */
static struct libevdev_uinput *make_mapped_pad(void)
{
	struct input_absinfo stick = { .minimum = 0, .maximum = 255, .value = 128 };
	struct libevdev *d = dev_new("vmrig mapped pad", 0x0079, 0x1844, 0x0110);

	if (!d)
		return NULL;
	libevdev_enable_event_type(d, EV_KEY);
	for (unsigned k = BTN_TRIGGER; k <= BTN_DEAD; k++)
		libevdev_enable_event_code(d, EV_KEY, k, NULL);
	libevdev_enable_event_type(d, EV_ABS);
	for (unsigned a = ABS_X; a <= ABS_RZ; a++)
		libevdev_enable_event_code(d, EV_ABS, a, &stick);
	return dev_create(d, "mapped pad");
}

/* A plain keyboard ("vmrig keyboard 1" / "2"): letters, digits, Enter,
 * punctuation and the modifiers. */
static struct libevdev_uinput *make_keyboard(const char *name)
{
	struct libevdev *d = dev_new(name, 0x1209, 0x0002, 0);

	if (!d)
		return NULL;
	libevdev_enable_event_type(d, EV_KEY);
	for (unsigned k = KEY_ESC; k <= KEY_KPDOT; k++)
		libevdev_enable_event_code(d, EV_KEY, k, NULL);
	return dev_create(d, name);
}

static struct vdev *find(struct vdev *devs, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (name && !strcmp(devs[i].name, name))
			return &devs[i];
	return NULL;
}

/* Parses a type name (EV_KEY) or number. */
static int parse_type(const char *s)
{
	char *end;
	long v = strtol(s, &end, 0);
	if (*s && !*end)
		return (int)v;
	return libevdev_event_type_from_name(s);
}

/* Parses a code name (BTN_SOUTH) of the given type, or a number. */
static int parse_code(int type, const char *s)
{
	char *end;
	long v = strtol(s, &end, 0);
	if (*s && !*end)
		return (int)v;
	return libevdev_event_code_from_name(type, s);
}

static int emit(struct vdev *d, int type, int code, int value)
{
	int rc = libevdev_uinput_write_event(d->ui, (unsigned)type, (unsigned)code, value);
	if (rc < 0)
		printf("VH error write %s: %s\n", d->name, strerror(-rc));
	return rc;
}

static int cmd_uinput(void)
{
	struct vdev devs[5] = { { "pad", NULL }, { "mouse", NULL }, { "kbd1", NULL }, { "kbd2", NULL },
				{ "pad2", NULL } };
	const int ndev = (int)(sizeof devs / sizeof devs[0]);
	char line[256];

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("VH ready\n");
	while (fgets(line, sizeof line, stdin)) {
		char *argv[6] = { 0 };
		int argc = 0;
		for (char *t = strtok(line, " \t\r\n"); t && argc < 6; t = strtok(NULL, " \t\r\n"))
			argv[argc++] = t;
		if (argc == 0)
			continue;
		struct vdev *d = find(devs, ndev, argc > 1 ? argv[1] : argv[0]);
		if (argc == 1 && find(devs, ndev, argv[0])) {
			d = find(devs, ndev, argv[0]);
			if (d->ui) {
				printf("VH error %s exists\n", d->name);
				continue;
			}
			d->ui = !strcmp(argv[0], "pad") ? make_pad() : !strcmp(argv[0], "pad2") ? make_mapped_pad() :
				!strcmp(argv[0], "mouse") ? make_mouse() :
				make_keyboard(!strcmp(argv[0], "kbd1") ? "vmrig keyboard 1" : "vmrig keyboard 2");
			if (d->ui)
				printf("VH ok %s %s\n", d->name, libevdev_uinput_get_devnode(d->ui)
					? libevdev_uinput_get_devnode(d->ui) : "(no devnode: is /sys mounted?)");
			continue;
		}
		if (!d || !d->ui) {
			printf("VH error %s: no such device (create it with pad, pad2, mouse, kbd1 or kbd2)\n",
			       argc > 1 ? argv[1] : argv[0]);
			continue;
		}
		if (!strcmp(argv[0], "unplug") && argc == 2) {
			libevdev_uinput_destroy(d->ui);
			d->ui = NULL;
			printf("VH ok unplug %s\n", d->name);
		} else if (!strcmp(argv[0], "sync") && argc == 2) {
			if (emit(d, EV_SYN, SYN_REPORT, 0) == 0)
				printf("VH ok sync %s\n", d->name);
		} else if (!strcmp(argv[0], "tap") && argc == 3) {
			int code = parse_code(EV_KEY, argv[2]);
			if (code < 0) {
				printf("VH error unknown key %s\n", argv[2]);
				continue;
			}
			if (emit(d, EV_KEY, code, 1) || emit(d, EV_SYN, SYN_REPORT, 0) ||
			    emit(d, EV_KEY, code, 0) || emit(d, EV_SYN, SYN_REPORT, 0))
				continue;
			printf("VH ok tap %s %s\n", d->name, argv[2]);
		} else if (!strcmp(argv[0], "emit") && argc == 5) {
			int type = parse_type(argv[2]);
			int code = type < 0 ? -1 : parse_code(type, argv[3]);
			if (code < 0) {
				printf("VH error unknown event %s %s\n", argv[2], argv[3]);
				continue;
			}
			if (emit(d, type, code, atoi(argv[4])) == 0)
				printf("VH ok emit %s %s %s %s\n", d->name, argv[2], argv[3], argv[4]);
		} else {
			printf("VH error bad command %s (see vmhelper.c)\n", argv[0]);
		}
	}
	for (int i = 0; i < ndev; i++)
		if (devs[i].ui)
			libevdev_uinput_destroy(devs[i].ui);
	printf("VH bye\n");
	return 0;
}

static int cmd_vt(int tty)
{
	struct vt_stat st;
	char path[32];
	int mode = -1, kb = -1;
	int fd = open("/dev/tty0", O_RDWR | O_CLOEXEC);

	if (fd < 0 || ioctl(fd, VT_GETSTATE, &st) < 0) {
		printf("VH error /dev/tty0 VT_GETSTATE: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	if (tty <= 0)
		tty = st.v_active;
	snprintf(path, sizeof path, "/dev/tty%d", tty);
	fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, KDGETMODE, &mode) < 0 || ioctl(fd, KDGKBMODE, &kb) < 0) {
		printf("VH error %s: %s\n", path, strerror(errno));
		return 1;
	}
	close(fd);
	const char *kbs = kb == K_RAW ? "raw" : kb == K_XLATE ? "xlate" : kb == K_MEDIUMRAW ? "mediumraw"
		: kb == K_UNICODE ? "unicode" : kb == K_OFF ? "off" : "unknown";
	printf("VH vt active=%d tty=%d mode=%s kbmode=%s\n", st.v_active, tty,
	       mode == KD_TEXT ? "text" : mode == KD_GRAPHICS ? "graphics" : "unknown", kbs);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "uinput"))
		return cmd_uinput();
	if (argc >= 2 && !strcmp(argv[1], "vt"))
		return cmd_vt(argc >= 3 ? atoi(argv[2]) : 0);
	if (argc >= 4 && !strcmp(argv[1], "asuser")) {
		uid_t id = (uid_t)atoi(argv[2]);
		if (setgroups(0, NULL) || setgid(id) || setuid(id)) {
			printf("VH error cannot become uid %u: %s\n", (unsigned)id, strerror(errno));
			return 1;
		}
		execvp(argv[3], argv + 3);
		printf("VH error cannot run %s: %s\n", argv[3], strerror(errno));
		return 1;
	}
	if (argc >= 3 && !strcmp(argv[1], "dfl")) {
		for (int s = 1; s < NSIG; s++)
			signal(s, SIG_DFL);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execvp(argv[2], argv + 2);
		printf("VH error cannot run %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	printf("VH error usage: vmhelper uinput | vmhelper vt [N]\n");
	return 1;
}
