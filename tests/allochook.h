/* allochook: counts the heap allocations of the binary that includes it (once): malloc, calloc, realloc, aligned_alloc and posix_memalign become counting wrappers around glibc's; for test_alloc and bench_alloc. */
#ifndef PIROGUE_ALLOCHOOK_H
#define PIROGUE_ALLOCHOOK_H
#include <errno.h>
#include <stddef.h>

/* AddressSanitizer brings its own allocator: the counters cannot stand in
 * for it, so under it ALLOCHOOK_COUNTING is 0 and nothing is counted. */
#if defined(__SANITIZE_ADDRESS__)
#define ALLOCHOOK_COUNTING 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ALLOCHOOK_COUNTING 0
#endif
#endif
#ifndef ALLOCHOOK_COUNTING
#define ALLOCHOOK_COUNTING 1
#endif

/* Allocations made so far by the whole binary (not only the game's). */
static long allocations;

#if ALLOCHOOK_COUNTING
/* glibc's own allocator, under the names it exports for this purpose. */
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t align, size_t n);

void *malloc(size_t n)
{
	allocations++;
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	allocations++;
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	allocations++;
	return __libc_realloc(p, n);
}

void free(void *p)
{
	__libc_free(p);
}

void *aligned_alloc(size_t align, size_t n)
{
	allocations++;
	return __libc_memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	allocations++;
	void *p = __libc_memalign(align, n);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}
#endif

#endif
