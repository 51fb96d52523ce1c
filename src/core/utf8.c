#include "core/utf8.h"
#include <string.h>

size_t utf8_decode(const char *str, size_t n, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	if (n == 0) {
		*cp = 0xFFFD;
		return 1;
	}
	unsigned c = s[0];
	size_t len;
	uint32_t v, min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xE0) == 0xC0) {
		len = 2; v = c & 0x1F; min = 0x80;
	} else if ((c & 0xF0) == 0xE0) {
		len = 3; v = c & 0x0F; min = 0x800;
	} else if ((c & 0xF8) == 0xF0) {
		len = 4; v = c & 0x07; min = 0x10000;
	} else {
		*cp = 0xFFFD;
		return 1;
	}
	if (len > n)
		goto bad;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			goto bad;
		v = (v << 6) | (s[i] & 0x3F);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		goto bad;
	*cp = v;
	return len;
bad:
	*cp = 0xFFFD;
	return 1;
}

size_t utf8_encode(uint32_t cp, char out[4])
{
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	} else if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	} else if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

size_t utf8_len(const char *s)
{
	size_t n = strlen(s), count = 0;
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		i += utf8_decode(s + i, n - i, &cp);
		count++;
	}
	return count;
}
