/* The command history: the newest block in memory, the older ones in a store (histfile over a memfd, as the app's file), read back in order; saves byte for byte as the in-memory history wrote them; a failing or damaged store never loses the game. */
#include "gamefix.h"
#include "logcap.h"

#include "allochook.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/le.h"
#include "core/rng.h"
#include "game/history.h"
#include "game/serial.h"
#include "save/histfile.h"
#include "save/save.h"

/* A store over a memfd: histfile's own functions, with writes refused
 * (ENOSPC, as a full disk) while fail is set. */
struct memstore {
	int fd;
	struct histfile *f;
	struct hist_store inner, st;
	bool fail;
	int writes; /* calls of write */
	int reads;  /* calls of read */
	bool fail_read; /* reads refused (EIO) while set */
};

static int ms_write(void *ctx, uint64_t off, const void *data, size_t len)
{
	struct memstore *m = ctx;
	m->writes++;
	return m->fail ? -ENOSPC : m->inner.write(m->inner.ctx, off, data, len);
}

static int ms_read(void *ctx, uint64_t off, void *data, size_t len)
{
	struct memstore *m = ctx;
	m->reads++;
	if (m->fail_read)
		return -EIO;
	return m->inner.read(m->inner.ctx, off, data, len);
}

static void ms_open(struct memstore *m)
{
	*m = (struct memstore){0};
	m->fd = memfd_create("history", MFD_CLOEXEC);
	assert_true(m->fd >= 0);
	assert_int_equal(histfile_open_fd(&m->f, m->fd, "the test's memfd"), 0);
	histfile_store(m->f, &m->inner);
	m->st = (struct hist_store){.write = ms_write, .read = ms_read, .ctx = m, .name = "the test's memfd"};
}

static off_t ms_size(const struct memstore *m)
{
	struct stat st;
	assert_int_equal(fstat(m->fd, &st), 0);
	return st.st_size;
}

