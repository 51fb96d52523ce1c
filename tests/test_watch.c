/* test_watch: the watch protocol (watchwire: every message built and parsed
 * back, the reader in pieces, hostile values refused), the publisher's
 * ring (a watcher that falls behind gets a fresh snapshot, one that sends
 * junk is dropped, WATCH_MAX at most), the watcher's reading of a ring
 * (one written over while it copied, or lapped, or holding what only a
 * socket carries), the watcher's checksum
 * mismatch, the socket's mode and its refusal of a user outside the group, no chown
 * when the socket has the group already (the kiosk unit kills chown), the
 * watchers' wake-up never written on the game's thread (eleven woken by the
 * publisher's waker). */
#include "watchfix.h"
#include "child.h"
#include "gamefix.h"
#include "conrow.h"
#include "core/le.h"
#include <grp.h>
#include <pwd.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <dlfcn.h>
#include <linux/kcmp.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

/* getgrnam(3) and chown(2) as the publisher sees them: with fake_group set,
 * the group pirogue exists and has fake_gid; chown is counted (then done).
 * Otherwise the system's groups (getgrnam_r, not interposed). */
static bool fake_group;
static gid_t fake_gid;
static int chowns;

struct group *getgrnam(const char *name)
{
	static struct group g;
	static char buf[4096];
	struct group *r = NULL;
	if (fake_group && !strcmp(name, WATCH_GROUP)) {
		g = (struct group){ .gr_name = (char *)WATCH_GROUP, .gr_gid = fake_gid };
		return &g;
	}
	return getgrnam_r(name, &g, buf, sizeof buf, &r) ? NULL : r;
}

int chown(const char *path, uid_t uid, gid_t gid)
{
	chowns++;
	return (int)syscall(SYS_fchownat, AT_FDCWD, path, uid, gid, 0);
}

/* listen(2) as the publisher calls it: with listen_path set, whether a
 * watcher could reach the socket there yet (it should not: refused, it
 * would be told that the game has ended). */
static const char *listen_path;
static int listen_path_there = -1;

int listen(int fd, int backlog)
{
	if (listen_path)
		listen_path_there = access(listen_path, F_OK) == 0;
	int (*real)(int, int) = (int (*)(int, int))dlsym(RTLD_NEXT, "listen");
	return real ? real(fd, backlog) : -1;
}

/* write(2) as the publisher calls it: with wake_seen set (a descriptor of
 * the eventfd the watchers wait on, as one of them was given it), each
 * write of its count is counted apart for the thread that wake_tid names
 * (the game's) and for the others. kcmp tells whether a descriptor is that
 * same open file. */
static int wake_seen = -1;
static pid_t wake_tid;
static int wake_by_game, wake_by_others;

ssize_t write(int fd, const void *buf, size_t n)
{
	if (wake_seen >= 0 && n == sizeof(uint64_t) &&
	    syscall(SYS_kcmp, (pid_t)getpid(), (pid_t)getpid(), KCMP_FILE, fd, wake_seen) == 0)
		__atomic_add_fetch(syscall(SYS_gettid) == wake_tid ? &wake_by_game : &wake_by_others, 1, __ATOMIC_SEQ_CST);
	return syscall(SYS_write, fd, buf, n);
}

static struct game *new_game(uint64_t seed)
{
	return gamefix_new(seed, MAPGEN_CLASSIC);
}

static struct ui play_ui(void)
{
	return (struct ui){ .screen = UI_PLAY, .hover_x = -1, .hover_y = -1, .score_rank = -1, .can_continue = true };
}

/* Reads one whole message of b (from *at) into r; returns its type. */
static int one_msg(struct watch_reader *r, const struct serial_buf *b, size_t *at)
{
	size_t used;
	int rc = watchwire_read(r, b->data + *at, b->len - *at, &used);
	*at += used;
	assert_int_equal(rc, 1);
	return r->type;
}

static void test_messages_round_trip(void **state)
{
	(void)state;
	struct serial_buf b = { 0 };
	struct command c = { .c = CMD_USE, .item = 3, .x = 17, .y = 9, .choice = -1 };
	struct ui u = play_ui();
	u.screen = UI_SCORES;
	u.menu_sel = 2;
	u.help_from = UI_INVENTORY;
	u.last_dev = DEV_GAMEPAD;
	u.demo = u.confirm_new = u.scores_after_death = true;
	u.history_top = 7;
	u.help_top = 12;
	u.look_x = 33;
	u.look_y = 4;
	u.inv_sel = 5;
	u.target_slot = 6;
	u.levelup_sel = 2;
	u.score_rank = 1;
	snprintf(u.notice, sizeof u.notice, "a notice");
	snprintf(u.status, sizeof u.status, "You see an orc.");
	u.nscores = 2;
	u.scores[0] = (struct ui_score){ .score = 1234, .depth = 3, .turns = 500, .level = 4, .cause = "killed by an orc" };
	u.scores[1] = (struct ui_score){ .score = 99, .depth = 1, .turns = 20, .level = 1, .cause = "quit" };
	assert_int_equal(watchwire_hello(&b, "ann@pi (kiosk)"), 0);
	assert_int_equal(watchwire_command(&b, &c), 0);
	assert_int_equal(watchwire_check(&b, 41, 40, 0x0123456789ABCDEFull), 0);
	assert_int_equal(watchwire_screen(&b, &u), 0);

	struct watch_reader r = { 0 };
	size_t at = 0;
	char why[256], who[256];
	assert_int_equal(one_msg(&r, &b, &at), WATCH_HELLO);
	assert_int_equal(watchwire_parse_hello(r.body, r.got, who, sizeof who, why, sizeof why), 0);
	assert_string_equal(who, "ann@pi (kiosk)");
	assert_int_equal(one_msg(&r, &b, &at), WATCH_COMMAND);
	struct command back;
	assert_int_equal(watchwire_parse_command(r.body, r.got, &back, why, sizeof why), 0);
	assert_memory_equal(&back, &c, sizeof c);
	assert_int_equal(one_msg(&r, &b, &at), WATCH_CHECK);
	int n, t;
	uint64_t sum;
	assert_int_equal(watchwire_parse_check(r.body, r.got, &n, &t, &sum, why, sizeof why), 0);
	assert_int_equal(n, 41);
	assert_int_equal(t, 40);
	assert_true(sum == 0x0123456789ABCDEFull);
	assert_int_equal(one_msg(&r, &b, &at), WATCH_SCREEN);
	struct ui v = { 0 };
	size_t used;
	assert_int_equal(watchwire_parse_ui(r.body, r.got, &used, &v, why, sizeof why), 0);
	assert_int_equal(used, r.got);
	assert_int_equal(v.screen, UI_SCORES);
	assert_int_equal(v.menu_sel, 2);
	assert_int_equal(v.help_from, UI_INVENTORY);
	assert_int_equal(v.last_dev, DEV_GAMEPAD);
	assert_true(v.demo && v.confirm_new && v.scores_after_death && !v.kiosk && !v.confirm_quit);
	assert_int_equal(v.history_top, 7);
	assert_int_equal(v.help_top, 12);
	assert_int_equal(v.look_x, 33);
	assert_int_equal(v.look_y, 4);
	assert_int_equal(v.inv_sel, 5);
	assert_int_equal(v.target_slot, 6);
	assert_int_equal(v.levelup_sel, 2);
	assert_int_equal(v.score_rank, 1);
	assert_string_equal(v.notice, "a notice");
	assert_string_equal(v.status, "You see an orc.");
	assert_int_equal(v.nscores, 2);
	assert_int_equal(v.scores[0].score, 1234);
	assert_int_equal(v.scores[0].turns, 500);
	assert_string_equal(v.scores[1].cause, "quit");
	assert_int_equal(at, b.len);
	watchwire_reader_free(&r);
	free(b.data);
}

