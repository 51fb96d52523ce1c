/* test_watch_fbdev: pirogue --watch --backend fbdev, a second screen of the
 * machine the game runs on (docs/watch.md): app_run as the watcher, in a
 * child, on a framebuffer that is a memfd (open(2) of /dev/fb-watch and
 * the framebuffer's ioctls answered here: 640x400 XRGB8888), following a
 * game this process plays on a real socket, beside a headless watcher
 * writing its screenshot. The fbdev watcher takes no VT and no input
 * device (no /dev/tty*, /dev/console or /dev/input opened, watched or
 * listed, no VT or keyboard ioctl), every checksum it compares agrees,
 * it leaves with status 0 when the game ends (the keys played just before
 * the end included: what the ring held is played first, then the frame
 * drawn once more), and its framebuffer shows what the headless watcher's
 * screenshot does, every pixel row above the last text row (the line
 * saying whom it watches, which says "q leaves" only where keys are
 * read). */
#include "watchfix.h"
#include "gamefix.h"
#include "app/app.h"
#include "core/log.h"
#include <dirent.h>
#include <dlfcn.h>
#include <linux/fb.h>
#include <stb_image.h>
#include <stdarg.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define FB_W 640
#define FB_H 400
#define FB_PATH "/dev/fb-watch"

/* What the children did that a second screen must not (shared with them). */
struct seen {
	int forbidden;   /* opens, listings, watches and ioctls of a VT or input device */
	char what[256];  /* the first of them */
	int fb_opens;    /* opens of the framebuffer */
};
static struct seen *seen;
static int fb_fd = -1; /* the framebuffer's memory (a memfd) */
static ino_t fb_ino;

static void forbid(const char *what, const char *path)
{
	if (seen && seen->forbidden++ == 0)
		snprintf(seen->what, sizeof seen->what, "%s %s", what, path);
}

static bool device_path(const char *path)
{
	return !strncmp(path, "/dev/tty", 8) || !strcmp(path, "/dev/console") || !strncmp(path, "/dev/input", 10) ||
	       !strncmp(path, "/dev/vcs", 8);
}

static int open_hooked(const char *path, int flags, va_list ap)
{
	mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
	if (fb_fd >= 0 && !strcmp(path, FB_PATH)) {
		if (seen)
			seen->fb_opens++;
		return fcntl(fb_fd, F_DUPFD_CLOEXEC, 0);
	}
	if (device_path(path))
		forbid("open", path);
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	int fd = open_hooked(path, flags, ap);
	va_end(ap);
	return fd;
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	int fd = open_hooked(path, flags, ap);
	va_end(ap);
	return fd;
}

DIR *opendir(const char *name)
{
	if (device_path(name))
		forbid("opendir", name);
	DIR *(*real)(const char *) = (DIR * (*)(const char *)) dlsym(RTLD_NEXT, "opendir");
	return real ? real(name) : NULL;
}

int inotify_add_watch(int fd, const char *path, uint32_t mask)
{
	if (device_path(path))
		forbid("inotify_add_watch", path);
	return (int)syscall(SYS_inotify_add_watch, fd, path, mask);
}

static bool is_fb(int fd)
{
	struct stat st;
	return fb_fd >= 0 && fstat(fd, &st) == 0 && st.st_ino == fb_ino;
}

/* The framebuffer's ioctls answered for the memfd; a VT's or keyboard's
 * (KD*, VT_*) noted; the rest as the kernel answers. */
int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	if ((req & 0xFF00) == 0x4B00 || (req & 0xFF00) == 0x5600) {
		char r[32];
		snprintf(r, sizeof r, "0x%lx", req);
		forbid("ioctl", r);
	}
	if (is_fb(fd)) {
		if (req == FBIOGET_VSCREENINFO) {
			struct fb_var_screeninfo *v = arg;
			memset(v, 0, sizeof *v);
			v->xres = v->xres_virtual = FB_W;
			v->yres = v->yres_virtual = FB_H;
			v->bits_per_pixel = 32;
			v->red = (struct fb_bitfield){ 16, 8, 0 };
			v->green = (struct fb_bitfield){ 8, 8, 0 };
			v->blue = (struct fb_bitfield){ 0, 8, 0 };
			return 0;
		}
		if (req == FBIOGET_FSCREENINFO) {
			struct fb_fix_screeninfo *f = arg;
			memset(f, 0, sizeof *f);
			snprintf(f->id, sizeof f->id, "fake");
			f->type = FB_TYPE_PACKED_PIXELS;
			f->visual = FB_VISUAL_TRUECOLOR;
			f->line_length = FB_W * 4;
			f->smem_len = FB_W * FB_H * 4;
			return 0;
		}
		return 0; /* FBIOBLANK, a pan: done */
	}
	return (int)syscall(SYS_ioctl, fd, req, arg);
}

