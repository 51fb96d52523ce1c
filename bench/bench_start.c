/* bench_start: pirogue's own start-up time, from exec to the first frame presented (headless backend), against the bare cost of starting the same binary (--version) in the same run; target: under 50 ms. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define RUNS 21
#define TARGET_MS 50.0
#define TARGET_BIG_IR 15000000L /* exec to the first frame at 1920x1080, instructions */

/* Runs argv with stderr on a pipe; returns the seconds from fork to the
 * first stderr line containing until (NULL: to the exit), or -1. */
static double timed_run(const char *const argv[], const char *until)
{
	int p[2];
	if (pipe(p))
		return -1;
	double t0 = bench_now();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(p[0]);
		dup2(p[1], 2);
		int devnull = open("/dev/null", O_RDWR);
		if (devnull >= 0) {
			dup2(devnull, 0);
			dup2(devnull, 1);
		}
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	double t = -1;
	char buf[4096];
	size_t have = 0;
	ssize_t n;
	while ((n = read(p[0], buf + have, sizeof buf - 1 - have)) > 0) {
		have += (size_t)n;
		buf[have] = 0;
		if (until && t < 0 && strstr(buf, until))
			t = bench_now() - t0;
		if (have > sizeof buf / 2) { /* keep the tail: the marker may straddle */
			memmove(buf, buf + have - 256, 256);
			have = 256;
		}
	}
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	if (!until)
		t = bench_now() - t0;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return -1;
	return t;
}

/* Instructions of argv (a shell-safe game path and arguments) run to its
 * exit under a callgrind of its own (this bench's callgrind, under make
 * bench-ir, does not follow children), or -1. */
static long ir_run(const char *const argv[])
{
	char cmd[2 * PATH_MAX + 512];
	int n = snprintf(cmd, sizeof cmd, "valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-fd=3 3>&1 "
			 ">/dev/null 2>&1");
	for (int i = 0; argv[i] && n > 0 && (size_t)n < sizeof cmd; i++)
		n += snprintf(cmd + n, sizeof cmd - (size_t)n, " '%s'", argv[i]);
	if (n < 0 || (size_t)n >= sizeof cmd)
		return -1;
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	char line[512];
	long ir = -1;
	while (fgets(line, sizeof line, p)) {
		const char *c = strstr(line, "Collected : ");
		if (c)
			ir = strtol(c + 12, NULL, 10);
	}
	return pclose(p) == 0 ? ir : -1;
}

int main(int argc, char **argv)
{
	/* the game next to this bench: O/build/bench/bench_start -> O/pirogue */
	char exe[PATH_MAX], game[PATH_MAX + 32];
	const char *env = getenv("PIROGUE");
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (env) {
		snprintf(game, sizeof game, "%s", env);
	} else if (len > 0) {
		exe[len] = 0;
		*strrchr(exe, '/') = 0;
		snprintf(game, sizeof game, "%s/../../pirogue", exe);
	} else {
		fprintf(stderr, "bench_start: cannot find pirogue (set PIROGUE)\n");
		return 1;
	}
	char state[] = "/tmp/bench_start.XXXXXX";
	if (!mkdtemp(state)) {
		fprintf(stderr, "bench_start: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	setenv("PIROGUE_CONFIG", "/dev/null", 1);
	if (!getenv("PIROGUE_DATA_DIR")) {
		char cwd[PATH_MAX];
		if (getcwd(cwd, sizeof cwd))
			setenv("PIROGUE_DATA_DIR", cwd, 1); /* make bench runs in the tree: fonts/ */
	}
	const char *start[] = { game, "--backend", "headless", "--size", "640x400", "--keys", "/dev/null",
			  "--state-dir", state, "--verbose", NULL };
	/* 1920x1080: the automatic font choice takes the DejaVu 21×21, the
	 * second largest sheet (640x400 takes the 8×8, the smallest) */
	const char *big[] = { game, "--backend", "headless", "--size", "1920x1080", "--keys", "/dev/null",
			  "--state-dir", state, "--verbose", NULL };
	const char *version[] = { game, "--version", NULL };
	if (bench_ir_mode(argc, argv)) {
		/* deterministic: instructions from exec to exit, which with
		 * --keys /dev/null comes right after the first frame */
		long is = ir_run(start), ib = ir_run(big), iv = ir_run(version);
		if (is < 0 || ib < 0 || iv < 0) {
			fprintf(stderr, "bench_start: %s did not run under valgrind\n", game);
			return 1;
		}
		printf("  start-up instructions, exec to exit after the first frame (callgrind): headless 640x400 %ld, "
		       "1920x1080 %ld; --version %ld (ratios %.1f, %.1f)\n", is, ib, iv, (double)is / (double)iv,
		       (double)ib / (double)iv);
		printf("  exec to the first frame at 1920x1080: %ld instructions; target <= %ld: %s (that figure, this "
		       "run)\n", ib, TARGET_BIG_IR, bench_met(ib <= TARGET_BIG_IR));
		char cmd[PATH_MAX + 16];
		snprintf(cmd, sizeof cmd, "rm -rf %s", state);
		return system(cmd) == 0 ? 0 : 1;
	}
	long ib = ir_run(big); /* the target is in instructions: callgrind, as under --ir */
	if (ib < 0)
		printf("exec to the first frame at 1920x1080: valgrind did not run it (make deps installs valgrind)\n");
	else
		printf("exec to the first frame at 1920x1080: %ld instructions (callgrind); target <= %ld: %s (that "
		       "figure, this run)\n", ib, TARGET_BIG_IR, bench_met(ib <= TARGET_BIG_IR));
	double ts[RUNS], tb[RUNS], tv[RUNS];
	for (int i = 0; i < RUNS; i++) {
		ts[i] = timed_run(start, "frame presented 1");
		tb[i] = timed_run(big, "frame presented 1");
		tv[i] = timed_run(version, NULL);
		if (ts[i] < 0 || tb[i] < 0 || tv[i] < 0) {
			fprintf(stderr, "bench_start: %s did not run (or never said 'frame presented 1' with --verbose)\n",
				game);
			return 1;
		}
	}
	struct bench_stat s = bench_summarise(ts, RUNS), b = bench_summarise(tb, RUNS), v = bench_summarise(tv, RUNS);
	printf("start-up, exec to the first frame presented (headless 640x400, %d runs): median %.1f ms, best %.1f ms\n",
	       RUNS, s.median * 1e3, s.best * 1e3);
	printf("the same at 1920x1080 (DejaVu 21x21 chosen, a 1080p frame), %d runs: median %.1f ms, best %.1f ms; "
	       "ratio to the baseline %.2f\n", RUNS, b.median * 1e3, b.best * 1e3, b.median / v.median);
	printf("baseline, exec to exit of pirogue --version:                          median %.1f ms, best %.1f ms\n",
	       v.median * 1e3, v.best * 1e3);
	printf("ratio to the baseline: %.2f; target under %.0f ms: %s (the 640x400 median above, this run)\n",
	       s.median / v.median, TARGET_MS, bench_met(s.median * 1e3 < TARGET_MS));
	printf("(drm: the VM rig's x86_64-systemd title check prints power on to the title, docs/vmrig.md)\n");
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf %s", state);
	return system(cmd) == 0 ? 0 : 1;
}
