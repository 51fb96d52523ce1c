#include "platform/vt.h"
#include "platform/devnode.h"
#include "platform/holders.h"
#include "core/log.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define TTY_MAJOR_ 4
#define VT_MAX_ 63

struct vt {
	int fd;
	int num;         /* our VT */
	int prev_active; /* VT active before vt_open switched, 0 when it did not */
	int old_kdmode;
	int old_kbmode;
	struct vt_mode old_vtmode;
	int set_kd, set_kb, set_vt; /* what we changed (to restore) */
};

/* The one open vt, for vt_emergency_restore (the module's file-static instance). */
static struct vt *vt_instance;

/* The VT number of character device st, or 0. */
static int vt_of_stat(const struct stat *st)
{
	if (!S_ISCHR(st->st_mode) || major(st->st_rdev) != TTY_MAJOR_)
		return 0;
	unsigned mi = minor(st->st_rdev);
	return mi >= 1 && mi <= VT_MAX_ ? (int)mi : 0;
}

/* The VT this process runs on: stdin, stdout, stderr, then the controlling
 * terminal from /proc/self/stat. 0 when none is a VT. */
static int current_vt(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		struct stat st;
		if (!fstat(fd, &st) && vt_of_stat(&st))
			return vt_of_stat(&st);
	}
	/* /dev/console or /dev/tty0 (a program started by init): they stand
	 * for the VT shown now, when the console is a VT at all */
	for (int fd = 0; fd <= 2; fd++) {
		struct stat st;
		struct vt_stat vs;
		if (!fstat(fd, &st) && S_ISCHR(st.st_mode) &&
		    ((major(st.st_rdev) == 5 && minor(st.st_rdev) == 1) ||
		     (major(st.st_rdev) == TTY_MAJOR_ && minor(st.st_rdev) == 0)) &&
		    ioctl(fd, VT_GETSTATE, &vs) == 0 && vs.v_active >= 1 && vs.v_active <= VT_MAX_)
			return vs.v_active;
	}
	FILE *f = fopen("/proc/self/stat", "r");
	if (!f)
		return 0;
	char buf[1024];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	/* field 7 (tty_nr) comes after the ")" that closes the command name */
	char *p = strrchr(buf, ')');
	int tty_nr = 0;
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %d", &tty_nr) != 1)
		return 0;
	unsigned ma = ((unsigned)tty_nr >> 8) & 0xff, mi = ((unsigned)tty_nr & 0xff) | (((unsigned)tty_nr >> 12) & 0xfff00);
	return ma == TTY_MAJOR_ && mi >= 1 && mi <= VT_MAX_ ? (int)mi : 0;
}

static int signals_blocked(void)
{
	sigset_t cur;
	if (sigprocmask(SIG_BLOCK, NULL, &cur))
		return 0;
	return sigismember(&cur, VT_RELEASE_SIGNAL) == 1 && sigismember(&cur, VT_ACQUIRE_SIGNAL) == 1;
}

static void restore(struct vt *v)
{
	if (v->set_vt) {
		/* always VT_AUTO: a VT_PROCESS mode found at start belonged to a
		 * process that is gone or will not answer for this one */
		struct vt_mode m = { .mode = VT_AUTO };
		ioctl(v->fd, VT_SETMODE, &m);
	}
	/* A console found in graphics mode or with the keyboard off was left so
	 * by a program that crashed: give it back usable, not as found. */
	if (v->set_kb)
		ioctl(v->fd, KDSKBMODE, v->old_kbmode == K_OFF ? K_UNICODE : v->old_kbmode);
	if (v->set_kd)
		ioctl(v->fd, KDSETMODE, KD_TEXT);
}

