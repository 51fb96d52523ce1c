/* bench_watch: the game's turn and frame (the poll() that found the key, the command, the frame drawn and presented on an 80x24 terminal, the watchers served) with no publisher, with one watcher, and with 50 watchers attached, detached and stalled at random, each against no watchers in the same run (the target: at most 1.01); beside it the whole CPU of a key at a person's pace, with the checksum the loop makes after it when idle (the frame presented, nothing ready: it never delays a turn or a frame); the memory the queues hold; the watcher's own part per key (the stream read, the copy played and checked, its frame drawn) against the game's; the per-batch check itself, game_checksum (protocol 1) against game_digest (protocol 5). */
#include "bench.h"
#include "benchplay.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "app/watch.h"
#include "app/watcher.h"
#include "core/rng.h"
#include "game/world.h"
#include "platform/display.h"
#include "platform/term.h"
#include "render/console.h"
#include "ui/ui.h"

#define TURNS 2000
#define REPS 5
#define NW 50

struct run {
	struct bench_play b; /* the game, its consoles and display */
	int loop[2]; /* a pipe never written: the loop's own descriptors (input, display, signals) */
	struct watch_pub *p;
	int fd[NW]; /* the watchers' ends, -1: none */
	bool stalled[NW];
	struct rng r;
	size_t queued_max, snap_max;
};

static void attach(struct run *r, int k)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) || watch_pub_adopt(r->p, sv[0]))
		exit(1);
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	r->fd[k] = sv[1];
	r->stalled[k] = false;
}

/* A game of seed 5 whose player cannot die; watchers: 0 (no publisher at
 * all), 1 (one that reads) or NW (at random). */
static void run_open(struct run *r, int watchers)
{
	memset(r, 0, sizeof *r);
	bench_play_open(&r->b, "bench_watch");
	if (pipe(r->loop))
		exit(1);
	for (int i = 0; i < NW; i++)
		r->fd[i] = -1;
	rng_seed(&r->r, 2026);
	if (watchers && watch_pub_new(&r->p, "bench@here"))
		exit(1);
	for (int i = 0; i < watchers; i++)
		attach(r, i);
}

static void run_close(struct run *r)
{
	watch_pub_close(r->p);
	for (int i = 0; i < NW; i++)
		if (r->fd[i] >= 0)
			close(r->fd[i]);
	bench_play_close(&r->b);
	close(r->loop[0]);
	close(r->loop[1]);
}

/* What the watchers do between two turns (not the game's work: not
 * counted): read what came, and with random > 0 attach, detach and stall
 * at random. */
static void watchers_act(struct run *r, bool random)
{
	if (!r->p) {
		lseek(r->b.memfd, 0, SEEK_SET);
		return;
	}
	if (random) {
		int k = rng_range(&r->r, 0, NW - 1);
		switch (rng_range(&r->r, 0, 7)) {
		case 0:
			if (r->fd[k] < 0)
				attach(r, k);
			break;
		case 1:
			if (r->fd[k] >= 0) {
				close(r->fd[k]);
				r->fd[k] = -1;
			}
			break;
		case 2:
			r->stalled[k] = !r->stalled[k];
			break;
		default:
			break;
		}
	}
	lseek(r->b.memfd, 0, SEEK_SET); /* the terminal's bytes are not kept */
	unsigned char sink[65536];
	for (int i = 0; i < NW; i++)
		if (r->fd[i] >= 0 && !r->stalled[i])
			while (read(r->fd[i], sink, sizeof sink) > 0)
				;
	struct watch_pub_stats st;
	watch_pub_stats(r->p, &st);
	if (st.queued > r->queued_max)
		r->queued_max = st.queued;
	if (st.snapshot_bytes > r->snap_max)
		r->snap_max = st.snapshot_bytes;
}

/* The loop's poll() over its own descriptors (the pipe) and the
 * publisher's, without waiting (the key is there); what is ready
 * dispatched. Returns how many were ready. */
