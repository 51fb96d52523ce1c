/* drm: see drm.h; the card and the output are found by drmcard.c. */
#include "platform/drm.h"
#include "platform/drmcard.h"
#include "core/log.h"
#include "platform/kmsutil.h"
#include "platform/photons.h"
#include "render/blit.h"
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#define DRM_MAX_SAVED 4

struct drm_buf {
	uint32_t handle, fb_id;
	uint64_t size;
	void *map;
	struct surface surf;
};

/* A CRTC as found before we touched it, and the connector we drove on it. */
struct drm_saved {
	uint32_t crtc_id, conn_id;
	drmModeCrtcPtr crtc;
};

struct drm_display {
	struct display base;
	int fd, uevent_fd, wake_fd;
	char path[DRMCARD_PATH_LEN], driver[32];
	/* what the user asked for */
	char want_conn[32];
	int want_w, want_h, want_hz;
	int rotation;
	struct blitter *blit;
	const struct font *font;
	struct font_cands *fonts; /* candidates of the automatic choice (borrowed), or NULL */
	struct font_tilesets *tiles; /* the tile sheets (borrowed; NULL: none) */
	int scale;       /* the blitter's scale */
	bool auto_scale; /* no --scale: fit 80×50 cells on every mode set */
	int text_step;   /* the automatic look's text one step larger (1) or smaller (-1), or 0 */
	/* the output in use */
	bool active;    /* a mode is set on a connected display */
	bool suspended; /* VT released: not master, draw nothing */
	struct drmcard_output out;
	enum surf_format fmt;
	struct drm_buf buf[2];
	bool have_bufs;
	int front, flip_target;
	bool flip_pending, frame_wanted, can_flip, reprobe_wanted, lost_master_logged;
	bool alloc_failed; /* the last bufs_create() could not get the memory */
	bool dpms_off;     /* blanked (display_ops.blank): kept over a new mode set */
	struct drm_saved saved[DRM_MAX_SAVED];
	int nsaved;
	struct kms_stale stale;
	struct console *con; /* last console presented (borrowed) */
	int cols, rows;
};

/* The backend's display from the generic one (base is its first member;
 * through void *: struct display is less aligned than struct drm_display on
 * 32-bit ARM, and this pointer always came from drm_open's calloc). */
static struct drm_display *drm_of(struct display *dp)
{
	return (struct drm_display *)(void *)dp;
}

/* The open display, for drm_emergency_restore (this backend's file-static instance). */
static struct drm_display *drm_instance;

/* ---- buffers ---- */

static void buf_destroy(int fd, struct drm_buf *b)
{
	if (b->map && b->map != MAP_FAILED)
		munmap(b->map, b->size);
	if (b->fb_id)
		drmModeRmFB(fd, b->fb_id);
	if (b->handle) {
		struct drm_mode_destroy_dumb dreq = { .handle = b->handle };
		drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &dreq);
	}
	memset(b, 0, sizeof *b);
}

static int buf_create(int fd, struct drm_buf *b, int w, int h, enum surf_format fmt, int rotation)
{
	memset(b, 0, sizeof *b);
	struct drm_mode_create_dumb creq = { .width = (uint32_t)w, .height = (uint32_t)h,
					     .bpp = fmt == SURF_RGB565 ? 16 : 32 };
	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &creq) < 0)
		return -errno;
	b->handle = creq.handle;
	b->size = creq.size;
	uint32_t handles[4] = { creq.handle }, pitches[4] = { creq.pitch }, offsets[4] = { 0 };
	uint32_t fourcc = fmt == SURF_RGB565 ? DRM_FORMAT_RGB565 : DRM_FORMAT_XRGB8888;
	if (drmModeAddFB2(fd, (uint32_t)w, (uint32_t)h, fourcc, handles, pitches, offsets, &b->fb_id, 0) &&
	    drmModeAddFB(fd, (uint32_t)w, (uint32_t)h, fmt == SURF_RGB565 ? 16 : 24, fmt == SURF_RGB565 ? 16 : 32,
			 creq.pitch, creq.handle, &b->fb_id)) {
		int err = -errno;
		b->fb_id = 0;
		buf_destroy(fd, b);
		return err;
	}
	struct drm_mode_map_dumb mreq = { .handle = creq.handle };
	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &mreq) < 0) {
		int err = -errno;
		buf_destroy(fd, b);
		return err;
	}
	b->map = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)mreq.offset);
	if (b->map == MAP_FAILED) {
		int err = -errno;
		b->map = NULL;
		buf_destroy(fd, b);
		return err;
	}
	b->surf = (struct surface){ .pixels = b->map, .width = w, .height = h, .stride = (int)creq.pitch,
				    .format = fmt, .rotation = rotation };
	return 0;
}

