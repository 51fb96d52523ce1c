/* bench_save: save + load of a 10-floor game (encode, atomic write with fsync, read, decode) against a plain write and read of the same bytes; and the morgue's recording of a long game. */
#include "bench.h"
#include "benchrun.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game/serial.h"
#include "game/world.h"
#include "save/histfile.h"
#include "save/morgue.h"
#include "save/record.h"
#include "save/save.h"

#define REPS 25
#define TARGET_MS 20.0
#define TARGET_AUTOSAVE_IR 300000L

static volatile unsigned sink;

/* A game with floors 1..10 generated and populated, the player on the
 * tenth after a few hundred turns there. */
static struct game *ten_floors(void)
{
	struct game *g;
	struct game_opts o = {.seed = 2024, .mapgen = MAPGEN_CLASSIC};
	if (game_create(&g, &o))
		exit(1);
	for (int d = 2; d <= 10; d++)
		if (world_generate_floor(g, d))
			exit(1);
	const struct map *m = world_floor(g, 10);
	world_put_player(g, 10, m->up_x, m->up_y);
	world_refresh_view(g);
	for (int i = 0; i < 300 && !game_is_over(g); i++)
		game_apply(g, (enum cmd)(CMD_MOVE_N + (i * 7 % 8)));
	return g;
}

static void plain_write(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		exit(1);
}

static void plain_write_fsync(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len || fsync(fd) || close(fd))
		exit(1);
}

