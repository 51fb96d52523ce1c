/* termcells: turns a terminal capture with colour escapes (tmux
 * capture-pane -p -e -N) into a canonical text that can be compared and
 * read: the rows as plain text (trailing blanks dropped), then a line
 * "-- colours", then for each row its runs of cells of one colour:
 *
 *   ROW X0-X1 FG/BG[+ATTRS] X0-X1 FG/BG ...
 *
 * FG and BG are RRGGBB, "def" (the terminal's default) or "cN" (palette
 * entry N); ATTRS are letters: b bold, d dim, i italic, u underline,
 * r reverse. A blank's foreground is not shown, so it matches any (the
 * terminal backend leaves a blank's foreground as it was, which depends
 * on what was drawn there before). Reads stdin, writes stdout; exit 0, or
 * 1 with one line when the input is not such a capture (over 512 columns
 * or 256 rows, or a broken escape). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_W 512
#define MAX_H 256
#define DEF 0x1000000u /* the default colour; palette entries are 0x2000000 | N */
#define PAL 0x2000000u

struct cell {
	uint32_t ch, fg, bg;
	unsigned attr;
};

struct capture {
	struct cell grid[MAX_H][MAX_W];
	int width[MAX_H];
};

static const char attr_letters[] = "bdiur";

/* Applies one SGR sequence's parameters (p[0..n)) to the pen. */
static void sgr(const int *p, int n, struct cell *pen)
{
	if (n == 0) {
		*pen = (struct cell){ .fg = DEF, .bg = DEF };
		return;
	}
	for (int i = 0; i < n; i++) {
		int v = p[i];
		if (v == 0) {
			*pen = (struct cell){ .fg = DEF, .bg = DEF };
		} else if (v == 1 || v == 2 || v == 3 || v == 4 || v == 7) {
			pen->attr |= 1u << (v == 1 ? 0 : v == 2 ? 1 : v == 3 ? 2 : v == 4 ? 3 : 4);
		} else if (v == 22) {
			pen->attr &= ~3u;
		} else if (v == 23 || v == 24 || v == 27) {
			pen->attr &= ~(1u << (v == 23 ? 2 : v == 24 ? 3 : 4));
		} else if ((v == 38 || v == 48) && i + 1 < n) {
			uint32_t *c = v == 38 ? &pen->fg : &pen->bg;
			if (p[i + 1] == 2 && i + 4 < n) {
				*c = (uint32_t)(p[i + 2] & 255) << 16 | (uint32_t)(p[i + 3] & 255) << 8 | (uint32_t)(p[i + 4] & 255);
				i += 4;
			} else if (p[i + 1] == 5 && i + 2 < n) {
				*c = PAL | (uint32_t)(p[i + 2] & 255);
				i += 2;
			}
		} else if (v == 39) {
			pen->fg = DEF;
		} else if (v == 49) {
			pen->bg = DEF;
		} else if (v >= 30 && v <= 37) {
			pen->fg = PAL | (uint32_t)(v - 30);
		} else if (v >= 40 && v <= 47) {
			pen->bg = PAL | (uint32_t)(v - 40);
		} else if (v >= 90 && v <= 97) {
			pen->fg = PAL | (uint32_t)(v - 90 + 8);
		} else if (v >= 100 && v <= 107) {
			pen->bg = PAL | (uint32_t)(v - 100 + 8);
		}
	}
}

static void put_utf8(uint32_t c)
{
	if (c < 0x80) {
		putchar((int)c);
	} else if (c < 0x800) {
		putchar((int)(0xC0 | c >> 6));
		putchar((int)(0x80 | (c & 0x3F)));
	} else if (c < 0x10000) {
		putchar((int)(0xE0 | c >> 12));
		putchar((int)(0x80 | (c >> 6 & 0x3F)));
		putchar((int)(0x80 | (c & 0x3F)));
	} else {
		putchar((int)(0xF0 | c >> 18));
		putchar((int)(0x80 | (c >> 12 & 0x3F)));
		putchar((int)(0x80 | (c >> 6 & 0x3F)));
		putchar((int)(0x80 | (c & 0x3F)));
	}
}

static void put_colour(uint32_t c)
{
	if (c == DEF)
		printf("def");
	else if (c & PAL)
		printf("c%u", c & 255);
	else
		printf("%06X", c);
}

