/* blit: turns console cells into pixels on a surface (formats, stride, integer scale, rotation, damage). */
#ifndef PIROGUE_RENDER_BLIT_H
#define PIROGUE_RENDER_BLIT_H
#include <stdint.h>
#include "render/console.h"
#include "render/font.h"
#include "render/surface.h"

struct blitter;

/* Creates a blitter drawing with font f (borrowed; must outlive it) at
 * integer scale 1..8. Returns 0, -EINVAL or -ENOMEM. */
int blit_create(struct blitter **out, const struct font *f, int scale);
/* Frees b; accepts NULL. */
void blit_destroy(struct blitter *b);

/* Console size in cells that fits surface s (after rotation) with this
 * font and scale. Either may be 0 if the surface is too small. */
void blit_console_size(const struct blitter *b, const struct surface *s, int *cols, int *rows);

/* Draws console c onto s. damage: NULL draws every cell; otherwise only the
 * cells whose damage byte (same layout as c->damage) is nonzero. Cells that
 * fall off the surface are clipped; pixels outside the console area are not
 * touched. Never reads the surface. The result of a damaged-only draw over
 * the previous frame is pixel-identical to a full draw. */
void blit_draw(struct blitter *b, const struct console *c, struct surface *s, const uint8_t *damage);

/* Fills the whole surface with colour rgb (0xRRGGBB). */
void blit_clear(struct surface *s, uint32_t rgb);

#endif
