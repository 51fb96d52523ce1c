/* view: a recording's commands, the game they make, snapshots every N turns. */
#include "app/view.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/serial.h"
#include "save/record.h"

struct snap {
	size_t at;  /* commands played when it was taken */
	int turn;
	struct serial_buf data;
};

struct view {
	struct recording rec;
	struct game_opts opts;
	struct game *g;
	size_t at;
	int every;
	struct snap *snaps;
	size_t nsnaps, capsnaps;
	int end_turn;
};

static int snap_add(struct view *v)
{
	if (v->nsnaps == v->capsnaps) {
		size_t n = v->capsnaps ? v->capsnaps * 2 : 16;
		struct snap *s = realloc(v->snaps, n * sizeof *s);
		if (!s)
			return -ENOMEM;
		v->snaps = s;
		v->capsnaps = n;
	}
	struct snap *s = &v->snaps[v->nsnaps];
	*s = (struct snap){.at = v->at, .turn = game_turn(v->g)};
	int rc = game_encode(v->g, &s->data);
	if (rc) {
		free(s->data.data);
		return rc;
	}
	v->nsnaps++;
	return 0;
}

static int fresh_game(struct view *v, struct game **out)
{
	return game_create(out, &v->opts);
}

void view_close(struct view *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->nsnaps; i++)
		free(v->snaps[i].data.data);
	free(v->snaps);
	game_destroy(v->g);
	rec_free(&v->rec);
	free(v);
}

int view_open(struct view **out, const char *path, int every, char *err, size_t errlen)
{
	*out = NULL;
	struct view *v = calloc(1, sizeof *v);
	if (!v) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	v->every = every > 0 ? every : VIEW_EVERY;
	int rc = rec_load(path, &v->rec, err, errlen);
	if (rc)
		goto fail;
	v->opts = (struct game_opts){.seed = v->rec.seed, .map_w = v->rec.map_w, .map_h = v->rec.map_h,
				     .stacks_from = v->rec.stacks_from};
	if (mapgen_parse(v->rec.mapgen, &v->opts.mapgen)) {
		snprintf(err, errlen, "%s: unknown map generator '%s'", path, v->rec.mapgen);
		rc = -EINVAL;
		goto fail;
	}
	if ((rc = fresh_game(v, &v->g))) {
		snprintf(err, errlen, "%s: cannot create the game (%s)", path, strerror(-rc));
		goto fail;
	}
	/* the whole recording once: checked as --replay checks it, a snapshot
	 * at its start and every `every` turns */
	if ((rc = snap_add(v)))
		goto oom;
	int next = v->every;
	for (size_t i = 0; i < v->rec.nsteps; i++) {
		const struct rec_step *s = &v->rec.steps[i];
		game_do(v->g, &s->cmd);
		v->at++;
		uint64_t sum = s->has_sum ? game_checksum(v->g) : 0;
		if (game_turn(v->g) != s->turn || sum != s->checksum) {
			snprintf(err, errlen, "%s:%d: the recording does not replay: it diverged at turn %d", path, s->line,
				 game_turn(v->g));
			rc = -EINVAL;
			goto fail;
		}
		if (game_turn(v->g) >= next) {
			if ((rc = snap_add(v)))
				goto oom;
			next = game_turn(v->g) + v->every;
		}
	}
	if (v->rec.version >= 2 && (game_turn(v->g) != v->rec.end_turn ||
				    (v->rec.end_has_sum && game_checksum(v->g) != v->rec.end_sum))) {
		snprintf(err, errlen, "%s: the recording does not replay: it diverged at its end (turn %d)", path,
			 game_turn(v->g));
		rc = -EINVAL;
		goto fail;
	}
	v->end_turn = game_turn(v->g);
	/* back to the start */
	game_destroy(v->g);
	v->g = NULL;
	v->at = 0;
	if ((rc = fresh_game(v, &v->g)))
		goto oom;
	*out = v;
	return 0;
oom:
	snprintf(err, errlen, "%s: out of memory", path);
fail:
	view_close(v);
	return rc;
}

const struct game *view_game(const struct view *v)
{
	return v->g;
}

size_t view_at(const struct view *v)
{
	return v->at;
}

size_t view_count(const struct view *v)
{
	return v->rec.nsteps;
}

int view_turn(const struct view *v)
{
	return game_turn(v->g);
}

int view_end_turn(const struct view *v)
{
	return v->end_turn;
}

size_t view_snapshots(const struct view *v)
{
	return v->nsnaps;
}

bool view_step(struct view *v)
{
	if (v->at >= v->rec.nsteps)
		return false;
	game_do(v->g, &v->rec.steps[v->at].cmd);
	v->at++;
	return true;
}

long view_seek(struct view *v, size_t k)
{
	if (k > v->rec.nsteps)
		k = v->rec.nsteps;
	/* the last snapshot at or before k */
	size_t best = 0;
	for (size_t i = 0; i < v->nsnaps; i++)
		if (v->snaps[i].at <= k)
			best = i;
	long played = 0;
	if (!(v->at <= k && v->at >= v->snaps[best].at)) {
		struct game *g;
		char why[256];
		const struct snap *s = &v->snaps[best];
		int rc = game_decode(&g, s->data.data, s->data.len, why, sizeof why);
		if (rc)
			return rc;
		game_destroy(v->g);
		v->g = g;
		v->at = s->at;
	}
	while (v->at < k && view_step(v))
		played++;
	return played;
}

long view_seek_turn(struct view *v, int turn)
{
	/* the recording's turns only grow: the first command reaching it */
	size_t lo = 0, hi = v->rec.nsteps;
	if (turn <= 0)
		return view_seek(v, 0);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v->rec.steps[mid].turn >= turn)
			hi = mid;
		else
			lo = mid + 1;
	}
	return view_seek(v, lo < v->rec.nsteps ? lo + 1 : v->rec.nsteps);
}
