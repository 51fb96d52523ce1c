/* blit: turns console cells into pixels on a surface (formats, stride, integer scale, rotation, damage). */
#ifndef PIROGUE_RENDER_BLIT_H
#define PIROGUE_RENDER_BLIT_H
#include <stdbool.h>
#include <stdint.h>
#include "render/console.h"
#include "render/font.h"
#include "render/surface.h"

/* Geometry. The console is laid out in "logical" pixels: cell (x, y) covers
 * [x*cw*scale, (x+1)*cw*scale) × [y*ch*scale, (y+1)*ch*scale) from the
 * logical top-left, cw×ch being the font's cell size. The logical image is
 * the surface's own pixels turned clockwise by s->rotation:
 *   0:   surface (X, Y) = (x, y)                     logical size W×H
 *   90:  surface (X, Y) = (W-1-y, x)                 logical size H×W
 *   180: surface (X, Y) = (W-1-x, H-1-y)             logical size W×H
 *   270: surface (X, Y) = (y, H-1-x)                 logical size H×W
 * (W, H: the surface's width and height). So at 90 the console's top row
 * runs down the surface's right edge, and a panel scanned out in portrait
 * shows an upright landscape console when it is mounted turned 90°
 * counter-clockwise (its scan-out top edge on the viewer's left).
 *
 * Colours. Coverage fonts: coverage a (0..255) gives, per 8-bit channel,
 * (fg*a + bg*(255-a) + 127) / 255, so 255 is exactly fg and 0 exactly bg.
 * Colour fonts (font->colour != NULL): the tile pixel's RGB blended over bg
 * with the same formula using the pixel's alpha (the cell's fg is unused).
 * RGB565 output keeps the top 5/6/5 bits of that 8-bit result. */
struct blitter;

/* Creates a blitter drawing with font f (borrowed; must outlive it) at
 * integer scale 1..8. Returns 0, -EINVAL or -ENOMEM. On x86-64 CPUs with
 * AVX2 it uses AVX2 code unless the environment has
 * PIROGUE_BLIT_BASELINE=1 (same pixels; for tests and comparisons). */
int blit_create(struct blitter **out, const struct font *f, int scale);
/* Frees b; accepts NULL. */
void blit_destroy(struct blitter *b);

/* Gives b the map sheet map (borrowed; must outlive b; NULL: none), whose
 * cells are two of the text font's cells wide and as tall (docs/cells.md):
 * a CON_WIDE cell is then drawn as the left half of map's glyph for its
 * ch, a CON_TAIL cell as the right half, each in its own text cell (so
 * rotation, damage and clipping work as for text). Without a sheet a
 * CON_WIDE cell shows its ch from the text font and a CON_TAIL cell a
 * blank. Text cells (no CON_WIDE or CON_TAIL) are drawn exactly as
 * before. Returns 0, -EINVAL (logged: the sheet's cells are not 2w×h) or
 * -ENOMEM (logged); on failure b keeps the sheet it had. */
int blit_set_map(struct blitter *b, const struct font *map);
/* blit_set_map with candidate i of c (a map sheet, font_cands_add'ed),
 * decoded only when a draw first holds a half of a wide map cell: a first
 * frame without map cells (a title) does not pay for it. Until then
 * blit_map gives NULL and blit_look the candidate's cells. Checks the cell
 * size now (-EINVAL, logged, as blit_set_map); a decoding or memory failure
 * later is logged in one line and the map cells are drawn with the text
 * font (heads' glyphs, blank tails). c must outlive b. */
int blit_set_map_later(struct blitter *b, struct font_cands *c, int i);
/* Gives b the tile sheet tiles (font_load_tiles; borrowed, must outlive b;
 * NULL: none), whose tiles are the map cells' size (the map sheet's cells,
 * or pending one's, else the text font's): a map cell (CON_MAP) with a
 * picture (console.h: CON_TILE, CON_MARK, CON_OVER, CON_DIM) whose every
 * layer the sheet has is drawn as that picture (blended over the cell's
 * bg where it is transparent), in halves for wide cells; any other as
 * before, from its glyph. Each picture is composed once, when first
 * drawn, into memory allocated here (no allocation while drawing). Give
 * it after the map sheet; a later blit_set_map whose cells differ drops
 * it (logged). Returns 0, -EINVAL (logged: the tiles are not the map
 * cells' size) or -ENOMEM (logged); on failure b keeps the sheet it had. */
