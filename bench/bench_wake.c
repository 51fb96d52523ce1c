/* bench_wake: what waking the watchers costs the game's own thread, in the kernel too: the game's thread's CPU time (user and system, CLOCK_THREAD_CPUTIME_ID) per key with 0, 1, 11 and 50 watcher processes, each forked and blocked in poll() on its socket and the ring's wake-ups as pirogue --watch is, reading the ring and playing and checking what it holds (watcher_read: the real watcher, without drawing); keys back to back (the watchers woken every WATCH_DEFER commands) and at a person's pace (a key every PACE_MS, each followed by the loop's idle checksum and its wake-up), each against no watchers in the same run; beside it the whole process's CPU (the publisher's threads). Timed only: callgrind sees neither the kernel nor the children. */
#include "bench.h"
#include "benchplay.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/watch.h"
#include "app/watcher.h"
#include "game/world.h"
#include "platform/display.h"
#include "platform/term.h"
#include "render/console.h"
#include "ui/ui.h"

#define REPS 3
#define BLOCKS 6     /* back to back: blocks of BLOCK keys, the watchers let catch up between them */
#define BLOCK 400    /* (under a ring's worth: none falls behind and asks for a snapshot) */
#define PACE_KEYS 150
#define PACE_MS 10   /* a person's pace: the loop idle between keys, every watcher asleep again */
#define NCASE 4

static const int watchers_of[NCASE] = { 0, 1, 11, 50 };

struct run {
	struct bench_play b; /* the game, its consoles and display */
	struct watch_pub *p;
	pid_t kid[64];
	int nkid;
	int ready[2]; /* each watcher writes a byte here once it follows the ring */
	int turn;
};

/* A watcher process: pirogue --watch's loop without its display (poll()
 * on the socket and the ring's wake-ups, blocking; watcher_read when
 * either is ready) until the game closes the stream. */
static void watcher_child(int fd, int ready)
{
	struct watcher w = { .fd = fd };
	char why[256];
	bool told = false;
	for (;;) {
		struct pollfd q[2] = { { .fd = w.fd, .events = POLLIN }, { .fd = watcher_poll_fd(&w), .events = POLLIN } };
		if (poll(q, q[1].fd >= 0 ? 2 : 1, -1) < 0 && errno != EINTR)
			_exit(2);
		int rc = watcher_read(&w, why, sizeof why);
		if (rc < 0) {
			fprintf(stderr, "bench_wake: a watcher: %s\n", why);
			_exit(1);
		}
		if (rc == 1)
			_exit(w.mismatches ? 1 : 0);
		if (!told && w.synced && watcher_poll_fd(&w) >= 0) {
			told = write(ready, "r", 1) == 1;
		}
	}
}

/* A watcher forked on a socket pair whose other end the publisher adopts;
 * the child keeps only its own end and the ready pipe. */
static void spawn(struct run *r)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		exit(1);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		exit(1);
	if (pid == 0) {
		for (int fd = 3; fd < 1024; fd++)
			if (fd != sv[1] && fd != r->ready[1])
				close(fd);
		fcntl(sv[1], F_SETFL, O_NONBLOCK);
		watcher_child(sv[1], r->ready[1]);
	}
	close(sv[1]);
	if (watch_pub_adopt(r->p, sv[0]))
		exit(1);
	r->kid[r->nkid++] = pid;
}

/* The loop's poll() without waiting over the publisher's descriptors; what
 * is ready dispatched. Returns how many were. */
static int loop_poll(struct run *r)
{
	struct pollfd pfd[WATCH_MAX + 1];
	int n = watch_pub_poll_fds(r->p, pfd, WATCH_MAX + 1);
	int ready = poll(pfd, (nfds_t)n, 0);
	int fds[WATCH_MAX + 1], k = 0;
	short rev[WATCH_MAX + 1];
	for (int j = 0; ready > 0 && j < n; j++)
		if (pfd[j].revents) {
			fds[k] = pfd[j].fd;
			rev[k++] = pfd[j].revents;
		}
	for (int j = 0; j < k; j++)
		watch_pub_dispatch(r->p, fds[j], rev[j]);
	return ready;
}

/* A game of seed 5 whose player cannot die, published (when watchers > 0)
 * to that many watcher processes, each following the ring when this
 * returns. */
static void run_open(struct run *r, int watchers)
{
	memset(r, 0, sizeof *r);
	bench_play_open(&r->b, "bench_wake");
	if (pipe2(r->ready, O_CLOEXEC))
		exit(1);
	if (!watchers)
		return;
	if (watch_pub_new(&r->p, "bench@here"))
		exit(1);
	for (int i = 0; i < watchers; i++)
		spawn(r);
	/* the greetings and snapshots sent until every one follows the ring */
	for (int got = 0; got < watchers;) {
		watch_pub_flush(r->p, &r->b.u, r->b.g);
		loop_poll(r);
		struct pollfd q = { .fd = r->ready[0], .events = POLLIN };
		char b[64];
		ssize_t k;
		if (poll(&q, 1, 10) == 1 && (k = read(r->ready[0], b, sizeof b)) > 0)
			got += (int)k;
	}
}