static void bufs_destroy(struct drm_display *d)
{
	buf_destroy(d->fd, &d->buf[0]);
	buf_destroy(d->fd, &d->buf[1]);
	d->have_bufs = false;
}

/* Two buffers of w×h in d->fmt (falling back to RGB565 when XRGB8888 is
 * refused), cleared to black. */
static int bufs_create(struct drm_display *d, int w, int h)
{
	int rc = 0;
	for (int attempt = 0; attempt < 2; attempt++) {
		rc = buf_create(d->fd, &d->buf[0], w, h, d->fmt, d->rotation);
		if (!rc)
			rc = buf_create(d->fd, &d->buf[1], w, h, d->fmt, d->rotation);
		if (!rc)
			break;
		bufs_destroy(d);
		if (d->fmt == SURF_RGB565)
			break;
		d->fmt = SURF_RGB565;
	}
	if (rc) {
		log_error("%s: cannot create %dx%d display buffers: %s", d->path, w, h, strerror(-rc));
		d->alloc_failed = true;
		return rc;
	}
	blit_clear(&d->buf[0].surf, 0);
	blit_clear(&d->buf[1].surf, 0);
	d->have_bufs = true;
	return 0;
}

/* ---- CRTC save / restore ---- */

static void save_crtc(struct drm_display *d, uint32_t crtc_id, uint32_t conn_id)
{
	for (int i = 0; i < d->nsaved; i++)
		if (d->saved[i].crtc_id == crtc_id)
			return;
	if (d->nsaved == DRM_MAX_SAVED)
		return;
	d->saved[d->nsaved++] = (struct drm_saved){ crtc_id, conn_id, drmModeGetCrtc(d->fd, crtc_id) };
}

/* Only ioctls: also used by the crash handler. */
static void restore_one(int fd, struct drm_saved *s)
{
	drmModeCrtcPtr c = s->crtc;
	if (c && c->mode_valid && c->buffer_id) {
		uint32_t conn = s->conn_id;
		if (drmModeSetCrtc(fd, s->crtc_id, c->buffer_id, c->x, c->y, &conn, 1, &c->mode) == 0)
			return;
	}
	/* nothing was shown, or what was shown is gone: switch it off; the
	 * kernel's console takes the display back when we close */
	drmModeSetCrtc(fd, s->crtc_id, 0, 0, 0, NULL, 0, NULL);
}

static void restore_crtc(struct drm_display *d, uint32_t crtc_id)
{
	for (int i = 0; i < d->nsaved; i++)
		if (d->saved[i].crtc_id == crtc_id)
			restore_one(d->fd, &d->saved[i]);
}

void drm_emergency_restore(void)
{
	struct drm_display *d = drm_instance;
	if (!d || d->suspended)
		return;
	for (int i = 0; i < d->nsaved; i++)
		restore_one(d->fd, &d->saved[i]);
}

/* ---- frames ---- */

static void flip_done(int fd, unsigned seq, unsigned sec, unsigned usec, void *data)
{
	struct drm_display *d = data;
	d->flip_pending = false;
	d->front = d->flip_target;
	photons_flip_done(NULL, (int64_t)sec * 1000000 + usec); /* the vblank's CLOCK_MONOTONIC time */
}

static void handle_events(struct drm_display *d)
{
	drmEventContext ev = { .version = 2, .page_flip_handler = flip_done };
	drmHandleEvent(d->fd, &ev);
}

/* Waits up to ms for a pending flip to complete. */
static void wait_flip(struct drm_display *d, int ms)
{
	while (d->flip_pending) {
		struct pollfd p = { .fd = d->fd, .events = POLLIN };
		int r = poll(&p, 1, ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			d->flip_pending = false; /* never came: stop waiting for it */
			break;
		}
		handle_events(d);
	}
}

static void lost_master(struct drm_display *d, int err)
{
	if (!d->lost_master_logged)
		drmcard_log_master_failure(d->path, err);
	d->lost_master_logged = true;
}

