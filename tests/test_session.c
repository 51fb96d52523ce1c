/* The player's game as kept (app/session.c): where the state directory is
 * used, the save loaded, written on its triggers and deleted at the end,
 * a refused save's reason on the title, --record's one game, the morgue
 * file and the high scores. */
#include "savefix.h"
#include "logcap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/session.h"
#include "save/morgue.h"
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
	session_close(&s); /* the next run: one at a time (test_one_program_a_dir) */

	struct session s2 = { 0 };
	struct ui u2 = { .screen = UI_TITLE, .menu_sel = 2 };
	struct game *g2 = NULL;
	assert_int_equal(session_open(&s2, d, false, &g2, &u2), 0);
	assert_non_null(g2);
	assert_true(u2.can_continue);
	assert_int_equal(u2.menu_sel, 0); /* Continue first */
	assert_int_equal(game_checksum(g2), sum);
	assert_int_equal(game_turn(g2), turn);
	game_destroy(g2);
	session_close(&s2);

	struct session s3 = { 0 };
	struct game *g3 = NULL;
	assert_int_equal(session_new_game(&s3, &g3, 8, MAPGEN_CLASSIC, 0, 0), 0);
	uint64_t fresh = game_checksum(g3);
	session_open(&s3, d, false, &g3, &u2); /* --seed: the new game stays */
	assert_true(s3.saving);
	assert_int_equal(game_checksum(g3), fresh);
	session_close(&s3);
	game_destroy(g3);
	game_destroy(g);
}

/* Without a state directory (none named, HOME unset) or with one that
 * cannot be made, no game is saved: the title says so at once (only the
 * log said it, and a terminal shows the log when the program ends, after
 * a game played for nothing). */
static void test_no_state_dir_on_title(void **st)
{
	(void)st;
	const char *vars[] = {"STATE_DIRECTORY", "XDG_STATE_HOME", "HOME"};
	char *saved[3];
	for (int i = 0; i < 3; i++) {
		const char *v = getenv(vars[i]);
		saved[i] = v ? strdup(v) : NULL;
		unsetenv(vars[i]);
	}
	struct session s = { 0 };
	struct ui u = { .screen = UI_TITLE };
	struct game *g = NULL;
	logcap_begin();
	assert_int_equal(session_open(&s, NULL, false, &g, &u), 0);
	logcap_end();
	for (int i = 0; i < 3; i++) {
		if (saved[i])
			setenv(vars[i], saved[i], 1);
		free(saved[i]);
	}
	assert_false(s.saving);
	assert_non_null(strstr(u.notice, "Games are not saved: no state directory"));
	session_close(&s);

	char d[128], f[192];
	subdir("nodir", d, sizeof d);
	snprintf(f, sizeof f, "%s/file", d);
	FILE *fp = fopen(f, "w");
	assert_non_null(fp);
	fclose(fp);
	strcat(f, "/state"); /* under a file: cannot be made */
	struct session s2 = { 0 };
	struct ui u2 = { .screen = UI_TITLE };
	logcap_begin();
	assert_int_equal(session_open(&s2, f, false, &g, &u2), 0);
	logcap_end();
	assert_null(g);
	assert_non_null(strstr(u2.notice, "Games cannot be saved in"));
	assert_non_null(strstr(u2.notice, "Not a directory"));
	session_close(&s2);
}

/* A state directory that cannot be made (a dangling link, under a regular
 * file) is said once, in the log and on the title and over the map, naming
 * the state directory; the game is then not saved, and its saves say
 * nothing more (issue 21.6: a dangling link was played unsaved with four
 * log lines and nothing on the title; under a file, the parent was named,
 * four times). */
