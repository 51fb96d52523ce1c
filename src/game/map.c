/* map: one floor's terrain and the player's view of it. */
#include "game/map.h"
#include "game/fov.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool map_size_ok(int w, int h)
{
	return w >= MAP_MIN_W && w <= MAP_MAX_W && h >= MAP_MIN_H && h <= MAP_MAX_H;
}

int map_size_parse(const char *s, int *w, int *h)
{
	if (!s)
		return -EINVAL;
	char *end;
	errno = 0;
	long a = strtol(s, &end, 10);
	if (end == s || (*end != 'x' && *end != 'X') || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	const char *t = end + 1;
	long b = strtol(t, &end, 10);
	if (end == t || *end || !isdigit((unsigned char)t[0]) || errno || a > MAP_MAX_W || b > MAP_MAX_H ||
	    !map_size_ok((int)a, (int)b))
		return -EINVAL;
	*w = (int)a;
	*h = (int)b;
	return 0;
}

bool map_init_size(struct map *m, int w, int h)
{
	if (!map_size_ok(w, h))
		return false;
	/* only the cells of a w x h floor are cleared (the rest of the arrays
	 * is never read) */
	size_t n = (size_t)w * (size_t)h;
	memset(m->tile, 0, n); /* TILE_WALL == 0: every cell a wall */
	memset(m->visible, 0, n);
	memset(m->explored, 0, n);
	memset(m->rooms, 0, sizeof(m->rooms));
	m->w = w;
	m->h = h;
	m->nrooms = 0;
	m->up_x = m->up_y = -1;
	m->down_x = m->down_y = -1;
	/* whoever fills visible[] after this (a loaded save) need not know:
	 * the first view clears all of it, later ones only what they set */
	m->seen = fov_box_all(m->w, m->h);
	m->views = 0;
	m->view_ok = false;
	return true;
}

void map_init(struct map *m)
{
	memset(m, 0, sizeof(*m));
	(void)map_init_size(m, MAP_W, MAP_H);
}

enum tile map_tile(const struct map *m, int x, int y)
{
	if (!map_in(m, x, y))
		return TILE_WALL;
	return (enum tile)m->tile[y * m->w + x];
}

void map_set(struct map *m, int x, int y, enum tile t)
{
	if (map_in(m, x, y)) {
		m->tile[y * m->w + x] = (uint8_t)t;
		m->view_ok = false;
	}
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
	int32_t queue[MAP_MAX_CELLS];
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
	m->views++;
	m->view_ok = false; /* map_view's memo is of its own views */
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

void map_view(struct map *m, int ox, int oy, int radius)
{
	if (m->view_ok && m->view_x == ox && m->view_y == oy && m->view_r == radius)
		return;
	map_update_fov(m, ox, oy, radius);
	m->view_x = ox;
	m->view_y = oy;
	m->view_r = radius;
	m->view_ok = true;
}
