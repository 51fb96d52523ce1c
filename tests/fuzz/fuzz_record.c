/* Fuzz target: recordings (rec_load). */
#include "fuzz.h"
#include "save/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_as_file(data, size, path, sizeof path);
	struct fuzz_log l;
	fuzz_log_begin(&l);
	struct recording r;
	memset(&r, 0, sizeof r);
	char err[256] = "";
	int rc = rec_load(path, &r, err, sizeof err);
	fuzz_log_end(&l);
	if (rc) {
		if (!err[0])
			abort(); /* a refusal says why (log.c makes it printable) */
	} else {
		for (size_t i = 0; i < r.nsteps; i++)
			if ((int)r.steps[i].cmd.c < 0 || r.steps[i].line < 1)
				abort();
	}
	rec_free(&r);
	close(fd);
	return 0;
}