int vt_open(struct vt **out, int vtnum)
{
	*out = NULL;
	if (vt_instance) {
		log_error("virtual terminal: already taken by this program");
		return -EBUSY;
	}
	if (vtnum < 0 || vtnum > VT_MAX_) {
		log_error("--vt %d: a VT number is 1..%d", vtnum, VT_MAX_);
		return -EINVAL;
	}
	if (!signals_blocked()) {
		log_error("virtual terminal: SIGUSR1/SIGUSR2 must be blocked (signalfd) before taking the VT");
		return -EINVAL;
	}
	struct vt *v = calloc(1, sizeof *v);
	if (!v)
		return -ENOMEM;
	v->fd = -1;
	int rc;
	int num = vtnum ? vtnum : current_vt();
	if (!num) {
		log_error("not running on a virtual console (stdin is not /dev/ttyN, e.g. over SSH or in a terminal window): "
			  "use --vt N to run on VT N (a free one, as root or from the tty group)");
		rc = -ENOTTY;
		goto fail;
	}
	v->num = num;
	char path[32];
	snprintf(path, sizeof path, "/dev/tty%d", num);
	v->fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (v->fd < 0) {
		rc = -errno;
		if (rc == -EACCES || rc == -EPERM)
			log_error("%s: %s: %s", path, strerror(-rc), devnode_advice(DEVNODE_TTY, -rc));
		else
			log_error("%s: %s: pick another VT with --vt N", path, strerror(-rc));
		goto fail;
	}
	if (ioctl(v->fd, KDGETMODE, &v->old_kdmode) < 0 || ioctl(v->fd, KDGKBMODE, &v->old_kbmode) < 0 ||
	    ioctl(v->fd, VT_GETMODE, &v->old_vtmode) < 0) {
		rc = -errno;
		log_error("%s: not a virtual console (%s): use --vt N", path, strerror(-rc));
		goto fail;
	}
	if (vtnum) {
		struct vt_stat st;
		if (ioctl(v->fd, VT_GETSTATE, &st) == 0 && st.v_active != num) {
			v->prev_active = st.v_active;
			if (ioctl(v->fd, VT_ACTIVATE, num) < 0) {
				rc = -errno;
				log_error("%s: cannot switch to VT %d (%s): run as root or from a console login",
					  path, num, strerror(-rc));
				v->prev_active = 0;
				goto fail;
			}
			/* not VT_WAITACTIVE: it waits forever when the VT shown now
			 * belongs to a program that refuses to let go */
			int waited = 0;
			while (ioctl(v->fd, VT_GETSTATE, &st) == 0 && st.v_active != num && waited < 5000) {
				usleep(20000);
				waited += 20;
			}
			if (st.v_active != num) {
				log_error("%s: VT %d did not become active within 5 s: the program on VT %d (an X or "
					  "Wayland session?) keeps the console; stop it or pick a VT from a text login",
					  path, num, v->prev_active);
				v->prev_active = 0;
				rc = -EBUSY;
				goto fail;
			}
		}
	}
	if (ioctl(v->fd, KDSETMODE, KD_GRAPHICS) < 0) {
		rc = -errno;
		log_error("%s: cannot switch to graphics mode (%s): run as root or from a login on that console",
			  path, strerror(-rc));
		goto fail;
	}
	v->set_kd = 1;
	if (ioctl(v->fd, KDSKBMODE, K_OFF) < 0) {
		rc = -errno;
		log_error("%s: cannot mute the console keyboard (%s)", path, strerror(-rc));
		goto fail;
	}
	v->set_kb = 1;
	struct vt_mode m = { .mode = VT_PROCESS, .relsig = VT_RELEASE_SIGNAL, .acqsig = VT_ACQUIRE_SIGNAL };
	if (ioctl(v->fd, VT_SETMODE, &m) < 0) {
		rc = -errno;
		log_error("%s: cannot control VT switching (%s)", path, strerror(-rc));
		goto fail;
	}
	v->set_vt = 1;
	vt_instance = v;
	*out = v;
	return 0;
fail:
	if (v->fd >= 0) {
		restore(v);
		if (v->prev_active)
			ioctl(v->fd, VT_ACTIVATE, v->prev_active);
		close(v->fd);
	}
	free(v);
	return rc;
}

void vt_close(struct vt *v)
{
	if (!v)
		return;
	restore(v);
	if (v->prev_active) {
		struct vt_stat st;
		/* go back only if nobody switched elsewhere meanwhile */
		if (ioctl(v->fd, VT_GETSTATE, &st) == 0 && st.v_active == v->num)
			ioctl(v->fd, VT_ACTIVATE, v->prev_active);
	}
	close(v->fd);
	if (vt_instance == v)
		vt_instance = NULL;
	free(v);
}

int vt_number(const struct vt *v) { return v ? v->num : 0; }

void vt_release_ack(struct vt *v)
{
	if (v && ioctl(v->fd, VT_RELDISP, 1) < 0)
		log_error("/dev/tty%d: VT_RELDISP: %s", v->num, strerror(errno));
}

void vt_acquire_ack(struct vt *v)
{
	if (v && ioctl(v->fd, VT_RELDISP, VT_ACKACQ) < 0)
		log_error("/dev/tty%d: VT_RELDISP (acquire): %s", v->num, strerror(errno));
}

