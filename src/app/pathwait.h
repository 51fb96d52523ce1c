/* pathwait: a file's appearance waited for without CPU (inotify on its folder, opened before the first look so that nothing is missed), beside a signal fd that ends the wait: the card image's state partition, ready after the game has opened its display (--state-wait). */
#ifndef PIROGUE_APP_PATHWAIT_H
#define PIROGUE_APP_PATHWAIT_H
#include <stdbool.h>

/* The watch: fd is -1 until pathwait_open made it. Start it as
 * PATHWAIT_INIT. */
struct pathwait {
	int fd;           /* inotify on the folder of path */
	const char *path; /* borrowed: lives as long as the watch */
};
#define PATHWAIT_INIT { .fd = -1 }

/* Watches for path (a file, a link, a folder: any name) to appear in its
 * folder, which must exist. Returns 0, or a negative errno having logged
 * nothing (ENOENT: the folder is missing; the caller says what to do). */
int pathwait_open(struct pathwait *w, const char *path);

/* Whether path is there now (lstat: a link counts, wherever it leads). */
bool pathwait_there(const struct pathwait *w);

/* Waits until path is there (0, at once when it is already), or until sfd
 * (a signalfd; -1: none) is readable (1: the caller reads the signal and
 * decides whether to wait again). Sleeps in poll() meanwhile: no timeout,
 * no CPU. Returns 0, 1, or a negative errno (poll or the watch failed). */
int pathwait_wait(struct pathwait *w, int sfd);

/* Closes the watch; NULL or an unopened watch is fine. */
void pathwait_close(struct pathwait *w);

#endif
