/* path: Dijkstra distance maps with a bucket queue (Dial's algorithm) and downhill steps. */
#include "game/path.h"
#include "core/log.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

/* Costs are 1..255, so every pending distance lies in [cur, cur + 255]:
 * a ring of 256 buckets holds them all. Buckets are intrusive doubly linked
 * lists over the cell indices (next/prev arrays), so a cell whose distance
 * drops is moved, never duplicated. */
#define NBUCKETS 256
#define NOT_QUEUED (-2)
#define STACK_CELLS PATH_STACK_CELLS

static const int dx8[8] = { 0, 1, 0, -1, 1, 1, -1, -1 };
static const int dy8[8] = { -1, 0, 1, 0, -1, 1, 1, -1 };

/* Moves the cell v (new distance nd) into its bucket, unlinking it from the
 * old one if it was queued. Returns 1 if v was not queued before. */
static inline int requeue(int32_t *head, int32_t *next, int32_t *prev, uint16_t *dist, int v, unsigned nd)
{
	int added = 1;
	if (prev[v] != NOT_QUEUED) { /* unlink from its old bucket */
		if (prev[v] >= 0)
			next[prev[v]] = next[v];
		else
			head[dist[v] & (NBUCKETS - 1)] = next[v];
		if (next[v] >= 0)
			prev[next[v]] = prev[v];
		added = 0;
	}
	dist[v] = (uint16_t)nd;
	int nb = (int)(nd & (NBUCKETS - 1));
	next[v] = head[nb];
	prev[v] = -1;
	if (head[nb] >= 0)
		prev[head[nb]] = v;
	head[nb] = v;
	return added;
}

static void run(const uint8_t *cost, int w, int h, int goal, uint16_t *dist, int32_t *next, int32_t *prev)
{
	int32_t head[NBUCKETS];
	int n = w * h;
	/* neighbour offsets in the order of dx8/dy8 */
	const ptrdiff_t off[8] = { -w, 1, w, -1, 1 - w, 1 + w, w - 1, -w - 1 };
	/* y = u / w by a multiply when exact (u * w < 2^32), else a division */
	bool fast_div = (uint64_t)n * (uint64_t)w < ((uint64_t)1 << 32);
	uint64_t recip = (((uint64_t)1 << 32) + (uint64_t)w - 1) / (uint64_t)w;
	for (int i = 0; i < NBUCKETS; i++)
		head[i] = -1;
	for (int i = 0; i < n; i++)
		prev[i] = NOT_QUEUED;
	dist[goal] = 0;
	head[0] = goal;
	next[goal] = -1;
	prev[goal] = -1;
	int queued = 1;
	unsigned cur = 0;
	while (queued > 0) {
		while (head[cur & (NBUCKETS - 1)] < 0)
			cur++;
		int b = (int)(cur & (NBUCKETS - 1));
		int u = head[b];
		head[b] = next[u];
		if (next[u] >= 0)
			prev[next[u]] = -1;
		prev[u] = NOT_QUEUED;
		queued--;
		int uy = fast_div ? (int)(((uint64_t)(unsigned)u * recip) >> 32) : u / w;
		int ux = u - uy * w;
		unsigned du = dist[u];
		/* The relaxation below is written out twice on purpose: shared as
		 * an inline function it cost 1.4% more per map (make bench-ir,
		 * path_dijkstra 198,847 -> 201,576: the compiler spills more). */
		if (ux > 0 && uy > 0 && ux < w - 1 && uy < h - 1) {
			/* inside the border: no bounds to check */
			for (int k = 0; k < 8; k++) {
				int v = u + (int)off[k];
				if (cost[v] == 0)
					continue;
				unsigned nd = du + cost[v];
				if (nd > PATH_UNREACHABLE - 1)
					nd = PATH_UNREACHABLE - 1;
				if (nd < dist[v])
					queued += requeue(head, next, prev, dist, v, nd);
			}
			continue;
		}
		for (int k = 0; k < 8; k++) {
			int vx = ux + dx8[k], vy = uy + dy8[k];
			if (vx < 0 || vy < 0 || vx >= w || vy >= h)
				continue;
			int v = vy * w + vx;
			if (cost[v] == 0)
				continue;
			unsigned nd = du + cost[v];
			if (nd > PATH_UNREACHABLE - 1)
				nd = PATH_UNREACHABLE - 1;
			if (nd < dist[v])
				queued += requeue(head, next, prev, dist, v, nd);
		}
	}
}

void path_dijkstra(const uint8_t *cost, int w, int h, int gx, int gy, uint16_t *dist)
{
	if (w <= 0 || h <= 0)
		return;
	int n = w * h;
	for (int i = 0; i < n; i++)
		dist[i] = PATH_UNREACHABLE;
	if (gx < 0 || gy < 0 || gx >= w || gy >= h)
		return;
	if (n <= STACK_CELLS) {
		int32_t next[STACK_CELLS], prev[STACK_CELLS];
		run(cost, w, h, gy * w + gx, dist, next, prev);
		return;
	}
	int32_t *next = malloc(sizeof(*next) * (size_t)n * 2);
	if (!next) {
		log_error("path: out of memory for a %dx%d distance map; every cell left unreachable", w, h);
		return;
	}
	run(cost, w, h, gy * w + gx, dist, next, next + n);
	free(next);
}

int path_step(const uint16_t *dist, const uint8_t *cost, int w, int h, int x, int y, int *nx, int *ny)
{
	if (x < 0 || y < 0 || x >= w || y >= h)
		return -1;
	unsigned best = dist[y * w + x];
	int bk = -1;
	for (int k = 0; k < 8; k++) {
		int vx = x + dx8[k], vy = y + dy8[k];
		if (vx < 0 || vy < 0 || vx >= w || vy >= h)
			continue;
		int v = vy * w + vx;
		if (cost[v] == 0 && dist[v] != 0)
			continue;
		if (dist[v] < best) {
			best = dist[v];
			bk = k;
		}
	}
	if (bk < 0)
		return -1;
	*nx = x + dx8[bk];
	*ny = y + dy8[bk];
	return 0;
}
