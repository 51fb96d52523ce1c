/* test_watch_e2e: a game published on a real socket and watchers connected
 * to it, in one process, both sides driven through poll() until what is
 * waited for holds (no sleeps): the watcher shows the game's own screen (its
 * hint line saying whom it watches) and ends on the game's checksum, through
 * screens, a new game and the demo; 50 watchers attached, detached and
 * stalled at random never make the game wait, and their queues stay
 * bounded. */
#include "watchfix.h"
#include "conrow.h"
#include "gamefix.h"
#include "app/idle.h"
#include "core/rng.h"
#include <sys/stat.h>

struct side {
	char dir[64], path[128];
	struct watch_pub *p;
	struct game *g;
	struct ui u;
	struct ui_drawn *gd, *wd;
	struct console *gc, *gs, *wc, *ws;
};

static void side_open(struct side *s, uint64_t seed)
{
	memset(s, 0, sizeof *s);
	snprintf(s->dir, sizeof s->dir, "/tmp/test_watch_e2e-XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	snprintf(s->path, sizeof s->path, "%s/pirogue/watch.sock", s->dir);
	assert_int_equal(watch_pub_open(&s->p, s->path, "player@test"), 0);
	s->g = gamefix_new(seed, MAPGEN_CLASSIC);
	s->u = (struct ui){ .screen = UI_PLAY, .hover_x = -1, .hover_y = -1, .score_rank = -1, .can_continue = true };
	s->gd = calloc(1, sizeof *s->gd);
	s->wd = calloc(1, sizeof *s->wd);
	assert_non_null(s->gd);
	assert_non_null(s->wd);
	assert_int_equal(con_create(&s->gc, 80, 30), 0);
	assert_int_equal(con_create(&s->gs, 80, 30), 0);
	assert_int_equal(con_create(&s->wc, 100, 36), 0); /* the watcher's own size */
	assert_int_equal(con_create(&s->ws, 100, 36), 0);
}

static void side_close(struct side *s)
{
	watch_pub_close(s->p);
	game_destroy(s->g);
	free(s->gd);
	free(s->wd);
	con_destroy(s->gc);
	con_destroy(s->gs);
	con_destroy(s->wc);
	con_destroy(s->ws);
	char d[96];
	snprintf(d, sizeof d, "%s/pirogue", s->dir);
	rmdir(d);
	rmdir(s->dir);
}

/* One turn of the game's loop as app.c runs it: a frame, the flush, its
 * sockets served without waiting, then (idle) the checksum. */
static void game_turn_of_loop(struct side *s, const struct ui *u, const struct game *g)
{
	ui_draw_frame(s->gd, u, g, s->gc, s->gs);
	con_clear_damage(s->gc);
	watch_pub_flush(s->p, u, g);
	watchfix_serve(s->p);
	watch_pub_check(s->p, g);
}

/* Whether the watcher follows g at its current command count and shows
 * the screen u (its screen block the same bytes as the game's). */
static bool caught_up(struct watcher *w, const struct ui *u, const struct game *g)
{
	unsigned char a[WATCH_SCREEN_MAX], b[WATCH_SCREEN_MAX];
	size_t na = watchwire_screen_to(a, u), nb = watchwire_screen_to(b, &w->ui);
	return w->synced && w->game && w->ncmd == hist_count(game_history(g)) && !watchfix_pending(w->fd) &&
	       w->last_sum == game_digest(g) && na == nb && !memcmp(a, b, na);
}

/* Both loops until the watcher follows g at its current command count and
 * shows u. */
static void until_caught_up(struct side *s, struct watcher *w, const struct ui *u, const struct game *g)
{
	for (int round = 0; round < 2000; round++) {
		game_turn_of_loop(s, u, g);
		/* the watcher's loop: poll its socket and the ring's wake-ups,
		 * beside the game's descriptors (a Unix socket's bytes are there
		 * as soon as the game's side above sent them; the eventfd is
		 * written by the publisher's waker thread a moment after the
		 * flush) */
		struct pollfd q[2 + WATCH_MAX + 1] = { { .fd = w->fd, .events = POLLIN },
						       { .fd = watcher_poll_fd(w), .events = POLLIN } };
		int n = 2 + watch_pub_poll_fds(s->p, q + 2, WATCH_MAX + 1);
		if (poll(q, (nfds_t)n, 0) > 0 && (q[0].revents || q[1].revents))
			assert_int_equal(watchfix_read(w), 0);
		if (caught_up(w, u, g))
			return;
		/* not yet: until either side has something (50 ms at most a
		 * round; the next round takes it) */
		poll(q, (nfds_t)n, 50);
	}
	fail_msg("the watcher never caught up with the game");
}

/* Every row but the last (the hint line) of the game's screen and of the
 * watcher's, both drawn at the same size, are the same. */
static void same_screen(struct side *s, struct watcher *w, const struct ui *u, const struct game *g)
{
	struct console *a, *b, *sa;
	assert_int_equal(con_create(&a, 90, 32), 0);
	assert_int_equal(con_create(&sa, 90, 32), 0);
	assert_int_equal(con_create(&b, 90, 32), 0);
	struct ui_drawn *d = calloc(1, sizeof *d);
	ui_draw_frame(d, u, g, a, sa);
	ui_drawn_forget(s->wd);
	assert_int_equal(watcher_draw(w, s->wd, b, sa), 0);
	char ra[128], rb[128];
	for (int y = 0; y < a->h - 1; y++)
		assert_string_equal(conrow_text(a, y, ra, false), conrow_text(b, y, rb, false));
	assert_non_null(strstr(conrow_text(b, b->h - 1, rb, true), "Watching player@test"));
	ui_drawn_forget(s->wd);
	free(d);
	con_destroy(a);
	con_destroy(b);
	con_destroy(sa);
}

/* The watcher's frame on its own console, kept from frame to frame (each
 * frame copies only what changed in the game's screen), is the game's
 * frame at that size but for the last row; also after another changed
 * the console behind the watcher's back. */
static void same_screen_kept(struct side *s, struct watcher *w, const struct ui *u, const struct game *g)
{
	struct console *a, *sa;
	assert_int_equal(con_create(&a, s->wc->w, s->wc->h), 0);
	assert_int_equal(con_create(&sa, s->wc->w, s->wc->h), 0);
	struct ui_drawn *d = calloc(1, sizeof *d);
	ui_draw_frame(d, u, g, a, sa);
	char ra[128], rb[128];
	for (int round = 0; round < 2; round++) {
		assert_int_equal(watcher_draw(w, s->wd, s->wc, s->ws), 0);
		for (int y = 0; y < a->h - 1; y++)
			assert_string_equal(conrow_text(a, y, ra, false), conrow_text(s->wc, y, rb, false));
		con_clear_damage(s->wc); /* presented */
		con_fill(s->wc, 0, 3, s->wc->w, 2, 'Z', 0xFFFFFFu, 0); /* another's change */
	}
	assert_int_equal(watcher_draw(w, s->wd, s->wc, s->ws), 0);
	con_clear_damage(s->wc);
	free(d);
	con_destroy(a);
	con_destroy(sa);
}

static void play(struct side *s, const struct command *c)
{
	game_do(s->g, c);
	watch_pub_command(s->p, c);
}

static void test_watch_a_game(void **state)
{
	(void)state;
	struct side s;
	side_open(&s, 5);
	struct watcher w = { .fd = -1 };
	char why[512];
	assert_int_equal(watcher_connect(&w, s.path, why, sizeof why), 0);
	until_caught_up(&s, &w, &s.u, s.g);
	assert_string_equal(w.who, "player@test");
	assert_true(game_checksum(w.game) == game_checksum(s.g));
	/* the watcher's own size: the map and the hint line replaced */
	assert_int_equal(watcher_draw(&w, s.wd, s.wc, s.ws), 0);
	assert_true(conrow_find(s.wc, "Watching player@test - q leaves"));
	assert_true(conrow_find(s.wc, "HP:"));
	/* moves, one loop turn each, and the screens between */
	for (int i = 0; i < 120 && !game_is_over(s.g); i++) {
		struct command c = { .c = (enum cmd)(CMD_MOVE_N + (i * 3 + i / 5) % 8), .item = -1, .x = -1, .y = -1,
				     .choice = -1 };
		play(&s, &c);
		game_turn_of_loop(&s, &s.u, s.g);
		if (i % 10 == 0) {
			until_caught_up(&s, &w, &s.u, s.g);
			same_screen_kept(&s, &w, &s.u, s.g);
		}
	}
	until_caught_up(&s, &w, &s.u, s.g);
	same_screen(&s, &w, &s.u, s.g);
	s.u.screen = UI_CHARACTER;
	until_caught_up(&s, &w, &s.u, s.g);
	game_turn_of_loop(&s, &s.u, s.g);
	struct pollfd q = { .fd = w.fd, .events = POLLIN };
	while (poll(&q, 1, 0) == 1 && watchfix_pending(w.fd))
		watchfix_read(&w);
	assert_int_equal(w.ui.screen, UI_CHARACTER);
	same_screen(&s, &w, &s.u, s.g);
	s.u.screen = UI_PLAY;
	/* a new game: a new snapshot */
	game_destroy(s.g);
	s.g = gamefix_new(6, MAPGEN_CLASSIC);
	ui_drawn_forget(s.gd);
	watch_pub_replaced(s.p);
	until_caught_up(&s, &w, &s.u, s.g);
	assert_true(game_seed(w.game) == 6);
	same_screen(&s, &w, &s.u, s.g);
	assert_int_equal(w.mismatches, 0);
	assert_true(w.checks > 10);
	/* the game ends: the watcher's stream closes */
	watch_pub_close(s.p);
	s.p = NULL;
	int rc = 0;
	for (int i = 0; i < 100 && rc == 0; i++) {
		poll(&q, 1, 0);
		rc = watchfix_read(&w);
	}
	assert_int_equal(rc, 1);
	watcher_close(&w);
	side_close(&s);
}

/* The attract demo: its game is what is shown, and each of its moves is
 * sent like a player's. */
static void test_watch_the_demo(void **state)
{
	(void)state;
	struct side s;
	side_open(&s, 1);
	struct watcher w = { .fd = -1 };
	char why[512];
	assert_int_equal(watcher_connect(&w, s.path, why, sizeof why), 0);
	struct ui demo = { .screen = UI_PLAY, .hover_x = -1, .hover_y = -1, .score_rank = -1, .demo = true };
	snprintf(demo.status, sizeof demo.status, "Demo - press any key");
	for (int i = 0; i < 200 && !game_is_over(s.g); i++) {
		struct command c = idle_demo_command(s.g);
		play(&s, &c);
		game_turn_of_loop(&s, &demo, s.g);
	}
	until_caught_up(&s, &w, &demo, s.g);
	assert_true(w.ui.demo);
	assert_string_equal(w.ui.status, "Demo - press any key");
	same_screen(&s, &w, &demo, s.g);
	watcher_close(&w);
	side_close(&s);
}

/* 50 watchers attached, detached and stalled at random while the game
 * plays: it never waits (every flush returns, nothing blocks), nothing but
 * a WATCH_RING waits on a socket besides the snapshots, and the watchers
 * that read end on the game's checksum. */
static void test_fifty_watchers_at_random(void **state)
{
	(void)state;
	struct side s;
	side_open(&s, 9);
	((struct c_actor *)ecs_get_mut(s.g->w, s.g->player, COMP_ACTOR))->defense = 1000; /* plays all the turns */
	enum { N = 50 };
	struct watcher w[N];
	bool stalled[N];
	for (int i = 0; i < N; i++) {
		w[i] = (struct watcher){ .fd = -1 };
		stalled[i] = false;
	}
	struct rng r;
	rng_seed(&r, 42);
	char why[512];
	/* five attached at once and stalled for the first 1500 turns (a
	 * stalled SSH session), the rest at random */
	for (int i = 0; i < 5; i++) {
		assert_int_equal(watcher_connect(&w[i], s.path, why, sizeof why), 0);
		stalled[i] = true;
	}
	for (int turn = 0; turn < 2000 && !game_is_over(s.g); turn++) {
		int k = (int)rng_range(&r, 5, N - 1);
		if (turn == 1500)
			for (int i = 0; i < 5; i++)
				stalled[i] = false;
		switch (rng_range(&r, 0, 5)) {
		case 0: /* attach (or reattach) */
			if (w[k].fd < 0)
				assert_int_equal(watcher_connect(&w[k], s.path, why, sizeof why), 0);
			break;
		case 1: /* detach */
			watcher_close(&w[k]);
			w[k] = (struct watcher){ .fd = -1 };
			break;
		case 2: /* stall, or stop stalling */
			stalled[k] = !stalled[k];
			break;
		default:
			break;
		}
		struct command c = { .c = (enum cmd)(CMD_MOVE_N + (turn * 7 + turn / 3) % 8), .item = -1, .x = -1, .y = -1,
				     .choice = -1 };
		play(&s, &c);
		game_turn_of_loop(&s, &s.u, s.g);
		struct watch_pub_stats st;
		watch_pub_stats(s.p, &st);
		assert_true(st.queued <= (size_t)st.watchers * (WATCH_HEAD + 12));
		assert_true(st.watchers <= N);
		for (int i = 0; i < N; i++)
			if (w[i].fd >= 0 && !stalled[i])
				watchfix_read(&w[i]);
	}
	/* everyone still attached stops stalling and catches up */
	for (int i = 0; i < N; i++) {
		if (w[i].fd < 0)
			continue;
		until_caught_up(&s, &w[i], &s.u, s.g);
		assert_true(game_checksum(w[i].game) == game_checksum(s.g));
		assert_int_equal(w[i].mismatches, 0);
	}
	struct watch_pub_stats st;
	watch_pub_stats(s.p, &st);
	assert_int_equal(game_turn(s.g) > 1500, true);
	assert_true(st.snapshots > N);
	assert_true(st.behind > 0); /* the stalled ones fell behind */
	for (int i = 0; i < N; i++)
		watcher_close(&w[i]);
	side_close(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_watch_a_game),
		cmocka_unit_test(test_watch_the_demo),
		cmocka_unit_test(test_fifty_watchers_at_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
