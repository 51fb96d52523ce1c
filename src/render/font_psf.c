/* font_psf: Linux console fonts for the font loader: PSF1 and PSF2 with
 * their Unicode tables, and the gzip wrapping of a .psf.gz (zlib). */
#include "render/font.h"
#include "render/font_int.h"
#include "core/utf8.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A font of n glyphs of w×h from n packed 1-bit bitmaps of charsize bytes
 * each (rows padded to bytes, MSB left); a failure is written into err. */
static int psf_glyphs(struct font **out, int w, int h, int n, const uint8_t *bits, size_t charsize,
		      const char *name, char *err, size_t errlen)
{
	struct font *f;
	int rc = font_alloc(&f, w, h, n, false);
	if (rc)
		return font_fail(err, errlen, name, rc, "out of memory");
	size_t row = ((size_t)w + 7) / 8;
	uint8_t *c = f->coverage;
	for (int g = 0; g < n; g++) {
		const uint8_t *b = bits + (size_t)g * charsize;
		for (size_t y = 0; y < (size_t)h; y++)
			for (size_t x = 0; x < (size_t)w; x++)
				*c++ = (b[y * row + x / 8] >> (7 - x % 8)) & 1 ? 255 : 0;
	}
	*out = f;
	return 0;
}

/* Appends (cp, glyph) to m unless the table of a font of n glyphs already
 * holds FONT_MAP_PER_GLYPH * n code points; a failure is written into err. */
static int table_add(struct maplist *m, uint32_t cp, int32_t glyph, uint32_t n, const char *name, char *err,
		     size_t errlen)
{
	if (m->n >= (size_t)n * FONT_MAP_PER_GLYPH)
		return font_fail(err, errlen, name, -EINVAL,
				 "Unicode table maps more than %zu code points to its %u glyphs (at most %d a glyph "
				 "on average): a damaged font?",
				 (size_t)n * FONT_MAP_PER_GLYPH, n, FONT_MAP_PER_GLYPH);
	return font_map_add(m, cp, glyph) ? font_fail(err, errlen, name, -ENOMEM, "out of memory") : 0;
}

/* Reads a PSF1 Unicode table for n glyphs from d[p..len): per glyph 16-bit
 * little-endian code points, 0xFFFE before its sequences, 0xFFFF at its end.
 * A failure is written into err. */
static int psf1_table(struct maplist *m, const uint8_t *d, size_t len, size_t p, int n, const char *name,
		      char *err, size_t errlen)
{
	for (int g = 0; g < n; g++) {
		bool seq = false;
		for (;;) {
			if (p + 2 > len)
				return font_fail(err, errlen, name, -EINVAL, "Unicode table truncated at glyph %d of %d",
						 g, n);
			unsigned v = d[p] | (unsigned)d[p + 1] << 8;
			p += 2;
			if (v == 0xFFFF)
				break;
			if (v == 0xFFFE)
				seq = true; /* sequences follow: not single code points */
			else if (!seq) {
				int rc = table_add(m, v, g, (uint32_t)n, name, err, errlen);
				if (rc)
					return rc;
			}
		}
	}
	return 0;
}

/* Reads a PSF2 Unicode table for n glyphs from d[p..len): per glyph UTF-8
 * code points, 0xFE before its sequences, 0xFF at its end. A failure is
 * written into err. */
static int psf2_table(struct maplist *m, const uint8_t *d, size_t len, size_t p, uint32_t n, const char *name,
		      char *err, size_t errlen)
{
	for (uint32_t g = 0; g < n; g++) {
		bool seq = false;
		for (;;) {
			if (p >= len)
				return font_fail(err, errlen, name, -EINVAL, "Unicode table truncated at glyph %u of %u",
						 g, n);
			uint8_t b = d[p];
			if (b == 0xFF) {
				p++;
				break;
			}
			if (b == 0xFE) {
				seq = true; /* sequences follow */
				p++;
				continue;
			}
			/* at most the 4 bytes of one UTF-8 sequence: 0xFE and 0xFF
			 * are never part of one, so the decoder stops at them
			 * (scanning to the separator for every code point was
			 * quadratic in the table's length) */
			size_t n4 = len - p < 4 ? len - p : 4;
			uint32_t cp;
			size_t used = utf8_decode((const char *)d + p, n4, &cp);
			bool bad = cp == 0xFFFD && used == 1; /* malformed: skip a byte */
			p += used;
			if (!seq && !bad) {
				int rc = table_add(m, cp, (int32_t)g, n, name, err, errlen);
				if (rc)
					return rc;
			}
		}
	}
	return 0;
}

int font_load_psf1(struct font **out, const uint8_t *d, size_t len, const char *name, char *err,
		   size_t errlen)
{
	struct font *f = NULL;
	struct maplist m = {0};
	if (len < 4)
		return font_fail(err, errlen, name, -EINVAL, "PSF1 header truncated (%zu bytes)", len);
	unsigned mode = d[2], charsize = d[3];
	int n = mode & 0x01 ? 512 : 256;
	if (mode > 0x07)
		return font_fail(err, errlen, name, -EINVAL, "PSF1 mode 0x%02x is not valid", mode);
	if (charsize == 0)
		return font_fail(err, errlen, name, -EINVAL, "PSF1 glyphs are 0 pixels tall");
	size_t end = 4 + (size_t)n * charsize;
	if (len < end)
		return font_fail(err, errlen, name, -EINVAL,
				 "file is %zu bytes, too short for %d glyphs of 8×%u (truncated?)", len, n, charsize);
	int rc = psf_glyphs(&f, 8, (int)charsize, n, d + 4, charsize, name, err, errlen);
	if (rc)
		return rc;
	if (mode & 0x06)
		rc = psf1_table(&m, d, len, end, n, name, err, errlen);
	else
		rc = font_map_cp437(&m, n, name, err, errlen);
	return font_done(out, f, &m, rc, name, err, errlen);
}

