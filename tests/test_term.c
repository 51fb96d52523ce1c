/* Tests of the terminal backend (src/platform/term.c): its output for a small
 * console against golden escape-sequence files, damage-only redraws, resize,
 * restore, and input through dispatch (the key/mouse decoder is
 * test_termkeys.c's).
 *
 * Golden files tests/golden/term_*.txt hold the bytes written to the
 * terminal in a readable, exact form: ESC is written \e, CR \r, LF \n, a
 * backslash \\, any other control byte \xNN; everything else (UTF-8 included)
 * is itself. A real line break in the file carries no byte: one is put before
 * every cursor-position sequence (ESC [ ... H) and after every \r\n, and one
 * ends the file. The test encodes what the backend wrote the same way and
 * compares the two texts exactly.
 *
 * To regenerate them (a reviewed decision: look at the diff):
 *     PIROGUE_REGEN=1 build/tests/test_term      (from the repository root)
 * or tools/regen-golden, which runs this too. */
#include "testutil.h"
#include "platform/term.h"
#include "render/console.h"
#include "core/rng.h"
#include "core/utf8.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define GOLDEN_DIR TEST_DIR "/golden/"

/* ---- helpers ----------------------------------------------------------- */

struct buf {
	char *p;
	size_t len, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

/* Everything the backend wrote into the pipe so far (read end non-blocking). */
static void drain(int fd, struct buf *b)
{
	b->len = 0;
	buf_add(b, "", 0);
	char tmp[4096];
	for (;;) {
		ssize_t n = read(fd, tmp, sizeof tmp);
		if (n <= 0)
			break;
		buf_add(b, tmp, (size_t)n);
	}
}

/* The golden-file text for bytes s[0..n) (format in the header comment). */
static char *encode(const char *s, size_t n)
{
	struct buf o = { 0 };
	buf_add(&o, "", 0);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char tmp[8];
		if (c == 0x1B) {
			if (i + 1 < n && s[i + 1] == '[') {
				size_t j = i + 2;
				while (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == ';'))
					j++;
				if (j < n && s[j] == 'H' && o.len && o.p[o.len - 1] != '\n')
					buf_add(&o, "\n", 1);
			}
			buf_add(&o, "\\e", 2);
		} else if (c == '\r') {
			buf_add(&o, "\\r", 2);
		} else if (c == '\n') {
			buf_add(&o, "\\n", 2);
			if (i > 0 && s[i - 1] == '\r')
				buf_add(&o, "\n", 1);
		} else if (c == '\\') {
			buf_add(&o, "\\\\", 2);
		} else if (c < 0x20 || c == 0x7F) {
			snprintf(tmp, sizeof tmp, "\\x%02X", c);
			buf_add(&o, tmp, 4);
		} else {
			buf_add(&o, (const char *)&c, 1);
		}
	}
	if (!o.len || o.p[o.len - 1] != '\n')
		buf_add(&o, "\n", 1);
	return o.p;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct buf b = { 0 };
	buf_add(&b, "", 0);
	char tmp[4096];
	size_t n;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_add(&b, tmp, n);
	fclose(f);
	return b.p;
}

/* Compares the output with tests/golden/<name>, or writes it there when
 * PIROGUE_REGEN=1. */
static void check_golden(const char *name, const struct buf *out)
{
	char path[256];
	snprintf(path, sizeof path, GOLDEN_DIR "%s", name);
	char *got = encode(out->p, out->len);
	const char *regen = getenv("PIROGUE_REGEN");
	if (regen && strcmp(regen, "1") == 0) {
		FILE *f = fopen(path, "wb");
		if (!f)
			fail_msg("cannot write %s: %s", path, strerror(errno));
		assert_int_equal(fwrite(got, 1, strlen(got), f), strlen(got));
		assert_int_equal(fclose(f), 0);
		printf("regenerated %s\n", path);
		free(got);
		return;
	}
	char *want = read_file(path);
	if (!want)
		fail_msg("%s is missing (regenerate: PIROGUE_REGEN=1 build/tests/test_term)", path);
	if (strcmp(got, want) != 0) {
		printf("%s differs; the backend wrote:\n%s", path, got);
		free(got);
		free(want);
		fail_msg("%s differs from the output", path);
	}
	free(got);
	free(want);
}

static void mk_pipe(int p[2])
{
	assert_int_equal(pipe(p), 0);
	assert_int_equal(fcntl(p[0], F_SETFL, O_NONBLOCK), 0);
}

static size_t count(const struct buf *b, const char *needle)
{
	size_t n = 0, l = strlen(needle);
	for (const char *s = b->p; (s = strstr(s, needle)) != NULL; s += l)
		n++;
	return n;
}

/* The small scene of the golden frames: a box with a title, a red heart,
 * text in several colours. */
static void draw_scene(struct console *c)
{
	uint32_t bg = CON_RGB(16, 16, 32);
	con_clear(c, bg);
	con_box(c, 0, 0, 12, 4, CON_RGB(160, 160, 176), bg, "Hi");
	con_print(c, 1, 1, CON_RGB(255, 40, 40), bg, "\xe2\x99\xa5" "3", -1); /* ♥3 */
	con_print(c, 4, 1, CON_RGB(255, 255, 255), bg, "rogue", -1);
	con_print(c, 1, 2, CON_RGB(200, 200, 0), CON_RGB(0, 64, 0), "grass", -1);
	con_put(c, 8, 2, '@', CON_RGB(255, 255, 0), bg);
}

