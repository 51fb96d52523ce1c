/* Fuzz target: SDL GameControllerDB text (evdb_add_text and the file
 * reader), then every entry resolved against a pad that has everything. */
#include "fuzz.h"
#include "platform/evmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	struct fuzz_log l;
	fuzz_log_begin(&l);
	/* as SDL_GAMECONTROLLERCONFIG is read */
	struct evdb db = { 0 };
	int n = evdb_add_text(&db, text, "fuzz.db", 0);
	/* as a file: the file reader and the text reader are one (issue 11,
	 * defect 11: a long line was cut by one of them and not the other) */
	struct evdb dbf = { 0 };
	int nf = evdb_add_text(&dbf, text, "fuzz.db", EVDB_FILE);
	char path[64];
	int fd = fuzz_as_file(data, size, path, sizeof path);
	struct evdb db2 = { 0 };
	int n2 = evdb_load_file(&db2, path);
	close(fd);
	fuzz_log_end(&l);
	if (n < 0 || nf < 0)
		abort();
	/* the file reader stops at a NUL byte where the text does */
	if (!memchr(data, 0, size) && (n2 != nf || db2.n != dbf.n))
		abort();
	for (int i = 0; i < db2.n && i < dbf.n && !memchr(data, 0, size); i++) {
		const struct evdb_entry *a = &db2.v[i], *b = &dbf.v[i];
		if (memcmp(a->guid, b->guid, sizeof a->guid) || a->crc != b->crc || strcmp(a->name, b->name) ||
		    a->line != b->line || a->nbinds != b->nbinds ||
		    memcmp(a->binds, b->binds, (size_t)a->nbinds * sizeof a->binds[0]))
			abort();
	}
	struct evm_caps caps;
	memset(&caps, 0xff, sizeof caps);
	caps.name[sizeof caps.name - 1] = 0;
	for (int i = 0; i < db.n; i++) {
		if (db.v[i].nbinds < 0 || db.v[i].nbinds > EVDB_MAXBINDS)
			abort();
		if (evdb_find(&db, db.v[i].guid) == NULL)
			abort();
		struct evm_padmap m;
		int r = evm_padmap_from_db(&m, &db.v[i], &caps);
		if (r < 0 || r > EVM_MAX_RULES)
			abort();
	}
	evdb_free(&db);
	evdb_free(&dbf);
	evdb_free(&db2);
	free(text);
	return 0;
}