int vt_switch_to(struct vt *v, int n)
{
	if (!v || n < 1 || n > VT_MAX_)
		return -EINVAL;
	if (ioctl(v->fd, VT_ACTIVATE, n) < 0)
		return -errno;
	return 0;
}

/* Whether character device rdev shows pictures: a DRM primary node
 * (/dev/dri/cardN, major 226, minor < 64) or a framebuffer (major 29). */
static int is_display_dev(dev_t rdev)
{
	return (major(rdev) == 226 && minor(rdev) < 64) || major(rdev) == 29;
}

struct tty_set {
	const dev_t *ttys;
	int nttys;
};

/* Bit 1: one of the ttys; bit 2: a display device. */
static unsigned tty_or_display(dev_t rdev, void *ctx)
{
	const struct tty_set *t = ctx;
	unsigned k = is_display_dev(rdev) ? 2 : 0;
	for (int i = 0; i < t->nttys; i++)
		if (rdev == t->ttys[i])
			k |= 1;
	return k;
}

int vt_display_holders(const char *proc, const dev_t *ttys, int nttys, pid_t self, char *who, size_t len)
{
	struct tty_set t = { ttys, nttys };
	return holders_find(proc, self, tty_or_display, &t, 3, 0, who, len);
}

/* The names of the modes vt_reset changes, for its report. */
static const char *kd_name(int kd)
{
	return kd == KD_TEXT ? "text" : kd == KD_GRAPHICS ? "graphics" : "unknown";
}

static const char *kb_name(int kb)
{
	return kb == K_OFF ? "off" : kb == K_UNICODE ? "unicode" : kb == K_XLATE ? "xlate" : kb == K_RAW ? "raw"
	       : kb == K_MEDIUMRAW ? "mediumraw" : "unknown";
}

int vt_reset(int n, bool force)
{
	if (n < 1 || n > VT_MAX_) {
		log_error("VT %d: a VT number is 1..%d", n, VT_MAX_);
		return -EINVAL;
	}
	char path[32];
	snprintf(path, sizeof path, "/dev/tty%d", n);
	int fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		int rc = -errno;
		log_error("%s: %s%s", path, strerror(-rc), rc == -EACCES ? ": run as root" : "");
		return rc;
	}
	int kd, kb = -1, rc = 0;
	struct vt_mode old = { .mode = VT_AUTO };
	if (ioctl(fd, KDGETMODE, &kd) < 0) {
		rc = -errno;
		log_error("%s: not a virtual console (%s)", path, strerror(-rc));
		goto out;
	}
	ioctl(fd, KDGKBMODE, &kb);
	ioctl(fd, VT_GETMODE, &old);
	if (!force) {
		/* A live program drawing on this VT (it holds the VT and a
		 * display) would lose its picture and never hear of VT switches:
		 * refuse. /dev/console and /dev/tty0 stand for the VT shown now. */
		dev_t ttys[3] = { makedev(TTY_MAJOR_, (unsigned)n), makedev(TTY_MAJOR_, 0), makedev(5, 1) };
		struct vt_stat vs;
		int shown = ioctl(fd, VT_GETSTATE, &vs) == 0 && vs.v_active == n;
		char who[256];
		int held = vt_display_holders("/proc", ttys, shown ? 3 : 1, getpid(), who, sizeof who);
		if (held > 0) {
			log_error("%s is in use: %s holds it and a display; stop that program first (--reset-vt %d --force "
				  "resets it anyway)", path, who, n);
			rc = -EBUSY;
			goto out;
		}
	}
	struct vt_mode m = { .mode = VT_AUTO };
	if (ioctl(fd, KDSETMODE, KD_TEXT) < 0 || ioctl(fd, KDSKBMODE, K_UNICODE) < 0 || ioctl(fd, VT_SETMODE, &m) < 0) {
		rc = -errno;
		log_error("%s: cannot reset the console (%s): run as root", path, strerror(-rc));
		goto out;
	}
	printf("%s: text mode (was %s), keyboard unicode (was %s), automatic VT switching (was %s)\n", path,
	       kd_name(kd), kb_name(kb), old.mode == VT_PROCESS ? "process-controlled" : "automatic");
	fflush(stdout);
out:
	close(fd);
	return rc;
}

void vt_emergency_restore(void)
{
	struct vt *v = vt_instance;
	if (v && v->fd >= 0)
		restore(v);
}
