/* The player's game as kept (app/session.c): where the state directory is
 * used, the save loaded, written on its triggers and deleted at the end,
 * a refused save's reason on the title, --record's one game, the morgue
 * file and the high scores. */
#include "savefix.h"
#include "logcap.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/session.h"
#include "save/record.h"
#include "save/save.h"
#include "save/scores.h"

static char dir[64];

static int setup(void **st)
{
	(void)st;
	return savefix_mkdtemp(dir, sizeof dir, "session");
}

static int teardown(void **st)
{
	(void)st;
	return savefix_rmtree(dir);
}

/* A fresh subdirectory of dir named name; its path in out (len >= 128). */
static const char *subdir(const char *name, char *out, size_t len)
{
	snprintf(out, len, "%s/%s", dir, name);
	assert_int_equal(mkdir(out, 0700), 0);
	return out;
}

static bool exists(const char *d, const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", d, name);
	return access(path, F_OK) == 0;
}

/* How many entries of d begin with prefix. */
static int count(const char *d, const char *prefix)
{
	DIR *dd = opendir(d);
	assert_non_null(dd);
	int n = 0;
	for (struct dirent *e; (e = readdir(dd));)
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	closedir(dd);
	return n;
}

/* The bot's moves through session_command until the game ends (or n moves). */
static void play(struct session *s, struct game *g, struct ui *u, uint64_t seed, int n)
{
	struct savefix_bot bot;
	savefix_bot_init(&bot, seed);
	for (int k = 0; k < n && !game_is_over(g); k++) {
		struct command c = { .c = savefix_pick(&bot, g) };
		session_command(s, g, u, &c);
	}
}

/* A session on the fresh subdirectory name of dir (its path in d, len >=
 * 128), the title on u, then a new game of seed: its game. */
static struct game *started(struct session *s, struct ui *u, const char *name, char *d, uint64_t seed)
{
	struct game *g = NULL;
	*s = (struct session){ 0 };
	*u = (struct ui){ .screen = UI_TITLE };
	session_open(s, subdir(name, d, 128), false, &g, u);
	assert_true(s->saving);
	assert_null(g); /* nothing saved there yet */
	assert_false(u->can_continue);
	assert_int_equal(session_new_game(s, &g, seed, MAPGEN_CLASSIC, 0, 0), 0);
	return g;
}

/* A scripted run (--keys, headless) keeps nothing unless a directory is
 * named: no state directory, no load, no save, no scores. */
static void test_scripted_keeps_nothing(void **st)
{
	(void)st;
	struct session s = { 0 };
	struct ui u = { .screen = UI_TITLE };
	struct game *g = NULL;
	session_open(&s, NULL, true, &g, &u);
	assert_false(s.saving);
	assert_null(g);
	assert_int_equal(session_new_game(&s, &g, 3, MAPGEN_CLASSIC, 0, 0), 0);
	session_save(&s, g, &u);
	assert_string_equal(u.status, "");
	u.nscores = 5;
	session_scores(&s, &u);
	assert_int_equal(u.nscores, 0);
	session_close(&s);
	game_destroy(g);
}

/* Saved, then found again by the next run as Continue, exactly; a game
 * asked for by --seed is not replaced by the save. */
static void test_save_and_continue(void **st)
{
	(void)st;
	char d[128];
	struct session s;
	struct ui u;
	struct game *g = started(&s, &u, "continue", d, 7);
	play(&s, g, &u, 7, 30);
	assert_false(game_is_over(g));
	session_save(&s, g, &u);
	assert_true(exists(d, SAVE_FILE));
	uint64_t sum = game_checksum(g);
	int turn = game_turn(g);

	struct session s2 = { 0 };
	struct ui u2 = { .screen = UI_TITLE, .menu_sel = 2 };
	struct game *g2 = NULL;
	session_open(&s2, d, false, &g2, &u2);
	assert_non_null(g2);
	assert_true(u2.can_continue);
	assert_int_equal(u2.menu_sel, 0); /* Continue first */
	assert_int_equal(game_checksum(g2), sum);
	assert_int_equal(game_turn(g2), turn);
	game_destroy(g2);

	struct session s3 = { 0 };
	struct game *g3 = NULL;
	assert_int_equal(session_new_game(&s3, &g3, 8, MAPGEN_CLASSIC, 0, 0), 0);
	uint64_t fresh = game_checksum(g3);
	session_open(&s3, d, false, &g3, &u2); /* --seed: the new game stays */
	assert_true(s3.saving);
	assert_int_equal(game_checksum(g3), fresh);
	game_destroy(g3);
	game_destroy(g);
}

/* The game saves itself on its triggers (save_due: a floor change, every
 * SAVE_EVERY_TURNS turns) as commands go through the session. */
static void test_saved_on_triggers(void **st)
{
	(void)st;
	char d[128];
	struct session s;
	struct ui u;
	struct game *g = started(&s, &u, "triggers", d, 11);
	struct command wait = { .c = CMD_WAIT };
	while (game_turn(g) < SAVE_EVERY_TURNS - 1 && !game_is_over(g))
		session_command(&s, g, &u, &wait);
	assert_false(exists(d, SAVE_FILE));
	while (game_turn(g) < SAVE_EVERY_TURNS && !game_is_over(g))
		session_command(&s, g, &u, &wait);
	assert_false(game_is_over(g));
	assert_true(exists(d, SAVE_FILE));
	game_destroy(g);
}

