#include "platform/fbdev.h"
#include "core/log.h"
#include "platform/devnode.h"
#include "render/blit.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/fb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

struct fbdev_display {
	struct display base;
	int fd;
	char path[64];
	char id[17];
	void *map;
	size_t map_len;
	struct surface surf;
	struct blitter *blit;
	int cols, rows;
	bool suspended;
	bool full; /* the next frame draws every cell */
	struct console *con;
	struct font_cands *fonts; /* the automatic choice's candidates (borrowed), NULL: a --font */
	int scale_opt;            /* --scale, 0: none */
};

int fbdev_format(const struct fb_var_screeninfo *v, enum surf_format *fmt)
{
	if (v->grayscale || v->nonstd)
		return -ENOTSUP;
	if (v->bits_per_pixel == 16 && v->red.offset == 11 && v->red.length == 5 && v->green.offset == 5 &&
	    v->green.length == 6 && v->blue.offset == 0 && v->blue.length == 5) {
		*fmt = SURF_RGB565;
		return 0;
	}
	if (v->bits_per_pixel == 32 && v->red.offset == 16 && v->red.length == 8 && v->green.offset == 8 &&
	    v->green.length == 8 && v->blue.offset == 0 && v->blue.length == 8) {
		*fmt = SURF_XRGB8888;
		return 0;
	}
	return -ENOTSUP;
}

/* Describes the pixel layout for messages: "24 bpp R16:8 G8:8 B0:8". */
static void describe(const struct fb_var_screeninfo *v, char *buf, size_t len)
{
	snprintf(buf, len, "%u bpp R%u:%u G%u:%u B%u:%u%s", v->bits_per_pixel, v->red.offset, v->red.length,
		 v->green.offset, v->green.length, v->blue.offset, v->blue.length,
		 v->grayscale ? " greyscale" : v->nonstd ? " non-standard" : "");
}

static void fbdev_close(struct display *dp);

