/* Fuzz target: font files (PNG and BMP tilesets, PSF1/PSF2 plain and gzip)
 * through font_load_mem. */
#include "fuzz.h"
#include "render/font.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_log l;
	fuzz_log_begin(&l);
	struct font *f = NULL;
	char err[256] = "";
	int rc = font_load_mem(&f, data, size, "fuzz.font", err, sizeof err);
	fuzz_log_end(&l);
	if (rc) {
		if (f || !err[0])
			abort(); /* a refusal sets *out to NULL and says why */
		return 0;
	}
	/* every code point maps to a valid glyph whose coverage can be read */
	static const uint32_t cps[] = { 0, ' ', '@', '#', 0x2588, 0x263a, 0xfffd, 0x10ffff, 0x110000, 0xffffffffu };
	for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++) {
		int g = font_glyph(f, cps[i]);
		volatile uint8_t sink = font_coverage(f, g)[0];
		(void)sink;
		(void)font_has(f, cps[i]);
	}
	font_destroy(f);
	return 0;
}
