/* allochook: counts the heap allocations of the binary that includes it (once), and can make one of them fail: malloc, calloc, realloc, aligned_alloc and posix_memalign become counting wrappers around glibc's; for test_alloc, bench_alloc and tests of out-of-memory paths. */
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
static long allocations __attribute__((unused));
/* The largest single request (bytes) of malloc, calloc, realloc,
 * aligned_alloc and posix_memalign so far; a test sets it to 0 and reads it
 * after the code it measures (memory bounded by a request's size, not by
 * timing it). */
static size_t alloc_largest __attribute__((unused));

#if ALLOCHOOK_COUNTING
/* The allocation that fails (ENOMEM) when `allocations` reaches this count:
 * allocations + 1 makes the next one fail; 0 none. (Not under
 * AddressSanitizer: a test of a failure skips there.) */
static long alloc_fail_at;

/* Counts an allocation of n bytes: false when it is the one to fail. */
static inline int alloc_ok(size_t n)
{
	if (n > alloc_largest)
		alloc_largest = n;
	if (++allocations != alloc_fail_at)
		return 1;
	errno = ENOMEM;
	return 0;
}

/* glibc's own allocator, under the names it exports for this purpose. */
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t align, size_t n);

void *malloc(size_t n)
{
	return alloc_ok(n) ? __libc_malloc(n) : NULL;
}

void *calloc(size_t n, size_t size)
{
	return alloc_ok(size && n > (size_t)-1 / size ? (size_t)-1 : n * size) ? __libc_calloc(n, size) : NULL;
}

void *realloc(void *p, size_t n)
{
	return alloc_ok(n) ? __libc_realloc(p, n) : NULL;
}

void free(void *p)
{
	__libc_free(p);
}

void *aligned_alloc(size_t align, size_t n)
{
	return alloc_ok(n) ? __libc_memalign(align, n) : NULL;
}

int posix_memalign(void **out, size_t align, size_t n)
{
	void *p = alloc_ok(n) ? __libc_memalign(align, n) : NULL;
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}
#endif

#endif
