/* test_watch_loop: the real loop (app_run, term backend on a pty, in a
 * child) makes the watchers' checksum only when it is idle: after a key's
 * frame is written to the terminal and the watchers are flushed, and only
 * when poll() finds nothing ready. A key that arrives while the checksum is
 * due is served first: poll() is interposed, and the loop's first poll()
 * without waiting after the first key (the one that would find the loop
 * idle) has a second key typed on the pty first (and waits until it can be
 * read). A watcher connected to the game's socket must then get one
 * checksum covering both commands (a loop that made it before that poll(),
 * in the turn or between the frame and the poll, sends one covering the
 * first key alone), and the first key's frame must have been written to
 * the terminal before that poll(). No sleeps: the pty and the socket are
 * waited on with poll() until what is waited for holds. */
#include "watchfix.h"
#include "app/app.h"
#include "core/log.h"
#include <ftw.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>

/* What the game's child did (shared with it). */
struct seen {
	int master;          /* the pty's master (the child types on it) */
	int reads;           /* reads from the terminal that returned bytes */
	int writes;          /* writes to the terminal (frames: one write each) */
	int writes_at_key;   /* ... when the first key was read */
	int writes_at_typed; /* ... when the second key was typed */
	bool typed;          /* the second key was typed (at the idle poll) */
	bool in_child;
};
static struct seen *seen;

static int real_poll(struct pollfd *fds, nfds_t n, int timeout)
{
	struct timespec ts = { timeout / 1000, (long)(timeout % 1000) * 1000000L };
	return ppoll(fds, n, timeout < 0 ? NULL : &ts, NULL);
}

ssize_t read(int fd, void *buf, size_t len)
{
	ssize_t r = (ssize_t)syscall(SYS_read, fd, buf, len);
	if (seen && seen->in_child && fd == 0 && r > 0 && seen->reads++ == 0)
		seen->writes_at_key = seen->writes;
	return r;
}

ssize_t write(int fd, const void *buf, size_t len)
{
	ssize_t r = (ssize_t)syscall(SYS_write, fd, buf, len);
	if (seen && seen->in_child && fd == 1 && r > 0)
		seen->writes++;
	return r;
}

/* The loop's poll() without waiting (more than one descriptor: not the
 * term backend's look for the rest of an escape sequence) after the first
 * key: the second key typed first, and waited for until it can be read. */
int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	if (seen && seen->in_child && timeout == 0 && n > 1 && seen->reads > 0 && !seen->typed) {
		seen->typed = true;
		seen->writes_at_typed = seen->writes;
		if (syscall(SYS_write, seen->master, ".", 1) != 1)
			_exit(97);
		struct pollfd in = { .fd = 0, .events = POLLIN };
		if (real_poll(&in, 1, 30000) != 1)
			_exit(98);
	}
	return real_poll(fds, n, timeout);
}

/* (what poll() is with _FORTIFY_SOURCE and an array of known size) */
int __poll_chk(struct pollfd *fds, nfds_t n, int timeout, size_t fdslen);
int __poll_chk(struct pollfd *fds, nfds_t n, int timeout, size_t fdslen)
{
	if (fdslen / sizeof *fds < n)
		abort();
	return poll(fds, n, timeout);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path);
}

/* The pty's output read and dropped (the game must never wait on it). */
static void drain(int master)
{
	char buf[4096];
	while (syscall(SYS_read, master, buf, sizeof buf) > 0)
		;
}

/* Waits (at most ~30 s of polls) until the watcher's stream or the pty
 * has something, then takes it. */
static void step(struct watcher *w, int master)
{
	struct pollfd p[3] = { { .fd = master, .events = POLLIN } };
	int n = 1;
	if (w->fd >= 0)
		p[n++] = (struct pollfd){ .fd = w->fd, .events = POLLIN };
	if (watcher_poll_fd(w) >= 0)
		p[n++] = (struct pollfd){ .fd = watcher_poll_fd(w), .events = POLLIN };
	real_poll(p, (nfds_t)n, 30);
	drain(master);
	if (w->fd >= 0)
		watchfix_read(w);
}

