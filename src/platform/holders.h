/* holders: which processes hold which character devices open (from /proc/PID/fd), named "comm (pid N)" for one-line messages. */
#ifndef PIROGUE_PLATFORM_HOLDERS_H
#define PIROGUE_PLATFORM_HOLDERS_H
#include <stddef.h>
#include <sys/types.h>

/* What character device rdev is to the caller, as a bit mask (0: nothing
 * of interest); ctx is the caller's. */
typedef unsigned (*holders_kind_fn)(dev_t rdev, void *ctx);

/* The processes under proc (normally "/proc"; tests give a tree of their
 * own), other than pid self, whose open character devices together cover
 * every bit of want as kind tells them. Writes "comm (pid N), ..." into who
 * (len bytes, cut when full; control bytes in a name become '?'). With
 * max > 0 the search stops at the max-th. Returns how many there are, or a
 * negative errno when proc cannot be read. */
int holders_find(const char *proc, pid_t self, holders_kind_fn kind, void *ctx, unsigned want, int max, char *who,
		 size_t len);

#endif