static void test_unmakeable_dir_said_once(void **st)
{
	(void)st;
	char d[128], dirs[2][192];
	subdir("unmakeable", d, sizeof d);
	snprintf(dirs[0], sizeof dirs[0], "%s/dangling", d);
	assert_int_equal(symlink("nowhere", dirs[0]), 0);
	snprintf(dirs[1], sizeof dirs[1], "%s/file", d);
	FILE *fp = fopen(dirs[1], "w");
	assert_non_null(fp);
	fclose(fp);
	strcat(dirs[1], "/state");
	for (int k = 0; k < 2; k++) {
		struct session s = { 0 };
		struct ui u = { .screen = UI_TITLE };
		struct game *g = gamefix_new(5, MAPGEN_CLASSIC); /* as --seed */
		logcap_begin();
		assert_int_equal(session_open(&s, dirs[k], false, &g, &u), 0);
		for (int i = 0; i < 3; i++) {
			struct command c = { .c = CMD_WAIT, .item = -1, .x = -1, .y = -1, .choice = -1 };
			session_command(&s, g, &u, &c);
			session_save(&s, g, &u);
		}
		session_close(&s);
		logcap_end();
		print_message("%s: %s", dirs[k], logcap_buf);
		assert_int_equal(logcap_lines(logcap_buf), 1);
		assert_non_null(strstr(logcap_buf, dirs[k]));
		assert_non_null(strstr(u.notice, "Games cannot be saved in"));
		assert_non_null(strstr(u.notice, k == 0 ? "No such file" : "Not a directory"));
		/* each save says it over the map, not in the log again */
		assert_non_null(strstr(u.status, "The game could not be saved in"));
		assert_non_null(strstr(u.status, k == 0 ? "No such file" : "Not a directory"));
		game_destroy(g);
	}
}

/* Two programs playing from one state directory would save over each
 * other's game (the last to save wins, silently): the second is refused
 * with one line, loads nothing and keeps nothing; once the first ends it
 * may. A --seed run is refused the same way (its game in progress is not
 * kept aside under the first's feet). */
static void test_one_program_a_dir(void **st)
{
	(void)st;
	char d[128];
	struct session s;
	struct ui u;
	struct game *g = started(&s, &u, "twice", d, 9);
	play(&s, g, &u, 9, 20);
	session_save(&s, g, &u);

	struct session s2 = { 0 };
	struct ui u2 = { .screen = UI_TITLE };
	struct game *g2 = NULL;
	logcap_begin();
	assert_int_equal(session_open(&s2, d, false, &g2, &u2), -EBUSY);
	logcap_end();
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "another pirogue is playing from"));
	assert_null(g2);
	assert_false(s2.saving);
	assert_false(u2.can_continue);
	session_close(&s2);
	assert_int_equal(session_new_game(&s2, &g2, 10, MAPGEN_CLASSIC, 0, 0), 0);
	logcap_begin();
	assert_int_equal(session_open(&s2, d, false, &g2, &u2), -EBUSY); /* --seed */
	logcap_end();
	assert_false(s2.saving);
	assert_int_equal(count(d, SAVE_FILE ".old-"), 0);
	session_close(&s2);
	game_destroy(g2);

	session_close(&s); /* the first ends: the next may */
	g2 = NULL;
	assert_int_equal(session_open(&s2, d, false, &g2, &u2), 0);
	assert_non_null(g2);
	assert_true(game_checksum(g2) == game_checksum(g));
	session_close(&s2);
	game_destroy(g2);
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
	session_close(&s);
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
	assert_int_equal(session_open(&s, d, false, &g, &u), 0);
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
	session_close(&s); /* its lock on d */
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
	session_close(&s);
	game_destroy(g);
}

/* At most n of the bot's moves on g (until it ends) with game_do, saved
 * through s as session_command saves (every 100 turns, each floor change);
 * the game's end is left to the caller. Returns the moves made. */
static int bot_moves(struct session *s, struct ui *u, struct game *g, struct savefix_bot *bot, int n)
{
	int k = 0;
	for (; k < n && !game_is_over(g); k++) {
		int turn0 = game_turn(g), depth0 = game_depth(g);
		struct command c = { .c = savefix_pick(bot, g) };
		game_do(g, &c);
		if (save_due(turn0, depth0, game_turn(g), game_depth(g)))
			session_save(s, g, u);
	}
	return k;
}

/* A game of seed on the fresh subdirectory name of dir (its path in d)
 * played by the bot until the player dies, with game_do, saved through s
 * as session_command saves it (every 100 turns, each floor change); its
 * end is left to the caller, which does it step by step. */
static struct game *died(struct session *s, struct ui *u, const char *name, char *d, uint64_t seed)
{
	struct game *g = started(s, u, name, d, seed);
	struct savefix_bot bot;
	savefix_bot_init(&bot, seed);
	bot_moves(s, u, g, &bot, 20000);
	assert_true(game_is_over(g));
	assert_true(exists(d, SAVE_FILE)); /* the living game's last save */
	return g;
}