static size_t plain_read(const char *path, unsigned char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		exit(1);
	size_t n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

/* Save + load of g in dir REPS times; prints the figures with where. */
static double measure(const char *dir, const char *where, struct game *g, const struct serial_buf *b)
{
	unsigned char *copy = malloc(b->len + 1);
	char plain[128], why[SAVE_WHY_MAX];
	snprintf(plain, sizeof plain, "%s/plain", dir);
	double t_save[REPS], t_load[REPS], t_enc[REPS], t_dec[REPS], t_plain[REPS], t_total[REPS], t_sync[REPS];
	for (int r = 0; r < REPS; r++) {
		double t0 = bench_now();
		if (save_game(dir, g))
			exit(1);
		double t1 = bench_now();
		struct game *h;
		if (save_load(dir, &h, why, sizeof why)) {
			fprintf(stderr, "bench_save: %s\n", why);
			exit(1);
		}
		double t2 = bench_now();
		if (game_checksum(h) != game_checksum(g))
			exit(1);
		game_destroy(h);
		/* the parts: encoding and decoding alone */
		double t3 = bench_now();
		struct serial_buf e = {0};
		if (save_encode(g, &e))
			exit(1);
		double t4 = bench_now();
		if (save_decode(e.data, e.len, &h, why, sizeof why))
			exit(1);
		double t5 = bench_now();
		game_destroy(h);
		free(e.data);
		/* baselines: the same bytes written and read back plainly (no
		 * temporary file, no fsync, no encoding); written with one fsync */
		double t6 = bench_now();
		plain_write(plain, b->data, b->len);
		sink += (unsigned)plain_read(plain, copy, b->len + 1);
		double t7 = bench_now();
		plain_write_fsync(plain, b->data, b->len);
		double t8 = bench_now();
		t_save[r] = (t1 - t0) * 1e3;
		t_load[r] = (t2 - t1) * 1e3;
		t_total[r] = (t2 - t0) * 1e3;
		t_enc[r] = (t4 - t3) * 1e3;
		t_dec[r] = (t5 - t4) * 1e3;
		t_plain[r] = (t7 - t6) * 1e3;
		t_sync[r] = (t8 - t7) * 1e3;
	}
	free(copy);
	struct bench_stat save = bench_summarise(t_save, REPS), load = bench_summarise(t_load, REPS);
	struct bench_stat total = bench_summarise(t_total, REPS), enc = bench_summarise(t_enc, REPS);
	struct bench_stat dec = bench_summarise(t_dec, REPS), pl = bench_summarise(t_plain, REPS);
	struct bench_stat sy = bench_summarise(t_sync, REPS);
	printf("-- in %s (%s)\n", dir, where);
	printf("save (encode + temp file + fsync + rename + fsync dir): median %.2f ms (best %.2f)\n", save.median,
	       save.best);
	printf("load (read + checks + decode):                          median %.2f ms (best %.2f)\n", load.median,
	       load.best);
	printf("  of which encode %.2f ms, decode %.2f ms (medians)\n", enc.median, dec.median);
	printf("baseline, plain write + read of the same bytes:         median %.2f ms\n", pl.median);
	printf("baseline, plain write + one fsync (the device's cost):  median %.2f ms\n", sy.median);
	printf("save + load: median %.2f ms = %.1fx the plain write + read, %.1fx the write with one fsync\n",
	       total.median, total.median / (pl.median > 0 ? pl.median : 1e-9),
	       total.median / (sy.median > 0 ? sy.median : 1e-9));
	return total.median;
}

/* One floor of n commands (moves and waits, a player who cannot die) on
 * seed 5, the history given st (NULL: none); *ms: how long they took. */
static struct game *long_floor(const struct hist_store *st, int n, double *ms)
{
	struct game *g;
	struct game_opts o = {.seed = 5, .mapgen = MAPGEN_CLASSIC};
	if (game_create(&g, &o) || (st && game_set_history_store(g, st)))
		exit(1);
	((struct c_actor *)ecs_get_mut(g->w, g->player, COMP_ACTOR))->defense = 1000;
	static const enum cmd moves[] = {CMD_MOVE_N, CMD_MOVE_E, CMD_MOVE_S, CMD_MOVE_W, CMD_WAIT};
	double t0 = bench_now();
	for (int i = 0; i < n; i++)
		game_apply(g, moves[(i * 7 + i / 5) % 5]);
	*ms = (bench_now() - t0) * 1e3;
	return g;
}

/* The median of REPS encodings of g, in ms. */
static double encode_ms(const struct game *g)
{
	double t[REPS];
	for (int r = 0; r < REPS; r++) {
		struct serial_buf e = {0};
		double t0 = bench_now();
		if (game_encode(g, &e))
			exit(1);
		t[r] = (bench_now() - t0) * 1e3;
		sink += (unsigned)e.len;
		free(e.data);
	}
	return bench_summarise(t, REPS).median;
}

/* The command history of one long floor: with the history file (in dir,
 * the app's store) against the whole history in memory (no store), in the
 * same run: the memory it holds, the play, a save's encoding. */
static void history_figures(const char *dir)
{
	enum { N = 100000 };
	struct histfile *hf;
	if (histfile_open(&hf, dir))
		exit(1);
	struct hist_store st;
	histfile_store(hf, &st);
	double play_f, play_m;
	struct game *f = long_floor(&st, N, &play_f), *m = long_floor(NULL, N, &play_m);
	if (game_checksum(f) != game_checksum(m))
		exit(1);
	const struct history *hf_h = game_history(f), *hm_h = game_history(m);
	printf("history of a floor of %d commands: %d KB in memory with the history file (%d commands in it), "
	       "%d KB without (ratio %.3f)\n",
	       N, hf_h->cap * HIST_RECORD / 1024, hf_h->stored, hm_h->cap * HIST_RECORD / 1024,
	       (double)hf_h->cap / hm_h->cap);
	printf("  playing them: %.0f ms with the file, %.0f ms without (ratio %.3f)\n", play_f, play_m,
	       play_f / play_m);
	double ef = encode_ms(f), em = encode_ms(m);
	printf("  encoding the save (%d commands of history read back in chunks): %.2f ms from the file, %.2f ms "
	       "from memory (ratio %.2f)\n",
	       N, ef, em, ef / em);
	game_destroy(f);
	game_destroy(m);
	histfile_close(hf);
}

/* An autosave as the game makes one: the 10-floor game saved, 100 more
 * turns played (SAVE_EVERY_TURNS), saved again into the same directory.
 * measure: 1 under make bench-ir (both saves dumped, bench_ir_stop), 2
 * under the callgrind bench_ir_exec starts with collection off (the second
 * save alone collected). */
static int autosave_ir(int measure)
{
	char dir[] = "/tmp/pirogue-bench-autosave-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	struct game *g = ten_floors();
	if (measure == 1)
		bench_ir_start();
	if (save_game(dir, g))
		return 1;
	if (measure == 1)
		bench_ir_stop("the first save of the run (nothing kept from a save before: every chunk summed)",
			      "pirogue", 1, 0);
	for (int i = 0; i < SAVE_EVERY_TURNS && !game_is_over(g); i++)
		game_apply(g, (enum cmd)(CMD_MOVE_N + (i * 3 % 8)));
	if (measure == 1)
		bench_ir_start();
	else
		CALLGRIND_TOGGLE_COLLECT;
	int rc = save_game(dir, g);
	if (measure == 1)
		bench_ir_stop("an autosave of a 10-floor game, 100 turns after the last (encode, temp file, fsync, "
			      "rename, fsync dir)", "pirogue", 1, TARGET_AUTOSAVE_IR);
	else
		CALLGRIND_TOGGLE_COLLECT;
	game_destroy(g);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return rc || system(cmd) ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--autosave-ir"))
		return autosave_ir(2);
	if (bench_ir_mode(argc, argv))
		return autosave_ir(1); /* the timings below mean nothing under valgrind */
	char self[PATH_MAX];
	const char *sv[] = { self, "--autosave-ir", NULL };
	long ir = bench_self(self, sizeof self) ? -1 : bench_ir_exec(sv, 0, NULL, "--collect-atstart=no");
	if (ir < 0)
		printf("autosave: bench_save --autosave-ir did not run under valgrind (make deps installs it)\n");
	else
		printf("autosave of a 10-floor game, 100 turns after the last: %ld instructions (callgrind, this run); "
		       "target <= %ld: %s\n", ir, TARGET_AUTOSAVE_IR, bench_met(ir <= TARGET_AUTOSAVE_IR));
	struct game *g = ten_floors();
	struct serial_buf b = {0};
	if (save_encode(g, &b))
		return 1;
	printf("save file of a 10-floor game: %zu bytes, %u entities, %d commands of history\n", b.len,
	       ecs_count(g->w), hist_count(game_history(g)));
	char dir[] = "/tmp/pirogue-bench-save-XXXXXX";
	char shm[] = "/dev/shm/pirogue-bench-save-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	double disk = measure(dir, "this machine's /tmp: its device's flush included", g, &b);
	if (mkdtemp(shm)) {
		double mem = measure(shm, "memory: pirogue's own work, no device latency", g, &b);
		printf("save + load of a 10-floor game: %.2f ms in memory, target < %.0f ms: %s "
		       "(on /tmp's device: %.2f ms, %s; most of it the device's fsync; the save + load medians above, "
		       "this run)\n",
		       mem, TARGET_MS, bench_met(mem < TARGET_MS), disk, bench_met(disk < TARGET_MS));
		char cmd[128];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", shm);
		if (system(cmd))
			return 1;
	} else {
		printf("save + load of a 10-floor game: %.2f ms, target < %.0f ms: %s (the save + load median above, this "
		       "run)\n", disk, TARGET_MS,
		       bench_met(disk < TARGET_MS));
	}

	/* the morgue's recording: the whole history replayed with a checksum
	 * after every command */
	char rec[128];
	snprintf(rec, sizeof rec, "%s/h.rec", dir);
	struct game *lg;
	struct game_opts o = {.seed = 77, .mapgen = MAPGEN_CLASSIC};
	if (game_create(&lg, &o))
		return 1;
	for (int i = 0; i < 5000 && !game_is_over(lg); i++)
		game_apply(lg, (enum cmd)(i % 5 == 0 ? CMD_WAIT : CMD_MOVE_N + (i * 3 % 8)));
	int nh = hist_count(game_history(lg));
	double r0 = bench_now();
	if (rec_write_history(rec, lg, 1))
		return 1;
	double r1 = bench_now();
	if (rec_write_history(rec, lg, MORGUE_REC_SUM_EVERY))
		return 1;
	double r2 = bench_now();
	printf("morgue recording of %d commands (turn %d): %.1f ms with a checksum on every line, %.1f ms on every "
	       "%dth (what the morgue writes)\n", nh, game_turn(lg), (r1 - r0) * 1e3, (r2 - r1) * 1e3, MORGUE_REC_SUM_EVERY);
	game_destroy(lg);

	history_figures(dir);
	game_destroy(g);
	free(b.data);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : 1;
}
