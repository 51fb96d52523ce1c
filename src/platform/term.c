/* term: the terminal display backend. See term.h and docs/term.md. */
#include "platform/term.h"
#include "platform/termkeys.h"
#include "core/log.h"
#include "core/utf8.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

/* Written when the backend takes the terminal: alternate screen, cursor
 * hidden, autowrap off (a glyph the terminal draws wider than we think can
 * then never scroll the screen), keypad in application mode (so the numeric
 * keypad is told apart from the digits), mouse reporting (buttons, motion,
 * SGR 1006 coordinates). */
static const char term_enter_seq[] =
	"\033[?1049h\033[?25l\033[?7l\033="
	"\033[?1000h\033[?1002h\033[?1003h\033[?1006h";
/* Written when it gives the terminal back (also from signal handlers, so it
 * is a constant): end a synchronized update left open, colours reset, mouse
 * off, keypad normal, autowrap on, cursor shown, normal screen. */
static const char term_leave_seq[] =
	"\033[?2026l\033[0m\033[?1006l\033[?1003l\033[?1002l\033[?1000l"
	"\033>\033[?7h\033[?25h\033[?1049l";

/* Synchronized output (DEC mode 2026): terminals that know it show the frame
 * at once; the others ignore an unknown private mode. */
#define SYNC_BEGIN "\033[?2026h"
#define SYNC_END "\033[?2026l"

#define NO_COLOUR 0xFFFFFFFFu /* never a 0xRRGGBB value */
#define NO_GLYPH 0xFFFFFFFFu  /* a shadow cell the terminal may show anything in */
#define TERM_RGB_CACHE 64     /* colours whose text is kept (a power of two) */
#define TERM_SGR_CACHE 32     /* pairs of colours whose escape is kept (a power of two) */

struct term {
	struct display base;
	int in_fd, out_fd;
	bool owns_tty;    /* termios/handlers set up through the file-static instance */
	bool fixed_size;  /* not a terminal: cols×rows given at open */
	int cols, rows;   /* the terminal's size (uncapped) */
	bool full;        /* next present clears the screen and redraws every cell */
	bool suspended;
	/* what the terminal shows: sw×sh cells, NO_GLYPH where unknown (only
	 * ch, fg and bg are kept: the cell as sent), row y at row srow[y] of
	 * shadow (a scroll moves the rows' numbers, not their cells); ones:
	 * sw bytes of 1, the damage of a row looked at whole */
	int sw, sh;
	struct con_cell *shadow;
	int *srow;
	uint8_t *ones;
	/* the console last presented whole, and its `changes` then: while no
	 * change since was forgotten, its damage says all that changed */
	const struct console *seen;
	uint64_t seen_changes;
	int cur_x, cur_y; /* cursor position, -1 when unknown */
	/* the colours set: foreground, background (one 8-byte word to the
	 * cell loop, send_row: NO_COLOUR unknown) */
	uint32_t cur_col[2];
	int row_y; /* the row send_row sends */
	/* colours as last written ("r;g;b"), found by a hash of the colour: a
	 * turn's few colours are written by one copy each */
	struct term_rgb {
		char text[16]; /* "r;g;b;" at most 12 */
		uint32_t rgb;  /* NO_COLOUR: empty */
		uint8_t len;   /* of "r;g;b" */
	} rgb_text[TERM_RGB_CACHE];
	/* the whole escape setting both colours, by the pair: scattered cells
	 * mostly need both */
	struct term_sgr {
		char text[40]; /* "ESC[38;2;r;g;b;48;2;r;g;bm": 36 at most */
		uint32_t fg, bg; /* fg NO_COLOUR: empty */
		uint8_t len;
	} sgr[TERM_SGR_CACHE];
	/* the frame being built */
	char *out;
	size_t out_len, out_cap;
	bool out_oom;
	bool write_failed_logged;
	/* input: the bytes read, decoded */
	struct termkeys keys;
	bool eof;
};

/* The backend's display from the generic one (base is its first member;
 * through void *: struct term is more aligned than struct display on 32-bit
 * ARM, and this pointer always came from term_open's allocation). */
static struct term *term_of(struct display *d)
{
	return (struct term *)(void *)d;
}

/* The one terminal this process has taken, for the restoring signal and
 * atexit handlers (which can reach nothing else). Only async-signal-safe
 * calls touch it from a handler. */
static const int term_sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL,
				 SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define TERM_NSIGS ((int)(sizeof term_sigs / sizeof term_sigs[0]))
#define TERM_NCRASH 5 /* the first five always get the handler */
static struct {
	volatile sig_atomic_t active; /* the terminal is currently taken */
	struct term *owner;
	int in_fd, out_fd, tio_fd;
	struct termios saved;
	bool have_tio;
	bool installed[TERM_NSIGS];
	struct sigaction old[TERM_NSIGS];
	bool atexit_done;
	bool own_altstack;
	char altstack[65536];
} term_g;

/* ---- restoring the terminal ------------------------------------------ */

/* Async-signal-safe: write() and tcsetattr() only. */
static void term_restore_raw(void)
{
	if (!term_g.active)
		return;
	term_g.active = 0;
	size_t off = 0, len = sizeof term_leave_seq - 1;
	while (off < len) {
		ssize_t n = write(term_g.out_fd, term_leave_seq + off, len - off);
		if (n > 0)
			off += (size_t)n;
		else if (!(n < 0 && errno == EINTR))
			break;
	}
	if (term_g.have_tio)
		tcsetattr(term_g.tio_fd, TCSAFLUSH, &term_g.saved);
}

