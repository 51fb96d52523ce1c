/* session: the player's game as it is kept — the state directory, the save (loaded at the start, written on its triggers, deleted when the game ends), the store of its older commands, the --record recording, the morgue file and the high scores (docs/save.md). */
#ifndef PIROGUE_APP_SESSION_H
#define PIROGUE_APP_SESSION_H
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "game/game.h"
#include "save/record.h"
#include "ui/ui.h"

/* Zero with record set is a session that keeps nothing yet. */
struct session {
	const char *record;       /* --record FILE: the first game is recorded, from its seed */
	bool recording_done;      /* ... it has begun (a recording holds one game) */
	struct rec_writer *rec;   /* the recording being written, NULL when none */
	bool saving;              /* state_dir holds the save (session_open found it) */
	int dir_error;            /* state_dir could not be made: why (an errno), said once; 0 otherwise */
	struct histfile *hist;    /* the store of the game's older commands, NULL until a game needs one */
	bool locked;              /* lock_fd holds the state directory's lock */
	int lock_fd;
	/* the wall clock (UTC seconds since the epoch) for the names a game
	 * is kept aside under and the morgue file's date; NULL: time() (a
	 * test gives its own, so that what it checks does not depend on
	 * when or how fast it runs) */
	int64_t (*clock)(void);
	char state_dir[PATH_MAX];
	bool has_now;             /* without clock: now (PIROGUE_NOW, for tests) instead of time() */
	int64_t now;
	int64_t ended_when;       /* the end of the last game ended (its morgue file and score) */
};

/* The time by s's clock (seconds since 1970, UTC): s->clock() when set,
 * else s->now when has_now, else the system's. */
int64_t session_now(const struct session *s);

/* Finds the state directory: opt (--state-dir, NULL: save_state_dir's
 * default); a scripted run (--keys, headless) uses one only when opt names
 * it, so that tests never see or change the player's saves. Without a game
 * in *g (none asked for by --seed) the save is loaded at once: a good one
 * into *g, offered as Continue on ui's title; one holding a finished game
 * (a crash during its end, session_command) has its end done now
 * (morgue_finish: morgue file and score, once; the save deleted), said in
 * ui->notice, *g left NULL (also with --seed, before the new game's save
 * would replace it); a refused one is renamed
 * aside by the loader, logged, and its reason (without the details in
 * parentheses, capitalised) put in ui->notice. Without a state directory
 * the game is played without saving (save_state_dir said why); so it is
 * when the directory cannot be made (said once in the log, and in
 * ui->notice). A game in
 * *g (given or loaded) is given the store of its older commands, an
 * unnamed file in the state directory (histfile), so that playing it
 * allocates nothing at any length; without that file (none can be made,
 * logged) its history stays in memory. A game in *g (--seed) over a save
 * there: the save is renamed aside (pirogue.sav.old-DATE), said in the log
 * and ui->notice. No state directory, or one that cannot be made: said in
 * ui->notice (and ui->status with a game in *g) too. One program at a time
 * plays from a state directory (two would save over each other's game):
 * it is made when missing and locked (flock, released by session_close or
 * the program's end, however it ends). Returns 0, or -EBUSY with nothing
 * loaded after logging one line when another program holds the lock. */
int session_open(struct session *s, const char *opt, bool scripted, struct game **g, struct ui *ui);

/* Starts a new game on *g with seed, mapgen (an enum mapgen_kind) and
 * floors of map_w x map_h (0, 0: the default), destroying the one there
 * unsaved; it is given the store of its older commands (as in
 * session_open); the first game of a --record run is
 * recorded, and a recording ends when the next game starts. Returns 0, or a
 * negative errno having logged one line (then *g is NULL). */
int session_new_game(struct session *s, struct game **g, uint64_t seed, int mapgen, int map_w, int map_h);

/* The daily game (docs/rules.md): today's (by session_now, UTC) seed,
 * classic floors of 80x43, begun as session_new_game does and noted in the
 * state directory (daily_begin), its score kept in the daily table. Once a
 * day per state directory: refused (1, *g untouched) when today's was begun
 * there already, or without a state directory, with one line in
 * ui->notice. Returns 0 (begun), 1 (refused) or -errno (logged). */
int session_daily(struct session *s, struct game **g, struct ui *ui);

/* Continue of g (the loaded game): with --record not yet begun, the
 * recording starts from its seed with the history it has so far. */
void session_continue(struct session *s, const struct game *g);

/* Gives g the command cmd: saved when save_due says so, recorded, and when
 * it ends the game: the finished game saved, the morgue file, the score
 * (its rank in ui->score_rank), the save deleted (morgue_game_over: a
 * crash at any step is finished by the next session_open), the recording
 * closed; ui->
 * can_continue false. Returns what game_do returns (1: a turn passed); 0
 * with nothing done when there is no game or it is over. */
int session_command(struct session *s, struct game *g, struct ui *ui, const struct command *cmd);

/* Saves g when it is in progress (a finished game is not kept); a failure
 * puts one line in ui->status (the log says why). In a state directory
 * that could not be made (session_open logged why, once) it only puts that
 * line in ui->status. */
void session_save(struct session *s, const struct game *g, struct ui *ui);

/* Gives g, the game just ended by session_command, the name in ui->name
 * (morgue_set_name: its morgue file, its score entry, the last name kept);
 * "" gives none. Without a state directory nothing is kept. */
void session_set_name(struct session *s, const struct game *g, const struct ui *ui);

/* The high-score table of the state directory into ui (none without one):
 * the daily games' when ui->scores_daily, else the others'; a refused table
 * is logged and named in ui->status. */
void session_scores(const struct session *s, struct ui *ui);

/* The recording of line i of the table session_scores last put in ui:
 * its path into buf (len bytes) and 0; -1 with the reason in ui->status
 * when there is none. */
int session_recording(const struct session *s, struct ui *ui, int i, char *buf, size_t len);

/* For attract mode: the recording of the k-th best game of the high-score
 * table (0 the best) among those whose recording is kept: its path into
 * buf and 0, or -1 when there are not that many. */
int session_attract(const struct session *s, int k, char *buf, size_t len);

/* Closes the recording and the history's store (it does not save:
 * session_save first; the game must not be saved after it). NULL ok. */
void session_close(struct session *s);

#endif