static int loop_poll(struct run *r)
{
	struct pollfd pfd[NW + 2];
	pfd[0] = (struct pollfd){ .fd = r->loop[0], .events = POLLIN };
	int n = 1 + watch_pub_poll_fds(r->p, pfd + 1, NW + 1);
	int ready = poll(pfd, (nfds_t)n, 0);
	if (ready > 0) {
		int fds[NW + 2];
		short rev[NW + 2];
		int k = 0;
		for (int j = 1; j < n; j++)
			if (pfd[j].revents) {
				fds[k] = pfd[j].fd;
				rev[k++] = pfd[j].revents;
			}
		for (int j = 0; j < k; j++)
			watch_pub_dispatch(r->p, fds[j], rev[j]);
	}
	return ready;
}

/* The game's turn and frame in its loop (what app.c's run_loop does for a
 * key): the poll() that found the key (every loop has it, watched or not:
 * the watchers add their descriptors to it), the command, the frame drawn
 * and presented, the watchers served. */
static void turn_and_frame(struct run *r, int i)
{
	loop_poll(r);
	struct command c = { .c = (enum cmd)(CMD_MOVE_N + (i * 7 + i / 5) % 8), .item = -1, .x = -1, .y = -1,
			     .choice = -1 };
	game_do(r->b.g, &c);
	watch_pub_command(r->p, &c);
	ui_draw_frame(r->b.d, &r->b.u, r->b.g, r->b.c, r->b.s);
	if (r->b.c->damaged && r->b.disp->ops->present(r->b.disp, r->b.c))
		exit(1);
	con_clear_damage(r->b.c);
	watch_pub_flush(r->p, &r->b.u, r->b.g);
}

/* What the loop does next when the key came at a person's pace (nothing
 * more is ready): while a checksum is due, the poll() without waiting that
 * finds nothing to do (one more system call a key, only when watched),
 * then the checksum; then the loop waits in poll() for the next key (the
 * one that finds it, counted in its turn). Never before a key's frame. */
static void when_idle(struct run *r)
{
	if (watch_pub_check_due(r->p) && loop_poll(r) == 0)
		watch_pub_check(r->p, r->b.g);
}

/* One turn; with idle (a key at a person's pace) followed by the loop's
 * idle time (when_idle). */
static void loop_turn(struct run *r, int i, bool idle)
{
	turn_and_frame(r, i);
	if (idle)
		when_idle(r);
}

/* What a measure counts: the turn and frame alone (the target), or with
 * the idle time after it (the whole CPU of a key). */
enum part { TURN_AND_FRAME, WHOLE_KEY };

/* TURNS turns with watchers (0: no publisher; 1; NW at random); idle: each
 * turn followed by the loop's idle time (a key at a person's pace: the
 * checksum is made then), else turns back to back (the checksum only at
 * the end, not counted). In --ir mode counted under callgrind (only the
 * game's part: turn and frame, or the whole key) and dumped as key / side
 * with target (bench_ir_stop_ratio: NULL none), else timed: returns
 * microseconds per turn of what part counts. */
static double measure(int watchers, bool ir, bool idle, enum part part, const char *key, const char *side,
		      const char *target, struct run *keep)
{
	struct run r;
	run_open(&r, watchers);
	watchers_act(&r, false);
	double t = 0;
	if (ir)
		bench_ir_start();
	for (int i = 0; i < TURNS; i++) {
		double t0 = ir ? 0 : bench_now();
		turn_and_frame(&r, i);
		if (idle) {
			if (ir && part == TURN_AND_FRAME)
				CALLGRIND_TOGGLE_COLLECT; /* the idle time is not the turn and frame */
			else if (!ir && part == TURN_AND_FRAME)
				t += bench_now() - t0;
			when_idle(&r);
			if (ir && part == TURN_AND_FRAME)
				CALLGRIND_TOGGLE_COLLECT;
			else if (!ir && part == WHOLE_KEY)
				t += bench_now() - t0;
		} else if (!ir) {
			t += bench_now() - t0;
		}
		if (ir)
			CALLGRIND_TOGGLE_COLLECT; /* the watchers' side is not the game's cost */
		watchers_act(&r, watchers == NW);
		if (ir)
			CALLGRIND_TOGGLE_COLLECT;
	}
	if (ir)
		bench_ir_stop_ratio(key, side, TURNS, target);
	if (keep) {
		keep->queued_max = r.queued_max;
		keep->snap_max = r.snap_max;
	}
	run_close(&r);
	return t / TURNS * 1e6;
}