static void test_snapshot_round_trip(void **state)
{
	(void)state;
	struct game *g = new_game(5);
	for (int i = 0; i < 40; i++)
		game_apply(g, (enum cmd)(CMD_MOVE_N + i * 3 % 8));
	struct ui u = play_ui();
	struct serial_buf b = { 0 };
	assert_int_equal(watchwire_snapshot(&b, &u, g), 0);
	struct watch_reader r = { 0 };
	size_t at = 0;
	assert_int_equal(one_msg(&r, &b, &at), WATCH_SNAPSHOT);
	struct ui v = { 0 };
	struct game *h;
	int n, t;
	uint64_t sum;
	char why[256];
	assert_int_equal(watchwire_parse_snapshot(r.body, r.got, &v, &h, &n, &t, &sum, why, sizeof why), 0);
	assert_non_null(h);
	assert_true(sum == game_digest(g));
	assert_true(game_checksum(h) == game_checksum(g));
	assert_int_equal(n, 40);
	assert_int_equal(t, game_turn(g));
	assert_int_equal(v.screen, UI_PLAY);
	/* no game: the title only */
	b.len = 0;
	struct ui title = { .screen = UI_TITLE, .score_rank = -1 };
	assert_int_equal(watchwire_snapshot(&b, &title, NULL), 0);
	at = 0;
	assert_int_equal(one_msg(&r, &b, &at), WATCH_SNAPSHOT);
	struct game *none = (struct game *)&n;
	assert_int_equal(watchwire_parse_snapshot(r.body, r.got, &v, &none, &n, &t, &sum, why, sizeof why), 0);
	assert_null(none);
	/* a game screen without a game is refused */
	b.len = 0;
	assert_int_equal(watchwire_snapshot(&b, &u, NULL), 0);
	at = 0;
	assert_int_equal(one_msg(&r, &b, &at), WATCH_SNAPSHOT);
	assert_int_equal(watchwire_parse_snapshot(r.body, r.got, &v, &none, &n, &t, &sum, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "without a game"));
	watchwire_reader_free(&r);
	free(b.data);
	game_destroy(h);
	game_destroy(g);
}

/* A stream read one byte at a time gives the same messages; a length over
 * the maximum is refused before any of it is allocated; one that lies
 * costs only the bytes that came. */
static void test_reader_pieces_and_bounds(void **state)
{
	(void)state;
	struct serial_buf b = { 0 };
	struct command c = { .c = CMD_WAIT, .item = -1, .x = -1, .y = -1, .choice = -1 };
	for (int i = 0; i < 10; i++)
		assert_int_equal(watchwire_command(&b, &c), 0);
	struct watch_reader r = { 0 };
	int got = 0;
	for (size_t i = 0; i < b.len; i++) {
		size_t used;
		int rc = watchwire_read(&r, b.data + i, 1, &used);
		assert_int_equal(used, 1);
		if (rc == 1) {
			assert_int_equal(r.type, WATCH_COMMAND);
			assert_int_equal(r.got, 20);
			got++;
		} else {
			assert_int_equal(rc, 0);
		}
	}
	assert_int_equal(got, 10);
	watchwire_reader_free(&r);

	/* over the maximum */
	unsigned char big[WATCH_HEAD] = { 0xFF, 0xFF, 0xFF, 0x7F, WATCH_SNAPSHOT };
	size_t used;
	assert_int_equal(watchwire_read(&r, big, sizeof big, &used), -EMSGSIZE);
	assert_null(r.body);
	watchwire_reader_free(&r);
	unsigned char zero[WATCH_HEAD] = { 0, 0, 0, 0, WATCH_CHECK };
	assert_int_equal(watchwire_read(&r, zero, sizeof zero, &used), -EMSGSIZE);
	watchwire_reader_free(&r);
	/* a 16 MB length followed by 10 bytes: a few hundred bytes held */
	unsigned char lie[WATCH_HEAD + 10] = { 0x00, 0x00, 0x00, 0x01, WATCH_SNAPSHOT };
	assert_int_equal(watchwire_read(&r, lie, sizeof lie, &used), 0);
	assert_int_equal(used, sizeof lie);
	assert_true(r.cap <= 256);
	watchwire_reader_free(&r);
	free(b.data);
}

static void test_hostile_values_refused(void **state)
{
	(void)state;
	char why[256];
	struct serial_buf b = { 0 };
	struct ui u = play_ui();
	assert_int_equal(watchwire_screen(&b, &u), 0);
	unsigned char *p = b.data + WATCH_HEAD;
	size_t n = b.len - WATCH_HEAD, used;
	struct ui v = { 0 };
	assert_int_equal(watchwire_parse_ui(p, n, &used, &v, why, sizeof why), 0);
	p[0] = UI_SCREEN_COUNT; /* no such screen */
	assert_int_equal(watchwire_parse_ui(p, n, &used, &v, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "out of range"));
	p[0] = UI_PLAY;
	p[1] = MENU_COUNT; /* no such menu entry */
	assert_int_equal(watchwire_parse_ui(p, n, &used, &v, why, sizeof why), -EINVAL);
	p[1] = 0;
	assert_int_equal(watchwire_parse_ui(p, n - 1, &used, &v, why, sizeof why), -EINVAL); /* cut short */
	/* a line of text holding a control byte */
	b.len = 0;
	snprintf(u.status, sizeof u.status, "bad\033[2Jline");
	assert_int_equal(watchwire_screen(&b, &u), 0);
	assert_int_equal(watchwire_parse_ui(b.data + WATCH_HEAD, b.len - WATCH_HEAD, &used, &v, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "line of text"));
	/* commands out of range */
	b.len = 0;
	struct command c = { .c = CMD_COUNT, .item = -1, .x = -1, .y = -1, .choice = -1 };
	assert_int_equal(watchwire_command(&b, &c), 0);
	struct command back;
	assert_int_equal(watchwire_parse_command(b.data + WATCH_HEAD, 20, &back, why, sizeof why), -EINVAL);
	b.len = 0;
	c = (struct command){ .c = CMD_USE, .item = 26, .x = -1, .y = -1, .choice = -1 };
	assert_int_equal(watchwire_command(&b, &c), 0);
	assert_int_equal(watchwire_parse_command(b.data + WATCH_HEAD, 20, &back, why, sizeof why), -EINVAL);
	assert_int_equal(watchwire_parse_command(b.data + WATCH_HEAD, 19, &back, why, sizeof why), -EINVAL);
	/* another protocol version */
	b.len = 0;
	assert_int_equal(watchwire_hello(&b, "x"), 0);
	b.data[WATCH_HEAD] = WATCH_VERSION + 1;
	char who[64];
	assert_int_equal(watchwire_parse_hello(b.data + WATCH_HEAD, b.len - WATCH_HEAD, who, sizeof who, why, sizeof why),
			 -EINVAL);
	assert_non_null(strstr(why, "version"));
	free(b.data);
}

/* A publisher with one watcher on a socket pair, fed into w. */
struct rig {
	struct game *g;
	struct ui u;
	struct watch_pub *p;
	struct watcher w;
};

static void rig_open(struct rig *r, uint64_t seed)
{
	memset(r, 0, sizeof *r);
	r->g = new_game(seed);
	r->u = play_ui();
	assert_int_equal(watch_pub_new(&r->p, "test@here"), 0);
	r->w.fd = watchfix_pair(r->p);
}

static void rig_close(struct rig *r)
{
	watcher_close(&r->w);
	watch_pub_close(r->p);
	game_destroy(r->g);
}