static int fbdev_open(struct display **out, const struct display_opts *o)
{
	*out = NULL;
	if (!o->font && !o->fonts) {
		log_error("fbdev: no font to draw with");
		return -EINVAL;
	}
	struct fbdev_display *d = calloc(1, sizeof *d);
	if (!d)
		return -ENOMEM;
	d->base.ops = &fbdev_display_ops;
	d->fd = -1;
	snprintf(d->path, sizeof d->path, "%s", o->fb ? o->fb : "/dev/fb0");
	/* with candidates, the blitter comes with the choice below */
	int rc = o->font ? blit_create(&d->blit, o->font, o->scale ? o->scale : 1) : 0;
	if (rc) {
		log_error("fbdev: cannot set up the glyph blitter (scale %d): %s", o->scale, strerror(-rc));
		goto fail;
	}
	d->fd = open(d->path, O_RDWR | O_CLOEXEC);
	if (d->fd < 0) {
		rc = -errno;
		if (rc == -EACCES || rc == -EPERM)
			log_error("%s: %s: %s", d->path, strerror(-rc), devnode_advice(DEVNODE_FB, -rc));
		else
			log_error("%s: %s: is there a framebuffer? (ls /dev/fb*; --list-displays; --fb PATH)", d->path,
				  strerror(-rc));
		goto fail;
	}
	struct fb_var_screeninfo v;
	struct fb_fix_screeninfo f;
	if (ioctl(d->fd, FBIOGET_VSCREENINFO, &v) < 0 || ioctl(d->fd, FBIOGET_FSCREENINFO, &f) < 0) {
		rc = -errno;
		log_error("%s: not a framebuffer device (%s)", d->path, strerror(-rc));
		goto fail;
	}
	memcpy(d->id, f.id, sizeof f.id);
	d->id[16] = 0;
	enum surf_format fmt;
	if (f.type != FB_TYPE_PACKED_PIXELS || (f.visual != FB_VISUAL_TRUECOLOR && f.visual != FB_VISUAL_DIRECTCOLOR) ||
	    fbdev_format(&v, &fmt)) {
		char desc[96];
		describe(&v, desc, sizeof desc);
		log_error("%s (%s): pixel format %s is not supported (only RGB565 and XRGB8888): set 16 or 32 bpp "
			  "(fbset -depth 16, or framebuffer_depth=16 in a Pi's config.txt)",
			  d->path, d->id, desc);
		rc = -ENOTSUP;
		goto fail;
	}
	size_t bpp = (size_t)surf_bpp(fmt);
	size_t off = (size_t)v.yoffset * f.line_length + (size_t)v.xoffset * bpp;
	if (f.line_length < v.xres * bpp || off + (size_t)f.line_length * v.yres > f.smem_len) {
		log_error("%s (%s): framebuffer geometry is inconsistent (%ux%u, %u bytes per line, %u bytes)", d->path,
			  d->id, v.xres, v.yres, f.line_length, f.smem_len);
		rc = -EINVAL;
		goto fail;
	}
	d->map_len = f.smem_len;
	d->map = mmap(NULL, d->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd, 0);
	if (d->map == MAP_FAILED) {
		rc = -errno;
		d->map = NULL;
		log_error("%s (%s): cannot map the framebuffer: %s", d->path, d->id, strerror(-rc));
		goto fail;
	}
	d->surf = (struct surface){ .pixels = (uint8_t *)d->map + off, .width = (int)v.xres, .height = (int)v.yres,
				    .stride = (int)f.line_length, .format = fmt, .rotation = o->rotation };
	d->base.font = o->font;
	if (!o->scale || o->fonts) {
		/* no --scale: the largest that still shows 80×50 cells; no
		 * --font: the font that fills the screen best */
		int scale = o->scale;
		char err[512];
		const struct font *map = NULL;
		if (!o->fonts)
			scale = o->scale ? o->scale : blit_fit_scale(o->font, &d->surf, 80, 50);
		else if ((rc = blit_choose_look(o->fonts, &d->surf, o->scale, o->text_step, &d->base.font, &map, &scale,
						err, sizeof err))) {
			log_error("%s", err);
			goto fail;
		}
		blit_destroy(d->blit);
		d->blit = NULL;
		if ((rc = blit_create(&d->blit, d->base.font, scale))) {
			log_error("fbdev: cannot set up the glyph blitter: %s", strerror(-rc));
			goto fail;
		}
		if (map && (rc = blit_set_map(d->blit, map)))
			goto fail; /* blit_set_map said why */
	}
	d->fonts = o->fonts;
	d->scale_opt = o->scale;
	blit_set_centred(d->blit, true);
	d->base.map_cw = blit_map(d->blit) ? 2 : 1;
	blit_look(d->blit, &d->surf, &d->base.look);
	blit_console_size(d->blit, &d->surf, &d->cols, &d->rows);
	if (d->cols < 1 || d->rows < 1) {
		log_error("%s (%s): %ux%u pixels is too small for the font at scale %d", d->path, d->id, v.xres, v.yres,
			  o->scale);
		rc = -ERANGE;
		goto fail;
	}
	ioctl(d->fd, FBIOBLANK, FB_BLANK_UNBLANK); /* the console may have blanked it */
	blit_clear(&d->surf, 0);
	d->full = true;
	log_info("%s (%s): %ux%u %s, console %dx%d cells", d->path, d->id, v.xres, v.yres,
		 fmt == SURF_RGB565 ? "RGB565" : "XRGB8888", d->cols, d->rows);
	*out = &d->base;
	return 0;
fail:
	fbdev_close(&d->base);
	return rc;
}

