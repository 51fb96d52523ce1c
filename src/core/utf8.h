/* utf8: decoding and encoding of UTF-8 code points. */
#ifndef PIROGUE_CORE_UTF8_H
#define PIROGUE_CORE_UTF8_H
#include <stddef.h>
#include <stdint.h>

/* Decodes one code point from s (at most n bytes) into *cp and returns the
 * number of bytes used (>= 1). A malformed sequence yields U+FFFD and 1. */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);
/* Encodes cp into out (room for 4 bytes); returns the byte count (1–4).
 * Invalid code points are encoded as U+FFFD. */
size_t utf8_encode(uint32_t cp, char out[4]);
/* Number of code points in the NUL-terminated string s. */
size_t utf8_len(const char *s);

#endif
