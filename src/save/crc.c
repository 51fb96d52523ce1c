/* crc: zlib's CRC-32, the long runs folded with PCLMULQDQ on x86-64. See crc.h. */
#include "save/crc.h"

#include <stdbool.h>
#include <zlib.h>

/* zlib's crc32 for any length (it takes a uInt). */
static uint32_t zlib_sum(uint32_t crc, const unsigned char *p, size_t n)
{
	uLong c = crc;
	while (n > 0) {
		uInt chunk = n > 1u << 30 ? 1u << 30 : (uInt)n;
		c = crc32(c, p, chunk);
		p += chunk;
		n -= chunk;
	}
	return (uint32_t)c;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/* The CRC of the n bytes at p (n >= 64, a multiple of 16) from the
 * register value crc (zlib's value inverted), as the register ends: the
 * folding of "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ
 * Instruction" (Gopal, Ozturk et al., Intel, 2009) with its constants for
 * the bit-reflected CRC-32 polynomial, then a Barrett reduction. */
__attribute__((target("pclmul,sse4.1"))) static uint32_t fold(uint32_t crc, const unsigned char *p, size_t n)
{
	const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
	const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
	const __m128i k5k0 = _mm_set_epi64x(0, 0x0163cd6124);
	const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
	const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);
	__m128i x1 = _mm_loadu_si128((const __m128i *)(const void *)(p + 0x00));
	__m128i x2 = _mm_loadu_si128((const __m128i *)(const void *)(p + 0x10));
	__m128i x3 = _mm_loadu_si128((const __m128i *)(const void *)(p + 0x20));
	__m128i x4 = _mm_loadu_si128((const __m128i *)(const void *)(p + 0x30));
	x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
	p += 64;
	n -= 64;
	/* four lanes of 16 bytes folded 64 bytes ahead at a time */
	while (n >= 64) {
		__m128i a1 = _mm_clmulepi64_si128(x1, k1k2, 0x00), b1 = _mm_clmulepi64_si128(x1, k1k2, 0x11);
		__m128i a2 = _mm_clmulepi64_si128(x2, k1k2, 0x00), b2 = _mm_clmulepi64_si128(x2, k1k2, 0x11);
		__m128i a3 = _mm_clmulepi64_si128(x3, k1k2, 0x00), b3 = _mm_clmulepi64_si128(x3, k1k2, 0x11);
		__m128i a4 = _mm_clmulepi64_si128(x4, k1k2, 0x00), b4 = _mm_clmulepi64_si128(x4, k1k2, 0x11);
		x1 = _mm_xor_si128(_mm_xor_si128(a1, b1), _mm_loadu_si128((const __m128i *)(const void *)(p + 0x00)));
		x2 = _mm_xor_si128(_mm_xor_si128(a2, b2), _mm_loadu_si128((const __m128i *)(const void *)(p + 0x10)));
		x3 = _mm_xor_si128(_mm_xor_si128(a3, b3), _mm_loadu_si128((const __m128i *)(const void *)(p + 0x20)));
		x4 = _mm_xor_si128(_mm_xor_si128(a4, b4), _mm_loadu_si128((const __m128i *)(const void *)(p + 0x30)));
		p += 64;
		n -= 64;
	}
	/* the four lanes into one, then 16 bytes at a time */
	const __m128i lanes[3] = { x2, x3, x4 };
	for (int i = 0; i < 3; i++)
		x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x00), _mm_clmulepi64_si128(x1, k3k4, 0x11)),
				   lanes[i]);
	for (; n >= 16; p += 16, n -= 16)
		x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x00), _mm_clmulepi64_si128(x1, k3k4, 0x11)),
				   _mm_loadu_si128((const __m128i *)(const void *)p));
	/* 128 bits to 64, then Barrett's reduction to 32 */
	x2 = _mm_clmulepi64_si128(x1, k3k4, 0x10);
	x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2);
	x2 = _mm_srli_si128(x1, 4);
	x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, low32), k5k0, 0x00), x2);
	x2 = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), poly, 0x10);
	x2 = _mm_clmulepi64_si128(_mm_and_si128(x2, low32), poly, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	return (uint32_t)_mm_extract_epi32(x1, 1);
}

static bool can_fold(void)
{
	static int known; /* 0: not asked yet, 1: yes, 2: no */
	if (!known)
		known = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1") ? 1 : 2;
	return known == 1;
}
#endif

uint32_t crc_sum(uint32_t crc, const void *data, size_t n)
{
	const unsigned char *p = data;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (n >= 64 && can_fold()) {
		size_t k = n & ~(size_t)15;
		crc = ~fold(~crc, p, k);
		p += k;
		n -= k;
	}
#endif
	return n ? zlib_sum(crc, p, n) : crc;
}