static void dirty(struct drm_display *d, struct drm_buf *b)
{
	/* only some drivers need it (virtio-gpu when drawing to the front
	 * buffer); the rest answer ENOSYS, which is fine */
	drmModeDirtyFB(d->fd, b->fb_id, NULL, 0);
}

/* Draws what changed into the back buffer and flips to it (or, without
 * flips, into the front buffer followed by DirtyFB). */
static int draw_frame(struct drm_display *d)
{
	d->frame_wanted = false;
	if (!d->con || !d->have_bufs || !d->stale.map[0])
		return 0;
	if (!d->can_flip) {
		int f = d->front;
		if (!kms_stale_draw(&d->stale, f, d->blit, d->con, &d->buf[f].surf))
			return 0;
		dirty(d, &d->buf[f]);
		return 0;
	}
	int b = 1 - d->front;
	if (!kms_stale_draw(&d->stale, b, d->blit, d->con, &d->buf[b].surf) && !kms_stale_any(&d->stale, d->front))
		return 0; /* both buffers show the console already */
	int r = drmModePageFlip(d->fd, d->out.crtc_id, d->buf[b].fb_id, DRM_MODE_PAGE_FLIP_EVENT, d);
	if (r == 0) {
		d->flip_pending = true;
		d->flip_target = b;
		photons_flip_queued(NULL, photons_now_us());
		return 0;
	}
	if (r == -EBUSY) {
		/* a flip we did not ask for is in flight: draw again after it */
		kms_stale_all(&d->stale, b);
		d->frame_wanted = true;
		return 0;
	}
	if (r == -EACCES || r == -EPERM) {
		kms_stale_all(&d->stale, b);
		lost_master(d, -r);
		return 0;
	}
	/* the driver cannot flip: show the buffer and draw into it from now on */
	log_info("%s: page flip not supported (%s); drawing into the shown buffer", d->path, strerror(-r));
	d->can_flip = false;
	uint32_t conn = d->out.conn_id;
	if (drmModeSetCrtc(d->fd, d->out.crtc_id, d->buf[b].fb_id, 0, 0, &conn, 1, &d->out.mode)) {
		int err = errno;
		kms_stale_all(&d->stale, b);
		if (err == EACCES || err == EPERM)
			lost_master(d, err);
		else
			log_error("%s: cannot show a frame: %s", d->path, strerror(err));
		return -err;
	}
	d->front = b;
	dirty(d, &d->buf[b]);
	return 0;
}

/* Sets output ch: buffers of its mode size, a full frame drawn, the mode
 * set. Returns 0 or a negative errno (logged). */
static int set_dpms(struct drm_display *d, bool off);

