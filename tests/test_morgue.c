/* morgue and scores: a finished game leaves a morgue file, a recording that replays to it (also when saved and continued), its score; the save goes; the score table in order, damaged tables refused and kept aside. */
#include "savefix.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "game/serial.h"
#include "save/morgue.h"
#include "save/record.h"
#include "save/save.h"
#include "save/scores.h"

static char dir[64];

static int setup(void **st)
{
	(void)st;
	return savefix_mkdtemp(dir, sizeof dir, "morgue");
}

static int teardown(void **st)
{
	(void)st;
	return savefix_rmtree(dir);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char buf[1 << 17];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

/* A game played until the player dies, saved and loaded twice on the way. */
static struct game *dead_game(uint64_t seed)
{
	struct game *g = gamefix_new(seed, MAPGEN_CLASSIC);
	struct savefix_bot bot;
	savefix_bot_init(&bot, seed);
	char why[256];
	int loads = 0;
	for (int k = 0; k < 500 && !game_is_over(g); k++) {
		savefix_play(&bot, g, 10);
		if ((k == 1 || k == 3) && !game_is_over(g)) {
			loads++;
			struct serial_buf b = {0};
			struct game *h;
			assert_int_equal(game_encode(g, &b), 0);
			assert_int_equal(game_decode(&h, b.data, b.len, why, sizeof why), 0);
			free(b.data);
			game_destroy(g);
			g = h;
		}
	}
	assert_true(game_is_over(g));
	assert_int_equal(loads, 2);
	return g;
}

static void test_game_over(void **st)
{
	(void)st;
	char sub[128], name[4096];
	snprintf(sub, sizeof sub, "%s/a", dir);
	struct game *g = dead_game(3);
	assert_int_equal(save_game(sub, g), 0); /* the save of the game in progress */
	int rank;
	const int64_t when = 1764530000; /* 2025-11-30 19:13:20 UTC */
	assert_int_equal(morgue_game_over(sub, g, when, name, sizeof name, &rank), 0);
	if (getenv("MORGUE_SHOW")) /* to look at one: MORGUE_SHOW=1 build/tests/test_morgue */
		fputs(slurp(name), stdout);
	assert_int_equal(rank, 0);
	assert_false(save_exists(sub)); /* permadeath */
	char want[256];
	snprintf(want, sizeof want, "%s/morgue/morgue-20251130-191320-3.txt", sub);
	assert_string_equal(name, want);
	const char *text = slurp(name);
	assert_non_null(strstr(text, "pirogue morgue file"));
	assert_non_null(strstr(text, "seed 3, classic dungeon"));
	assert_non_null(strstr(text, "Ended:     2025-11-30 19:13:20 UTC"));
	char fate[128];
	snprintf(fate, sizeof fate, "Fate:      %s\n", game_death_cause(g));
	assert_true(game_death_cause(g)[0]);
	assert_non_null(strstr(text, fate));
	snprintf(want, sizeof want, "Depth:     dungeon level %d\nTurns:     %d\n", game_depth(g), game_turn(g));
	assert_non_null(strstr(text, want));
	/* spelt as the character screen and GAME.md spell it */
	assert_non_null(strstr(text, "\nDefence:   "));
	assert_null(strstr(text, "Defense"));
	assert_non_null(strstr(text, "Recording: morgue-20251130-191320-3.rec"));
	assert_non_null(strstr(text, "\nKills\n"));
	assert_non_null(strstr(text, "\nInventory and equipment\n  a) "));
	assert_non_null(strstr(text, " (E)\n"));
	/* the last message, and no more than 20 */
	char last[160];
	game_msg_format(game_msg_get(g, game_msg_count(g) - 1), last, sizeof last);
	assert_non_null(strstr(text, last));
	const char *msgs = strstr(text, "\nLast messages\n");
	const char *around = strstr(text, "\nAround the player");
	assert_non_null(msgs);
	assert_non_null(around);
	int lines = 0;
	for (const char *p = msgs + 15; p < around; p++)
		lines += *p == '\n';
	assert_int_equal(lines, game_msg_count(g) < 20 ? game_msg_count(g) : 20);
	/* the map: 21 lines, the player's corpse in the middle line */
	assert_non_null(strstr(around, "#"));
	/* the recording replays to the very game, though it was saved and
	 * continued twice */
	snprintf(want, sizeof want, "%s/morgue/morgue-20251130-191320-3.rec", sub);
	struct recording r;
	char err[512];
	struct game *h;
	assert_int_equal(rec_load(want, &r, err, sizeof err), 0);
	if (rec_replay(&r, want, &h, err, sizeof err))
		fail_msg("%s", err);
	assert_true(game_checksum(h) == game_checksum(g));
	rec_free(&r);
	game_destroy(h);
	/* the score */
	struct score_table t;
	assert_int_equal(scores_load(sub, &t, err, sizeof err), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.e[0].turns, game_turn(g));
	assert_int_equal(t.e[0].depth, game_depth(g));
	assert_string_equal(t.e[0].cause, game_death_cause(g));
	assert_true(t.e[0].seed == 3);
	game_destroy(g);
}

/* The first step of a game's end: the finished game over the living one's
 * save, its end as the file's time; it loads as that finished game (the
 * next start finishes it) and --check-save says so. The score is added
 * once however often its step is done again (a crash before the save's
 * deletion); another game's is added. */
static void test_end_steps_again(void **st)
{
	(void)st;
	char sub[128], name[4096], why[SAVE_WHY_MAX];
	snprintf(sub, sizeof sub, "%s/again", dir);
	struct game *g = dead_game(3);
	const int64_t when = 1764530000;
	assert_int_equal(save_game_ended(sub, g, when), 0);
	int64_t end = 0;
	assert_int_equal(save_end_time(sub, &end), 0);
	assert_true(end == when);
	struct game *h;
	assert_int_equal(save_load(sub, &h, why, sizeof why), 0);
	assert_true(game_is_over(h));
	assert_true(game_checksum(h) == game_checksum(g));
	assert_string_equal(game_death_cause(h), game_death_cause(g));
	game_destroy(h);
	assert_int_equal(save_check(sub, NULL), 0);

	assert_int_equal(morgue_add_score(sub, g, when), 0);
	assert_int_equal(morgue_add_score(sub, g, when), 0);
	int rank;
	assert_int_equal(morgue_finish(sub, g, when, name, sizeof name, &rank), 0);
	assert_int_equal(rank, 0);
	assert_false(save_exists(sub));
	struct score_table t;
	assert_int_equal(scores_load(sub, &t, why, sizeof why), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(morgue_add_score(sub, g, when + 1), 1); /* ended at another time: another game */
	assert_int_equal(scores_load(sub, &t, why, sizeof why), 0);
	assert_int_equal(t.n, 2);
	game_destroy(g);
}

/* The morgue cannot be written (a file where morgue/ should be): said; the
 * score is kept and the save goes all the same (a dead game is never
 * continued). */
static void test_morgue_fails(void **st)
{
	(void)st;
	char sub[128], p[160], name[256] = "x";
	snprintf(sub, sizeof sub, "%s/f", dir);
	struct game *g = dead_game(5);
	assert_int_equal(save_game(sub, g), 0);
	snprintf(p, sizeof p, "%s/%s", sub, MORGUE_DIR);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
	int rank = 5;
	assert_int_equal(morgue_game_over(sub, g, 0, name, sizeof name, &rank), -ENOTDIR);
	assert_string_equal(name, "");
	assert_int_equal(rank, 0);
	assert_false(save_exists(sub));
	struct score_table t;
	char why[256];
	assert_int_equal(scores_load(sub, &t, why, sizeof why), 0);
	assert_int_equal(t.n, 1);
	game_destroy(g);
}

static struct score entry(long score, int turns)
{
	struct score s = {.score = score, .depth = 2, .turns = turns, .level = 1, .seed = 9, .when = 100};
	snprintf(s.cause, sizeof s.cause, "killed by an orc");
	return s;
}

static void test_table(void **st)
{
	(void)st;
	char sub[128], why[512];
	snprintf(sub, sizeof sub, "%s/t", dir);
	struct score_table t;
	assert_int_equal(scores_load(sub, &t, why, sizeof why), 0); /* none yet */
	assert_int_equal(t.n, 0);
	const long order[] = {50, 70, 10, 70, 90, 30, 20, 60, 80, 40, 5, 100};
	const int ranks[] = {0, 0, 2, 1, 0, 4, 5, 3, 1, 6, -1, 0};
	for (int i = 0; i < 12; i++) {
		struct score s = entry(order[i], i);
		assert_int_equal(scores_add(sub, &s), ranks[i]);
	}
	assert_int_equal(scores_load(sub, &t, why, sizeof why), 0);
	assert_int_equal(t.n, SCORES_MAX);
	for (int i = 1; i < t.n; i++)
		assert_true(t.e[i - 1].score >= t.e[i].score);
	assert_int_equal(t.e[0].score, 100);
	assert_int_equal(t.e[9].score, 20); /* 10 and 5 fell off */
	/* equal scores: the older one stays above */
	assert_int_equal(t.e[3].score, 70);
	assert_int_equal(t.e[3].turns, 1);
	assert_int_equal(t.e[4].turns, 3);
	assert_string_equal(t.e[0].cause, "killed by an orc");
}

/* How many tables were kept aside in d (SCORES_FILE.bad-...). */
static int tables_kept(const char *d)
{
	DIR *dd = opendir(d);
	assert_non_null(dd);
	int kept = 0;
	for (struct dirent *e; (e = readdir(dd));)
		kept += !strncmp(e->d_name, SCORES_FILE ".bad-", strlen(SCORES_FILE ".bad-"));
	closedir(dd);
	return kept;
}

/* Every cut and a changed byte: refused with a reason naming the file, then
 * kept aside by the next game's score. */
static void test_damaged_table(void **st)
{
	(void)st;
	char sub[128], path[160], why[512];
	snprintf(sub, sizeof sub, "%s/d", dir);
	struct score_table t = {0};
	for (int i = 0; i < 5; i++) {
		struct score s = entry(10 * i, i);
		scores_insert(&t, &s);
	}
	assert_int_equal(scores_save(sub, &t), 0);
	snprintf(path, sizeof path, "%s/%s", sub, SCORES_FILE);
	char whole[4096];
	size_t len = strlen(strcpy(whole, slurp(path)));
	for (size_t n = 0; n < len; n++) {
		FILE *f = fopen(path, "wb");
		fwrite(whole, 1, n, f);
		fclose(f);
		struct score_table u;
		assert_int_equal(scores_load(sub, &u, why, sizeof why), -EINVAL);
		assert_non_null(strstr(why, path));
		assert_int_equal(u.n, 0);
	}
	for (size_t i = 0; i < len; i++) {
		char changed[4096];
		memcpy(changed, whole, len);
		changed[i] = changed[i] == '7' ? '8' : '7';
		if (!memcmp(changed, whole, len))
			continue;
		FILE *f = fopen(path, "wb");
		fwrite(changed, 1, len, f);
		fclose(f);
		struct score_table u;
		assert_int_equal(scores_load(sub, &u, why, sizeof why), -EINVAL);
	}
	/* the next score: the damaged table is kept aside, a new one begins */
	struct score s = entry(1, 1);
	assert_int_equal(scores_add(sub, &s), 0);
	assert_int_equal(tables_kept(sub), 1);
	assert_int_equal(scores_load(sub, &t, why, sizeof why), 0);
	assert_int_equal(t.n, 1);
}

/* A table that cannot be read (a directory in its place) says why
 * ("cannot read the high scores PATH: Is a directory"; it gave no reason)
 * and, like a damaged one, is kept aside by the next score, which starts a
 * new table (the score of the game that ended was lost). */
static void test_unreadable_table(void **st)
{
	(void)st;
	char sub[128], path[160], why[512];
	snprintf(sub, sizeof sub, "%s/u", dir);
	snprintf(path, sizeof path, "%s/%s", sub, SCORES_FILE);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	struct score_table t;
	assert_int_equal(scores_load(sub, &t, why, sizeof why), -EISDIR);
	assert_non_null(strstr(why, "Is a directory"));
	struct score s = entry(5, 1);
	assert_int_equal(scores_add(sub, &s), 0);
	assert_int_equal(scores_load(sub, &t, why, sizeof why), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(tables_kept(sub), 1);
}

/* The score counts every XP point earned, the levels gained too
 * (docs/rules.md): a player who earned 900 XP and spent 350 + 500 of it on
 * two levels scores 900, as one who has not levelled up yet; each floor
 * below the first adds 200. Only a golden file saw the score of a player
 * above level 1. */
static void test_score_counts_levels(void **st)
{
	(void)st;
	struct game *g = gamefix_room(5);
	gamefix_enter(g, 5, 5);
	struct c_player *pl = ecs_get_mut(g->w, g->player, COMP_PLAYER);
	pl->xp = 900;
	struct score s;
	scores_of(g, 100, &s);
	assert_int_equal(s.level, 1);
	assert_int_equal(s.score, 900);
	struct command c = {.c = CMD_LEVEL_UP, .item = -1, .x = -1, .y = -1, .choice = LEVELUP_POWER};
	game_do(g, &c);
	scores_of(g, 100, &s);
	assert_int_equal(s.level, 2);
	assert_int_equal(pl->xp, 550);
	assert_int_equal(s.score, 900);
	game_do(g, &c);
	scores_of(g, 100, &s);
	assert_int_equal(s.level, 3);
	assert_int_equal(pl->xp, 50);
	assert_int_equal(s.score, 900);
	/* the example of docs/rules.md: level 1, 110 XP, dies on floor 3 */
	pl->xp = 110;
	pl->level = 1;
	g->depth = 3;
	scores_of(g, 100, &s);
	assert_int_equal(s.score, 510);
	/* level 4 with 7 XP on floor 3: 350 + 500 + 650 + 7 + 400 */
	pl->xp = 7;
	pl->level = 4;
	scores_of(g, 100, &s);
	assert_int_equal(s.score, 1907);
	g->depth = 1;
	game_destroy(g);
}

/* A table whose entries are not best first, its end line right (count and
 * CRC32 of what is there): refused, naming the line (dropping the order
 * check left every other test passing). Equal scores in a row are a tie,
 * not out of order. */
static void test_table_out_of_order(void **st)
{
	(void)st;
	char sub[128], why[512];
	snprintf(sub, sizeof sub, "%s/o", dir);
	/* scores_save writes the entries as given, with their end line */
	struct score_table t = { .n = 3 };
	t.e[0] = entry(50, 1);
	t.e[1] = entry(50, 2);
	t.e[2] = entry(10, 3);
	assert_int_equal(scores_save(sub, &t), 0);
	struct score_table u;
	assert_int_equal(scores_load(sub, &u, why, sizeof why), 0);
	assert_int_equal(u.n, 3);
	t.e[2] = entry(51, 3);
	assert_int_equal(scores_save(sub, &t), 0);
	assert_int_equal(scores_load(sub, &u, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, SCORES_FILE ":4: not a high-score entry"));
	assert_int_equal(u.n, 0);
}

/* Issue 18, item 6: a name is kept and printed safely: any bytes in, only
 * printable ASCII out, at most 12 characters. */
static void test_clean_name(void **st)
{
	(void)st;
	static const struct {
		const char *in;
		size_t len;
		const char *out;
	} cases[] = {
		{"Ann", 3, "Ann"},
		{"  Bob  ", 7, "Bob"},
		{"\x1b[31mRed", 8, "[31mRed"},
		{"tab\there\n", 9, "tabhere"},
		{"Jos\xc3\xa9", 5, "Jos??"},
		{"\xff\xfe\x7f", 3, "??"},
		{"a\0hidden", 8, "a"},
		{"Thirteen char", 13, "Thirteen cha"},
		{"%-%", 3, "%-%"},
		{"", 0, ""},
	};
	char out[SCORES_NAME_MAX + 1];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		scores_clean_name(cases[i].in, cases[i].len, out);
		assert_string_equal(out, cases[i].out);
	}
	/* every byte value: printable out */
	char all[256];
	for (int i = 0; i < 256; i++)
		all[i] = (char)(i + 1);
	for (int k = 0; k < 256; k += 12) {
		scores_clean_name(all + k, sizeof all - (size_t)k, out);
		for (char *c = out; *c; c++)
			assert_true(*c >= 0x20 && *c < 0x7F);
	}
}

/* Names in the table: written and read back as given (spaces, '%', '-',
 * none), a version 1 table (no names) still read; a damaged name refused. */
static void test_table_names(void **st)
{
	(void)st;
	char sub[128], path[160], why[512];
	snprintf(sub, sizeof sub, "%s/names", dir);
	assert_int_equal(save_make_dir(sub), 0);
	static const char *names[] = {"Ann Lee", "-", "", "100% sure", "x-y"};
	struct score_table t = {0};
	for (int i = 0; i < 5; i++) {
		struct score s = {.score = 50 - i, .depth = 1, .turns = i, .level = 1, .seed = 1, .when = i};
		snprintf(s.cause, sizeof s.cause, "killed by an orc");
		snprintf(s.name, sizeof s.name, "%s", names[i]);
		scores_insert(&t, &s);
	}
	assert_int_equal(scores_save(sub, &t), 0);
	struct score_table u;
	assert_int_equal(scores_load(sub, &u, why, sizeof why), 0);
	assert_int_equal(u.n, 5);
	for (int i = 0; i < 5; i++) {
		assert_string_equal(u.e[i].name, names[i]);
		assert_string_equal(u.e[i].cause, "killed by an orc");
	}
	/* naming an entry */
	assert_int_equal(scores_set_name(sub, SCORES_FILE, &u.e[2], "Zed\x07"), 2);
	assert_int_equal(scores_load(sub, &u, why, sizeof why), 0);
	assert_string_equal(u.e[2].name, "Zed");
	/* version 1: no names */
	snprintf(path, sizeof path, "%s/%s", sub, SCORES_FILE);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	const char *v1 = "pirogue-scores 1\n120 2 300 2 7 1000 killed by a troll\n";
	fputs(v1, f);
	fprintf(f, "end 1 %08lx\n", (unsigned long)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)v1, (uInt)strlen(v1)));
	fclose(f);
	assert_int_equal(scores_load(sub, &u, why, sizeof why), 0);
	assert_int_equal(u.n, 1);
	assert_string_equal(u.e[0].name, "");
	assert_string_equal(u.e[0].cause, "killed by a troll");
	/* a name word with a bad escape is a damaged table */
	f = fopen(path, "w");
	const char *bad = "pirogue-scores 2\n120 2 300 2 7 1000 A%zz killed by a troll\n";
	fputs(bad, f);
	fprintf(f, "end 1 %08lx\n", (unsigned long)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)bad, (uInt)strlen(bad)));
	fclose(f);
	assert_int_equal(scores_load(sub, &u, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "damaged name"));
	/* a name with escaped control bytes in the file: printable when read */
	f = fopen(path, "w");
	const char *esc = "pirogue-scores 2\n120 2 300 2 7 1000 A%1B%5B2J%FF killed by a troll\n";
	fputs(esc, f);
	fprintf(f, "end 1 %08lx\n", (unsigned long)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)esc, (uInt)strlen(esc)));
	fclose(f);
	assert_int_equal(scores_load(sub, &u, why, sizeof why), 0);
	assert_string_equal(u.e[0].name, "A[2J?");
}