/* ---- output ------------------------------------------------------------ */

/* The backend writing into a pipe (no input) and a console to present;
 * what it writes is drained from p[0] into out. */
struct outrig {
	int p[2];
	struct buf out;
	struct display *d;
	struct console *c;
};

/* Opens the backend at tcols x trows cells and a console of ccols x crows. */
static void outrig_open(struct outrig *r, int tcols, int trows, int ccols, int crows)
{
	memset(r, 0, sizeof *r);
	mk_pipe(r->p);
	assert_int_equal(term_open_fds(&r->d, -1, r->p[1], tcols, trows), 0);
	assert_int_equal(con_create(&r->c, ccols, crows), 0);
}

/* Frees the console, the output and the pipe (the test closes the display). */
static void outrig_close(struct outrig *r)
{
	con_destroy(r->c);
	free(r->out.p);
	close(r->p[0]);
	close(r->p[1]);
}

static void test_frames_match_golden(void **st)
{
	(void)st;
	struct outrig r;
	outrig_open(&r, 12, 4, 12, 4);
	struct display *d = r.d;
	struct console *c = r.c;
	assert_ptr_equal(d->ops, &term_display_ops);
	int cols, rows;
	d->ops->console_size(d, &cols, &rows);
	assert_int_equal(cols, 12);
	assert_int_equal(rows, 4);

	draw_scene(c);
	assert_int_equal(d->ops->present(d, c), 0);
	con_clear_damage(c);
	drain(r.p[0], &r.out); /* enter sequence + the first, full frame */
	check_golden("term_frame1.txt", &r.out);
	assert_non_null(strstr(r.out.p, "\033[?1049h"));
	assert_non_null(strstr(r.out.p, "\xe2\x99\xa5"));
	assert_non_null(strstr(r.out.p, "\xe2\x94\x8c")); /* ┌ */

	/* Two cells change: only those two are redrawn. */
	con_put(c, 8, 2, ' ', CON_RGB(255, 255, 0), CON_RGB(16, 16, 32));
	con_put(c, 9, 2, '@', CON_RGB(255, 255, 0), CON_RGB(16, 16, 32));
	assert_int_equal(d->ops->present(d, c), 0);
	con_clear_damage(c);
	drain(r.p[0], &r.out);
	check_golden("term_frame2.txt", &r.out);
	assert_int_equal(count(&r.out, "@"), 1);
	assert_true(r.out.len < 64);

	/* Nothing changed: nothing is written at all. */
	assert_int_equal(d->ops->present(d, c), 0);
	drain(r.p[0], &r.out);
	assert_int_equal(r.out.len, 0);

	/* A cell damaged but set back to what the terminal shows: the shadow
	 * decides, nothing is written. */
	con_put(c, 5, 1, 'x', CON_RGB(1, 2, 3), 0);
	con_put(c, 5, 1, 'o', CON_RGB(255, 255, 255), CON_RGB(16, 16, 32));
	assert_true(c->damaged > 0);
	assert_int_equal(d->ops->present(d, c), 0);
	drain(r.p[0], &r.out);
	assert_int_equal(r.out.len, 0);
	con_clear_damage(c);

	/* A change the damage map never saw (damage cleared without a present)
	 * is still drawn. */
	con_put(c, 10, 1, '!', CON_RGB(255, 255, 255), CON_RGB(16, 16, 32));
	con_clear_damage(c);
	assert_int_equal(d->ops->present(d, c), 0);
	drain(r.p[0], &r.out);
	assert_int_equal(count(&r.out, "!"), 1);

	/* A cell changed after a present that left it damaged, then its damage
	 * cleared without a present: still drawn (the damage is trusted only
	 * while no change since the last present was forgotten). */
	con_put(c, 3, 1, '#', CON_RGB(255, 255, 255), CON_RGB(16, 16, 32));
	assert_int_equal(d->ops->present(d, c), 0);
	drain(r.p[0], &r.out);
	assert_int_equal(count(&r.out, "#"), 1);
	con_put(c, 3, 1, '%', CON_RGB(255, 255, 255), CON_RGB(16, 16, 32)); /* still damaged */
	con_clear_damage(c);
	assert_int_equal(d->ops->present(d, c), 0);
	drain(r.p[0], &r.out);
	assert_int_equal(count(&r.out, "%"), 1);
	/* and the damage trusted again after a present and its clear */
	con_clear_damage(c);
	con_put(c, 4, 1, '&', CON_RGB(255, 255, 255), CON_RGB(16, 16, 32));
	assert_int_equal(d->ops->present(d, c), 0);
	drain(r.p[0], &r.out);
	assert_int_equal(count(&r.out, "&"), 1);
	assert_int_equal(count(&r.out, "%"), 0);
	con_clear_damage(c);

	/* The console changes size: the screen is cleared and all redrawn. */
	assert_int_equal(con_resize(c, 6, 2), 0);
	con_print(c, 0, 0, CON_RGB(0, 255, 255), CON_RGB(0, 0, 0), "small", -1);
	con_print(c, 0, 1, CON_RGB(0, 255, 255), CON_RGB(0, 0, 0), "\xc3\xa9t\xc3\xa9", -1); /* été */
	assert_int_equal(d->ops->present(d, c), 0);
	drain(r.p[0], &r.out);
	check_golden("term_resize.txt", &r.out);
	assert_non_null(strstr(r.out.p, "\033[2J"));

	/* close gives the terminal back. */
	d->ops->close(d);
	drain(r.p[0], &r.out);
	check_golden("term_close.txt", &r.out);
	assert_non_null(strstr(r.out.p, "\033[?1049l"));
	assert_non_null(strstr(r.out.p, "\033[?25h"));
	assert_non_null(strstr(r.out.p, "\033[0m"));
	term_display_ops.close(NULL);

	outrig_close(&r);
}

