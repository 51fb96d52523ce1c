/* evdev: the device side of input (see evdev.h); translation is in evmap.c, the gamepad database in evdb.c. */
#include "platform/evmap.h" /* first: it orders input.h before the kernel's key names */
#include "platform/evdev.h"
#include "platform/evdb.h"
#include "platform/devnode.h"
#include "platform/photons.h"
#include "core/log.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define EVDEV_MAX_DEVS 32
#define EVDEV_MAX_NOTES 64

struct evdev_dev {
	int fd;
	struct libevdev *ev;
	char node[32];   /* "event3" */
	char label[128]; /* the device's name */
	bool grabbed, grab_warned, led_caps;
	struct evm_dev m;
};

/* What we know about a node that is not open. */
enum note_state { NOTE_IGNORED, NOTE_PENDING, NOTE_FAILED };
struct note {
	char node[32];
	enum note_state state;
	uint64_t until_ms; /* NOTE_PENDING: report after this */
	int err;           /* NOTE_PENDING: the errno of the last refused open */
};

struct evdev {
	char dir[PATH_MAX];
	bool grab_opt, active;
	int ino, rep_fd, retry_fd;
	bool retry_armed;
	struct evdev_dev *dev[EVDEV_MAX_DEVS];
	int ndev;
	struct note note[EVDEV_MAX_NOTES];
	int nnote;
	struct evdb db;
	struct evm_mods mods;     /* modifiers and Caps Lock, shared by every keyboard */
	struct evm_pointer ptr;
	struct evdev_dev *rep_dev;
	uint32_t rep_gen;
	struct in_event carry[EVM_MAX_OUT];
	int ncarry;
};

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static bool is_event_node(const char *name)
{
	if (strncmp(name, "event", 5) || !name[5])
		return false;
	for (const char *p = name + 5; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return strlen(name) < sizeof ((struct note *)0)->node;
}

static void arm(int fd, int first_ms, int every_ms)
{
	struct itimerspec it = {
		.it_value = {first_ms / 1000, (long)(first_ms % 1000) * 1000000L},
		.it_interval = {every_ms / 1000, (long)(every_ms % 1000) * 1000000L},
	};
	timerfd_settime(fd, 0, &it, NULL);
}

/* ---------- notes on nodes that are not open ---------- */

static struct note *note_find(struct evdev *e, const char *node)
{
	for (int i = 0; i < e->nnote; i++)
		if (!strcmp(e->note[i].node, node))
			return &e->note[i];
	return NULL;
}

static void note_drop(struct evdev *e, const char *node)
{
	struct note *n = note_find(e, node);
	if (n)
		*n = e->note[--e->nnote];
}

static struct note *note_set(struct evdev *e, const char *node, enum note_state st)
{
	struct note *n = note_find(e, node);
	if (!n) {
		if (e->nnote == EVDEV_MAX_NOTES)
			return NULL;
		n = &e->note[e->nnote++];
		snprintf(n->node, sizeof n->node, "%s", node);
	}
	n->state = st;
	return n;
}

static void retry_timer_update(struct evdev *e)
{
	bool want = false;
	for (int i = 0; i < e->nnote; i++)
		want |= e->note[i].state == NOTE_PENDING;
	if (want != e->retry_armed) {
		arm(e->retry_fd, want ? EVDEV_RETRY_MS : 0, want ? EVDEV_RETRY_MS : 0);
		e->retry_armed = want;
	}
}

/* The kernel's name for a node we cannot open (best effort, for messages). */
static void sysfs_name(const char *node, char *buf, size_t len)
{
	char path[96];
	buf[0] = 0;
	if ((size_t)snprintf(path, sizeof path, "/sys/class/input/%.40s/device/name", node) >= sizeof path)
		return;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

static void report_denied(const struct evdev *e, const char *node, int err)
{
	char name[128];
	sysfs_name(node, name, sizeof name);
	log_error("%s/%s%s%s%s: %s; %s", e->dir, node, name[0] ? " (" : "", name, name[0] ? ")" : "", strerror(err),
		  devnode_advice(DEVNODE_INPUT, err));
}

/* ---------- devices ---------- */

static void caps_from(struct libevdev *ev, struct evm_caps *c)
{
	memset(c, 0, sizeof *c);
	for (unsigned k = 0; k < KEY_CNT; k++)
		if (libevdev_has_event_code(ev, EV_KEY, k))
			EVM_SET(c, key, k);
	for (unsigned k = 0; k < REL_CNT; k++)
		if (libevdev_has_event_code(ev, EV_REL, k))
			EVM_SET(c, rel, k);
	for (unsigned k = 0; k < ABS_CNT; k++)
		if (libevdev_has_event_code(ev, EV_ABS, k))
			EVM_SET(c, abs, k);
	for (unsigned k = 0; k < INPUT_PROP_CNT; k++)
		if (libevdev_has_property(ev, k))
			EVM_SET(c, prop, k);
	c->bus = (uint16_t)libevdev_get_id_bustype(ev);
	c->vendor = (uint16_t)libevdev_get_id_vendor(ev);
	c->product = (uint16_t)libevdev_get_id_product(ev);
	c->version = (uint16_t)libevdev_get_id_version(ev);
	snprintf(c->name, sizeof c->name, "%s", libevdev_get_name(ev) ? libevdev_get_name(ev) : "");
}

static const char *class_name(unsigned cls)
{
	static const char *const names[8] = {
		"ignored", "keyboard", "gamepad", "keyboard+gamepad", "mouse", "keyboard+mouse",
		"gamepad+mouse", "keyboard+gamepad+mouse",
	};
	return names[cls & 7];
}

/* The gamepad map for a device: a DB entry for its GUID, else the kernel layout. */
static void pick_padmap(const struct evdb *db, struct evm_dev *m, const struct evm_caps *c, const char *path)
{
	uint8_t guid[16];
	char gs[33];
	evm_guid(c, guid);
	evdb_guid_str(guid, gs);
	const struct evdb_entry *entry = evdb_find(db, guid);
	if (entry) {
		evm_padmap_from_db(&m->map, entry, c);
		log_info("%s: gamepad %s mapped by \"%s\" from %s:%d", path, gs, entry->name, entry->src,
			 entry->line);
	} else {
		log_info("%s: gamepad %s: no mapping for it, kernel layout", path, gs);
	}
}

/* Takes in a pad's current axes and buttons without a word, as SDL reads
 * them when it opens a pad: an axis bound to a button that rests past its
 * middle is down from the start, so it never fires by itself. */
static void pad_initial_state(struct evdev *e, struct evdev_dev *d)
{
	struct in_event scratch[EVM_MAX_OUT];
	evm_dev_sync_begin(&d->m);
	for (unsigned a = 0; a < ABS_CNT; a++)
		if (libevdev_has_event_code(d->ev, EV_ABS, a))
			evm_dev_feed(&d->m, &e->ptr, EV_ABS, a, libevdev_get_event_value(d->ev, EV_ABS, a), scratch);
	for (unsigned k = BTN_MISC; k < KEY_CNT; k++)
		if (libevdev_has_event_code(d->ev, EV_KEY, k) && libevdev_get_event_value(d->ev, EV_KEY, k))
			evm_dev_feed(&d->m, &e->ptr, EV_KEY, k, 1, scratch);
	evm_dev_sync_end(&d->m, &e->ptr);
}

static void dev_grab(struct evdev_dev *d, bool on)
{
	if (on == d->grabbed)
		return;
	if (libevdev_grab(d->ev, on ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB) == 0) {
		d->grabbed = on;
	} else if (on && !d->grab_warned) {
		/* still usable, but another program sees its input too */
		log_error("%s (%s): cannot take it exclusively (another program holds it); its keys "
			  "may also reach that program", d->node, d->label);
		d->grab_warned = true;
	}
}

static void dev_free(struct evdev_dev *d)
{
	if (!d)
		return;
	if (d->ev) {
		if (d->grabbed)
			libevdev_grab(d->ev, LIBEVDEV_UNGRAB);
		libevdev_free(d->ev);
	}
	if (d->fd >= 0)
		close(d->fd);
	free(d);
}

static void repeat_stop(struct evdev *e)
{
	if (e->rep_dev) {
		arm(e->rep_fd, 0, 0);
		e->rep_dev = NULL;
	}
}

static void dev_drop(struct evdev *e, int i)
{
	struct evdev_dev *d = e->dev[i];
	if (e->rep_dev == d)
		repeat_stop(e);
	log_info("%s/%s (%s): gone", e->dir, d->node, d->label);
	evm_dev_release_all(&d->m); /* its modifiers no longer shift the other keyboards */
	dev_free(d);
	e->dev[i] = e->dev[--e->ndev];
}

static int dev_index(const struct evdev *e, const char *node)
{
	for (int i = 0; i < e->ndev; i++)
		if (!strcmp(e->dev[i]->node, node))
			return i;
	return -1;
}

/* Tries to open and classify a node. fresh: it has just appeared (or changed
 * permissions), so a permission failure is retried for a while before it is
 * reported. */
static void try_open(struct evdev *e, const char *node, bool fresh)
{
	char path[PATH_MAX + 40];
	struct evm_caps caps;
	struct evdev_dev *d = NULL;
	struct note *n = note_find(e, node);
	if (dev_index(e, node) >= 0 || (n && n->state == NOTE_IGNORED))
		return;
	if (e->ndev == EVDEV_MAX_DEVS) {
		if (!n && note_set(e, node, NOTE_FAILED))
			log_error("%s/%s: not opened: more than %d input devices", e->dir, node, EVDEV_MAX_DEVS);
		return;
	}
	snprintf(path, sizeof path, "%s/%s", e->dir, node);
	int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS))
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* read is all we need */
	if (fd < 0) {
		int err = errno;
		if (err == ENOENT || err == ENODEV || err == ENXIO) {
			note_drop(e, node); /* gone again already */
		} else if (err == EACCES || err == EPERM) {
			if (fresh && (!n || n->state == NOTE_PENDING)) {
				if (!n && (n = note_set(e, node, NOTE_PENDING)))
					n->until_ms = now_ms() + EVDEV_RETRY_FOR_MS;
				if (n)
					n->err = err;
			} else if (!n || n->state != NOTE_FAILED) {
				note_set(e, node, NOTE_FAILED);
				report_denied(e, node, err);
			}
		} else if (!n || n->state != NOTE_FAILED) {
			note_set(e, node, NOTE_FAILED);
			log_error("%s: cannot open input device: %s", path, strerror(err));
		}
		retry_timer_update(e);
		return;
	}
	if (!(d = calloc(1, sizeof *d))) {
		log_error("%s: out of memory opening input device", path);
		close(fd);
		return;
	}
	d->fd = fd;
	snprintf(d->node, sizeof d->node, "%s", node);
	int rc = libevdev_new_from_fd(fd, &d->ev);
	if (rc < 0) {
		d->ev = NULL;
		note_set(e, node, NOTE_IGNORED);
		log_error("%s: not an input device (%s); ignored", path, strerror(-rc));
		goto fail;
	}
	/* timestamps on the clock of drm's flip events, for input to photons
	 * (a kernel without EVIOCSCLOCKID keeps wall-clock ones: the spans
	 * from them are then wrong, nothing else is) */
	(void)libevdev_set_clock_id(d->ev, CLOCK_MONOTONIC);
	caps_from(d->ev, &caps);
	snprintf(d->label, sizeof d->label, "%s", caps.name);
	const char *why;
	unsigned cls = evm_classify(&caps, &why);
	if (!cls) {
		note_set(e, node, NOTE_IGNORED);
		log_info("%s (%s): ignored: %s", path, d->label, why);
		goto fail;
	}
	for (unsigned a = 0; a < ABS_CNT; a++) {
		const struct input_absinfo *ai = libevdev_get_abs_info(d->ev, a);
		d->m.absmin[a] = ai ? ai->minimum : -1;
		d->m.absmax[a] = ai ? ai->maximum : 1;
	}
	evm_dev_init(&d->m, cls, &caps);
	if (cls & EVM_GAMEPAD) {
		pick_padmap(&e->db, &d->m, &caps, path);
		pad_initial_state(e, d);
	}
	evm_dev_share(&d->m, &e->mods);
	if (cls & EVM_KEYBOARD) {
		d->led_caps = libevdev_get_event_value(d->ev, EV_LED, LED_CAPSL) > 0;
		if (!evdev_count(e, DEV_KEYBOARD))
			evm_dev_set_caps(&d->m, d->led_caps); /* the first keyboard tells */
	}
	note_drop(e, node);
	retry_timer_update(e);
	if (e->active && e->grab_opt)
		dev_grab(d, true);
	log_info("%s (%s): %s, %s", path, d->label, class_name(cls), why);
	e->dev[e->ndev++] = d;
	return;
fail:
	dev_free(d);
	retry_timer_update(e);
}

