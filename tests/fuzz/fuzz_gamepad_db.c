/* Fuzz target: SDL GameControllerDB text (evm_db_add_text and the file
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
	struct evm_db db = { 0 };
	int n = evm_db_add_text(&db, text, "fuzz.db");
	/* the file reader must agree with the text reader */
	char path[64];
	int fd = fuzz_as_file(data, size, path, sizeof path);
	struct evm_db db2 = { 0 };
	(void)evm_db_load_file(&db2, path);
	close(fd);
	fuzz_log_end(&l);
	if (n < 0 || n != db.n)
		abort();
	struct evm_caps caps;
	memset(&caps, 0xff, sizeof caps);
	caps.name[sizeof caps.name - 1] = 0;
	for (int i = 0; i < db.n; i++) {
		if (db.v[i].nbinds < 0 || db.v[i].nbinds > EVM_DB_MAXBINDS)
			abort();
		if (evm_db_find(&db, db.v[i].guid) == NULL)
			abort();
		struct evm_padmap m;
		int r = evm_padmap_from_db(&m, &db.v[i], &caps);
		if (r < 0 || r > EVM_MAX_RULES)
			abort();
	}
	evm_db_free(&db);
	evm_db_free(&db2);
	free(text);
	return 0;
}
