/* bench_term: the terminal backend's frames (bytes and time) against the
 * straightforward way (cursor move + both colours + glyph for every cell),
 * measured in the same run, on a 240×67 console written into a memfd. */
#include "bench.h"
#include "platform/term.h"
#include "render/console.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define W 240
#define H 67
#define REPS 200

/* A game-like screen: runs of the same colours, a few different cells. */
static void scene(struct console *c, int frame)
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int wall = (x % 17 == 0) || (y % 9 == 0);
			uint32_t ch = wall ? 0x2588 : ((x * 7 + y * 3 + frame) % 23 == 0 ? 'g' : '.');
			uint32_t fg = wall ? CON_RGB(120, 120, 140) : ch == 'g' ? CON_RGB(40, 200, 40) : CON_RGB(90, 90, 90);
			con_put(c, x, y, ch, fg, CON_RGB(0, 0, 0));
		}
	con_print(c, 2, H - 1, CON_RGB(255, 255, 255), CON_RGB(0, 0, 80), "HP 12/12  \xe2\x99\xa5  Depth 3", -1);
}

/* The straightforward frame: every cell gets its own CUP and SGR. */
static size_t naive_frame(const struct console *c, char *buf)
{
	size_t n = 0;
	for (int y = 0; y < c->h; y++)
		for (int x = 0; x < c->w; x++) {
			const struct con_cell *k = con_at(c, x, y);
			n += (size_t)sprintf(buf + n, "\033[%d;%dH\033[38;2;%u;%u;%um\033[48;2;%u;%u;%um", y + 1, x + 1,
					     k->fg >> 16, (k->fg >> 8) & 255, k->fg & 255, k->bg >> 16,
					     (k->bg >> 8) & 255, k->bg & 255);
			char u[4];
			size_t l = 0;
			uint32_t ch = k->ch;
			if (ch < 0x80) u[l++] = (char)ch;
			else if (ch < 0x800) { u[l++] = (char)(0xC0 | ch >> 6); u[l++] = (char)(0x80 | (ch & 63)); }
			else { u[l++] = (char)(0xE0 | ch >> 12); u[l++] = (char)(0x80 | ((ch >> 6) & 63)); u[l++] = (char)(0x80 | (ch & 63)); }
			memcpy(buf + n, u, l);
			n += l;
		}
	return n;
}

/* Bytes written to fd since the last call (fd is a memfd, rewound each time). */
static size_t taken(int fd)
{
	off_t n = lseek(fd, 0, SEEK_CUR);
	lseek(fd, 0, SEEK_SET);
	return n > 0 ? (size_t)n : 0;
}

int main(void)
{
	int fd = memfd_create("bench_term", 0);
	if (fd < 0)
		return 1;
	struct console *c;
	struct display *d;
	char *naive = malloc(1 << 22);
	if (!naive || con_create(&c, W, H) != 0 || term_open_fds(&d, -1, fd, W, H) != 0)
		return 1;
	scene(c, 0);
	taken(fd);

	/* full frames: ours (forced full by a resize notice) and the naive one */
	double t0 = bench_now();
	for (int i = 0; i < REPS; i++) {
		term_handle_resize(d);
		d->ops->present(d, c);
		taken(fd);
	}
	double full_ours = (bench_now() - t0) / REPS;
	term_handle_resize(d);
	d->ops->present(d, c);
	size_t full_bytes = taken(fd);
	t0 = bench_now();
	size_t naive_bytes = 0;
	for (int i = 0; i < REPS; i++) {
		naive_bytes = naive_frame(c, naive);
		if (write(fd, naive, naive_bytes) != (ssize_t)naive_bytes)
			return 1;
		taken(fd);
	}
	double full_naive = (bench_now() - t0) / REPS;
	con_clear_damage(c);

	/* one step of the @: two cells change */
	int step_reps = REPS * 50;
	size_t step_bytes = 0;
	t0 = bench_now();
	for (int i = 0; i < step_reps; i++) {
		con_put(c, 5 + (i & 1), 5, '@', CON_RGB(255, 255, 0), 0);
		con_put(c, 6 - (i & 1), 5, '.', CON_RGB(90, 90, 90), 0);
		d->ops->present(d, c);
		con_clear_damage(c);
		step_bytes = taken(fd);
	}
	double step_ours = (bench_now() - t0) / step_reps;

	printf("terminal frames of %dx%d cells (naive = move + both colours + glyph per cell):\n", W, H);
	printf("  naive full frame  %8zu bytes %9.1f us\n", naive_bytes, full_naive * 1e6);
	printf("  term full frame   %8zu bytes %9.1f us   vs naive: bytes x%.3f, time x%.3f\n", full_bytes,
	       full_ours * 1e6, (double)full_bytes / (double)naive_bytes, full_ours / full_naive);
	printf("  term one @ step   %8zu bytes %9.2f us   vs own full frame: bytes x%.5f, time x%.4f\n",
	       step_bytes, step_ours * 1e6, (double)step_bytes / (double)full_bytes, step_ours / full_ours);
	d->ops->close(d);
	con_destroy(c);
	free(naive);
	close(fd);
	return 0;
}