static void drop_node(struct evdev *e, const char *node)
{
	int i = dev_index(e, node);
	if (i >= 0)
		dev_drop(e, i);
	note_drop(e, node);
	retry_timer_update(e);
}

static int node_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	long nx = strtol(x + 5, NULL, 10), ny = strtol(y + 5, NULL, 10);
	return nx < ny ? -1 : nx > ny;
}

static void free_nodes(char **v, int n)
{
	for (int i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* Lists the event nodes of dir, sorted by number. Returns the count (names
 * in *out, to free with free_nodes) or a negative errno. */
static int scan_nodes(const char *dir, char ***out)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	int n = 0, cap = 0;
	*out = NULL;
	if (!dp)
		return -errno;
	while ((de = readdir(dp))) {
		if (!is_event_node(de->d_name))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			char **nv = realloc(v, (size_t)cap * sizeof *nv);
			if (!nv)
				goto nomem;
			v = nv;
		}
		if (!(v[n] = strdup(de->d_name)))
			goto nomem;
		n++;
	}
	closedir(dp);
	if (n)
		qsort(v, (size_t)n, sizeof *v, node_cmp);
	*out = v;
	return n;
nomem:
	/* a partial list would drop devices without a word: none at all */
	closedir(dp);
	free_nodes(v, n);
	return -ENOMEM;
}