/* Reads the capture into cap; returns the number of rows, or -1. */
static int read_capture(FILE *f, struct capture *cap)
{
	struct cell pen = { .fg = DEF, .bg = DEF };
	int y = 0, x = 0, ch;
	bool any = false;
	while ((ch = getc(f)) != EOF) {
		any = true;
		if (ch == '\n') {
			cap->width[y] = x;
			if (++y >= MAX_H) {
				fprintf(stderr, "termcells: more than %d rows\n", MAX_H);
				return -1;
			}
			x = 0;
			continue;
		}
		if (ch == 033) {
			if (getc(f) != '[') {
				fprintf(stderr, "termcells: row %d: an escape that is not a CSI sequence\n", y);
				return -1;
			}
			int p[32], n = 0, v = 0;
			bool have = false;
			while ((ch = getc(f)) != EOF && ((ch >= '0' && ch <= '9') || ch == ';' || ch == ':')) {
				if (ch == ';' || ch == ':') {
					if (n < 32)
						p[n++] = have ? v : 0;
					v = 0;
					have = false;
				} else {
					v = v * 10 + (ch - '0');
					if (v > 100000)
						v = 100000;
					have = true;
				}
			}
			if (have && n < 32)
				p[n++] = v;
			if (ch != 'm') {
				fprintf(stderr, "termcells: row %d: an escape other than SGR\n", y);
				return -1;
			}
			sgr(p, n, &pen);
			continue;
		}
		/* one UTF-8 character: one cell */
		uint32_t c = (uint32_t)ch;
		int more = ch >= 0xF0 ? 3 : ch >= 0xE0 ? 2 : ch >= 0xC0 ? 1 : 0;
		c &= more == 3 ? 0x07 : more == 2 ? 0x0F : more == 1 ? 0x1F : 0x7F;
		for (int i = 0; i < more && (ch = getc(f)) != EOF; i++)
			c = c << 6 | ((uint32_t)ch & 0x3F);
		if (x >= MAX_W) {
			fprintf(stderr, "termcells: row %d is over %d columns\n", y, MAX_W);
			return -1;
		}
		cap->grid[y][x] = pen;
		cap->grid[y][x].ch = c;
		x++;
	}
	if (x > 0 || (any && y == 0)) {
		cap->width[y] = x;
		y++;
	}
	return y;
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: tmux capture-pane -p -e -N | termcells\n");
		return 2;
	}
	struct capture *cap = calloc(1, sizeof *cap);
	if (!cap) {
		fprintf(stderr, "termcells: out of memory\n");
		return 1;
	}
	int rows = read_capture(stdin, cap);
	if (rows < 0) {
		free(cap);
		return 1;
	}
	for (int y = 0; y < rows; y++) {
		int end = cap->width[y];
		while (end > 0 && cap->grid[y][end - 1].ch == ' ')
			end--;
		for (int x = 0; x < end; x++)
			put_utf8(cap->grid[y][x].ch);
		putchar('\n');
	}
	printf("-- colours: row, then columns fg/bg (a blank's fg is not shown)\n");
	for (int y = 0; y < rows; y++) {
		printf("%d", y);
		int x = 0;
		while (x < cap->width[y]) {
			/* a run: same background and attributes, and the same
			 * foreground on every cell that is not a blank */
			struct cell *s = &cap->grid[y][x];
			uint32_t fg = s->ch == ' ' ? 0xFFFFFFFFu : s->fg;
			int e = x + 1;
			for (; e < cap->width[y]; e++) {
				struct cell *c = &cap->grid[y][e];
				if (c->bg != s->bg || c->attr != s->attr)
					break;
				if (c->ch != ' ') {
					if (fg == 0xFFFFFFFFu)
						fg = c->fg;
					else if (c->fg != fg)
						break;
				}
			}
			printf(" %d-%d ", x, e - 1);
			if (fg == 0xFFFFFFFFu)
				printf("-");
			else
				put_colour(fg);
			putchar('/');
			put_colour(s->bg);
			if (s->attr) {
				putchar('+');
				for (int i = 0; i < 5; i++)
					if (s->attr & 1u << i)
						putchar(attr_letters[i]);
			}
			x = e;
		}
		putchar('\n');
	}
	free(cap);
	return 0;
}
