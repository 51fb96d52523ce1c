/* headless: the display backend that draws into a surface in memory. See headless.h. */
#include "platform/headless.h"
#include "core/log.h"
#include "render/blit.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stb_image_write.h>

struct headless {
	struct display base;
	struct surface s;
	struct blitter *blit;
	struct font_cands *fonts; /* the automatic choice's candidates (borrowed), NULL: a --font */
	struct font_tilesets *tiles; /* the tile sheets (borrowed; NULL: none) */
	int scale_opt, text_step; /* what it was asked (--scale, the text size) */
	int last_w, last_h; /* console size last presented (0: none yet) */
	bool black;         /* the surface is all black: nothing drawn on it yet */
};

/* The blitter for d's font (or the automatic choice among d->fonts, its
 * text d->text_step larger or smaller), replacing the one it had; the
 * look and map cells from it. Returns 0 or a negative errno (logged; the
 * blitter it had kept). */
static int make_look(struct headless *d)
{
	const struct font *font = d->base.font;
	int scale = d->scale_opt, map = -1, rc;
	if (d->fonts) {
		char err[512];
		/* the map sheet decoded when a frame first shows map cells */
		if ((rc = blit_choose_look_later(d->fonts, &d->s, d->scale_opt, d->text_step, &font, &map, &scale, err,
						 sizeof err))) {
			log_error("%s", err);
			return rc;
		}
	} else if (!scale) {
		scale = blit_fit_scale(font, &d->s, 80, 50);
	}
	struct blitter *b;
	if ((rc = blit_create(&b, font, scale)))
		return rc; /* blit_create said why */
	if (map >= 0 && (rc = blit_set_map_later(b, d->fonts, map))) {
		blit_destroy(b);
		return rc; /* blit_set_map_later said why */
	}
	if (d->fonts)
		blit_use_tilesets(b, d->tiles); /* said why when it cannot: glyphs */
	blit_destroy(d->blit);
	d->blit = b;
	d->base.font = font;
	d->base.map_cw = map >= 0 ? 2 : 1;
	blit_set_centred(d->blit, true);
	blit_look(d->blit, &d->s, &d->base.look);
	return 0;
}

static int headless_open(struct display **out, const struct display_opts *o)
{
	*out = NULL;
	int w = o->width ? o->width : HEADLESS_DEFAULT_W;
	int h = o->height ? o->height : HEADLESS_DEFAULT_H;
	if (!o->font && !o->fonts) {
		log_error("headless: no font to draw with");
		return -EINVAL;
	}
	if (w < 1 || h < 1 || w > HEADLESS_MAX_SIDE || h > HEADLESS_MAX_SIDE) {
		log_error("headless: a surface of %d×%d pixels is not possible; use --size WxH with sides 1..%d", w, h,
			  HEADLESS_MAX_SIDE);
		return -EINVAL;
	}
	if (o->rotation != 0 && o->rotation != 90 && o->rotation != 180 && o->rotation != 270) {
		log_error("headless: rotation %d is not 0, 90, 180 or 270", o->rotation);
		return -EINVAL;
	}
	int rc = -ENOMEM;
	struct headless *d = calloc(1, sizeof *d);
	if (!d)
		goto fail;
	d->base.ops = &headless_display_ops;
	d->s.width = w;
	d->s.height = h;
	d->s.stride = w * 4;
	d->s.format = SURF_XRGB8888;
	d->s.rotation = o->rotation;
	d->s.pixels = calloc((size_t)h, (size_t)d->s.stride); /* black: nothing to clear */
	if (!d->s.pixels)
		goto fail_d;
	d->fonts = o->fonts;
	d->scale_opt = o->scale;
	d->text_step = o->text_step;
	d->tiles = o->tiles;
	d->base.font = o->font;
	if ((rc = make_look(d)))
		goto fail_px; /* make_look said why */
	d->black = true;
	*out = &d->base;
	return 0;
fail_px:
	free(d->s.pixels);
fail_d:
	free(d);
fail:
	if (rc == -ENOMEM)
		log_error("headless: out of memory for a %d×%d surface", w, h);
	return rc;
}

static void headless_close(struct display *base)
{
	if (!base)
		return;
	struct headless *d = (struct headless *)base;
	blit_destroy(d->blit);
	free(d->s.pixels);
	free(d);
}

