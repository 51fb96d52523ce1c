/* The order of the system calls behind every atomic write of a save, a
 * score table and a morgue file: temporary file -> write -> fsync of it ->
 * rename over the name -> fsync of the directory (docs/save.md). Without
 * either fsync the file survives every test that does not cut the power,
 * so write, pwrite, fsync, fdatasync and rename are interposed here (as
 * tests/allochook.h does for malloc) and the calls of each write checked
 * in their order. */
#include "savefix.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/config.h"
#include "save/save.h"
#include "save/scores.h"

/* ---- the interposer ---- */

enum op { OP_WRITE, OP_SYNC, OP_RENAME };

struct event {
	enum op op;
	char path[PATH_MAX + 256]; /* the file written or synced (its name when it was), the rename's source */
	char to[PATH_MAX + 256];  /* the rename's target */
	bool dir;       /* the synced fd is a directory */
};

#define MAX_EVENTS 256
static struct event events[MAX_EVENTS];
static int nevents;
static bool recording;

/* The path fd is open on now (after a rename: the new name). */
static void fd_path(int fd, char *buf, size_t len, bool *dir)
{
	char link[64];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	struct stat st;
	*dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
}

static void note_fd(enum op op, int fd)
{
	if (!recording || nevents == MAX_EVENTS)
		return;
	int e = errno;
	struct event *ev = &events[nevents++];
	ev->op = op;
	ev->to[0] = '\0';
	fd_path(fd, ev->path, sizeof ev->path, &ev->dir);
	errno = e;
}

/* An absolute path without symlinks: the directory's real path and the
 * last name as given (the file may not exist yet, or any more). */
static void real_path(const char *p, char *buf, size_t len)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", p);
	char *slash = strrchr(dir, '/');
	const char *base = p;
	if (slash) {
		*slash = '\0';
		base = p + (slash - dir) + 1;
	} else {
		snprintf(dir, sizeof dir, ".");
	}
	char real[PATH_MAX];
	if (!realpath(dir[0] ? dir : "/", real))
		snprintf(real, sizeof real, "%s", dir);
	snprintf(buf, len, "%s/%s", real, base);
}

static void note_rename(const char *from, const char *to)
{
	if (!recording || nevents == MAX_EVENTS)
		return;
	int e = errno;
	struct event *ev = &events[nevents++];
	ev->op = OP_RENAME;
	ev->dir = false;
	real_path(from, ev->path, sizeof ev->path);
	real_path(to, ev->to, sizeof ev->to);
	errno = e;
}

/* The next definition of name (libc's), looked up once. */
#define REAL(name)                                                          \
	static __typeof__(&name) real_##name;                               \
	if (!real_##name)                                                   \
	*(void **)&real_##name = dlsym(RTLD_NEXT, #name)

ssize_t write(int fd, const void *p, size_t n)
{
	REAL(write);
	ssize_t r = real_write(fd, p, n);
	if (r > 0 && fd > 2)
		note_fd(OP_WRITE, fd);
	return r;
}

ssize_t pwrite(int fd, const void *p, size_t n, off_t off)
{
	REAL(pwrite);
	ssize_t r = real_pwrite(fd, p, n, off);
	if (r > 0)
		note_fd(OP_WRITE, fd);
	return r;
}

ssize_t pwrite64(int fd, const void *p, size_t n, off_t off)
{
	REAL(pwrite64);
	ssize_t r = real_pwrite64(fd, p, n, off);
	if (r > 0)
		note_fd(OP_WRITE, fd);
	return r;
}

int fsync(int fd)
{
	REAL(fsync);
	int r = real_fsync(fd);
	if (r == 0)
		note_fd(OP_SYNC, fd);
	return r;
}

int fdatasync(int fd)
{
	REAL(fdatasync);
	int r = real_fdatasync(fd);
	if (r == 0)
		note_fd(OP_SYNC, fd);
	return r;
}

int rename(const char *from, const char *to)
{
	REAL(rename);
	int r = real_rename(from, to);
	if (r == 0)
		note_rename(from, to);
	return r;
}

int renameat2(int fromdir, const char *from, int todir, const char *to, unsigned flags)
{
	REAL(renameat2);
	int r = real_renameat2(fromdir, from, todir, to, flags);
	/* the save code names its files by paths (AT_FDCWD) */
	if (r == 0 && fromdir == AT_FDCWD && todir == AT_FDCWD)
		note_rename(from, to);
	return r;
}

/* ---- the check ---- */

static char dir[PATH_MAX];

static void start(void)
{
	nevents = 0;
	recording = true;
}

/* The calls recorded since start() wrote dir/name atomically: one rename
 * onto it from a temporary file in dir that was written (and dir/name was
 * never written in place), an fsync of that file after its last write and
 * before the rename, and an fsync of dir after the rename. Prints the calls
 * when they do not. */
static void wrote_atomically(const char *name)
{
	recording = false;
	char dst[PATH_MAX + 256], tmpdir[PATH_MAX + 8];
	snprintf(dst, sizeof dst, "%s/%s", dir, name);
	snprintf(tmpdir, sizeof tmpdir, "%s/", dir);
	int ren = -1, renames = 0;
	for (int i = 0; i < nevents; i++)
		if (events[i].op == OP_RENAME && !strcmp(events[i].to, dst)) {
			ren = i;
			renames++;
		}
	bool ok = renames == 1;
	int last_write = -1, synced = -1, dir_synced = -1;
	if (ok) {
		const char *tmp = events[ren].path;
		ok = !strncmp(tmp, tmpdir, strlen(tmpdir)) && strcmp(tmp, dst);
		for (int i = 0; i < nevents; i++) {
			const struct event *e = &events[i];
			if (e->op == OP_WRITE && !strcmp(e->path, dst) && i > ren)
				ok = false; /* written in place after the rename */
			if (e->op == OP_WRITE && !strcmp(e->path, tmp) && i < ren)
				last_write = i;
		}
		for (int i = last_write + 1; i < ren; i++)
			if (events[i].op == OP_SYNC && !events[i].dir && !strcmp(events[i].path, tmp))
				synced = i;
		for (int i = ren + 1; i < nevents; i++)
			if (events[i].op == OP_SYNC && events[i].dir && !strcmp(events[i].path, dir))
				dir_synced = i;
	}
	if (!ok || last_write < 0 || synced < 0 || dir_synced < 0) {
		print_message("%s: renames onto it %d, written %s, fsync of the temporary file %s, fsync of %s "
			      "after the rename %s; the calls:\n",
			      dst, renames, last_write >= 0 ? "yes" : "no",
			      synced >= 0 ? "yes" : "no (missing or not between the last write and the rename)", dir,
			      dir_synced >= 0 ? "yes" : "no");
		static const char *names[] = { "write", "fsync", "rename" };
		for (int i = 0; i < nevents; i++)
			print_message("  %s %s%s%s%s\n", names[events[i].op], events[i].path,
				      events[i].dir ? " (directory)" : "", events[i].to[0] ? " -> " : "",
				      events[i].to);
		fail();
	}
}

/* dir is a real path: the interposer names files by /proc/self/fd links
 * and realpath(3) */
static int setup(void **st)
{
	(void)st;
	char made[64];
	return savefix_mkdtemp(made, sizeof made, "sync") || !realpath(made, dir) ? -1 : 0;
}

static int teardown(void **st)
{
	(void)st;
	return savefix_rmtree(dir);
}

/* The interposer sees the calls at all (else every check below would pass
 * for want of calls): a write, an fsync and a rename of the test's own. */
static void test_interposer_sees_calls(void **st)
{
	(void)st;
	char p[PATH_MAX + 16], q[PATH_MAX + 16];
	snprintf(p, sizeof p, "%s/own", dir);
	snprintf(q, sizeof q, "%s/own2", dir);
	start();
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "x", 1, 0), 1);
	assert_int_equal(fsync(fd), 0);
	close(fd);
	assert_int_equal(rename(p, q), 0);
	recording = false;
	assert_int_equal(nevents, 3);
	assert_int_equal(events[0].op, OP_WRITE);
	assert_string_equal(events[0].path, p);
	assert_int_equal(events[1].op, OP_SYNC);
	assert_int_equal(events[2].op, OP_RENAME);
	assert_string_equal(events[2].to, q);
	unlink(q);
}