int font_load_psf2(struct font **out, const uint8_t *d, size_t len, const char *name, char *err,
		   size_t errlen)
{
	struct font *f = NULL;
	struct maplist m = {0};
	if (len < 32)
		return font_fail(err, errlen, name, -EINVAL, "PSF2 header truncated (%zu bytes)", len);
	uint32_t version = le32(d + 4), hsize = le32(d + 8), flags = le32(d + 12);
	uint32_t n = le32(d + 16), charsize = le32(d + 20), h = le32(d + 24), w = le32(d + 28);
	if (version != 0)
		return font_fail(err, errlen, name, -EINVAL, "unsupported PSF2 version %u", version);
	if (hsize < 32 || hsize > len)
		return font_fail(err, errlen, name, -EINVAL, "PSF2 header size %u does not fit a %zu-byte file", hsize,
				 len);
	if (n == 0)
		return font_fail(err, errlen, name, -EINVAL, "PSF2 font has 0 glyphs");
	if (n > FONT_MAX_GLYPHS)
		return font_fail(err, errlen, name, -EINVAL, "PSF2 font claims %u glyphs (at most %d)", n,
				 FONT_MAX_GLYPHS);
	if (w == 0 || h == 0 || w > FONT_MAX_CELL || h > FONT_MAX_CELL)
		return font_fail(err, errlen, name, -EINVAL, "PSF2 glyph size %u×%u is impossible (1..%d each)", w, h,
				 FONT_MAX_CELL);
	if (charsize != h * ((w + 7) / 8))
		return font_fail(err, errlen, name, -EINVAL, "PSF2 glyphs of %u bytes do not match their size %u×%u",
				 charsize, w, h);
	/* n ≤ 65535 and charsize ≤ 256 × 32: no overflow in 64 bits or size_t. */
	uint64_t end = (uint64_t)hsize + (uint64_t)n * charsize;
	if (end > len)
		return font_fail(err, errlen, name, -EINVAL,
				 "file is %zu bytes, too short for %u glyphs of %u×%u (truncated?)", len, n, w, h);
	if ((uint64_t)n * w * h > FONT_MAX_PIXELS)
		return font_fail(err, errlen, name, -EFBIG, "%u glyphs of %u×%u are too many pixels", n, w, h);
	int rc = psf_glyphs(&f, (int)w, (int)h, (int)n, d + hsize, charsize, name, err, errlen);
	if (rc)
		return rc;
	if (flags & 0x01)
		rc = psf2_table(&m, d, len, (size_t)end, n, name, err, errlen);
	else
		rc = font_map_cp437(&m, (int)n, name, err, errlen);
	return font_done(out, f, &m, rc, name, err, errlen);
}

int font_gunzip(const uint8_t *d, size_t len, uint8_t **out, size_t *outlen, const char *name, char *err,
		size_t errlen)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	size_t cap = 0, n = 0;
	uint8_t *buf = NULL;
	int rc = 0;
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
		return font_fail(err, errlen, name, -ENOMEM, "cannot start gzip decompression");
	zs.next_in = (Bytef *)(uintptr_t)d; /* zlib does not write through it */
	zs.avail_in = (uInt)len;
	for (;;) {
		if (n == cap && (rc = font_grow(&buf, &cap))) {
			if (rc == -EFBIG)
				font_fail(err, errlen, name, rc, "decompresses to more than %u MiB", FONT_MAX_FILE >> 20);
			else
				font_fail(err, errlen, name, rc, "out of memory");
			goto out;
		}
		zs.next_out = buf + n;
		zs.avail_out = (uInt)(cap - n);
		int z = inflate(&zs, Z_NO_FLUSH);
		n = cap - zs.avail_out;
		if (z == Z_STREAM_END)
			break;
		if (z == Z_OK)
			continue;
		if (z == Z_BUF_ERROR && zs.avail_out > 0) {
			rc = font_fail(err, errlen, name, -EINVAL, "gzip data is truncated");
			goto out;
		}
		if (z == Z_BUF_ERROR)
			continue;
		rc = font_fail(err, errlen, name, z == Z_MEM_ERROR ? -ENOMEM : -EINVAL, "corrupt gzip data (%s)",
			       zs.msg ? zs.msg : "zlib error");
		goto out;
	}
	if (n > FONT_MAX_FILE) {
		rc = font_fail(err, errlen, name, -EFBIG, "decompresses to more than %u MiB", FONT_MAX_FILE >> 20);
		goto out;
	}
	*out = buf;
	*outlen = n;
	buf = NULL;
out:
	inflateEnd(&zs);
	free(buf);
	return rc;
}
