/* console: the W×H grid of glyph cells the UI draws into, with per-cell damage tracking. */
#ifndef PIROGUE_RENDER_CONSOLE_H
#define PIROGUE_RENDER_CONSOLE_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Colours are 0xRRGGBB. */
#define CON_RGB(r, g, b) ((uint32_t)(((r) & 0xFF) << 16 | ((g) & 0xFF) << 8 | ((b) & 0xFF)))

/* One text cell (docs/cells.md): a Unicode code point drawn in fg on bg;
 * or, with CON_MAP in flags, part of a map cell, drawn from the display's
 * map sheet (its picture tile when tile is nonzero and the sheet has it,
 * else its glyph ch from the map glyph sheet). A map cell two text cells
 * wide is a CON_WIDE head and the CON_TAIL cell right of it, which holds a
 * copy of its head's ch, fg, bg and tile (so each half is drawn, and
 * damaged, on its own). */
struct con_cell {
	uint32_t ch;     /* code point (always set: the fallback of a tile) */
	uint32_t fg, bg; /* 0xRRGGBB */
	uint16_t tile;   /* 0: none; else a picture the map sheet resolves */
	uint16_t flags;  /* CON_MAP, CON_WIDE, CON_TAIL */
};
#define CON_MAP 1u  /* drawn from the map sheet, not the text font */
#define CON_WIDE 2u /* the head (left half) of a map cell two text cells wide */
#define CON_TAIL 4u /* the right half of one */
/* A map cell's picture (drawn when the display has a tile sheet,
 * blit_set_tiles; else its glyph): up to four tiles of the sheet laid
 * over each other, from the bottom: tile & 0xFF (the ground), tile >> 8
 * (what lies or stands on it), then the flags' mark (CON_MARK, bits 8-11:
 * a status) and overlay (CON_OVER, bits 12-15: an area, a cursor); 0 is
 * none. CON_DIM darkens the whole picture (what the player remembers). */
#define CON_DIM 8u
#define CON_TILE(ground, thing) ((uint16_t)((unsigned)(ground) | (unsigned)(thing) << 8))
#define CON_MARK(id) ((uint16_t)((unsigned)(id) << 8))
#define CON_OVER(id) ((uint16_t)((unsigned)(id) << 12))
#define CON_PICTURE 0xFF08u /* the flags that are part of the picture */

/* Whether two cells look the same (all five fields equal). */
_Static_assert(sizeof(struct con_cell) == 16, "con_cell_eq compares the five fields as two words: no padding");
static inline bool con_cell_eq(struct con_cell a, struct con_cell b)
{
	/* the fields fill the 16 bytes: two word compares (the five compared
	 * one by one were a third of a whole-screen draw) */
	uint64_t x[2], y[2];
	memcpy(x, &a, sizeof x);
	memcpy(y, &b, sizeof y);
	return ((x[0] ^ y[0]) | (x[1] ^ y[1])) == 0;
}

/* The columns of a row that may hold damage: lo..hi (inclusive); lo > hi
 * when none does. Readers skip clean rows, and the clean ends of the
 * others, without looking at their cells. */
struct con_span {
	uint16_t lo, hi;
};
#define CON_SPAN_NONE ((struct con_span){ 0xFFFF, 0 })

/* Whether span s holds any column. */
static inline bool con_span_any(struct con_span s)
{
	return s.lo <= s.hi;
}

/* A rectangle of cells moved by whole cells (con_move): the cell at (cx, cy)
 * of the rectangle x, y, w×h took the one at (cx - dx, cy - dy) where that
 * lies in the rectangle; the others kept theirs. w 0: none. */
struct con_move {
	int x, y, w, h, dx, dy;
	/* No cell of the rectangle was damaged when it moved: every cell the
	 * move left as it was (damage 0) shows what its source showed too. */
	bool fresh;
	/* A whole move (the console's scrolls): none of its moved cells is
	 * damaged; the present makes the move, or draws every cell of it. */
	bool whole;
};
/* A damage byte: CON_DRAW, the cell is to be drawn; CON_MOVED, it may
 * instead be moved: it shows what the cell at (-move.dx, -move.dy) from
 * it showed when the frame before was presented (that cell was not
 * damaged then). A display that does not move draws both. */
#define CON_DRAW 1
#define CON_MOVED 2

/* The grid. cells[y * w + x]; damage[y * w + x] is nonzero when the cell
 * changed since the last con_clear_damage(); row_damage[y] spans the
 * damaged cells of row y (at most: it may be wider). Read-only outside
 * this module (console.c and the inline functions below). */