/* One command played, published and flushed. */
static void rig_play(struct rig *r, enum cmd c)
{
	struct command cmd = { .c = c, .item = -1, .x = -1, .y = -1, .choice = -1 };
	game_do(r->g, &cmd);
	watch_pub_command(r->p, &cmd);
	watch_pub_flush(r->p, &r->u, r->g);
	watch_pub_check(r->p, r->g); /* the loop idle after it */
}

/* Flushes and reads until the watcher has caught up with the game. */
static void rig_catch_up(struct rig *r)
{
	for (int round = 0; round < 1000; round++) {
		watchfix_serve(r->p);
		watch_pub_flush(r->p, &r->u, r->g);
		watch_pub_check(r->p, r->g);
		if (watchfix_read(&r->w) == 1)
			fail_msg("the game's end of the stream closed");
		if (r->w.synced && r->w.game && r->w.ncmd == hist_count(game_history(r->g)) &&
		    !watchfix_pending(r->w.fd))
			return;
	}
	fail_msg("the watcher never caught up");
}

/* A watcher that reads nothing falls behind without the game waiting or
 * sending it anything (its messages are in the ring, which goes round many
 * times meanwhile); once it reads again, it finds it fell behind, asks for
 * a fresh snapshot and ends on the game's checksum. */
static void test_fall_behind_fresh_snapshot(void **state)
{
	(void)state;
	struct rig r;
	rig_open(&r, 7);
	rig_catch_up(&r);
	struct watch_pub_stats st;
	watch_pub_stats(r.p, &st);
	assert_int_equal(st.snapshots, 1);
	/* the watcher stalls: nothing read while the game plays on */
	for (int i = 0; i < 20000 && !game_is_over(r.g); i++) {
		rig_play(&r, (enum cmd)(CMD_MOVE_N + (i * 5 + i / 7) % 8));
		watch_pub_stats(r.p, &st);
		assert_int_equal(st.queued, 0); /* nothing for it on its socket */
		assert_false(watchfix_pending(r.w.fd));
	}
	watch_pub_stats(r.p, &st);
	assert_int_equal(st.behind, 0); /* the game does not know */
	assert_int_equal(st.watchers, 1);
	rig_catch_up(&r);
	watch_pub_stats(r.p, &st);
	assert_int_equal(st.behind, 1);
	assert_int_equal(st.snapshots, 2);
	assert_true(game_checksum(r.w.game) == game_checksum(r.g));
	assert_int_equal(r.w.mismatches, 0);
	/* it follows on */
	for (int i = 0; i < 5; i++)
		rig_play(&r, CMD_WAIT);
	rig_catch_up(&r);
	assert_true(r.w.last_sum == game_digest(r.g));
	/* what the watcher says when it leaves: the recordings' checksum */
	uint64_t sum;
	assert_int_equal(watcher_checksum(&r.w, &sum), 0);
	assert_true(sum == game_checksum(r.g));
	rig_close(&r);
}

/* Waits (a guard of 30 s: it comes as soon as the waker ran) until w's
 * wake-ups are readable. */
static void until_woken(struct watcher *w)
{
	struct pollfd q = { .fd = watcher_poll_fd(w), .events = POLLIN };
	assert_true(q.fd >= 0);
	if (poll(&q, 1, 30000) != 1)
		fail_msg("a watcher was never woken");
}

/* The game's thread wakes no watcher itself: eleven watchers, each with
 * its wake-ups on an epoll of its own (as pirogue --watch has them), keys
 * at a person's pace (each flushed, then its checksum) and back to back
 * (flushed, the wake-up every WATCH_DEFER commands): no write of the
 * watchers' eventfd is made on the game's thread (the kernel would wake
 * every one of them inside it, per watcher, on the game's time); another
 * thread makes them, and every watcher is woken and follows the game. */
#define WAKE_N 11
static void test_game_thread_wakes_no_watcher(void **state)
{
	(void)state;
	struct rig r;
	rig_open(&r, 9);
	struct watcher more[WAKE_N - 1];
	struct watcher *w[WAKE_N] = { &r.w };
	for (int i = 0; i < WAKE_N - 1; i++) {
		more[i] = (struct watcher){ .fd = watchfix_pair(r.p) };
		w[i + 1] = &more[i];
	}
	/* every one follows the ring */
	for (int round = 0, caught = 0; caught < WAKE_N; round++) {
		assert_true(round < 1000);
		watchfix_serve(r.p);
		watch_pub_flush(r.p, &r.u, r.g);
		caught = 0;
		for (int i = 0; i < WAKE_N; i++) {
			watchfix_read(w[i]);
			caught += w[i]->synced && watcher_poll_fd(w[i]) >= 0;
		}
	}
	wake_tid = (pid_t)syscall(SYS_gettid);
	wake_seen = r.w.wake_fd;
	for (int k = 0; k < 2 * WATCH_DEFER + 3; k++) {
		bool pace = k < 3; /* three at a person's pace, then back to back */
		struct command cmd = { .c = (enum cmd)(CMD_MOVE_N + k % 8), .item = -1, .x = -1, .y = -1, .choice = -1 };
		game_do(r.g, &cmd);
		watch_pub_command(r.p, &cmd);
		watch_pub_flush(r.p, &r.u, r.g);
		if (pace)
			watch_pub_check(r.p, r.g);
		if (pace || k == 2 + WATCH_DEFER) {
			/* a wake-up was due: every watcher gets it (another
			 * thread's), and reads what it was woken for */
			for (int i = 0; i < WAKE_N; i++) {
				until_woken(w[i]);
				watchfix_read(w[i]);
			}
			if (wake_by_game)
				fail_msg("key %d: the game's thread wrote the watchers' eventfd itself (every watcher woken "
					 "on its time)", k);
		}
	}
	watch_pub_check(r.p, r.g); /* the loop idle at last */
	for (int i = 0; i < WAKE_N; i++) {
		until_woken(w[i]);
		watchfix_read(w[i]);
		assert_int_equal(w[i]->ncmd, hist_count(game_history(r.g)));
		assert_true(w[i]->last_sum == game_digest(r.g));
		assert_int_equal(w[i]->mismatches, 0);
	}
	assert_int_equal(wake_by_game, 0);
	assert_true(wake_by_others > 0); /* (the writes are seen: kcmp works) */
	wake_seen = -1;
	for (int i = 0; i < WAKE_N - 1; i++)
		watcher_close(&more[i]);
	rig_close(&r);
}

/* Keys back to back (each flushed, the loop never idle): the watchers are
 * woken once every WATCH_DEFER commands, not at every flush after the
 * first WATCH_DEFER (each wake-up is a round of the waker's: ~250
 * instructions); the checksum when the loop is idle at last wakes them
 * once more, and the watcher has every command and the game's digest. */
static void test_back_to_back_wakes_every_defer(void **state)
{
	(void)state;
	struct rig r;
	rig_open(&r, 11);
	rig_catch_up(&r);
	struct watch_pub_stats st;
	watch_pub_stats(r.p, &st);
	long before = st.wakes;
	for (int k = 0; k < 3 * WATCH_DEFER + 2; k++) {
		struct command cmd = { .c = (enum cmd)(CMD_MOVE_N + (k * 3) % 8), .item = -1, .x = -1, .y = -1, .choice = -1 };
		game_do(r.g, &cmd);
		watch_pub_command(r.p, &cmd);
		watch_pub_flush(r.p, &r.u, r.g);
		watch_pub_stats(r.p, &st);
		assert_int_equal(st.wakes - before, (k + 1) / WATCH_DEFER); /* at 8, 16, 24 commands */
	}
	watch_pub_check(r.p, r.g);
	watch_pub_stats(r.p, &st);
	assert_int_equal(st.wakes - before, 4);
	/* a flush with nothing new wakes no one */
	watch_pub_flush(r.p, &r.u, r.g);
	watch_pub_stats(r.p, &st);
	assert_int_equal(st.wakes - before, 4);
	rig_catch_up(&r);
	assert_int_equal(r.w.ncmd, hist_count(game_history(r.g)));
	assert_true(r.w.last_sum == game_digest(r.g));
	assert_int_equal(r.w.mismatches, 0);
	rig_close(&r);
}

