/* No heap allocation in steady play: malloc, calloc and realloc are counted (this binary replaces them by wrappers around glibc's) while the game runs turns. */
#include "gamefix.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "app/app.h"
#include "app/data.h"
#include "app/session.h"
#include "save/save.h"

#include "game/ai.h"
#include "game/serial.h"
#include "platform/display.h"
#include "platform/headless.h"
#include "platform/term.h"
#include "render/console.h"
#include "render/font.h"
#include "save/histfile.h"
#include "ui/ui.h"

#include "allochook.h"

static void skip_unless_counting(void)
{
	if (!ALLOCHOOK_COUNTING) {
		print_message("skipped: built with AddressSanitizer (its allocator cannot be counted)\n");
		skip();
	}
}

/* The counter sees the game's allocations at all (or the test proves
 * nothing). */
static void test_hook_counts(void **state)
{
	(void)state;
	skip_unless_counting();
	long before = allocations;
	struct game *g = gamefix_new(1, MAPGEN_CLASSIC);
	assert_true(allocations > before);
	game_destroy(g);
}

/* After the first turn of a floor, turns (moves, waits, monsters hunting
 * and fighting, the view) allocate nothing, on every generator. */
static void test_turns_allocate_nothing(void **state)
{
	(void)state;
	skip_unless_counting();
	static const enum cmd moves[] = {CMD_MOVE_N, CMD_MOVE_NE, CMD_MOVE_E, CMD_MOVE_SE, CMD_MOVE_S,
					 CMD_MOVE_SW, CMD_MOVE_W, CMD_MOVE_NW, CMD_WAIT};
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		struct game *g = gamefix_new(7 + (uint64_t)k, (enum mapgen_kind)k);
		((struct c_actor *)ecs_get_mut(g->w, g->player, COMP_ACTOR))->defense = 1000; /* lives on */
		struct rng r;
		rng_seed(&r, 3);
		game_apply(g, CMD_WAIT); /* the first turn of the floor */
		long before = allocations;
		int turns = 0;
		for (int t = 0; t < 200; t++)
			turns += game_apply(g, moves[rng_range(&r, 0, 8)]);
		assert_true(turns > 100);
		if (allocations != before)
			print_message("generator %d: %ld allocations in %d turns\n", k, allocations - before, turns);
		assert_int_equal(allocations - before, 0);
		game_destroy(g);
	}
}

/* Thousands of commands on one floor, from a new game and from a loaded
 * one: after the first turn nothing is allocated (the command history,
 * which every save and recording needs whole, used to grow by doubling
 * from 256 entries: an allocation at commands 256, 512, 1024, ...). */
static void long_game(struct game *g, const char *what, int commands)
{
	static const enum cmd moves[] = {CMD_MOVE_N, CMD_MOVE_E, CMD_MOVE_S, CMD_MOVE_W, CMD_WAIT, CMD_WAIT};
	((struct c_actor *)ecs_get_mut(g->w, g->player, COMP_ACTOR))->defense = 1000; /* lives on */
	struct rng r;
	rng_seed(&r, 11);
	game_apply(g, CMD_WAIT); /* the first turn of the floor */
	long before = allocations;
	int depth = game_depth(g), turns = 0;
	for (int t = 0; t < commands; t++)
		turns += game_apply(g, moves[rng_range(&r, 0, 5)]);
	assert_int_equal(game_depth(g), depth);
	assert_true(turns > commands * 5 / 6);
	if (allocations != before)
		print_message("%s: %ld allocations in %d turns\n", what, allocations - before, turns);
	assert_int_equal(allocations - before, 0);
}

/* g saved (game_encode) and loaded back (game_decode); g is destroyed. */
static struct game *reloaded(struct game *g)
{
	struct serial_buf b = {0};
	assert_int_equal(game_encode(g, &b), 0);
	game_destroy(g);
	char why[128];
	assert_int_equal(game_decode(&g, b.data, b.len, why, sizeof why), 0);
	free(b.data);
	return g;
}

static void test_long_game_allocates_nothing(void **state)
{
	(void)state;
	skip_unless_counting();
	struct game *g = gamefix_new(21, MAPGEN_CLASSIC);
	long_game(g, "new game", 6000);
	g = reloaded(g);
	long_game(g, "loaded game", 6000);
	game_destroy(g);
}

/* More commands on one floor than a floor's reserve of history in memory
 * (HIST_RESERVE, 8,192): with the store the app gives a game (histfile,
 * here over a memfd), still nothing allocated after the first turn,
 * however long the floor is played; the same for the game loaded from its
 * save and played on. */
