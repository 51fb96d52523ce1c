#include "app/session.h"
#include "core/log.h"
#include "game/mapgen.h"
#include "game/serial.h"
#include "save/daily.h"
#include "save/histfile.h"
#include "save/morgue.h"
#include "save/save.h"
#include "save/scores.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

/* Gives g (just made or loaded, the only game of the session) the store of
 * its older commands: the session's history file, emptied. Any failure is
 * logged and leaves g's history in memory, whole. */
static void keep_history(struct session *s, struct game *g)
{
	if (!s->saving || !g)
		return;
	if (!s->hist && histfile_open(&s->hist, s->state_dir))
		return;
	if (histfile_reset(s->hist))
		return;
	struct hist_store st;
	histfile_store(s->hist, &st);
	(void)game_set_history_store(g, &st);
}

/* Makes the state directory and locks it for this program (flock on the
 * directory: the kernel drops it when the program ends, kill -9 included).
 * Returns 0; 1 when it cannot be made or written (said in the log and on
 * ui's title: nothing can be saved there); -EBUSY after one line when another program
 * holds the lock. When the lock cannot be taken at all (a file system
 * without flock, e.g. ENOLCK on NFS) it says so in one line and returns 0:
 * the game plays and saves, unguarded against a second pirogue. */
static int lock_state_dir(struct session *s, struct ui *ui)
{
	int rc = save_make_dir(s->state_dir);
	/* there but not writable (a read-only file system: a card's state
	 * partition remounted read-only after an error, or not mounted under a
	 * read-only root): said now, on the title, not at the first save */
	if (!rc && access(s->state_dir, W_OK | X_OK)) {
		rc = -errno;
		log_error("the state directory %s cannot be written (%s): games are not saved", s->state_dir,
			  strerror(-rc));
	}
	if (rc) {
		s->dir_error = -rc;
		snprintf(ui->notice, sizeof ui->notice, "Games cannot be saved in %.60s: %s.", s->state_dir,
			 strerror(-rc));
		return 1;
	}
	int fd = open(s->state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		if (e != EWOULDBLOCK) {
			log_error("cannot lock %s (%s): playing on, but a second pirogue started on it would not be "
				  "refused; keep to one at a time", s->state_dir, strerror(e));
			return 0;
		}
		log_error("another pirogue is playing from %s (each would save over the other's game): quit it "
			  "first, or give this one --state-dir another directory", s->state_dir);
		return -EBUSY;
	}
	s->lock_fd = fd;
	s->locked = true;
	return 0;
}

int64_t session_now(const struct session *s)
{
	return s->clock ? s->clock() : s->has_now ? s->now : (int64_t)time(NULL);
}

/* A save holding a finished game (pirogue stopped during that game's end,
 * morgue_game_over): its end is done now (morgue file, score, the save
 * deleted; the same ones, not twice), said on ui's title, and *g
 * destroyed. Returns whether *g was such a game. */
static bool finish_ended(struct session *s, struct game **g, struct ui *ui)
{
	if (!*g || !game_is_over(*g))
		return false;
	int64_t when;
	if (save_end_time(s->state_dir, &when))
		when = session_now(s);
	char name[PATH_MAX];
	int rank = -1;
	int rc = morgue_finish(s->state_dir, *g, when, name, sizeof name, &rank);
	log_error("%s/%s: that game had ended when pirogue stopped; its end is done now: morgue file %s, high "
		  "score rank %d%s", s->state_dir, SAVE_FILE, name[0] ? name : "(none)", rank + 1,
		  rc ? " (not all of it could be written)" : "");
	snprintf(ui->notice, sizeof ui->notice, "%s",
		 rc ? "Your last game had ended; its morgue file or score could not all be kept."
		    : "Your last game had ended; its morgue file and score are kept now.");
	game_destroy(*g);
	*g = NULL;
	return true;
}

