/* map: one floor's terrain (tiles, rooms, stairs) and what the player has seen of it. */
#ifndef PIROGUE_GAME_MAP_H
#define PIROGUE_GAME_MAP_H
#include <stdbool.h>
#include <stdint.h>

#include "game/fov.h"

/* Floor sizes: a game chooses its own (struct game_opts) between the least
 * and the largest; 80x43 unless told otherwise. Every array of a floor is
 * sized for the largest and holds a w x h floor at index y * w + x. */
#define MAP_W 80
#define MAP_H 43
#define MAP_MIN_W 20
#define MAP_MIN_H 15
#define MAP_MAX_W 200
#define MAP_MAX_H 200
#define MAP_MAX_CELLS (MAP_MAX_W * MAP_MAX_H)
#define MAP_EXP_WORDS ((MAP_MAX_W + 63) / 64) /* words of a row of struct map's dexp */

/* Terrain of one cell; stored as uint8_t in struct map. */
enum tile { TILE_WALL = 0, TILE_FLOOR, TILE_STAIRS_DOWN, TILE_STAIRS_UP };

/* A room's interior: cells x..x+w-1, y..y+h-1 (its walls lie outside).
 * On cave floors a room is a patch of the cave: its centre is floor, the
 * rest of the rectangle not necessarily. */
struct room {
	int x, y, w, h;
};

#define MAP_MAX_ROOMS 256

/* Views kept by struct map (map_update_fov): slots, and the largest
 * radius kept (a view of its rows fits 32 bits a row). */
#define MAP_KEPT_VIEWS 256
#define MAP_KEPT_RADIUS 10

/* One floor. Plain data (no pointers), so it can be copied and saved as is. */
struct map {
	int w, h;                        /* MAP_MIN_W..MAP_MAX_W, MAP_MIN_H..MAP_MAX_H */
	uint8_t tile[MAP_MAX_CELLS];     /* enum tile, index y*w+x */
	uint8_t visible[MAP_MAX_CELLS];  /* 1 = in the player's view now */
	uint8_t explored[MAP_MAX_CELLS]; /* 1 = seen at some time */
	struct room rooms[MAP_MAX_ROOMS];
	int nrooms;
	int up_x, up_y;                  /* -1 on floor 1 (no up stairs) */
	int down_x, down_y;
	struct fov_box seen;             /* visible[] is 0 outside this box (map_update_fov) */
	uint32_t views;                  /* map_update_fov calls since map_init_size (wraps). Once
					  * a floor is made or loaded, only map_update_fov changes
					  * visible[] and explored[], and only inside the box seen
					  * was before the call and the one it is after */
	/* The last view (map_view): taken from (view_x, view_y) with view_r,
	 * while view_ok (no tile set since: map_set, map_init_size). */
	int view_x, view_y, view_r;
	bool view_ok;
	/* map_digest's parts: dsum (size, rooms, stairs, tile[], explored[])
	 * while dsum_ok, kept up to date by map_set and map_update_fov (once
	 * the floor has a digest, only they write it; any other writer calls
	 * map_changed); dvis (visible[]) as of view dvis_views */
	uint64_t dsum, dvis;
	uint32_t dvis_views;
	bool dsum_ok, dvis_ok;
	/* explored[] as bits while dexp_ok (bit x % 64 of word x / 64 of
	 * row y: cell (x, y) explored), made with dsum or by the first view
	 * given as rows after map_init_size or map_changed, and kept by
	 * map_update_fov: what tells it, a row of a view at a time, that a
	 * view saw nothing new (dsum_ok implies dexp_ok) */
	uint64_t dexp[MAP_MAX_H][MAP_EXP_WORDS];
	bool dexp_ok;
	/* Views taken before (map_update_fov), kept by their cell (index
	 * y * w + x modulo MAP_KEPT_VIEWS, one a slot): the view from a cell
	 * depends on the walls alone, so a view from where one is kept is
	 * set from it instead of scanned again. r < 0: a free slot. All of
	 * them are forgotten when a tile is set (map_set, map_init_size,
	 * map_changed); kept_any says whether one may be held. */
	struct map_kept_view {
		int x, y, r;
		struct fov_box box;
		int x0, y0, n;
		uint32_t bits[2 * MAP_KEPT_RADIUS + 1];
	} kept[MAP_KEPT_VIEWS];
	bool kept_any;
	/* The last view's cells as bits (map_update_fov, when its scan gave
	 * them): vrows (fov_rows: visible[] is 1 exactly on its bits) is
	 * that of view number vrows_views; any other number: not known. */
	struct fov_rows vrows;
	uint32_t vrows_views;
	/* The walls as bits (struct fov_walls: set where sight is blocked,
	 * and off the floor) while walls_ok: made by the first view after
	 * map_init_size or map_changed, kept by map_set; what a view's scan
	 * reads (map_update_fov) instead of tile[]. */
	bool walls_ok;
	uint64_t wrows[MAP_MAX_H][FOV_WORDS(MAP_MAX_W)];
	uint64_t wcols[MAP_MAX_W][FOV_WORDS(MAP_MAX_H)];
};

