/* The app's side of watching: what it publishes for watchers (watch.h) and
 * the stream it reads when it watches another's game (watcher.h). */
#include "app/appstate.h"
#include "core/log.h"
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <unistd.h>

/* The screen and game shown now (what watchers see). */
const struct ui *shown_ui(const struct app *a)
{
	return demo_running(&a->demo) ? &a->demo.ui : &a->ui;
}

const struct game *shown_game(const struct app *a)
{
	return demo_running(&a->demo) ? a->demo.game : a->game;
}

/* Publishes the game on its socket (watch_pub_path) unless watch = no;
 * a game that cannot be published plays on (the reason is logged). */
void start_publishing(struct app *a)
{
	if (a->no_watch)
		return;
	char path[4096];
	int rc = watch_pub_path(path, sizeof path);
	if (rc) {
		if (rc == -ENOENT)
			log_info("not watchable: neither RUNTIME_DIRECTORY nor XDG_RUNTIME_DIR is set");
		else
			log_error("not watchable: the watch socket's path is too long for a Unix socket");
		return;
	}
	char host[128] = "", who[256];
	if (gethostname(host, sizeof host - 1) < 0)
		snprintf(host, sizeof host, "%s", "?");
	const struct passwd *pw = getpwuid(geteuid());
	if (pw)
		snprintf(who, sizeof who, "%.60s@%.60s%s", pw->pw_name, host, a->cfg->kiosk ? " (kiosk)" : "");
	else
		snprintf(who, sizeof who, "uid %u@%.60s%s", (unsigned)geteuid(), host, a->cfg->kiosk ? " (kiosk)" : "");
	watch_pub_open(&a->pub, path, who);
}

/* The watched game's stream is readable. */
void on_watched(struct app *a)
{
	char why[512];
	int rc = watcher_read(&a->watcher, why, sizeof why);
	if (rc == 1) {
		log_error("the game of %s has ended (stopped watching)", a->watcher.who[0] ? a->watcher.who : "?");
		a->quit = true;
	} else if (rc < 0) {
		log_error("%s", why);
		a->status = 1;
		a->quit = true;
	}
}