/* A game's save (save_game): it was possible to drop either fsync with
 * every other test passing. */
static void test_save_game_synced(void **st)
{
	(void)st;
	struct game *g = gamefix_new(7, MAPGEN_CLASSIC);
	start();
	assert_int_equal(save_game(dir, g), 0);
	wrote_atomically(SAVE_FILE);
	/* the second save replaces the first the same way */
	start();
	assert_int_equal(save_game(dir, g), 0);
	wrote_atomically(SAVE_FILE);
	game_destroy(g);
}

/* The save of a finished game (the first step of its end). */
static void test_save_game_ended_synced(void **st)
{
	(void)st;
	struct game *g = gamefix_new(8, MAPGEN_CLASSIC);
	start();
	assert_int_equal(save_game_ended(dir, g, 1700000000), 0);
	wrote_atomically(SAVE_FILE);
	game_destroy(g);
}

/* The high-score table and any file written by save_write_atomic (the
 * morgue files). */
static void test_scores_and_files_synced(void **st)
{
	(void)st;
	struct score s = { .score = 10, .depth = 1, .turns = 5, .level = 1, .seed = 3, .when = 1700000000 };
	snprintf(s.cause, sizeof s.cause, "killed by a rat");
	start();
	assert_int_equal(scores_add(dir, &s), 0);
	wrote_atomically(SCORES_FILE);
	start();
	assert_int_equal(save_write_atomic(dir, "morgue-test.txt", "text\n", 5), 0);
	wrote_atomically("morgue-test.txt");
}

/* The state directory's settings file (the options screen's): written the
 * same way, its other lines (a user's comments, other settings) kept, the
 * key's line replaced in place, a new key appended. */
static void test_state_settings_synced(void **st)
{
	(void)st;
	char p[PATH_MAX + 32];
	snprintf(p, sizeof p, "%s/%s", dir, CONFIG_STATE_FILE);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("# my comment\nattract = 60   # a minute\nscale = 2\nattract = 5\n", f);
	fclose(f);
	start();
	assert_int_equal(config_state_set(dir, "attract", "120"), 0);
	wrote_atomically(CONFIG_STATE_FILE);
	start();
	assert_int_equal(config_state_set(dir, "blank", "10"), 0);
	wrote_atomically(CONFIG_STATE_FILE);
	char buf[256] = "";
	f = fopen(p, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	assert_string_equal(buf, "# my comment\nattract = 120\nscale = 2\nblank = 10\n");
	unlink(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interposer_sees_calls),
		cmocka_unit_test(test_save_game_synced),
		cmocka_unit_test(test_save_game_ended_synced),
		cmocka_unit_test(test_scores_and_files_synced),
		cmocka_unit_test(test_state_settings_synced),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