static void headless_console_size(struct display *base, int *cols, int *rows)
{
	struct headless *d = (struct headless *)base;
	blit_console_size(d->blit, &d->s, cols, rows);
}

static int headless_present(struct display *base, struct console *c)
{
	struct headless *d = (struct headless *)base;
	if (c->w != d->last_w || c->h != d->last_h) {
		/* a new console: what the old one left outside it must go too;
		 * then on black only what is not black is drawn */
		if (!d->black)
			blit_clear(&d->s, 0);
		d->black = false;
		(void)blit_draw_on_black(d->blit, c, &d->s); /* -ENOMEM: drawn whole */
		d->last_w = c->w;
		d->last_h = c->h;
	} else {
		/* a moved view's pixels moved, then what changed drawn */
		if (c->move.w && blit_move_cells(d->blit, c, &d->s) == 0)
			con_moved_done(c);
		blit_draw(d->blit, c, &d->s, c->damage);
	}
	return 0;
}

static int headless_poll_fds(struct display *base, int *fds, int max)
{
	return 0;
}

static int headless_dispatch(struct display *base, int fd, struct in_event *ev, int max)
{
	return 0;
}

static void write_to_file(void *ctx, void *data, int size)
{
	FILE *f = ctx;
	if (size > 0)
		fwrite(data, 1, (size_t)size, f);
}

static int headless_screenshot(struct display *base, const char *path)
{
	struct headless *d = (struct headless *)base;
	int w = d->s.width, h = d->s.height;
	uint8_t *rgb = malloc((size_t)w * (size_t)h * 3);
	if (!rgb) {
		log_error("screenshot %s: out of memory", path);
		return -ENOMEM;
	}
	for (int y = 0; y < h; y++) {
		const uint8_t *row = (const uint8_t *)d->s.pixels + (size_t)y * (size_t)d->s.stride;
		uint8_t *o = rgb + (size_t)y * (size_t)w * 3;
		for (int x = 0; x < w; x++, o += 3) {
			uint32_t p;
			memcpy(&p, row + 4 * x, 4);
			o[0] = (uint8_t)(p >> 16);
			o[1] = (uint8_t)(p >> 8);
			o[2] = (uint8_t)p;
		}
	}
	int rc = 0;
	FILE *f = fopen(path, "wb");
	if (!f) {
		rc = -errno;
		log_error("screenshot %s: cannot create the file (%s); give a path in a writable directory", path,
			  strerror(errno));
		goto out;
	}
	errno = 0;
	int ok = stbi_write_png_to_func(write_to_file, f, w, h, 3, rgb, w * 3);
	int werr = ferror(f) ? (errno ? errno : EIO) : 0;
	if (fclose(f) && !werr)
		werr = errno ? errno : EIO;
	if (!ok || werr) {
		rc = werr ? -werr : -ENOMEM;
		log_error("screenshot %s: writing the PNG failed (%s)", path, strerror(-rc));
		struct stat st;
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			remove(path); /* no half-written picture; never a device */
	}
out:
	free(rgb);
	return rc;
}

static int headless_set_text_step(struct display *base, int step)
{
	struct headless *d = (struct headless *)base;
	if (!d->fonts)
		return -ENOTSUP;
	int was = d->text_step;
	d->text_step = step;
	int rc = make_look(d);
	if (rc) {
		d->text_step = was;
		return rc;
	}
	d->last_w = d->last_h = 0; /* the next present draws it whole */
	return 0;
}

static int headless_set_tiles(struct display *base, bool on)
{
	struct headless *d = (struct headless *)base;
	if (!d->fonts || !d->tiles || !d->tiles->n)
		return -ENOTSUP;
	d->tiles->on = on;
	int rc = blit_use_tilesets(d->blit, d->tiles);
	d->last_w = d->last_h = 0; /* the next present draws it whole */
	return on && rc ? -ENOTSUP : 0;
}

const struct surface *headless_surface(struct display *base)
{
	return &((struct headless *)base)->s;
}

const struct display_ops headless_display_ops = {
	.name = "headless",
	.open = headless_open,
	.close = headless_close,
	.console_size = headless_console_size,
	.present = headless_present,
	.poll_fds = headless_poll_fds,
	.dispatch = headless_dispatch,
	.screenshot = headless_screenshot,
	.set_text_step = headless_set_text_step,
	.set_tiles = headless_set_tiles,
	.suspend = NULL,
	.resume = NULL,
};