/* The end of a game (morgue_game_over, as session_command runs it) stopped
 * by a kill -9 after its first steps steps (1: the finished game over the
 * save, 2: the morgue file and recording, 3: the score, 4: the save
 * deleted), then pirogue started again on the same state directory: no
 * Continue, exactly one morgue file and recording, exactly one score; a
 * title line when the start had to finish the end. Before, a kill before
 * the save's deletion brought the dead game back from its last save
 * (Continue), and dying again kept a second morgue file and score. */
static void end_killed_after(int steps)
{
	char d[128], m[192], name[32], mname[PATH_MAX];
	struct session s;
	struct ui u;
	snprintf(name, sizeof name, "killed%d", steps);
	struct game *g = died(&s, &u, name, d, 5);
	snprintf(m, sizeof m, "%s/morgue", d);
	const int64_t when = 1796083200; /* 2026-12-01 00:00:00 UTC */
	if (steps >= 1)
		assert_int_equal(save_game_ended(d, g, when), 0);
	if (steps >= 2)
		assert_int_equal(morgue_write_files(d, g, when, mname, sizeof mname), 0);
	if (steps >= 3)
		assert_int_equal(morgue_add_score(d, g, when), 0);
	if (steps >= 4)
		assert_int_equal(save_delete(d), 0);
	session_close(&s); /* the kill: the lock goes with the program */
	game_destroy(g);

	for (int start = 0; start < 2; start++) { /* a second start finds nothing more to do */
		struct session s2 = { 0 };
		struct ui u2 = { .screen = UI_TITLE };
		struct game *g2 = NULL;
		assert_int_equal(session_open(&s2, d, false, &g2, &u2), 0);
		assert_null(g2);
		assert_false(u2.can_continue);
		assert_false(exists(d, SAVE_FILE));
		assert_int_equal(count(m, "morgue-"), 2);
		assert_int_equal(count(m, "morgue-20261201-000000-5.txt"), 1);
		assert_int_equal(count(m, "morgue-20261201-000000-5.rec"), 1);
		session_scores(&s2, &u2);
		assert_int_equal(u2.nscores, 1);
		if (start == 0 && steps < 4)
			assert_string_equal(u2.notice, "Your last game had ended; its morgue file and score are kept now.");
		else
			assert_string_equal(u2.notice, "");
		session_close(&s2);
	}
}

static void test_end_killed_after_save(void **st)
{
	(void)st;
	end_killed_after(1);
}

static void test_end_killed_after_morgue(void **st)
{
	(void)st;
	end_killed_after(2);
}

static void test_end_killed_after_score(void **st)
{
	(void)st;
	end_killed_after(3);
}

static void test_end_not_killed(void **st)
{
	(void)st;
	end_killed_after(4);
}

/* A kill during the first step (the finished game's save is atomic): the
 * save is the living game's last one, as after any crash in play; nothing
 * of its end was kept, so Continue plays it from there and its end comes
 * once. */
static void test_end_killed_before_save(void **st)
{
	(void)st;
	char d[128];
	struct session s;
	struct ui u;
	struct game *g = died(&s, &u, "killed0", d, 5);
	session_close(&s);
	game_destroy(g);
	struct session s2 = { 0 };
	struct ui u2 = { .screen = UI_TITLE };
	struct game *g2 = NULL;
	assert_int_equal(session_open(&s2, d, false, &g2, &u2), 0);
	assert_non_null(g2);
	assert_true(u2.can_continue);
	assert_false(game_is_over(g2));
	assert_false(exists(d, "morgue"));
	assert_false(exists(d, SCORES_FILE));
	session_close(&s2);
	game_destroy(g2);
}

/* --seed over a save holding a finished game (a kill during its end): that
 * end is done first, not kept aside as pirogue.sav.old-DATE (never to be
 * finished). */