/* A damaged save: renamed aside, and its reason on the title without the
 * details in parentheses, capitalised; the game starts without it. */
static void test_refused_save_noticed(void **st)
{
	(void)st;
	char d[128], path[256];
	subdir("damaged", d, sizeof d);
	snprintf(path, sizeof path, "%s/%s", d, SAVE_FILE);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(SAVE_MAGIC "not a save at all", f);
	fclose(f);
	struct session s = { 0 };
	struct ui u = { .screen = UI_TITLE };
	struct game *g = NULL;
	logcap_begin();
	session_open(&s, d, false, &g, &u);
	logcap_end();
	/* one line in the log, with the details */
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "(checksum mismatch)"));
	assert_null(g);
	assert_false(u.can_continue);
	assert_true(u.notice[0] >= 'A' && u.notice[0] <= 'Z');
	assert_null(strchr(u.notice, '('));
	assert_non_null(strstr(u.notice, "pirogue.sav.bad-"));
	assert_false(exists(d, SAVE_FILE));
	assert_int_equal(count(d, "pirogue.sav.bad-"), 1);
}

/* The end of a game: morgue file and score (its rank for the scores
 * screen), the save deleted, Continue gone; the table reads back. */
static void test_game_ended(void **st)
{
	(void)st;
	char d[128];
	struct session s;
	struct ui u;
	struct game *g = started(&s, &u, "ended", d, 5);
	u.can_continue = true;
	u.score_rank = 7;
	play(&s, g, &u, 5, 10);
	assert_false(game_is_over(g));
	session_save(&s, g, &u);
	assert_true(exists(d, SAVE_FILE));
	play(&s, g, &u, 5, 20000);
	assert_true(game_is_over(g));
	assert_false(u.can_continue);
	assert_int_equal(u.score_rank, 0);
	assert_false(exists(d, SAVE_FILE));
	assert_int_equal(count(d, "morgue"), 1);
	session_save(&s, g, &u); /* a finished game is not kept */
	assert_false(exists(d, SAVE_FILE));
	/* nothing more happens to a finished game */
	struct command wait = { .c = CMD_WAIT };
	int turn = game_turn(g);
	assert_int_equal(session_command(&s, g, &u, &wait), 0);
	assert_int_equal(game_turn(g), turn);
	session_scores(&s, &u);
	assert_int_equal(u.nscores, 1);
	assert_true(u.scores[0].turns > 0);
	game_destroy(g);
}

/* The recording at path is of seed, holds n commands and replays to a game
 * of checksum sum. */
static void replays(const char *path, uint64_t seed, size_t n, uint64_t sum)
{
	struct recording r;
	struct game *back = NULL;
	char err[512];
	assert_int_equal(rec_load(path, &r, err, sizeof err), 0);
	assert_int_equal(r.seed, seed);
	assert_int_equal(r.nsteps, n);
	assert_int_equal(rec_replay(&r, path, &back, err, sizeof err), 0);
	assert_int_equal(game_checksum(back), sum);
	rec_free(&r);
	game_destroy(back);
}

/* --record: the first game is recorded, command by command, and replays;
 * the next game is not (a recording holds one game). */
static void test_record_first_game(void **st)
{
	(void)st;
	char rec[128];
	snprintf(rec, sizeof rec, "%s/first.rec", dir);
	struct session s = { .record = rec };
	struct ui u = { .screen = UI_TITLE };
	struct game *g = NULL;
	assert_int_equal(session_new_game(&s, &g, 9, MAPGEN_CLASSIC, 0, 0), 0);
	assert_non_null(s.rec);
	play(&s, g, &u, 9, 25);
	uint64_t sum = game_checksum(g);
	assert_int_equal(session_new_game(&s, &g, 10, MAPGEN_CLASSIC, 0, 0), 0);
	assert_null(s.rec);
	play(&s, g, &u, 10, 5);
	session_close(&s);
	replays(rec, 9, 25, sum);
	game_destroy(g);
	session_close(NULL);
}

/* --record and Continue: the game from the save is recorded from its seed,
 * with the history it has so far. */
static void test_record_continued(void **st)
{
	(void)st;
	char rec[128];
	snprintf(rec, sizeof rec, "%s/continued.rec", dir);
	struct game *g = gamefix_new(4, MAPGEN_CLASSIC);
	struct session s = { .record = rec };
	struct ui u = { .screen = UI_PLAY };
	play(&s, g, &u, 4, 12); /* before Continue: not recorded yet */
	session_continue(&s, g);
	assert_non_null(s.rec);
	play(&s, g, &u, 4, 8);
	session_close(&s);
	replays(rec, 4, 20, game_checksum(g));
	game_destroy(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scripted_keeps_nothing),
		cmocka_unit_test(test_save_and_continue),
		cmocka_unit_test(test_saved_on_triggers),
		cmocka_unit_test(test_refused_save_noticed),
		cmocka_unit_test(test_game_ended),
		cmocka_unit_test(test_record_first_game),
		cmocka_unit_test(test_record_continued),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