struct console {
	int w, h;
	struct con_cell *cells;
	uint8_t *damage;
	struct con_span *row_damage;
	int damaged; /* number of damaged cells */
	int damage_y0, damage_y1; /* the rows holding damage lie in y0..y1 (none: y0 > y1) */
	/* Cells changed since creation, and what that count was when damage was
	 * last forgotten (con_clear_damage). A reader that
	 * noted `changes` after reading all the damage knows that every change
	 * since is still damaged while cleared_at is at most what it noted. */
	uint64_t changes, cleared_at;
	/* The move made since the damage was last forgotten (w 0: none): its
	 * cells damaged CON_MOVED show what its source cells showed. */
	struct con_move move;
	/* Set by whoever presents the console (false as created): its display
	 * makes a fresh vertical move of rows the console's full width itself
	 * (a terminal's scroll region), so con_move makes such a move whole,
	 * without comparing or damaging its cells. */
	bool scrolls;
	/* Whether con_move compares a fresh move's cells with AVX2 (the CPU
	 * has it, and PIROGUE_BLIT_BASELINE was not 1 when the console was
	 * created: the plain C compare, for tests and comparisons). */
	bool avx2;
};

/* Creates a w×h console (1..4096 each) of spaces, white on black, all damaged.
 * Returns 0 or -ENOMEM / -EINVAL (logging one line when w or h is over
 * 4096: a tiny font on a huge display). */
int con_create(struct console **out, int w, int h);
/* Frees c; accepts NULL. */
void con_destroy(struct console *c);
/* Changes the size to w×h; contents become blank and everything is damaged.
 * On failure the console is unchanged. Returns 0 or a negative errno. */
int con_resize(struct console *c, int w, int h);

/* Sets cell (x, y), which must lie in the grid, to v, damaging it when its
 * contents change (what con_put and every drawing function here do; inline:
 * a frame's changed cells are each set once through it). */
static inline void con_cell_set(struct console *c, int x, int y, struct con_cell v)
{
	size_t i = (size_t)y * (size_t)c->w + (size_t)x;
	struct con_cell *cell = &c->cells[i];
	if (con_cell_eq(*cell, v))
		return;
	*cell = v;
	c->changes++;
	if (c->damage[i] != CON_DRAW) {
		bool was = c->damage[i];
		c->damage[i] = CON_DRAW; /* (a moved cell, changed again, is drawn) */
		if (was)
			return;
		struct con_span *sp = &c->row_damage[y];
		if (x < sp->lo)
			sp->lo = (uint16_t)x;
		if (x > sp->hi)
			sp->hi = (uint16_t)x;
		if (y < c->damage_y0)
			c->damage_y0 = y;
		if (y > c->damage_y1)
			c->damage_y1 = y;
		c->damaged++;
	}
}

/* A row of the grid set cell by cell, left to right (con_row_begin, then
 * con_row_set on each cell, then con_row_end): each cell compared, set and
 * damaged as con_cell_set does, the row's damage span and the console's
 * counts noted once, at its end (inline: a frame's few changed cells of a
 * row, or a whole row, in one tight loop). */
struct con_row {
	struct con_cell *cells;
	uint8_t *damage;
	int y;
	int lo, hi, damaged; /* the newly damaged cells: the first and last (lo < 0: none), how many */
	uint64_t changed;    /* the cells set */
};

/* Row y (which must lie in the grid) of c, to set with con_row_set. */
static inline struct con_row con_row_begin(struct console *c, int y)
{
	size_t at = (size_t)y * (size_t)c->w;
	return (struct con_row){ c->cells + at, c->damage + at, y, -1, -1, 0, 0 };
}

/* Cell x of r's row (in the grid; x more than the last x set on r) set to
 * v, damaged when its contents change, as con_cell_set does. */
static inline void con_row_set(struct con_row *r, int x, struct con_cell v)
{
	struct con_cell *cell = &r->cells[x];
	if (con_cell_eq(*cell, v))
		return;
	*cell = v;
	r->changed++;
	uint8_t was = r->damage[x];
	if (was == CON_DRAW)
		return;
	r->damage[x] = CON_DRAW; /* (a moved cell, changed again, is drawn) */
	if (was)
		return;
	r->damaged++;
	r->lo = r->lo < 0 ? x : r->lo;
	r->hi = x;
}

/* What a row's cells set changed, noted in c: row y's cells from lo to
 * hi (lo < 0: none) newly damaged, damaged of them, changed cells set
 * (con_row_end's work; lo..hi must have been damaged by the caller). */
void con_row_noted(struct console *c, int y, int lo, int hi, int damaged, uint64_t changed);
/* What was set on r noted in c (its row's damage span, the counts; inline,
 * r by value: its fields stay in registers while it is set). */
static inline void con_row_end(struct console *c, struct con_row r)
{
	if (r.changed)
		con_row_noted(c, r.y, r.lo, r.hi, r.damaged, r.changed);
}

/* Sets cells x .. x + n - 1 of row y to v[0] .. v[n - 1] (those outside
 * the grid left out), each damaged when its contents change: what
 * con_cell_set on each does, with the row's damage noted once. */
void con_set_cells(struct console *c, int x, int y, const struct con_cell *v, int n);

/* Sets one text cell (tile 0, no flags); outside the grid it does nothing.
 * A cell is damaged only when its contents actually change. */
static inline void con_put(struct console *c, int x, int y, uint32_t ch, uint32_t fg, uint32_t bg)
{
	if (x >= 0 && y >= 0 && x < c->w && y < c->h)
		con_cell_set(c, x, y, (struct con_cell){ ch, fg, bg, 0, 0 });
}

/* Sets only the glyph and foreground, keeping the background (a text
 * cell: tile and flags become 0). */
