#include "save/record.h"
#include "savefix.h"
#include "game/serial.h"
#include "logcap.h"
#include "save/histfile.h"
#include <errno.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static int setup(void **st)
{
	(void)st;
	return savefix_mkdtemp(dir, sizeof dir, "rec");
}

static int teardown(void **st)
{
	(void)st;
	return savefix_rmtree(dir);
}

static void write_file(const char *name, const char *text, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_round_trip(void **st)
{
	(void)st;
	char path[128];
	snprintf(path, sizeof path, "%s/a.rec", dir);
	struct rec_writer *w;
	assert_int_equal(rec_writer_open(&w, path, 18446744073709551615ull, "overlap"), 0);
	assert_int_equal(rec_writer_add(w, CMD_MOVE_N, 1, 0x0123456789abcdefull), 0);
	assert_int_equal(rec_writer_add(w, CMD_WAIT, 2, 0xfedcba9876543210ull), 0);
	assert_int_equal(rec_writer_add(w, CMD_NONE, 2, 1), 0);
	const struct command use = {.c = CMD_USE, .item = 2, .x = 31, .y = 12, .choice = -1};
	const struct command use_plain = {.c = CMD_USE, .item = 25, .x = -1, .y = -1, .choice = -1};
	const struct command drop = {.c = CMD_DROP, .item = 0, .x = -1, .y = -1, .choice = -1};
	const struct command odd = {.c = CMD_DROP, .item = 40, .x = -1, .y = -1, .choice = -1};
	const struct command lvl = {.c = CMD_LEVEL_UP, .item = -1, .x = -1, .y = -1, .choice = LEVELUP_DEFENSE};
	const struct command lvl_odd = {.c = CMD_LEVEL_UP, .item = -1, .x = -1, .y = -1, .choice = -3};
	const struct command bad = {.c = CMD_COUNT + 5, .item = -1, .x = -1, .y = -1, .choice = -1};
	const struct command *cmds[] = {&use, &use_plain, &drop, &odd, &lvl, &lvl_odd, &bad};
	for (int i = 0; i < 7; i++)
		assert_int_equal(rec_writer_command(w, cmds[i], 3 + i, (uint64_t)i), 0);
	rec_writer_close(w);
	rec_writer_close(NULL);

	struct recording r;
	char err[256];
	assert_int_equal(rec_load(path, &r, err, sizeof err), 0);
	assert_true(r.seed == 18446744073709551615ull);
	assert_string_equal(r.mapgen, "overlap");
	assert_int_equal(r.version, 3);
	assert_int_equal(r.stacks_from, 0);
	assert_int_equal(r.nsteps, 10);
	assert_int_equal(r.steps[0].cmd.c, CMD_MOVE_N);
	assert_int_equal(r.steps[0].turn, 1);
	assert_true(r.steps[0].checksum == 0x0123456789abcdefull);
	assert_int_equal(r.steps[1].cmd.c, CMD_WAIT);
	assert_true(r.steps[1].checksum == 0xfedcba9876543210ull);
	assert_int_equal(r.steps[2].cmd.c, CMD_NONE);
	assert_int_equal(r.steps[0].line, 5);
	for (int i = 0; i < 6; i++) {
		const struct command *c = &r.steps[3 + i].cmd;
		assert_int_equal(c->c, cmds[i]->c);
		assert_int_equal(c->item, cmds[i]->item);
		assert_int_equal(c->x, cmds[i]->x);
		assert_int_equal(c->y, cmds[i]->y);
		assert_int_equal(c->choice, cmds[i]->choice);
		assert_int_equal(r.steps[3 + i].turn, 3 + i);
		assert_true(r.steps[3 + i].has_sum);
	}
	assert_int_equal(r.steps[9].cmd.c, CMD_NONE); /* out of range: none, the same nothing */
	assert_int_equal(r.end_turn, 9);
	assert_true(r.end_has_sum && r.end_sum == 6);
	rec_free(&r);
}

static void expect_error(const char *text, const char *needle)
{
	char path[128], err[256] = "";
	struct recording r;
	write_file("bad.rec", text, path, sizeof path);
	assert_int_equal(rec_load(path, &r, err, sizeof err), -EINVAL);
	if (!strstr(err, needle))
		fail_msg("error '%s' does not contain '%s'", err, needle);
	assert_non_null(strstr(err, "bad.rec"));
	assert_null(r.steps);
}

static void test_damaged(void **st)
{
	(void)st;
	expect_error("", "empty file");
	expect_error("hello\n", "not a pirogue recording");
	expect_error(REC_MAGIC "\nmove_n 1 0000000000000000\n", "before the 'seed' line");
	expect_error("pirogue-recording 9\n", "newer format");
	expect_error(REC_MAGIC "\nseed 1\nwait 1\n", "no end line after its 1 commands");
	expect_error(REC_MAGIC "\nseed 1\nwait 1\nend 2 1\n", ":4: the end line counts 2 commands, the recording has 1");
	expect_error(REC_MAGIC "\nseed 1\nend 0 0\nwait 1\n", ":4: text after the end line");
	expect_error(REC_MAGIC "\nseed 1\nuse 1 0000000000000000\nend 1 1\n", ":3: expected 'use <slot");
	expect_error(REC_MAGIC "\nseed 1\nuse A 1\nend 1 1\n", ":3: expected 'use <slot");
	expect_error(REC_MAGIC "\nseed 1\nuse a 3;4 1\nend 1 1\n", ":3: expected 'use <slot");
	expect_error(REC_MAGIC "\nseed 1\ndrop 1\nend 1 1\n", ":3: expected 'drop <slot");
	expect_error(REC_MAGIC "\nseed 1\nlevelup speed 1\nend 1 1\n", ":3: expected 'levelup <hp");
	expect_error(REC_MAGIC "\nseed 1\nwait a 1\nend 1 1\n", ":3: 'wait' takes no arguments");
	expect_error(REC_MAGIC_V1 "\nseed 1\nwait 1\n", ":3: expected '<command> <turn> <16");
	expect_error(REC_MAGIC "\nseed 1\nfly 1 0000000000000000\n", ":3: unknown command 'fly'");
	expect_error(REC_MAGIC "\nseed 1\nwait 1 00000000\n", ":3: 'wait' takes no arguments");
	expect_error(REC_MAGIC "\nseed 1\nwait x 000000000000000z\n", ":3: expected");
	/* 16 characters but not all hex digits: no checksum, and no turn
	 * (dropping the hex-digit check read it as checksum 0) */
	expect_error(REC_MAGIC "\nseed 1\nwait 1 000000000000000z\nend 1 1\n", ":3: expected '<command> [arguments] <turn>");
	expect_error(REC_MAGIC "\nseed 1\nwait 1 g000000000000000\nend 1 1\n", ":3: expected '<command> [arguments] <turn>");
	expect_error(REC_MAGIC "\nseed -1\n", "bad seed");
	expect_error(REC_MAGIC "\nmapgen classic\n", "no 'seed' line");
	expect_error(REC_MAGIC "\nseed 1\nmapgen averyveryverylongname\n", ":3: bad map generator name");
	char path[128], err[256];
	struct recording r;
	snprintf(path, sizeof path, "%s/missing.rec", dir);
	assert_int_equal(rec_load(path, &r, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "missing.rec"));
}

static void test_comments_and_default_mapgen(void **st)
{
	(void)st;
	char path[128], err[256];
	struct recording r;
	write_file("c.rec", REC_MAGIC "\n# a comment\n\nseed 7   # trailing\nwait 1 00000000000000ff\nend 1 1 # the end\n",
		   path, sizeof path);
	assert_int_equal(rec_load(path, &r, err, sizeof err), 0);
	assert_string_equal(r.mapgen, "classic");
	assert_int_equal(r.nsteps, 1);
	assert_true(r.steps[0].checksum == 0xff);
	rec_free(&r);
}

static void test_unwritable(void **st)
{
	(void)st;
	struct rec_writer *w;
	assert_int_equal(rec_writer_open(&w, "/nonexistent-dir/x.rec", 1, "classic"), -ENOENT);
	assert_null(w);
}

/* Format 1 (no arguments, no end line) is still read. */
static void test_format_1(void **st)
{
	(void)st;
	char path[128], err[256];
	struct recording r;
	write_file("v1.rec", REC_MAGIC_V1 "\nseed 3\nwait 1 00000000000000ff\nmove_n 2 00000000000000fe\n", path,
		   sizeof path);
	assert_int_equal(rec_load(path, &r, err, sizeof err), 0);
	assert_int_equal(r.version, 1);
	assert_int_equal(r.nsteps, 2);
	assert_int_equal(r.steps[1].cmd.c, CMD_MOVE_N);
	assert_int_equal(r.steps[1].cmd.item, -1);
	rec_free(&r);
}

/* A game's history, written and replayed: the same game. */
static void write_played(const char *path, uint64_t seed, int turns, int every, struct game **out)
{
	struct game *g = gamefix_new(seed, MAPGEN_CAVE);
	struct savefix_bot bot;
	savefix_bot_init(&bot, seed);
	savefix_play(&bot, g, turns);
	/* a few commands with arguments too (refused by the rules or not,
	 * they are history) */
	const struct command extra[] = {
		{.c = CMD_USE, .item = 0, .x = -1, .y = -1, .choice = -1},
		{.c = CMD_USE, .item = 3, .x = 10, .y = 10, .choice = -1},
		{.c = CMD_DROP, .item = 1, .x = -1, .y = -1, .choice = -1},
		{.c = CMD_LEVEL_UP, .item = -1, .x = -1, .y = -1, .choice = LEVELUP_POWER},
		{.c = CMD_COUNT, .item = -1, .x = -1, .y = -1, .choice = -1},
	};
	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
		game_do(g, &extra[i]);
	savefix_play(&bot, g, 20);
	assert_int_equal(rec_write_history(path, g, every), 0);
	*out = g;
}

static void test_history(void **st)
{
	(void)st;
	char path[128], err[256];
	snprintf(path, sizeof path, "%s/h.rec", dir);
	for (int every = 1; every <= 50; every += 49) {
		struct game *g, *h;
		write_played(path, 21, 150, every, &g);
		struct recording r;
		assert_int_equal(rec_load(path, &r, err, sizeof err), 0);
		assert_int_equal((int)r.nsteps, hist_count(game_history(g)));
		if (rec_replay(&r, path, &h, err, sizeof err))
			fail_msg("%s", err);
		assert_true(game_checksum(h) == game_checksum(g));
		assert_int_equal(r.end_turn, game_turn(g));
		game_destroy(h);
		rec_free(&r);
		/* a game saved and loaded on the way: its history is whole */
		struct serial_buf b = {0};
		assert_int_equal(game_encode(g, &b), 0);
		assert_int_equal(game_decode(&h, b.data, b.len, err, sizeof err), 0);
		free(b.data);
		struct savefix_bot bot;
		savefix_bot_init(&bot, 5);
		savefix_play(&bot, h, 30);
		assert_int_equal(rec_write_history(path, h, every), 0);
		struct game *k;
		assert_int_equal(rec_load(path, &r, err, sizeof err), 0);
		assert_int_equal(rec_replay(&r, path, &k, err, sizeof err), 0);
		assert_true(game_checksum(k) == game_checksum(h));
		rec_free(&r);
		game_destroy(k);
		game_destroy(h);
		game_destroy(g);
	}
}

/* A long game whose older commands are in its history's store (over a
 * memfd): its recording (the morgue's) holds them all and replays to it;
 * with the store damaged the recording fails and is refused, never taken
 * for a shorter game. */
static void test_history_from_store(void **st)
{
	(void)st;
	char path[128], err[256];
	snprintf(path, sizeof path, "%s/store.rec", dir);
	int fd = memfd_create("history", MFD_CLOEXEC);
	struct histfile *hf;
	assert_int_equal(histfile_open_fd(&hf, fd, "the test's memfd"), 0);
	struct hist_store hs;
	histfile_store(hf, &hs);
	struct game *g = gamefix_new(8, MAPGEN_CLASSIC);
	assert_int_equal(game_set_history_store(g, &hs), 0);
	/* mostly commands that cost no turn (the stairs where there are none),
	 * so that the player lives through them all */
	for (int i = 0; i < 9000; i++)
		game_apply(g, i % 40 ? CMD_ASCEND : (enum cmd)(CMD_MOVE_N + i / 40 % 8));
	assert_false(game_is_over(g));
	assert_int_equal(game_history(g)->stored, 2 * HIST_BLOCK);
	assert_int_equal(rec_write_history(path, g, 10), 0);
	struct recording r;
	struct game *h;
	assert_int_equal(rec_load(path, &r, err, sizeof err), 0);
	assert_int_equal(r.nsteps, 9000);
	if (rec_replay(&r, path, &h, err, sizeof err))
		fail_msg("%s", err);
	assert_true(game_checksum(h) == game_checksum(g));
	rec_free(&r);
	game_destroy(h);

	assert_int_equal(pwrite(fd, "\x7f", 1, 0), 1);
	logcap_begin();
	int rc = rec_write_history(path, g, 10);
	logcap_end();
	assert_int_equal(rc, -EIO);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "game: the test's memfd is damaged"));
	assert_int_equal(rec_load(path, &r, err, sizeof err), -EINVAL);
	game_destroy(g);
	histfile_close(hf);
}

