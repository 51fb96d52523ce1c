/* Fuzz target: --keys files (keyfile_next over the whole input). */
#include "fuzz.h"
#include "app/keyfile.h"
#include <errno.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0; /* fmemopen refuses size 0 on some libcs */
	struct fuzz_log l;
	fuzz_log_begin(&l);
	int lineno = 0, rc;
	uint32_t key;
	while ((rc = keyfile_next(f, "fuzz.keys", &lineno, &key)) > 0)
		if (key == 0)
			abort();
	fuzz_log_end(&l);
	if (rc != 0 && rc != -EINVAL && rc != -EILSEQ && rc != -E2BIG && rc != -EIO)
		abort();
	fclose(f);
	/* the line parser alone, on the whole input as one line */
	(void)keyfile_parse_line((const char *)data, size, &key);
	return 0;
}
