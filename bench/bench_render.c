/* bench_render: the render path of a typical turn, from the key's command to the frame handed to the display: instructions and bytes, at 1920x1080 (headless, the pixels drm would flip) and on a terminal, against a full-frame redraw in the same run. */
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
#include "platform/term.h"
#include "render/console.h"
#include "render/font.h"
#include "ui/ui.h"

#define TURNS 40

struct rig {
	struct game *g;
	struct ui u;
	struct display *d;
	struct console *con, *scratch;
	int memfd; /* terminal: what it wrote */
	long cells, bytes, full_bytes, frames; /* damaged cells and bytes of the turns' frames */
	int px_per_cell;  /* pixel backends: bytes a damaged cell costs (0: terminal) */
};

/* The app's frame (app.c): draw, diff into the presented console, hand
 * the damaged cells to the display. */
static void frame(struct rig *r)
{
	ui_draw(&r->u, r->g, r->scratch);
	con_copy(r->con, r->scratch);
	if (!r->con->damaged)
		return;
	r->cells += r->con->damaged;
	r->bytes += (long)r->con->damaged * r->px_per_cell;
	if (r->d->ops->present(r->d, r->con)) {
		fprintf(stderr, "bench_render: present failed\n");
		exit(1);
	}
	con_clear_damage(r->con);
	r->frames++;
}

static size_t written(int fd)
{
	off_t n = lseek(fd, 0, SEEK_CUR);
	lseek(fd, 0, SEEK_SET);
	return n > 0 ? (size_t)n : 0;
}

/* A turn: the player walks (east, or west when blocked), monsters act, the
 * frame follows. */
static void turn(struct rig *r, int *dir)
{
	if (!game_apply(r->g, *dir > 0 ? CMD_MOVE_E : CMD_MOVE_W)) {
		*dir = -*dir;
		(void)game_apply(r->g, *dir > 0 ? CMD_MOVE_E : CMD_MOVE_W);
	}
	ui_after_command(&r->u, r->g);
	frame(r);
}

static void rig_open(struct rig *r, const char *what, const struct font *f)
{
	memset(r, 0, sizeof(*r));
	struct game_opts o = {.seed = 5, .mapgen = MAPGEN_CLASSIC};
	r->memfd = -1;
	int rc = game_create(&r->g, &o);
	r->u.screen = UI_PLAY;
	r->u.hover_x = r->u.hover_y = -1;
	r->u.score_rank = -1;
	int cols = 80, rows = 30;
	if (!rc && strcmp(what, "headless") == 0) {
		struct display_opts d = {.font = f, .width = 1920, .height = 1080, .scale = 1};
		rc = headless_display_ops.open(&r->d, &d);
		if (!rc)
			r->d->ops->console_size(r->d, &cols, &rows);
		r->px_per_cell = f->cell_w * f->cell_h * 4;
	} else if (!rc) {
		r->memfd = memfd_create("bench_render", 0);
		rc = r->memfd < 0 ? -1 : term_open_fds(&r->d, -1, r->memfd, cols, rows);
	}
	if (rc || con_create(&r->con, cols, rows) || con_create(&r->scratch, cols, rows)) {
		fprintf(stderr, "bench_render: cannot set up the %s display\n", what);
		exit(1);
	}
	frame(r); /* the first, full frame */
	if (r->memfd >= 0)
		(void)written(r->memfd);
	r->cells = r->bytes = r->frames = 0;
}

static void rig_close(struct rig *r)
{
	r->d->ops->close(r->d);
	con_destroy(r->con);
	con_destroy(r->scratch);
	game_destroy(r->g);
	if (r->memfd >= 0)
		close(r->memfd);
}

/* A full redraw of the same screen: every cell to the display. */
static void full(struct rig *r)
{
	if (r->memfd >= 0)
		(void)term_handle_resize(r->d);
	con_damage_all(r->con);
	r->full_bytes = (long)r->con->damaged * r->px_per_cell;
	r->d->ops->present(r->d, r->con);
	con_clear_damage(r->con);
}

int main(int argc, char **argv)
{
	bool ir = bench_ir_mode(argc, argv);
	char err[256];
	struct font *f;
	if (font_load(&f, "fonts/cp437-8x16.png", err, sizeof err)) {
		fprintf(stderr, "bench_render: %s\n", err);
		return 1;
	}
	static const char *const kinds[] = {"headless", "term"};
	if (!ir)
		printf("render path of a turn (player walks, monsters act, frame handed to the display), %d turns:\n",
		       TURNS);
	for (int k = 0; k < 2; k++) {
		struct rig r;
		rig_open(&r, kinds[k], f);
		char key[96];
		snprintf(key, sizeof key, "%s %dx%d cells: a turn's frame vs a full redraw",
			 k == 0 ? "1920x1080 headless" : "terminal", r.con->w, r.con->h);
		int dir = 1;
		double t0 = bench_now();
		if (ir)
			bench_ir_start();
		for (int t = 0; t < TURNS; t++)
			turn(&r, &dir);
		if (ir)
			bench_ir_stop(key, "turn", TURNS, 0);
		double tt = (bench_now() - t0) / TURNS;
		long bytes = r.memfd >= 0 ? (long)written(r.memfd) : r.bytes;
		double t1 = bench_now();
		if (ir)
			bench_ir_start();
		full(&r);
		if (ir)
			bench_ir_stop(key, "full", 1, 0);
		double tf = bench_now() - t1;
		long fbytes = r.memfd >= 0 ? (long)written(r.memfd) : r.full_bytes;
		if (!ir)
			printf("  %s: per turn %.1f cells, %ld bytes, %.1f us; full frame %d cells, %ld bytes, %.1f us; "
			       "bytes ratio %.4f, time ratio %.3f\n",
			       key, (double)r.cells / TURNS, bytes / TURNS, tt * 1e6, r.con->w * r.con->h, fbytes, tf * 1e6,
			       (double)bytes / TURNS / (double)fbytes, tt / tf);
		else
			printf("  %s: per turn %.1f cells, %ld bytes; full frame %ld bytes; bytes ratio %.4f\n", key,
			       (double)r.cells / TURNS, bytes / TURNS, fbytes, (double)bytes / TURNS / (double)fbytes);
		rig_close(&r);
	}
	font_destroy(f);
	return 0;
}
