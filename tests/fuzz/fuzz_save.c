/* Fuzz target: save files (save_decode). A save that loads must play on
 * and save again to bytes that load to the same game. */
#include "fuzz.h"
#include "game/serial.h"
#include "save/save.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_log l;
	fuzz_log_begin(&l);
	struct game *g = NULL;
	char why[SAVE_WHY_MAX] = "";
	int rc = save_decode(data, size, &g, why, sizeof why);
	fuzz_log_end(&l);
	if (rc) {
		if (g || !why[0])
			abort(); /* a refusal says why (log.c makes it printable) */
		return 0;
	}
	struct serial_buf b = { 0 };
	if (save_encode(g, &b))
		abort();
	struct game *g2 = NULL;
	if (save_decode(b.data, b.len, &g2, why, sizeof why) || game_checksum(g2) != game_checksum(g))
		abort();
	/* a few turns on the loaded game: it must hold together */
	static const enum cmd walk[] = { CMD_WAIT, CMD_MOVE_N, CMD_MOVE_E, CMD_MOVE_S, CMD_MOVE_W, CMD_PICKUP };
	fuzz_play_both(g, g2, walk, sizeof walk / sizeof walk[0]);
	free(b.data);
	game_destroy(g2);
	game_destroy(g);
	return 0;
}
