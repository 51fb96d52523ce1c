/* The consoles sized to the display's grid and the display's layout line:
 * for the loop (a resize, the first frame) and the options screen (a new
 * text size). */
#include "app/appstate.h"
#include "core/log.h"
#include <errno.h>
#include <stdlib.h>

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