static void rescan(struct evdev *e)
{
	char **nodes;
	int n = scan_nodes(e->dir, &nodes);
	if (n < 0)
		log_error("%s: cannot list input devices: %s; devices already open stay, others are seen "
			  "when plugged in", e->dir, strerror(-n));
	for (int i = 0; i < n; i++)
		try_open(e, nodes[i], false);
	if (n >= 0)
		free_nodes(nodes, n);
	/* devices whose node went away while we were not looking */
	for (int i = e->ndev - 1; i >= 0; i--) {
		char path[PATH_MAX + 40];
		snprintf(path, sizeof path, "%s/%s", e->dir, e->dev[i]->node);
		if (access(path, F_OK))
			dev_drop(e, i);
	}
}

/* Reads the gamepad mappings: the shipped database, the user's file, then
 * SDL_GAMECONTROLLERCONFIG, each overriding the ones before per GUID.
 * Returns 0, or the negative errno of the user's file (already reported). */
static int load_mappings(struct evdb *db, const struct evdev_opts *o)
{
	const char *env = getenv("SDL_GAMECONTROLLERCONFIG");
	int rc = 0, n;
	if (o && o->default_db) {
		db->quiet = true; /* what SDL skips in its own list is no news */
		if ((n = evdb_load_file(db, o->default_db)) >= 0)
			log_info("%s: %d gamepad mappings", o->default_db, n);
		db->quiet = false;
	}
	if (o && o->gamepad_db) {
		if ((n = evdb_load_file(db, o->gamepad_db)) >= 0)
			log_info("%s: %d gamepad mappings", o->gamepad_db, n);
		else
			rc = n;
	}
	if (env && *env)
		evdb_add_text(db, env, "SDL_GAMECONTROLLERCONFIG", 0);
	return rc;
}