static void test_larger_console_is_clipped(void **st)
{
	(void)st;
	struct outrig r;
	outrig_open(&r, 4, 2, 6, 3);
	struct display *d = r.d;
	struct console *c = r.c;
	con_fill(c, 0, 0, 6, 3, 'a', CON_RGB(1, 1, 1), CON_RGB(2, 2, 2));
	con_put(c, 5, 0, 'Z', 1, 2);
	con_put(c, 0, 2, 'Y', 1, 2);
	drain(r.p[0], &r.out);
	assert_int_equal(d->ops->present(d, c), 0);
	drain(r.p[0], &r.out);
	assert_int_equal(count(&r.out, "a"), 8); /* 4×2 cells, no more */
	assert_null(strstr(r.out.p, "Z"));
	assert_null(strstr(r.out.p, "Y"));
	d->ops->close(d);
	outrig_close(&r);
}

static void test_unprintable_glyphs_replaced(void **st)
{
	(void)st;
	struct outrig r;
	outrig_open(&r, 5, 1, 5, 1);
	struct display *d = r.d;
	struct console *c = r.c;
	con_put(c, 0, 0, 0x07, 1, 2);    /* BEL: would ring */
	con_put(c, 1, 0, 0x4E2D, 1, 2);  /* 中: two columns wide */
	con_put(c, 2, 0, 0x0301, 1, 2);  /* combining acute: no column */
	con_put(c, 3, 0, 0x2665, 1, 2);  /* ♥: fine */
	con_put(c, 4, 0, 0, 1, 2);       /* NUL: a space */
	drain(r.p[0], &r.out);
	assert_int_equal(d->ops->present(d, c), 0);
	drain(r.p[0], &r.out);
	/* same colours, adjacent: one run after the colour sequence */
	assert_non_null(strstr(r.out.p, "m???\xe2\x99\xa5 "));
	assert_null(strstr(r.out.p, "\a"));
	assert_null(strstr(r.out.p, "\xe4\xb8\xad"));
	d->ops->close(d);
	outrig_close(&r);
}

/* A wide map cell (docs/cells.md) shows its head's glyph and a space for
 * its tail, whatever glyph the tail holds. */
static void test_wide_map_cell_tail_is_a_space(void **st)
{
	(void)st;
	struct outrig r;
	outrig_open(&r, 4, 1, 4, 1);
	struct display *d = r.d;
	struct console *c = r.c;
	con_fill(c, 0, 0, 4, 1, 'x', 1, 2);
	con_cell_set(c, 1, 0, (struct con_cell){ 'g', 1, 2, 0, CON_MAP | CON_WIDE });
	con_cell_set(c, 2, 0, (struct con_cell){ 'g', 1, 2, 0, CON_MAP | CON_TAIL });
	drain(r.p[0], &r.out);
	assert_int_equal(d->ops->present(d, c), 0);
	drain(r.p[0], &r.out);
	assert_non_null(strstr(r.out.p, "mxg x"));
	assert_int_equal(count(&r.out, "g"), 1);
	d->ops->close(d);
	outrig_close(&r);
}

/* A space shows no foreground: a space whose foreground alone changed is
 * not sent again, and a run of spaces and letters of one background sets
 * the foreground only for the letters (not again after each space). */
static void test_space_ignores_foreground(void **st)
{
	(void)st;
	struct outrig r;
	outrig_open(&r, 4, 1, 4, 1);
	struct display *d = r.d;
	struct console *c = r.c;
	con_put(c, 0, 0, 'a', CON_RGB(1, 1, 1), CON_RGB(9, 9, 9));
	con_put(c, 1, 0, ' ', CON_RGB(2, 2, 2), CON_RGB(9, 9, 9));
	con_put(c, 2, 0, 'b', CON_RGB(1, 1, 1), CON_RGB(9, 9, 9));
	con_put(c, 3, 0, ' ', CON_RGB(3, 3, 3), CON_RGB(9, 9, 9));
	drain(r.p[0], &r.out);
	assert_int_equal(d->ops->present(d, c), 0);
	con_clear_damage(c);
	drain(r.p[0], &r.out);
	assert_non_null(strstr(r.out.p, "ma b "));
	assert_int_equal(count(&r.out, "38;2;"), 1);
	/* the spaces' foregrounds change: nothing to send */
	con_put(c, 1, 0, ' ', CON_RGB(4, 4, 4), CON_RGB(9, 9, 9));
	con_put(c, 3, 0, ' ', CON_RGB(5, 5, 5), CON_RGB(9, 9, 9));
	assert_int_equal(d->ops->present(d, c), 0);
	drain(r.p[0], &r.out);
	assert_int_equal(r.out.len, 0);
	d->ops->close(d);
	outrig_close(&r);
}