static void test_longer_floor_than_reserve_allocates_nothing(void **state)
{
	(void)state;
	skip_unless_counting();
	struct histfile *hf;
	assert_int_equal(histfile_open_fd(&hf, memfd_create("history", MFD_CLOEXEC), "the test's memfd"), 0);
	struct hist_store st;
	histfile_store(hf, &st);
	struct game *g = gamefix_new(21, MAPGEN_CLASSIC);
	assert_int_equal(game_set_history_store(g, &st), 0);
	long_game(g, "a floor of 20,000 commands", 20000);
	g = reloaded(g);
	assert_int_equal(histfile_reset(hf), 0);
	assert_int_equal(game_set_history_store(g, &st), 0);
	long_game(g, "the same loaded, 20,000 more", 20000);
	assert_int_equal(hist_count(game_history(g)), 40002);
	game_destroy(g);
	histfile_close(hf);
}

/* The game as the app plays it (a session: its history file in the state
 * directory, saved every 100 turns) given 9,000 commands after its floor's
 * first turn: the autosaves (streamed into the file, the history read back
 * from its store in chunks) allocate nothing either. */
static void test_autosaves_allocate_nothing(void **state)
{
	(void)state;
	skip_unless_counting();
	char d[] = "/tmp/pirogue-alloc-XXXXXX", path[64];
	assert_non_null(mkdtemp(d));
	struct session s = {0};
	struct ui u = {.screen = UI_TITLE};
	struct game *g = NULL;
	session_open(&s, d, false, &g, &u);
	assert_int_equal(session_new_game(&s, &g, 21, MAPGEN_CLASSIC, 0, 0), 0);
	((struct c_actor *)ecs_get_mut(g->w, g->player, COMP_ACTOR))->defense = 1000; /* lives on */
	static const enum cmd moves[] = {CMD_MOVE_N, CMD_MOVE_E, CMD_MOVE_S, CMD_MOVE_W, CMD_WAIT, CMD_WAIT};
	struct rng r;
	rng_seed(&r, 11);
	struct command c = {.c = CMD_WAIT};
	session_command(&s, g, &u, &c); /* the first turn of the floor */
	long before = allocations;
	for (int t = 0; t < 9000; t++) {
		c.c = moves[rng_range(&r, 0, 5)];
		session_command(&s, g, &u, &c);
	}
	long made = allocations - before;
	assert_int_equal(game_depth(g), 1);
	assert_true(game_turn(g) > 7000); /* 70 saves and more */
	assert_true(game_history(g)->stored >= 2 * HIST_BLOCK);
	assert_string_equal(u.status, "");
	if (made)
		print_message("%ld allocations in %d turns with their saves\n", made, game_turn(g));
	assert_int_equal(made, 0);
	session_close(&s);
	game_destroy(g);
	snprintf(path, sizeof path, "%s/%s", d, SAVE_FILE);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(d), 0);
}

/* The largest floor (200x200): after its first turn, auto-explore's steps
 * (a distance map over the whole floor each) and the turns they take
 * allocate nothing either. */
static void test_large_floor_allocates_nothing(void **state)
{
	(void)state;
	skip_unless_counting();
	struct game_opts o = {.seed = 4, .mapgen = MAPGEN_CLASSIC, .map_w = MAP_MAX_W, .map_h = MAP_MAX_H};
	struct game *g;
	assert_int_equal(game_create(&g, &o), 0);
	world_clear_monsters(g, 1); /* nothing stops the exploring */
	game_apply(g, CMD_WAIT);    /* the first turn of the floor */
	long before = allocations;
	int turns = 0, steps = 0;
	for (int t = 0; t < 300; t++) {
		struct command step;
		char why[128];
		if (game_explore_step(g, &step, why, sizeof why) && ++steps)
			turns += game_do(g, &step);
		else
			turns += game_apply(g, CMD_WAIT);
	}
	print_message("200x200: %d turns, %d of them explore steps\n", turns, steps);
	assert_true(turns > 200 && steps > 200);
	if (allocations != before)
		print_message("200x200: %ld allocations in %d turns (%d explore steps)\n", allocations - before, turns,
			      steps);
	assert_int_equal(allocations - before, 0);
	game_destroy(g);
}

static struct ui_drawn frames_drawn; /* the frames' memory (large: not on the stack) */

/* The app's frame (app.c): what changed drawn into the shown console,
 * presented. */
static void frame(struct display *d, const struct ui *u, const struct game *g, struct console *con,
		  struct console *scratch)
{
	ui_draw_frame(&frames_drawn, u, g, con, scratch);
	if (con->damaged)
		assert_int_equal(d->ops->present(d, con), 0);
	con_clear_damage(con);
}

/* Turns with their frames, after the first frame, on the terminal backend
 * (into a memfd) and on the headless one (the blitter into a 1920x1080
 * surface, as drm's frames; pictures: the map in pictures): no allocation. */
