/* fov: field of view by symmetric shadowcasting (Albert Ford's algorithm, integer slopes) on plain arrays. */
#ifndef PIROGUE_GAME_FOV_H
#define PIROGUE_GAME_FOV_H
#include <stdint.h>

/* opaque: w*h bytes, index y*w+x, nonzero = blocks sight; cells outside the
 * array are opaque. Writes visible (w*h bytes, 0/1), all cleared first.
 * The origin is always visible (if it is on the array) and is treated as
 * floor. A cell (x,y) is in range when dx*dx + dy*dy <= radius*radius +
 * radius (a round disc); radius < 0 means unlimited. A floor cell is visible
 * when the segment between the centres is clear (Ford's shadowcasting, walls
 * as diamonds) and crosses no gap between two walls touching at a corner;
 * so it is symmetric: floor A sees floor B exactly when B sees A. A wall is
 * lit when part of it is in view (Ford's rule: rooms show all their walls
 * and corners; fov_light_walls adds the rest of the walls bounding visible
 * floor). Does nothing when w or h <= 0. */
void fov_compute(const uint8_t *opaque, int w, int h, int ox, int oy, int radius, uint8_t *visible);
/* After fov_compute with the same arguments: lights every wall, in range,
 * among the 8 neighbours of a visible floor cell (e.g. the walls beside a
 * doorway seen from the side), so no visible floor has a dark wall edge.
 * Only walls are added: floor visibility stays symmetric. */
void fov_light_walls(const uint8_t *opaque, int w, int h, int ox, int oy, int radius, uint8_t *visible);

/* The cells a viewer's last fov_update set: x0..x1, y0..y1 (empty when
 * x1 < x0). fov_update clears only these, so its cost does not grow with the
 * map. */
struct fov_box {
	int x0, y0, x1, y1;
};

/* A box covering a whole w x h array: the first fov_update on an array in
 * an unknown state clears all of it. */
struct fov_box fov_box_all(int w, int h);

/* How fov_update reads its cells: nonzero blocks sight (fov_compute's
 * opacity array), or zero blocks sight (a tile array whose wall is 0). */
enum fov_cells { FOV_OPAQUE_NONZERO, FOV_OPAQUE_ZERO };

/* What the game runs each turn: clears in visible (w*h) only the box the last
 * call left in *last, then sets exactly what fov_compute followed by
 * fov_light_walls would (same arguments, cells read as kind says), and
 * stores in *last the box of the cells it set. Cost grows with what is in
 * range, never with w * h. Does nothing when w or h <= 0; an origin off the
 * array leaves visible all clear. */
void fov_update(const uint8_t *cells, enum fov_cells kind, int w, int h, int ox, int oy, int radius,
		uint8_t *visible, struct fov_box *last);

/* The cells fov_update set, as bits, when its bit-parallel scan made the
 * view (0 <= radius <= 30): row y0 + k's cells x0 + i with bit i of
 * bits[k] set are the ones set to 1 (k < n); every other cell of visible
 * is 0. n = -1 when the view was made otherwise (read visible then). */
#define FOV_ROWS_MAX 61
struct fov_rows {
	int x0, y0, n;
	uint64_t bits[FOV_ROWS_MAX];
};
/* fov_update, also telling in *rows what it set (the view without them
 * pays nothing for them). */
void fov_update_rows(const uint8_t *cells, enum fov_cells kind, int w, int h, int ox, int oy, int radius,
		     uint8_t *visible, struct fov_box *last, struct fov_rows *rows);

/* Leaves visible (w x h) and *last as an fov_update that set rows would
 * (the rows of such a call, with the box it left in *last, kept and given
 * back: box holds exactly the rows' cells, rows->x0, rows->y0 its corner
 * and rows->n > 0 its height): clears the box *last, sets the rows'
 * cells of box as their bits say, and stores box in *last. Does nothing
 * when w or h <= 0. */
void fov_set_rows(const struct fov_rows *rows, const struct fov_box *box, int w, int h, uint8_t *visible,
		  struct fov_box *last);

/* What blocks sight on a w x h array as bits, kept by its owner (struct
 * map) for fov_rows_of_bits: row y is the words rows + y * rstride, whose
 * bit FOV_PAD + x (bit b of the row: bit b % 64 of word b / 64) is set
 * when cell (x, y) blocks sight; the FOV_PAD bits before x = 0 and all
 * from x = w on are set (off the array). Column x likewise: the words
 * cols + x * cstride, bit FOV_PAD + y for cell (x, y). A row needs
 * FOV_WORDS(w) words, a column FOV_WORDS(h). */
#define FOV_PAD 64
#define FOV_WORDS(n) (((n) + 2 * FOV_PAD + 63) / 64)
struct fov_walls {
	const uint64_t *rows, *cols;
	int rstride, cstride;
};

/* The largest radius fov_update_walls takes. */
#define FOV_WALLS_RADIUS 30
/* fov_update_rows on the array walls describes, for an origin on it and
 * 0 <= radius <= FOV_WALLS_RADIUS (w, h > 0): the same visible, *last and *rows,
 * with the walls read as bits (no tile array). */
void fov_update_walls(const struct fov_walls *walls, int w, int h, int ox, int oy, int radius, uint8_t *visible,
		      struct fov_box *last, struct fov_rows *rows);

#endif