static void test_end_killed_then_seed(void **st)
{
	(void)st;
	char d[128], m[192];
	struct session s;
	struct ui u;
	struct game *g = died(&s, &u, "killedseed", d, 5);
	assert_int_equal(save_game_ended(d, g, 1796083200), 0);
	session_close(&s);
	game_destroy(g);
	struct session s2 = { 0 };
	struct ui u2 = { .screen = UI_TITLE };
	struct game *g2 = NULL;
	assert_int_equal(game_create(&g2, &(struct game_opts){ .seed = 9 }), 0);
	assert_int_equal(session_open(&s2, d, false, &g2, &u2), 0);
	assert_non_null(g2);
	assert_int_equal(count(d, "pirogue.sav.old-"), 0);
	assert_false(exists(d, SAVE_FILE));
	snprintf(m, sizeof m, "%s/morgue", d);
	assert_int_equal(count(m, "morgue-20261201-000000-5."), 2);
	session_scores(&s2, &u2);
	assert_int_equal(u2.nscores, 1);
	assert_string_equal(u2.notice, "Your last game had ended; its morgue file and score are kept now.");
	session_close(&s2);
	game_destroy(g2);
}

/* A morgue file's write killed before its rename (kill -9 as the player
 * dies) leaves morgue/NAME.txt.tmp-XXXXXX: removed when the state directory
 * is next opened, and nothing else there (it stayed for ever). */
static void test_morgue_temps_removed(void **st)
{
	(void)st;
	char d[128], m[192], p[256];
	subdir("morguetmp", d, sizeof d);
	snprintf(m, sizeof m, "%s/morgue", d);
	assert_int_equal(mkdir(m, 0700), 0);
	const char *files[] = {"morgue-20261201-020039-5.txt.tmp-0Pf8oQ", "morgue-20261201-020039-5.rec",
			       "morgue-20261201-020045-5.txt"};
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s/%s", m, files[i]);
		FILE *f = fopen(p, "w");
		assert_non_null(f);
		fclose(f);
	}
	struct session s = { 0 };
	struct ui u = { .screen = UI_TITLE };
	struct game *g = NULL;
	session_open(&s, d, false, &g, &u);
	assert_null(g);
	assert_int_equal(count(m, "morgue-20261201-020039-5.txt"), 0);
	assert_int_equal(count(m, "morgue-20261201-020039-5.rec"), 1);
	assert_int_equal(count(m, "morgue-20261201-020045-5.txt"), 1);
	session_close(&s);
}

/* A game of seed 3 played 20 commands and saved in a new state directory
 * named for name (its path in d), the program gone; returns its checksum. */
static uint64_t saved_in_progress(const char *name, char *d)
{
	struct session s;
	struct ui u;
	struct game *g = started(&s, &u, name, d, 3);
	play(&s, g, &u, 3, 20);
	session_save(&s, g, &u);
	uint64_t sum = game_checksum(g);
	session_close(&s);
	game_destroy(g);
	return sum;
}

/* A start with --seed 4 on state directory d (its log in logcap_buf). */
static void seed_opened_at(const char *d, struct session *s, struct ui *u, struct game **g,
			   int64_t (*clock)(void))
{
	*s = (struct session){ .clock = clock };
	*u = (struct ui){ .screen = UI_TITLE };
	*g = NULL;
	assert_int_equal(session_new_game(s, g, 4, MAPGEN_CLASSIC, 0, 0), 0);
	logcap_begin();
	session_open(s, d, false, g, u);
	logcap_end();
}

static void seed_opened(const char *d, struct session *s, struct ui *u, struct game **g)
{
	seed_opened_at(d, s, u, g, NULL);
}

/* The session's clock in the tests that need one: 2026-03-04 05:06:07 UTC,
 * however long the test takes. */
#define FIXED_NOW INT64_C(1772600767)
static int64_t fixed_clock(void)
{
	return FIXED_NOW;
}

/* The save at path holds the game of checksum sum. */
static void save_holds(const char *path, uint64_t sum)
{
	struct game *back = NULL;
	char why[SAVE_WHY_MAX];
	assert_int_equal(save_load_file(path, &back, why, sizeof why), 0);
	assert_true(game_checksum(back) == sum);
	game_destroy(back);
}

/* --seed where the game in progress cannot be kept aside (every name for
 * it taken): the new game is not saved over it, and the player is told at
 * once, over the map (it was said only in the log, which a terminal shows
 * when the game ends: a whole game played unsaved without a word). */