int term_reset(int fd)
{
	struct termios tio;
	if (!isatty(fd))
		return -ENOTTY;
	if (tcgetattr(fd, &tio) != 0)
		return -errno;
	size_t off = 0, len = sizeof term_leave_seq - 1;
	while (off < len) {
		ssize_t n = write(fd, term_leave_seq + off, len - off);
		if (n > 0)
			off += (size_t)n;
		else if (!(n < 0 && errno == EINTR))
			return n < 0 ? -errno : -EIO;
	}
	/* what `stty sane` does to the modes the backend touches */
	tio.c_iflag &= ~(tcflag_t)(IGNBRK | PARMRK | ISTRIP | INLCR | IGNCR | IXOFF);
	tio.c_iflag |= BRKINT | ICRNL | IXON | IMAXBEL;
	tio.c_oflag &= ~(tcflag_t)(OCRNL | ONOCR | ONLRET);
	tio.c_oflag |= OPOST | ONLCR;
	tio.c_lflag &= ~(tcflag_t)(ECHONL | NOFLSH | TOSTOP);
	tio.c_lflag |= ISIG | ICANON | IEXTEN | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE;
	tio.c_cflag |= CREAD;
	static const struct {
		int idx;
		cc_t def;
	} ccs[] = {
		{ VINTR, 3 }, { VQUIT, 28 }, { VERASE, 127 }, { VKILL, 21 }, { VEOF, 4 }, { VSUSP, 26 },
		{ VSTART, 17 }, { VSTOP, 19 }, { VWERASE, 23 }, { VLNEXT, 22 }, { VREPRINT, 18 },
	};
	for (size_t i = 0; i < sizeof ccs / sizeof ccs[0]; i++)
		if (tio.c_cc[ccs[i].idx] == _POSIX_VDISABLE)
			tio.c_cc[ccs[i].idx] = ccs[i].def;
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	return tcsetattr(fd, TCSAFLUSH, &tio) == 0 ? 0 : -errno;
}

static void term_signal_handler(int sig)
{
	int saved_errno = errno;
	term_restore_raw();
	for (int i = 0; i < TERM_NSIGS; i++)
		if (term_sigs[i] == sig && term_g.installed[i]) {
			/* give the signal back to whoever had it before (often SIG_DFL) */
			sigaction(sig, &term_g.old[i], NULL);
			term_g.installed[i] = false;
		}
	errno = saved_errno;
	/* Blocked while we run; delivered with the old disposition on return. */
	raise(sig);
}

static void term_atexit(void)
{
	term_restore_raw();
}

static void term_install_handlers(void)
{
	stack_t cur;
	if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
		/* a stack overflow's SIGSEGV needs a stack to run the handler on */
		stack_t st = { .ss_sp = term_g.altstack, .ss_size = sizeof term_g.altstack, .ss_flags = 0 };
		term_g.own_altstack = sigaltstack(&st, NULL) == 0;
	}
	for (int i = 0; i < TERM_NSIGS; i++) {
		struct sigaction old, sa;
		if (sigaction(term_sigs[i], NULL, &old) != 0)
			continue;
		if (i >= TERM_NCRASH && !(!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL))
			continue; /* someone handles it (or ignores it) already */
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = term_signal_handler;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
		term_g.old[i] = old;
		if (sigaction(term_sigs[i], &sa, NULL) == 0)
			term_g.installed[i] = true;
	}
	if (!term_g.atexit_done && atexit(term_atexit) == 0)
		term_g.atexit_done = true;
}

static void term_remove_handlers(void)
{
	for (int i = 0; i < TERM_NSIGS; i++) {
		if (!term_g.installed[i])
			continue;
		struct sigaction cur;
		/* put the old one back only if ours is still there */
		if (sigaction(term_sigs[i], NULL, &cur) == 0 && !(cur.sa_flags & SA_SIGINFO) &&
		    cur.sa_handler == term_signal_handler)
			sigaction(term_sigs[i], &term_g.old[i], NULL);
		term_g.installed[i] = false;
	}
	if (term_g.own_altstack) {
		stack_t cur;
		if (sigaltstack(NULL, &cur) == 0 && cur.ss_sp == term_g.altstack &&
		    !(cur.ss_flags & SS_ONSTACK)) {
			stack_t off = { .ss_flags = SS_DISABLE };
			sigaltstack(&off, NULL);
		}
		term_g.own_altstack = false;
	}
}

/* ---- output ------------------------------------------------------------ */

/* ob_room when the buffer must grow. */
static char *ob_grow(struct term *t, size_t n)
{
	size_t cap = t->out_cap ? t->out_cap : 4096;
	while (cap < t->out_len + n)
		cap *= 2;
	char *p = realloc(t->out, cap);
	if (!p) {
		t->out_oom = true;
		return NULL;
	}
	t->out = p;
	t->out_cap = cap;
	return t->out + t->out_len;
}

/* Makes room for n more bytes at the end of the frame; returns where they
 * go (the caller adds what it wrote to out_len), or NULL when memory ran
 * out (noted in out_oom). */
static inline char *ob_room(struct term *t, size_t n)
{
	return t->out_len + n <= t->out_cap ? t->out + t->out_len : ob_grow(t, n);
}

static void ob_put(struct term *t, const char *s, size_t n)
{
	char *p = ob_room(t, n);
	if (!p)
		return;
	memcpy(p, s, n);
	t->out_len += n;
}

#define OB_LIT(t, s) ob_put((t), (s), sizeof(s) - 1)

/* Writes the decimal digits of v at buf (room for 10); returns how many.
 * (Not inlined: its array would give its callers a stack guard.) */
static __attribute__((noinline)) int put_dec(char *buf, unsigned v)
{
	char tmp[12];
	int i = (int)sizeof tmp;
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	memcpy(buf, tmp + i, sizeof tmp - (size_t)i);
	return (int)sizeof tmp - i;
}