static void test_open_bad_size(void **st)
{
	(void)st;
	int p[2];
	mk_pipe(p);
	struct display *d = (struct display *)&d;
	assert_int_equal(term_open_fds(&d, -1, p[1], 0, 4), -EINVAL);
	assert_null(d);
	assert_int_equal(term_open_fds(&d, -1, p[1], 12, TERM_MAX_ROWS + 1), -EINVAL);
	close(p[0]);
	close(p[1]);
}

/* ---- input ------------------------------------------------------------- */

static int feed(struct display *d, int wfd, int rfd, const char *s, struct in_event *ev, int max)
{
	assert_int_equal(write(wfd, s, strlen(s)), (ssize_t)strlen(s));
	return d->ops->dispatch(d, rfd, ev, max);
}

/* Keys and the pointer through dispatch (the decoding itself is
 * test_termkeys.c's): the input fd is polled, a sequence split across reads
 * waits for its rest, an ESC that ends a read with nothing behind it is the
 * Escape key, a mouse report is an event of the mouse. */
static void test_input_through_dispatch(void **st)
{
	(void)st;
	int in[2], out[2];
	mk_pipe(in);
	mk_pipe(out);
	struct display *d;
	assert_int_equal(term_open_fds(&d, in[0], out[1], 12, 4), 0);
	int fd;
	assert_int_equal(d->ops->poll_fds(d, &fd, 1), 1);
	assert_int_equal(fd, in[0]);
	struct in_event ev[64];
	assert_int_equal(feed(d, in[1], in[0], "h\033[A", ev, 64), 2);
	assert_int_equal(ev[0].key, 'h');
	assert_int_equal(ev[1].key, KEY_UP);
	assert_int_equal(ev[1].type, EV_KEY_PRESS);
	assert_int_equal(ev[1].from, DEV_KEYBOARD);
	assert_int_equal(feed(d, in[1], in[0], "\033[1;", ev, 64), 0);
	assert_int_equal(feed(d, in[1], in[0], "5C", ev, 64), 1);
	assert_int_equal(ev[0].key, KEY_RIGHT);
	assert_int_equal(feed(d, in[1], in[0], "\033", ev, 64), 1);
	assert_int_equal(ev[0].key, KEY_ESCAPE);
	assert_int_equal(feed(d, in[1], in[0], "[A", ev, 64), 2); /* not an arrow now */
	assert_int_equal(ev[0].key, '[');
	assert_int_equal(feed(d, in[1], in[0], "\033[<0;5;3M", ev, 64), 1);
	assert_int_equal(ev[0].type, EV_MOUSE_CLICK);
	assert_int_equal(ev[0].from, DEV_MOUSE);
	assert_int_equal(ev[0].x, 4);
	assert_int_equal(ev[0].y, 2);
	d->ops->close(d);
	close(in[0]);
	close(in[1]);
	close(out[0]);
	close(out[1]);
}

static void test_small_room_and_eof(void **st)
{
	(void)st;
	int in[2], out[2];
	mk_pipe(in);
	mk_pipe(out);
	struct display *d;
	assert_int_equal(term_open_fds(&d, in[0], out[1], 12, 4), 0);
	struct in_event ev[4];
	/* room for two: two come now, the rest on the next calls, none lost */
	assert_int_equal(feed(d, in[1], in[0], "abcde", ev, 2), 2);
	assert_int_equal(ev[0].key, 'a');
	assert_int_equal(ev[1].key, 'b');
	assert_int_equal(d->ops->dispatch(d, in[0], ev, 2), 2);
	assert_int_equal(ev[0].key, 'c');
	assert_int_equal(ev[1].key, 'd');
	assert_int_equal(d->ops->dispatch(d, in[0], ev, 2), 1);
	assert_int_equal(ev[0].key, 'e');
	assert_int_equal(d->ops->dispatch(d, in[0], ev, 2), 0); /* nothing there */
	/* the terminal goes away: one EV_QUIT, and the fd is no longer polled */
	close(in[1]);
	assert_int_equal(d->ops->dispatch(d, in[0], ev, 4), 1);
	assert_int_equal(ev[0].type, EV_QUIT);
	int fd;
	assert_int_equal(d->ops->poll_fds(d, &fd, 1), 0);
	assert_int_equal(d->ops->dispatch(d, in[0], ev, 4), 0);
	d->ops->close(d);
	close(in[0]);
	close(out[0]);
	close(out[1]);
}

/* A burst of arrow keys (a paste, a held key over a fast link, tmux's
 * send-keys) arrives in one write of far more bytes than one call reads:
 * wherever a read ends, an ESC with the rest of its sequence already waiting
 * is never the Escape key (it was when the second read of a call ended on
 * ESC: a burst of Down keys in the help screen closed it and quit). */
static void test_burst_of_arrows(void **st)
{
	(void)st;
	int in[2], out[2];
	mk_pipe(in);
	mk_pipe(out);
	struct display *d;
	assert_int_equal(term_open_fds(&d, in[0], out[1], 12, 4), 0);
	enum { N = 300 };
	char buf[3 * N];
	for (int i = 0; i < N; i++)
		memcpy(buf + 3 * i, "\033[B", 3);
	assert_int_equal(write(in[1], buf, sizeof buf), (ssize_t)sizeof buf);
	struct in_event ev[64];
	int downs = 0, others = 0, n, calls = 0;
	while ((n = d->ops->dispatch(d, in[0], ev, 64)) > 0 && calls++ < 1000)
		for (int i = 0; i < n; i++)
			ev[i].key == KEY_DOWN ? downs++ : others++;
	assert_int_equal(others, 0);
	assert_int_equal(downs, N);
	d->ops->close(d);
	close(in[0]);
	close(in[1]);
	close(out[0]);
	close(out[1]);
}

