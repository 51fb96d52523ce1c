/* blit_copy: the blitter's short copies of pixel rows, inline (pieces of constant size, no libc call), shared by blit_band.c (cells) and blit_move.c (a scrolled view's rows). */
#ifndef PIROGUE_RENDER_BLIT_COPY_H
#define PIROGUE_RENDER_BLIT_COPY_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* memcpy for the short, variable copies of a cell row, inline (n is a
 * multiple of 2). */
static inline __attribute__((always_inline)) void copy_bytes(uint8_t *d, const uint8_t *s, size_t n)
{
	size_t k = 0;
	for (; k + 32 <= n; k += 32)
		memcpy(d + k, s + k, 32);
	for (; k + 4 <= n; k += 4)
		memcpy(d + k, s + k, 4);
	if (k < n)
		memcpy(d + k, s + k, 2);
}

/* The first n (0..7) 4-byte pixels of the 32 bytes at v to dst, in pieces
 * of constant size (a variable-length memcpy was a libc call a row). */
static inline __attribute__((always_inline)) void store_tail32(uint8_t *dst, const void *v, int n)
{
	const uint8_t *p = v;
	int at = 0;
	if (n & 4) {
		memcpy(dst, p, 16);
		at = 16;
	}
	if (n & 2) {
		memcpy(dst + at, p + at, 8);
		at += 8;
	}
	if (n & 1)
		memcpy(dst + at, p + at, 4);
}

/* 32 bytes at any alignment, as one vector (a 32-byte memcpy is two
 * 16-byte moves each way in gcc's AVX2 code: its pieces are 16 bytes) */
typedef uint8_t v32u8_any __attribute__((vector_size(32), aligned(1), may_alias));

/* Bytes k..n-1 of the row at s (n - k a multiple of 2) to the same
 * places from d, in pieces of constant size: 32-byte moves, then 16, 8,
 * 4 and 2. The offset is a parameter, not folded into the pointers, so
 * that a caller which copied the row's start itself (blit_move's
 * 128-byte steps) goes on with its own index: new pointers and length
 * for the rest cost four instructions a row (measured: bench_turn at
 * 1080p 89,565 -> 89,815 a turn). */
static inline __attribute__((always_inline)) void copy_row_at(uint8_t *d, const uint8_t *s, size_t k, size_t n)
{
	for (; k + 32 <= n; k += 32)
		*(v32u8_any *)(void *)(d + k) = *(const v32u8_any *)(const void *)(s + k);
	if (n - k >= 16) {
		memcpy(d + k, s + k, 16);
		k += 16;
	}
	if (n - k >= 8) {
		memcpy(d + k, s + k, 8);
		k += 8;
	}
	if (n - k >= 4) {
		memcpy(d + k, s + k, 4);
		k += 4;
	}
	if (n - k >= 2)
		memcpy(d + k, s + k, 2);
}

/* One row of n bytes (a multiple of 2) in pieces of constant size. */
static inline __attribute__((always_inline)) void copy_row(uint8_t *d, const uint8_t *s, size_t n)
{
	copy_row_at(d, s, 0, n);
}

/* bh rows of n bytes, n a constant where the caller's is (inlined, each
 * row is then a few vector moves with everything in registers: the
 * surface may alias anything, so nothing is read from memory a row). */
static inline __attribute__((always_inline)) void copy_rows(uint8_t *dst, const uint8_t *src, size_t stride,
							    size_t n, int bh)
{
	int y = 0;
	size_t stride3 = 3 * stride;
	for (; y + 4 <= bh; y += 4, dst += 4 * stride, src += 4 * n) { /* four rows a step: fewer loop steps */
		copy_row(dst, src, n);
		copy_row(dst + stride, src + n, n);
		copy_row(dst + 2 * stride, src + 2 * n, n);
		copy_row(dst + stride3, src + 3 * n, n);
	}
	for (; y < bh; y++, dst += stride, src += n)
		copy_row(dst, src, n);
}

/* 24 rows of n bytes (n a constant where the caller's is: 1080p's 48-byte
 * text cells and 96-byte map cells), written out: the source's offsets
 * are constants and the destination moves on once every four rows (the
 * four-row loop of copy_rows kept a counter and two pointers going: about
 * 18 instructions a cell more). */
static inline __attribute__((always_inline)) void copy_rows24(uint8_t *dst, const uint8_t *src, size_t stride,
							      size_t n)
{
	size_t stride3 = 3 * stride, stride4 = 4 * stride;
#define COPY_ROWS4(k)                                                                                                 \
	do {                                                                                                           \
		copy_row(dst, src + (4 * (k)) * n, n);                                                                 \
		copy_row(dst + stride, src + (4 * (k) + 1) * n, n);                                                     \
		copy_row(dst + 2 * stride, src + (4 * (k) + 2) * n, n);                                                 \
		copy_row(dst + stride3, src + (4 * (k) + 3) * n, n);                                                    \
		dst += stride4;                                                                                        \
	} while (0)
	COPY_ROWS4(0);
	COPY_ROWS4(1);
	COPY_ROWS4(2);
	COPY_ROWS4(3);
	COPY_ROWS4(4);
	COPY_ROWS4(5);
#undef COPY_ROWS4
}

#endif