/* Writes the whole buffer (normally one write()), then empties it. */
static int term_flush(struct term *t)
{
	size_t off = 0;
	int rc = 0;
	while (off < t->out_len) {
		ssize_t n = write(t->out_fd, t->out + off, t->out_len - off);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd p = { .fd = t->out_fd, .events = POLLOUT };
			if (poll(&p, 1, -1) >= 0 || errno == EINTR)
				continue;
		}
		rc = n < 0 ? -errno : -EIO;
		if (!t->write_failed_logged)
			log_error("terminal: cannot write to the terminal: %s", strerror(-rc));
		t->write_failed_logged = true;
		t->full = true; /* what it shows is unknown now */
		break;
	}
	t->out_len = 0;
	return rc;
}

/* ---- size -------------------------------------------------------------- */

static void term_query_size(struct term *t, int *cols, int *rows)
{
	if (t->fixed_size) {
		*cols = t->cols;
		*rows = t->rows;
		return;
	}
	struct winsize ws;
	if ((ioctl(t->out_fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col && ws.ws_row) ||
	    (t->in_fd >= 0 && ioctl(t->in_fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col && ws.ws_row)) {
		*cols = ws.ws_col;
		*rows = ws.ws_row;
		return;
	}
	/* a serial line or a terminal that does not know its size */
	const char *c = getenv("COLUMNS"), *l = getenv("LINES");
	int ec = c ? atoi(c) : 0, el = l ? atoi(l) : 0;
	*cols = ec > 0 ? ec : 80;
	*rows = el > 0 ? el : 24;
}

/* Re-reads the size; returns 1 when it changed. */
static int term_update_size(struct term *t)
{
	int c, r;
	term_query_size(t, &c, &r);
	if (c == t->cols && r == t->rows)
		return 0;
	t->cols = c;
	t->rows = r;
	t->full = true;
	return 1;
}

int term_handle_resize(struct display *d)
{
	struct term *t = term_of(d);
	if (!t)
		return 0;
	int changed = term_update_size(t);
	t->full = true;
	return changed;
}

static void term_console_size(struct display *d, int *cols, int *rows)
{
	struct term *t = term_of(d);
	term_update_size(t);
	*cols = t->cols < TERM_MAX_COLS ? t->cols : TERM_MAX_COLS;
	*rows = t->rows < TERM_MAX_ROWS ? t->rows : TERM_MAX_ROWS;
}

/* ---- drawing ----------------------------------------------------------- */

static bool in_ranges(uint32_t c, const uint32_t (*r)[2], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (c >= r[i][0] && c <= r[i][1])
			return true;
	return false;
}

/* What to send for a cell's code point: anything a terminal would not draw
 * in exactly one column (controls, combining and zero-width marks, East
 * Asian wide characters and wide emoji) becomes '?', so a line can never be
 * pushed out of step; NUL is a space. */
static uint32_t term_glyph(uint32_t ch)
{
	static const uint32_t zero[][2] = {
		{ 0x0300, 0x036F }, { 0x0483, 0x0489 }, { 0x0591, 0x05BD }, { 0x0610, 0x061A },
		{ 0x064B, 0x065F }, { 0x1AB0, 0x1AFF }, { 0x1DC0, 0x1DFF }, { 0x200B, 0x200F },
		{ 0x2028, 0x202E }, { 0x2060, 0x206F }, { 0x20D0, 0x20FF }, { 0xFE00, 0xFE0F },
		{ 0xFE20, 0xFE2F }, { 0xFEFF, 0xFEFF }, { 0xE0000, 0xE0FFF },
	};
	static const uint32_t wide[][2] = {
		{ 0x1100, 0x115F }, { 0x231A, 0x231B }, { 0x2329, 0x232A }, { 0x23E9, 0x23EC },
		{ 0x23F0, 0x23F0 }, { 0x23F3, 0x23F3 }, { 0x25FD, 0x25FE }, { 0x2614, 0x2615 },
		{ 0x2648, 0x2653 }, { 0x267F, 0x267F }, { 0x2693, 0x2693 }, { 0x26A1, 0x26A1 },
		{ 0x26AA, 0x26AB }, { 0x26BD, 0x26BE }, { 0x26C4, 0x26C5 }, { 0x26CE, 0x26CE },
		{ 0x26D4, 0x26D4 }, { 0x26EA, 0x26EA }, { 0x26F2, 0x26F3 }, { 0x26F5, 0x26F5 },
		{ 0x26FA, 0x26FA }, { 0x26FD, 0x26FD }, { 0x2705, 0x2705 }, { 0x270A, 0x270B },
		{ 0x2728, 0x2728 }, { 0x274C, 0x274C }, { 0x274E, 0x274E }, { 0x2753, 0x2755 },
		{ 0x2757, 0x2757 }, { 0x2795, 0x2797 }, { 0x27B0, 0x27B0 }, { 0x27BF, 0x27BF },
		{ 0x2B1B, 0x2B1C }, { 0x2B50, 0x2B50 }, { 0x2B55, 0x2B55 }, { 0x2E80, 0x303E },
		{ 0x3041, 0x33FF }, { 0x3400, 0x4DBF }, { 0x4E00, 0x9FFF }, { 0xA000, 0xA4CF },
		{ 0xA960, 0xA97F }, { 0xAC00, 0xD7A3 }, { 0xF900, 0xFAFF }, { 0xFE10, 0xFE19 },
		{ 0xFE30, 0xFE6F }, { 0xFF00, 0xFF60 }, { 0xFFE0, 0xFFE6 }, { 0x16FE0, 0x1B2FF },
		{ 0x1F004, 0x1F004 }, { 0x1F0CF, 0x1F0CF }, { 0x1F18E, 0x1F18E }, { 0x1F191, 0x1F19A },
		{ 0x1F200, 0x1F251 }, { 0x1F300, 0x1F64F }, { 0x1F680, 0x1F6FF }, { 0x1F7E0, 0x1F7EB },
		{ 0x1F90C, 0x1F9FF }, { 0x1FA70, 0x1FAFF }, { 0x20000, 0x3FFFD },
	};
	if (ch == 0)
		return ' ';
	if (ch < 0x20 || (ch >= 0x7F && ch < 0xA0) || ch > 0x10FFFF || (ch >= 0xD800 && ch <= 0xDFFF))
		return '?';
	if (ch < 0x300)
		return ch;
	if (in_ranges(ch, zero, sizeof zero / sizeof zero[0]) ||
	    in_ranges(ch, wide, sizeof wide / sizeof wide[0]))
		return '?';
	return ch;
}

/* "00".."99": two digits by one copy. */
static const char digits2[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
				 "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
				 "8081828384858687888990919293949596979899";

/* Writes v in decimal at p; returns the end. */
static inline char *put_num(char *p, unsigned v)
{
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v < 100) {
		memcpy(p, digits2 + 2 * v, 2);
		return p + 2;
	}
	return p + put_dec(p, v);
}

/* Writes at out the shortest sequence moving the cursor from (cur_x,
 * cur_y) (-1: unknown) to (x, y) (at most 24 bytes); returns its length. The candidates are measured first and
 * only the one chosen is written: CUP ("ESC [ row ; col H", the column left
 * out at 1, both at the top left) unless, from a known cursor on the same
 * row, a carriage return, "ESC [ C", "ESC [ n C" or "ESC [ col G", or on
 * the next row's start "\r\n", applies (each is then the shorter). */
static inline __attribute__((always_inline)) int move_to(int cur_x, int cur_y, char *out, int x, int y)
{
	if (cur_x == x && cur_y == y)
		return 0;
	/* Each of these is shorter than CUP wherever it applies, so none is
	 * measured against it: on the cursor's row \r (1 byte) against CUP's
	 * 3 or more, "ESC [ C" (3) and "ESC [ n C" (3 + the digits of n, n <=
	 * x) against the 6 or more of a CUP to a column past the first,
	 * "ESC [ col G" (3 + the digits of col) against 4 + those of row and
	 * col; \r\n (2) against a CUP to row 2 or below (4 or more). */
	int alt = 0;
	if (cur_y >= 0) {
		if (cur_y == y) {
			if (x == 0)
				alt = 1; /* \r */
			else if (cur_x >= 0 && x == cur_x + 1)
				alt = 2; /* ESC [ C */
			else if (cur_x >= 0 && x > cur_x)
				alt = 3; /* ESC [ n C */
			else
				alt = 4; /* ESC [ col G */
		} else if (y == cur_y + 1 && x == 0) {
			alt = 5; /* \r\n */
		}
	}
	char *p = out;
	if (alt) {
		switch (alt) {
		case 1:
			*p++ = '\r';
			break;
		case 5:
			*p++ = '\r';
			*p++ = '\n';
			break;
		default:
			*p++ = '\033';
			*p++ = '[';
			if (alt == 3)
				p = put_num(p, (unsigned)(x - cur_x));
			else if (alt == 4)
				p = put_num(p, (unsigned)x + 1);
			*p++ = alt == 4 ? 'G' : 'C';
			break;
		}
	} else {
		*p++ = '\033';
		*p++ = '[';
		if (x || y)
			p = put_num(p, (unsigned)y + 1);
		if (x) {
			*p++ = ';';
			p = put_num(p, (unsigned)x + 1);
		}
		*p++ = 'H';
	}
	return (int)(p - out);
}

/* Writes "r;g;b" of 0xRRGGBB c at p (then up to 16 bytes may be
 * overwritten); returns the end. Kept by colour in t->rgb_text. */
static char *put_rgb(struct term *t, char *p, uint32_t c)
{
	struct term_rgb *e = &t->rgb_text[(c * 2654435761u) >> 26 & (TERM_RGB_CACHE - 1)];
	if (e->rgb != c) {
		char *q = e->text;
		for (int k = 16; k >= 0; k -= 8) {
			unsigned v = (c >> k) & 0xFF;
			if (v >= 100) {
				*q++ = (char)('0' + v / 100);
				v %= 100;
				memcpy(q, digits2 + 2 * v, 2);
				q += 2;
			} else {
				q = put_num(q, v);
			}
			*q++ = ';';
		}
		e->len = (uint8_t)(q - 1 - e->text);
		e->rgb = c;
	}
	memcpy(p, e->text, 16); /* the entry whole: its padding lands after the end */
	return p + e->len;
}

/* Writes at out the SGR setting the colours for a cell, only what differs
 * (at most 36 bytes, then up to 40 may be overwritten); returns its length. */
static __attribute__((noinline)) int set_colours(struct term *t, char *out, uint32_t ch, uint32_t fg, uint32_t bg)
{
	bool need_fg = ch != ' ' && fg != t->cur_col[0];
	bool need_bg = bg != t->cur_col[1];
	if (!need_fg && !need_bg)
		return 0;
	struct term_sgr *e = NULL;
	if (need_fg && need_bg) {
		e = &t->sgr[((fg * 2654435761u) ^ (bg * 40503u)) >> 27 & (TERM_SGR_CACHE - 1)];
		if (e->fg == fg && e->bg == bg) {
			memcpy(out, e->text, sizeof e->text); /* whole: what follows the end is overwritten */
			t->cur_col[0] = fg;
			t->cur_col[1] = bg;
			return e->len;
		}
	}
	char *p = out;
	*p++ = '\033';
	*p++ = '[';
	if (need_fg) {
		memcpy(p, "38;2;", 5);
		p = put_rgb(t, p + 5, fg);
		t->cur_col[0] = fg;
	}
	if (need_bg) {
		if (need_fg)
			*p++ = ';';
		memcpy(p, "48;2;", 5);
		p = put_rgb(t, p + 5, bg);
		t->cur_col[1] = bg;
	}
	*p++ = 'm';
	if (e) {
		memcpy(e->text, out, (size_t)(p - out));
		e->len = (uint8_t)(p - out);
		e->fg = fg;
		e->bg = bg;
	}
	return (int)(p - out);
}

/* The most one cell can add to a frame: a move, the colours, a glyph. */
#define CELL_MAX (24 + 36 + 4)
#define CELL_ROOM (CELL_MAX + 40) /* and what set_colours may overwrite past its end */

_Static_assert(offsetof(struct con_cell, bg) == offsetof(struct con_cell, fg) + 4, "send_row reads fg, bg as one word");

/* What a cell sends for its glyph when it is not printable ASCII: a wide
 * map cell's right half a space (its tile unused), else term_glyph. */
static uint32_t cell_glyph(const struct con_cell *cell)
{
	return cell->flags & CON_TAIL ? ' ' : term_glyph(cell->ch);
}

/* The cursor moved (at out) to column x of row t->row_y, from column hx
 * of that row, or where t->cur_x, t->cur_y say when hx < 0 (send_row);
 * returns the end. Out of the cell loop, to keep its registers. */
static __attribute__((noinline)) char *cell_move(struct term *t, char *out, int hx, int x)
{
	int y = t->row_y;
	return out + (hx >= 0 ? move_to(hx, y, out, x, y) : move_to(t->cur_x, t->cur_y, out, x, y));
}

/* set_colours for a cell of glyph ch and colours w (fg | bg << 32): the
 * escape at out; returns the end. */
static __attribute__((noinline)) char *cell_colours(struct term *t, char *out, uint32_t ch, uint64_t w)
{
	uint32_t fg = (uint32_t)w, bg = (uint32_t)(w >> 32);
	/* both to set, the escape kept: copied here (the usual case; no
	 * register of the caller's to keep) */
	if (ch != ' ' && fg != t->cur_col[0] && bg != t->cur_col[1]) {
		const struct term_sgr *e = &t->sgr[((fg * 2654435761u) ^ (bg * 40503u)) >> 27 & (TERM_SGR_CACHE - 1)];
		if (e->fg == fg && e->bg == bg) {
			memcpy(out, e->text, sizeof e->text); /* whole: what follows the end is overwritten */
			t->cur_col[0] = fg;
			t->cur_col[1] = bg;
			return out + e->len;
		}
	}
	return out + set_colours(t, out, ch, fg, bg);
}

/* Glyph ch (not ASCII) in UTF-8 at out; returns the end. */
static __attribute__((noinline)) char *cell_utf8(char *out, uint32_t ch)
{
	return out + utf8_encode(ch, out);
}

/* Sends the cells of console row y (cells row, the terminal's shadow of
 * it srow, its damage dmg: t->ones when every cell is looked at) from x to
 * before end that are damaged, unless the terminal shows the same there
 * (the same glyph and background, and foreground unless a space, which
 * shows none; srow updated): a cell is a move (move_to), the colours
 * (set_colours), its glyph. Room for the whole row is made once. The usual
 * cell (printable ASCII, the cursor on it, its colours set) takes no call
 * and few registers: hx is the cursor's column while it is known to be on
 * row y (t->cols: at the terminal's last column, where the cursor stays
 * put, no autowrap; move_to takes that as an unknown column, as it must),
 * -1 while it is where t says; the colours are compared as one word
 * (fg | bg << 32) with t->cur_col's. */
static inline __attribute__((always_inline)) void send_row(struct term *t, const struct con_cell *row,
							    struct con_cell *srow, const uint8_t *dmg, int x, int end,
							    int y)
{
	if (x < end && !dmg[x])
		x = con_next_damaged(dmg, x + 1, end);
	if (x >= end)
		return;
	char *const p0 = ob_room(t, (size_t)(end - x) * CELL_ROOM);
	if (!p0)
		return;
	char *p = p0;
	t->row_y = y;
	int hx = -1;
	const struct con_cell *cell = row + x;
	struct con_cell *sc = srow + x;
	for (;;) {
		uint32_t ch = cell->ch;
		if (__builtin_expect((cell->flags & CON_TAIL) || ch - 0x20 >= 0x5F, 0))
			ch = cell_glyph(cell);
		uint64_t w, sw, cur;
		memcpy(&w, (const char *)cell + offsetof(struct con_cell, fg), sizeof w); /* fg, bg */
		w &= 0x00FFFFFF00FFFFFFull;
		memcpy(&sw, (const char *)sc + offsetof(struct con_cell, fg), sizeof sw);
		/* a space shows no foreground */
		uint64_t seen = ch == ' ' ? 0xFFFFFFFF00000000ull : ~0ull;
		if (sc->ch == ch && !((w ^ sw) & seen))
			goto next; /* it looks the same */
		if (__builtin_expect(hx != x, 0))
			p = cell_move(t, p, hx, x);
		memcpy(&cur, t->cur_col, sizeof cur);
		if (__builtin_expect(((w ^ cur) & seen) != 0, 0))
			p = cell_colours(t, p, ch, w);
		if (__builtin_expect(ch < 0x80, 1))
			*p++ = (char)ch;
		else
			p = cell_utf8(p, ch);
		sc->ch = ch;
		memcpy((char *)sc + offsetof(struct con_cell, fg), &w, sizeof w);
		hx = x + 1;
	next:
		if (++x >= end)
			break;
		if (dmg[x]) {
			cell++;
			sc++;
			continue;
		}
		if ((x = con_next_damaged(dmg, x + 1, end)) >= end)
			break;
		cell = row + x;
		sc = srow + x;
	}
	if (hx >= 0) {
		t->cur_x = hx < t->cols ? hx : -1;
		t->cur_y = y;
	}
	t->out_len += (size_t)(p - p0);
}

/* Sends rows y0 to before y1 of console c, dw cells of each (send_row):
 * with trust, only the damaged cells of the rows outside e0 to before e1
 * (c's damage says what changed, term_present), every cell of the others.
 * One call for the frame's rows. */
static __attribute__((noinline)) void send_rows(struct term *t, const struct console *c, int y0, int y1, int e0,
						int e1, bool trust, int dw)
{
	for (int y = y0; y < y1; y++) {
		bool trust_row = trust && (y < e0 || y >= e1);
		if (trust_row && !con_span_any(c->row_damage[y]))
			continue;
		const struct con_cell *row = c->cells + (size_t)y * (size_t)c->w;
		const uint8_t *dmg = trust_row ? c->damage + (size_t)y * (size_t)c->w : t->ones;
		struct con_cell *srow = t->shadow + (size_t)t->srow[y] * (size_t)t->sw;
		int x = 0, end = dw;
		if (trust_row) {
			struct con_span sp = c->row_damage[y];
			x = sp.lo;
			end = sp.hi < dw ? sp.hi + 1 : dw;
		}
		send_row(t, row, srow, dmg, x, end, y);
	}
}

/* a[0..n) in the reverse order. */
static void rev_ints(int *a, int n)
{
	for (int i = 0, j = n - 1; i < j; i++, j--) {
		int v = a[i];
		a[i] = a[j];
		a[j] = v;
	}
}

/* Makes c's move (console.h) with what the terminal shows when it can: a
 * fresh vertical move (every cell it left as it was shows what its source
 * showed, as the scroll makes it) of rows the console's full width, all on
 * the terminal, by
 * a scroll region (DECSTBM) and deleting or inserting lines at its top
 * (DL, IL: VT102, which the Linux console, xterm and tmux all do; ncurses
 * scrolls so), the shadow moved with it. Returns whether it did; *e0, *e1
 * get the rows the scroll blanked (shadow unknown there: each is looked
 * at). */
static bool term_scroll(struct term *t, const struct console *c, int rows, int *e0, int *e1)
{
	const struct con_move *m = &c->move;
	if (!m->w || !m->fresh || m->dx || m->x || m->w != c->w || m->y + m->h > rows)
		return false;
	int n = m->dy < 0 ? -m->dy : m->dy, top = m->y, bot = m->y + m->h - 1;
	char *p = ob_room(t, 48);
	if (!p)
		return false;
	char *q = p;
	*q++ = '\033';
	*q++ = '[';
	q = put_num(q, (unsigned)top + 1);
	*q++ = ';';
	q = put_num(q, (unsigned)bot + 1);
	*q++ = 'r';
	*q++ = '\033';
	*q++ = '[';
	q = put_num(q, (unsigned)top + 1);
	*q++ = 'H';
	*q++ = '\033';
	*q++ = '[';
	q = put_num(q, (unsigned)n);
	*q++ = m->dy < 0 ? 'M' : 'L';
	memcpy(q, "\033[r", 3);
	t->out_len += (size_t)(q + 3 - p);
	t->cur_x = t->cur_y = -1; /* (DECSTBM homes the cursor) */
	/* the region's rows' numbers turned by dy (the n rows scrolled out
	 * come back as the blanked ones) */
	int *sr = t->srow + top, h = m->h;
	/* turned left by n (dy < 0) or right: reversing its two parts, then
	 * the whole */
	int k = m->dy < 0 ? n : h - n;
	rev_ints(sr, k);
	rev_ints(sr + k, h - k);
	rev_ints(sr, h);
	*e0 = m->dy > 0 ? top : bot - n + 1;
	*e1 = *e0 + n;
	size_t w = (size_t)t->sw;
	for (int r = *e0; r < *e1; r++) {
		struct con_cell *sc = t->shadow + (size_t)t->srow[r] * w;
		for (size_t i = 0; i < w; i++)
			sc[i].ch = NO_GLYPH;
	}
	return true;
}

static int term_present(struct display *d, struct console *c)
{
	struct term *t = term_of(d);
	if (t->suspended)
		return 0;
	if (c->w != t->sw || c->h != t->sh) {
		size_t n = (size_t)c->w * (size_t)c->h;
		struct con_cell *s = calloc(n, sizeof *s);
		int *sr = malloc(sizeof *sr * (size_t)(c->h > 0 ? c->h : 1));
		uint8_t *ones = malloc(c->w > 0 ? (size_t)c->w : 1);
		if (!s || !sr || !ones) {
			free(s);
			free(sr);
			free(ones);
			log_error("terminal: out of memory for a %d×%d screen", c->w, c->h);
			return -ENOMEM;
		}
		for (int y = 0; y < c->h; y++)
			sr[y] = y;
		memset(ones, 1, c->w > 0 ? (size_t)c->w : 1);
		free(t->shadow);
		free(t->srow);
		free(t->ones);
		t->shadow = s;
		t->srow = sr;
		t->ones = ones;
		t->sw = c->w;
		t->sh = c->h;
		t->full = true;
	}
	bool full = t->full;
	t->out_len = 0;
	t->out_oom = false;
	OB_LIT(t, SYNC_BEGIN);
	size_t empty_len = t->out_len;
	if (full) {
		for (int i = 0; i < t->sw * t->sh; i++)
			t->shadow[i].ch = NO_GLYPH;
		/* reset colours first so the cleared screen has the default background */
		OB_LIT(t, "\033[0m\033[2J");
		t->cur_col[0] = t->cur_col[1] = NO_COLOUR;
		t->cur_x = t->cur_y = -1;
	}
	/* The console's damage says what changed when this console was
	 * presented last (and has not counted fewer changes since: not another
	 * console at the same address) and no change since was forgotten
	 * (con_clear_damage without a present): then only its
	 * damaged cells are looked at. Otherwise (a full frame, another
	 * console, damage dropped without a present: rare) every cell is,
	 * so a frame is right whatever the caller did with the damage. Either
	 * way the shadow (what the terminal shows) decides what is sent: a
	 * cell set back to what is shown sends nothing. */
	int dw = c->w < t->cols ? c->w : t->cols;
	int dh = c->h < t->rows ? c->h : t->rows;
	bool trust = !full && t->seen == c && c->changes >= t->seen_changes && c->cleared_at <= t->seen_changes;
	int y0 = trust ? c->damage_y0 : 0, y1 = trust && c->damage_y1 < dh ? c->damage_y1 + 1 : dh;
	/* a scrolled view scrolled on the terminal too: its moved cells are
	 * then shown, the rows it blanked looked at whole */
	int e0 = 0, e1 = 0;
	if (!full && term_scroll(t, c, dh, &e0, &e1)) {
		con_moved_done(c);
	} else if (c->move.w && c->move.whole) {
		/* a whole move not scrolled: its cells were not damaged */
		e0 = c->move.y < dh ? c->move.y : dh;
		e1 = c->move.y + c->move.h < dh ? c->move.y + c->move.h : dh;
	}
	if (e0 < e1) {
		y0 = y0 < e0 ? y0 : e0;
		y1 = y1 > e1 ? y1 : e1;
	}
	send_rows(t, c, y0, y1, e0, e1, trust, dw);
	t->seen = c;
	t->seen_changes = c->changes;
	t->full = false;
	if (t->out_oom) {
		log_error("terminal: out of memory building a frame");
		t->full = true;
		t->out_len = 0;
		return -ENOMEM;
	}
	if (t->out_len == empty_len) {
		t->out_len = 0;
		return 0; /* nothing changed: nothing written */
	}
	OB_LIT(t, SYNC_END);
	return term_flush(t);
}

/* ---- input ------------------------------------------------------------- */

/* One read() of at most lim bytes after the pending ones, decoded. Returns
 * bytes read, 0 when nothing was there, -1 at end of input. */
static ssize_t read_some(struct term *t, size_t lim)
{
	struct termkeys *k = &t->keys;
	if (lim > TERMKEYS_BUF - k->pend)
		lim = TERMKEYS_BUF - k->pend;
	if (lim == 0)
		return 0;
	ssize_t r = read(t->in_fd, k->in + k->pend, lim);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return 0;
	if (r <= 0) {
		/* hung up (EOF or EIO): the terminal is gone */
		t->eof = true;
		termkeys_hangup(k);
		return -1;
	}
	termkeys_feed(k, (size_t)r);
	return r;
}

static int term_dispatch(struct display *d, int fd, struct in_event *ev, int max)
{
	struct term *t = term_of(d);
	if (max <= 0)
		return 0;
	/* Queued events first; the fd stays readable, so we are called again. */
	if (t->keys.qn == 0 && fd == t->in_fd && fd >= 0 && !t->eof) {
		/* Every event uses at least one byte: reading no more than there is
		 * room for keeps the queue from outliving this call. */
		int room = max - (int)t->keys.pend;
		ssize_t r = read_some(t, room > 1 ? (size_t)room : 1);
		/* A read that ended right after ESC: if more bytes are already
		 * waiting (no waiting: zero timeout) they are the rest of a
		 * sequence, read now or, with no room left, on the next call (the
		 * fd stays readable); else it is the Escape key. */
		while (r > 0 && termkeys_esc_pending(&t->keys)) {
			struct pollfd p = { .fd = t->in_fd, .events = POLLIN };
			if (poll(&p, 1, 0) != 1 || !(p.revents & POLLIN)) {
				termkeys_flush_escape(&t->keys);
				break;
			}
			room = max - t->keys.qn - 1;
			if (room <= 0)
				break;
			r = read_some(t, (size_t)room);
			if (r == 0)
				termkeys_flush_escape(&t->keys);
		}
	}
	return termkeys_take(&t->keys, ev, max);
}

static int term_poll_fds(struct display *d, int *fds, int max)
{
	struct term *t = term_of(d);
	if (max < 1 || t->in_fd < 0 || t->eof)
		return 0;
	fds[0] = t->in_fd;
	return 1;
}

/* ---- taking and giving back the terminal -------------------------------- */

/* Whether a stop can be continued: a shell's job control is above us (our
 * process group is not orphaned: our parent is in our session, in another
 * group), so Ctrl+Z then fg works. Without it (`ssh host pirogue`, pirogue
 * started by tmux or as a login shell: our parent in another session), a
 * stop would leave nobody to continue the game. */
static bool term_job_control(void)
{
	pid_t pp = getppid();
	return getsid(pp) == getsid(0) && getpgid(pp) != getpgrp();
}

/* Raw mode on the saved settings, keeping ISIG for Ctrl+C, and for Ctrl+Z
 * under a shell's job control (the app saves and gives the terminal back on
 * SIGTSTP; fg takes it again). */
static int term_set_raw(int fd, const struct termios *saved)
{
	struct termios tio = *saved;
	tio.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
	tio.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | IEXTEN);
	tio.c_lflag |= ISIG;
	tio.c_cflag |= CS8;
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	if (!term_job_control())
		tio.c_cc[VSUSP] = _POSIX_VDISABLE; /* a stop nobody could continue */
	tio.c_cc[VQUIT] = _POSIX_VDISABLE; /* Ctrl+\ would dump core */
	return tcsetattr(fd, TCSAFLUSH, &tio) == 0 ? 0 : -errno;
}

/* Takes the terminal (raw mode, enter sequence); the handlers see it. */
static int term_take(struct term *t)
{
	if (t->owns_tty) {
		if (term_g.have_tio) {
			if (tcgetattr(term_g.tio_fd, &term_g.saved) != 0) {
				int e = errno;
				log_error("terminal: cannot read the terminal settings: %s", strerror(e));
				return -e;
			}
		}
		term_g.active = 1;
		if (term_g.have_tio) {
			int rc = term_set_raw(term_g.tio_fd, &term_g.saved);
			if (rc < 0) {
				term_g.active = 0;
				log_error("terminal: cannot set raw mode: %s", strerror(-rc));
				return rc;
			}
		}
	}
	t->out_len = 0;
	OB_LIT(t, term_enter_seq);
	if (t->out_oom)
		return -ENOMEM;
	t->full = true;
	termkeys_forget_pointer(&t->keys);
	return term_flush(t);
}

/* Gives the terminal back as it was. */
static void term_give_back(struct term *t)
{
	if (t->owns_tty) {
		term_restore_raw();
	} else {
		t->out_len = 0;
		OB_LIT(t, term_leave_seq);
		term_flush(t);
	}
}

static void term_suspend(struct display *d)
{
	struct term *t = term_of(d);
	if (!t || t->suspended)
		return;
	term_give_back(t);
	t->suspended = true;
}

static void term_resume(struct display *d)
{
	struct term *t = term_of(d);
	if (!t || !t->suspended)
		return;
	t->suspended = false;
	term_update_size(t);
	term_take(t);
	t->full = true;
}

static void term_close(struct display *d)
{
	struct term *t = term_of(d);
	if (!t)
		return;
	if (!t->suspended)
		term_give_back(t);
	if (t->owns_tty) {
		term_remove_handlers();
		term_g.owner = NULL;
		term_g.have_tio = false;
		log_flush_held();
	}
	free(t->shadow);
	free(t->srow);
	free(t->ones);
	free(t->out);
	free(t);
}

int term_open_fds(struct display **out, int in_fd, int out_fd, int cols, int rows)
{
	*out = NULL;
	bool in_tty = in_fd >= 0 && isatty(in_fd);
	bool out_tty = isatty(out_fd);
	if (!out_tty && (cols < 1 || rows < 1 || cols > TERM_MAX_COLS || rows > TERM_MAX_ROWS)) {
		log_error("terminal: a size of %d×%d is not possible (1..%d × 1..%d)", cols, rows,
			  TERM_MAX_COLS, TERM_MAX_ROWS);
		return -EINVAL;
	}
	if ((in_tty || out_tty) && term_g.owner) {
		log_error("terminal: the terminal is already taken by another display");
		return -EBUSY;
	}
	struct term *t = calloc(1, sizeof *t);
	if (!t) {
		log_error("terminal: out of memory");
		return -ENOMEM;
	}
	t->base.ops = &term_display_ops;
	t->base.scrolls = true; /* term_scroll, or the rows looked at whole */
	termkeys_init(&t->keys);
	t->in_fd = in_fd;
	t->out_fd = out_fd;
	t->cur_x = t->cur_y = -1;
	t->cur_col[0] = t->cur_col[1] = NO_COLOUR;
	for (int i = 0; i < TERM_RGB_CACHE; i++)
		t->rgb_text[i].rgb = NO_COLOUR;
	for (int i = 0; i < TERM_SGR_CACHE; i++)
		t->sgr[i].fg = NO_COLOUR;
	t->fixed_size = !out_tty;
	t->owns_tty = in_tty || out_tty;
	if (t->fixed_size) {
		t->cols = cols;
		t->rows = rows;
	} else {
		term_update_size(t);
	}
	if (t->owns_tty) {
		term_g.owner = t;
		term_g.in_fd = in_fd;
		term_g.out_fd = out_fd;
		term_g.tio_fd = in_tty ? in_fd : out_fd;
		term_g.have_tio = true;
		term_install_handlers();
	}
	int rc = term_take(t);
	if (rc < 0)
		goto fail;
	if (t->owns_tty)
		log_hold(1); /* messages now would land on the game screen */
	*out = &t->base;
	return 0;
fail:
	if (t->owns_tty) {
		term_restore_raw();
		term_remove_handlers();
		term_g.owner = NULL;
		term_g.have_tio = false;
	}
	free(t->out);
	free(t);
	return rc;
}

static int term_open(struct display **out, const struct display_opts *o)
{
	(void)o;
	*out = NULL;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		log_error("terminal: stdin and stdout must be a terminal for --backend term "
			  "(use --backend headless when redirecting)");
		return -ENOTTY;
	}
	const char *term = getenv("TERM");
	if (term && strcmp(term, "dumb") == 0) {
		log_error("terminal: TERM=dumb cannot show colours or move the cursor; "
			  "use a real terminal or --backend headless");
		return -ENOTTY;
	}
	return term_open_fds(out, STDIN_FILENO, STDOUT_FILENO, 0, 0);
}

const struct display_ops term_display_ops = {
	.name = "term",
	.open = term_open,
	.close = term_close,
	.console_size = term_console_size,
	.present = term_present,
	.poll_fds = term_poll_fds,
	.dispatch = term_dispatch,
	.screenshot = NULL,
	.suspend = term_suspend,
	.resume = term_resume,
};