static void test_suspend_resume(void **st)
{
	(void)st;
	struct outrig r;
	outrig_open(&r, 3, 1, 3, 1);
	struct display *d = r.d;
	struct console *c = r.c;
	con_print(c, 0, 0, 1, 2, "abc", -1);
	assert_int_equal(d->ops->present(d, c), 0);
	drain(r.p[0], &r.out);
	d->ops->suspend(d);
	drain(r.p[0], &r.out);
	assert_non_null(strstr(r.out.p, "\033[?1049l"));
	assert_int_equal(d->ops->present(d, c), 0); /* while suspended: nothing */
	drain(r.p[0], &r.out);
	assert_int_equal(r.out.len, 0);
	d->ops->resume(d);
	assert_int_equal(d->ops->present(d, c), 0);
	drain(r.p[0], &r.out);
	assert_non_null(strstr(r.out.p, "\033[?1049h"));
	assert_non_null(strstr(r.out.p, "abc")); /* everything again */
	d->ops->close(d);
	drain(r.p[0], &r.out);
	assert_non_null(strstr(r.out.p, "\033[?1049l"));
	outrig_close(&r);
}

/* ---- on a real terminal (a pseudo-terminal) ------------------------------ */

/* The sequence every way out must end with (as in term.c). */
static const char leave_seq[] =
	"\033[?2026l\033[0m\033[?1006l\033[?1003l\033[?1002l\033[?1000l"
	"\033>\033[?7h\033[?25h\033[?1049l";

struct pty {
	int master, slave;
	struct termios before;
};

/* A pty of cols×rows with the slave in the usual cooked mode; skips the
 * test when the system has no ptys. */
static void pty_open(struct pty *p, int cols, int rows)
{
	p->master = posix_openpt(O_RDWR | O_NOCTTY);
	if (p->master < 0 || grantpt(p->master) != 0 || unlockpt(p->master) != 0) {
		printf("no pseudo-terminals here (%s): skipped\n", strerror(errno));
		skip();
	}
	p->slave = open(ptsname(p->master), O_RDWR | O_NOCTTY);
	assert_true(p->slave >= 0);
	assert_int_equal(fcntl(p->master, F_SETFL, O_NONBLOCK), 0);
	struct winsize ws = { .ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols };
	assert_int_equal(ioctl(p->master, TIOCSWINSZ, &ws), 0);
	assert_int_equal(tcgetattr(p->slave, &p->before), 0);
}

static void pty_close(struct pty *p)
{
	close(p->slave);
	close(p->master);
}

static bool same_termios(const struct termios *a, const struct termios *b)
{
	return a->c_iflag == b->c_iflag && a->c_oflag == b->c_oflag && a->c_cflag == b->c_cflag &&
	       a->c_lflag == b->c_lflag && memcmp(a->c_cc, b->c_cc, sizeof a->c_cc) == 0;
}

static bool ends_with(const struct buf *b, const char *tail)
{
	size_t n = strlen(tail);
	return b->len >= n && memcmp(b->p + b->len - n, tail, n) == 0;
}

/* In a child: a new process group (as a job-control shell makes for a
 * job) or a new session (as ssh, tmux or a login makes: nobody above to
 * continue a stop); the raw terminal's VSUSP. Exit 0 enabled, 1 disabled,
 * 2 on error. */
static int vsusp_in_child(bool new_session)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (new_session ? setsid() < 0 : setpgid(0, 0) != 0)
			_exit(2);
		struct pty p;
		p.master = posix_openpt(O_RDWR | O_NOCTTY);
		if (p.master < 0 || grantpt(p.master) || unlockpt(p.master))
			_exit(2);
		p.slave = open(ptsname(p.master), O_RDWR | O_NOCTTY);
		struct display *d;
		if (p.slave < 0 || term_open_fds(&d, p.slave, p.slave, 0, 0))
			_exit(2);
		struct termios raw;
		int rc = tcgetattr(p.slave, &raw) ? 2 : raw.c_cc[VSUSP] == _POSIX_VDISABLE;
		d->ops->close(d);
		_exit(rc);
	}
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 2;
	return WEXITSTATUS(status);
}

/* Ctrl+Z stops the game (it saves and gives the terminal back) only where a
 * shell's job control can continue it: started by ssh, tmux or as a login
 * shell, a stop would hang the game for good, so Ctrl+Z stays off there. */
static void test_ctrl_z_only_under_job_control(void **st)
{
	(void)st;
	assert_int_equal(vsusp_in_child(false), 0); /* a job of a shell: Ctrl+Z on */
	assert_int_equal(vsusp_in_child(true), 1);  /* its own session: off */
}

