/* craft-saves: writes the crafted saves of tests/savecraft.h, made with the game's own encoder, as DIR/NAME.sav (tools/regen-save-fixture keeps them in tests/saves/crafted/). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/savecraft.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR (writes DIR/NAME.sav for each crafted save)\n", argv[0]);
		return 2;
	}
	for (int i = 0; i < SAVECRAFT_COUNT; i++) {
		const struct savecraft *c = &savecraft_all[i];
		struct serial_buf b = {0};
		int rc = savecraft_encode(c, &b);
		char name[300];
		snprintf(name, sizeof name, "%s.sav", c->name);
		if (!rc)
			rc = save_write_atomic(argv[1], name, b.data, b.len);
		free(b.data);
		if (rc) {
			fprintf(stderr, "craft-saves: %s/%s: %s\n", argv[1], name, strerror(-rc));
			return 1;
		}
		printf("%s: %s\n", name, c->what);
	}
	return 0;
}