/* Runs app_run(cfg) in a child, its log into logpath; returns its pid. */
static pid_t run_child(const struct app_config *cfg, const char *logpath)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = (int)syscall(SYS_openat, AT_FDCWD, logpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int null = (int)syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY, 0);
		if (fd < 0 || null < 0 || dup2(fd, 2) < 0 || dup2(null, 0) < 0)
			_exit(99);
		log_set_verbose(1); /* (main does it for --verbose) */
		_exit(app_run(cfg));
	}
	return pid;
}

/* The game's side served without waiting longer than ms. */
static void serve(struct watch_pub *p, int ms)
{
	struct pollfd pfd[4];
	int n = watch_pub_poll_fds(p, pfd, 4);
	if (poll(pfd, (nfds_t)n, ms) > 0)
		for (int i = 0; i < n; i++)
			if (pfd[i].revents)
				watch_pub_dispatch(p, pfd[i].fd, pfd[i].revents);
}

/* Whether a child has exited (its status in *st), without waiting. */
static bool exited(pid_t pid, int *st)
{
	return waitpid(pid, st, WNOHANG) == pid;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void test_fbdev_watcher(void **state)
{
	(void)state;
	setenv("PIROGUE_DATA_DIR", ".", 0);
	seen = mmap(NULL, sizeof *seen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(seen != MAP_FAILED);
	memset(seen, 0, sizeof *seen);
	fb_fd = memfd_create("fake-fb", MFD_CLOEXEC);
	assert_true(fb_fd >= 0);
	assert_int_equal(ftruncate(fb_fd, FB_W * FB_H * 4), 0);
	struct stat st;
	assert_int_equal(fstat(fb_fd, &st), 0);
	fb_ino = st.st_ino;

	char dir[] = "/tmp/test_watch_fbdev-XXXXXX", sock[128], flog[128], hlog[128], png[128];
	assert_non_null(mkdtemp(dir));
	snprintf(sock, sizeof sock, "%s/watch.sock", dir);
	snprintf(flog, sizeof flog, "%s/fbdev.log", dir);
	snprintf(hlog, sizeof hlog, "%s/headless.log", dir);
	snprintf(png, sizeof png, "%s/w.png", dir);
	struct watch_pub *p;
	assert_int_equal(watch_pub_open(&p, sock, "player@test"), 0);
	struct game *g = gamefix_new(5, MAPGEN_CLASSIC);
	struct ui u = { .screen = UI_PLAY, .hover_x = -1, .hover_y = -1, .score_rank = -1, .can_continue = true };

	struct app_config fcfg = { .backend = "fbdev", .fb = FB_PATH, .watch = true, .watch_socket = sock, .verbose = true };
	struct app_config hcfg = { .backend = "headless", .width = FB_W, .height = FB_H, .screenshot = png, .watch = true,
				   .watch_socket = sock, .verbose = true };
	pid_t fpid = run_child(&fcfg, flog), hpid = run_child(&hcfg, hlog);
	int fst = -1, hst = -1;
	bool fdone = false, hdone = false;
	/* both have connected (and so have their snapshots coming) */
	struct watch_pub_stats s;
	for (int i = 0; i < 20000; i++) {
		watch_pub_flush(p, &u, g);
		serve(p, 10);
		watch_pub_stats(p, &s);
		if (s.watchers == 2 && s.snapshots >= 2)
			break;
		if ((fdone = fdone || exited(fpid, &fst)) || (hdone = hdone || exited(hpid, &hst)))
			fail_msg("a watcher left early: fbdev %d, headless %d:\n%s\n%s", fst, hst, slurp(flog), slurp(hlog));
	}
	assert_int_equal(s.watchers, 2);
	/* keys, each a batch with its check; the game ends right after the last */
	static const enum cmd keys[] = { CMD_MOVE_E, CMD_MOVE_E, CMD_MOVE_S, CMD_MOVE_E, CMD_WAIT, CMD_MOVE_W };
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		struct command c = { .c = keys[k], .item = -1, .x = -1, .y = -1, .choice = -1 };
		game_do(g, &c);
		watch_pub_command(p, &c);
		watch_pub_flush(p, &u, g);
		watch_pub_check(p, g);
		serve(p, 0);
	}
	/* what is on the sockets (their snapshots) goes before the end */
	for (int i = 0; i < 20000; i++) {
		watch_pub_flush(p, &u, g);
		serve(p, 10);
		watch_pub_stats(p, &s);
		if (s.queued == 0 && s.snapshots >= 2)
			break;
	}
	/* the fbdev watcher has checked the last turn and drawn a frame
	 * since: what its screen shows now is the game as it ends (read
	 * before the end, when the screen is given back cleared) */
	char checked[96];
	snprintf(checked, sizeof checked, "turn %d checked, the same as the game's", game_turn(g));
	bool drawn = false;
	for (int i = 0; i < 20000 && !drawn; i++) {
		watch_pub_flush(p, &u, g);
		serve(p, 10);
		const char *at = strstr(slurp(flog), checked);
		drawn = at && strstr(at, "frame presented");
		if (!drawn && exited(fpid, &fst))
			fail_msg("the fbdev watcher left early (%d):\n%s", fst, slurp(flog));
	}
	if (!drawn)
		fail_msg("the fbdev watcher never drew the last turn:\n%s", slurp(flog));
	uint32_t *fb = malloc(FB_W * FB_H * 4);
	assert_non_null(fb);
	assert_int_equal(pread(fb_fd, fb, FB_W * FB_H * 4, 0), FB_W * FB_H * 4);
	char sum[64];
	snprintf(sum, sizeof sum, "last checked turn %d checksum %016llx", game_turn(g),
		 (unsigned long long)game_checksum(g));
	watch_pub_close(p);
	assert_int_equal(waitpid(fpid, &fst, 0), fpid);
	assert_int_equal(waitpid(hpid, &hst, 0), hpid);
	char *fl = strdup(slurp(flog)), *hl = strdup(slurp(hlog));
	if (!WIFEXITED(fst) || WEXITSTATUS(fst) != 0 || !WIFEXITED(hst) || WEXITSTATUS(hst) != 0)
		fail_msg("the watchers' status: fbdev %d, headless %d:\n%s\n%s", fst, hst, fl, hl);
	if (seen->forbidden)
		fail_msg("the second screen touched a VT or input device %d times, first: %s", seen->forbidden, seen->what);
	assert_true(seen->fb_opens >= 1);
	/* both followed to the end, every checksum agreeing */
	if (!strstr(fl, sum) || !strstr(hl, sum) || !strstr(fl, " 0 mismatches") || !strstr(fl, "has ended"))
		fail_msg("want '%s' and no mismatch in both logs:\n%s\n%s", sum, fl, hl);
	/* the last text row's top: the layout's margin + (rows - 1) x cell height */
	const char *lay = strstr(hl, "layout ");
	assert_non_null(lay);
	int ch = 0, rows = 0, top = 0; /* "text CWxCH ... cells COLSxROWS margin L T R B" */
	const char *t = strstr(lay, " text ");
	const char *c = strstr(lay, " cells ");
	const char *mg = strstr(lay, " margin ");
	assert_true(t && c && mg);
	assert_int_equal(sscanf(t, " text %*dx%d", &ch), 1);
	assert_int_equal(sscanf(c, " cells %*dx%d", &rows), 1);
	assert_int_equal(sscanf(mg, " margin %*d %d", &top), 1);
	int last = top + (rows - 1) * ch;
	assert_true(last > FB_H / 2 && last < FB_H);
	/* the framebuffer against the headless screenshot, above that row */
	int w, h, n;
	unsigned char *img = stbi_load(png, &w, &h, &n, 3);
	assert_non_null(img);
	assert_int_equal(w, FB_W);
	assert_int_equal(h, FB_H);
	long lit = 0;
	for (int y = 0; y < last; y++)
		for (int x = 0; x < FB_W; x++) {
			uint32_t px = fb[y * FB_W + x];
			const unsigned char *q = img + 3 * (y * FB_W + x);
			uint32_t want = (uint32_t)q[0] << 16 | (uint32_t)q[1] << 8 | q[2];
			if ((px & 0xFFFFFF) != want)
				fail_msg("pixel (%d, %d): framebuffer %06x, headless watcher %06x", x, y, px & 0xFFFFFF, want);
			lit += want != 0;
		}
	assert_true(lit > 1000); /* a screen drawn, not two blank ones */
	stbi_image_free(img);
	free(fb);
	free(fl);
	free(hl);
	game_destroy(g);
	unlink(flog);
	unlink(hlog);
	unlink(png);
	rmdir(dir);
	close(fb_fd);
	fb_fd = -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fbdev_watcher),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
