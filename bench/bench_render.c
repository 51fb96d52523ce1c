/* bench_render: the render path of a typical turn, from the key's command to the frame handed to the display: instructions and bytes, at 1920x1080 (headless, and drm's two buffers without the device) and on an 80x24 terminal, against a full-frame redraw in the same run. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"
#include "game/game.h"
#include "platform/display.h"
#include "platform/headless.h"
#include "platform/kmsutil.h"
#include "platform/term.h"
#include "render/blit.h"
#include "render/console.h"
#include "render/font.h"
#include "ui/ui.h"

#define TURNS 40
#define HOVERS 24 /* frames of the pointer moving */

enum kind { HEADLESS, DRM, TERM, KINDS };
static const char *const kind_name[KINDS] = {"1920x1080 headless", "1920x1080 drm (two buffers, no device)",
					     "terminal"};

/* drm's present without a device: its two dumb buffers as memory, the
 * damage of each kept by kms_stale and drawn by kms_stale_draw exactly as
 * drm_present/draw_frame do; the page flip (an ioctl, done when the next
 * key comes) is taken as done at once. */
struct fake_drm {
	struct blitter *blit;
	struct surface buf[2];
	struct kms_stale stale;
	int front;
	const struct console *con;
};

struct rig {
	enum kind kind;
	struct game *g;
	struct ui u;
	struct ui_drawn *drawn;
	struct display *d;     /* headless, terminal */
	struct fake_drm drm;   /* drm */
	struct console *con, *scratch;
	int memfd; /* terminal: what it wrote */
	long cells, bytes, frames; /* damaged cells and bytes of the turns' frames */
	long px_per_cell;          /* pixel displays: bytes a cell costs (0: terminal) */
};

static void die(const char *what)
{
	fprintf(stderr, "bench_render: %s\n", what);
	exit(1);
}

/* Around bench bookkeeping: callgrind stops counting at the first call and
 * counts again at the second (a no-op outside callgrind). */
static void toggle_counting(void)
{
	CALLGRIND_TOGGLE_COLLECT;
}

/* drm_present and draw_frame: the console's damage made stale in both
 * buffers, the back one's stale cells drawn, the flip. Returns the cells
 * drawn. */
static long drm_present(struct fake_drm *f, struct console *c)
{
	if (f->con != c) {
		if (kms_stale_resize(&f->stale, c->w, c->h))
			die("out of memory");
		f->con = c;
	} else {
		kms_stale_add(&f->stale, c->damage, c->row_damage);
	}
	int b = 1 - f->front;
	long n = 0;
	toggle_counting();
	for (size_t i = 0; i < (size_t)c->w * (size_t)c->h; i++)
		n += f->stale.map[b][i] != 0;
	toggle_counting();
	if (kms_stale_draw(&f->stale, b, f->blit, c, &f->buf[b]))
		f->front = b;
	return n;
}

/* Hands the damaged cells of the shown console to the display. */
static void present(struct rig *r)
{
	if (r->kind == DRM)
		r->bytes += drm_present(&r->drm, r->con) * r->px_per_cell;
	else if (r->d->ops->present(r->d, r->con))
		die("present failed");
	else if (r->kind == HEADLESS)
		r->bytes += r->con->damaged * r->px_per_cell;
}

/* The app's frame (app.c): the shown console brought up to date
 * (ui_draw_frame), its damage handed to the display. */
static void frame(struct rig *r)
{
	ui_draw_frame(r->drawn, &r->u, r->g, r->con, r->scratch);
	if (!r->con->damaged)
		return;
	r->cells += r->con->damaged;
	present(r);
	con_clear_damage(r->con);
	r->frames++;
}

static size_t written(int fd)
{
	off_t n = lseek(fd, 0, SEEK_CUR);
	lseek(fd, 0, SEEK_SET);
	return n > 0 ? (size_t)n : 0;
}

static void rig_open(struct rig *r, enum kind k, const struct font *f)
{
	memset(r, 0, sizeof(*r));
	r->kind = k;
	r->memfd = -1;
	r->drawn = calloc(1, sizeof *r->drawn);
	struct game_opts o = {.seed = 5, .mapgen = MAPGEN_CLASSIC};
	if (!r->drawn || game_create(&r->g, &o))
		die("cannot make the game");
	r->u.screen = UI_PLAY;
	r->u.hover_x = r->u.hover_y = -1;
	r->u.score_rank = -1;
	int cols = 80, rows = 24, rc = 0;
	struct display_opts d = {.font = f, .width = 1920, .height = 1080, .scale = 1};
	if (k == HEADLESS || k == DRM) {
		rc = headless_display_ops.open(&r->d, &d);
		if (!rc)
			r->d->ops->console_size(r->d, &cols, &rows);
		r->px_per_cell = (long)f->cell_w * f->cell_h * 4;
	}
	if (!rc && k == DRM) {
		r->d->ops->close(r->d);
		r->d = NULL;
		rc = blit_create(&r->drm.blit, f, 1);
		for (int i = 0; i < 2 && !rc; i++) {
			r->drm.buf[i] = (struct surface){.width = 1920, .height = 1080, .stride = 1920 * 4};
			r->drm.buf[i].pixels = calloc(1920 * 1080, 4);
			rc = r->drm.buf[i].pixels ? 0 : -1;
		}
	}
	if (!rc && k == TERM) {
		r->memfd = memfd_create("bench_render", 0);
		rc = r->memfd < 0 ? -1 : term_open_fds(&r->d, -1, r->memfd, cols, rows);
	}
	if (rc || con_create(&r->con, cols, rows) || con_create(&r->scratch, cols, rows))
		die("cannot set up a display");
	frame(r); /* the first, full frame */
	if (k == DRM)
		(void)drm_present(&r->drm, r->con); /* into the other buffer too */
	if (r->memfd >= 0)
		(void)written(r->memfd);
	r->cells = r->bytes = r->frames = 0;
}

