/* save: state directory choice, the save file (round trip, every truncation, byte flips, foreign and newer files set aside), atomic writes under SIGKILL. */
#include "savefix.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "logcap.h"
#include "save/histfile.h"
#include "save/record.h"
#include "save/save.h"

/* ---- open and read, watched (symbol interposition, as allochook.h does
 * for malloc): an open for reading that would block on a FIFO is refused
 * and counted instead of hanging the test, and the bytes read are counted
 * (at most READ_CAP, then end of file: a defect that reads a 2 GB file
 * whole fails fast). ---- */

static int fifo_blocking_opens;
static unsigned long long bytes_read;
#define READ_CAP (64ull << 20)

static bool would_block_on_fifo(const char *path, int flags)
{
	struct stat st;
	if ((flags & O_NONBLOCK) || (flags & O_ACCMODE) != O_RDONLY || stat(path, &st) || !S_ISFIFO(st.st_mode))
		return false;
	fifo_blocking_opens++;
	errno = EWOULDBLOCK;
	return true;
}

#define OPEN_HOOK(name)                                                                 \
	int name(const char *path, int flags, ...);                                     \
	int name(const char *path, int flags, ...)                                      \
	{                                                                               \
		static int (*real)(const char *, int, ...);                             \
		mode_t mode = 0;                                                        \
		if (flags & (O_CREAT | O_TMPFILE)) {                                    \
			va_list ap;                                                     \
			va_start(ap, flags);                                            \
			mode = va_arg(ap, mode_t);                                      \
			va_end(ap);                                                     \
		}                                                                       \
		if (would_block_on_fifo(path, flags))                                   \
			return -1;                                                      \
		if (!real)                                                              \
			real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name); \
		return real(path, flags, mode);                                         \
	}
OPEN_HOOK(open)
OPEN_HOOK(open64)

static ssize_t counted(ssize_t n)
{
	if (n > 0)
		bytes_read += (unsigned long long)n;
	return n;
}

ssize_t read(int fd, void *buf, size_t n);
ssize_t read(int fd, void *buf, size_t n)
{
	static ssize_t (*real)(int, void *, size_t);
	if (!real)
		real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	if (n > READ_CAP - bytes_read)
		n = (size_t)(READ_CAP - bytes_read);
	return n == 0 ? 0 : counted(real(fd, buf, n));
}

#define PREAD_HOOK(name)                                                                     \
	ssize_t name(int fd, void *buf, size_t n, off_t off);                                \
	ssize_t name(int fd, void *buf, size_t n, off_t off)                                 \
	{                                                                                    \
		static ssize_t (*real)(int, void *, size_t, off_t);                          \
		if (!real)                                                                   \
			real = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, #name); \
		if (n > READ_CAP - bytes_read)                                               \
			n = (size_t)(READ_CAP - bytes_read);                                 \
		return n == 0 ? 0 : counted(real(fd, buf, n, off));                          \
	}
PREAD_HOOK(pread)
PREAD_HOOK(pread64)

static char dir[64];

static int setup(void **st)
{
	(void)st;
	return savefix_mkdtemp(dir, sizeof dir, "save");
}

static int teardown(void **st)
{
	(void)st;
	return savefix_rmtree(dir);
}

