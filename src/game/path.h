/* path: distance maps (Dijkstra with a bucket queue) and downhill steps for AI, on plain arrays. */
#ifndef PIROGUE_GAME_PATH_H
#define PIROGUE_GAME_PATH_H
#include <stdint.h>

#define PATH_UNREACHABLE 0xFFFF
/* The largest array path_dijkstra handles without allocating: a 200 x 200
 * floor (MAP_MAX_CELLS). */
#define PATH_STACK_CELLS (200 * 200)

/* cost: w*h bytes, index y*w+x; 0 = impassable, else the cost of a cell
 * (1 normal; higher e.g. for cells with a monster, so others route around).
 * Computes dist (w*h uint16) from the goal (gx,gy) with 8-way moves:
 * dist[c] is the least sum of the costs of the cells of a path from c to the
 * goal, c included and the goal excluded; dist[goal] = 0 (whatever the goal's
 * own cost, so the goal may be an impassable cell such as the player's).
 * Stepping downhill (path_step) therefore follows a cheapest path where each
 * step pays for the cell it enters, and the mover's own cell does not change
 * its choice. Impassable cells and cells that cannot reach the goal get
 * PATH_UNREACHABLE; sums saturate at PATH_UNREACHABLE - 1. A goal off the
 * array leaves every cell unreachable. No allocation up to PATH_STACK_CELLS
 * cells (its queue on the stack: 8 bytes a cell); above that, if memory runs
 * out, it logs once and leaves every cell unreachable. */
void path_dijkstra(const uint8_t *cost, int w, int h, int gx, int gy, uint16_t *dist);
/* Best step from (x,y) downhill on dist (8-way, onto cells with cost != 0
 * or onto the goal itself, dist 0): the neighbour with the lowest dist that is
 * lower than dist at (x,y). Ties prefer orthogonal moves, then the order
 * N, E, S, W (NE, SE, SW, NW for diagonals). Returns 0 and sets *nx,*ny, or
 * -1 if no neighbour is lower (already at the goal, or unreachable). */
int path_step(const uint16_t *dist, const uint8_t *cost, int w, int h, int x, int y, int *nx, int *ny);

#endif