/* Cut at every line end (and inside the last line): refused as incomplete,
 * never taken for a shorter game. */
static void test_cut_recording(void **st)
{
	(void)st;
	char path[128], cut[128], err[256];
	snprintf(path, sizeof path, "%s/whole.rec", dir);
	snprintf(cut, sizeof cut, "%s/cut.rec", dir);
	struct game *g;
	write_played(path, 4, 60, 1, &g);
	game_destroy(g);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char text[1 << 16];
	size_t len = fread(text, 1, sizeof text, f);
	fclose(f);
	assert_true(len > 0 && len < sizeof text);
	int cuts = 0;
	for (size_t n = 0; n < len; n++) {
		bool line_end = text[n] == '\n';
		bool last_line = n > len - 30;
		if (!line_end && !last_line)
			continue;
		size_t keep = line_end ? n + 1 : n;
		if (keep == len)
			continue;
		FILE *o = fopen(cut, "wb");
		assert_non_null(o);
		assert_int_equal(fwrite(text, 1, keep, o), keep);
		fclose(o);
		struct recording r;
		err[0] = 0;
		if (rec_load(cut, &r, err, sizeof err) != -EINVAL)
			fail_msg("cut at %zu of %zu bytes: accepted", keep, len);
		assert_true(strstr(err, "no end line") || strstr(err, "cut short") || strstr(err, "expected") ||
			    strstr(err, "not a pirogue recording") || strstr(err, "no 'seed'") || strstr(err, "empty") ||
			    strstr(err, "bad seed") || strstr(err, "bad map generator") || strstr(err, "end line counts"));
		cuts++;
	}
	assert_true(cuts > 60);
}

