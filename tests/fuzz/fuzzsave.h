/* fuzzsave: what the save targets (fuzz_save, fuzz_save_sections) do alike: load an input as a save, refused only as a save may be refused, and load a game's save again to the same game. */
#ifndef PIROGUE_TESTS_FUZZSAVE_H
#define PIROGUE_TESTS_FUZZSAVE_H
#include "fuzz.h"
#include "game/serial.h"
#include "save/save.h"

/* Loads data as a save file: 0 with *g set when it loads; 1 (*g NULL) when
 * it is refused as save_decode promises (-EINVAL or -ENOMEM, with why one
 * printable line); aborts on anything else, or when what was logged is not
 * one line a message. */
static inline int fuzz_save_load(const uint8_t *data, size_t size, struct game **g)
{
	struct fuzz_log l;
	char why[SAVE_WHY_MAX] = "";
	*g = NULL;
	fuzz_log_begin(&l);
	int rc = save_decode(data, size, g, why, sizeof why);
	fuzz_log_end(&l);
	if (!rc)
		return 0;
	if (*g || !why[0] || (rc != -EINVAL && rc != -ENOMEM))
		abort();
	fuzz_check_line(why);
	return 1;
}

/* The game that b (a save of g) loads to; aborts unless it loads and has
 * g's checksum. */
static inline struct game *fuzz_save_reload(const struct serial_buf *b, const struct game *g)
{
	struct game *g2 = NULL;
	char why[SAVE_WHY_MAX] = "";
	if (save_decode(b->data, b->len, &g2, why, sizeof why) || game_checksum(g2) != game_checksum(g))
		abort();
	return g2;
}

#endif
