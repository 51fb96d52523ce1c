/* histfile: an unnamed file, whole-length pwrite/pread with EINTR retried; ftruncate between games. */
#include "save/histfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "save/save.h"

struct histfile {
	int fd;
	char name[PATH_MAX + 32];
};

static int hf_write(void *ctx, uint64_t off, const void *data, size_t len)
{
	const struct histfile *f = ctx;
	return save_pwrite_all(f->fd, data, len, off);
}

static int hf_read(void *ctx, uint64_t off, void *data, size_t len)
{
	const struct histfile *f = ctx;
	return save_pread_all(f->fd, data, len, off); /* cut short: -ENODATA */
}

int histfile_open_fd(struct histfile **out, int fd, const char *name)
{
	struct histfile *f = malloc(sizeof *f);
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	f->fd = fd;
	snprintf(f->name, sizeof f->name, "%s", name);
	*out = f;
	return 0;
}

int histfile_open(struct histfile **out, const char *dir)
{
	char name[PATH_MAX + 32], tmp[PATH_MAX + 32];
	snprintf(name, sizeof name, "the history file in %s", dir);
	int rc = save_make_dir(dir); /* logged */
	if (rc)
		return rc;
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		/* a filesystem (or kernel) without unnamed files: a named one,
		 * removed at once (save_load removes one left by a crash) */
		if (snprintf(tmp, sizeof tmp, "%s/pirogue.hist.tmp-XXXXXX", dir) >= (int)sizeof tmp) {
			errno = ENAMETOOLONG;
		} else if ((fd = mkostemp(tmp, O_CLOEXEC)) >= 0) {
			unlink(tmp);
		}
	}
	rc = fd < 0 ? -errno : histfile_open_fd(out, fd, name); /* it owns fd, also on failure */
	if (rc)
		log_error("cannot create the history file in %s: %s (the game keeps its whole history in memory)", dir,
			  strerror(-rc));
	return rc;
}

int histfile_reset(struct histfile *f)
{
	if (ftruncate(f->fd, 0) == 0)
		return 0;
	int rc = -errno;
	log_error("cannot empty %s: %s", f->name, strerror(-rc));
	return rc;
}

void histfile_store(struct histfile *f, struct hist_store *out)
{
	*out = (struct hist_store){.write = hf_write, .read = hf_read, .ctx = f, .name = f->name};
}

void histfile_close(struct histfile *f)
{
	if (!f)
		return;
	close(f->fd);
	free(f);
}