/* A recording that does not replay names the line. */
static void test_replay_diverges(void **st)
{
	(void)st;
	char path[128], err[256];
	write_file("d.rec", REC_MAGIC "\nseed 1\nwait 1 0000000000000001\nend 1 1\n", path, sizeof path);
	struct recording r;
	struct game *g;
	assert_int_equal(rec_load(path, &r, err, sizeof err), 0);
	assert_int_equal(rec_replay(&r, "d.rec", &g, err, sizeof err), -EINVAL);
	assert_null(g);
	assert_non_null(strstr(err, "d.rec:3: replay diverged at turn 1 (wait)"));
	rec_free(&r);
	write_file("e.rec", REC_MAGIC "\nseed 1\nwait 1\nend 1 2\n", path, sizeof path);
	assert_int_equal(rec_load(path, &r, err, sizeof err), 0);
	assert_int_equal(rec_replay(&r, "e.rec", &g, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "e.rec: replay diverged at the end: turn 1"));
	rec_free(&r);
}

/* A game on another floor size: its recording says so ("size WxH") and
 * replays on that size; the default size writes no such line; a bad size
 * is refused naming the line. */
static void test_size_line(void **st)
{
	(void)st;
	char path[128], err[256];
	snprintf(path, sizeof path, "%s/s.rec", dir);
	struct game_opts o = { .seed = 9, .mapgen = MAPGEN_OVERLAP, .map_w = 131, .map_h = 64 };
	struct game *g, *h;
	assert_int_equal(game_create(&g, &o), 0);
	struct savefix_bot bot;
	savefix_bot_init(&bot, 2);
	savefix_play(&bot, g, 60);
	assert_int_equal(rec_write_history(path, g, 1), 0);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char text[4096];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = 0;
	fclose(f);
	assert_non_null(strstr(text, "\nmapgen overlap\nsize 131x64\n"));
	struct recording r;
	assert_int_equal(rec_load(path, &r, err, sizeof err), 0);
	assert_int_equal(r.map_w, 131);
	assert_int_equal(r.map_h, 64);
	if (rec_replay(&r, path, &h, err, sizeof err))
		fail_msg("%s", err);
	assert_true(game_checksum(h) == game_checksum(g));
	assert_int_equal(game_map(h)->w, 131);
	rec_free(&r);
	game_destroy(h);
	game_destroy(g);
	write_played(path, 4, 5, 1, &g);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof text - 1, f);
	text[n] = 0;
	fclose(f);
	assert_null(strstr(text, "size"));
	game_destroy(g);
	expect_error(REC_MAGIC "\nseed 1\nsize 10x10\nend 0 0\n", ":3: bad floor size '10x10'");
	expect_error(REC_MAGIC "\nseed 1\nsize 80 43\nend 0 0\n", ":3: bad floor size");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_comments_and_default_mapgen),
		cmocka_unit_test(test_unwritable),
		cmocka_unit_test(test_format_1),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_history_from_store),
		cmocka_unit_test(test_cut_recording),
		cmocka_unit_test(test_replay_diverges),
		cmocka_unit_test(test_size_line),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