/* A watcher that comes later gets the snapshot made for an earlier one and
 * the messages since, and follows the game as well; once those pass
 * WATCH_SINCE the next one gets a snapshot made then. However many come,
 * a snapshot is made at most once per WATCH_SINCE bytes of messages. */
static void test_snapshot_shared_with_what_followed(void **state)
{
	(void)state;
	struct rig r;
	rig_open(&r, 9);
	rig_catch_up(&r);
	struct watch_pub_stats st;
	watch_pub_stats(r.p, &st);
	assert_int_equal(st.snapshots_made, 1);
	struct watcher late[8];
	memset(late, 0, sizeof late);
	for (int k = 0; k < 8; k++) {
		for (int i = 0; i < 5; i++)
			rig_play(&r, (enum cmd)(CMD_MOVE_N + (k * 3 + i) % 8));
		late[k].fd = watchfix_pair(r.p);
		rig_catch_up(&r);
		for (int round = 0; round < 1000 && !(late[k].synced && late[k].ncmd == hist_count(game_history(r.g)) &&
						    !watchfix_pending(late[k].fd));
		     round++) {
			watchfix_serve(r.p);
			watch_pub_flush(r.p, &r.u, r.g);
			watchfix_read(&late[k]);
		}
		assert_true(late[k].synced);
		assert_true(game_checksum(late[k].game) == game_checksum(r.g));
		assert_int_equal(late[k].mismatches, 0);
		watch_pub_stats(r.p, &st);
		assert_true(st.since_bytes > 0 && st.since_bytes <= WATCH_SINCE);
	}
	/* every one of them checks on with the game */
	rig_play(&r, CMD_WAIT);
	rig_catch_up(&r);
	for (int k = 0; k < 8; k++) {
		watchfix_read(&late[k]);
		assert_true(late[k].last_sum == game_digest(r.g));
		assert_int_equal(late[k].mismatches, 0);
	}
	watch_pub_stats(r.p, &st);
	assert_int_equal(st.snapshots, 9);
	assert_int_equal(st.snapshots_made, 1);
	for (int k = 0; k < 8; k++)
		watcher_close(&late[k]);
	/* the messages since pass WATCH_SINCE: the snapshot is let go, and the
	 * next watcher's is made then */
	long made = st.snapshots_made;
	for (int i = 0; i < 2000 && !game_is_over(r.g); i++) {
		rig_play(&r, (enum cmd)(CMD_MOVE_N + (i * 5 + i / 7) % 8));
		rig_catch_up(&r);
		watch_pub_stats(r.p, &st);
		assert_true(st.since_bytes <= WATCH_SINCE);
	}
	struct watcher next = { .fd = watchfix_pair(r.p) };
	rig_catch_up(&r);
	for (int round = 0; round < 1000 && !next.synced; round++) {
		watchfix_serve(r.p);
		watch_pub_flush(r.p, &r.u, r.g);
		watchfix_read(&next);
	}
	assert_true(next.synced);
	assert_true(game_checksum(next.game) == game_checksum(r.g));
	watch_pub_stats(r.p, &st);
	assert_int_equal(st.snapshots_made, made + 1);
	watcher_close(&next);
	rig_close(&r);
}

/* A checksum that differs is said in one line and a new snapshot is asked
 * for; the game sends one and the watcher is right again. */
static void test_mismatch_asks_for_snapshot(void **state)
{
	(void)state;
	struct rig r;
	rig_open(&r, 3);
	rig_catch_up(&r);
	/* its line on the screen, drawn anew only when it changes */
	struct ui_drawn *d = calloc(1, sizeof *d);
	struct console *shown, *scratch;
	assert_non_null(d);
	assert_int_equal(con_create(&shown, 160, 24), 0); /* (the whole line) */
	assert_int_equal(con_create(&scratch, 160, 24), 0);
	char row[1024];
	assert_int_equal(watcher_draw(&r.w, d, shown, scratch), 0);
	assert_non_null(strstr(conrow_text(shown, 23, row, true), "Watching test@here - q leaves"));
	/* the copy is made to differ: a command the game never played */
	struct command stray = { .c = CMD_MOVE_E, .item = -1, .x = -1, .y = -1, .choice = -1 };
	game_do(r.w.game, &stray);
	r.w.ncmd--; /* as if it had not counted it */
	rig_play(&r, CMD_WAIT);
	watchfix_read(&r.w);
	assert_int_equal(r.w.mismatches, 1);
	assert_false(r.w.synced);
	assert_non_null(strstr(r.w.line, "checksum mismatch at turn"));
	assert_null(strchr(r.w.line, '\n'));
	assert_int_equal(watcher_draw(&r.w, d, shown, scratch), 0);
	assert_non_null(strstr(conrow_text(shown, 23, row, true), "checksum mismatch at turn"));
	struct watch_pub_stats st;
	watch_pub_stats(r.p, &st);
	long before = st.snapshots;
	rig_catch_up(&r);
	watch_pub_stats(r.p, &st);
	assert_int_equal(st.snapshots, before + 1);
	assert_true(game_checksum(r.w.game) == game_checksum(r.g));
	assert_non_null(strstr(r.w.line, "took a new snapshot"));
	assert_int_equal(watcher_draw(&r.w, d, shown, scratch), 0);
	assert_non_null(strstr(conrow_text(shown, 23, row, true), "took a new snapshot"));
	con_destroy(shown);
	con_destroy(scratch);
	free(d);
	rig_close(&r);
}

/* The ways the watcher's copy is made to differ from the game in one value
 * (test_one_value_differs), each a write the game's own code could make:
 * through ecs_get_mut (marked), map_set, world_msg, the RNG. */
enum one_change {
	CH_MONSTER_HP,   /* c_actor (32-bit fields) */
	CH_MONSTER_AI,   /* c_ai */
	CH_ITEM_SEEN,    /* c_item (a byte field) */
	CH_PLAYER_KILLS, /* c_player (arrays, a string) */
	CH_PLAYER_CAUSE, /* its string */
	CH_INVENTORY,    /* c_inventory (64-bit ids) */
	CH_TILE,         /* a cell of the floor */
	CH_LOG,          /* a message */
	CH_RNG,          /* the generator's state */
	CH_COUNT
};

/* The first entity of g having component c but not the player, or the
 * player for pl. */
static ecs_entity some_with(struct game *g, int c, bool pl)
{
	if (pl)
		return g->player;
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(c));
	for (ecs_entity e; ecs_query_next(&q, &e);)
		if (e != g->player)
			return e;
	fail_msg("no entity with component %d", c);
	return ECS_NULL;
}

