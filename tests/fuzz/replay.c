/* replay: runs a fuzz target's LLVMFuzzerTestOneInput on files, without
 * libFuzzer (make test replays the seeds and the crashes kept in the tree
 * through it, under the sanitizers in make asan). Arguments: files or
 * directories (their regular files, sorted). Prints how many inputs ran. */
#include "fuzz.h"
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	uint8_t *data = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			uint8_t *n = realloc(data, cap);
			if (!n)
				abort();
			data = n;
		}
		size_t got = fread(data + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	fclose(f);
	/* an exact-size copy, so ASan sees a read past the end */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact)
		abort();
	if (len)
		memcpy(exact, data, len);
	free(data);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return 0;
}


int main(int argc, char **argv)
{
	int n = 0, bad = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st)) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			bad = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= run_file(argv[i]) != 0;
			n++;
			continue;
		}
		struct dirent **names;
		int k = scandir(argv[i], &names, NULL, alphasort);
		if (k < 0) {
			bad = 1;
			continue;
		}
		for (int j = 0; j < k; j++) {
			char p[4096];
			snprintf(p, sizeof p, "%s/%s", argv[i], names[j]->d_name);
			if (names[j]->d_name[0] != '.' && !stat(p, &st) && S_ISREG(st.st_mode)) {
				bad |= run_file(p) != 0;
				n++;
			}
			free(names[j]);
		}
		free(names);
	}
	printf("%d inputs replayed\n", n);
	return bad;
}
