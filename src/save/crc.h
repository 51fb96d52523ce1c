/* crc: the CRC-32 of zlib (and of the save file's sections), summed with
 * the carry-less multiply where the CPU has one. */
#ifndef PIROGUE_SAVE_CRC_H
#define PIROGUE_SAVE_CRC_H
#include <stddef.h>
#include <stdint.h>

/* The CRC-32 of the n bytes at p continued from crc (0 to start), exactly
 * as zlib's crc32(crc, p, n) gives it: on x86-64 with PCLMULQDQ and
 * SSE4.1 the blocks of 64 bytes are folded by carry-less multiplies
 * (about a twentieth of the instructions of zlib's tables), the rest and
 * every other CPU through zlib. p may be NULL when n is 0. */
uint32_t crc_sum(uint32_t crc, const void *p, size_t n);

#endif