int blit_set_tiles(struct blitter *b, const struct font *tiles);
/* blit_set_tiles with the sheet of t whose tiles are b's map cells' size
 * when t->on (NULL otherwise). Returns 0; -ENOENT when pictures are wanted
 * and t has no sheet of that size (logged; glyphs drawn), or
 * blit_set_tiles's error. */
int blit_use_tilesets(struct blitter *b, struct font_tilesets *t);
/* The tile sheet blit_set_tiles gave b, or NULL. */
const struct font *blit_tiles(const struct blitter *b);
/* The map sheet blit_set_map gave b, or NULL. */
const struct font *blit_map(const struct blitter *b);

/* Console size in cells that fits surface s (after rotation) with this
 * font and scale. Either may be 0 if the surface is too small. */
void blit_console_size(const struct blitter *b, const struct surface *s, int *cols, int *rows);

/* Draws console c onto s. damage: NULL draws every cell; otherwise only the
 * cells whose damage byte (same layout as c->damage) is nonzero. Cells that
 * fall off the surface are clipped; pixels outside the console area (and
 * the padding bytes at the end of each row) are not touched. Never reads
 * the surface. The result of a damaged-only draw over the previous frame is
 * pixel-identical to a full draw. s->rotation must be 0, 90, 180 or 270 and
 * s->format a known format; otherwise nothing is drawn. */
void blit_draw(struct blitter *b, const struct console *c, struct surface *s, const uint8_t *damage);
/* blit_draw(b, c, s, NULL) onto a surface that is all black (every pixel
 * 0: memory fresh from calloc or the kernel, or blit_clear(s, 0)): the
 * cells it would draw black (a glyph with no coverage on a black
 * background) are left as they are, so a first frame pays only for what it
 * shows; the pixels are the same as blit_draw's. Returns 0, or -ENOMEM
 * (then every cell was drawn, as blit_draw does). */
int blit_draw_on_black(struct blitter *b, const struct console *c, struct surface *s);
/* The same, told where each console row's damage lies (rows[y] spans it;
 * NULL: every row is looked at whole), so that clean rows and the clean
 * ends of rows cost nothing. blit_draw with c->damage uses c->row_damage
 * so. */
void blit_draw_rows(struct blitter *b, const struct console *c, struct surface *s, const uint8_t *damage,
		    const struct con_span *rows);

/* Moves on s the pixels of c's cells damaged CON_MOVED (console.h:
 * c->move, made since the last present) from where their source cells
 * were drawn, instead of drawing them; reads the surface. Then
 * con_moved_done(c) and a damaged draw (blit_draw with c->damage) give
 * what a whole draw gives. Returns 0 (also when c has no move), or
 * -ERANGE when the console does not fit on s (nothing moved: draw them). */
int blit_move_cells(const struct blitter *b, const struct console *c, struct surface *s);

/* The largest scale (1..8) at which font f shows at least cols × rows cells
 * on surface s (rotation included); 1 when even scale 1 shows fewer. For
 * backends given scale 0 ("auto": the largest that fits 80×50 cells). */
int blit_fit_scale(const struct font *f, const struct surface *s, int cols, int rows);

/* The automatic choice of font and scale for surface s among the n >= 1
 * candidate fonts: for each, the largest scale (1..8; only fixed_scale
 * when it is 1..8) that shows at least cols × rows cells; of those, the
 * font whose cols × rows cells cover the most of the surface, on a tie
 * the smaller scale (the font's own pixels), then the earlier candidate.
 * When no candidate shows cols × rows (a small panel), at scale 1 or
 * fixed_scale: of the fonts whose lines of text keep a gap
 * (font_lines_apart) and that show at least min_cols × min_rows, the one
 * that shows the most cells; when there is none, the font that shows the
 * most cells. Returns the index; *scale gets the scale. */
int blit_choose(const struct font *const *fonts, int n, const struct surface *s, int cols, int rows, int min_cols,
		int min_rows, int fixed_scale, int *scale);

