/* morgue: the morgue file's text, its recording, the score, permadeath. */
#include "save/morgue.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/log.h"
#include "core/utf8.h"
#include "game/content.h"
#include "game/map.h"
#include "game/serial.h"
#include "save/daily.h"
#include "save/record.h"
#include "save/save.h"
#include "save/scores.h"


struct text {
	char *buf;
	size_t len, used; /* used may pass len: what the whole text needs */
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = t->used < t->len ? t->len - t->used : 0;
	int n = vsnprintf(room ? t->buf + t->used : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->used += (size_t)n;
}

/* when as "2026-11-30 20:15:00 UTC", or "20261130-201500" for file names. */
static void stamp(int64_t when, bool file, char *buf, size_t len)
{
	time_t tt = (time_t)when;
	struct tm tm;
	size_t n = 0;
	if (gmtime_r(&tt, &tm))
		n = file ? strftime(buf, len, "%Y%m%d-%H%M%S", &tm) : strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
	if (!n)
		snprintf(buf, len, "%" PRId64, when);
}

static void map_text(struct text *t, const struct game *g)
{
	const struct map *m = game_map(g);
	int px, py;
	game_player_pos(g, &px, &py);
	static const char tiles[] = {[TILE_WALL] = '#', [TILE_FLOOR] = '.', [TILE_STAIRS_DOWN] = '>',
				     [TILE_STAIRS_UP] = '<'};
	/* what is drawn over the map, by cell (the highest layer wins) */
	uint32_t over[MORGUE_MAP_H][MORGUE_MAP_W] = {{0}};
	enum { MAXD = 1024 };
	struct drawable *d = malloc(MAXD * sizeof(*d));
	int nd = d ? game_drawables(g, d, MAXD) : 0;
	int x0 = px - MORGUE_MAP_W / 2, y0 = py - MORGUE_MAP_H / 2;
	for (int i = 0; i < nd; i++) {
		int cx = d[i].x - x0, cy = d[i].y - y0;
		if (cx >= 0 && cy >= 0 && cx < MORGUE_MAP_W && cy < MORGUE_MAP_H)
			over[cy][cx] = d[i].glyph;
	}
	free(d);
	for (int cy = 0; cy < MORGUE_MAP_H; cy++) {
		char line[MORGUE_MAP_W * 4 + 1];
		size_t n = 0;
		for (int cx = 0; cx < MORGUE_MAP_W; cx++) {
			int x = x0 + cx, y = y0 + cy;
			uint32_t cp = ' ';
			if (map_in(m, x, y) && m->explored[y * m->w + x]) {
				int tile = map_tile(m, x, y);
				cp = (unsigned)tile < sizeof tiles ? (uint32_t)tiles[tile] : '?';
			}
			if (over[cy][cx])
				cp = over[cy][cx];
			n += utf8_encode(cp, line + n);
		}
		while (n > 0 && line[n - 1] == ' ')
			n--;
		line[n] = 0;
		put(t, "  %s\n", line);
	}
}

size_t morgue_text(const struct game *g, int64_t when, const char *recording, char *buf, size_t len)
{
	return morgue_text_named(g, when, recording, NULL, buf, len);
}

size_t morgue_text_named(const struct game *g, int64_t when, const char *recording, const char *player, char *buf,
			 size_t len)
{
	struct text t = {buf, len, 0};
	if (len)
		buf[0] = 0;
	struct game_stats s;
	game_stats(g, &s);
	struct game_opts o;
	game_opts_of(g, &o);
	struct score sc;
	scores_of(g, when, &sc);
	char date[64];
	stamp(when, false, date, sizeof date);
	const char *cause = game_death_cause(g);
	put(&t, "pirogue morgue file\n\n");
	if (player && player[0]) {
		char clean[SCORES_NAME_MAX + 1];
		scores_clean_name(player, strlen(player), clean);
		put(&t, "Name:      %s\n", clean);
	}
	put(&t, "Game:      seed %" PRIu64 ", %s dungeon (pirogue --seed %" PRIu64 "%s%s)\n", o.seed,
	    mapgen_name(o.mapgen), o.seed, o.mapgen == MAPGEN_CLASSIC ? "" : " --mapgen ",
	    o.mapgen == MAPGEN_CLASSIC ? "" : mapgen_name(o.mapgen));
	put(&t, "Ended:     %s\n", date);
	put(&t, "Fate:      %s\n", cause[0] ? cause : game_is_over(g) ? "died" : "left the dungeon alive");
	put(&t, "Depth:     dungeon level %d\n", s.depth);
	put(&t, "Turns:     %d\n", s.turn);
	put(&t, "Level:     %d (XP %d of %d for the next)\n", s.level, s.xp, s.xp_next);
	put(&t, "HP:        %d/%d\n", s.hp, s.max_hp);
	put(&t, "Power:     %d (base %d)\n", s.power, s.base_power);
	put(&t, "Defence:   %d (base %d)\n", s.defense, s.base_defense);
	put(&t, "Score:     %ld\n", sc.score);
	if (recording)
		put(&t, "Recording: %s (pirogue --view FILE watches it, --replay FILE checks it)\n", recording);

	put(&t, "\nKills\n");
	int total = 0;
	for (int k = 0; k < ACTOR_COUNT; k++) {
		int n = game_kills(g, k);
		if (n > 0)
			put(&t, "  %-16s %4d\n", content_actor_name(k), n);
		total += n;
	}
	put(&t, total ? "  %-16s %4d\n" : "  none\n", "total", total);

	put(&t, "\nInventory and equipment\n");
	struct game_item_view items[26];
	int ni = game_inventory(g, items, 26);
	for (int i = 0; i < ni; i++)
		put(&t, "  %c) %s%s\n", 'a' + items[i].slot, items[i].label, items[i].equipped ? " (E)" : "");
	if (ni == 0)
		put(&t, "  nothing\n");

	int nm = game_msg_count(g);
	int first = nm > MORGUE_MESSAGES ? nm - MORGUE_MESSAGES : 0;
	put(&t, "\nLast messages\n");
	for (int i = first; i < nm; i++) {
		char line[160];
		put(&t, "  %s\n", game_msg_format(game_msg_get(g, i), line, sizeof line));
	}

	put(&t, "\nAround the player (dungeon level %d)\n", s.depth);
	map_text(&t, g);
	return t.used;
}

/* dir/morgue/morgue-DATE-SEED plus ext. */
static int name_of(const char *dir, uint64_t seed, int64_t when, const char *ext, char *buf, size_t len)
{
	char date[32];
	stamp(when, true, date, sizeof date);
	int n = snprintf(buf, len, "%s/%s/morgue-%s-%" PRIu64 "%s", dir, MORGUE_DIR, date, seed, ext);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int morgue_name(const char *dir, const struct game *g, int64_t when, const char *ext, char *buf, size_t len)
{
	return name_of(dir, game_seed(g), when, ext, buf, len);
}

int morgue_rec_path(const char *dir, uint64_t seed, int64_t when, char *buf, size_t len)
{
	return name_of(dir, seed, when, ".rec", buf, len);
}

/* Writes the morgue text of g (with the player's name, may be NULL) as
 * txt in mdir, naming the recording recbase (NULL: none). */
static int write_text(const char *mdir, const char *txt, const struct game *g, int64_t when, const char *recbase,
		      const char *player)
{
	size_t need = morgue_text_named(g, when, recbase, player, NULL, 0) + 1;
	char *text = malloc(need);
	if (!text) {
		log_error("cannot write the morgue file %s: out of memory", txt);
		return -ENOMEM;
	}
	morgue_text_named(g, when, recbase, player, text, need);
	int rc = save_write_atomic(mdir, strrchr(txt, '/') + 1, text, need - 1);
	free(text);
	return rc;
}

/* The morgue file and its recording; name gets the file's path. Returns 0
 * or the first -errno (each logged). */
static int morgue_files(const char *dir, const struct game *g, int64_t when, char *name, size_t namelen)
{
	char mdir[4096], txt[4096], rec[4096];
	if (snprintf(mdir, sizeof mdir, "%s/%s", dir, MORGUE_DIR) >= (int)sizeof mdir ||
	    morgue_name(dir, g, when, ".txt", txt, sizeof txt) || morgue_name(dir, g, when, ".rec", rec, sizeof rec)) {
		log_error("cannot write a morgue file in %s: path too long", dir);
		return -ENAMETOOLONG;
	}
	int rc = save_make_dir(mdir);
	if (rc)
		return rc;
	/* the recording first: the morgue file names it */
	int rrc = rec_write_history(rec, g, MORGUE_REC_SUM_EVERY);
	const char *recbase = rrc ? NULL : strrchr(rec, '/') + 1;
	rc = write_text(mdir, txt, g, when, recbase, NULL);
	if (rc)
		return rc;
	if (namelen)
		snprintf(name, namelen, "%s", txt);
	return rrc;
}

int morgue_write_files(const char *dir, const struct game *g, int64_t when, char *name, size_t namelen)
{
	if (namelen)
		name[0] = 0;
	return morgue_files(dir, g, when, name, namelen);
}

const char *morgue_table(const char *dir, const struct game *g)
{
	return daily_is(dir, game_seed(g)) ? SCORES_DAILY_FILE : SCORES_FILE;
}

int morgue_add_score(const char *dir, const struct game *g, int64_t when)
{
	struct score sc;
	scores_of(g, when, &sc);
	struct score_table t;
	char why[256];
	const char *table = morgue_table(dir, g);
	/* already there: added before a crash that kept the save */
	if (scores_load_file(dir, table, &t, why, sizeof why) == 0) {
		int i = scores_find(&t, &sc);
		if (i >= 0)
			return i;
	}
	return scores_add_file(dir, table, &sc);
}

int morgue_set_name(const char *dir, const struct game *g, int64_t when, const char *name)
{
	char clean[SCORES_NAME_MAX + 1];
	scores_clean_name(name, strlen(name), clean);
	char mdir[4096], txt[4096], rec[4096];
	if (snprintf(mdir, sizeof mdir, "%s/%s", dir, MORGUE_DIR) >= (int)sizeof mdir ||
	    morgue_name(dir, g, when, ".txt", txt, sizeof txt) || morgue_name(dir, g, when, ".rec", rec, sizeof rec)) {
		log_error("cannot name the morgue file in %s: path too long", dir);
		return -ENAMETOOLONG;
	}
	/* the last name, offered first next time */
	char line[SCORES_NAME_MAX + 2];
	int n = snprintf(line, sizeof line, "%s\n", clean);
	int rc = save_write_atomic(dir, MORGUE_NAME_FILE, line, (size_t)n);
	FILE *f = fopen(rec, "r");
	if (f)
		fclose(f);
	int trc = write_text(mdir, txt, g, when, f ? strrchr(rec, '/') + 1 : NULL, clean);
	struct score sc;
	scores_of(g, when, &sc);
	int src = scores_set_name(dir, morgue_table(dir, g), &sc, clean);
	return trc ? trc : src < -1 ? src : rc;
}

void morgue_last_name(const char *dir, char *out)
{
	char path[4096], line[256];
	out[0] = 0;
	if (snprintf(path, sizeof path, "%s/%s", dir, MORGUE_NAME_FILE) >= (int)sizeof path)
		return;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(line, sizeof line, f))
		scores_clean_name(line, strlen(line), out);
	fclose(f);
}

int morgue_finish(const char *dir, const struct game *g, int64_t when, char *name, size_t namelen, int *rank)
{
	*rank = -1;
	int rc = morgue_write_files(dir, g, when, name, namelen);
	int r = morgue_add_score(dir, g, when);
	if (r >= 0)
		*rank = r;
	int drc = save_delete(dir); /* last, and whatever failed before */
	return rc ? rc : r < -1 ? r : drc;
}

int morgue_game_over(const char *dir, const struct game *g, int64_t when, char *name, size_t namelen, int *rank)
{
	/* first the finished game over the living one's last save (a failure
	 * is logged: the end goes on as before, the save deleted last) */
	(void)save_game_ended(dir, g, when);
	return morgue_finish(dir, g, when, name, namelen, rank);
}

void morgue_tidy(const char *dir)
{
	char mdir[4096];
	if (snprintf(mdir, sizeof mdir, "%s/%s", dir, MORGUE_DIR) < (int)sizeof mdir)
		save_remove_temps(mdir);
}
