/* map: one floor's terrain and the player's view of it. */
#include "game/map.h"
#include "game/fov.h"
#include <string.h>

void map_init(struct map *m)
{
	memset(m, 0, sizeof(*m));
	m->w = MAP_W;
	m->h = MAP_H;
	/* TILE_WALL == 0: the memset made every cell a wall. */
	m->up_x = m->up_y = -1;
	m->down_x = m->down_y = -1;
	/* whoever fills visible[] after this (a loaded save) need not know:
	 * the first view clears all of it, later ones only what they set */
	m->seen = fov_box_all(m->w, m->h);
}

bool map_in(const struct map *m, int x, int y)
{
	return x >= 0 && y >= 0 && x < m->w && y < m->h;
}

enum tile map_tile(const struct map *m, int x, int y)
{
	if (!map_in(m, x, y))
		return TILE_WALL;
	return (enum tile)m->tile[y * m->w + x];
}

void map_set(struct map *m, int x, int y, enum tile t)
{
	if (map_in(m, x, y))
		m->tile[y * m->w + x] = (uint8_t)t;
}

bool map_walkable(const struct map *m, int x, int y)
{
	if (!map_in(m, x, y))
		return false;
	return m->tile[y * m->w + x] != TILE_WALL;
}

bool map_opaque(const struct map *m, int x, int y)
{
	return !map_walkable(m, x, y);
}

void map_room_center(const struct room *r, int *x, int *y)
{
	*x = r->x + (r->w - 1) / 2;
	*y = r->y + (r->h - 1) / 2;
}

void map_start(const struct map *m, int *x, int *y)
{
	if (m->up_x >= 0) {
		*x = m->up_x;
		*y = m->up_y;
	} else if (m->nrooms > 0) {
		map_room_center(&m->rooms[0], x, y);
	} else {
		*x = *y = -1;
	}
}

int map_flood(const struct map *m, int sx, int sy, uint8_t *out)
{
	int32_t queue[MAP_H * MAP_W];
	int n = m->w * m->h, qh = 0, qt = 0;
	memset(out, 0, (size_t)n);
	if (!map_walkable(m, sx, sy))
		return 0;
	out[sy * m->w + sx] = 1;
	queue[qt++] = (int32_t)(sy * m->w + sx);
	while (qh < qt) {
		int u = queue[qh++];
		int ux = u % m->w, uy = u / m->w;
		for (int dy = -1; dy <= 1; dy++) {
			for (int dx = -1; dx <= 1; dx++) {
				int vx = ux + dx, vy = uy + dy;
				if (!map_walkable(m, vx, vy) || out[vy * m->w + vx])
					continue;
				out[vy * m->w + vx] = 1;
				queue[qt++] = (int32_t)(vy * m->w + vx);
			}
		}
	}
	return qt;
}

void map_opacity(const struct map *m, uint8_t *out)
{
	for (int i = 0; i < m->w * m->h; i++)
		out[i] = m->tile[i] == TILE_WALL;
}

void map_update_fov(struct map *m, int ox, int oy, int radius)
{
	/* walls are TILE_WALL == 0; only the cells the view touches are read
	 * or written */
	fov_update(m->tile, FOV_OPAQUE_ZERO, m->w, m->h, ox, oy, radius, m->visible, &m->seen);
	for (int y = m->seen.y0; y <= m->seen.y1; y++) {
		uint8_t *e = m->explored + y * m->w;
		const uint8_t *v = m->visible + y * m->w;
		int x = m->seen.x0;
		for (; x + 8 <= m->seen.x1 + 1; x += 8) { /* eight cells at a time */
			uint64_t a, b;
			memcpy(&a, e + x, 8);
			memcpy(&b, v + x, 8);
			a |= b;
			memcpy(e + x, &a, 8);
		}
		for (; x <= m->seen.x1; x++)
			e[x] |= v[x];
	}
}