static void check_frames(struct display *d, int cols, int rows, bool pictures)
{
	struct game *g = gamefix_new(5, MAPGEN_CLASSIC);
	((struct c_actor *)ecs_get_mut(g->w, g->player, COMP_ACTOR))->defense = 1000;
	struct ui u;
	memset(&u, 0, sizeof(u));
	u.screen = UI_PLAY;
	u.hover_x = u.hover_y = -1;
	u.score_rank = -1;
	u.map_cw = d->map_cw;
	u.pictures = pictures; /* as the app asks while tiles are on */
	struct console *con, *scratch;
	assert_int_equal(con_create(&con, cols, rows), 0);
	assert_int_equal(con_create(&scratch, cols, rows), 0);
	game_apply(g, CMD_WAIT);
	ui_drawn_forget(&frames_drawn);
	frame(d, &u, g, con, scratch); /* the first */
	long before = allocations;
	int dir = 1, turns = 0;
	for (int t = 0; t < 100; t++) {
		int done = game_apply(g, dir > 0 ? CMD_MOVE_E : CMD_MOVE_W);
		if (!done)
			dir = -dir;
		turns += done;
		ui_after_command(&u, g);
		frame(d, &u, g, con, scratch);
	}
	assert_true(turns > 10);
	if (allocations != before)
		print_message("%s: %ld allocations in %d frames\n", d->ops->name, allocations - before, 100);
	assert_int_equal(allocations - before, 0);
	con_destroy(con);
	con_destroy(scratch);
	game_destroy(g);
}

static void test_frames_allocate_nothing(void **state)
{
	(void)state;
	skip_unless_counting();
	char err[256];
	struct font *f;
	assert_int_equal(font_load(&f, "fonts/cp437-8x16.png", err, sizeof err), 0);
	struct display *d;
	struct display_opts o = {.font = f, .width = 1920, .height = 1080, .scale = 1};
	assert_int_equal(headless_display_ops.open(&d, &o), 0);
	int cols, rows;
	d->ops->console_size(d, &cols, &rows);
	check_frames(d, cols, rows, false);
	d->ops->close(d);
	int fd = memfd_create("test_alloc", 0);
	assert_true(fd >= 0);
	assert_int_equal(term_open_fds(&d, -1, fd, 80, 24), 0);
	check_frames(d, 80, 24, false);
	d->ops->close(d);
	close(fd);
	font_destroy(f);
	/* issue 17: the automatic look at 1080p with the map in pictures (each
	 * picture composed when first shown, into memory set aside when the
	 * sheet was given) */
	struct font_cands fonts = { 0 };
	struct font_tilesets tiles = { 0 };
	struct font *none = NULL;
	assert_int_equal(data_load_fonts(NULL, NULL, FONT_LAYOUT_AUTO, &none, &fonts), 0);
	assert_int_equal(data_load_tiles("on", NULL, &tiles), 0);
	o = (struct display_opts){.fonts = &fonts, .tiles = &tiles, .width = 1920, .height = 1080};
	assert_int_equal(headless_display_ops.open(&d, &o), 0);
	assert_int_equal(d->map_cw, 2);
	d->ops->console_size(d, &cols, &rows);
	assert_true(tiles.on);
	check_frames(d, cols, rows, true);
	d->ops->close(d);
	font_tilesets_clear(&tiles);
	font_cands_clear(&fonts);
}

/* ---- the whole program idle: app_run on a pseudo-terminal, in a child;
 * a real-time signal (SIGUSR1 and 2 are the VT's) makes it write its allocation count to a pipe ---- */
static int report_fd = -1;

static void report(int sig)
{
	(void)sig;
	long n = allocations;
	if (write(report_fd, &n, sizeof n) != (ssize_t)sizeof n)
		_exit(3);
}

static void pause_ms(int ms)
{
	struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&t, NULL);
}

/* Whether child sleeps in its loop's poll() with no timeout (what it does
 * when everything it had to do is done): 1 yes, 0 no, -1 when
 * /proc/PID/syscall cannot say (not readable, an architecture not listed). */
static int asleep_in_poll(pid_t child)
{
	char path[64], buf[256];
	snprintf(path, sizeof path, "/proc/%d/syscall", (int)child);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	long nr;
	unsigned long a1, a2, a3;
	if (sscanf(buf, "%ld %lx %lx %lx", &nr, &a1, &a2, &a3) != 4)
		return strncmp(buf, "running", 7) ? -1 : 0;
#if defined(__x86_64__)
	return (nr == 7 && (uint32_t)a3 == 0xffffffffu) || (nr == 271 && a3 == 0); /* poll -1, ppoll NULL */
#elif defined(__aarch64__) || defined(__riscv)
	return nr == 73 && a3 == 0; /* ppoll NULL */
#elif defined(__arm__)
	return (nr == 168 && (uint32_t)a3 == 0xffffffffu) || (nr == 336 && a3 == 0);
#else
	(void)nr;
	return -1;
#endif
}

