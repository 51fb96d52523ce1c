/* mapgen: dungeon floor generators (rooms and corridors, overlapping rooms, caves). */
#ifndef PIROGUE_GAME_MAPGEN_H
#define PIROGUE_GAME_MAPGEN_H
#include "core/rng.h"
#include "game/map.h"

/* Later generators are appended before MAPGEN_COUNT; values never change. */
enum mapgen_kind { MAPGEN_CLASSIC, MAPGEN_OVERLAP, MAPGEN_CAVE, MAPGEN_COUNT };

/* Parses a generator name ("classic", "overlap", "cave") into *out: 0, or -EINVAL
 * (and *out untouched) for any other name or NULL. Logs nothing. */
int mapgen_parse(const char *name, enum mapgen_kind *out);
/* Name of a generator as mapgen_parse accepts it; "?" for an invalid kind. */
const char *mapgen_name(enum mapgen_kind k);
/* Fills m for floor `depth` (1-based): rooms, corridors, stairs (no up stairs
 * on depth 1; up stairs in the first room, down stairs in the last room).
 * Every walkable cell is connected to the up stairs (or to the first room's
 * centre on floor 1), by 4-way steps. Every room's centre is walkable; in a
 * cave a "room" is a patch of the cave (a square around a floor cell, not
 * all of it floor), there for spawning. visible/explored are cleared. Deterministic in r (and
 * consumes only r). Returns 0, or -EINVAL for a bad kind, depth < 1 or NULL. */
int mapgen_generate(struct map *m, enum mapgen_kind k, int depth, struct rng *r);
/* The same at w x h cells (-EINVAL unless map_size_ok(w, h)); on floors
 * larger than the default the room generators try rooms in proportion to
 * the area (up to MAP_MAX_ROOMS rooms). */
int mapgen_generate_size(struct map *m, enum mapgen_kind k, int depth, int w, int h, struct rng *r);

#endif
