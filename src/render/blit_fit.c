/* blit_fit: the automatic choice of the integer scale. */
#include "render/blit.h"

int blit_fit_scale(const struct font *f, int w, int h, int rotation, int want_cols, int want_rows)
{
	if (rotation == 90 || rotation == 270) {
		int t = w;
		w = h;
		h = t;
	}
	for (int s = 8; s > 1; s--)
		if (w / (f->cell_w * s) >= want_cols && h / (f->cell_h * s) >= want_rows)
			return s;
	return 1;
}