int evdev_open(struct evdev **out, const struct evdev_opts *o)
{
	struct evdev *e;
	const char *dir = o && o->dir ? o->dir : "/dev/input";
	int rc;
	*out = NULL;
	if (!(e = calloc(1, sizeof *e))) {
		log_error("out of memory opening input devices");
		return -ENOMEM;
	}
	e->ino = e->rep_fd = e->retry_fd = -1;
	snprintf(e->dir, sizeof e->dir, "%s", dir);
	e->grab_opt = o && o->grab;
	e->active = true;
	e->ptr.cx = e->ptr.cy = -1;
	if ((e->ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) < 0 ||
	    inotify_add_watch(e->ino, e->dir, IN_CREATE | IN_ATTRIB | IN_DELETE | IN_MOVED_TO |
					      IN_MOVED_FROM | IN_DELETE_SELF) < 0) {
		rc = -errno;
		log_error("%s: cannot watch for input devices: %s", e->dir, strerror(errno));
		goto fail;
	}
	if ((e->rep_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)) < 0 ||
	    (e->retry_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)) < 0) {
		rc = -errno;
		log_error("cannot create input timers: %s", strerror(errno));
		goto fail;
	}
	load_mappings(&e->db, o);
	rescan(e);
	*out = e;
	return 0;