static void test_seed_cannot_keep_game_said(void **st)
{
	(void)st;
	char d[128], p[600];
	uint64_t sum = saved_in_progress("seedcannot", d);
	/* every name save_keep_aside would try at the session's clock's time
	 * (it filled the names of the next 5 s of wall clock: a loaded
	 * machine ran past them and the game was kept aside after all) */
	time_t t = (time_t)FIXED_NOW;
	struct tm tm;
	char stamp[32];
	assert_non_null(gmtime_r(&t, &tm));
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	assert_string_equal(stamp, "20260304-050607");
	for (int i = 0; i < 1000; i++) {
		if (i == 0)
			snprintf(p, sizeof p, "%s/%s.old-%s", d, SAVE_FILE, stamp);
		else
			snprintf(p, sizeof p, "%s/%s.old-%s-%d", d, SAVE_FILE, stamp, i);
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);
		assert_true(fd >= 0);
		close(fd);
	}

	struct session s2;
	struct ui u2;
	struct game *g2;
	seed_opened_at(d, &s2, &u2, &g2, fixed_clock);
	assert_non_null(strstr(logcap_buf, "could not be kept aside"));
	assert_false(s2.saving);
	assert_non_null(strstr(u2.status, "This game is not saved"));
	assert_non_null(strstr(u2.notice, "This game is not saved"));
	/* the game in progress is still there, whole */
	play(&s2, g2, &u2, 4, 20);
	session_save(&s2, g2, &u2);
	session_close(&s2);
	game_destroy(g2);
	snprintf(p, sizeof p, "%s/%s", d, SAVE_FILE);
	save_holds(p, sum);
}

/* --seed in a state directory holding a game in progress: that game is kept
 * aside as pirogue.sav.old-DATE (said in the log and on the title), not
 * replaced by the new game's first save (it was, silently). */
static void test_seed_keeps_game_in_progress(void **st)
{
	(void)st;
	char d[128];
	uint64_t sum = saved_in_progress("seedkeeps", d);
	struct session s2;
	struct ui u2;
	struct game *g2;
	seed_opened(d, &s2, &u2, &g2);
	assert_non_null(strstr(logcap_buf, "kept as pirogue.sav.old-"));
	assert_non_null(strstr(u2.notice, "pirogue.sav.old-"));
	assert_true(s2.saving);
	session_save(&s2, g2, &u2);
	assert_true(exists(d, SAVE_FILE));
	assert_int_equal(count(d, SAVE_FILE ".old-"), 1);
	/* the game kept is the one played before, whole */
	DIR *dd = opendir(d);
	char old[512] = "";
	for (struct dirent *e; (e = readdir(dd));)
		if (!strncmp(e->d_name, SAVE_FILE ".old-", strlen(SAVE_FILE ".old-")))
			snprintf(old, sizeof old, "%s/%s", d, e->d_name);
	closedir(dd);
	save_holds(old, sum);
	session_close(&s2);
	game_destroy(g2);
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

/* ---- the history file: the store of a game's older commands ---- */

/* The session's history file: the fd of this process open on an unnamed
 * file in d ("d/#123 (deleted)" for O_TMPFILE); fails the test when there
 * is none or more than one. */
static int history_fd(const char *d)
{
	DIR *dd = opendir("/proc/self/fd");
	assert_non_null(dd);
	int found = -1, n = 0;
	for (struct dirent *e; (e = readdir(dd));) {
		char p[300], link[512];
		snprintf(p, sizeof p, "/proc/self/fd/%s", e->d_name);
		ssize_t len = readlink(p, link, sizeof link - 1);
		if (len <= 0)
			continue;
		link[len] = 0;
		size_t dl = strlen(d);
		if (strncmp(link, d, dl) == 0 && link[dl] == '/' && strstr(link, " (deleted)")) {
			found = atoi(e->d_name);
			n++;
		}
	}
	closedir(dd);
	assert_int_equal(n, 1);
	return found;
}

/* The save file of d, whole, into a new buffer (free it) of *len bytes. */
static unsigned char *save_bytes(const char *d, size_t *len)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", d, SAVE_FILE);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	unsigned char *b = malloc(1 << 20);
	assert_non_null(b);
	*len = fread(b, 1, 1 << 20, f);
	assert_true(*len > 0 && *len < 1 << 20);
	fclose(f);
	return b;
}