static void test_tty_raw_size_resize_restore(void **st)
{
	(void)st;
	struct pty p;
	pty_open(&p, 50, 35);
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, now;
	sigemptyset(&ign.sa_mask);
	assert_int_equal(sigaction(SIGINT, &ign, &old_int), 0);
	struct display *d;
	assert_int_equal(term_open_fds(&d, p.slave, p.slave, 0, 0), 0);
	/* one terminal at a time */
	struct display *d2 = (struct display *)&d2;
	assert_int_equal(term_open_fds(&d2, p.slave, p.slave, 0, 0), -EBUSY);
	assert_null(d2);
	/* raw, but Ctrl+C still a signal; Ctrl+\ off (Ctrl+Z: see
	 * test_ctrl_z_only_under_job_control) */
	struct termios raw;
	assert_int_equal(tcgetattr(p.slave, &raw), 0);
	assert_false(raw.c_lflag & (ICANON | ECHO));
	assert_true(raw.c_lflag & ISIG);
	assert_false(raw.c_iflag & (ICRNL | IXON));
	assert_int_equal(raw.c_cc[VQUIT], _POSIX_VDISABLE);
	/* SIGINT was handled (ignored) already: left alone */
	assert_int_equal(sigaction(SIGINT, NULL, &now), 0);
	assert_true(now.sa_handler == SIG_IGN);

	int cols, rows;
	d->ops->console_size(d, &cols, &rows);
	assert_int_equal(cols, 50);
	assert_int_equal(rows, 35);
	struct console *c;
	assert_int_equal(con_create(&c, cols, rows), 0);
	con_print(c, 0, 0, 0xFFFFFF, 0, "hello", -1);
	assert_int_equal(d->ops->present(d, c), 0);
	con_clear_damage(c);
	struct buf out = { 0 };
	drain(p.master, &out);
	assert_non_null(strstr(out.p, "\033[?1049h"));
	assert_non_null(strstr(out.p, "hello"));

	/* resized: reported, and the next frame is a full one */
	struct winsize ws = { .ws_row = 20, .ws_col = 60 };
	assert_int_equal(ioctl(p.master, TIOCSWINSZ, &ws), 0);
	assert_int_equal(term_handle_resize(d), 1);
	assert_int_equal(term_handle_resize(d), 0);
	d->ops->console_size(d, &cols, &rows);
	assert_int_equal(cols, 60);
	assert_int_equal(rows, 20);
	assert_int_equal(con_resize(c, cols, rows), 0);
	con_print(c, 0, 0, 0xFFFFFF, 0, "again", -1);
	assert_int_equal(d->ops->present(d, c), 0);
	drain(p.master, &out);
	assert_non_null(strstr(out.p, "\033[2J"));
	assert_non_null(strstr(out.p, "again"));

	/* a size change noticed by console_size alone also redraws everything */
	ws.ws_col = 61;
	assert_int_equal(ioctl(p.master, TIOCSWINSZ, &ws), 0);
	d->ops->console_size(d, &cols, &rows);
	assert_int_equal(cols, 61);
	assert_int_equal(d->ops->present(d, c), 0);
	drain(p.master, &out);
	assert_non_null(strstr(out.p, "again"));

	d->ops->close(d);
	drain(p.master, &out);
	assert_true(ends_with(&out, leave_seq));
	struct termios after;
	assert_int_equal(tcgetattr(p.slave, &after), 0);
	assert_true(same_termios(&p.before, &after));
	assert_int_equal(sigaction(SIGINT, &old_int, NULL), 0);
	con_destroy(c);
	free(out.p);
	pty_close(&p);
}

enum way_out { BY_SEGV, BY_ABORT, BY_SIGINT, BY_SIGTERM, BY_EXIT };

/* A child takes the pty, draws, and leaves the given way without calling
 * close; the terminal must be restored all the same. */
static void run_child_way_out(enum way_out how)
{
	struct pty p;
	pty_open(&p, 20, 5);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit nocore = { 0, 0 };
		setrlimit(RLIMIT_CORE, &nocore);
		/* the test runner's own crash handlers must not catch it in here */
		int sigs[] = { SIGSEGV, SIGABRT, SIGINT, SIGTERM };
		for (int i = 0; i < 4; i++)
			signal(sigs[i], SIG_DFL);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		struct display *d;
		if (term_open_fds(&d, p.slave, p.slave, 0, 0) != 0)
			_exit(40);
		struct console *c;
		if (con_create(&c, 20, 5) != 0)
			_exit(41);
		con_print(c, 1, 1, 0xFF0000, 0, "doomed", -1);
		d->ops->present(d, c);
		switch (how) {
		case BY_SEGV: kill(getpid(), SIGSEGV); break;
		case BY_ABORT: abort();
		case BY_SIGINT: kill(getpid(), SIGINT); break;
		case BY_SIGTERM: kill(getpid(), SIGTERM); break;
		case BY_EXIT: exit(7);
		}
		_exit(42); /* not reached */
	}
	struct buf out = { 0 };
	buf_add(&out, "", 0);
	int status = 0;
	for (int waited = 0;; waited++) {
		struct pollfd pf = { .fd = p.master, .events = POLLIN };
		poll(&pf, 1, 10);
		char tmp[4096];
		ssize_t n;
		while ((n = read(p.master, tmp, sizeof tmp)) > 0)
			buf_add(&out, tmp, (size_t)n);
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (waited > 1000) { /* a hang (10 s), not a timing check */
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fail_msg("the child hung");
		}
	}
	char tmp[4096];
	ssize_t n;
	while ((n = read(p.master, tmp, sizeof tmp)) > 0)
		buf_add(&out, tmp, (size_t)n);
	static const int want_sig[] = { SIGSEGV, SIGABRT, SIGINT, SIGTERM, 0 };
	if (how == BY_EXIT) {
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 7);
	} else {
		if (!WIFSIGNALED(status))
			fail_msg("child exited %d instead of dying of signal %d",
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1, want_sig[how]);
		assert_int_equal(WTERMSIG(status), want_sig[how]);
	}
	assert_non_null(strstr(out.p, "doomed"));
	if (!ends_with(&out, leave_seq))
		fail_msg("the terminal was not given back; it got:\n%s", encode(out.p, out.len));
	struct termios after;
	assert_int_equal(tcgetattr(p.slave, &after), 0);
	assert_true(same_termios(&p.before, &after));
	free(out.p);
	pty_close(&p);
}