static int set_output(struct drm_display *d, const struct drmcard_output *ch)
{
	wait_flip(d, 100);
	int w = ch->mode.hdisplay, h = ch->mode.vdisplay;
	if (d->active && d->out.crtc_id && d->out.crtc_id != ch->crtc_id)
		restore_crtc(d, d->out.crtc_id);
	save_crtc(d, ch->crtc_id, ch->conn_id);
	if (d->have_bufs && (d->buf[0].surf.width != w || d->buf[0].surf.height != h))
		bufs_destroy(d);
	if (!d->have_bufs) {
		int rc = bufs_create(d, w, h);
		if (rc)
			return rc;
	}
	if (d->auto_scale || d->fonts) {
		int want = d->scale;
		const struct font *font = d->font, *map = d->blit ? blit_map(d->blit) : NULL;
		if (d->fonts) {
			char err[512];
			int rc = blit_choose_look(d->fonts, &d->buf[0].surf, d->auto_scale ? 0 : d->scale, d->text_step,
						  &font, &map, &want, err, sizeof err);
			if (rc) {
				log_error("%s", err);
				return rc;
			}
		} else if (d->auto_scale) {
			want = blit_fit_scale(d->font, &d->buf[0].surf, 80, 50);
		}
		struct blitter *nb;
		if ((!d->blit || want != d->scale || font != d->font || map != blit_map(d->blit)) &&
		    blit_create(&nb, font, want) == 0) {
			if (map && blit_set_map(nb, map)) {
				blit_destroy(nb); /* blit_set_map said why: the glyphs of the font alone */
			} else {
				blit_destroy(d->blit);
				d->blit = nb;
				d->scale = want;
				d->font = font;
				d->base.font = font;
				/* a new look in the same buffers (a text size
				 * change): what the old cells covered outside the
				 * new ones (their margins) is cleared in both */
				blit_clear(&d->buf[0].surf, 0);
				blit_clear(&d->buf[1].surf, 0);
			}
		}
	}
	if (!d->blit)
		return -EINVAL; /* blit_create said why */
	if (d->fonts)
		blit_use_tilesets(d->blit, d->tiles); /* said why when it cannot: glyphs */
	blit_set_centred(d->blit, true);
	d->base.map_cw = blit_map(d->blit) ? 2 : 1;
	blit_look(d->blit, &d->buf[0].surf, &d->base.look);
	int cols = 0, rows = 0;
	blit_console_size(d->blit, &d->buf[0].surf, &cols, &rows);
	if (cols < 1 || rows < 1) {
		log_error("%s %s: mode %dx%d is too small for the font at this scale", d->path, ch->name, w, h);
		return -ERANGE;
	}
	d->cols = cols;
	d->rows = rows;
	int b = d->front;
	kms_stale_all(&d->stale, -1);
	/* the console as it is, unless the new look changed its size (a text
	 * size change: the app resizes it and draws it again; drawn in the new
	 * cells, the old console's last rows landed in the new margins) */
	if (d->con && d->stale.map[0] && d->con->w == cols && d->con->h == rows) {
		blit_draw(d->blit, d->con, &d->buf[b].surf, NULL);
		kms_stale_clear(&d->stale, b);
	}
	uint32_t conn = ch->conn_id;
	drmModeModeInfo mode = ch->mode;
	if (drmModeSetCrtc(d->fd, ch->crtc_id, d->buf[b].fb_id, 0, 0, &conn, 1, &mode)) {
		int err = errno;
		kms_stale_all(&d->stale, b);
		if (err == EACCES || err == EPERM || err == EBUSY)
			drmcard_log_master_failure(d->path, err);
		else
			log_error("%s %s: cannot set mode %dx%d@%d: %s", d->path, ch->name, w, h, drmcard_mode_hz(&mode),
				  strerror(err));
		return -err;
	}
	dirty(d, &d->buf[b]);
	d->out = *ch;
	d->active = true;
	d->lost_master_logged = false;
	if (d->dpms_off)
		set_dpms(d, true); /* a mode set (hotplug, VT back) lights the display */
	log_info("%s %s: %dx%d@%d, %s, console %dx%d cells", d->path, ch->name, w, h, drmcard_mode_hz(&mode),
		 d->fmt == SURF_RGB565 ? "RGB565" : "XRGB8888", cols, rows);
	return 0;
}

static int drm_set_text_step(struct display *dp, int step)
{
	struct drm_display *d = drm_of(dp);
	if (!d->fonts)
		return -ENOTSUP;
	int was = d->text_step;
	d->text_step = step;
	if (!d->active || d->suspended)
		return 0; /* chosen at the next mode set */
	struct drmcard_output ch = d->out;
	int rc = set_output(d, &ch); /* the same mode, the look chosen again, drawn whole */
	if (rc) {
		d->text_step = was;
		ch = d->out;
		set_output(d, &ch);
	}
	return rc;
}

static int drm_set_tiles(struct display *dp, bool on)
{
	struct drm_display *d = drm_of(dp);
	if (!d->fonts || !d->tiles || !d->tiles->n)
		return -ENOTSUP;
	d->tiles->on = on;
	if (!d->active || d->suspended || !d->blit)
		return 0; /* used at the next mode set */
	int rc = blit_use_tilesets(d->blit, d->tiles);
	kms_stale_all(&d->stale, -1); /* every buffer drawn whole */
	return on && rc ? -ENOTSUP : 0;
}

/* Re-reads the connectors (after a uevent or a VT switch) and follows what
 * happened. Appends EV_RESIZE to ev when the console size changed. */