static uint64_t fnv(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* The long game: seed 21 (classic), a player who cannot die, commands
 * from `from` to `to` of a fixed list on floor 1 (moves and waits drawn by
 * an RNG of seed 11, every 1,000th a refused use with arguments). */
static void play(struct game *g, struct rng *r, int from, int to)
{
	static const enum cmd moves[] = {CMD_MOVE_N, CMD_MOVE_E, CMD_MOVE_S, CMD_MOVE_W, CMD_WAIT, CMD_WAIT};
	for (int t = from; t < to; t++) {
		if (t % 1000 == 999) {
			struct command c = {.c = CMD_USE, .item = 25, .x = 3, .y = 4, .choice = 7};
			game_do(g, &c);
		} else {
			game_apply(g, moves[rng_range(r, 0, 5)]);
		}
	}
}

/* The long game with its commands drawn by an RNG of seed moves. */
static struct game *long_game_of(const struct hist_store *st, int commands, uint64_t moves)
{
	struct game *g = gamefix_new(21, MAPGEN_CLASSIC);
	((struct c_actor *)ecs_get_mut(g->w, g->player, COMP_ACTOR))->defense = 1000;
	if (st)
		assert_int_equal(game_set_history_store(g, st), 0);
	struct rng r;
	rng_seed(&r, moves);
	play(g, &r, 0, commands);
	assert_int_equal(game_depth(g), 1);
	return g;
}

static struct game *long_game(const struct hist_store *st, int commands)
{
	return long_game_of(st, commands, 11);
}

static struct serial_buf encode(const struct game *g)
{
	struct serial_buf b = {0};
	assert_int_equal(game_encode(g, &b), 0);
	return b;
}

/* The encoding of the 20,500-command game as the in-memory history wrote
 * it before the store existed (measured on main at 7cfa3dd, with only the
 * log's stack bytes after each message's end zeroed, as world_msg does
 * now): its length and FNV-1a; re-measured for format 3 (issue 18: where
 * stacks start, 4 bytes in GAME, and the field layouts of COMP_STACK and
 * COMP_DROPPED, 26 bytes in COMP: 30 bytes more than 435089, the store's
 * bytes unchanged, as the in-memory comparison below checks); and for
 * format 4 (issue 22: the log's start, 4 bytes in LOG, 0 here: its 92
 * messages do not fill the ring, so they lie as before). */
#define LONG_COMMANDS 20500
#define LONG_LEN 435123u
#define LONG_FNV 0x7311baa44dcd32e4ull
/* The same game's save file (save_encode: the header, each section with its
 * CRC32), measured the same way. */
#define LONG_SAVE_LEN 435167u
#define LONG_SAVE_FNV 0x6e50c10ba37deb82ull

/* A floor of 20,500 commands with a store: the store holds every full
 * block, memory the rest (one block's room); the save is byte for byte the
 * one the in-memory history writes and the one written before the store
 * existed; loaded and given a new store it saves the same bytes again. */
static void test_store_saves_the_same_bytes(void **state)
{
	(void)state;
	struct memstore m;
	ms_open(&m);
	struct game *g = long_game(&m.st, LONG_COMMANDS);
	const struct history *h = game_history(g);
	assert_int_equal(hist_count(h), LONG_COMMANDS);
	assert_int_equal(h->stored, LONG_COMMANDS / HIST_BLOCK * HIST_BLOCK);
	assert_int_equal(h->cap, HIST_BLOCK);
	assert_int_equal(ms_size(&m), (off_t)h->stored * HIST_RECORD);
	struct serial_buf b = encode(g);
	assert_int_equal(b.len, LONG_LEN);
	assert_true(fnv(b.data, b.len) == LONG_FNV);
	struct serial_buf sf = {0};
	assert_int_equal(save_encode(g, &sf), 0);
	assert_int_equal(sf.len, LONG_SAVE_LEN);
	assert_true(fnv(sf.data, sf.len) == LONG_SAVE_FNV);
	free(sf.data);

	struct game *mem = long_game(NULL, LONG_COMMANDS);
	assert_int_equal(game_history(mem)->stored, 0);
	struct serial_buf bm = encode(mem);
	assert_int_equal(bm.len, b.len);
	assert_memory_equal(bm.data, b.data, b.len);
	assert_true(game_checksum(mem) == game_checksum(g));

	struct memstore m2;
	ms_open(&m2);
	struct game *l;
	char why[128];
	assert_int_equal(game_decode(&l, b.data, b.len, why, sizeof why), 0);
	assert_int_equal(game_set_history_store(l, &m2.st), 0);
	assert_int_equal(game_history(l)->stored, game_history(g)->stored);
	assert_int_equal(game_history(l)->cap, HIST_BLOCK);
	struct serial_buf bl = encode(l);
	assert_int_equal(bl.len, b.len);
	assert_memory_equal(bl.data, b.data, b.len);
	assert_int_equal(game_set_history_store(l, &m.st), -EBUSY);

	free(b.data);
	free(bm.data);
	free(bl.data);
	game_destroy(l);
	game_destroy(mem);
	game_destroy(g);
	histfile_close(m.f);
	histfile_close(m2.f);
}

/* Read in chunks of any size, across the store's end and memory, the
 * history is the commands given, in order, normalised. */
static void test_read_in_chunks(void **state)
{
	(void)state;
	struct memstore m;
	ms_open(&m);
	struct game *g = long_game(&m.st, 9000);
	int n;
	struct game *mem = long_game(NULL, 9000);
	struct command *want = gamefix_history(mem, &n);
	game_destroy(mem);
	assert_int_equal(n, 9000);
	assert_true(want[999].c == CMD_USE && want[999].item == 25 && want[999].x == 3 && want[999].y == 4 &&
		    want[999].choice == -1);
	assert_true(want[0].item == -1 && want[0].x == -1 && want[0].choice == -1);
	static const int sizes[] = {1, 7, 255, 256, 257, HIST_BLOCK, 9000, 20000};
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		struct command *got = calloc(9000 + (size_t)sizes[s], sizeof(*got));
		struct hist_reader r;
		hist_begin(&r, game_history(g));
		int at = 0;
		for (int k; (k = hist_next(&r, got + at, sizes[s])) != 0; at += k)
			assert_true(k > 0 && k <= sizes[s]);
		assert_int_equal(at, 9000);
		assert_memory_equal(got, want, 9000 * sizeof(*got));
		free(got);
		/* as bytes: the same commands, HIST_RECORD bytes each, little-endian */
		unsigned char buf[HIST_CHUNK * HIST_RECORD];
		const unsigned char *p;
		hist_begin(&r, game_history(g));
		at = 0;
		for (int k; (k = hist_next_bytes(&r, &p, buf, sizes[s])) != 0; at += k) {
			assert_true(k > 0 && k <= sizes[s] && at + k <= 9000);
			for (int i = 0; i < k; i++) {
				const struct command *c = &want[at + i];
				const int32_t v[5] = {(int32_t)c->c, c->item, c->x, c->y, c->choice};
				for (int f = 0; f < 5; f++)
					assert_int_equal(le_get32(p + i * HIST_RECORD + 4 * f), (uint32_t)v[f]);
			}
		}
		assert_int_equal(at, 9000);
	}
	free(want);
	game_destroy(g);
	histfile_close(m.f);
}