/* Number of files in the test directory (or its subdirectory sub) whose name starts with prefix. */
static int count_in(const char *sub, const char *prefix)
{
	char p[160];
	snprintf(p, sizeof p, "%s%s%s", dir, sub ? "/" : "", sub ? sub : "");
	DIR *d = opendir(p);
	assert_non_null(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	closedir(d);
	return n;
}

static void write_bytes(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void test_state_dir(void **st)
{
	(void)st;
	char buf[256];
	setenv("STATE_DIRECTORY", "/var/lib/pirogue:/other", 1);
	setenv("XDG_STATE_HOME", "/x", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(save_state_dir("/given", buf, sizeof buf), 0);
	assert_string_equal(buf, "/given");
	assert_int_equal(save_state_dir(NULL, buf, sizeof buf), 0);
	assert_string_equal(buf, "/var/lib/pirogue");
	setenv("STATE_DIRECTORY", ":/other", 1); /* no first one: not used */
	assert_int_equal(save_state_dir(NULL, buf, sizeof buf), 0);
	assert_string_equal(buf, "/x/pirogue");
	unsetenv("STATE_DIRECTORY");
	assert_int_equal(save_state_dir(NULL, buf, sizeof buf), 0);
	assert_string_equal(buf, "/x/pirogue");
	setenv("XDG_STATE_HOME", "relative", 1); /* the XDG spec: ignored */
	assert_int_equal(save_state_dir("", buf, sizeof buf), 0);
	assert_string_equal(buf, "/home/u/.local/state/pirogue");
	unsetenv("XDG_STATE_HOME");
	unsetenv("HOME");
	assert_int_equal(save_state_dir(NULL, buf, sizeof buf), -ENOENT);
	assert_int_equal(save_state_dir("/a/very/long/path", buf, 8), -ENAMETOOLONG);
}

static struct game *played(uint64_t seed, int turns)
{
	struct game *g = gamefix_new(seed, MAPGEN_CLASSIC);
	struct savefix_bot bot;
	savefix_bot_init(&bot, seed);
	savefix_play(&bot, g, turns);
	return g;
}

static void test_save_load(void **st)
{
	(void)st;
	char sub[128], why[SAVE_WHY_MAX];
	snprintf(sub, sizeof sub, "%s/a/b", dir); /* made on the first save */
	assert_false(save_exists(sub));
	struct game *h;
	assert_int_equal(save_load(sub, &h, why, sizeof why), -ENOENT);
	for (uint64_t seed = 1; seed <= 6; seed++) {
		struct game *g = played(seed, (int)seed * 60);
		assert_int_equal(save_game(sub, g), 0);
		assert_true(save_exists(sub));
		assert_int_equal(save_load(sub, &h, why, sizeof why), 0);
		assert_true(game_checksum(h) == game_checksum(g));
		game_destroy(h);
		game_destroy(g);
	}
	char p[160];
	snprintf(p, sizeof p, "%s/%s", sub, SAVE_FILE);
	struct stat s;
	assert_int_equal(stat(p, &s), 0);
	assert_int_equal(s.st_mode & 0777, 0644);
	assert_int_equal(count_in("a/b", SAVE_FILE ".tmp"), 0);
	/* what killed atomic writes leave is cleaned up on load, nothing else */
	const char *stale[] = {SAVE_FILE ".tmp-a1B2c3", "scores.tmp-zzzzzz", "notes.tmp-1"};
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s/%s", sub, stale[i]);
		write_bytes(p, "x", 1);
	}
	assert_int_equal(save_load(sub, &h, why, sizeof why), 0);
	game_destroy(h);
	assert_int_equal(count_in("a/b", SAVE_FILE ".tmp"), 0);
	assert_int_equal(count_in("a/b", "scores.tmp"), 0);
	assert_int_equal(count_in("a/b", "notes.tmp-1"), 1);
	assert_int_equal(save_delete(sub), 0);
	assert_false(save_exists(sub));
	assert_int_equal(save_delete(sub), 0); /* none: fine */
}

/* save_game streams the file (each section's length and CRC patched in
 * once known, the history read from its store in chunks) and writes the
 * very bytes save_encode makes in memory: games of a few floors, and one
 * of 9,000 commands with its history mostly in a store (over a memfd). */
static void test_streamed_file_is_save_encode(void **st)
{
	(void)st;
	char sub[128], path[192];
	snprintf(sub, sizeof sub, "%s/stream", dir);
	snprintf(path, sizeof path, "%s/%s", sub, SAVE_FILE);
	struct histfile *hf;
	assert_int_equal(histfile_open_fd(&hf, memfd_create("history", MFD_CLOEXEC), "the test's memfd"), 0);
	struct hist_store hs;
	histfile_store(hf, &hs);
	for (int k = 0; k < 4; k++) {
		struct game *g;
		if (k < 3) {
			g = played(20 + (uint64_t)k, 400);
		} else {
			g = gamefix_new(9, MAPGEN_CLASSIC);
			assert_int_equal(game_set_history_store(g, &hs), 0);
			for (int i = 0; i < 9000; i++)
				game_apply(g, i % 500 ? CMD_ASCEND : CMD_WAIT); /* mostly no turn: he lives */
			assert_int_equal(game_history(g)->stored, 2 * HIST_BLOCK);
		}
		struct serial_buf b = {0};
		assert_int_equal(save_encode(g, &b), 0);
		assert_int_equal(save_game(sub, g), 0);
		FILE *f = fopen(path, "rb");
		assert_non_null(f);
		unsigned char *file = malloc(b.len + 1);
		assert_int_equal(fread(file, 1, b.len + 1, f), b.len);
		fclose(f);
		assert_memory_equal(file, b.data, b.len);
		free(file);
		free(b.data);
		game_destroy(g);
	}
	histfile_close(hf);
}

/* Every section's length and CRC32 in b (a whole save file) are those of
 * its bytes, summed here with zlib in one go. */
static void sections_summed_right(const struct serial_buf *b)
{
	assert_true(b->len >= 20);
	uint32_t nsec = (uint32_t)b->data[12] | (uint32_t)b->data[13] << 8 | (uint32_t)b->data[14] << 16 |
			(uint32_t)b->data[15] << 24;
	size_t at = 20;
	for (uint32_t s = 0; s < nsec; s++) {
		assert_true(at + 12 <= b->len);
		const unsigned char *h = b->data + at;
		uint32_t len = (uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 | (uint32_t)h[7] << 24;
		uint32_t want = (uint32_t)h[8] | (uint32_t)h[9] << 8 | (uint32_t)h[10] << 16 | (uint32_t)h[11] << 24;
		assert_true(at + 12 + len <= b->len);
		assert_int_equal((uint32_t)crc32(crc32(0L, Z_NULL, 0), h + 12, len), want);
		at += 12 + len;
	}
	assert_int_equal(at, b->len);
}

/* g's save encoding (an autosave of it: the chunks kept from the last one)
 * has every section summed right and decodes. */
static void encoded_summed_right(struct game *g)
{
	struct serial_buf b = {0};
	assert_int_equal(save_encode(g, &b), 0);
	sections_summed_right(&b);
	struct game *h;
	char why[SAVE_WHY_MAX];
	assert_int_equal(save_decode(b.data, b.len, &h, why, sizeof why), 0);
	game_destroy(h);
	free(b.data);
}

/* The autosave sums only the chunks that changed since the last save (the
 * others take the CRC kept with their copy): saves one after another of a
 * game going on, of the same game with a chunk's bytes changed but not its
 * length, and of other games, each to a buffer and to the file, carry the
 * CRC of what they hold and load. */
static void test_chunk_crcs_follow_changes(void **st)
{
	(void)st;
	char sub[128], path[192];
	snprintf(sub, sizeof sub, "%s/chunks", dir);
	snprintf(path, sizeof path, "%s/%s", sub, SAVE_FILE);
	struct game *g = played(31, 300);
	for (int k = 0; k < 6; k++) {
		if (k == 2) { /* same length, other bytes: a far cell of floor 1 explored */
			struct map *m = (struct map *)game_map(g);
			m->explored[m->w * m->h - 1] ^= 1;
		}
		if (k == 4) {
			game_destroy(g);
			g = played(32, 500);
		}
		for (int i = 0; i < (k & 1) * 150 && !game_is_over(g); i++)
			game_apply(g, (enum cmd)(CMD_MOVE_N + (i * 5 % 8)));
		encoded_summed_right(g);
		struct game *h;
		char why[SAVE_WHY_MAX];
		assert_int_equal(save_game(sub, g), 0);
		assert_int_equal(save_load(sub, &h, why, sizeof why), 0);
		game_destroy(h);
	}
	game_destroy(g);
}

/* The chunks met again unchanged after one that differed are combined in
 * as runs, from the upto of a run's last chunk (and the one before it):
 * saves one after another with one or two bytes changed at places that
 * move about the floors' memories (the runs begin and end anywhere, a
 * chunk left inside a run one save is at a run's end or start the next),
 * the game going on now and then, each carry the CRC of what they hold and
 * load. */
static void test_chunk_runs_follow_changes(void **st)
{
	(void)st;
	struct game *g = played(33, 1500);
	assert_true(g->depth >= 2); /* (several floors: long sections) */
	uint32_t r = 12345;
	for (int k = 0; k < 60; k++) {
		for (int c = 0; c < 1 + k % 3; c++) {
			r = r * 1103515245u + 12345u;
			struct map *m = world_floor(g, 1 + (int)(r >> 16) % g->depth);
			if (m)
				m->explored[(r >> 4) % (uint32_t)(m->w * m->h)] ^= 1;
		}
		if (k % 7 == 6)
			for (int i = 0; i < 20 && !game_is_over(g); i++)
				game_apply(g, (enum cmd)(CMD_MOVE_N + (i * 3 % 8)));
		encoded_summed_right(g);
	}
	game_destroy(g);
}

static void expect_refused(const void *data, size_t len, const char *want);

/* The payload of section tag of the save file b (NULL when none), *len its
 * length, *crc where its CRC32 lies. */
static unsigned char *section_of(const struct serial_buf *b, const char *tag, uint32_t *len, unsigned char **crc)
{
	size_t at = 20;
	while (at + 12 <= b->len) {
		unsigned char *h = b->data + at;
		uint32_t n = (uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 | (uint32_t)h[7] << 24;
		if (memcmp(h, tag, 4) == 0) {
			*len = n;
			*crc = h + 8;
			return h + 12;
		}
		at += 12 + (size_t)n;
	}
	return NULL;
}

/* A full message log, its ring started anywhere, is saved as it lies
 * (format 4): autosaves one after another, each a message or two on (one
 * of them said again), change only a few of the LOG section's 1 KB chunks
 * (oldest first, every new message moved all 64), carry the CRC of what
 * they hold and load as the very game (its messages in order, its ring's
 * start, its checksum). A start that only a full ring can have is refused
 * in a log that is not full. */
static void test_full_log_saved_as_it_lies(void **st)
{
	(void)st;
	struct game *g = played(35, 200);
	for (int i = 0; i < GAME_LOG_MAX + 37; i++)
		world_msg(g, 0xFFFFFF, "message %d of the test", i);
	assert_int_equal(g->log_count, GAME_LOG_MAX);
	assert_true(g->log_start != 0);
	struct serial_buf last = {0};
	for (int k = 0; k < 12; k++) {
		world_msg(g, 0x00FF00, "message %d again", k / 2); /* every other one a repeat */
		if (k % 3 == 2)
			world_msg(g, 0x0000FF, "and one more, %d", k);
		struct serial_buf b = {0};
		assert_int_equal(save_encode(g, &b), 0);
		sections_summed_right(&b);
		uint32_t n = 0;
		unsigned char *crc;
		const unsigned char *log = section_of(&b, "LOG ", &n, &crc);
		assert_non_null(log);
		assert_int_equal(n, 8 + GAME_LOG_MAX * 128);
		if (last.data) {
			uint32_t n0 = 0;
			const unsigned char *log0 = section_of(&last, "LOG ", &n0, &crc);
			int changed = 0;
			for (uint32_t c = 0; c < n; c += 1024)
				changed += memcmp(log + c, log0 + c, n - c < 1024 ? n - c : 1024) != 0;
			assert_true(changed <= 3); /* the start's and the new slots' */
		}
		struct game *h;
		char why[SAVE_WHY_MAX];
		assert_int_equal(save_decode(b.data, b.len, &h, why, sizeof why), 0);
		assert_int_equal(game_checksum(h), game_checksum(g));
		assert_int_equal(h->log_start, g->log_start);
		assert_int_equal(game_msg_count(h), game_msg_count(g));
		for (int i = 0; i < game_msg_count(g); i++) {
			const struct game_msg *a = game_msg_get(g, i), *c = game_msg_get(h, i);
			assert_string_equal(a->text, c->text);
			assert_int_equal(a->fg, c->fg);
			assert_int_equal(a->count, c->count);
		}
		game_destroy(h);
		free(last.data);
		last = b;
	}
	free(last.data);
	game_destroy(g);
	/* a log that is not full starts at its first slot */
	g = played(35, 30);
	assert_true(g->log_count > 1 && g->log_count < GAME_LOG_MAX);
	struct serial_buf b = {0};
	assert_int_equal(save_encode(g, &b), 0);
	uint32_t n = 0;
	unsigned char *crc;
	unsigned char *log = section_of(&b, "LOG ", &n, &crc);
	assert_non_null(log);
	assert_int_equal(log[4] | log[5] << 8, 0);
	log[4] = 1;
	uint32_t c = (uint32_t)crc32(crc32(0L, Z_NULL, 0), log, n);
	crc[0] = (unsigned char)c, crc[1] = (unsigned char)(c >> 8), crc[2] = (unsigned char)(c >> 16),
	crc[3] = (unsigned char)(c >> 24);
	expect_refused(b.data, b.len, "the save's log starts at slot 1");
	free(b.data);
	game_destroy(g);
}

/* Bytes of a small real save (floor 1, a few dozen turns). */
static struct serial_buf small_save(void)
{
	struct game *g = played(3, 40);
	struct serial_buf b = {0};
	assert_int_equal(save_encode(g, &b), 0);
	game_destroy(g);
	return b;
}

static void expect_refused(const void *data, size_t len, const char *want)
{
	struct game *g = (struct game *)1;
	char why[SAVE_WHY_MAX] = "";
	int rc = save_decode(data, len, &g, why, sizeof why);
	if (rc != -EINVAL || (want && !strstr(why, want)))
		print_message("len %zu: rc %d, '%s' (expected '%s')\n", len, rc, why, want ? want : "");
	assert_int_equal(rc, -EINVAL);
	assert_null(g);
	assert_true(why[0] != 0);
	assert_null(strchr(why, '\n'));
	if (want)
		assert_non_null(strstr(why, want));
}

/* Every truncation length of a real save is refused with a reason. */
static void test_every_truncation(void **st)
{
	(void)st;
	struct serial_buf b = small_save();
	expect_refused(b.data, 0, "empty");
	for (size_t n = 1; n < b.len; n++)
		expect_refused(b.data, n, "cut short");
	/* on disk: the state directory keeps it aside and says where */
	char p[128], why[SAVE_WHY_MAX];
	snprintf(p, sizeof p, "%s/%s", dir, SAVE_FILE);
	int kept = 0;
	for (size_t n = 0; n < b.len; n += b.len / 7, kept++) {
		write_bytes(p, b.data, n);
		struct game *g;
		assert_int_equal(save_load(dir, &g, why, sizeof why), -EINVAL);
		assert_non_null(strstr(why, "; kept as " SAVE_FILE ".bad-"));
		assert_false(save_exists(dir));
	}
	assert_int_equal(count_in(NULL, SAVE_FILE ".bad-"), kept); /* none replaced another */
	free(b.data);
}

/* Random byte changes anywhere: refused (the CRCs), never a crash. */
static void test_byte_flips(void **st)
{
	(void)st;
	struct serial_buf b = small_save();
	unsigned char *c = malloc(b.len);
	assert_non_null(c);
	srand(7);
	for (int i = 0; i < 2000; i++) {
		memcpy(c, b.data, b.len);
		int flips = 1 + rand() % 4;
		for (int f = 0; f < flips; f++)
			c[(size_t)rand() % b.len] ^= (unsigned char)(1 + rand() % 255);
		if (memcmp(c, b.data, b.len) == 0)
			continue;
		expect_refused(c, b.len, NULL);
	}
	/* on disk: each damaged save kept aside, with where in the reason */
	char sub[128], p[160], why[SAVE_WHY_MAX];
	snprintf(sub, sizeof sub, "%s/flips", dir);
	snprintf(p, sizeof p, "%s/%s", sub, SAVE_FILE);
	assert_int_equal(save_make_dir(sub), 0);
	for (int i = 0; i < 20; i++) {
		memcpy(c, b.data, b.len);
		c[(size_t)rand() % b.len] ^= (unsigned char)(1 + rand() % 255);
		write_bytes(p, c, b.len);
		struct game *g;
		assert_int_equal(save_load(sub, &g, why, sizeof why), -EINVAL);
		assert_non_null(strstr(why, "; kept as " SAVE_FILE ".bad-"));
		assert_false(save_exists(sub));
	}
	assert_int_equal(count_in("flips", SAVE_FILE ".bad-"), 20);
	free(c);
	free(b.data);
}

static void fix_header_crc(unsigned char *h)
{
	uint32_t c = (uint32_t)crc32(crc32(0L, Z_NULL, 0), h, 16);
	for (int i = 0; i < 4; i++)
		h[16 + i] = (unsigned char)(c >> (8 * i));
}

static void test_foreign_and_newer(void **st)
{
	(void)st;
	const char text[] = "[pirogue]\nscale = 2\n";
	expect_refused(text, sizeof text - 1, "not a pirogue save");
	struct serial_buf b = small_save();
	b.data[8] = SERIAL_VERSION + 1;
	fix_header_crc(b.data);
	char want[128];
	snprintf(want, sizeof want, "newer pirogue (format %d; this one reads %d)", SERIAL_VERSION + 1, SERIAL_VERSION);
	expect_refused(b.data, b.len, want);
	b.data[8] = 1;
	fix_header_crc(b.data);
	expect_refused(b.data, b.len, "old format (1)");
	b.data[8] = SERIAL_VERSION;
	b.data[12] = 3; /* fewer sections than written: bytes left over */
	fix_header_crc(b.data);
	expect_refused(b.data, b.len, "unexpected bytes");
	b.data[12] ^= 1;
	expect_refused(b.data, b.len, "header is damaged");
	free(b.data);
	/* a directory where the save should be: unreadable, set aside (a new
	 * game's save could not be written there; an unreadable file would be
	 * replaced by it) */
	char sub[128], p[160], why[SAVE_WHY_MAX];
	snprintf(sub, sizeof sub, "%s/d", dir);
	snprintf(p, sizeof p, "%s/%s", sub, SAVE_FILE);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(mkdir(p, 0700), 0);
	struct game *g;
	assert_int_equal(save_load(sub, &g, why, sizeof why), -EISDIR);
	assert_non_null(strstr(why, "the save is a directory, not a file; kept as pirogue.sav.bad-"));
	struct stat sb;
	assert_int_equal(stat(p, &sb), -1);
	g = played(3, 5);
	assert_int_equal(save_game(sub, g), 0); /* the new game can be saved */
	game_destroy(g);
}

/* The power cut: a child saves successive states of a game over and over
 * and is killed with SIGKILL at a random moment, 200 times. The state
 * directory always loads, to the last save the child finished or to the
 * one it was writing; its temporary files are cleaned up on load. */
static void test_power_cut(void **st)
{
	(void)st;
	char sub[128];
	snprintf(sub, sizeof sub, "%s/cut", dir);
	struct game *g = played(11, 30);
	assert_int_equal(save_game(sub, g), 0);
	srand(11);
	int newest = 0, previous = 0, kills = 200;
	for (int k = 0; k < kills; k++) {
		int fds[2];
		assert_int_equal(pipe(fds), 0);
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			close(fds[0]);
			struct savefix_bot bot;
			savefix_bot_init(&bot, (uint64_t)k);
			for (;;) {
				savefix_play(&bot, g, 1);
				if (game_is_over(g))
					_exit(0);
				int t = game_turn(g);
				if (write(fds[1], &t, sizeof t) != sizeof t || save_game(sub, g))
					_exit(1);
				t = -t;
				if (write(fds[1], &t, sizeof t) != sizeof t)
					_exit(1);
			}
		}
		close(fds[1]);
		usleep((useconds_t)(rand() % 4000));
		kill(pid, SIGKILL);
		int status;
		assert_int_equal(waitpid(pid, &status, 0), pid);
		/* what the child was writing and what it had finished */
		int t, writing = -1, done = -1;
		while (read(fds[0], &t, sizeof t) == sizeof t) {
			if (t >= 0)
				writing = t;
			else
				done = -t;
		}
		close(fds[0]);
		struct game *h;
		char why[SAVE_WHY_MAX];
		int rc = save_load(sub, &h, why, sizeof why);
		if (rc)
			print_message("kill %d: %s\n", k, why);
		assert_int_equal(rc, 0);
		int got = game_turn(h);
		if (done < 0) {
			/* killed during or before the first save: the parent's game
			 * (turn of g) or the one being written */
			assert_true(got == game_turn(g) || got == writing);
		} else {
			assert_true(got == done || got == writing);
		}
		if (got == writing && writing != done)
			newest++;
		else
			previous++;
		assert_int_equal(count_in("cut", SAVE_FILE ".tmp"), 0);
		game_destroy(h);
		/* the next child continues from what was saved */
		game_destroy(g);
		assert_int_equal(save_load(sub, &g, why, sizeof why), 0);
		if (game_is_over(g)) { /* (death is not saved by the app; here it is) */
			game_destroy(g);
			g = played(1000 + (uint64_t)k, 10);
			assert_int_equal(save_game(sub, g), 0);
		}
	}
	print_message("power cut: %d kills: %d loaded the save being written, %d the one before\n", kills,
		      newest, previous);
	game_destroy(g);
}

/* Issue 18, item 1: a save of the format before stacks (v2, its potions in
 * separate slots) loads with them as one stack, and its history still
 * replays to the loaded game (stacks start where the save was loaded). */
static void test_old_save_loads_as_stacks(void **st)
{
	(void)st;
	FILE *f = fopen(TEST_DIR "/saves/v2-stacks.sav", "rb");
	assert_non_null(f);
	static unsigned char data[1 << 20];
	size_t len = fread(data, 1, sizeof data, f);
	fclose(f);
	struct game *g;
	char why[256];
	assert_int_equal(save_decode(data, len, &g, why, sizeof why), 0);
	struct game_item_view v[INVENTORY_SLOTS];
	int n = game_inventory(g, v, INVENTORY_SLOTS), potions = 0, count = 0;
	for (int i = 0; i < n; i++) {
		if (v[i].kind == ITEM_HEALTH_POTION) {
			potions++;
			count = v[i].count;
		}
	}
	assert_int_equal(potions, 1);
	assert_int_equal(count, 6);
	assert_int_equal(g->stacks_from, hist_count(game_history(g)));
	char path[128];
	snprintf(path, sizeof path, "%s/old.rec", dir);
	assert_int_equal(rec_write_history(path, g, 1), 0);
	/* played on, saved and loaded again: the same game */
	assert_int_equal(game_apply(g, CMD_WAIT), 1);
	struct serial_buf b = {0};
	assert_int_equal(save_encode(g, &b), 0);
	struct game *h;
	assert_int_equal(save_decode(b.data, b.len, &h, why, sizeof why), 0);
	assert_true(game_checksum(g) == game_checksum(h));
	assert_int_equal(rec_write_history(path, h, 1), 0);
	struct recording r;
	assert_int_equal(rec_load(path, &r, why, sizeof why), 0);
	assert_int_equal(r.stacks_from, g->stacks_from);
	struct game *k;
	assert_int_equal(rec_replay(&r, path, &k, why, sizeof why), 0);
	assert_true(game_checksum(k) == game_checksum(g));
	rec_free(&r);
	free(b.data);
	game_destroy(k);
	game_destroy(h);
	game_destroy(g);
}

/* A FIFO in place of the save (issue 21.4): refused at once with one line
 * naming what it is, never opened so that the open waits for a writer
 * (--check-save and the start-up hung forever); kept aside like any
 * refused save. /dev/zero is named a device, not "Is a directory". */
static void test_not_a_file(void **st)
{
	(void)st;
	char sub[128], path[160], why[SAVE_WHY_MAX];
	snprintf(sub, sizeof sub, "%s/fifo", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(path, sizeof path, "%s/%s", sub, SAVE_FILE);
	assert_int_equal(mkfifo(path, 0600), 0);
	struct game *g;
	fifo_blocking_opens = 0;
	int rc = save_load_file(path, &g, why, sizeof why);
	assert_int_equal(fifo_blocking_opens, 0);
	assert_int_equal(rc, -EINVAL);
	assert_null(g);
	assert_non_null(strstr(why, "FIFO"));
	assert_null(strchr(why, '\n'));
	rc = save_load(sub, &g, why, sizeof why);
	assert_int_equal(fifo_blocking_opens, 0);
	assert_int_equal(rc, -EINVAL);
	assert_non_null(strstr(why, "; kept as pirogue.sav.bad-"));
	assert_false(save_exists(sub));
	assert_int_equal(save_load_file("/dev/zero", &g, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "character device"));
	assert_null(strstr(why, "irectory"));
	assert_int_equal(save_load_file(dir, &g, why, sizeof why), -EISDIR);
	assert_non_null(strstr(why, "a directory"));
}

/* A 2 GB sparse save (issue 21.5) is refused from its header and declared
 * sizes, having read a few bytes, not 2 GB: zeros (not a save), a real
 * save's header with the file grown behind it (its sections do not fill
 * the file), and one whose sections claim it all (larger than any save). */
static void test_sparse_giant(void **st)
{
	(void)st;
	char path[160], why[SAVE_WHY_MAX];
	snprintf(path, sizeof path, "%s/giant.sav", dir);
	struct game *g = played(3, 50), *h;
	struct serial_buf b = {0};
	assert_int_equal(save_encode(g, &b), 0);
	game_destroy(g);
	const off_t giant = (off_t)2 << 30;
	for (int k = 0; k < 3; k++) {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		assert_true(fd >= 0);
		if (k == 1)
			assert_int_equal(write(fd, b.data, b.len), (ssize_t)b.len);
		if (k == 2) {
			/* one section of 2 GB, its header CRC right */
			unsigned char head[32];
			memcpy(head, b.data, 20);
			head[12] = 1;
			head[13] = head[14] = head[15] = 0;
			uint32_t c = (uint32_t)crc32(0, head, 16);
			for (int i = 0; i < 4; i++)
				head[16 + i] = (unsigned char)(c >> (8 * i));
			memcpy(head + 20, "GAME", 4);
			uint32_t n = (uint32_t)(giant - 32);
			for (int i = 0; i < 4; i++)
				head[24 + i] = (unsigned char)(n >> (8 * i));
			memset(head + 28, 0, 4);
			assert_int_equal(write(fd, head, sizeof head), (ssize_t)sizeof head);
		}
		assert_int_equal(ftruncate(fd, giant), 0);
		close(fd);
		bytes_read = 0;
		int rc = save_load_file(path, &h, why, sizeof why);
		print_message("giant %d: %llu bytes read: %s\n", k, bytes_read, why);
		assert_int_equal(rc, -EINVAL);
		assert_true(bytes_read < (1u << 20));
		assert_null(strchr(why, '\n'));
		assert_non_null(strstr(why, k == 0 ? "not a pirogue save" : k == 1 ? "bytes after its last section"
										 : "larger than"));
	}
	unlink(path);
	free(b.data);
}

/* A state directory that is a dangling or looping symbolic link, or lies
 * under a regular file, cannot be made (issue 21.6: save_make_dir took the
 * failed stat for success, and the game was played unsaved): one line
 * naming the state directory and what is in the way. */
static void test_state_dir_unmakeable(void **st)
{
	(void)st;
	char d[160], f[160], want[512];
	snprintf(d, sizeof d, "%s/dangling", dir);
	assert_int_equal(symlink("nowhere", d), 0);
	logcap_begin();
	int rc = save_make_dir(d);
	logcap_end();
	assert_int_equal(rc, -ENOENT);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	snprintf(want, sizeof want, "the state directory %s: it is a symbolic link to nothing", d);
	assert_non_null(strstr(logcap_buf, want));

	snprintf(d, sizeof d, "%s/looping", dir);
	assert_int_equal(symlink("looping", d), 0);
	logcap_begin();
	rc = save_make_dir(d);
	logcap_end();
	assert_int_equal(rc, -ELOOP);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	snprintf(want, sizeof want, "the state directory %s: ", d);
	assert_non_null(strstr(logcap_buf, want));

	snprintf(f, sizeof f, "%s/plain", dir);
	write_bytes(f, "x", 1);
	snprintf(d, sizeof d, "%s/plain/state/deeper", dir);
	logcap_begin();
	rc = save_make_dir(d);
	logcap_end();
	assert_int_equal(rc, -ENOTDIR);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	snprintf(want, sizeof want, "the state directory %s: %s is not a directory", d, f);
	assert_non_null(strstr(logcap_buf, want));
	/* a symbolic link to a directory is fine */
	snprintf(d, sizeof d, "%s/linked", dir);
	assert_int_equal(symlink(".", d), 0);
	assert_int_equal(save_make_dir(d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state_dir),
		cmocka_unit_test(test_save_load),
		cmocka_unit_test(test_old_save_loads_as_stacks),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_byte_flips),
		cmocka_unit_test(test_foreign_and_newer),
		cmocka_unit_test(test_power_cut),
		cmocka_unit_test(test_streamed_file_is_save_encode),
		cmocka_unit_test(test_chunk_crcs_follow_changes),
		cmocka_unit_test(test_chunk_runs_follow_changes),
		cmocka_unit_test(test_full_log_saved_as_it_lies),
		cmocka_unit_test(test_not_a_file),
		cmocka_unit_test(test_sparse_giant),
		cmocka_unit_test(test_state_dir_unmakeable),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
