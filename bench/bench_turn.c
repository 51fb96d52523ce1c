/* bench_turn: the instructions of a whole turn as users run it (game, drawing, amortised saving): the game binary plays bench/turn.keys on its seed under a callgrind of its own, at 1920x1080 headless and in an 80x24 terminal (a pty of the bench's), and a turn is (Ir of 5,000 keys - Ir of the first 1,000) / 4,000; target 30k. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "bench.h"
#include "benchrun.h"

#define SEED "7"          /* the seed tools/mkkeys made bench/turn.keys with */
#define KEYS_ALL 5000
#define KEYS_FIRST 1000
#define TARGET_TURN 30000L

/* The game's path (next to this bench, or $PIROGUE) into game. */
static int find_game(char *game, size_t len)
{
	char exe[PATH_MAX];
	const char *env = getenv("PIROGUE");
	if (env) {
		snprintf(game, len, "%s", env);
		return 0;
	}
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return -1;
	exe[n] = 0;
	*strrchr(exe, '/') = 0;
	snprintf(game, len, "%s/../../pirogue", exe); /* O/build/bench/x -> O/pirogue */
	return 0;
}

/* Writes the first n keys of the script src (comments kept) to dst; returns
 * how many it wrote. */
static long head_keys(const char *src, const char *dst, long n)
{
	FILE *in = fopen(src, "r"), *out = fopen(dst, "w");
	char line[256];
	long k = 0;
	if (!in || !out) {
		if (in)
			fclose(in);
		if (out)
			fclose(out);
		return -1;
	}
	while (k < n && fgets(line, sizeof line, in)) {
		fputs(line, out);
		if (line[0] != '#' && line[0] != '\n')
			k++;
	}
	fclose(in);
	return fclose(out) == 0 ? k : -1;
}

struct turn_run {
	const char *name;
	const char *backend, *size; /* size NULL: the pty's 80x24 */
	long all, first;
};

/* Plays keys (fresh state directory) on r's display; -1 when it failed. */
static long play(const char *game, const struct turn_run *r, const char *keys, const char *dump)
{
	char state[] = "/tmp/bench_turn.XXXXXX";
	if (!mkdtemp(state))
		return -1;
	const char *argv[20];
	int n = 0;
	argv[n++] = game;
	argv[n++] = "--backend";
	argv[n++] = r->backend;
	if (r->size) {
		argv[n++] = "--size";
		argv[n++] = r->size;
	}
	argv[n++] = "--seed";
	argv[n++] = SEED;
	argv[n++] = "--keys";
	argv[n++] = keys;
	argv[n++] = "--state-dir";
	argv[n++] = state;
	argv[n] = NULL;
	long ir = bench_ir_exec(argv, !r->size, dump, NULL);
	char cmd[PATH_MAX];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", state);
	if (system(cmd) != 0)
		return -1;
	return ir;
}

int main(int argc, char **argv)
{
	char game[PATH_MAX + 32], keys[PATH_MAX + 32];
	const char *dump = NULL; /* --profile DIR: keep the callgrind dumps (turn-BACKEND.cg, turn-BACKEND-first.cg) */
	/* with --ir (make bench-ir) or without (make bench) the same: every
	 * figure here is an instruction count, of a callgrind of the game's own */
	(void)bench_ir_mode(argc, argv);
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--profile") && i + 1 < argc)
			dump = argv[++i];
	if (find_game(game, sizeof game)) {
		fprintf(stderr, "bench_turn: cannot find pirogue (set PIROGUE)\n");
		return 1;
	}
	setenv("PIROGUE_CONFIG", "/dev/null", 1);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		return 1;
	if (!getenv("PIROGUE_DATA_DIR"))
		setenv("PIROGUE_DATA_DIR", cwd, 1); /* make bench runs in the tree: fonts/ */
	snprintf(keys, sizeof keys, "%s/bench/turn.keys", cwd);
	char first[] = "/tmp/bench_turn_keys.XXXXXX";
	int fd = mkstemp(first);
	if (fd < 0)
		return 1;
	close(fd);
	if (head_keys(keys, first, KEYS_FIRST) != KEYS_FIRST) {
		fprintf(stderr, "bench_turn: %s does not hold %d keys (run make bench from the tree)\n", keys,
			KEYS_FIRST);
		unlink(first);
		return 1;
	}
	struct turn_run runs[] = {
		{ "1920x1080 headless", "headless", "1920x1080", 0, 0 },
		{ "80x24 terminal (pty)", "term", NULL, 0, 0 },
	};
	int bad = 0;
	printf("a whole turn (game + drawing + amortised saving), pirogue --seed %s --keys bench/turn.keys, "
	       "instructions of exec to exit (callgrind, this run):\n", SEED);
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		struct turn_run *r = &runs[i];
		char path[PATH_MAX + 64];
		if (dump)
			snprintf(path, sizeof path, "%s/turn-%s.cg", dump, r->backend);
		r->all = play(game, r, keys, dump ? path : NULL);
		char path1[PATH_MAX + 64];
		if (dump)
			snprintf(path1, sizeof path1, "%s/turn-%s-first.cg", dump, r->backend);
		r->first = play(game, r, first, dump ? path1 : NULL);
		if (r->all < 0 || r->first < 0) {
			fprintf(stderr, "bench_turn: %s did not run under valgrind on %s\n", game, r->name);
			bad = 1;
			continue;
		}
		long turn = (r->all - r->first) / (KEYS_ALL - KEYS_FIRST);
		printf("  %s: %d keys %ld, first %d keys %ld; a turn (difference / %d) %ld; target <= %ld: %s "
		       "(this figure, this run)\n", r->name, KEYS_ALL, r->all, KEYS_FIRST, r->first,
		       KEYS_ALL - KEYS_FIRST, turn, TARGET_TURN, bench_met(turn <= TARGET_TURN));
	}
	unlink(first);
	return bad;
}