static void run_close(struct run *r)
{
	watch_pub_close(r->p); /* the streams close: each watcher exits */
	for (int i = 0; i < r->nkid; i++) {
		int st;
		if (waitpid(r->kid[i], &st, 0) != r->kid[i] || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "bench_wake: a watcher failed (status %d)\n", st);
			exit(1);
		}
	}
	bench_play_close(&r->b);
	close(r->ready[0]);
	close(r->ready[1]);
}

/* The game's key as app.c's run_loop serves it: the poll() that found it,
 * the command, the frame drawn and presented, the watchers flushed (every
 * WATCH_DEFER commands played back to back: the wake-up); with idle (a
 * person's pace), then the poll() that finds nothing ready and the
 * checksum, with its wake-up. */
static void key(struct run *r, bool idle)
{
	int i = r->turn++;
	loop_poll(r);
	struct command c = { .c = (enum cmd)(CMD_MOVE_N + (i * 7 + i / 5) % 8), .item = -1, .x = -1, .y = -1,
			     .choice = -1 };
	game_do(r->b.g, &c);
	watch_pub_command(r->p, &c);
	ui_draw_frame(r->b.d, &r->b.u, r->b.g, r->b.c, r->b.s);
	if (r->b.c->damaged && r->b.disp->ops->present(r->b.disp, r->b.c))
		exit(1);
	con_clear_damage(r->b.c);
	lseek(r->b.memfd, 0, SEEK_SET); /* the terminal's bytes are not kept */
	watch_pub_flush(r->p, &r->b.u, r->b.g);
	if (idle && watch_pub_check_due(r->p) && loop_poll(r) == 0)
		watch_pub_check(r->p, r->b.g);
}

/* CPU seconds of this thread (user and system) */
static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of every thread of this process (user and system) */
static double process_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pause_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Microseconds of the game's thread's CPU per key (and in *proc, of the
 * whole process's) with that many watchers; pace: a key every PACE_MS,
 * else blocks of BLOCK keys back to back. */
static double measure(int watchers, bool pace, double *proc)
{
	struct run r;
	run_open(&r, watchers);
	for (int i = 0; i < 20; i++) /* warm: every watcher asleep in poll() after it */
		key(&r, true);
	pause_ms(50);
	double t = 0, p0 = process_cpu();
	int keys = 0;
	if (pace) {
		for (int i = 0; i < PACE_KEYS; i++, keys++) {
			double t0 = thread_cpu();
			key(&r, true);
			t += thread_cpu() - t0;
			pause_ms(PACE_MS);
		}
	} else {
		for (int b = 0; b < BLOCKS; b++) {
			double t0 = thread_cpu();
			for (int i = 0; i < BLOCK; i++, keys++)
				key(&r, false);
			t += thread_cpu() - t0;
			/* the loop idle at last: its checksum, not counted, and
			 * the watchers let catch up */
			watch_pub_check(r.p, r.b.g);
			pause_ms(60);
		}
	}
	/* the whole process over the run, the pauses included (another
	 * thread's work after a key comes during them) */
	double pt = process_cpu() - p0;
	run_close(&r);
	*proc = pt / keys * 1e6;
	return t / keys * 1e6;
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	double load[3] = { 0, 0, 0 };
	getloadavg(load, 3);
	printf("the game's thread's CPU per key (user+system, CLOCK_THREAD_CPUTIME_ID) with watcher processes blocked "
	       "in poll() on the ring's wake-ups, each against no watchers in the same run; load %.2f at the start\n",
	       load[0]);
	char pace_of[2][160];
	snprintf(pace_of[0], sizeof pace_of[0],
		 "keys back to back (%d blocks of %d, the watchers woken every %d commands)", BLOCKS, BLOCK, WATCH_DEFER);
	snprintf(pace_of[1], sizeof pace_of[1],
		 "a key every %d ms (a person's pace: each followed by the idle checksum and its wake-up), %d keys", PACE_MS,
		 PACE_KEYS);
	for (int pace = 0; pace < 2; pace++) {
		double t[NCASE][REPS], pr[NCASE][REPS];
		for (int k = 0; k < REPS; k++)
			for (int c = 0; c < NCASE; c++)
				t[c][k] = measure(watchers_of[c], pace, &pr[c][k]);
		struct bench_stat s[NCASE], ps[NCASE];
		for (int c = 0; c < NCASE; c++) {
			s[c] = bench_summarise(t[c], REPS);
			ps[c] = bench_summarise(pr[c], REPS);
		}
		printf("%s, medians of %d:\n", pace_of[pace], REPS);
		for (int c = 0; c < NCASE; c++)
			printf("  %2d watchers: the game's thread %7.2f us a key (ratio %.2f to none); the whole process "
			       "%7.2f us a key, its pauses included (ratio %.2f)\n",
			       watchers_of[c], s[c].median, s[c].median / s[0].median, ps[c].median,
			       ps[c].median / ps[0].median);
	}
	getloadavg(load, 3);
	printf("(load %.2f at the end; times on a shared machine: compare the ratios of one run)\n", load[0]);
	return 0;
}
