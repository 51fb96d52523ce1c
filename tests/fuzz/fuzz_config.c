/* Fuzz target: the settings file (config_read), with a callback that takes
 * every value. */
#include "fuzz.h"
#include "app/config.h"

static int take(void *ctx, const char *file, int line, const char *key, const char *value)
{
	(void)file;
	int *n = ctx;
	if (!key[0] || line < 1 || strlen(key) > CONFIG_LINE_MAX || strlen(value) > CONFIG_LINE_MAX)
		abort();
	(*n)++;
	return !strcmp(key, "stop") ? 7 : 0; /* the callback can end the reading */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_as_file(data, size, path, sizeof path);
	struct fuzz_log l;
	fuzz_log_begin(&l);
	int n = 0;
	int rc = config_read(path, take, &n);
	fuzz_log_end(&l);
	if (rc != 0 && rc != 7 && rc != -EINVAL && rc != -EIO)
		abort();
	close(fd);
	return 0;
}
