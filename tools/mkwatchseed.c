/* mkwatchseed: writes the watch fuzz targets' seeds (docs/fuzz.md): DIR/watch_reader/stream, what a
 * game sends a watcher (greeting, snapshot, commands, checksums, screens), DIR/watch_client/requests,
 * what a watcher sends, and DIR/watch_ring/{follow,lapped,overwritten}, a ring the game writes (the
 * commands and checksums of a new game of seed 5, which fuzz_watch_ring's snapshot is of; then the
 * game laps the watcher, or writes over what it copies). Deterministic. Usage: mkwatchseed tests/fuzz/seeds */
#include "app/watchwire.h"
#include "core/le.h"
#include "game/history.h"
#include <stdio.h>
#include <stdlib.h>

static void put(const char *dir, const char *name, const void *p, size_t n)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		fprintf(stderr, "mkwatchseed: cannot write %s\n", path);
		exit(1);
	}
}

/* One round of fuzz_watch_ring's input: the write count at the watcher's
 * position + d, the count being written up to that + l, n bytes at 0. */
static int ring_round(struct serial_buf *b, uint32_t d, int32_t l, const void *bytes, uint16_t n)
{
	unsigned char r[13] = { 0 };
	le_put32(r + 1, d);
	le_put32(r + 5, (uint32_t)l);
	r[11] = (unsigned char)(n & 0xFF);
	r[12] = (unsigned char)(n >> 8);
	return serial_buf_append(b, r, sizeof r) || serial_buf_append(b, bytes, n);
}

static int ring_seeds(const char *top)
{
	struct game *g;
	struct game_opts o = { .seed = 5 };
	if (game_create(&g, &o))
		return 1;
	struct serial_buf m = { 0 };
	for (int i = 0; i < 8; i++) {
		struct command c = { .c = (enum cmd)(CMD_MOVE_N + i * 5 % 8), .item = -1, .x = -1, .y = -1, .choice = -1 };
		game_do(g, &c);
		if (watchwire_command(&m, &c) || watchwire_check(&m, hist_count(game_history(g)), game_turn(g), game_digest(g)))
			return 1;
	}
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/watch_ring", top);
	static const char *const names[3] = { "follow", "lapped", "overwritten" };
	for (int k = 0; k < 3; k++) {
		struct serial_buf b = { 0 };
		unsigned char head[1 + WATCH_RING_HEAD + 8] = { 0 }; /* 4 KiB, the header as made, from 0 */
		if (serial_buf_append(&b, head, sizeof head) || ring_round(&b, (uint32_t)m.len, 0, m.data, (uint16_t)m.len))
			return 1;
		if (k == 1 && ring_round(&b, WATCH_RING_MIN + 100, 0, NULL, 0))
			return 1;
		if (k == 2 && ring_round(&b, 25, WATCH_RING_MIN, m.data, 25))
			return 1;
		if (ring_round(&b, 0, 0, NULL, 0))
			return 1;
		put(dir, names[k], b.data, b.len);
		free(b.data);
	}
	free(m.data);
	game_destroy(g);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mkwatchseed SEEDS_DIR\n");
		return 2;
	}
	struct game *g;
	struct game_opts o = { .seed = 5 };
	if (game_create(&g, &o))
		return 1;
	struct ui u = { .screen = UI_PLAY, .hover_x = -1, .hover_y = -1, .score_rank = -1, .can_continue = true };
	struct serial_buf b = { 0 };
	/* the first byte: the harness's piece size */
	unsigned char piece = 3;
	if (serial_buf_append(&b, &piece, 1) || watchwire_hello(&b, "ann@pi (kiosk)") || watchwire_snapshot(&b, &u, g))
		return 1;
	for (int i = 0; i < 12; i++) {
		struct command c = { .c = (enum cmd)(CMD_MOVE_N + i * 3 % 8), .item = -1, .x = -1, .y = -1, .choice = -1 };
		game_do(g, &c);
		if (watchwire_command(&b, &c) ||
		    watchwire_check(&b, hist_count(game_history(g)), game_turn(g), game_digest(g)))
			return 1;
		if (i == 5) {
			u.screen = UI_INVENTORY;
			if (watchwire_screen(&b, &u))
				return 1;
			u.screen = UI_PLAY;
			if (watchwire_screen(&b, &u))
				return 1;
		}
	}
	if (ring_seeds(argv[1]))
		return 1;
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/watch_reader", argv[1]);
	put(dir, "stream", b.data, b.len);
	unsigned char req[3 * WATCH_RESYNC_LEN];
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < WATCH_RESYNC_LEN; k++)
			req[i * WATCH_RESYNC_LEN + k] = watch_resync_msg[k];
	snprintf(dir, sizeof dir, "%s/watch_client", argv[1]);
	put(dir, "requests", req, sizeof req);
	free(b.data);
	game_destroy(g);
	return 0;
}
