/* fov: field of view by symmetric shadowcasting (Albert Ford's algorithm, integer slopes) on plain arrays. */
#ifndef PIROGUE_GAME_FOV_H
#define PIROGUE_GAME_FOV_H
#include <stdint.h>

/* opaque: w*h bytes, index y*w+x, nonzero = blocks sight; cells outside the
 * array are opaque. Writes visible (w*h bytes, 0/1), all cleared first.
 * The origin is always visible (if it is on the array). A cell (x,y) is in
 * range when dx*dx + dy*dy <= radius*radius + radius (a round circle);
 * radius < 0 means unlimited. Floor cells are visible when the line between
 * centres is clear (symmetric: A sees B exactly when B sees A); walls
 * bounding visible floor are lit. Does nothing when w or h <= 0. */
void fov_compute(const uint8_t *opaque, int w, int h, int ox, int oy, int radius, uint8_t *visible);

#endif
