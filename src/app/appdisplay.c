/* The display's start-up and the consoles sized to it: the display chosen
 * and opened with its fonts and the VT (and closed again when the state
 * directory's settings, read later, change it), the signals, the consoles
 * sized to the display's grid and its layout line, for the start, the loop
 * (a resize) and the options screen (a new text size). */
#include "app/appstate.h"
#include "app/backend.h"
#include "app/data.h"
#include "core/log.h"
#include "platform/crash.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>

/* The signals read through a signalfd (contract in appstate.h). */
int open_signals(struct app *a)
{
	if (a->sfd >= 0)
		return 0;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGWINCH);
	sigaddset(&set, VT_RELEASE_SIGNAL);
	sigaddset(&set, VT_ACQUIRE_SIGNAL);
	if (!a->bare) {
		/* the terminal: a stop (kill -TSTP, kill -STOP) gives it back
		 * and a continue takes it again (docs/term.md) */
		sigaddset(&set, SIGTSTP);
		sigaddset(&set, SIGCONT);
	}
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -errno;
	a->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (a->sfd < 0) {
		int e = errno;
		log_error("cannot create a signalfd: %s", strerror(e));
		return -e;
	}
	return 0;
}

/* The display chosen and opened with its font (contract in appstate.h). */
int open_display(struct app *a)
{
	struct display_opts o;
	backend_opts(a->cfg, &o);
	a->ops = backend_choose(a->cfg, &o);
	if (!a->ops)
		return -ENODEV;
	a->bare = backend_is_bare(a->ops);
	int rc = backend_check(a->ops, &o);
	if (rc)
		return rc;
	if (a->bare) {
		/* the console: crash handlers first, so that nothing below can
		 * leave it in graphics mode; VT signals blocked before vt_open */
		if ((rc = crash_install_handlers()) || (rc = open_signals(a)))
			return rc;
		/* a watcher's screen is a second one of the machine whose game
		 * holds the VT and the keyboard (the socket is local): it takes
		 * neither (docs/watch.md) */
		if (!a->watching && (rc = vt_open(&a->vt, a->cfg->vt)))
			return rc;
	}
	/* the terminal draws text, but a bad --font is never silently ignored */
	if ((strcmp(a->ops->name, "term") || a->cfg->font) &&
	    data_load_fonts(a->cfg->font, a->cfg->font_from, a->cfg->font_layout, &a->font, &a->fonts))
		return a->cfg->font ? 1 : -EINVAL; /* else the installed fonts are missing or damaged */
	/* a tile sheet named is checked on every backend, as --font is */
	const char *tv = a->cfg->tiles;
	bool sheet = tv && strcmp(tv, "on") && strcmp(tv, "off");
	if ((strcmp(a->ops->name, "term") || sheet) && data_load_tiles(tv, a->cfg->tiles_from, &a->tiles))
		return 1; /* said: a wrong value, exit status 2 */
	o.font = a->font;
	if (a->fonts.n) {
		o.fonts = &a->fonts;
		o.tiles = &a->tiles;
	}
	/* the terminal backend itself holds log lines back while it owns the
	 * terminal, and writes them when it gives it back */
	return a->ops->open(&a->disp, &o);
}

/* Whether two strings (either NULL) differ. */
static bool differ(const char *x, const char *y)
{
	return (x == NULL) != (y == NULL) || (x && strcmp(x, y));
}

/* Whether the display opened for was would be opened otherwise for now
 * (contract in appstate.h). */
bool display_config_differs(const struct app_config *was, const struct app_config *now)
{
	return differ(was->backend, now->backend) || differ(was->replay, now->replay) ||
	       differ(was->font, now->font) || was->font_layout != now->font_layout ||
	       differ(was->tiles, now->tiles) || was->scale != now->scale || was->text_step != now->text_step ||
	       was->rotation != now->rotation || was->width != now->width || was->height != now->height ||
	       differ(was->card, now->card) || differ(was->connector, now->connector) || differ(was->fb, now->fb) ||
	       was->mode_w != now->mode_w || was->mode_h != now->mode_h || was->mode_hz != now->mode_hz ||
	       was->vt != now->vt || was->kiosk != now->kiosk;
}

/* The display, its VT and fonts closed (contract in appstate.h). */
void close_display(struct app *a)
{
	if (a->disp)
		a->ops->close(a->disp);
	a->disp = NULL;
	vt_close(a->vt); /* text mode and keyboard back, after the CRTC */
	a->vt = NULL;
	font_destroy(a->font);
	a->font = NULL;
	font_cands_clear(&a->fonts);
	font_tilesets_clear(&a->tiles);
	a->ops = NULL;
	a->bare = false;
}


/* The consoles sized to the display's grid (contract in appstate.h). */
int size_consoles(struct app *a)
{
	int cols, rows;
	a->ops->console_size(a->disp, &cols, &rows);
	if (cols < 1)
		cols = 1;
	if (rows < 1)
		rows = 1;
	int rc;
	a->ui.map_cw = a->disp->map_cw; /* the display's map cells (its choice may change with its mode) */
	if (!a->con) {
		if ((rc = con_create(&a->con, cols, rows)) || (rc = con_create(&a->scratch, cols, rows)))
			return rc;
		if (!(a->drawn = calloc(1, sizeof *a->drawn)))
			return -ENOMEM;
	} else if (a->con->w != cols || a->con->h != rows) {
		if ((rc = con_resize(a->con, cols, rows)) || (rc = con_resize(a->scratch, cols, rows)))
			return rc;
	}
	return 0;
}

/* With --verbose, what the automatic choice (or --font, --scale, the text
 * size) made of a pixel display: the one "layout" line (README). */
void log_layout(const struct app *a)
{
	const struct blit_look *lk = &a->disp->look;
	if (lk->surf_w)
		log_info("layout %dx%d text %dx%d map %dx%d cells %dx%d margin %d %d %d %d", lk->surf_w, lk->surf_h,
			 lk->text_w, lk->text_h, lk->map_w, lk->map_h, lk->cols, lk->rows, lk->left, lk->top, lk->right,
			 lk->bottom);
}