static void test_restored_on_segv(void **st) { (void)st; run_child_way_out(BY_SEGV); }
static void test_restored_on_abort(void **st) { (void)st; run_child_way_out(BY_ABORT); }
static void test_restored_on_sigint(void **st) { (void)st; run_child_way_out(BY_SIGINT); }
static void test_restored_on_sigterm(void **st) { (void)st; run_child_way_out(BY_SIGTERM); }
static void test_restored_on_exit(void **st) { (void)st; run_child_way_out(BY_EXIT); }

/* ---- a scrolled view (con_move) --------------------------------------- */

/* A terminal as the backend drives it: cursor moves (CUP, CUF, CHA, CR,
 * LF), colours (SGR 0, 38;2, 48;2), clearing (ED 2), a scroll region
 * (DECSTBM) and lines inserted or deleted in it (IL, DL). Lines a scroll
 * brings in hold UNSET until written (a real terminal blanks them in some
 * colour; the backend must write them). */
#define VT_W 40
#define VT_H 12
#define UNSET 0xFFFFFFFEu
#define DEF_COLOUR 0x1000000u
struct vt {
	struct con_cell cell[VT_H][VT_W];
	int x, y, top, bot;
	uint32_t fg, bg;
};

static void vt_lines(struct vt *v, int from, int to, int n, bool insert)
{
	/* rows from..to (the region from the cursor) moved by n, the rest UNSET */
	for (int k = 0; k <= to - from; k++) {
		int r = insert ? to - k : from + k, src = insert ? r - n : r + n;
		for (int x = 0; x < VT_W; x++)
			v->cell[r][x] = src >= from && src <= to ? v->cell[src][x]
								  : (struct con_cell){ UNSET, 0, 0, 0, 0 };
	}
}

static void vt_feed(struct vt *v, const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		if (s[i] == '\r') {
			v->x = 0, i++;
		} else if (s[i] == '\n') {
			v->y++, i++;
		} else if (s[i] == '\033' && i + 1 < n && s[i + 1] != '[') {
			i += 2; /* ESC = , ESC > */
		} else if (s[i] == '\033') {
			int p[16] = { 0 }, np = 0;
			bool priv = false;
			i += 2;
			if (i < n && s[i] == '?')
				priv = true, i++;
			while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';')) {
				if (s[i] == ';')
					np++;
				else
					p[np] = p[np] * 10 + (s[i] - '0');
				i++;
			}
			np++;
			char f = s[i++];
			int a = p[0] ? p[0] : 1;
			if (priv)
				continue; /* modes: nothing drawn */
			switch (f) {
			case 'H': v->y = a - 1, v->x = (np > 1 && p[1] ? p[1] : 1) - 1; break;
			case 'C': v->x += a; break;
			case 'G': v->x = a - 1; break;
			case 'J':
				for (int y = 0; y < VT_H; y++)
					for (int x = 0; x < VT_W; x++)
						v->cell[y][x] = (struct con_cell){ ' ', DEF_COLOUR, v->bg, 0, 0 };
				break;
			case 'r':
				v->top = p[0] ? p[0] - 1 : 0;
				v->bot = np > 1 && p[1] ? p[1] - 1 : VT_H - 1;
				v->x = v->y = 0;
				break;
			case 'L':
			case 'M':
				assert_true(v->y >= v->top && v->y <= v->bot);
				vt_lines(v, v->y, v->bot, a, f == 'L');
				break;
			case 'm':
				for (int k = 0; k < np; k++) {
					if (p[k] == 0)
						v->fg = v->bg = DEF_COLOUR;
					else if ((p[k] == 38 || p[k] == 48) && k + 4 < np) {
						uint32_t c = CON_RGB(p[k + 2], p[k + 3], p[k + 4]);
						*(p[k] == 38 ? &v->fg : &v->bg) = c;
						k += 4;
					}
				}
				break;
			default: fail_msg("an escape the model does not know: %c", f);
			}
		} else {
			uint32_t cp;
			i += utf8_decode(s + i, n - i, &cp);
			assert_true(v->x < VT_W && v->y < VT_H);
			v->cell[v->y][v->x] = (struct con_cell){ cp, v->fg, v->bg, 0, 0 };
			if (v->x < VT_W - 1)
				v->x++;
		}
	}
}

/* A cell of a few looks (so that many are alike, as on a map). */
static void put_some(struct console *c, struct rng *r, int x, int y)
{
	static const uint32_t chs[] = { ' ', '@', '#', '.', 0x2588 };
	static const uint32_t cols[] = { 0xFFFFFF, 0x3C3C50, 0xC0A080 };
	con_put(c, x, y, chs[rng_range(r, 0, 4)], cols[rng_range(r, 0, 2)], rng_range(r, 0, 3) ? 0 : 0x141420);
}