/* The save of d loads to g: the same state and the same history. */
static void save_is(const char *d, const struct game *g)
{
	char path[256], why[SAVE_WHY_MAX];
	snprintf(path, sizeof path, "%s/%s", d, SAVE_FILE);
	struct game *back;
	assert_int_equal(save_load_file(path, &back, why, sizeof why), 0);
	assert_true(game_checksum(back) == game_checksum(g));
	gamefix_same_history(back, g);
	game_destroy(back);
}

/* n commands given to g without saves in between: mostly ones that cost
 * no turn (the stairs up where there are none), every 1,000th a wait, so
 * that the player lives through them all. */
static void long_play(struct game *g, int n)
{
	for (int i = 0; i < n; i++)
		game_apply(g, i % 1000 == 999 ? CMD_WAIT : CMD_ASCEND);
	assert_false(game_is_over(g));
}

/* A game of the session keeps its older commands in an unnamed file in the
 * state directory (no name appears there) and only a block in memory; its
 * save holds them all; a game loaded from the save gets the file too (and
 * --record after Continue records them all), and the next new game an
 * emptied one. */
static void test_history_file(void **st)
{
	(void)st;
	char d[128];
	struct session s;
	struct ui u;
	struct game *g = started(&s, &u, "histfile", d, 13);
	long_play(g, 9000);
	assert_int_equal(game_history(g)->stored, 2 * HIST_BLOCK);
	assert_int_equal(game_history(g)->cap, HIST_BLOCK);
	int fd = history_fd(d);
	struct stat sb;
	assert_int_equal(fstat(fd, &sb), 0);
	assert_int_equal(sb.st_size, 2 * HIST_BLOCK * HIST_RECORD);
	assert_int_equal(count(d, ""), 2); /* . and .. */
	session_save(&s, g, &u);
	assert_string_equal(u.status, "");
	save_is(d, g);
	assert_int_equal(count(d, ""), 3); /* the save */
	session_close(&s);

	char rec[256];
	snprintf(rec, sizeof rec, "%s/continued.rec", dir);
	struct session s2 = { .record = rec };
	struct game *g2 = NULL;
	session_open(&s2, d, false, &g2, &u);
	assert_non_null(g2);
	assert_int_equal(game_history(g2)->stored, 2 * HIST_BLOCK);
	assert_int_equal(game_history(g2)->cap, HIST_BLOCK);
	fd = history_fd(d);
	session_continue(&s2, g2);
	assert_non_null(s2.rec);
	struct command up = { .c = CMD_ASCEND }; /* recorded, costs no turn */
	for (int i = 0; i < 100; i++)
		session_command(&s2, g2, &u, &up);
	assert_false(game_is_over(g2));
	session_save(&s2, g2, &u);
	save_is(d, g2);
	uint64_t sum = game_checksum(g2);
	assert_int_equal(session_new_game(&s2, &g2, 14, MAPGEN_CLASSIC, 0, 0), 0);
	replays(rec, 13, 9100, sum);
	assert_int_equal(history_fd(d), fd); /* the same file, emptied */
	assert_int_equal(fstat(fd, &sb), 0);
	assert_int_equal(sb.st_size, 0);
	assert_true(game_history(g2)->has_store);
	session_close(&s2);
	game_destroy(g2);
	game_destroy(g);
}

/* The history file damaged behind the game's back: saving is refused with
 * one line in the log naming the file and one on the status line; the last
 * save stays as it was, and the game plays on. */
static void test_history_file_damaged(void **st)
{
	(void)st;
	char d[128];
	struct session s;
	struct ui u;
	struct game *g = started(&s, &u, "histdamaged", d, 15);
	long_play(g, 5000);
	session_save(&s, g, &u);
	size_t len0, len1;
	unsigned char *before = save_bytes(d, &len0);
	assert_int_equal(pwrite(history_fd(d), "\x7f", 1, 40), 1);
	long_play(g, 10);
	logcap_begin();
	session_save(&s, g, &u);
	logcap_end();
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "game: the history file in "));
	assert_non_null(strstr(logcap_buf, " is damaged (its 4096 commands are not those written to it)"));
	assert_non_null(strstr(u.status, "The game could not be saved in "));
	unsigned char *after = save_bytes(d, &len1);
	assert_int_equal(len1, len0);
	assert_memory_equal(after, before, len0);
	int turn = game_turn(g);
	game_apply(g, CMD_WAIT);
	assert_int_equal(game_turn(g), turn + 1);
	free(before);
	free(after);
	session_close(&s);
	game_destroy(g);
}