static void test_check_only_when_idle(void **state)
{
	(void)state;
	setenv("PIROGUE_DATA_DIR", ".", 0);
	seen = mmap(NULL, sizeof *seen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(seen != MAP_FAILED);
	memset(seen, 0, sizeof *seen);
	char dir[] = "/tmp/test_watch_loop-XXXXXX", sock[128], statedir[128], logpath[128];
	assert_non_null(mkdtemp(dir));
	snprintf(sock, sizeof sock, "%s/watch.sock", dir);
	snprintf(statedir, sizeof statedir, "%s/state", dir);
	snprintf(logpath, sizeof logpath, "%s/game.log", dir);

	int master = posix_openpt(O_RDWR | O_NOCTTY);
	assert_true(master >= 0);
	assert_int_equal(grantpt(master), 0);
	assert_int_equal(unlockpt(master), 0);
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	assert_int_equal(ioctl(master, TIOCSWINSZ, &ws), 0);
	const char *slave = ptsname(master);
	assert_non_null(slave);
	seen->master = master;

	struct app_config cfg = { .backend = "term", .has_seed = true, .seed = 5, .state_dir = statedir,
				  .has_attract = true, .attract = 0, .has_blank = true, .blank = 0, .verbose = true };
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		seen->in_child = true;
		setsid();
		int s = open(slave, O_RDWR);
		int log = open(logpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (s < 0 || log < 0 || dup2(s, 0) < 0 || dup2(s, 1) < 0 || dup2(log, 2) < 0)
			_exit(99);
		close(s);
		close(log);
		setenv("RUNTIME_DIRECTORY", dir, 1);
		setenv("TERM", "xterm-256color", 1);
		log_set_verbose(1);
		_exit(app_run(&cfg));
	}
	assert_int_equal(fcntl(master, F_SETFL, O_NONBLOCK), 0);

	/* the game publishes; a watcher connects and takes its snapshot */
	struct watcher w = { .fd = -1 };
	struct stat st;
	for (int i = 0; i < 1000 && stat(sock, &st); i++)
		step(&w, master);
	/* (there once the game listens: watch_pub_open renames it there) */
	char why[512] = "";
	if (watcher_connect(&w, sock, why, sizeof why))
		fail_msg("no game to watch at %s: %s", sock, why);
	for (int i = 0; i < 1000 && !(w.synced && w.game); i++)
		step(&w, master);
	assert_true(w.synced && w.game != NULL);
	int ncmd0 = w.ncmd;
	assert_int_equal(w.checks, 0);

	/* the first key; the second is typed at the loop's idle poll() */
	assert_int_equal(syscall(SYS_write, master, ".", 1), 1);
	for (int i = 0; i < 1000 && w.checks == 0; i++)
		step(&w, master);
	if (w.checks == 0)
		fail_msg("no checksum came after the keys (the second typed: %d)", seen->typed);
	assert_int_equal(w.mismatches, 0);
	/* one checksum, after both commands: the key typed while it was due
	 * was played first */
	if (w.last_ncmd - ncmd0 != 2)
		fail_msg("the first checksum came after %d commands, not 2: it was made before the loop's idle poll() "
			 "(the second key typed there: %s)", w.last_ncmd - ncmd0, seen->typed ? "yes" : "no");
	assert_true(seen->typed);
	assert_int_equal(w.checks, 1);
	/* the first key's frame was written to the terminal before that poll() */
	if (seen->writes_at_typed <= seen->writes_at_key)
		fail_msg("no frame written between the first key (%d writes) and the idle poll() (%d)", seen->writes_at_key,
			 seen->writes_at_typed);

	watcher_close(&w);
	kill(pid, SIGTERM);
	int status = 0;
	for (int i = 0; waitpid(pid, &status, WNOHANG) == 0; i++) {
		if (i == 1000)
			kill(pid, SIGKILL); /* (then the assert below fails) */
		struct pollfd p = { .fd = master, .events = POLLIN };
		real_poll(&p, 1, 30);
		drain(master);
	}
	assert_true(WIFEXITED(status));
	close(master);
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	munmap(seen, sizeof *seen);
	seen = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_only_when_idle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