fail:
	evdev_close(e);
	return rc;
}

void evdev_close(struct evdev *e)
{
	if (!e)
		return;
	for (int i = 0; i < e->ndev; i++)
		dev_free(e->dev[i]);
	if (e->ino >= 0)
		close(e->ino);
	if (e->rep_fd >= 0)
		close(e->rep_fd);
	if (e->retry_fd >= 0)
		close(e->retry_fd);
	evdb_free(&e->db);
	free(e);
}

int evdev_poll_fds(struct evdev *e, int *fds, int max)
{
	if (max < 3 + e->ndev)
		return -ENOSPC;
	int n = 0;
	fds[n++] = e->ino;
	fds[n++] = e->rep_fd;
	fds[n++] = e->retry_fd;
	for (int i = 0; i < e->ndev; i++)
		fds[n++] = e->dev[i]->fd;
	return n;
}

void evdev_set_pointer_space(struct evdev *e, int px_w, int px_h, int cell_w, int cell_h)
{
	evm_pointer_space(&e->ptr, px_w, px_h, cell_w, cell_h);
}

void evdev_grab(struct evdev *e, bool on)
{
	e->active = on;
	if (!on) {
		repeat_stop(e);
		for (int i = 0; i < e->ndev; i++)
			e->dev[i]->m.hold.on = false;
	}
	for (int i = 0; i < e->ndev; i++)
		dev_grab(e->dev[i], on && e->grab_opt);
}

int evdev_count(const struct evdev *e, enum dev_kind kind)
{
	unsigned want = kind == DEV_KEYBOARD ? EVM_KEYBOARD : kind == DEV_GAMEPAD ? EVM_GAMEPAD :
			kind == DEV_MOUSE ? EVM_MOUSE : 0;
	int n = 0;
	for (int i = 0; i < e->ndev; i++)
		n += (e->dev[i]->m.cls & want) != 0;
	return n;
}

/* ---------- dispatch ---------- */

static void hotplug(struct evdev *e)
{
	union {
		struct inotify_event ev;
		char buf[4096];
	} u;
	ssize_t len;
	while ((len = read(e->ino, u.buf, sizeof u.buf)) > 0) {
		for (char *p = u.buf; p < u.buf + len;) {
			struct inotify_event *ie = (struct inotify_event *)(void *)p;
			p += sizeof *ie + ie->len;
			if (ie->mask & IN_Q_OVERFLOW) {
				rescan(e);
				continue;
			}
			if (ie->mask & IN_DELETE_SELF) {
				log_error("%s: the input directory went away; no more hotplug", e->dir);
				continue;
			}
			if (!ie->len || !is_event_node(ie->name))
				continue;
			if (ie->mask & (IN_DELETE | IN_MOVED_FROM))
				drop_node(e, ie->name);
			else if (ie->mask & (IN_CREATE | IN_MOVED_TO | IN_ATTRIB))
				try_open(e, ie->name, true);
		}
	}
}

