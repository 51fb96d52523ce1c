/* Fuzz target: save files (save_decode). A save that loads must play on
 * and save again to bytes that load to the same game. */
#include "fuzzsave.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct game *g;
	if (fuzz_save_load(data, size, &g))
		return 0;
	struct serial_buf b = { 0 };
	if (save_encode(g, &b))
		abort();
	struct game *g2 = fuzz_save_reload(&b, g);
	/* a few turns on the loaded game: it must hold together */
	static const enum cmd walk[] = { CMD_WAIT, CMD_MOVE_N, CMD_MOVE_E, CMD_MOVE_S, CMD_MOVE_W, CMD_PICKUP };
	fuzz_play_both(g, g2, walk, sizeof walk / sizeof walk[0]);
	free(b.data);
	game_destroy(g2);
	game_destroy(g);
	return 0;
}