/* Reads what the child draws (master is non-blocking) until it is back
 * asleep in poll() with no timeout, having drawn at least one byte when
 * drawn is set (after a key: the key's frame, which proves the key was
 * read). Returns the bytes read. Waits on that condition, not on a time:
 * the bound only ends a program that never settles (its alarm is 30 s). */
static long settle(pid_t child, int master, bool drawn)
{
	long total = 0;
	for (int i = 0; i < 6000; i++) {
		char buf[4096];
		ssize_t n;
		while ((n = read(master, buf, sizeof buf)) > 0)
			total += n;
		int a = asleep_in_poll(child);
		if (a < 0)
			fail_msg("the program ended (or /proc/%d/syscall went unreadable)", (int)child);
		if ((!drawn || total > 0) && a == 1) {
			while ((n = read(master, buf, sizeof buf)) > 0) /* what it wrote just before */
				total += n;
			return total;
		}
		struct pollfd p = {.fd = master, .events = POLLIN};
		poll(&p, 1, 10);
	}
	fail_msg("the program never went back to sleep in poll() (%s)", drawn && !total ? "nothing drawn" : "busy");
	return total;
}

static long probe(pid_t child, int rfd, int master)
{
	long n = -1;
	assert_int_equal(kill(child, SIGRTMIN + 3), 0);
	struct pollfd p = {.fd = rfd, .events = POLLIN};
	assert_true(poll(&p, 1, 30000) > 0);
	assert_int_equal(read(rfd, &n, sizeof n), (ssize_t)sizeof n);
	settle(child, master, false); /* the frame the wake-up drew, if any */
	return n;
}

/* After the first turn, waiting idle (nothing arrives for a while), more
 * turns with their frames, and waiting again allocate nothing. */
static void test_idle_program_allocates_nothing(void **state)
{
	(void)state;
	skip_unless_counting();
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0) {
		print_message("skipped: no pseudo-terminal (/dev/ptmx: %s)\n", strerror(errno));
		skip();
	}
	assert_int_equal(grantpt(master), 0);
	assert_int_equal(unlockpt(master), 0);
	struct winsize ws = {.ws_row = 24, .ws_col = 80};
	assert_int_equal(ioctl(master, TIOCSWINSZ, &ws), 0);
	const char *slave_name = ptsname(master);
	assert_non_null(slave_name);
	char dir[] = "/tmp/pirogue-alloc-XXXXXX";
	assert_non_null(mkdtemp(dir));
	int rp[2];
	assert_int_equal(pipe(rp), 0);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		setsid();
		int slave = open(slave_name, O_RDWR);
		int null = open("/dev/null", O_WRONLY);
		if (slave < 0 || null < 0)
			_exit(2);
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(null, 2);
		report_fd = rp[1];
		signal(SIGRTMIN + 3, report);
		alarm(30); /* never outlives a test that failed half-way */
		struct app_config cfg = {.backend = "term", .has_seed = true, .seed = 3, .state_dir = dir};
		_exit(app_run(&cfg));
	}
	close(rp[1]);
	if (asleep_in_poll(child) < 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		print_message("skipped: /proc/%d/syscall does not say where the program sleeps\n", (int)child);
		skip();
	}
	assert_int_equal(fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK), 0);
	settle(child, master, true); /* the first frame */
	assert_true(write(master, ".", 1) == 1); /* the first turn of the floor */
	settle(child, master, true);
	long a = probe(child, rp[0], master);
	pause_ms(300); /* idle (how long does not matter: idle does nothing) */
	long b = probe(child, rp[0], master);
	for (int i = 0; i < 5; i++) { /* turns: a step west, east, west..., each drawn */
		assert_true(write(master, i % 2 ? "l" : "h", 1) == 1);
		settle(child, master, true);
	}
	pause_ms(200);
	long c = probe(child, rp[0], master);
	kill(child, SIGTERM);
	int st = 0;
	waitpid(child, &st, 0);
	close(master);
	close(rp[0]);
	char cmd[96];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		print_message("could not remove %s\n", dir);
	print_message("allocations: %ld after the first turn, %ld after waiting, %ld after 5 more turns\n", a, b, c);
	assert_true(a > 0);
	assert_int_equal(b, a);
	assert_int_equal(c, a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hook_counts),
		cmocka_unit_test(test_turns_allocate_nothing),
		cmocka_unit_test(test_long_game_allocates_nothing),
		cmocka_unit_test(test_longer_floor_than_reserve_allocates_nothing),
		cmocka_unit_test(test_large_floor_allocates_nothing),
		cmocka_unit_test(test_autosaves_allocate_nothing),
		cmocka_unit_test(test_frames_allocate_nothing),
		cmocka_unit_test(test_idle_program_allocates_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