/* The name given after a death: in the morgue file, the table, and offered
 * first next time. */
static void test_set_name(void **st)
{
	(void)st;
	char sub[128], name[4096];
	snprintf(sub, sizeof sub, "%s/named", dir);
	struct game *g = dead_game(3);
	int rank;
	const int64_t when = 1764530000;
	assert_int_equal(morgue_game_over(sub, g, when, name, sizeof name, &rank), 0);
	assert_int_equal(rank, 0);
	assert_null(strstr(slurp(name), "Name:"));
	char last[SCORES_NAME_MAX + 1];
	morgue_last_name(sub, last);
	assert_string_equal(last, "");
	assert_int_equal(morgue_set_name(sub, g, when, "Ann\x1b[1m\n"), 0);
	const char *text = slurp(name);
	assert_non_null(strstr(text, "\nName:      Ann[1m\n"));
	assert_non_null(strstr(text, "Recording: "));
	struct score_table t;
	char why[256];
	assert_int_equal(scores_load(sub, &t, why, sizeof why), 0);
	assert_string_equal(t.e[0].name, "Ann[1m");
	morgue_last_name(sub, last);
	assert_string_equal(last, "Ann[1m");
	game_destroy(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_game_over),
		cmocka_unit_test(test_clean_name),
		cmocka_unit_test(test_table_names),
		cmocka_unit_test(test_set_name),
		cmocka_unit_test(test_end_steps_again),
		cmocka_unit_test(test_morgue_fails),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_damaged_table),
		cmocka_unit_test(test_unreadable_table),
		cmocka_unit_test(test_table_out_of_order),
		cmocka_unit_test(test_score_counts_levels),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