/* A history file that cannot be written (here: made read-only under the
 * game, as a full disk refuses): one line says the commands stay in
 * memory; the game plays on and its saves are whole. */
static void test_history_file_unwritable(void **st)
{
	(void)st;
	char d[128], p[64];
	struct session s;
	struct ui u;
	struct game *g = started(&s, &u, "histro", d, 16);
	int fd = history_fd(d);
	snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
	int ro = open(p, O_RDONLY | O_CLOEXEC);
	assert_true(ro >= 0);
	assert_int_equal(dup2(ro, fd), fd);
	close(ro);
	logcap_begin();
	long_play(g, 9000);
	logcap_end();
	assert_int_equal(logcap_lines(logcap_buf), 2); /* at 4,096 commands, then at 8,192 */
	assert_non_null(strstr(logcap_buf, "game: cannot write commands 1 to 4096 to the history file in "));
	assert_non_null(strstr(logcap_buf, " (Bad file descriptor): they are kept in memory until it works\n"));
	assert_int_equal(game_history(g)->stored, 0);
	session_save(&s, g, &u);
	assert_string_equal(u.status, "");
	save_is(d, g);
	session_close(&s);
	game_destroy(g);
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

/* The state directory d as it was before the game's end: its living
 * save (len bytes at save), no morgue file, no scores. */
static void before_end(const char *d, const char *m, const unsigned char *save, size_t len)
{
	char p[256];
	assert_int_equal(savefix_rmtree(m), 0);
	snprintf(p, sizeof p, "%s/%s", d, SCORES_FILE);
	assert_true(unlink(p) == 0 || errno == ENOENT);
	assert_int_equal(save_write_atomic(d, SAVE_FILE, save, len), 0);
}

/* The power cut as the player dies: a child gives the fatal command
 * (session_command: the whole end, morgue_game_over) and is killed with
 * SIGKILL at a random moment of it, 50 times; then pirogue starts again
 * on the state directory. It offers Continue only with nothing of the end
 * kept (the living game's last save, as after any crash in play);
 * otherwise no save is left, and exactly one morgue file with its
 * recording and one score are. Before, a kill between the score and the
 * save's deletion brought the dead game back with its morgue file and
 * score already kept, or its recording alone (found in each of 3 runs of
 * the 50 kills on the code before; test_end_killed_after_* stop at each
 * step every time). */
static void test_end_power_cut(void **st)
{
	(void)st;
	char d[128], m[140];
	struct session s;
	struct ui u;
	struct savefix_bot bot;
	/* how many moves the game of seed 5 lives */
	struct game *g = started(&s, &u, "cutlen", d, 5);
	savefix_bot_init(&bot, 5);
	int n = bot_moves(&s, &u, g, &bot, 20000);
	assert_true(game_is_over(g));
	session_close(&s);
	game_destroy(g);
	/* the same game one move before its end, its last save in d */
	g = started(&s, &u, "cut", d, 5);
	savefix_bot_init(&bot, 5);
	assert_int_equal(bot_moves(&s, &u, g, &bot, n - 1), n - 1);
	assert_false(game_is_over(g));
	assert_true(exists(d, SAVE_FILE));
	size_t len;
	unsigned char *save = save_bytes(d, &len);
	/* the starts below lock d: this program lets its lock go (the
	 * children, killed or not, need none) */
	close(s.lock_fd);
	s.locked = false;
	snprintf(m, sizeof m, "%s/morgue", d);
	srand(5);
	long span = 0;
	int ended = 0;
	logcap_begin();
	for (int k = 0; k <= 50; k++) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			struct command c = { .c = savefix_pick(&bot, g) };
			session_command(&s, g, &u, &c);
			_exit(game_is_over(g) && !exists(d, SAVE_FILE) ? 0 : 1);
		}
		if (k > 0) { /* the first runs whole: how long the end takes */
			usleep((useconds_t)(rand() % (span + 1)));
			kill(pid, SIGKILL);
		}
		int status;
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (k == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t1);
			assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
			span = (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000;
			span += span / 4; /* some kills come after the end */
		}
		struct session s2 = { 0 };
		struct ui u2 = { .screen = UI_TITLE };
		struct game *g2 = NULL;
		assert_int_equal(session_open(&s2, d, false, &g2, &u2), 0);
		session_scores(&s2, &u2);
		int morgues = exists(d, "morgue") ? count(m, "morgue-") : 0;
		if (g2) { /* killed before the finished game was saved */
			assert_true(u2.can_continue);
			assert_false(game_is_over(g2));
			assert_int_equal(morgues, 0);
			assert_int_equal(u2.nscores, 0);
		} else {
			ended++;
			assert_false(exists(d, SAVE_FILE));
			assert_int_equal(morgues, 2);
			assert_int_equal(u2.nscores, 1);
		}
		session_close(&s2);
		game_destroy(g2);
		before_end(d, m, save, len);
	}
	logcap_end();
	assert_true(ended > 0);
	free(save);
	session_close(&s);
	game_destroy(g);
}

