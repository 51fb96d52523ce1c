/* view: watching a recording (issue 18, item 4): every position reached by
 * steps and jumps is the game a straight replay gives there; a jump replays
 * at most a snapshot's span; bad recordings are one line. */
#include "testutil.h"
#include "gamefix.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app/view.h"
#include "save/record.h"

#define ITEMS TEST_DIR "/recordings/items.rec"

/* The checksum after the first k commands of the recording, replayed
 * straight from the seed. */
static uint64_t straight(const struct recording *r, size_t k)
{
	struct game_opts o = {.seed = r->seed, .mapgen = MAPGEN_CLASSIC, .stacks_from = r->stacks_from};
	struct game *g;
	assert_int_equal(game_create(&g, &o), 0);
	for (size_t i = 0; i < k; i++)
		game_do(g, &r->steps[i].cmd);
	uint64_t sum = game_checksum(g);
	game_destroy(g);
	return sum;
}

static void test_steps_and_jumps(void **st)
{
	(void)st;
	struct view *v;
	char err[256];
	assert_int_equal(view_open(&v, ITEMS, 100, err, sizeof err), 0);
	struct recording r;
	assert_int_equal(rec_load(ITEMS, &r, err, sizeof err), 0);
	assert_int_equal(view_count(v), r.nsteps);
	assert_int_equal(view_at(v), 0);
	assert_int_equal(view_turn(v), 0);
	assert_int_equal(view_end_turn(v), r.end_turn);
	/* a snapshot at the start and about every 100 turns */
	assert_true(view_snapshots(v) >= (size_t)r.end_turn / 100);
	for (int i = 0; i < 5; i++)
		assert_true(view_step(v));
	assert_true(game_checksum(view_game(v)) == straight(&r, 5));
	/* forward, back, forward again: each the straight game, each jump at
	 * most a snapshot's span of replay */
	static const size_t to[] = {1000, 10, 2400, 1999, 0, 1234, 1235};
	for (size_t i = 0; i < sizeof to / sizeof to[0]; i++) {
		long played = view_seek(v, to[i]);
		assert_true(played >= 0);
		assert_int_equal(view_at(v), to[i]);
		assert_true(game_checksum(view_game(v)) == straight(&r, to[i]));
		/* commands between two snapshots: at most 100 turns' (a turn a
		 * command at most, plus those that cost none) */
		assert_true(played <= 200);
	}
	/* by turn: the first command reaching it */
	assert_true(view_seek_turn(v, 500) >= 0);
	assert_true(view_turn(v) >= 500);
	assert_true(view_turn(v) <= 501);
	/* the end: no step further */
	assert_true(view_seek(v, r.nsteps + 50) >= 0);
	assert_int_equal(view_at(v), r.nsteps);
	assert_false(view_step(v));
	assert_int_equal(view_turn(v), r.end_turn);
	rec_free(&r);
	view_close(v);
	view_close(NULL);
}

/* Missing, not a recording, cut short, tampered: one line naming the file. */
static void test_bad_recordings(void **st)
{
	(void)st;
	struct view *v;
	char err[256], path[128];
	assert_int_equal(view_open(&v, "/nonexistent/x.rec", 0, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/x.rec"));
	assert_null(v);
	snprintf(path, sizeof path, "/tmp/pirogue-view-%d.rec", (int)getpid());
	FILE *f = fopen(path, "w");
	fputs("hello\n", f);
	fclose(f);
	assert_int_equal(view_open(&v, path, 0, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "not a pirogue recording"));
	/* a checksum changed: the replay diverges, named with its line */
	FILE *in = fopen(TEST_DIR "/recordings/descend.rec", "r");
	f = fopen(path, "w");
	char line[256];
	int n = 0;
	while (fgets(line, sizeof line, in)) {
		char *sp = strrchr(line, ' ');
		if (++n == 20 && sp && strlen(sp) == 18)
			memcpy(sp + 1, "0000000000000000", 16);
		fputs(line, f);
	}
	fclose(in);
	fclose(f);
	assert_int_equal(view_open(&v, path, 0, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, ":20: the recording does not replay"));
	assert_null(strchr(err, '\n'));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steps_and_jumps),
		cmocka_unit_test(test_bad_recordings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