static void retry_pending(struct evdev *e)
{
	char pending[EVDEV_MAX_NOTES][32];
	int np = 0;
	for (int i = 0; i < e->nnote; i++)
		if (e->note[i].state == NOTE_PENDING)
			memcpy(pending[np++], e->note[i].node, sizeof e->note[i].node);
	uint64_t t = now_ms();
	for (int i = 0; i < np; i++) {
		try_open(e, pending[i], true);
		struct note *n = note_find(e, pending[i]);
		if (n && n->state == NOTE_PENDING && t >= n->until_ms) {
			n->state = NOTE_FAILED;
			report_denied(e, pending[i], n->err);
		}
	}
	retry_timer_update(e);
}

/* Copies produced events to the caller's buffer, the rest to the carry. */
static int emit(struct evdev *e, const struct in_event *src, int k, struct in_event *ev, int n, int max)
{
	for (int i = 0; i < k; i++) {
		if (n < max)
			ev[n++] = src[i];
		else if (e->ncarry < EVM_MAX_OUT)
			e->carry[e->ncarry++] = src[i];
	}
	return n;
}

static void repeat_update(struct evdev *e, struct evdev_dev *d)
{
	if (d->m.hold.on && e->active) {
		if (e->rep_dev != d || e->rep_gen != d->m.hold.gen) {
			e->rep_dev = d;
			e->rep_gen = d->m.hold.gen;
			arm(e->rep_fd, EVDEV_REPEAT_DELAY_MS, EVDEV_REPEAT_INTERVAL_MS);
		}
	} else if (e->rep_dev == d) {
		repeat_stop(e);
	}
}

/* Every keyboard's Caps Lock LED shows the shared Caps Lock. */
static void sync_leds(struct evdev *e)
{
	bool caps = e->mods.caps;
	for (int i = 0; i < e->ndev; i++) {
		struct evdev_dev *d = e->dev[i];
		if ((d->m.cls & EVM_KEYBOARD) && d->led_caps != caps) {
			d->led_caps = caps;
			libevdev_kernel_set_led_value(d->ev, LED_CAPSL, caps ? LIBEVDEV_LED_ON : LIBEVDEV_LED_OFF);
		}
	}
}

static int read_device(struct evdev *e, int idx, struct in_event *ev, int n, int max)
{
	struct evdev_dev *d = e->dev[idx];
	struct input_event ie;
	struct in_event tmp[EVM_MAX_OUT];
	bool muted = !e->active;
	int rc;
	if (muted)
		evm_dev_sync_begin(&d->m);
	while (n < max && e->ncarry == 0) {
		rc = libevdev_next_event(d->ev, LIBEVDEV_READ_FLAG_NORMAL, &ie);
		if (rc == -EAGAIN)
			break;
		if (rc == LIBEVDEV_READ_STATUS_SYNC) {
			/* events were lost: take the state libevdev re-read, quietly */
			evm_dev_sync_begin(&d->m);
			while ((rc = libevdev_next_event(d->ev, LIBEVDEV_READ_FLAG_SYNC, &ie)) ==
			       LIBEVDEV_READ_STATUS_SYNC)
				evm_dev_feed(&d->m, &e->ptr, ie.type, ie.code, ie.value, tmp);
			if (!muted)
				evm_dev_sync_end(&d->m, &e->ptr);
			log_info("%s (%s): events dropped by the kernel; state re-read", d->node, d->label);
			if (rc == -EAGAIN || rc >= 0)
				continue;
		}
		if (rc < 0) {
			if (muted)
				evm_dev_sync_end(&d->m, &e->ptr);
			if (rc != -ENODEV)
				log_error("%s (%s): read error: %s; device dropped", d->node, d->label,
					  strerror(-rc));
			dev_drop(e, idx);
			return n;
		}
		if (ie.type == EV_KEY && ie.value == 1 && !muted) /* a press: timed to the frame that shows it */
			photons_input(NULL, (int64_t)ie.input_event_sec * 1000000 + ie.input_event_usec,
				      photons_now_us());
		int k = evm_dev_feed(&d->m, &e->ptr, ie.type, ie.code, ie.value, tmp);
		n = emit(e, tmp, k, ev, n, max);
	}
	if (muted)
		evm_dev_sync_end(&d->m, &e->ptr);
	repeat_update(e, d);
	sync_leds(e);
	return n;
}

