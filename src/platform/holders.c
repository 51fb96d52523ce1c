/* holders: see holders.h. */
#include "platform/holders.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The bits of want that pid's open character devices cover. */
static unsigned held_kinds(const char *proc, long pid, holders_kind_fn kind, void *ctx, unsigned want)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%ld/fd", proc, pid);
	DIR *fds = opendir(path);
	if (!fds)
		return 0; /* gone, or not ours to see */
	unsigned got = 0;
	struct dirent *fe;
	while ((got & want) != want && (fe = readdir(fds))) {
		struct stat st;
		if (fe->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%ld/fd/%.32s", proc, pid, fe->d_name);
		if (stat(path, &st) == 0 && S_ISCHR(st.st_mode))
			got |= kind(st.st_rdev, ctx);
	}
	closedir(fds);
	return got & want;
}

/* pid's command name into comm (len bytes), "?" when it cannot be read;
 * control bytes (the name is the process's own choice) become '?'. */
static void comm_of(const char *proc, long pid, char *comm, size_t len)
{
	char path[PATH_MAX];
	snprintf(comm, len, "?");
	snprintf(path, sizeof path, "%s/%ld/comm", proc, pid);
	FILE *f = fopen(path, "r");
	if (f) {
		if (fgets(comm, (int)len, f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	for (char *c = comm; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}

int holders_find(const char *proc, pid_t self, holders_kind_fn kind, void *ctx, unsigned want, int max, char *who,
		 size_t len)
{
	if (len)
		who[0] = 0;
	DIR *dir = opendir(proc);
	if (!dir)
		return -errno;
	int found = 0;
	size_t used = 0;
	struct dirent *pe;
	while ((max <= 0 || found < max) && (pe = readdir(dir))) {
		char *end;
		long pid = strtol(pe->d_name, &end, 10);
		if (*end || pid <= 0 || pid == self)
			continue;
		if (held_kinds(proc, pid, kind, ctx, want) != want)
			continue;
		char comm[64];
		comm_of(proc, pid, comm, sizeof comm);
		if (used < len) {
			int w = snprintf(who + used, len - used, "%s%s (pid %ld)", found ? ", " : "", comm, pid);
			used = w < 0 ? len : used + (size_t)w;
		}
		found++;
	}
	closedir(dir);
	return found;
}