/* A store that cannot be written (a full disk): one line says so, the
 * commands stay in memory (which grows then), play goes on, the save is
 * whole; when the store works again the kept blocks go to it at the next
 * full block. */
static void test_unwritable_store_keeps_the_game(void **state)
{
	(void)state;
	struct memstore m;
	ms_open(&m);
	m.fail = true;
	logcap_begin();
	struct game *g = long_game(&m.st, 10000);
	logcap_end();
	assert_non_null(strstr(logcap_buf, "game: cannot write commands 1 to 4096 to the test's memfd (No space left on "
					   "device): they are kept in memory until it works\n"));
	assert_int_equal(logcap_lines(logcap_buf), 2); /* at 4,096 and 8,192 commands */
	const struct history *h = game_history(g);
	assert_int_equal(h->stored, 0);
	assert_int_equal(ms_size(&m), 0);
	struct game *mem = long_game(NULL, 10000);
	struct serial_buf b = encode(g), bm = encode(mem);
	assert_int_equal(b.len, bm.len);
	assert_memory_equal(b.data, bm.data, b.len);

	/* the disk has room again: the next full memory goes to the store */
	m.fail = false;
	struct rng r, rm;
	rng_seed(&r, 5);
	rng_seed(&rm, 5);
	int cap = h->cap;
	play(g, &r, 10000, cap);
	play(mem, &rm, 10000, cap);
	assert_int_equal(h->stored, 0);
	play(g, &r, cap, cap + 1);
	play(mem, &rm, cap, cap + 1);
	assert_int_equal(h->stored, cap);
	assert_int_equal(ms_size(&m), (off_t)cap * HIST_RECORD);
	free(b.data);
	free(bm.data);
	b = encode(g);
	bm = encode(mem);
	assert_int_equal(b.len, bm.len);
	assert_memory_equal(b.data, bm.data, b.len);
	free(b.data);
	free(bm.data);
	game_destroy(mem);
	game_destroy(g);
	histfile_close(m.f);
}

/* A store whose bytes changed (damaged) or went missing (cut short): the
 * whole history cannot be read, so the save is refused with one line
 * naming the store; the game itself is untouched and plays on. */
static void test_damaged_store_refuses_the_save(void **state)
{
	(void)state;
	for (int cut = 0; cut < 2; cut++) {
		struct memstore m;
		ms_open(&m);
		struct game *g = long_game(&m.st, 9000);
		struct game *twin = long_game(NULL, 9000);
		if (cut)
			assert_int_equal(ftruncate(m.fd, 3 * HIST_RECORD), 0);
		else
			assert_int_equal(pwrite(m.fd, "\x7f", 1, 5000 * HIST_RECORD), 1); /* an unknown command now */
		struct serial_buf b = {0};
		logcap_begin();
		int rc = game_encode(g, &b);
		logcap_end();
		free(b.data);
		if (cut) {
			assert_int_equal(rc, -ENODATA);
			assert_string_equal(logcap_buf, "pirogue: game: cannot read commands 1 to 256 back from the test's memfd (No data "
							"available): the game cannot be saved or recorded whole\n");
		} else {
			assert_int_equal(rc, -EIO);
			assert_string_equal(logcap_buf, "pirogue: game: the test's memfd is damaged (its 8192 commands are not those "
							"written to it): the game cannot be saved or recorded whole\n");
		}
		struct rng r, rt;
		rng_seed(&r, 3);
		rng_seed(&rt, 3);
		play(g, &r, 9000, 9100);
		play(twin, &rt, 9000, 9100);
		assert_true(game_checksum(g) == game_checksum(twin));
		assert_int_equal(hist_count(game_history(g)), 9100);
		game_destroy(twin);
		game_destroy(g);
		histfile_close(m.f);
	}
}