int session_open(struct session *s, const char *opt, bool scripted, struct game **g, struct ui *ui)
{
	if (scripted && !opt)
		return 0;
	int rc = 1;
	bool named = save_state_dir(opt, s->state_dir, sizeof s->state_dir) == 0;
	if (!named)
		snprintf(ui->notice, sizeof ui->notice, "Games are not saved: no state directory (give --state-dir DIR).");
	else
		rc = lock_state_dir(s, ui);
	if (rc < 0)
		return rc;
	if (rc > 0) {
		/* no directory: said once in the log, which a terminal shows
		 * only at the end, so also now on the title (and over the map of
		 * a --seed game), before anything is played; nothing to load,
		 * and nothing saved: each save says so over the map, not again
		 * in the log */
		if (*g)
			snprintf(ui->status, sizeof ui->status, "%s", ui->notice);
		s->saving = false;
		return 0;
	}
	s->saving = true;
	if (*g) {
		/* --seed: a new game was asked for. A game in progress there is
		 * kept, not replaced by the new one's first save */
		char kept[300], path[PATH_MAX + 16], why[SAVE_WHY_MAX];
		struct game *old = NULL;
		snprintf(path, sizeof path, "%s/%s", s->state_dir, SAVE_FILE);
		if (save_exists(s->state_dir) && save_load_file(path, &old, why, sizeof why) == 0 &&
		    !finish_ended(s, &old, ui))
			game_destroy(old);
		rc = save_exists(s->state_dir)
			     ? save_keep_aside_at(s->state_dir, SAVE_FILE, "old", session_now(s), kept, sizeof kept)
			     : -ENOENT;
		if (rc == 0) {
			log_error("%s/%s: the game in progress there is kept as %s (--seed starts a new game; rename it "
				  "back to %s to continue it)", s->state_dir, SAVE_FILE, kept, SAVE_FILE);
			snprintf(ui->notice, sizeof ui->notice, "Your previous game is kept as %.80s", kept);
		} else if (rc != -ENOENT) {
			log_error("%s/%s: the game in progress there could not be kept aside: this new game is not "
				  "saved over it", s->state_dir, SAVE_FILE);
			/* the log shows only at the end in a terminal: said over the
			 * map too, before anything is played unsaved */
			snprintf(ui->notice, sizeof ui->notice,
				 "This game is not saved: the game in %.60s could not be kept aside.", s->state_dir);
			snprintf(ui->status, sizeof ui->status, "%s", ui->notice);
			s->saving = false;
		}
		keep_history(s, *g);
		return 0;
	}
	char why[SAVE_WHY_MAX];
	morgue_tidy(s->state_dir);
	rc = save_load(s->state_dir, g, why, sizeof why);
	if (rc == 0 && !finish_ended(s, g, ui)) {
		keep_history(s, *g);
		ui->can_continue = true;
		ui->menu_sel = 0;
	} else if (rc != 0 && rc != -ENOENT) {
		log_error("%s/%s: %s", s->state_dir, SAVE_FILE, why);
		/* the title gets it without the details in parentheses (the
		 * log has them), capitalised: "The save is cut short; kept
		 * as pirogue.sav.bad-20261130-202742" */
		size_t n = 0;
		for (const char *p = why; *p && n + 1 < sizeof ui->notice; p++) {
			const char *close = p[0] == ' ' && p[1] == '(' ? strchr(p, ')') : NULL;
			if (close) {
				p = close;
				continue;
			}
			ui->notice[n] = n == 0 && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
			n++;
		}
		ui->notice[n] = 0;
	}
	return 0;
}

int session_new_game(struct session *s, struct game **g, uint64_t seed, int mapgen, int map_w, int map_h)
{
	game_destroy(*g);
	*g = NULL;
	struct game_opts o = { .seed = seed, .mapgen = mapgen, .map_w = map_w, .map_h = map_h };
	int rc = game_create(g, &o);
	if (rc) {
		*g = NULL;
		log_error("cannot start a new game (%s)", strerror(-rc));
		return rc;
	}
	log_info("new game, seed %llu", (unsigned long long)seed);
	keep_history(s, *g);
	if (s->record && !s->recording_done) {
		s->recording_done = true;
		return rec_writer_open_opts(&s->rec, s->record, &o);
	}
	if (s->rec) {
		/* a recording holds one game: the next one is not recorded */
		rec_writer_close(s->rec);
		s->rec = NULL;
	}
	return 0;
}

int session_daily(struct session *s, struct game **g, struct ui *ui)
{
	struct daily_date d = daily_of_time(session_now(s));
	char ds[16];
	daily_format(d, ds, sizeof ds);
	if (!s->saving) {
		snprintf(ui->notice, sizeof ui->notice, "The daily game needs a state directory to keep its one attempt.");
		return 1;
	}
	if (daily_attempted(s->state_dir, d)) {
		snprintf(ui->notice, sizeof ui->notice, "Today's daily game (%s) was played here already: come back tomorrow.",
			 ds);
		return 1;
	}
	int rc = daily_begin(s->state_dir, d);
	if (rc) {
		snprintf(ui->notice, sizeof ui->notice, "The daily game cannot be noted in %.60s: %s.", s->state_dir,
			 strerror(-rc));
		return 1;
	}
	log_info("the daily game of %s", ds);
	return session_new_game(s, g, daily_seed(d), MAPGEN_CLASSIC, 0, 0);
}

void session_continue(struct session *s, const struct game *g)
{
	if (!s->record || s->recording_done || !g)
		return;
	/* --record and a game from the save: recorded from its seed */
	struct game_opts o;
	game_opts_of(g, &o);
	s->recording_done = true;
	if (rec_writer_open_opts(&s->rec, s->record, &o) == 0 &&
	    rec_writer_history(s->rec, g, 1)) {
		rec_writer_close(s->rec);
		s->rec = NULL;
	}
}