/* One value of g changed as k says. */
static void change_one(struct game *g, enum one_change k)
{
	switch (k) {
	case CH_MONSTER_HP:
		((struct c_actor *)ecs_get_mut(g->w, some_with(g, COMP_AI, false), COMP_ACTOR))->hp += 1;
		break;
	case CH_MONSTER_AI:
		((struct c_ai *)ecs_get_mut(g->w, some_with(g, COMP_AI, false), COMP_AI))->last_x += 1;
		break;
	case CH_ITEM_SEEN:
		((struct c_item *)ecs_get_mut(g->w, some_with(g, COMP_ITEM, false), COMP_ITEM))->seen ^= 1;
		break;
	case CH_PLAYER_KILLS:
		((struct c_player *)ecs_get_mut(g->w, g->player, COMP_PLAYER))->kills[ACTOR_COUNT - 1] += 1;
		break;
	case CH_PLAYER_CAUSE:
		((struct c_player *)ecs_get_mut(g->w, g->player, COMP_PLAYER))->cause[0] = 'x';
		break;
	case CH_INVENTORY:
		((struct c_inventory *)ecs_get_mut(g->w, g->player, COMP_INVENTORY))->slot[INVENTORY_SLOTS - 1] = 7;
		break;
	case CH_TILE: {
		struct map *m = world_floor(g, g->depth);
		/* a wall cell far from the player made floor */
		for (int y = m->h - 1; y >= 0; y--)
			for (int x = m->w - 1; x >= 0; x--)
				if (map_tile(m, x, y) == TILE_WALL) {
					map_set(m, x, y, TILE_FLOOR);
					return;
				}
		fail_msg("no wall");
		break;
	}
	case CH_LOG:
		world_msg(g, 0xFFFFFF, "a message the game never wrote");
		break;
	case CH_RNG:
		(void)rng_next(&g->rng);
		break;
	default:
		fail_msg("change %d", (int)k);
	}
}

/* A copy that differs from the game in one value, with the same commands
 * played (so only the digest can tell): the watcher says so at the next
 * check and asks for a snapshot, and is right again with it. Each kind of
 * value: a component of each layout written through ecs_get_mut, a floor
 * cell, the log, the RNG. A digest that missed the change fails here. */
static void test_one_value_differs(void **state)
{
	(void)state;
	for (int k = 0; k < CH_COUNT; k++) {
		struct rig r;
		rig_open(&r, 3);
		rig_catch_up(&r);
		rig_play(&r, CMD_WAIT);
		rig_catch_up(&r); /* both digests made since the snapshot: the cache is in use */
		assert_int_equal(r.w.mismatches, 0);
		change_one(r.w.game, (enum one_change)k);
		rig_play(&r, CMD_WAIT);
		watchfix_read(&r.w);
		if (r.w.mismatches != 1)
			fail_msg("change %d: the copy differs in one value, %ld mismatches said", k, r.w.mismatches);
		assert_int_equal(r.w.ncmd, hist_count(game_history(r.g))); /* the same commands */
		assert_false(r.w.synced);
		assert_non_null(strstr(r.w.line, "checksum mismatch at turn"));
		struct watch_pub_stats st;
		watch_pub_stats(r.p, &st);
		long before = st.snapshots;
		rig_catch_up(&r);
		watch_pub_stats(r.p, &st);
		assert_int_equal(st.snapshots, before + 1);
		assert_true(game_checksum(r.w.game) == game_checksum(r.g));
		rig_close(&r);
	}
}

/* The game ends right after its last keys, before the watcher has read
 * them from the ring: the watcher finds the end of the stream and plays
 * them first (its copy ends where the game did, the last checksum
 * compared), then says the game ended. */
static void test_end_after_last_keys(void **state)
{
	(void)state;
	struct rig r;
	rig_open(&r, 7);
	rig_catch_up(&r);
	long checks = r.w.checks;
	rig_play(&r, CMD_MOVE_E);
	rig_play(&r, CMD_MOVE_S);
	rig_play(&r, CMD_WAIT);
	watch_pub_close(r.p); /* the game ends: its sockets close */
	r.p = NULL;
	int rc = 0;
	for (int round = 0; round < 100 && rc != 1; round++)
		rc = watchfix_read(&r.w);
	assert_int_equal(rc, 1);
	assert_int_equal(r.w.ncmd, hist_count(game_history(r.g)));
	assert_int_equal(r.w.checks, checks + 3);
	assert_int_equal(r.w.mismatches, 0);
	assert_true(game_checksum(r.w.game) == game_checksum(r.g));
	rig_close(&r);
}

/* Screens are sent as what they are; a replaced game is a new snapshot. */
static void test_screens_and_new_game(void **state)
{
	(void)state;
	struct rig r;
	rig_open(&r, 11);
	rig_catch_up(&r);
	r.u.screen = UI_INVENTORY;
	r.u.inv_sel = 0;
	watch_pub_flush(r.p, &r.u, r.g);
	rig_catch_up(&r);
	assert_int_equal(r.w.ui.screen, UI_INVENTORY);
	game_destroy(r.g);
	r.g = new_game(12);
	r.u.screen = UI_PLAY;
	watch_pub_replaced(r.p);
	rig_catch_up(&r);
	assert_true(game_seed(r.w.game) == 12);
	assert_int_equal(r.w.ui.screen, UI_PLAY);
	rig_close(&r);
}

/* The game's "did the screen change?" (watchwire_ui_unchanged, instead of
 * building the block each frame): a change to any value the block holds
 * is seen, the same ui again is not, and whenever it says unchanged the
 * block built is the one built before. */
enum ui_edit {
	ED_SCREEN, ED_MENU, ED_CONT, ED_HELP_FROM, ED_DEV, ED_KIOSK, ED_DEMO, ED_CQUIT, ED_CNEW, ED_HIST, ED_HELP_TOP,
	ED_LOOK_X, ED_LOOK_Y, ED_INV, ED_TARGET, ED_LEVELUP, ED_RANK, ED_AFTER_DEATH, ED_NOTICE, ED_NOTICE_END,
	ED_STATUS, ED_NSCORES, ED_SCORE, ED_DEPTH, ED_TURNS, ED_LEVEL, ED_CAUSE, ED_COUNT,
	ED_HOVER = ED_COUNT, /* not in the block */
};

/* s (of n bytes) made "what v", or "what v!" when it was that. */
static void set_other(char *s, size_t n, const char *what, int v)
{
	char t[64];
	snprintf(t, sizeof t, "%s %d", what, v);
	if (!strcmp(t, s))
		strcat(t, "!");
	snprintf(s, n, "%s", t);
}

static void ui_edit(struct ui *u, enum ui_edit e, int v)
{
	struct ui_score *sc = &u->scores[u->nscores > 0 ? u->nscores - 1 : 0];
	switch (e) {
	case ED_SCREEN: u->screen = u->screen == UI_PLAY ? UI_INVENTORY : UI_PLAY; break;
	case ED_MENU: u->menu_sel += 1 + v % 3; break;
	case ED_CONT: u->can_continue = !u->can_continue; break;
	case ED_HELP_FROM: u->help_from = u->help_from == UI_PLAY ? UI_TITLE : UI_PLAY; break;
	case ED_DEV: u->last_dev = u->last_dev == DEV_KEYBOARD ? DEV_GAMEPAD : DEV_KEYBOARD; break;
	case ED_KIOSK: u->kiosk = !u->kiosk; break;
	case ED_DEMO: u->demo = !u->demo; break;
	case ED_CQUIT: u->confirm_quit = !u->confirm_quit; break;
	case ED_CNEW: u->confirm_new = !u->confirm_new; break;
	case ED_HIST: u->history_top += 1 + v % 5; break;
	case ED_HELP_TOP: u->help_top += 1 + v % 5; break;
	case ED_LOOK_X: u->look_x += 1 + v % 7; break;
	case ED_LOOK_Y: u->look_y += 1 + v % 7; break;
	case ED_INV: u->inv_sel = (u->inv_sel + 1 + v % 5) % 26; break;
	case ED_TARGET: u->target_slot = (u->target_slot + 1) % 26; break;
	case ED_LEVELUP: u->levelup_sel = (u->levelup_sel + 1) % 3; break;
	case ED_RANK: u->score_rank = u->score_rank >= 9 ? -1 : u->score_rank + 1; break;
	case ED_AFTER_DEATH: u->scores_after_death = !u->scores_after_death; break;
	case ED_NOTICE: set_other(u->notice, sizeof u->notice, "notice", v); break;
	case ED_NOTICE_END: u->notice[0] = u->notice[0] ? '\0' : 'N'; u->notice[1] = '\0'; break;
	case ED_STATUS: snprintf(u->status, sizeof u->status, u->status[0] ? "" : "status %d", v); break;
	case ED_NSCORES: u->nscores = (u->nscores + 1) % (UI_SCORES_MAX + 1); break;
	case ED_SCORE: sc->score += 1 + v; break;
	case ED_DEPTH: sc->depth++; break;
	case ED_TURNS: sc->turns += 100; break;
	case ED_LEVEL: sc->level++; break;
	case ED_CAUSE: set_other(sc->cause, sizeof sc->cause, "killed by orcs", v); break;
	case ED_HOVER: u->hover_x = v % 80; break;
	}
}