/* g's save file framed by hand from game_encode's sections (the header,
 * then each section's tag, length, CRC32 and payload): what save_encode
 * writes, whatever it kept from the saves before. */
static struct serial_buf framed(const struct game *g)
{
	struct serial_buf e = encode(g), out = {0};
	unsigned char h[20];
	uint32_t nsec = 0;
	for (size_t at = 0; at + 8 <= e.len; at += 8 + le_get32(e.data + at + 4))
		nsec++;
	memcpy(h, SAVE_MAGIC, 8);
	le_put32(h + 8, SERIAL_VERSION);
	le_put32(h + 12, nsec);
	le_put32(h + 16, (uint32_t)crc32(crc32(0L, Z_NULL, 0), h, 16));
	assert_int_equal(serial_buf_append(&out, h, sizeof h), 0);
	for (size_t at = 0; at + 8 <= e.len;) {
		uint32_t n = le_get32(e.data + at + 4);
		unsigned char sh[12];
		memcpy(sh, e.data + at, 8);
		le_put32(sh + 8, (uint32_t)crc32(crc32(0L, Z_NULL, 0), e.data + at + 8, n));
		assert_int_equal(serial_buf_append(&out, sh, sizeof sh), 0);
		assert_int_equal(serial_buf_append(&out, e.data + at + 8, n), 0);
		at += 8 + n;
	}
	free(e.data);
	return out;
}

/* save_encode of g is want byte for byte; returns the bytes it wrote from
 * what it kept of the save before (save_kept_last). */
static size_t autosave_is(const struct game *g, const struct serial_buf *want)
{
	struct serial_buf b = {0};
	assert_int_equal(save_encode(g, &b), 0);
	assert_int_equal(b.len, want->len);
	assert_memory_equal(b.data, want->data, b.len);
	free(b.data);
	return save_kept_last();
}

/* An autosave writes the store's commands from its copies when the last
 * whole save wrote them at the same place under the same key (hist_stored:
 * as many, the same FNV-1a): the chunks inside them are taken as
 * unchanged, and the store's bytes are only compared with the copies
 * (not summed). Each save is byte for byte the file framed by hand from
 * game_encode: the game played on (the count before them changes, the
 * newest commands after them grow), saved again as it is, another game
 * with as many stored commands but other ones saved between, a save
 * stopped part way between (the store unreadable: what it began is not
 * trusted). A store damaged since is found as before: the save is refused
 * with the same line, and the last save stays. */
static void test_autosave_keeps_the_stored_commands(void **state)
{
	(void)state;
	struct memstore m, m2;
	ms_open(&m);
	ms_open(&m2);
	struct game *g = long_game(&m.st, 9000);
	struct game *other = long_game_of(&m2.st, 8500, 12); /* 8,192 stored too, other commands */
	uint64_t k1, k2;
	const size_t kept = 8192 * HIST_RECORD;
	assert_int_equal(hist_stored(game_history(g), &k1), 8192);
	assert_int_equal(hist_stored(game_history(other), &k2), 8192);
	assert_true(k1 != k2);
	struct serial_buf want = framed(g);
	assert_int_equal(autosave_is(g, &want), 0); /* the first: read back and summed */
	struct rng r;
	rng_seed(&r, 4);
	for (int k = 0; k < 3; k++) {
		play(g, &r, 9000 + 100 * k, 9100 + 100 * k);
		free(want.data);
		want = framed(g);
		assert_int_equal(autosave_is(g, &want), kept);
	}
	assert_int_equal(autosave_is(g, &want), kept); /* unchanged */
	struct serial_buf want2 = framed(other);
	assert_int_equal(autosave_is(other, &want2), 0);
	assert_int_equal(autosave_is(other, &want2), kept);
	/* a save stopped part way (the store unreadable): its span is not
	 * trusted by the next (the copies still hold the other game's) */
	struct serial_buf b = {0};
	m.fail_read = true;
	logcap_begin();
	assert_int_equal(save_encode(g, &b), -EIO);
	logcap_end();
	m.fail_read = false;
	free(b.data);
	b = (struct serial_buf){0};
	assert_int_equal(autosave_is(g, &want), 0);
	assert_int_equal(autosave_is(g, &want), kept);
	/* damaged behind the game's back: refused, with the line it had */
	assert_int_equal(pwrite(m.fd, "\x7f", 1, 5000 * HIST_RECORD), 1);
	logcap_begin();
	assert_int_equal(save_encode(g, &b), -EIO);
	logcap_end();
	assert_string_equal(logcap_buf, "pirogue: game: the test's memfd is damaged (its 8192 commands are not those "
					"written to it): the game cannot be saved or recorded whole\n");
	free(b.data);
	free(want.data);
	free(want2.data);
	game_destroy(other);
	game_destroy(g);
	histfile_close(m.f);
	histfile_close(m2.f);
}