static int reprobe(struct drm_display *d, struct in_event *ev, int max)
{
	d->reprobe_wanted = false;
	int oc = d->cols, orow = d->rows;
	struct drmcard_output ch;
	int rc = drmcard_choose(d->fd, d->path, d->want_conn, d->want_w, d->want_h, d->want_hz, false,
			       d->active ? d->out.conn_id : 0, false, false, &ch);
	if (rc < 0) {
		if (d->active)
			log_error("%s %s: display disconnected; waiting for one to be plugged in", d->path, d->out.name);
		d->active = false;
		return 0;
	}
	if (d->active && ch.conn_id == d->out.conn_id && ch.crtc_id == d->out.crtc_id &&
	    !memcmp(&ch.mode, &d->out.mode, sizeof ch.mode))
		return 0;
	if (set_output(d, &ch))
		return 0;
	log_error("%s %s: display connected, %ux%u@%d", d->path, ch.name, ch.mode.hdisplay, ch.mode.vdisplay,
		  drmcard_mode_hz(&ch.mode));
	if ((d->cols != oc || d->rows != orow) && max > 0) {
		ev[0] = (struct in_event){ .type = EV_RESIZE };
		return 1;
	}
	return 0;
}

/* Drains the uevent socket; true when one asks for a re-probe. */
static bool read_uevents(struct drm_display *d)
{
	bool hit = false;
	for (;;) {
		char buf[8192];
		struct sockaddr_nl sa;
		struct iovec iov = { buf, sizeof buf - 1 };
		struct msghdr mh = { .msg_name = &sa, .msg_namelen = sizeof sa, .msg_iov = &iov, .msg_iovlen = 1 };
		ssize_t n = recvmsg(d->uevent_fd, &mh, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) { /* overflowed: something happened */
				hit = true;
				continue;
			}
			break;
		}
		if (n == 0 || sa.nl_pid != 0) /* only the kernel's own messages */
			continue;
		buf[n] = 0;
		struct kms_uevent ue;
		if (kms_uevent_parse(buf, (size_t)n, &ue) == 0 && kms_uevent_is_drm_hotplug(&ue, d->path))
			hit = true;
	}
	return hit;
}

static int open_uevents(void)
{
	int s = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (s < 0)
		return -errno;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	if (bind(s, (struct sockaddr *)&sa, sizeof sa) < 0) {
		int err = -errno;
		close(s);
		return err;
	}
	return s;
}

/* ---- the backend ---- */

static void drm_close(struct display *dp);