int evdev_dispatch(struct evdev *e, int fd, struct in_event *ev, int max)
{
	int n = 0;
	uint64_t expiries;
	while (e->ncarry && n < max) {
		ev[n++] = e->carry[0];
		memmove(e->carry, e->carry + 1, (size_t)--e->ncarry * sizeof *e->carry);
	}
	if (n == max)
		return n;
	if (fd == e->ino) {
		hotplug(e);
	} else if (fd == e->rep_fd) {
		if (read(fd, &expiries, sizeof expiries) == (ssize_t)sizeof expiries && e->rep_dev && e->active) {
			/* The holding device's events first: after a slow frame the
			 * timer and the key's release wait together, and a repeat
			 * of a key already let go made one tap two moves. */
			struct evdev_dev *d = e->rep_dev;
			uint32_t gen = d->m.hold.gen;
			for (int i = 0; i < e->ndev; i++)
				if (e->dev[i] == d) {
					n = read_device(e, i, ev, n, max);
					break;
				}
			/* (dropped: rep_dev was cleared before d was freed) */
			if (e->rep_dev == d && d->m.hold.on && d->m.hold.gen == gen && n < max)
				ev[n++] = d->m.hold.ev; /* one per wake-up, never a burst */
		}
	} else if (fd == e->retry_fd) {
		if (read(fd, &expiries, sizeof expiries) == (ssize_t)sizeof expiries)
			retry_pending(e);
	} else {
		for (int i = 0; i < e->ndev; i++)
			if (e->dev[i]->fd == fd)
				return read_device(e, i, ev, n, max);
	}
	return n;
}

/* ---------- --list-inputs ---------- */

int evdev_list(FILE *out, const struct evdev_opts *o)
{
	const char *dir = o && o->dir ? o->dir : "/dev/input";
	struct evdb db = {0};
	char **nodes;
	/* the mappings first: a broken --gamepad-db shows even with no pad */
	int rc = load_mappings(&db, o);
	int n = scan_nodes(dir, &nodes);
	if (n > 0 && !nodes) /* never: said for the clang analyzer, which takes -errno for >= 0 */
		n = -ENOMEM;
	if (n < 0) {
		fprintf(out, "%s: cannot read: %s\n", dir, strerror(-n));
		evdb_free(&db);
		return n;
	}
	if (n == 0)
		fprintf(out, "%s: no input devices (event nodes)\n", dir);
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX + 40], name[128];
		struct libevdev *ev = NULL;
		snprintf(path, sizeof path, "%s/%s", dir, nodes[i]);
		int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			int err = errno;
			sysfs_name(nodes[i], name, sizeof name);
			const char *fix = devnode_advice(DEVNODE_INPUT, err);
			fprintf(out, "%s%s%s%s: cannot open: %s%s%s\n", path, name[0] ? " \"" : "", name,
				name[0] ? "\"" : "", strerror(err), fix[0] ? "; " : "", fix);
			continue;
		}
		int erc = libevdev_new_from_fd(fd, &ev);
		if (erc < 0) {
			fprintf(out, "%s: not an input device (%s)\n", path, strerror(-erc));
			close(fd);
			continue;
		}
		struct evm_caps caps;
		const char *why;
		caps_from(ev, &caps);
		unsigned cls = evm_classify(&caps, &why);
		fprintf(out, "%s \"%s\" %04x:%04x: %s (%s)", path, caps.name, caps.vendor, caps.product,
			class_name(cls), why);
		if (cls & EVM_GAMEPAD) {
			uint8_t guid[16];
			char gs[33];
			evm_guid(&caps, guid);
			evdb_guid_str(guid, gs);
			const struct evdb_entry *entry = evdb_find(&db, guid);
			if (entry)
				fprintf(out, ", guid %s, mapping: \"%s\" from %s:%d", gs, entry->name, entry->src,
					entry->line);
			else
				fprintf(out, ", guid %s, mapping: kernel layout", gs);
		}
		fprintf(out, ", %s\n", cls ? "opened" : "opened, not used");
		libevdev_free(ev);
		close(fd);
	}
	free_nodes(nodes, n);
	evdb_free(&db);
	return rc;
}