static void rig_close(struct rig *r)
{
	if (r->d)
		r->d->ops->close(r->d);
	blit_destroy(r->drm.blit);
	for (int i = 0; i < 2; i++)
		free(r->drm.buf[i].pixels);
	kms_stale_free(&r->drm.stale);
	con_destroy(r->con);
	con_destroy(r->scratch);
	game_destroy(r->g);
	free(r->drawn);
	if (r->memfd >= 0)
		close(r->memfd);
}

/* A turn: the player walks (east, or west when blocked) and monsters act
 * (the game's work, counted apart), then the frame. */
static void turn(struct rig *r, int *dir, const char *key, double *tg, double *tr)
{
	double t0 = bench_now();
	bench_ir_start();
	if (!game_apply(r->g, *dir > 0 ? CMD_MOVE_E : CMD_MOVE_W)) {
		*dir = -*dir;
		(void)game_apply(r->g, *dir > 0 ? CMD_MOVE_E : CMD_MOVE_W);
	}
	ui_after_command(&r->u, r->g);
	bench_ir_stop("the game's work of the same turns (not part of the render path)", "game", 1, 0);
	double t1 = bench_now();
	bench_ir_start();
	frame(r);
	bench_ir_stop(key, "turn", 1, 0);
	*tg += t1 - t0;
	*tr += bench_now() - t1;
}

/* A frame after the pointer moved one cell over the map (no turn): its
 * description moves along. Returns the bytes the display got. */
static long hover(struct rig *r, int step, const char *key)
{
	/* the console cells over the map cells px - 6 .. px + 5, py + 2 */
	struct ui_layout l;
	int px, py, cam_x, cam_y;
	ui_layout(r->con->w, r->con->h, 1, &l);
	game_player_pos(r->g, &px, &py);
	ui_camera(&l, game_map(r->g)->w, game_map(r->g)->h, px, py, &cam_x, &cam_y);
	r->u.hover_x = l.view_x + px - cam_x - 6 + step % 12;
	r->u.hover_y = l.view_y + py - cam_y + 2;
	long before = r->bytes;
	off_t at = r->memfd >= 0 ? lseek(r->memfd, 0, SEEK_CUR) : 0;
	bench_ir_start();
	frame(r);
	bench_ir_stop(key, "pointer", 1, 0);
	return r->kind == TERM ? (long)(lseek(r->memfd, 0, SEEK_CUR) - at) : r->bytes - before;
}

/* A full redraw of the same screen through the same path: composed whole
 * (ui_draw into the scratch console, copied where it differs), every cell
 * to the display. Returns the bytes. */
static long full(struct rig *r)
{
	if (r->memfd >= 0)
		(void)term_handle_resize(r->d);
	ui_drawn_forget(r->drawn);
	ui_draw_frame(r->drawn, &r->u, r->g, r->con, r->scratch);
	con_damage_all(r->con);
	long before = r->bytes;
	present(r);
	con_clear_damage(r->con);
	return r->kind == TERM ? (long)written(r->memfd) : r->bytes - before;
}

int main(int argc, char **argv)
{
	bool ir = bench_ir_mode(argc, argv);
	char err[256];
	struct font *f;
	if (font_load(&f, "fonts/cp437-8x16.png", err, sizeof err))
		die(err);
	if (!ir)
		printf("render path of a turn (player walks, monsters act; from the command to the frame handed to the "
		       "display), %d turns, against a full redraw of the same screen:\n",
		       TURNS);
	for (int k = 0; k < KINDS; k++) {
		struct rig r;
		rig_open(&r, (enum kind)k, f);
		char key[128];
		snprintf(key, sizeof key, "%s %dx%d cells: a turn's frame vs a full redraw", kind_name[k], r.con->w,
			 r.con->h);
		int dir = 1;
		double tg = 0, tr = 0;
		for (int t = 0; t < TURNS; t++)
			turn(&r, &dir, key, &tg, &tr);
		long bytes = r.kind == TERM ? (long)written(r.memfd) : r.bytes, cells = r.cells;
		/* then the pointer moving over the map (no turns) */
		char hkey[160];
		snprintf(hkey, sizeof hkey, "%s %dx%d cells: the pointer moved one cell over the map vs a full redraw",
			 kind_name[k], r.con->w, r.con->h);
		long hbytes = 0;
		for (int i = 0; i < HOVERS; i++)
			hbytes += hover(&r, i, hkey);
		r.u.hover_x = r.u.hover_y = -1;
		frame(&r);
		if (r.memfd >= 0)
			(void)written(r.memfd); /* (full counts from here) */
		/* and a full redraw, for both */
		double t1 = bench_now();
		bench_ir_start();
		long fbytes = full(&r);
		bench_ir_stop(key, "full", 1, 0);
		double tf = bench_now() - t1;
		bench_ir_start();
		(void)full(&r);
		bench_ir_stop(hkey, "full", 1, 0);
		printf("  %s: per turn %.1f cells, %ld bytes; full frame %d cells, %ld bytes; bytes ratio %.4f", key,
		       (double)cells / TURNS, bytes / TURNS, r.con->w * r.con->h, fbytes,
		       (double)bytes / TURNS / (double)fbytes);
		if (!ir)
			printf("; render %.2f us a turn (the game's work %.2f us), full %.1f us: time ratio %.4f",
			       tr / TURNS * 1e6, tg / TURNS * 1e6, tf * 1e6, tr / TURNS / tf);
		printf("\n  %s: %ld bytes a frame\n", hkey, hbytes / HOVERS);
		rig_close(&r);
	}
	font_destroy(f);
	return 0;
}