/* The watcher's part of a key at a person's pace (the game's part not
 * counted): what the game sent read and played on the copy, the check,
 * the copy's frame drawn and presented on its own 80x24 terminal. */
static double measure_watcher(bool ir)
{
	struct run r;
	run_open(&r, 0);
	if (watch_pub_new(&r.p, "bench@here"))
		exit(1);
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) || watch_pub_adopt(r.p, sv[0]))
		exit(1);
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	struct watcher w = { .fd = sv[1] };
	struct ui_drawn *wd = calloc(1, sizeof *wd);
	struct console *wc, *ws;
	struct display *wdisp;
	int wfd = memfd_create("bench_watcher", 0);
	if (!wd || wfd < 0 || term_open_fds(&wdisp, -1, wfd, 80, 24) || con_create(&wc, 80, 24) ||
	    con_create(&ws, 80, 24))
		exit(1);
	char why[256];
	double t = 0;
	for (int i = -1; i < TURNS; i++) {
		if (i >= 0)
			loop_turn(&r, i, true); /* the game's key, its check when idle */
		else
			watch_pub_flush(r.p, &r.b.u, r.b.g); /* the greeting and snapshot */
		lseek(r.b.memfd, 0, SEEK_SET);
		double t0 = ir ? 0 : bench_now();
		if (ir && i == 0)
			bench_ir_start();
		else if (ir && i > 0)
			CALLGRIND_TOGGLE_COLLECT;
		if (watcher_read(&w, why, sizeof why) < 0 || watcher_draw(&w, wd, wc, ws))
			exit(1);
		if (wc->damaged && wdisp->ops->present(wdisp, wc))
			exit(1);
		con_clear_damage(wc);
		if (ir && i >= 0 && i < TURNS - 1)
			CALLGRIND_TOGGLE_COLLECT;
		if (!ir && i >= 0)
			t += bench_now() - t0;
		lseek(wfd, 0, SEEK_SET);
	}
	if (ir)
		bench_ir_stop("a key at a person's pace: the watcher's part (read, played, checked, drawn)",
			      "the watcher", TURNS, 0);
	if (w.checks != TURNS + 0L || w.mismatches) {
		fprintf(stderr, "bench_watch: the watcher checked %ld times (%ld mismatches), not %d\n", w.checks,
			w.mismatches, TURNS);
		exit(1);
	}
	watcher_close(&w);
	wdisp->ops->close(wdisp);
	close(wfd);
	free(wd);
	con_destroy(wc);
	con_destroy(ws);
	run_close(&r);
	return t / TURNS * 1e6;
}

/* The check itself on the states of the game's 2,000 turns: the
 * recordings' checksum (what protocol 1 compared) or the digest. */
static double measure_check(bool ir, bool digest)
{
	struct run r;
	run_open(&r, 0);
	double t = 0;
	volatile uint64_t sink = 0;
	for (int i = 0; i < TURNS; i++) {
		loop_turn(&r, i, false);
		lseek(r.b.memfd, 0, SEEK_SET);
		double t0 = ir ? 0 : bench_now();
		if (ir && i == 0)
			bench_ir_start();
		else if (ir)
			CALLGRIND_TOGGLE_COLLECT;
		sink ^= digest ? game_digest(r.b.g) : game_checksum(r.b.g);
		if (ir && i < TURNS - 1)
			CALLGRIND_TOGGLE_COLLECT;
		if (!ir)
			t += bench_now() - t0;
	}
	(void)sink;
	if (ir)
		bench_ir_stop("the check after a batch", digest ? "game_digest (protocol 5)" : "game_checksum (protocol 1)",
			      TURNS, 0);
	run_close(&r);
	return t / TURNS * 1e6;
}

/* The target: a watched turn and frame at most this times the unwatched. */
#define TARGET "1.01"