static void test_ui_unchanged(void **state)
{
	(void)state;
	struct watch_ui_seen *seen = calloc(1, sizeof *seen);
	assert_non_null(seen);
	struct ui u = play_ui();
	unsigned char was[WATCH_SCREEN_MAX], now[WATCH_SCREEN_MAX];
	size_t nwas = watchwire_screen_to(was, &u);
	assert_false(watchwire_ui_unchanged(seen, &u)); /* nothing seen yet */
	assert_true(watchwire_ui_unchanged(seen, &u));
	struct rng r;
	rng_seed(&r, 19);
	for (int round = 0; round < 3000; round++) {
		enum ui_edit e = (enum ui_edit)rng_range(&r, 0, ED_COUNT);
		/* a score line's values count only for the lines in use */
		if (e >= ED_SCORE && e <= ED_CAUSE && u.nscores == 0) {
			u.nscores = 1;
			assert_false(watchwire_ui_unchanged(seen, &u));
		}
		nwas = watchwire_screen_to(was, &u);
		assert_true(watchwire_ui_unchanged(seen, &u));
		ui_edit(&u, e, rng_range(&r, 0, 1000));
		size_t nnow = watchwire_screen_to(now, &u);
		bool same_block = nnow == nwas && memcmp(now, was, nnow) == 0;
		bool unchanged = watchwire_ui_unchanged(seen, &u);
		if (e != ED_HOVER) {
			assert_false(same_block); /* (each edit changes what the block holds) */
			assert_false(unchanged);
		}
		if (unchanged)
			assert_true(same_block);
		assert_true(watchwire_ui_unchanged(seen, &u)); /* seen follows u */
	}
	free(seen);
}

/* The screen the game last sent stays the one its ui gives when watchers
 * come and go: with none the ui may change unseen, and a screen sent
 * after a new watcher's snapshot is compared with the ui it came from. */
static void test_screen_after_watchers_left(void **state)
{
	(void)state;
	struct rig r;
	rig_open(&r, 13);
	rig_catch_up(&r);
	r.u.screen = UI_INVENTORY;
	watch_pub_flush(r.p, &r.u, r.g);
	rig_catch_up(&r);
	assert_int_equal(r.w.ui.screen, UI_INVENTORY);
	/* the watcher leaves; the game, unwatched, goes back to its map */
	watcher_close(&r.w);
	struct watch_pub_stats st;
	for (int i = 0; i < 100; i++) {
		watchfix_serve(r.p);
		watch_pub_stats(r.p, &st);
		if (!st.watchers)
			break;
	}
	assert_int_equal(st.watchers, 0);
	r.u.screen = UI_PLAY;
	watch_pub_flush(r.p, &r.u, r.g);
	/* another comes: its snapshot shows the map; then the inventory again */
	memset(&r.w, 0, sizeof r.w);
	r.w.fd = watchfix_pair(r.p);
	rig_catch_up(&r);
	assert_int_equal(r.w.ui.screen, UI_PLAY);
	r.u.screen = UI_INVENTORY;
	watch_pub_flush(r.p, &r.u, r.g);
	rig_catch_up(&r);
	assert_int_equal(r.w.ui.screen, UI_INVENTORY);
	r.u.screen = UI_PLAY;
	watch_pub_flush(r.p, &r.u, r.g);
	rig_catch_up(&r);
	assert_int_equal(r.w.ui.screen, UI_PLAY);
	rig_close(&r);
}

/* What a watcher may send is a request for a snapshot; anything else,
 * and it is dropped. */
/* Serves p, flushes and reads into w (its socket) for at most 1000 rounds
 * until done(w, p) holds; returns whether it did. */
static bool serve_until(struct rig *r, struct watcher *w, bool (*done)(const struct watcher *, const struct watch_pub *))
{
	for (int round = 0; round < 1000; round++) {
		if (done(w, r->p))
			return true;
		watchfix_serve(r->p);
		watch_pub_flush(r->p, &r->u, r->g);
		watchfix_read(w);
	}
	return done(w, r->p);
}

static bool synced(const struct watcher *w, const struct watch_pub *p)
{
	(void)p;
	return w->synced && w->game;
}

static long snapshots_wanted;

static bool snapshots_sent(const struct watcher *w, const struct watch_pub *p)
{
	struct watch_pub_stats st;
	watch_pub_stats(p, &st);
	return st.snapshots >= snapshots_wanted && synced(w, p) && !watchfix_pending(w->fd);
}

/* The flush visits only the watchers that need something sent: a new one
 * still gets its greeting and snapshot when an earlier one leaves first
 * (it takes that one's place), and one that asked for a snapshot while its
 * socket was full gets it once the socket has room again. */
static void test_watchers_served_as_they_need(void **state)
{
	(void)state;
	struct rig r;
	rig_open(&r, 11);
	rig_catch_up(&r);
	struct watcher b = { .fd = watchfix_pair(r.p) };
	watcher_close(&r.w); /* the first leaves before b was sent anything */
	watchfix_serve(r.p);
	struct watch_pub_stats st;
	watch_pub_stats(r.p, &st);
	assert_int_equal(st.watchers, 1);
	assert_true(serve_until(&r, &b, synced));
	assert_true(game_checksum(b.game) == game_checksum(r.g));
	watcher_close(&b);

	/* a watcher whose socket takes a few KiB at a time (the snapshot is
	 * tens of them): it waits for room with its snapshot half sent */
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	int small = 4096;
	assert_int_equal(setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small), 0);
	assert_int_equal(setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &small, sizeof small), 0);
	assert_int_equal(fcntl(sv[1], F_SETFL, O_NONBLOCK), 0);
	assert_int_equal(watch_pub_adopt(r.p, sv[0]), 0);
	struct watcher c = { .fd = sv[1] };
	watch_pub_stats(r.p, &st);
	long before = st.snapshots;
	watch_pub_flush(r.p, &r.u, r.g);
	watch_pub_stats(r.p, &st);
	assert_int_equal(st.snapshots, before + 1);
	assert_true(watchfix_pending(c.fd));
	/* it asks for a new one meanwhile; the game plays on */
	assert_int_equal(write(c.fd, watch_resync_msg, sizeof watch_resync_msg), (ssize_t)sizeof watch_resync_msg);
	watchfix_serve(r.p);
	rig_play(&r, CMD_WAIT);
	/* it reads again: the first is sent as it has room, then a new one */
	snapshots_wanted = before + 2;
	assert_true(serve_until(&r, &c, snapshots_sent));
	watch_pub_stats(r.p, &st);
	assert_int_equal(st.snapshots, before + 2);
	assert_int_equal(st.behind, 1);
	assert_true(game_checksum(c.game) == game_checksum(r.g));
	watcher_close(&c);
	rig_close(&r);
}

