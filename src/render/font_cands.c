/* font_cands: the candidates of the automatic font choice: a sheet's cell
 * size from its header alone, the file decoded only when asked for. */
#include "render/font.h"
#include "render/font_int.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int font_cands_add(struct font_cands *c, const char *path, char *err, size_t errlen)
{
	if (c->n >= FONT_CANDS_MAX)
		return font_fail(err, errlen, path, -ENOSPC, "more than %d font candidates", FONT_CANDS_MAX);
	struct font_cand *k = &c->c[c->n];
	*k = (struct font_cand){ .path = strdup(path) };
	if (!k->path)
		return font_fail(err, errlen, path, -ENOMEM, "out of memory");
	/* a PNG's size is in its IHDR chunk (bytes 16..23), a BMP's in its
	 * first 54 bytes: the first 256 hold either */
	uint8_t head[256];
	ssize_t n = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		n = pread(fd, head, sizeof head, 0);
	if (fd >= 0)
		close(fd);
	if (n <= 0 || !font_sheet_cell(head, (size_t)n, path, &k->cell_w, &k->cell_h)) {
		/* not a sheet whose size the header tells: decode it now (and
		 * say what is wrong with it now) */
		const struct font *f;
		c->n++;
		int rc = font_cands_get(c, c->n - 1, &f, err, errlen);
		if (rc) {
			c->n--;
			free(k->path);
			*k = (struct font_cand){ 0 };
			return rc;
		}
		k->cell_w = f->cell_w;
		k->cell_h = f->cell_h;
		return 0;
	}
	c->n++;
	return 0;
}

int font_cands_get(struct font_cands *c, int i, const struct font **out, char *err, size_t errlen)
{
	struct font_cand *k = &c->c[i];
	if (!k->font) {
		c->decodes++;
		int rc = font_load(&k->font, k->path, err, errlen);
		/* (rc set apart from font_fail(): scan-build does not follow a variadic
		 * function's return) */
		if (!rc && !k->font) { /* font_load's contract rules it out */
			font_fail(err, errlen, k->path, -EIO, "could not be loaded");
			rc = -EIO;
		}
		if (!rc && k->cell_w && (k->font->cell_w != k->cell_w || k->font->cell_h != k->cell_h)) {
			font_destroy(k->font);
			k->font = NULL;
			font_fail(err, errlen, k->path, -EINVAL, "file changed while pirogue ran");
			rc = -EINVAL;
		}
		if (rc) {
			size_t used = err && errlen ? strlen(err) : 0;
			if (c->advice && used + 1 < errlen)
				snprintf(err + used, errlen - used, " %s", c->advice);
			return rc;
		}
	}
	*out = k->font;
	return 0;
}

void font_cands_clear(struct font_cands *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->n; i++) {
		font_destroy(c->c[i].font);
		free(c->c[i].path);
		c->c[i] = (struct font_cand){ 0 };
	}
	c->n = 0;
	c->decodes = 0;
}