/* Sets m to a MAP_W x MAP_H floor of solid wall: nothing visible or explored,
 * no rooms, no stairs (coordinates -1). */
void map_init(struct map *m);
/* The same at w x h; false (m untouched) unless map_size_ok(w, h). */
bool map_init_size(struct map *m, int w, int h);
/* True when w x h is a floor size the game makes (MAP_MIN_* to MAP_MAX_*). */
bool map_size_ok(int w, int h);
/* Parses "WxH" (e.g. "120x60") into *w, *h: 0, or -EINVAL (nothing set)
 * unless it is two decimal numbers and map_size_ok. Logs nothing. */
int map_size_parse(const char *s, int *w, int *h);
/* True when (x,y) lies on the map (inline: the rules ask it everywhere). */
static inline bool map_in(const struct map *m, int x, int y)
{
	return (unsigned)x < (unsigned)m->w && (unsigned)y < (unsigned)m->h;
}
/* Tile at (x,y); TILE_WALL outside the map. */
enum tile map_tile(const struct map *m, int x, int y);
/* Sets the tile at (x,y); ignored outside the map. */
void map_set(struct map *m, int x, int y, enum tile t);
/* True for floor and stairs (inside the map only). */
bool map_walkable(const struct map *m, int x, int y);
/* True for walls; everything outside the map is opaque. */
bool map_opaque(const struct map *m, int x, int y);
/* Centre cell of a room's interior (rounded towards its top-left). */
void map_room_center(const struct room *r, int *x, int *y);
/* Where a player starts on this floor when arriving from above (or on floor 1):
 * the up stairs, or the centre of the first room when there are none. */
void map_start(const struct map *m, int *x, int *y);
/* Marks in out (w*h bytes, set to 1 or 0) every walkable cell reachable from
 * (sx,sy) by 8-way steps over walkable cells, and returns how many there
 * are; 0 (and out all 0) when (sx,sy) is not walkable. */
int map_flood(const struct map *m, int sx, int sy, uint8_t *out);
/* Writes w*h bytes into out: 1 for every opaque cell (the input fov_compute expects). */
void map_opacity(const struct map *m, uint8_t *out);
/* The floor's part of game_digest: its size, rooms and stairs, and a sum
 * with one part (digest_part) per eight cells of a row of tile[], visible[]
 * and explored[] (a word of zeros gives 0). Made from scratch the first
 * time (and after map_init_size or map_changed); then tile[] and explored[]
 * are kept up to date by map_set and map_update_fov (a few instructions a
 * changed word), and visible[] is summed over the box the last view set
 * once after each view. Equals map_digest_full. */
uint64_t map_digest(struct map *m);
/* The same value, made from scratch (for tests: map_digest's check). */
uint64_t map_digest_full(const struct map *m);
/* From map_init_size to its first map_digest a floor may be written at
 * will (generated, loaded); after that, whoever writes its cells, size,
 * rooms or stairs otherwise than through map_set or map_update_fov calls
 * this before the next map_digest (which is then made from scratch). */
void map_changed(struct map *m);
/* Recomputes m->visible from (ox,oy) with the given radius (what
 * fov_compute then fov_light_walls give) and marks every visible cell
 * explored. Touches only the cells in range (fov_update; m->seen says which
 * cells the last view set, so whoever writes visible[] otherwise must set
 * m->seen to cover them). A view from a cell one was taken from before
 * with the same radius (up to MAP_KEPT_RADIUS) and no tile set since
 * (m->kept) is set from the one kept, not scanned: the same visible[],
 * seen and views. */
void map_update_fov(struct map *m, int ox, int oy, int radius);
/* map_update_fov, unless the last view of m (through this function) was
 * taken from the same cell with the same radius and no tile has been set
 * since (map_set, map_init_size, map_changed): then visible[] and explored[] are what
 * it would leave already (the view depends on the walls alone), and
 * neither they, seen nor views change. Writing tile[] directly, as map
 * generation does before the first view, needs map_init_size first. */
void map_view(struct map *m, int ox, int oy, int radius);

#endif