static void test_junk_from_watcher_dropped(void **state)
{
	(void)state;
	struct rig r;
	rig_open(&r, 2);
	rig_catch_up(&r);
	assert_int_equal(write(r.w.fd, watch_resync_msg, sizeof watch_resync_msg), (ssize_t)sizeof watch_resync_msg);
	struct watch_pub_stats st;
	rig_catch_up(&r);
	watch_pub_stats(r.p, &st);
	assert_int_equal(st.snapshots, 2);
	static const char junk[] = "GET / HTTP/1.0\r\n\r\n";
	assert_int_equal(write(r.w.fd, junk, sizeof junk - 1), (ssize_t)sizeof junk - 1);
	watchfix_serve(r.p);
	watch_pub_stats(r.p, &st);
	assert_int_equal(st.watchers, 0);
	assert_int_equal(st.dropped, 1);
	rig_close(&r);
}

static void test_at_most_watch_max(void **state)
{
	(void)state;
	struct watch_pub *p;
	assert_int_equal(watch_pub_new(&p, "x"), 0);
	int fds[WATCH_MAX];
	for (int i = 0; i < WATCH_MAX; i++)
		fds[i] = watchfix_pair(p);
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(watch_pub_adopt(p, sv[0]), -EMFILE);
	char c;
	assert_int_equal(read(sv[1], &c, 1), 0); /* closed at once */
	close(sv[1]);
	for (int i = 0; i < WATCH_MAX; i++)
		close(fds[i]);
	watch_pub_close(p);
}

/* The socket: mode 0660; a stale one replaced; a live one left alone. */
static void test_socket_mode_and_stale(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_watch-XXXXXX", path[128];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/pirogue/watch.sock", dir);
	struct watch_pub *p, *q;
	listen_path = path;
	assert_int_equal(watch_pub_open(&p, path, "x"), 0);
	listen_path = NULL;
	/* not there before it listened: a watcher then would have been
	 * refused ("the game has ended"), not told there is no game yet */
	assert_int_equal(listen_path_there, 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0660);
	const struct group *gr = getgrnam(WATCH_GROUP);
	if (gr)
		assert_int_equal(st.st_gid, gr->gr_gid);
	assert_int_equal(watch_pub_open(&q, path, "y"), -EADDRINUSE);
	/* a socket nobody listens on (a game killed): replaced */
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char stale[128];
	snprintf(stale, sizeof stale, "%s/stale.sock", dir);
	strcpy(sa.sun_path, stale);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	close(fd);
	assert_int_equal(watch_pub_open(&q, stale, "y"), 0);
	watch_pub_close(q);
	watch_pub_close(p);
	assert_int_equal(access(path, F_OK), -1); /* removed */
	char made[160];
	snprintf(made, sizeof made, "%s.new", path);
	assert_int_equal(access(made, F_OK), -1); /* (and nothing left where it was made) */
	char d2[160];
	snprintf(d2, sizeof d2, "%s/pirogue", dir);
	rmdir(d2);
	rmdir(dir);
}

/* Under the kiosk unit the game runs as the package's user pirogue, whose
 * primary group pirogue the socket gets when bound, and its
 * SystemCallFilter=~@privileged kills chown(2) with SIGSYS: a socket that has
 * the group already is not chowned; one that has not is. */
static void test_no_chown_when_the_group_is_ours(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_watch-XXXXXX", path[128], d2[160];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/pirogue/watch.sock", dir);
	snprintf(d2, sizeof d2, "%s/pirogue", dir);
	struct watch_pub *p;
	struct stat st;
	fake_group = true;
	fake_gid = getegid();
	chowns = 0;
	assert_int_equal(watch_pub_open(&p, path, "x"), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_gid, fake_gid);
	assert_int_equal(chowns, 0);
	watch_pub_close(p);
	/* another group: chowned (refused when not root: said, not fatal) */
	fake_gid = getegid() + 1;
	assert_int_equal(watch_pub_open(&p, path, "x"), 0);
	assert_int_equal(chowns, 1);
	watch_pub_close(p);
	fake_group = false;
	rmdir(d2);
	rmdir(dir);
}

static const char *refused_path;

/* In a child: become nobody (outside the group), try to watch. */
static int watch_as_nobody(void *arg)
{
	(void)arg;
	const struct passwd *pw = getpwnam("nobody");
	if (!pw || setgroups(0, NULL) || setgid(pw->pw_gid) || setuid(pw->pw_uid))
		return 3;
	struct watcher w = { .fd = -1 };
	char why[512];
	int rc = watcher_connect(&w, refused_path, why, sizeof why);
	fprintf(stderr, "%s", why);
	return rc == -EACCES ? 0 : 1;
}

static void test_outside_group_refused(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		print_message("skipped: needs root, to become another user\n");
		skip();
	}
	char dir[] = "/tmp/test_watch-XXXXXX", path[128];
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chmod(dir, 0755), 0);
	snprintf(path, sizeof path, "%s/watch.sock", dir);
	struct watch_pub *p;
	assert_int_equal(watch_pub_open(&p, path, "x"), 0);
	refused_path = path;
	char out[1024];
	int status = child_run(watch_as_nobody, NULL, out, sizeof out);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 3) {
		print_message("skipped: no user nobody on this machine\n");
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_non_null(strstr(out, "permission denied: add yourself to the pirogue group"));
	watch_pub_close(p);
	rmdir(dir);
}

/* No game: one line naming where it looked. */
static void test_no_game_one_line(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_watch-XXXXXX";
	assert_non_null(mkdtemp(dir));
	setenv("XDG_RUNTIME_DIR", dir, 1);
	char buf[256], why[512];
	int rc = watcher_path(NULL, buf, sizeof buf, why, sizeof why);
	if (rc == 0) {
		/* a kiosk's socket exists on this machine: then connecting says it */
		struct watcher w = { .fd = -1 };
		rc = watcher_connect(&w, buf, why, sizeof why);
		watcher_close(&w);
		if (rc == 0) {
			print_message("skipped: a game publishes at %s on this machine\n", buf);
			skip();
		}
	} else {
		assert_int_equal(rc, -ENOENT);
		assert_non_null(strstr(why, "no game to watch"));
		assert_non_null(strstr(why, dir));
	}
	assert_null(strchr(why, '\n'));
	struct watcher w = { .fd = -1 };
	char path[300];
	snprintf(path, sizeof path, "%s/none.sock", dir);
	assert_int_equal(watcher_connect(&w, path, why, sizeof why), -ENOENT);
	assert_non_null(strstr(why, "no game to watch"));
	rmdir(dir);
}

/* A ring made by hand, as a game makes one (docs/watch.md), for the
 * watcher's reading of it. */
#define HR_SIZE 4096u
struct hand_ring {
	int fd, wake;
	unsigned char *m;
	uint64_t head;
};

static void hr_open(struct hand_ring *h)
{
	h->fd = memfd_create("test_watch", MFD_CLOEXEC);
	assert_true(h->fd >= 0);
	assert_int_equal(ftruncate(h->fd, WATCH_RING_HEAD + HR_SIZE), 0);
	h->m = mmap(NULL, WATCH_RING_HEAD + HR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, h->fd, 0);
	assert_true(h->m != MAP_FAILED);
	le_put32(h->m, WATCH_RING_MAGIC);
	le_put32(h->m + 4, WATCH_VERSION);
	le_put32(h->m + 8, HR_SIZE);
	h->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	assert_true(h->wake >= 0);
	h->head = 0;
}

