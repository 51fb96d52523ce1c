/* A file's appearance waited for: inotify on its folder (contracts in
 * pathwait.h). */
#include "app/pathwait.h"
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

int pathwait_open(struct pathwait *w, const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else if (snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path) >= (int)sizeof dir)
		return -ENAMETOOLONG;
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* a name made there (a file, a folder, a link) or moved there (a
	 * file written aside and renamed into place) */
	if (inotify_add_watch(fd, dir, IN_CREATE | IN_MOVED_TO | IN_ONLYDIR) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	w->fd = fd;
	w->path = path;
	return 0;
}

bool pathwait_there(const struct pathwait *w)
{
	struct stat st;
	return w->path && lstat(w->path, &st) == 0;
}

int pathwait_wait(struct pathwait *w, int sfd)
{
	/* looked at after the watch was made (pathwait_open): a name made
	 * since is either seen here or queued on the watch */
	while (!pathwait_there(w)) {
		struct pollfd p[2] = { { .fd = w->fd, .events = POLLIN }, { .fd = sfd, .events = POLLIN } };
		int rc = poll(p, sfd >= 0 ? 2 : 1, -1);
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (p[0].revents & (POLLERR | POLLHUP | POLLNVAL))
			return -EIO;
		if (p[0].revents & POLLIN) {
			/* what was made does not matter: the path is looked at */
			char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
			while (read(w->fd, buf, sizeof buf) > 0)
				;
		}
		if (sfd >= 0 && p[1].revents)
			return pathwait_there(w) ? 0 : 1;
	}
	return 0;
}

void pathwait_close(struct pathwait *w)
{
	if (!w || w->fd < 0)
		return;
	close(w->fd);
	w->fd = -1;
}