void con_put_fg(struct console *c, int x, int y, uint32_t ch, uint32_t fg);
/* Sets only the background of a cell (its tile and flags kept). */
void con_set_bg(struct console *c, int x, int y, uint32_t bg);
/* The cell at (x, y), or NULL outside the grid. */
const struct con_cell *con_at(const struct console *c, int x, int y);

/* Prints UTF-8 text from (x, y) on one line, clipped at the console's edges
 * and at max_w cells (max_w < 0: no limit). Returns the cells written. */
int con_print(struct console *c, int x, int y, uint32_t fg, uint32_t bg, const char *utf8, int max_w);
/* Like con_print but keeps each cell's background. */
int con_print_fg(struct console *c, int x, int y, uint32_t fg, const char *utf8, int max_w);
/* printf-style con_print (no width limit). */
int con_printf(struct console *c, int x, int y, uint32_t fg, uint32_t bg, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Prints text word-wrapped into the w×h box at (x, y); words are never cut
 * unless one is wider than the box. Returns the number of lines used (which
 * may exceed h; lines beyond h are not drawn). */
int con_print_wrapped(struct console *c, int x, int y, int w, int h, uint32_t fg, uint32_t bg, const char *utf8);
/* The same, leaving out the first skip wrapped lines: line skip lands on row
 * y (to show the end of a text taller than the box). */
int con_print_wrapped_from(struct console *c, int x, int y, int w, int h, int skip, uint32_t fg, uint32_t bg,
			   const char *utf8);
/* Number of lines con_print_wrapped would use for text in width w. */
int con_wrapped_lines(int w, const char *utf8);
/* One wrapped line: its bytes utf8[at .. at + len). */
struct con_line {
	uint16_t at, len;
};
/* The lines con_print_wrapped would print text in width w as: the first
 * max of them into out (their bytes, for con_print_line); returns how many
 * there are (may exceed max). Text longer than 65535 bytes: 0 lines. */
int con_wrap(int w, const char *utf8, struct con_line *out, int max);
/* Prints line l of utf8 (from con_wrap) at (x, y), as con_print_wrapped
 * prints it. Returns the cells written (as con_print). */
int con_print_line(struct console *c, int x, int y, uint32_t fg, uint32_t bg, const char *utf8, struct con_line l);

/* Fills the rectangle (clipped) with ch in fg on bg. */
void con_fill(struct console *c, int x, int y, int w, int h, uint32_t ch, uint32_t fg, uint32_t bg);
/* Clears the whole console to spaces on bg. */
void con_clear(struct console *c, uint32_t bg);
/* Draws a single-line box frame (┌─┐│└┘) around the rectangle, clipped,
 * with an optional centred title (NULL for none). The inside is untouched. */
void con_box(struct console *c, int x, int y, int w, int h, uint32_t fg, uint32_t bg, const char *title);

/* Makes dst's cells equal src's (same size required: returns -EINVAL
 * otherwise), damaging only the cells that differ. Lets a screen be drawn
 * from scratch into a spare console without over-reporting damage. */
int con_copy(struct console *dst, const struct console *src);

/* Makes dst's cells in the rectangle (clipped) equal src's (same size
 * required: returns -EINVAL otherwise), damaging only the cells that
 * differ: a part of a screen composed in a spare console, then shown. */
int con_copy_rect(struct console *dst, const struct console *src, int x, int y, int w, int h);


/* The first i in [from, n) with damage[i] nonzero, or n: a row of a damage
 * map (the console's, or one like it) read eight bytes at a time. (Inline:
 * every reader of damage calls it once a damaged cell.) */
static inline int con_next_damaged(const uint8_t *damage, int from, int n)
{
	int i = from;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, damage + i, 8);
		if (!w)
			continue;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		return i + __builtin_ctzll(w) / 8;
#else
		break;
#endif
	}
	while (i < n && !damage[i])
		i++;
	return i;
}

/* Moves the cells of the rectangle x, y, w×h (inside the console) by dx,
 * dy whole cells, as struct con_move says (a scrolled map view), their
 * damage with them, and notes the move in c->move. The cells the move
 * changes are damaged: CON_MOVED where the cell they now show was not
 * damaged (a display may move its pixels), CON_DRAW where it was. The
 * cells the move uncovers keep what they held. A second move before the
 * damage is forgotten makes the first one's moved cells CON_DRAW (all of a
 * whole one's rectangle). When c->scrolls, a fresh vertical move of rows
 * the full width is whole (c->move.whole): no cell damaged. Returns
 * 0, or -EINVAL (nothing changed) for a rectangle not in the console or a
 * move as far as its size. */
int con_move(struct console *c, int x, int y, int w, int h, int dx, int dy);
/* The damage of c->move's CON_MOVED cells forgotten (0): a display that
 * made the move with what it shows calls it before drawing the rest. */
void con_moved_done(struct console *c);

/* Marks every cell damaged (e.g. after a VT switch or a new surface). */
void con_damage_all(struct console *c);
/* Forgets all damage and the move (after the frame has been presented). */
void con_clear_damage(struct console *c);

#endif
