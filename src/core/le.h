/* le: little-endian integers in bytes (the save, its sections, the history, the watch protocol), the same on every host. */
#ifndef PIROGUE_CORE_LE_H
#define PIROGUE_CORE_LE_H
#include <stdint.h>

/* Writes v into p[0..3], low byte first. */
static inline void le_put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* The value le_put32 wrote into p[0..3]. */
static inline uint32_t le_get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#endif