void session_save(struct session *s, const struct game *g, struct ui *ui)
{
	int rc;
	if (!s->saving && s->dir_error && g && !game_is_over(g))
		snprintf(ui->status, sizeof ui->status, "The game could not be saved in %.60s: %s.", s->state_dir,
			 strerror(s->dir_error));
	else if (s->saving && g && !game_is_over(g) && (rc = save_game(s->state_dir, g)))
		snprintf(ui->status, sizeof ui->status, "The game could not be saved in %.60s: %s.", s->state_dir,
			 strerror(rc < 0 ? -rc : rc));
}

/* The game has ended: saved as finished, its morgue file and recording,
 * its score (its rank for the high-score screen); then the save is deleted
 * (permadeath; morgue_game_over: a crash on the way is finished by the
 * next start, finish_ended). */
static void game_ended(struct session *s, const struct game *g, struct ui *ui)
{
	ui->can_continue = false;
	ui->score_rank = -1;
	ui->name_pending = false;
	if (s->saving) {
		char name[PATH_MAX];
		int rank = -1;
		s->ended_when = session_now(s);
		if (morgue_game_over(s->state_dir, g, s->ended_when, name, sizeof name, &rank) == 0)
			log_info("morgue file %s, high score rank %d", name, rank + 1);
		ui->score_rank = rank >= 0 ? rank : -1;
		ui->watch = rank >= 0 ? rank : 0;
		/* a new high score asks for a name: the last one given first */
		ui->name_pending = rank >= 0;
		_Static_assert(UI_NAME_MAX == SCORES_NAME_MAX, "the name screen holds a table's name");
		ui->scores_daily = !strcmp(morgue_table(s->state_dir, g), SCORES_DAILY_FILE);
		morgue_last_name(s->state_dir, ui->name);
	}
	if (s->rec) {
		rec_writer_close(s->rec);
		s->rec = NULL;
	}
}

int session_command(struct session *s, struct game *g, struct ui *ui, const struct command *cmd)
{
	if (!g || game_is_over(g))
		return 0;
	int turn0 = game_turn(g), depth0 = game_depth(g);
	int turn = game_do(g, cmd);
	if (save_due(turn0, depth0, game_turn(g), game_depth(g)))
		session_save(s, g, ui);
	if (s->rec)
		rec_writer_command(s->rec, cmd, game_turn(g), game_checksum(g));
	if (game_is_over(g))
		game_ended(s, g, ui);
	return turn;
}

void session_set_name(struct session *s, const struct game *g, const struct ui *ui)
{
	if (s->saving && g && game_is_over(g))
		(void)morgue_set_name(s->state_dir, g, s->ended_when, ui->name); /* logged */
}

void session_scores(const struct session *s, struct ui *ui)
{
	ui->nscores = 0;
	if (!s->saving)
		return;
	struct score_table t;
	char why[256];
	if (scores_load_file(s->state_dir, ui->scores_daily ? SCORES_DAILY_FILE : SCORES_FILE, &t, why, sizeof why)) {
		log_error("%s", why);
		snprintf(ui->status, sizeof ui->status, "%.*s", (int)sizeof ui->status - 1, why);
	}
	for (int i = 0; i < t.n && i < UI_SCORES_MAX; i++) {
		struct ui_score *sc = &ui->scores[i];
		sc->score = t.e[i].score;
		sc->depth = t.e[i].depth;
		sc->turns = t.e[i].turns;
		sc->level = t.e[i].level;
		snprintf(sc->cause, sizeof sc->cause, "%s", t.e[i].cause);
		snprintf(sc->name, sizeof sc->name, "%s", t.e[i].name);
		char rec[PATH_MAX];
		sc->watchable = morgue_rec_path(s->state_dir, t.e[i].seed, t.e[i].when, rec, sizeof rec) == 0 &&
				access(rec, R_OK) == 0;
		ui->nscores = i + 1;
	}
}

int session_recording(const struct session *s, struct ui *ui, int i, char *buf, size_t len)
{
	struct score_table t;
	char why[256];
	if (!s->saving ||
	    scores_load_file(s->state_dir, ui->scores_daily ? SCORES_DAILY_FILE : SCORES_FILE, &t, why, sizeof why) ||
	    i < 0 || i >= t.n || morgue_rec_path(s->state_dir, t.e[i].seed, t.e[i].when, buf, len) ||
	    access(buf, R_OK) != 0) {
		snprintf(ui->status, sizeof ui->status, "No recording of that game is kept.");
		return -1;
	}
	return 0;
}

int session_attract(const struct session *s, int k, char *buf, size_t len)
{
	struct score_table t;
	char why[256];
	if (!s->saving || k < 0 || scores_load(s->state_dir, &t, why, sizeof why))
		return -1;
	for (int i = 0; i < t.n; i++)
		if (morgue_rec_path(s->state_dir, t.e[i].seed, t.e[i].when, buf, len) == 0 && access(buf, R_OK) == 0 &&
		    k-- == 0)
			return 0;
	return -1;
}

void session_close(struct session *s)
{
	if (!s)
		return;
	rec_writer_close(s->rec);
	s->rec = NULL;
	histfile_close(s->hist);
	s->hist = NULL;
	if (s->locked)
		close(s->lock_fd);
	s->locked = false;
}
