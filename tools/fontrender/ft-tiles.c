/* ft-tiles: renders code points of a TrueType font into square tiles of
 * anti-aliased coverage with FreeType, for tools/make-fonts.
 *
 * Usage: ft-tiles FONT.ttf PIXEL_SIZE CELL_W CELL_H < code points (decimal,
 * one a line). Writes, per code point, CELL_W × CELL_H coverage bytes to
 * stdout (0 = ground, 255 = ink); a code point the font lacks is an error.
 * Each glyph is centred on its advance in the cell horizontally; the
 * baseline sits so the font's ascender-to-descender height is centred
 * vertically; one that would leave the cell is moved back into it. Built and run by tools/make-fonts; not part of pirogue. */
#include <ft2build.h>
#include FT_FREETYPE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: ft-tiles FONT.ttf PIXEL_SIZE CELL_W CELL_H < codepoints\n");
		return 2;
	}
	int px = atoi(argv[2]), cw = atoi(argv[3]), ch = atoi(argv[4]);
	FT_Library lib;
	FT_Face face;
	if (FT_Init_FreeType(&lib) || FT_New_Face(lib, argv[1], 0, &face) || FT_Set_Pixel_Sizes(face, 0, (FT_UInt)px)) {
		fprintf(stderr, "ft-tiles: cannot open %s at %d pixels\n", argv[1], px);
		return 1;
	}
	long asc = face->size->metrics.ascender, desc = face->size->metrics.descender; /* 26.6 */
	int base = (int)((ch * 64 - (asc - desc)) / 2 + asc + 32) / 64;
	unsigned char *cell = malloc((size_t)cw * (size_t)ch);
	unsigned long cp;
	while (scanf("%lu", &cp) == 1) {
		memset(cell, 0, (size_t)cw * (size_t)ch);
		FT_UInt gi = FT_Get_Char_Index(face, cp);
		if (!gi) {
			fprintf(stderr, "ft-tiles: %s has no glyph for U+%04lX\n", argv[1], cp);
			return 1;
		}
		if (FT_Load_Glyph(face, gi, FT_LOAD_TARGET_LIGHT) || FT_Render_Glyph(face->glyph, FT_RENDER_MODE_LIGHT)) {
			fprintf(stderr, "ft-tiles: cannot render U+%04lX\n", cp);
			return 1;
		}
		FT_GlyphSlot g = face->glyph;
		int adv = (int)((g->advance.x + 32) >> 6);
		int x0 = (cw - adv) / 2 + g->bitmap_left, y0 = base - g->bitmap_top;
		/* a glyph that would leave the cell (the low line, accents) is
		 * moved back into it */
		if (y0 + (int)g->bitmap.rows > ch)
			y0 = ch - (int)g->bitmap.rows;
		if (y0 < 0)
			y0 = 0;
		if (x0 + (int)g->bitmap.width > cw)
			x0 = cw - (int)g->bitmap.width;
		if (x0 < 0)
			x0 = 0;
		for (unsigned r = 0; r < g->bitmap.rows; r++)
			for (unsigned c = 0; c < g->bitmap.width; c++) {
				int x = x0 + (int)c, y = y0 + (int)r;
				if (x >= 0 && x < cw && y >= 0 && y < ch) {
					unsigned char v = g->bitmap.buffer[r * (unsigned)g->bitmap.pitch + c];
					if (v > cell[y * cw + x])
						cell[y * cw + x] = v;
				}
			}
		fwrite(cell, 1, (size_t)cw * (size_t)ch, stdout);
	}
	free(cell);
	FT_Done_Face(face);
	FT_Done_FreeType(lib);
	return 0;
}
