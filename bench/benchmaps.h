/* benchmaps: the maps benchmarks share (rooms and corridors of any size, caves) and origin picking, on plain opacity arrays. */
#ifndef PIROGUE_BENCHMAPS_H
#define PIROGUE_BENCHMAPS_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"

static inline void benchmap_carve(uint8_t *walk, int w, int x0, int y0, int x1, int y1)
{
	for (int y = y0 < y1 ? y0 : y1; y <= (y0 < y1 ? y1 : y0); y++)
		for (int x = x0 < x1 ? x0 : x1; x <= (x0 < x1 ? x1 : x0); x++)
			walk[y * w + x] = 1;
}

/* The tutorial's classic generator on a w x h opacity array (1 = wall):
 * tries rooms 6-10 a side, rejects overlaps, joins each to the previous one
 * by an L-shaped tunnel. 30 tries on 80x50 (libtcod's and the tutorials'
 * FOV figures use that map); scaled with the area on bigger maps. */
static inline void benchmap_rooms(uint8_t *opaque, int w, int h, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed);
	int tries = 30 * (w * h) / (80 * 50);
	if (tries < 30)
		tries = 30;
	uint8_t *walk = calloc((size_t)w * (size_t)h, 1);
	int *rx = calloc((size_t)tries * 4, sizeof(int));
	if (!walk || !rx) {
		fprintf(stderr, "bench: out of memory\n");
		exit(1);
	}
	int *ry = rx + tries, *rx2 = ry + tries, *ry2 = rx2 + tries, n = 0;
	for (int i = 0; i < tries; i++) {
		int rw = rng_range(&r, 6, 10), rh = rng_range(&r, 6, 10);
		int x = rng_range(&r, 0, w - rw - 1), y = rng_range(&r, 0, h - rh - 1);
		int bad = 0;
		for (int j = 0; j < n && !bad; j++)
			bad = x <= rx2[j] && x + rw >= rx[j] && y <= ry2[j] && y + rh >= ry[j];
		if (bad)
			continue;
		benchmap_carve(walk, w, x + 1, y + 1, x + rw - 1, y + rh - 1);
		if (n > 0) {
			int ax = (rx[n - 1] + rx2[n - 1]) / 2, ay = (ry[n - 1] + ry2[n - 1]) / 2;
			int bx = (x + x + rw) / 2, by = (y + y + rh) / 2;
			if (rng_range(&r, 0, 1)) {
				benchmap_carve(walk, w, ax, ay, bx, ay);
				benchmap_carve(walk, w, bx, ay, bx, by);
			} else {
				benchmap_carve(walk, w, ax, ay, ax, by);
				benchmap_carve(walk, w, ax, by, bx, by);
			}
		}
		rx[n] = x, ry[n] = y, rx2[n] = x + rw, ry2[n] = y + rh;
		n++;
	}
	for (int i = 0; i < w * h; i++)
		opaque[i] = !walk[i];
	free(walk);
	free(rx);
}

/* A cave: 45% random walls, then 5 rounds of the 4-5 cellular automaton
 * (wall when 5 or more of the 9 cells around are walls); the border is wall. */
static inline void benchmap_cave(uint8_t *opaque, int w, int h, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed);
	uint8_t *t = malloc((size_t)w * (size_t)h);
	if (!t) {
		fprintf(stderr, "bench: out of memory\n");
		exit(1);
	}
	for (int i = 0; i < w * h; i++)
		opaque[i] = rng_range(&r, 0, 99) < 45;
	for (int round = 0; round < 5; round++) {
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++) {
				int n = 0;
				for (int dy = -1; dy <= 1; dy++)
					for (int dx = -1; dx <= 1; dx++) {
						int xx = x + dx, yy = y + dy;
						n += xx < 0 || yy < 0 || xx >= w || yy >= h || opaque[yy * w + xx];
					}
				t[y * w + x] = n >= 5 || x == 0 || y == 0 || x == w - 1 || y == h - 1;
			}
		memcpy(opaque, t, (size_t)w * (size_t)h);
	}
	free(t);
}

/* n floor cells of opaque picked at random (with repeats), as indices. */
static inline void benchmap_origins(const uint8_t *opaque, int w, int h, int *orig, int n, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed);
	for (int i = 0; i < n;) {
		int c = rng_range(&r, 0, w * h - 1);
		if (!opaque[c])
			orig[i++] = c;
	}
}

#endif