/* The same choice among the candidates c (c->n >= 1), decoding only what it
 * needs: the chosen font, and on a small panel the fonts asked in turn
 * whether their lines keep a gap (most cells first) until one does (usually
 * one decode in all). Returns 0 with the font in *font and the scale in
 * *scale, or a negative errno with one line in err (a candidate that cannot
 * be decoded: font_cands_get). */
int blit_choose_cands(struct font_cands *c, const struct surface *s, int cols, int rows, int min_cols, int min_rows,
		      int fixed_scale, const struct font **font, int *scale, char *err, size_t errlen);

/* The look of the automatic choice (docs/fonts.md) among n font cells
 * (cells[i]: width, height, and whether it is a text font) for a logical
 * surface lw×lh: a text font of a monospace font's proportions (width/height 0.45..0.65) with a square map
 * sheet among the others exactly twice as wide, at a scale 1..8 (only
 * fixed_scale when it is 1..8) whose console is at least 40×24 cells and
 * leaves at most 3% of the width and of the height unused; of those, on a
 * surface 720 or more high the smallest cells at least 1/45 of its height,
 * else (or when there is none) the largest cells that still give 80×30,
 * else the largest cells; on a tie the smaller scale, then the earlier.
 * With step 1 (-1): one step larger (smaller) text than that, the options
 * screen's text size: of the pairs at a scale whose console is at least
 * 40×24 and leaves at most 3% unused (any tier), the next cell height above
 * (below) the automatic choice's, on a tie the smaller scale, then the
 * earlier; when there is none, the automatic choice. Returns 0 with the
 * indexes of the text font and its map sheet and the scale, or -1 when no
 * pair qualifies. */
int blit_look_pick(const int (*cells)[3], int n, int lw, int lh, int fixed_scale, int step, int *text, int *map,
		   int *scale);
/* The automatic choice for pixel displays: blit_look_pick among the
 * candidates c (their text flags saying which are text fonts; decoding the
 * two chosen), else blit_choose_cands (80×50,
 * at least 40×24) with *map NULL (a square font: map cells one text cell
 * wide). Returns 0, or a negative errno with one line in err. */
int blit_choose_look(struct font_cands *c, const struct surface *s, int fixed_scale, int step, const struct font **font,
		     const struct font **map, int *scale, char *err, size_t errlen);
/* The same, the map sheet not decoded: *map_i its candidate (for
 * blit_set_map_later), -1 when the choice has none. */
int blit_choose_look_later(struct font_cands *c, const struct surface *s, int fixed_scale, int step,
			   const struct font **font, int *map_i, int *scale, char *err, size_t errlen);

/* What a blitter shows on a surface: the logical surface, the text cell and
 * map cell on it (pixels, scale included; the map cell is the text cell
 * when there is no map sheet), the console that fits and the pixels left
 * unused on each side (centred: blit_set_centred). */
struct blit_look {
	int surf_w, surf_h, text_w, text_h, map_w, map_h, cols, rows;
	int left, top, right, bottom;
};
/* Fills l for b on s. */
void blit_look(const struct blitter *b, const struct surface *s, struct blit_look *l);
/* Centres the console on the surface (on: the unused pixels split evenly,
 * the odd one right and below) instead of drawing it from the top-left. */
void blit_set_centred(struct blitter *b, bool on);

/* The cell cache: b keeps the pixels of cells it draws with damage (not
 * whole draws), those of its costly paths (anti-aliased and colour
 * glyphs, mask cells not 8 pixels wide) wholly on the surface, to copy
 * them when a cell of the same glyph and colours is drawn again (kept the
 * second time one is seen). slots: how many cells it keeps, a power of
 * two (allocated on the next damaged draw); 0: none (every cell drawn
 * afresh); -1: the default (up to 4096 in at most 4 MB, 2048 of 12×24 at
 * 1080p). The pixels are the same either way. Returns 0, or -EINVAL for
 * another count (the cache unchanged). */
int blit_set_cell_cache(struct blitter *b, int slots);

/* Fills the whole surface (width × height pixels; not the row padding) with
 * colour rgb (0xRRGGBB). */
void blit_clear(struct surface *s, uint32_t rgb);

#endif