static void hr_counts(struct hand_ring *h, uint64_t head, uint64_t limit)
{
	le_put32(h->m + WATCH_RING_AT_HEAD, (uint32_t)head);
	le_put32(h->m + WATCH_RING_AT_HEAD + 4, (uint32_t)(head >> 32));
	le_put32(h->m + WATCH_RING_AT_LIMIT, (uint32_t)limit);
	le_put32(h->m + WATCH_RING_AT_LIMIT + 4, (uint32_t)(limit >> 32));
}

/* m written at the ring's head, both counts past it. */
static void hr_put(struct hand_ring *h, const struct serial_buf *b)
{
	for (size_t i = 0; i < b->len; i++)
		h->m[WATCH_RING_HEAD + (h->head + i) % HR_SIZE] = b->data[i];
	h->head += b->len;
	hr_counts(h, h->head, h->head);
}

/* The watcher reads what a ring holds only past where it follows it, plays
 * it, and asks for a snapshot (playing nothing) when the game wrote over
 * what it copied (the second count past it by more than the ring) or it
 * fell more than the ring behind; a greeting or snapshot in the ring (what
 * only the socket carries) stops it in one line. */
static void test_watcher_reads_the_ring(void **state)
{
	(void)state;
	struct game *g = new_game(4);
	struct ui u = play_ui();
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	assert_int_equal(fcntl(sv[0], F_SETFL, O_NONBLOCK), 0);
	struct hand_ring h;
	hr_open(&h);
	struct watcher w = { .fd = sv[1], .has_fds = true, .ring_fd = h.fd, .wake_fd = h.wake };
	struct serial_buf b = { 0 };
	char why[512] = "";
	/* on the socket: the greeting, a snapshot, where the ring goes on */
	assert_int_equal(watchwire_hello(&b, "hand@ring"), 0);
	assert_int_equal(watchwire_snapshot(&b, &u, g), 0);
	assert_int_equal(watchwire_ring(&b, HR_SIZE, 0), 0);
	assert_int_equal(watcher_feed(&w, b.data, b.len, why, sizeof why), 0);
	assert_true(w.synced && w.following);
	assert_true(watcher_poll_fd(&w) >= 0);
	/* commands and their checksum in the ring: played */
	struct command c = { .c = CMD_MOVE_E, .item = -1, .x = -1, .y = -1, .choice = -1 };
	for (int i = 0; i < 3; i++) {
		game_do(g, &c);
		b.len = 0;
		assert_int_equal(watchwire_command(&b, &c), 0);
		hr_put(&h, &b);
	}
	b.len = 0;
	assert_int_equal(watchwire_check(&b, hist_count(game_history(g)), game_turn(g), game_digest(g)), 0);
	hr_put(&h, &b);
	assert_int_equal(watcher_read(&w, why, sizeof why), 0);
	assert_int_equal(w.ncmd, 3);
	assert_int_equal(w.checks, 1);
	assert_int_equal(w.mismatches, 0);
	assert_false(watchfix_pending(sv[0])); /* nothing asked */
	/* a command whose bytes the game was writing over meanwhile (the
	 * second count more than the ring past where the watcher read):
	 * dropped, a snapshot asked for */
	game_do(g, &c);
	b.len = 0;
	assert_int_equal(watchwire_command(&b, &c), 0);
	hr_put(&h, &b);
	hr_counts(&h, h.head, h.head - b.len + HR_SIZE + 1);
	assert_int_equal(watcher_read(&w, why, sizeof why), 0);
	assert_int_equal(w.ncmd, 3); /* not played */
	assert_false(w.synced || w.following);
	unsigned char got[16];
	assert_int_equal(read(sv[0], got, sizeof got), WATCH_RESYNC_LEN);
	assert_memory_equal(got, watch_resync_msg, WATCH_RESYNC_LEN);
	/* the snapshot comes; then the ring more than its size ahead: behind */
	b.len = 0;
	assert_int_equal(watchwire_snapshot(&b, &u, g), 0);
	assert_int_equal(watchwire_ring(&b, HR_SIZE, h.head), 0);
	assert_int_equal(watcher_feed(&w, b.data, b.len, why, sizeof why), 0);
	assert_true(w.synced && w.following);
	assert_int_equal(w.ncmd, 4);
	hr_counts(&h, h.head + HR_SIZE + 1, h.head + HR_SIZE + 1);
	assert_int_equal(watcher_read(&w, why, sizeof why), 0);
	assert_false(w.synced || w.following);
	assert_int_equal(read(sv[0], got, sizeof got), WATCH_RESYNC_LEN);
	/* a greeting in the ring: one line, stop */
	hr_counts(&h, h.head, h.head);
	b.len = 0;
	assert_int_equal(watchwire_ring(&b, HR_SIZE, h.head), 0);
	assert_int_equal(watcher_feed(&w, b.data, b.len, why, sizeof why), 0);
	b.len = 0;
	assert_int_equal(watchwire_hello(&b, "again"), 0);
	hr_put(&h, &b);
	assert_int_equal(watcher_read(&w, why, sizeof why), -EPROTO);
	assert_non_null(strstr(why, "in its ring what only its socket sends"));
	assert_null(strchr(why, '\n'));
	/* a ring message of another size, or none without its memory */
	b.len = 0;
	assert_int_equal(watchwire_ring(&b, HR_SIZE * 2, 0), 0);
	assert_int_equal(watcher_feed(&w, b.data, b.len, why, sizeof why), -EPROTO);
	assert_non_null(strstr(why, "a ring of another size"));
	struct watcher bare = { .fd = -1 };
	b.len = 0;
	assert_int_equal(watchwire_hello(&b, "x"), 0);
	assert_int_equal(watchwire_ring(&b, HR_SIZE, 0), 0);
	assert_int_equal(watcher_feed(&bare, b.data, b.len, why, sizeof why), -EPROTO);
	assert_non_null(strstr(why, "a ring without its memory"));
	watcher_close(&bare);
	free(b.data);
	watcher_close(&w); /* closes the ring's fds it was given */
	munmap(h.m, WATCH_RING_HEAD + HR_SIZE);
	close(sv[0]);
	game_destroy(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_messages_round_trip),
		cmocka_unit_test(test_snapshot_round_trip),
		cmocka_unit_test(test_reader_pieces_and_bounds),
		cmocka_unit_test(test_hostile_values_refused),
		cmocka_unit_test(test_fall_behind_fresh_snapshot),
		cmocka_unit_test(test_watcher_reads_the_ring),
		cmocka_unit_test(test_game_thread_wakes_no_watcher),
		cmocka_unit_test(test_back_to_back_wakes_every_defer),
		cmocka_unit_test(test_snapshot_shared_with_what_followed),
		cmocka_unit_test(test_mismatch_asks_for_snapshot),
		cmocka_unit_test(test_one_value_differs),
		cmocka_unit_test(test_end_after_last_keys),
		cmocka_unit_test(test_screens_and_new_game),
		cmocka_unit_test(test_ui_unchanged),
		cmocka_unit_test(test_screen_after_watchers_left),
		cmocka_unit_test(test_watchers_served_as_they_need),
		cmocka_unit_test(test_junk_from_watcher_dropped),
		cmocka_unit_test(test_at_most_watch_max),
		cmocka_unit_test(test_socket_mode_and_stale),
		cmocka_unit_test(test_no_chown_when_the_group_is_ours),
		cmocka_unit_test(test_outside_group_refused),
		cmocka_unit_test(test_no_game_one_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