static int drm_open(struct display **out, const struct display_opts *o)
{
	*out = NULL;
	if (drm_instance) {
		log_error("drm: the display is already open in this program");
		return -EBUSY;
	}
	if (!o->font && !o->fonts) {
		log_error("drm: no font to draw with");
		return -EINVAL;
	}
	struct drm_display *d = calloc(1, sizeof *d);
	if (!d)
		return -ENOMEM;
	d->base.ops = &drm_display_ops;
	d->fd = d->uevent_fd = d->wake_fd = -1;
	d->can_flip = true;
	d->rotation = o->rotation;
	d->want_w = o->mode_w;
	d->want_h = o->mode_h;
	d->want_hz = o->mode_hz;
	if (o->connector)
		snprintf(d->want_conn, sizeof d->want_conn, "%s", o->connector);
	d->font = o->font;
	d->base.font = o->font;
	d->fonts = o->fonts;
	d->tiles = o->tiles;
	d->scale = o->scale ? o->scale : 1;
	d->auto_scale = !o->scale;
	d->text_step = o->text_step;
	/* with candidates, the blitter comes with the choice at the mode set
	 * (set_output), or with the first candidate while no display is there */
	int rc = o->font ? blit_create(&d->blit, o->font, d->scale) : 0;
	if (rc) {
		log_error("drm: cannot set up the glyph blitter (scale %d): %s", o->scale, strerror(-rc));
		goto fail;
	}
	/* the card: the one asked for, else the first with a connected display */
	struct drmcard_output ch;
	d->fd = drmcard_find(o->card, d->want_conn, !o->probed, d->path, sizeof d->path);
	if (d->fd < 0) {
		rc = d->fd;
		goto fail;
	}
	drmcard_driver(d->fd, d->driver, sizeof d->driver);
	uint64_t cap = 0;
	if (drmGetCap(d->fd, DRM_CAP_DUMB_BUFFER, &cap) < 0 || !cap) {
		log_error("%s (%s): the driver has no dumb buffers (not a display controller?); choose another card "
			  "with --card (--list-displays)",
			  d->path, d->driver);
		rc = -ENODEV;
		goto fail;
	}
	cap = 0;
	d->fmt = drmGetCap(d->fd, DRM_CAP_DUMB_PREFERRED_DEPTH, &cap) == 0 && cap == 16 ? SURF_RGB565 : SURF_XRGB8888;
	rc = drmcard_master(d->fd);
	if (rc) {
		drmcard_log_master_failure(d->path, -rc);
		goto fail;
	}
	d->uevent_fd = open_uevents();
	if (d->uevent_fd < 0)
		log_info("drm: no kernel uevents (%s): displays plugged in later will not be noticed",
			 strerror(-d->uevent_fd));
	d->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (d->wake_fd < 0) {
		rc = -errno;
		log_error("drm: eventfd: %s", strerror(-rc));
		goto fail;
	}
	/* the connectors probed (EDID read) unless the automatic choice just did */
	rc = drmcard_choose(d->fd, d->path, d->want_conn, d->want_w, d->want_h, d->want_hz, !o->probed, 0, true, false,
			    &ch);
	if (rc == -ENOENT && d->uevent_fd >= 0) {
		/* nothing connected yet (a TV switched off, a kiosk booted before
		 * its screen): wait for one, with the console at 80×50 cells
		 * until a mode says otherwise (then dispatch gives EV_RESIZE) */
		log_error("%s (%s): no display connected%s%s; waiting for one to be plugged in", d->path, d->driver,
			  d->want_conn[0] ? " to " : "", d->want_conn);
		d->cols = 80;
		d->rows = 50;
		if (!d->blit) {
			char err[512];
			if ((rc = font_cands_get(d->fonts, 0, &d->font, err, sizeof err))) {
				log_error("%s", err);
				goto fail;
			}
			d->base.font = d->font;
			if ((rc = blit_create(&d->blit, d->font, d->scale)))
				goto fail;
		}
		drm_instance = d;
		*out = &d->base;
		return 0;
	}
	if (rc) {
		/* say why, in one line */
		rc = drmcard_choose(d->fd, d->path, d->want_conn, d->want_w, d->want_h, d->want_hz, false, 0, true,
				   true, &ch);
		if (!rc)
			rc = -EAGAIN;
		goto fail;
	}
	drm_instance = d;
	rc = set_output(d, &ch);
	/* a 4K preferred mode may not fit in the memory a small board has
	 * for display buffers: without --mode, step down to 1080p, then 720p */
	static const int smaller[][2] = { { 1920, 1080 }, { 1280, 720 } };
	for (size_t i = 0; rc && d->alloc_failed && !d->want_w && i < sizeof smaller / sizeof *smaller; i++) {
		struct drmcard_output sm;
		if (ch.mode.hdisplay * ch.mode.vdisplay <= smaller[i][0] * smaller[i][1] ||
		    drmcard_choose(d->fd, d->path, d->want_conn, smaller[i][0], smaller[i][1], 0, false, ch.conn_id, true,
				  false, &sm))
			continue;
		log_error("%s %s: trying %dx%d instead (--mode chooses the mode)", d->path, sm.name, smaller[i][0],
			  smaller[i][1]);
		d->alloc_failed = false;
		rc = set_output(d, &sm);
	}
	if (rc)
		goto fail;
	*out = &d->base;
	return 0;
fail:
	drm_close(&d->base);
	return rc;
}

static void drm_close(struct display *dp)
{
	struct drm_display *d = drm_of(dp);
	if (!d)
		return;
	if (d->fd >= 0) {
		wait_flip(d, 100);
		if (!d->suspended)
			for (int i = 0; i < d->nsaved; i++)
				restore_one(d->fd, &d->saved[i]);
		bufs_destroy(d);
	}
	for (int i = 0; i < d->nsaved; i++)
		drmModeFreeCrtc(d->saved[i].crtc);
	if (drm_instance == d)
		drm_instance = NULL;
	kms_stale_free(&d->stale);
	blit_destroy(d->blit);
	if (d->uevent_fd >= 0)
		close(d->uevent_fd);
	if (d->wake_fd >= 0)
		close(d->wake_fd);
	if (d->fd >= 0)
		close(d->fd);
	free(d);
}

static void drm_console_size(struct display *dp, int *cols, int *rows)
{
	struct drm_display *d = drm_of(dp);
	*cols = d->cols;
	*rows = d->rows;
}

static int drm_present(struct display *dp, struct console *c)
{
	struct drm_display *d = drm_of(dp);
	if (c != d->con || c->w != d->stale.w || c->h != d->stale.h) {
		/* a new or resized console: every cell of both buffers is stale */
		int rc = kms_stale_resize(&d->stale, c->w, c->h);
		if (rc)
			return rc;
		d->con = c;
	} else {
		kms_stale_add(&d->stale, c->damage, c->row_damage);
	}
	if (!d->active || d->suspended || d->flip_pending) {
		d->frame_wanted = true;
		return 0;
	}
	return draw_frame(d);
}

