/* data: the files pirogue ships (fonts, the gamepad database), found under $PIROGUE_DATA_DIR, beside the binary, or where they are installed; and the fonts loaded from them or from --font. */
#ifndef PIROGUE_APP_DATA_H
#define PIROGUE_APP_DATA_H
#include <stddef.h>
#include "render/font.h"

/* The most shipped fonts the automatic choice picks from. */
#define DATA_FONTS_MAX 17

/* The shipped gamepad database's path in buf (loaded before the user's
 * mappings), or NULL after logging one line saying where it was looked for
 * and what to do. */
const char *data_gamepad_db(char *buf, size_t len);

/* The tile sheets into t (zeroed by the caller; it clears them), for the
 * tiles setting value (at from, "FILE:LINE" of a settings file; NULL: the
 * command line): NULL or "off" the shipped ones with t->on false, "on" the
 * shipped ones (their headers read; decoded when a display needs one;
 * those missing skipped, said with --verbose), anything else a tile sheet
 * file decoded now. Returns 0, or -EINVAL having logged one line naming
 * the file, what is wrong and what to do. */
int data_load_tiles(const char *value, const char *from, struct font_tilesets *t);
/* The fonts: path (--font, or the font setting at from, "FILE:LINE" of a
 * settings file; read as layout) decoded into *font when given;
 * else the shipped ones added to cands (zeroed by the caller; it clears
 * them), candidates of the display's automatic choice, which decodes only
 * the one it takes (the first, the 8×8, must be there; the others are
 * used when they are; none is decoded here). Returns 0, or a negative
 * errno having logged one line naming the file, what is wrong and what to
 * do: give --font (or mend the setting at from) another font, or say the
 * sheet's layout when that is what is wrong (a shipped
 * font found damaged later, when the choice decodes it, gets the same
 * advice). */
int data_load_fonts(const char *path, const char *from, enum font_layout layout, struct font **font,
		    struct font_cands *cands);

#endif