/* Issue 18, items 4 and 6: the game just ended asks for a name (the last
 * one first); named, the table shows it; its recording is offered to
 * watch, and attract mode plays it. The clock is the session's (has_now). */
static void test_name_watch_attract(void **st)
{
	(void)st;
	char d[128];
	struct session s;
	struct ui u;
	struct game *g = started(&s, &u, "named", d, 5);
	s.has_now = true;
	s.now = 1796083300;
	play(&s, g, &u, 5, 20000);
	assert_true(game_is_over(g));
	assert_true(u.name_pending);
	assert_string_equal(u.name, "");
	assert_int_equal(s.ended_when, 1796083300);
	snprintf(u.name, sizeof u.name, "Kiosk 1");
	session_set_name(&s, g, &u);
	session_scores(&s, &u);
	assert_int_equal(u.nscores, 1);
	assert_string_equal(u.scores[0].name, "Kiosk 1");
	assert_true(u.scores[0].watchable);
	char path[4096], path2[4096];
	assert_int_equal(session_recording(&s, &u, 0, path, sizeof path), 0);
	assert_non_null(strstr(path, "/morgue/morgue-20261201-000140-5.rec"));
	assert_int_equal(session_recording(&s, &u, 1, path2, sizeof path2), -1);
	assert_string_equal(u.status, "No recording of that game is kept.");
	assert_int_equal(session_attract(&s, 0, path2, sizeof path2), 0);
	assert_string_equal(path, path2);
	assert_int_equal(session_attract(&s, 1, path2, sizeof path2), -1);
	/* the next game's end offers the last name first */
	assert_int_equal(session_new_game(&s, &g, 6, MAPGEN_CLASSIC, 0, 0), 0);
	s.now += 100;
	play(&s, g, &u, 6, 20000);
	assert_true(game_is_over(g));
	assert_string_equal(u.name, "Kiosk 1");
	game_destroy(g);
	session_close(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scripted_keeps_nothing),
		cmocka_unit_test(test_save_and_continue),
		cmocka_unit_test(test_one_program_a_dir),
		cmocka_unit_test(test_no_state_dir_on_title),
		cmocka_unit_test(test_unmakeable_dir_said_once),
		cmocka_unit_test(test_seed_keeps_game_in_progress),
		cmocka_unit_test(test_seed_cannot_keep_game_said),
		cmocka_unit_test(test_saved_on_triggers),
		cmocka_unit_test(test_refused_save_noticed),
		cmocka_unit_test(test_game_ended),
		cmocka_unit_test(test_name_watch_attract),
		cmocka_unit_test(test_morgue_temps_removed),
		cmocka_unit_test(test_end_killed_before_save),
		cmocka_unit_test(test_end_killed_after_save),
		cmocka_unit_test(test_end_killed_after_morgue),
		cmocka_unit_test(test_end_killed_after_score),
		cmocka_unit_test(test_end_not_killed),
		cmocka_unit_test(test_end_killed_then_seed),
		cmocka_unit_test(test_end_power_cut),
		cmocka_unit_test(test_record_first_game),
		cmocka_unit_test(test_record_continued),
		cmocka_unit_test(test_history_file),
		cmocka_unit_test(test_history_file_damaged),
		cmocka_unit_test(test_history_file_unwritable),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
