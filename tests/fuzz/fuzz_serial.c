/* Fuzz target: the game's encoding itself (game_decode), behind the save
 * file's CRCs, so that changed bytes reach the decoder's checks. A game that
 * loads must encode to bytes that load to the same game, and play on. */
#include "fuzz.h"
#include "game/serial.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_log l;
	fuzz_log_begin(&l);
	struct game *g = NULL;
	char why[256] = "";
	int rc = game_decode(&g, data, size, why, sizeof why);
	fuzz_log_end(&l);
	if (rc) {
		if (g || !why[0] || rc != -EINVAL)
			abort();
		fuzz_check_line(why);
		return 0;
	}
	struct serial_buf b = { 0 };
	struct game *g2 = NULL;
	if (game_encode(g, &b) || game_decode(&g2, b.data, b.len, why, sizeof why) ||
	    game_checksum(g2) != game_checksum(g))
		abort();
	static const enum cmd walk[] = { CMD_WAIT, CMD_MOVE_N, CMD_MOVE_E, CMD_MOVE_S, CMD_MOVE_W, CMD_PICKUP,
					 CMD_DESCEND, CMD_ASCEND };
	fuzz_play_both(g, g2, walk, sizeof walk / sizeof walk[0]);
	free(b.data);
	game_destroy(g2);
	game_destroy(g);
	return 0;
}
