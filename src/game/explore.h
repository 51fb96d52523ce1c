/* explore: auto-explore and travel to stairs over what the player knows of a floor (behind game_explore_step and game_travel_step). */
#ifndef PIROGUE_GAME_EXPLORE_H
#define PIROGUE_GAME_EXPLORE_H
#include "game/world.h"

/* Distances from the player over the known walkable cells of the current
 * floor (explored, not wall; cost 1 each) into dist (WORLD_CELLS), with the
 * cost grid used in cost. */
void explore_distances(const struct game *g, uint8_t *cost, uint16_t *dist);
/* The nearest reachable frontier cell (explored, walkable, with an
 * unexplored neighbour on the map; ties to the lowest index y * w + x)
 * given the distances of explore_distances: 0 with the cell, -1 when none. */
int explore_frontier(const uint16_t *dist, const struct map *m, int *x, int *y);

#endif
