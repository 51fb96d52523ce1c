/* The options screen's values (scr_options.c's rows): the settings in
 * force, from the configuration and then the screen, shown on their rows;
 * a row's new value put in force at once and written to the state
 * directory's settings file. */
#include "app/appstate.h"
#include "app/config.h"
#include "core/log.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Auto-pickup's classes as the setting spells them: "all", "none", or
 * the comma list in the order potions, scrolls, weapons, armour. */
static void pickup_text(unsigned bits, char *buf, size_t len)
{
	static const char *const names[] = { "potions", "scrolls", "weapons", "armour" };
	if ((bits & GAME_PICKUP_ALL) == GAME_PICKUP_ALL) {
		snprintf(buf, len, "all");
		return;
	}
	if (!(bits & GAME_PICKUP_ALL)) {
		snprintf(buf, len, "none");
		return;
	}
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; i < 4; i++)
		if (bits & 1u << i && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", names[i]);
}

/* The value of setting key as a settings file writes it, into buf (""
 * for a setting the app does not hold). */
static void option_text(const struct app *a, const char *key, char *buf, size_t len)
{
	buf[0] = 0;
	if (!strcmp(key, "attract"))
		snprintf(buf, len, "%d", a->idle.attract_s);
	else if (!strcmp(key, "blank") && a->idle.blank_s % 60 == 0)
		snprintf(buf, len, "%d", a->idle.blank_s / 60);
	else if (!strcmp(key, "blank"))
		snprintf(buf, len, "%ds", a->idle.blank_s);
	else if (!strcmp(key, "watch"))
		snprintf(buf, len, "%s", a->no_watch ? "no" : "yes");
	else if (!strcmp(key, "auto-pickup"))
		pickup_text(a->pickup, buf, len);
	else if (!strcmp(key, "text-size"))
		snprintf(buf, len, "%s", a->text_step > 0 ? "larger" : a->text_step < 0 ? "smaller" : "auto");
	else if (!strcmp(key, "palette"))
		snprintf(buf, len, "%s", a->ui.palette == UI_PALETTE_HIGH_CONTRAST ? "high-contrast" : "default");
}

/* The settings the screen holds, from the configuration (the defaults
 * where it gives none), and each row's value from them. */
void options_init(struct app *a)
{
	const struct app_config *cfg = a->cfg;
	a->idle.attract_s = cfg->has_attract ? cfg->attract : 60;
	a->idle.blank_s = cfg->has_blank ? cfg->blank : cfg->kiosk ? 600 : 0;
	a->no_watch = cfg->no_watch;
	a->pickup = cfg->has_auto_pickup ? cfg->auto_pickup : GAME_PICKUP_DEFAULT;
	a->ui.palette = cfg->palette;
	a->text_step = cfg->text_step;
	for (int i = 0; i < ui_option_count && i < UI_OPTIONS_MAX; i++) {
		if (!ui_options[i].key)
			continue;
		char v[48];
		option_text(a, ui_options[i].key, v, sizeof v);
		a->ui.opt_val[i] = ui_option_value(i, v);
		/* shown whole when it fits, else cut with its end marked */
		size_t room = sizeof a->ui.opt_other[i];
		if (snprintf(a->ui.opt_other[i], room, "%s", v) >= (int)room)
			memcpy(a->ui.opt_other[i] + room - 4, "...", 4);
	}
}

/* a->text_step in force on the display: the look chosen again, the consoles
 * sized to it and drawn whole. Returns true, or false with the reason on
 * the options screen's notice line (a display that makes no automatic
 * choice: the terminal, a --font). */
static bool set_text_step(struct app *a)
{
	int rc = a->ops->set_text_step ? a->ops->set_text_step(a->disp, a->text_step) : -ENOTSUP;
	if (rc == -ENOTSUP) {
		snprintf(a->ui.notice, sizeof a->ui.notice, "%s",
			 a->disp->look.surf_w ? "The font given (--font) keeps its size." : "The terminal sets its own text size.");
		return false;
	}
	if (rc || size_consoles(a)) {
		snprintf(a->ui.notice, sizeof a->ui.notice, "That text size does not fit this screen.");
		return false;
	}
	ui_drawn_forget(a->drawn);
	log_layout(a);
	return true;
}

/* Row u->opt_sel's new value: in force at once, then written to the state
 * directory's settings file (its failure, or no state directory, said on
 * the screen's notice line). */
void options_changed(struct app *a)
{
	int row = a->ui.opt_sel;
	if (row < 0 || row >= ui_option_count || !ui_options[row].key || a->ui.opt_val[row] < 0)
		return;
	const struct ui_option *o = &ui_options[row];
	const char *v = o->values[a->ui.opt_val[row]];
	if (!strcmp(o->key, "attract"))
		a->idle.attract_s = atoi(v);
	else if (!strcmp(o->key, "blank"))
		a->idle.blank_s = atoi(v) * 60;
	else if (!strcmp(o->key, "watch")) {
		a->no_watch = !strcmp(v, "no");
		if (a->no_watch && a->pub) {
			watch_pub_close(a->pub); /* its watchers are told the game is gone */
			a->pub = NULL;
		} else if (!a->no_watch && !a->pub && a->live)
			start_publishing(a);
	} else if (!strcmp(o->key, "auto-pickup")) {
		unsigned bits;
		if (!game_pickup_parse(v, &bits)) /* the row's values all parse */
			a->pickup = bits;
	} else if (!strcmp(o->key, "palette")) {
		a->ui.palette = !strcmp(v, "high-contrast") ? UI_PALETTE_HIGH_CONTRAST : UI_PALETTE_DEFAULT;
		ui_drawn_forget(a->drawn); /* every cell in the new colours */
	} else if (!strcmp(o->key, "text-size")) {
		int was = a->text_step;
		a->text_step = !strcmp(v, "larger") ? 1 : !strcmp(v, "smaller") ? -1 : 0;
		if (!set_text_step(a)) { /* said on the screen; neither in force nor kept */
			a->text_step = was;
			char t[16];
			option_text(a, o->key, t, sizeof t);
			a->ui.opt_val[row] = ui_option_value(row, t);
			return;
		}
	}
	if ((a->idle.attract_s > 0 || a->idle.blank_s > 0) && a->wake.fd < 0 && !a->cfg->keys) {
		int rc = wake_open(&a->wake);
		if (rc)
			log_error("cannot create a timer: %s (no attract mode or screen blanking)", strerror(-rc));
	}
	if (!a->session.saving) {
		snprintf(a->ui.notice, sizeof a->ui.notice, "For this run only: no state directory to keep it in.");
		return;
	}
	int rc = config_state_set(a->session.state_dir, o->key, v);
	if (rc)
		snprintf(a->ui.notice, sizeof a->ui.notice, "Not saved: %s (%.60s/%s).", strerror(-rc),
			 a->session.state_dir, CONFIG_STATE_FILE);
}