static int fbdev_set_text_step(struct display *dp, int step)
{
	struct fbdev_display *d = (struct fbdev_display *)dp;
	if (!d->fonts)
		return -ENOTSUP;
	const struct font *font, *map;
	int scale, rc, cols, rows;
	char err[512];
	struct blitter *b;
	if ((rc = blit_choose_look(d->fonts, &d->surf, d->scale_opt, step, &font, &map, &scale, err, sizeof err))) {
		log_error("%s", err);
		return rc;
	}
	if ((rc = blit_create(&b, font, scale))) {
		log_error("fbdev: cannot set up the glyph blitter: %s", strerror(-rc));
		return rc;
	}
	if (map && (rc = blit_set_map(b, map))) {
		blit_destroy(b);
		return rc; /* blit_set_map said why */
	}
	blit_set_centred(b, true);
	blit_console_size(b, &d->surf, &cols, &rows);
	if (cols < 1 || rows < 1) {
		log_error("%s (%s): %dx%d pixels is too small for that text size", d->path, d->id, d->surf.width,
			  d->surf.height);
		blit_destroy(b);
		return -ERANGE;
	}
	blit_destroy(d->blit);
	d->blit = b;
	d->base.font = font;
	d->base.map_cw = map ? 2 : 1;
	blit_look(d->blit, &d->surf, &d->base.look);
	d->cols = cols;
	d->rows = rows;
	if (!d->suspended)
		blit_clear(&d->surf, 0); /* what the old cells covered outside the new ones */
	d->full = true;
	return 0;
}

static void fbdev_close(struct display *dp)
{
	struct fbdev_display *d = (struct fbdev_display *)dp;
	if (!d)
		return;
	if (d->map) {
		if (!d->suspended)
			blit_clear(&d->surf, 0); /* do not leave the game under the text console */
		munmap(d->map, d->map_len);
	}
	if (d->fd >= 0)
		close(d->fd);
	blit_destroy(d->blit);
	free(d);
}

static void fbdev_console_size(struct display *dp, int *cols, int *rows)
{
	struct fbdev_display *d = (struct fbdev_display *)dp;
	*cols = d->cols;
	*rows = d->rows;
}

static int fbdev_present(struct display *dp, struct console *c)
{
	struct fbdev_display *d = (struct fbdev_display *)dp;
	if (c != d->con) {
		d->con = c;
		d->full = true;
	}
	if (d->suspended)
		return 0;
	if (!d->full && !c->damaged)
		return 0;
	blit_draw(d->blit, c, &d->surf, d->full ? NULL : c->damage);
	d->full = false;
	return 0;
}

static int fbdev_poll_fds(struct display *dp, int *fds, int max) { return 0; }

static int fbdev_dispatch(struct display *dp, int fd, struct in_event *ev, int max) { return 0; }

static void fbdev_suspend(struct display *dp)
{
	struct fbdev_display *d = (struct fbdev_display *)dp;
	d->suspended = true;
}

static void fbdev_resume(struct display *dp)
{
	struct fbdev_display *d = (struct fbdev_display *)dp;
	if (!d->suspended)
		return;
	d->suspended = false;
	/* another VT drew over everything: clear the margins and redraw all */
	blit_clear(&d->surf, 0);
	d->full = true;
	if (d->con)
		fbdev_present(dp, d->con);
}

static int fbdev_blank(struct display *dp, bool off)
{
	struct fbdev_display *d = (struct fbdev_display *)dp;
	if (d->suspended)
		return -EAGAIN;
	if (ioctl(d->fd, FBIOBLANK, off ? FB_BLANK_POWERDOWN : FB_BLANK_UNBLANK) < 0) {
		int e = errno;
		log_info("%s: FBIOBLANK %s: %s", d->path, off ? "powerdown" : "unblank", strerror(e));
		return -e;
	}
	return 0;
}

const struct display_ops fbdev_display_ops = {
	.name = "fbdev",
	.open = fbdev_open,
	.close = fbdev_close,
	.console_size = fbdev_console_size,
	.present = fbdev_present,
	.poll_fds = fbdev_poll_fds,
	.dispatch = fbdev_dispatch,
	.screenshot = NULL,
	.suspend = fbdev_suspend,
	.resume = fbdev_resume,
	.blank = fbdev_blank,
	.set_text_step = fbdev_set_text_step,
};