/* Frames of a console whose rows move (a scrolled view, as ui_draw_frame
 * moves it: con_move), changed before and after the move, sometimes moved
 * twice, sideways or in part of its width (which no scroll region can
 * move): the terminal the backend drives then shows what another one shows
 * that is sent the same console's cells without any move, cell for cell;
 * and vertical moves of whole rows are scrolled (fewer bytes). With the
 * console's scrolls set (as the app sets it from the display's) those
 * moves are whole (nothing damaged): the same. */
static void moved_rows_scrolled(bool scrolls, int extra)
{
	struct outrig a, b;
	int rows = VT_H + extra; /* the console's (the terminal shows VT_H) */
	outrig_open(&a, VT_W, VT_H, VT_W, rows);
	outrig_open(&b, VT_W, VT_H, VT_W, rows);
	static struct vt va, vb;
	memset(&va, 0, sizeof va);
	memset(&vb, 0, sizeof vb);
	va.bot = vb.bot = VT_H - 1;
	a.c->scrolls = scrolls;
	struct rng r;
	rng_seed(&r, 22);
	size_t bytes_a = 0, bytes_b = 0;
	int scrolled = 0;
	for (int t = 0; t < 400; t++) {
		for (int i = rng_range(&r, 0, 2) ? 0 : rng_range(&r, 1, 5); i > 0; i--)
			put_some(a.c, &r, rng_range(&r, 0, VT_W - 1), rng_range(&r, 0, rows - 1));
		int kind = rng_range(&r, 0, 9), top = rng_range(&r, 0, 3), h = rng_range(&r, 2, rows - top);
		int dy = rng_range(&r, 0, 1) ? 1 : -1, dx = kind == 0 ? 1 : 0, x0 = kind == 1 ? 1 : 0;
		if (t > 0) /* (the first frame is whole) */
			assert_int_equal(con_move(a.c, x0, top, VT_W - x0, h, dx, dy), 0);
		if (kind == 2)
			assert_int_equal(con_move(a.c, 0, top, VT_W, h, 0, -dy), 0);
		for (int i = rng_range(&r, 0, 6); i > 0; i--)
			put_some(a.c, &r, rng_range(&r, 0, VT_W - 1), rng_range(&r, 0, rows - 1));
		/* (the copy has every changed cell damaged, no move) */
		assert_int_equal(con_copy(b.c, a.c), 0);
		assert_int_equal(a.d->ops->present(a.d, a.c), 0);
		assert_int_equal(b.d->ops->present(b.d, b.c), 0);
		drain(a.p[0], &a.out);
		drain(b.p[0], &b.out);
		scrolled += strstr(a.out.p, "r\033[") != NULL;
		bytes_a += a.out.len;
		bytes_b += b.out.len;
		vt_feed(&va, a.out.p, a.out.len);
		vt_feed(&vb, b.out.p, b.out.len);
		for (int y = 0; y < VT_H; y++)
			for (int x = 0; x < VT_W; x++) {
				struct con_cell p = va.cell[y][x], q = vb.cell[y][x];
				if (p.ch != q.ch || p.bg != q.bg || (p.ch != ' ' && p.fg != q.fg))
					fail_msg("frame %d (move %d: %d+%d by %d, %d): cell (%d, %d) shows U+%04X %06X/%06X, "
						 "the unmoved one U+%04X %06X/%06X; sent: %s", t, kind, top, h, dx, dy, x, y,
						 p.ch, p.fg, p.bg, q.ch, q.fg, q.bg, encode(a.out.p, a.out.len));
			}
		con_clear_damage(a.c);
		con_clear_damage(b.c);
	}
	print_message("%s: %d of 400 frames scrolled; %zu bytes against %zu unmoved\n",
		      scrolls ? "whole moves" : "moves", scrolled, bytes_a, bytes_b);
	assert_true(scrolled > (extra ? 20 : 100));
	assert_true(bytes_a < bytes_b);
	a.d->ops->close(a.d);
	b.d->ops->close(b.d);
	outrig_close(&a);
	outrig_close(&b);
}

static void test_moved_rows_scrolled(void **st)
{
	(void)st;
	moved_rows_scrolled(false, 0);
	moved_rows_scrolled(true, 0);
	moved_rows_scrolled(true, 3); /* moves of rows the terminal does not show: not scrolled */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frames_match_golden),
		cmocka_unit_test(test_larger_console_is_clipped),
		cmocka_unit_test(test_unprintable_glyphs_replaced),
		cmocka_unit_test(test_wide_map_cell_tail_is_a_space),
		cmocka_unit_test(test_space_ignores_foreground),
		cmocka_unit_test(test_open_bad_size),
		cmocka_unit_test(test_moved_rows_scrolled),
		cmocka_unit_test(test_input_through_dispatch),
		cmocka_unit_test(test_small_room_and_eof),
		cmocka_unit_test(test_burst_of_arrows),
		cmocka_unit_test(test_suspend_resume),
		cmocka_unit_test(test_tty_raw_size_resize_restore),
		cmocka_unit_test(test_ctrl_z_only_under_job_control),
		cmocka_unit_test(test_restored_on_segv),
		cmocka_unit_test(test_restored_on_abort),
		cmocka_unit_test(test_restored_on_sigint),
		cmocka_unit_test(test_restored_on_sigterm),
		cmocka_unit_test(test_restored_on_exit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