int main(int argc, char **argv)
{
	bool ir = bench_ir_mode(argc, argv);
	struct run fig;
	if (ir) {
		/* bench/ir.sh prints each side and its ratio to the others, and
		 * the verdict of the watched side against the baseline measured
		 * after it (no watchers) in this run */
		static const char *const pace[2] = { "turns back to back", "a key at a person's pace" };
		static const char *const many[2] = { "1 watcher", "50 watchers at random" };
		for (int idle = 0; idle < 2; idle++)
			for (int m = 0; m < 2; m++) {
				char key[256];
				snprintf(key, sizeof key,
					 "the turn and frame (the poll that found the key, the command, the frame presented, "
					 "the watchers served), %s, %s against none",
					 pace[idle], many[m]);
				measure(m ? NW : 1, true, idle, TURN_AND_FRAME, key, many[m], TARGET, m ? &fig : NULL);
				measure(0, true, idle, TURN_AND_FRAME, key, "no watchers", NULL, NULL);
			}
		for (int m = 0; m < 2; m++) {
			char key[256];
			snprintf(key, sizeof key,
				 "not the target: the whole CPU of a key at a person's pace, with the checksum made after "
				 "it when the loop is idle (the frame presented, nothing ready), %s against none",
				 many[m]);
			measure(m ? NW : 1, true, true, WHOLE_KEY, key, many[m], NULL, NULL);
			measure(0, true, true, WHOLE_KEY, key, "no watchers", NULL, NULL);
		}
		printf("50 watchers: at most %zu bytes waited on their sockets besides snapshots (bound %d x %d), snapshots of %zu bytes\n",
		       fig.queued_max, WATCH_MAX, WATCH_HEAD + 12, fig.snap_max);
		measure_check(true, false);
		measure_check(true, true);
		measure_watcher(true);
		return 0;
	}
	static const char *const key_of[2] = { "turns back to back", "a key at a person's pace" };
	for (int idle = 0; idle < 2; idle++)
		for (int part = 0; part < 1 + idle; part++) {
			double none[REPS], one[REPS], fifty[REPS];
			for (int k = 0; k < REPS; k++) {
				none[k] = measure(0, false, idle, (enum part)part, NULL, NULL, NULL, NULL);
				one[k] = measure(1, false, idle, (enum part)part, NULL, NULL, NULL, NULL);
				fifty[k] = measure(NW, false, idle, (enum part)part, NULL, NULL, NULL, &fig);
			}
			struct bench_stat n = bench_summarise(none, REPS), o = bench_summarise(one, REPS),
					  f = bench_summarise(fifty, REPS);
			printf("%s, %s, %d turns, medians of %d: no watchers %.2f us, 1 watcher %.2f us (ratio %.2f), 50 "
			       "watchers at random %.2f us (ratio %.2f to none, %.2f to one)\n",
			       part == TURN_AND_FRAME ? "the turn and frame" :
							"not the target: the whole CPU of a key, the checksum made when idle included",
			       key_of[idle], TURNS, REPS, n.median, o.median, o.median / n.median, f.median,
			       f.median / n.median, f.median / o.median);
		}
	printf("(times on a loaded machine: the target's verdict, at most " TARGET " x no watchers, is make bench-ir's, "
	       "in instructions)\n");
	printf("50 watchers: at most %zu bytes waited on their sockets besides snapshots (bound %d x %d), snapshots of %zu bytes\n",
	       fig.queued_max, WATCH_MAX, WATCH_HEAD + 12, fig.snap_max);
	double cs[REPS], dg[REPS], wt[REPS], gm[REPS];
	for (int k = 0; k < REPS; k++) {
		cs[k] = measure_check(false, false);
		dg[k] = measure_check(false, true);
		wt[k] = measure_watcher(false);
		gm[k] = measure(0, false, true, WHOLE_KEY, NULL, NULL, NULL, NULL);
	}
	struct bench_stat c = bench_summarise(cs, REPS), d = bench_summarise(dg, REPS), w = bench_summarise(wt, REPS),
			  g = bench_summarise(gm, REPS);
	printf("the check after a batch, medians of %d: game_checksum (protocol 1) %.2f us, game_digest (protocol 5) "
	       "%.2f us (ratio %.2f)\n",
	       REPS, c.median, d.median, c.median / d.median);
	printf("a key at a person's pace, medians of %d: the game's part with no watchers %.2f us, the watcher's part "
	       "%.2f us (ratio %.2f)\n",
	       REPS, g.median, w.median, w.median / g.median);
	return 0;
}
