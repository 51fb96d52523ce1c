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

#endif