static int drm_poll_fds(struct display *dp, int *fds, int max)
{
	struct drm_display *d = drm_of(dp);
	int n = 0;
	int mine[3] = { d->fd, d->uevent_fd, d->wake_fd };
	for (int i = 0; i < 3; i++)
		if (mine[i] >= 0 && n < max)
			fds[n++] = mine[i];
	return n;
}

static int drm_dispatch(struct display *dp, int fd, struct in_event *ev, int max)
{
	struct drm_display *d = drm_of(dp);
	if (fd == d->fd) {
		handle_events(d);
		if (d->frame_wanted && !d->flip_pending && d->active && !d->suspended)
			draw_frame(d);
		return 0;
	}
	if (fd == d->uevent_fd) {
		if (read_uevents(d))
			d->reprobe_wanted = true;
	} else if (fd == d->wake_fd) {
		uint64_t v;
		ssize_t r = read(d->wake_fd, &v, sizeof v);
		(void)r;
	} else {
		return 0;
	}
	if (d->reprobe_wanted && !d->suspended)
		return reprobe(d, ev, max);
	return 0;
}

static void drm_suspend(struct display *dp)
{
	struct drm_display *d = drm_of(dp);
	if (d->suspended)
		return;
	d->suspended = true;
	if (drmDropMaster(d->fd) < 0)
		log_info("%s: drop master: %s", d->path, strerror(errno));
}

static void drm_resume(struct display *dp)
{
	struct drm_display *d = drm_of(dp);
	if (!d->suspended)
		return;
	int rc = drmcard_master(d->fd);
	if (rc) {
		drmcard_log_master_failure(d->path, -rc);
		return; /* stays suspended: frames are kept until the next resume */
	}
	d->suspended = false;
	d->lost_master_logged = false;
	/* another program had the display: set our mode again and redraw all,
	 * then look at the connectors, which may have changed meanwhile */
	if (d->active) {
		struct drmcard_output ch = d->out;
		if (set_output(d, &ch))
			d->active = false;
	}
	d->reprobe_wanted = true;
	uint64_t one = 1;
	ssize_t r = write(d->wake_fd, &one, sizeof one);
	(void)r;
}

/* The connector's "DPMS" property: 0 and its id, or -ENOTSUP. */
static int dpms_prop(int fd, uint32_t conn_id, uint32_t *id)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, conn_id, DRM_MODE_OBJECT_CONNECTOR);
	int rc = -ENOTSUP;
	for (uint32_t i = 0; props && i < props->count_props && rc; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);
		if (p && !strcmp(p->name, "DPMS")) {
			*id = p->prop_id;
			rc = 0;
		}
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return rc;
}

/* DPMS through the connector's property (legacy KMS: the driver turns the
 * encoder and CRTC off and on again). */
static int set_dpms(struct drm_display *d, bool off)
{
	uint32_t prop;
	if (dpms_prop(d->fd, d->out.conn_id, &prop))
		return -ENOTSUP;
	if (drmModeConnectorSetProperty(d->fd, d->out.conn_id, prop, off ? DRM_MODE_DPMS_OFF : DRM_MODE_DPMS_ON)) {
		int e = errno;
		log_info("%s: DPMS %s on %s: %s", d->path, off ? "off" : "on", d->out.name, strerror(e));
		return -e;
	}
	log_info("%s: DPMS %s on %s", d->path, off ? "off" : "on", d->out.name);
	return 0;
}

static int drm_blank(struct display *dp, bool off)
{
	struct drm_display *d = drm_of(dp);
	if (d->suspended || !d->active)
		return -EAGAIN;
	int rc = set_dpms(d, off);
	d->dpms_off = off && rc == 0;
	return rc;
}

const struct display_ops drm_display_ops = {
	.name = "drm",
	.open = drm_open,
	.close = drm_close,
	.console_size = drm_console_size,
	.present = drm_present,
	.poll_fds = drm_poll_fds,
	.dispatch = drm_dispatch,
	.screenshot = NULL,
	.suspend = drm_suspend,
	.resume = drm_resume,
	.blank = drm_blank,
	.set_text_step = drm_set_text_step,
	.set_tiles = drm_set_tiles,
};