/* Reads a framebuffer's description; 0 or a negative errno. */
static int fb_query(const char *path, struct fb_var_screeninfo *v, struct fb_fix_screeninfo *f)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno ? -errno : -EIO; /* never 0: *v would be read unset */
	int rc = 0;
	if (ioctl(fd, FBIOGET_VSCREENINFO, v) < 0 || ioctl(fd, FBIOGET_FSCREENINFO, f) < 0)
		rc = errno ? -errno : -EIO;
	close(fd);
	return rc;
}

static bool is_drm_emulation(const struct fb_fix_screeninfo *f)
{
	char id[17];
	memcpy(id, f->id, 16);
	id[16] = 0;
	size_t l = strlen(id);
	return l >= 5 && !strcmp(id + l - 5, "drmfb");
}

int fbdev_probe(const struct display_opts *o, bool skip_drm_emulation, char *path, size_t pathlen, char *why,
		size_t len)
{
	int first = 0, last = 31;
	char p[64];
	char reason[400] = ""; /* a path's reason with its advice (devnode_advice) */
	int err = -ENODEV;
	for (int i = first; i <= last; i++) {
		if (o && o->fb)
			snprintf(p, sizeof p, "%s", o->fb);
		else
			snprintf(p, sizeof p, "/dev/fb%d", i);
		struct fb_var_screeninfo v;
		struct fb_fix_screeninfo f;
		memset(&v, 0, sizeof v);
		memset(&f, 0, sizeof f);
		enum surf_format fmt;
		int rc = fb_query(p, &v, &f);
		char id[17];
		memcpy(id, f.id, 16);
		id[16] = 0;
		if (rc == -ENOENT && !(o && o->fb))
			break;
		if (rc) {
			const char *fix = devnode_advice(DEVNODE_FB, -rc);
			if (!reason[0])
				snprintf(reason, sizeof reason, "%s cannot be opened (%s)%s%s", p, strerror(-rc),
					 fix[0] ? ": " : "", fix);
			err = rc;
		} else if (fbdev_format(&v, &fmt)) {
			if (!reason[0])
				snprintf(reason, sizeof reason, "%s (%s) has an unsupported pixel format (%u bpp)", p, id,
					 v.bits_per_pixel);
			err = -ENOTSUP;
		} else if (skip_drm_emulation && is_drm_emulation(&f)) {
			if (!reason[0])
				snprintf(reason, sizeof reason, "%s (%s) is a DRM driver's emulation", p, id);
			err = -ENODEV;
		} else {
			snprintf(path, pathlen, "%s", p);
			snprintf(why, len, "%s (%s) opens, %ux%u %s", p, id, v.xres, v.yres,
				 fmt == SURF_RGB565 ? "RGB565" : "XRGB8888");
			return 0;
		}
		if (o && o->fb)
			break;
	}
	snprintf(why, len, "%s", reason[0] ? reason : "no framebuffer (/dev/fb*)");
	return err;
}

int fbdev_list_displays(FILE *out)
{
	int n = 0;
	fprintf(out, "Framebuffers:\n");
	for (int i = 0; i < 32; i++) {
		char p[32];
		snprintf(p, sizeof p, "/dev/fb%d", i);
		struct fb_var_screeninfo v = { 0 };
		struct fb_fix_screeninfo f = { 0 };
		int rc = fb_query(p, &v, &f);
		if (rc == -ENOENT)
			break;
		n++;
		if (rc) {
			const char *fix = devnode_advice(DEVNODE_FB, -rc);
			fprintf(out, "  %s: cannot open: %s%s%s\n", p, strerror(-rc), fix[0] ? "; " : "", fix);
			continue;
		}
		char id[17], desc[96];
		memcpy(id, f.id, 16);
		id[16] = 0;
		describe(&v, desc, sizeof desc);
		enum surf_format fmt;
		fprintf(out, "  %s: %s, %ux%u, %s: %s%s\n", p, id, v.xres, v.yres, desc,
			fbdev_format(&v, &fmt) ? "unsupported format" : fmt == SURF_RGB565 ? "usable (RGB565)" : "usable (XRGB8888)",
			is_drm_emulation(&f) ? " (a DRM driver's emulation: the drm backend is better)" : "");
	}
	if (!n)
		fprintf(out, "  none\n");
	return n;
}