/* An empty history, with or without a store, reads as nothing; attaching a
 * store to a history shorter than a block writes nothing. */
static void test_empty_and_short(void **state)
{
	(void)state;
	struct history h = {0};
	struct hist_reader r;
	struct command c[4];
	hist_begin(&r, &h);
	assert_int_equal(hist_next(&r, c, 4), 0);
	struct memstore m;
	ms_open(&m);
	assert_int_equal(hist_set_store(&h, &m.st), 0);
	assert_int_equal(m.writes, 0);
	struct command w = {.c = CMD_WAIT, .item = -1, .x = -1, .y = -1, .choice = -1};
	assert_int_equal(hist_add(&h, &w), 0);
	hist_begin(&r, &h);
	assert_int_equal(hist_next(&r, c, 4), 1);
	assert_int_equal(c[0].c, CMD_WAIT);
	assert_int_equal(hist_next(&r, c, 4), 0);
	hist_free(&h);
	histfile_close(m.f);
}

/* Short of memory when a store is given (hist_set_store) or the history
 * file made (histfile_open): one line says so, naming the store or the
 * directory, and the history stays whole in memory (both were silent). */
static void test_out_of_memory_said(void **state)
{
	(void)state;
#if !ALLOCHOOK_COUNTING
	(void)allocations;
	print_message("skipped: built with AddressSanitizer, whose allocator cannot be made to fail\n");
	skip();
#else
	struct history h = {0};
	struct command w = {.c = CMD_WAIT, .item = -1, .x = -1, .y = -1, .choice = -1};
	struct memstore m;
	ms_open(&m);
	logcap_begin();
	alloc_fail_at = allocations + 1;
	int rc = hist_set_store(&h, &m.st);
	alloc_fail_at = 0;
	logcap_end();
	assert_int_equal(rc, -ENOMEM);
	assert_false(h.has_store);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "out of memory"));
	assert_non_null(strstr(logcap_buf, "the test's memfd"));
	assert_int_equal(hist_add(&h, &w), 0); /* still a history, in memory */
	assert_int_equal(hist_count(&h), 1);
	hist_free(&h);
	histfile_close(m.f);

	char dir[] = "/tmp/pirogue-histoom-XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct histfile *f = NULL;
	logcap_begin();
	alloc_fail_at = allocations + 1;
	rc = histfile_open(&f, dir);
	alloc_fail_at = 0;
	logcap_end();
	assert_int_equal(rc, -ENOMEM);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "cannot create the history file in /tmp/pirogue-histoom-"));
	assert_int_equal(rmdir(dir), 0); /* nothing left in it */
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_saves_the_same_bytes),
		cmocka_unit_test(test_read_in_chunks),
		cmocka_unit_test(test_unwritable_store_keeps_the_game),
		cmocka_unit_test(test_damaged_store_refuses_the_save),
		cmocka_unit_test(test_autosave_keeps_the_stored_commands),
		cmocka_unit_test(test_empty_and_short),
		cmocka_unit_test(test_out_of_memory_said),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
