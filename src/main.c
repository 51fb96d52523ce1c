/* main: wiring — parse the command line into an app_config and run the app. */
#include "app/app.h"
#include "app/config.h"
#include "core/log.h"
#include "game/mapgen.h"
#include "platform/term.h"
#include "platform/vt.h"
#include "save/daily.h"
#include "save/save.h"
#include "ui/ui.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define EXIT_USAGE 2

static const char usage_text[] =
	"Usage: pirogue [OPTION]...\n"
	"A roguelike for the bare Linux console (DRM/KMS, evdev), a terminal, or headless.\n"
	"\n"
	"Game:\n"
	"  --seed N             start a new game at once with seed N (no menu)\n"
	"  --mapgen KIND        dungeon generator: classic (default), overlap or cave\n"
	"  --map-size WxH       floor size of new games, 20x15 to 200x200 (default 80x43)\n"
	"  --record FILE        write the seed and every command to FILE\n"
	"  --replay FILE        play FILE back headless; exit 0 if it replays exactly,\n"
	"                       1 naming the first turn where it diverged\n"
	"  --view FILE          watch the recording FILE (a morgue's .rec too) at the game's\n"
	"                       pace: pause (Space, A), speed 1x-64x (up/down), jump\n"
	"                       back/forward (left/right), step (.), stop (q, Escape, B)\n"
	"  --state-dir DIR      where the save, morgue files and high scores live (default:\n"
	"                       $STATE_DIRECTORY, else $XDG_STATE_HOME/pirogue, else\n"
	"                       ~/.local/state/pirogue)\n"
	"  --state-wait FILE    the state directory is not ready until FILE exists (the card\n"
	"                       image's state partition, mounted after the game starts):\n"
	"                       the display opens first, then the game waits for FILE\n"
	"                       before it reads the state directory's settings and saves\n"
	"                       (the PIROGUE_STATE_WAIT variable does the same)\n"
	"  --check-save [FILE]  load the save (default: the state directory's) without\n"
	"                       playing it; print 'ok turn T depth D checksum HEX' or why\n"
	"                       it is refused; exit 0 or 1\n"
	"  --daily              play today's daily game at once (UTC; one attempt a day)\n"
	"  --daily-seed [DATE]  print the seed of the daily game of DATE (YYYY-MM-DD,\n"
	"                       default today, UTC) and exit\n"
	"  --auto-pickup LIST   what auto-explore walks to and picks up: a comma list of\n"
	"                       potions, scrolls, weapons, armour, or all or none\n"
	"                       (default potions,scrolls)\n"
	"  --text-size SIZE     auto (the automatic choice), larger or smaller (one step\n"
	"                       of its fonts and scales; pixel displays)\n"
	"  --palette NAME       the screens' colours: default, or high-contrast (white\n"
	"                       text on black, saturated monsters and items)\n"
	"  --tiles on|off|FILE  draw the map in pictures: on (the shipped tiles, from\n"
	"                       Dungeon Crawl Stone Soup's CC0 art), off (glyphs, the\n"
	"                       default) or FILE, your own sheet (tiles/README.md);\n"
	"                       pixel displays with the automatic font choice\n"
	"  --keys FILE          read keys from FILE instead of a device, one key a line\n"
	"                       ('#' starts a comment): a character or a name: up down\n"
	"                       left right home end pgup pgdn insert delete enter escape\n"
	"                       space tab backspace kp0..kp9 kpenter f1..f12 modifier;\n"
	"                       gamepad buttons: pad_a pad_b pad_x pad_y pad_l pad_r\n"
	"                       pad_l2 pad_r2 pad_start pad_select pad_thumbl pad_thumbr\n"
	"                       pad_up pad_down pad_left pad_right pad_upleft pad_upright\n"
	"                       pad_downleft pad_downright; exits after drawing the frame\n"
	"                       after the last key\n"
	"Watching (README \"Watch a kiosk over SSH\"):\n"
	"  --watch [SOCKET]     show the game another pirogue plays, live, here; q leaves,\n"
	"                       nothing typed reaches the game (default SOCKET: your own\n"
	"                       game's $XDG_RUNTIME_DIR/pirogue/watch.sock, else the\n"
	"                       kiosk's /run/pirogue/watch.sock)\n"
	"  --no-watch           do not publish this game for watchers (setting: watch = no)\n"
	"Display:\n"
	"  --backend NAME       headless, term, drm or fbdev (default: drm if a card can\n"
	"                       be mastered, else fbdev, else term on a tty, else none:\n"
	"                       one line why and exit 1; headless only when asked for)\n"
	"  --font FILE          PNG CP437 tileset or PSF1/PSF2 console font (.psf, .psf.gz)\n"
	"  --font-layout L      how a PNG tileset is laid out: auto (by its shape), cp437\n"
	"                       (16x16 tiles) or tcod (libtcod's 32x8 *_tc.png)\n"
	"  --scale N            integer pixel scale 1-8 (default: the largest that fits 80x50 cells)\n"
	"  --rotate DEG         0, 90, 180 or 270 (clockwise, for portrait panels)\n"
	"  --size WxH           headless surface size in pixels (default 640x400)\n"
	"  --screenshot FILE    write the last frame as a PNG (headless backend)\n"
	"  --card PATH          DRM device, e.g. /dev/dri/card1\n"
	"  --connector NAME     DRM connector, e.g. HDMI-A-1\n"
	"  --mode WxH[@HZ]      DRM display mode (default: the connector's preferred)\n"
	"  --fb PATH            framebuffer device for the fbdev backend (default /dev/fb0)\n"
	"  --vt N               run on virtual terminal N\n"
	"  --list-displays      list DRM cards, connectors and modes, and the backend choice\n"
	"  --reset-vt N         repair VT N left in graphics mode by a killed pirogue, then exit;\n"
	"                       refused while a live program draws there, unless --force\n"
	"  --reset-term         repair this terminal left raw by a killed pirogue (type it\n"
	"                       blind, end it with Ctrl+J), then exit\n"
	"Input:\n"
	"  --gamepad-db FILE    SDL GameControllerDB mappings (over the shipped ones)\n"
	"  --bind key.ACTION=KEYS, --bind pad.ACTION=BUTTONS\n"
	"                       bind keys or gamepad buttons to an action, as the settings\n"
	"                       file's key.ACTION / pad.ACTION lines do (? lists them all)\n"
	"  --list-inputs        list input devices and how each is classified\n"
	"Settings files:\n"
	"  --config FILE        read settings from FILE instead of /etc/pirogue.conf and\n"
	"                       $XDG_CONFIG_HOME/pirogue/pirogue.conf (--config /dev/null: none;\n"
	"                       the PIROGUE_CONFIG variable does the same as --config)\n"
	"                       Lines are 'setting = value' with the names of these options:\n"
	"                       backend font font-layout scale rotate size card connector mode fb vt\n"
	"                       gamepad-db mapgen map-size state-dir verbose kiosk (yes/no) attract\n"
	"                       blank auto-pickup watch (yes/no) palette\n"
	"                       text-size tiles.\n"
	"                       Options given here win.\n"
	"                       Key bindings: key.ACTION = KEYS, pad.ACTION = BUTTONS\n"
	"                       (README \"Key bindings\"; ? in the game lists them all)\n"
	"Kiosk:\n"
	"  --kiosk              the game is the machine's console (pirogue.service sets it):\n"
	"                       waits for a display instead of exiting, no VT switching,\n"
	"                       Quit asks and then restarts the game\n"
	"  --attract SECONDS    on the title screen, after SECONDS without input, a demo\n"
	"                       plays until any input (default 60; 0: never)\n"
	"  --blank MINUTES      after MINUTES without input the display is switched off\n"
	"                       until any input (default 10 with --kiosk, else 0: never;\n"
	"                       Ns: N seconds)\n"
	"Other:\n"
	"  --verbose            log what happens (one line per frame presented)\n"
	"  --help               show this help and exit\n"
	"  --version            show the version and exit\n";

enum {
	OPT_HELP = 256, OPT_VERSION, OPT_BACKEND, OPT_FONT, OPT_SCALE, OPT_ROTATE, OPT_SIZE,
	OPT_SCREENSHOT, OPT_KEYS, OPT_SEED, OPT_MAPGEN, OPT_RECORD, OPT_REPLAY, OPT_CARD,
	OPT_CONNECTOR, OPT_MODE, OPT_FB, OPT_VT, OPT_LIST_DISPLAYS, OPT_LIST_INPUTS,
	OPT_GAMEPAD_DB, OPT_VERBOSE, OPT_RESET_VT, OPT_CONFIG, OPT_STATE_DIR, OPT_CHECK_SAVE, OPT_RESET_TERM,
	OPT_FORCE, OPT_KIOSK, OPT_BIND, OPT_FONT_LAYOUT, OPT_ATTRACT, OPT_BLANK, OPT_MAP_SIZE,
	OPT_AUTO_PICKUP, OPT_DAILY_SEED, OPT_DAILY, OPT_VIEW,
	OPT_WATCH, OPT_NO_WATCH, OPT_PALETTE, OPT_TEXT_SIZE, OPT_TILES, OPT_STATE_WAIT,
};

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "font", required_argument, NULL, OPT_FONT },
	{ "font-layout", required_argument, NULL, OPT_FONT_LAYOUT },
	{ "scale", required_argument, NULL, OPT_SCALE },
	{ "rotate", required_argument, NULL, OPT_ROTATE },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "screenshot", required_argument, NULL, OPT_SCREENSHOT },
	{ "keys", required_argument, NULL, OPT_KEYS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "mapgen", required_argument, NULL, OPT_MAPGEN },
	{ "map-size", required_argument, NULL, OPT_MAP_SIZE },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "card", required_argument, NULL, OPT_CARD },
	{ "connector", required_argument, NULL, OPT_CONNECTOR },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "fb", required_argument, NULL, OPT_FB },
	{ "vt", required_argument, NULL, OPT_VT },
	{ "list-displays", no_argument, NULL, OPT_LIST_DISPLAYS },
	{ "list-inputs", no_argument, NULL, OPT_LIST_INPUTS },
	{ "gamepad-db", required_argument, NULL, OPT_GAMEPAD_DB },
	{ "bind", required_argument, NULL, OPT_BIND },
	{ "verbose", no_argument, NULL, OPT_VERBOSE },
	{ "kiosk", no_argument, NULL, OPT_KIOSK },
	{ "attract", required_argument, NULL, OPT_ATTRACT },
	{ "blank", required_argument, NULL, OPT_BLANK },
	{ "auto-pickup", required_argument, NULL, OPT_AUTO_PICKUP },
	{ "daily-seed", no_argument, NULL, OPT_DAILY_SEED },
	{ "daily", no_argument, NULL, OPT_DAILY },
	{ "view", required_argument, NULL, OPT_VIEW },
	{ "reset-vt", required_argument, NULL, OPT_RESET_VT },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "state-dir", required_argument, NULL, OPT_STATE_DIR },
	{ "state-wait", required_argument, NULL, OPT_STATE_WAIT },
	{ "check-save", no_argument, NULL, OPT_CHECK_SAVE },
	{ "reset-term", no_argument, NULL, OPT_RESET_TERM },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "watch", no_argument, NULL, OPT_WATCH },
	{ "no-watch", no_argument, NULL, OPT_NO_WATCH },
	{ "palette", required_argument, NULL, OPT_PALETTE },
	{ "text-size", required_argument, NULL, OPT_TEXT_SIZE },
	{ "tiles", required_argument, NULL, OPT_TILES },
	{ NULL, 0, NULL, 0 },
};

/* What the options set, and where the current value comes from (for
 * messages): NULL for the command line, else "FILE:LINE". */
struct opts {
	struct app_config cfg;
	int list_displays, list_inputs, reset_vt, check_save, reset_term, force, daily_seed;
	const char *check_file, *daily_date; /* --check-save [FILE], --daily-seed [DATE] */
	const char *where;
	bool in_state; /* reading the state directory's settings file */
	char font_from[300]; /* where the font setting was read (cfg.font_from) */
	char tiles_from[300]; /* where the tiles setting was read (cfg.tiles_from) */
	struct bindings binds; /* the defaults, then key.ACTION / pad.ACTION settings */
	char *owned[64]; /* values copied out of settings files */
	int nowned;
};

static int bad_value(const struct opts *o, const char *opt, const char *val, const char *want)
{
	if (o->where)
		log_error("%s: invalid value '%s' for %s: expected %s", o->where, val, opt, want);
	else
		log_error("invalid value '%s' for --%s: expected %s (see --help)", val, opt, want);
	return EXIT_USAGE;
}

/* Parses a decimal integer in [lo, hi] filling *out; 0 or -EINVAL. */
static int parse_int(const char *s, long lo, long hi, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* "WxH" with both in [1, max]; "WxH@HZ" when hz is non-NULL (HZ optional). */
static int parse_size(const char *s, int *w, int *h, int *hz)
{
	char buf[64];
	if (strlen(s) >= sizeof buf)
		return -EINVAL;
	strcpy(buf, s);
	char *at = strchr(buf, '@');
	if (at) {
		if (!hz || parse_int(at + 1, 1, 1000, hz))
			return -EINVAL;
		*at = 0;
	}
	char *x = strchr(buf, 'x');
	if (!x)
		return -EINVAL;
	*x = 0;
	if (parse_int(buf, 1, 16384, w) || parse_int(x + 1, 1, 16384, h))
		return -EINVAL;
	return 0;
}


/* Applies one option (from the command line or a settings file). Returns 0,
 * -1 when the program should stop with status 0 (--help, --version), or an
 * exit status (2) after a one-line message. */
static int set_option(struct opts *o, int c, const char *val)
{
	/* an empty file or device (a settings line "font =" left blank) is a
	 * mistake, never "none": said here, not as a file named '' later */
	static const struct {
		int c;
		const char *name;
	} paths[] = {
		{ OPT_FONT, "font" }, { OPT_CARD, "card" }, { OPT_FB, "fb" }, { OPT_GAMEPAD_DB, "gamepad-db" },
		{ OPT_KEYS, "keys" }, { OPT_RECORD, "record" }, { OPT_REPLAY, "replay" }, { OPT_VIEW, "view" },
		{ OPT_SCREENSHOT, "screenshot" }, { OPT_CONNECTOR, "connector" }, { OPT_STATE_WAIT, "state-wait" },
	};
	if (!val)
		val = ""; /* an option that takes no value (getopt gives NULL) */
	for (size_t i = 0; !val[0] && i < sizeof paths / sizeof paths[0]; i++)
		if (paths[i].c == c)
			return bad_value(o, paths[i].name, val,
					 c == OPT_CONNECTOR ? "a connector name, e.g. HDMI-A-1" : "a file name");
	switch (c) {
	case OPT_HELP:
		fputs(usage_text, stdout);
		return -1;
	case OPT_VERSION:
		printf("pirogue %s\n"
		       "Copyright (c) 2026 the pirogue authors. MIT licence: LICENSE in the source tree,\n"
		       "/usr/share/doc/pirogue/copyright when installed, with the fonts' and the\n"
		       "gamepad database's own licences.\n",
		       PIROGUE_VERSION);
		return -1;
	case OPT_BACKEND:
		if (strcmp(val, "headless") && strcmp(val, "term") && strcmp(val, "drm") &&
		    strcmp(val, "fbdev"))
			return bad_value(o, "backend", val, "headless, term, drm or fbdev");
		o->cfg.backend = val;
		break;
	case OPT_FONT:
		o->cfg.font = val;
		o->cfg.font_from = NULL; /* the command line (read after the settings files) */
		if (o->where) {
			snprintf(o->font_from, sizeof o->font_from, "%s", o->where);
			o->cfg.font_from = o->font_from;
		}
		break;
	case OPT_FONT_LAYOUT:
		if (!strcmp(val, "auto"))
			o->cfg.font_layout = FONT_LAYOUT_AUTO;
		else if (!strcmp(val, "cp437"))
			o->cfg.font_layout = FONT_LAYOUT_CP437;
		else if (!strcmp(val, "tcod"))
			o->cfg.font_layout = FONT_LAYOUT_TCOD;
		else
			return bad_value(o, "font-layout", val, "auto, cp437 or tcod");
		break;
	case OPT_SCALE:
		if (parse_int(val, 1, 8, &o->cfg.scale))
			return bad_value(o, "scale", val, "an integer from 1 to 8");
		break;
	case OPT_ROTATE:
		if (parse_int(val, 0, 270, &o->cfg.rotation) || o->cfg.rotation % 90)
			return bad_value(o, "rotate", val, "0, 90, 180 or 270");
		break;
	case OPT_SIZE:
		if (parse_size(val, &o->cfg.width, &o->cfg.height, NULL))
			return bad_value(o, "size", val, "WIDTHxHEIGHT in pixels, e.g. 640x400");
		break;
	case OPT_SCREENSHOT:
		o->cfg.screenshot = val;
		break;
	case OPT_KEYS:
		o->cfg.keys = val;
		break;
	case OPT_SEED: {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(val, &end, 10);
		if (errno || end == val || *end || val[0] == '-')
			return bad_value(o, "seed", val, "a non-negative integer");
		o->cfg.seed = (uint64_t)v;
		o->cfg.has_seed = true;
		break;
	}
	case OPT_MAPGEN: {
		enum mapgen_kind kind;
		if (mapgen_parse(val, &kind))
			return bad_value(o, "mapgen", val, "classic, overlap or cave");
		o->cfg.mapgen = val;
		break;
	}
	case OPT_MAP_SIZE: {
		int mw, mh;
		if (map_size_parse(val, &mw, &mh))
			return bad_value(o, "map-size", val, "WxH from 20x15 to 200x200, e.g. 120x60");
		o->cfg.map_w = mw;
		o->cfg.map_h = mh;
		break;
	}
	case OPT_RECORD:
		o->cfg.record = val;
		break;
	case OPT_REPLAY:
		o->cfg.replay = val;
		break;
	case OPT_VIEW:
		o->cfg.view = val;
		break;
	case OPT_CARD:
		o->cfg.card = val;
		break;
	case OPT_CONNECTOR:
		o->cfg.connector = val;
		break;
	case OPT_MODE:
		if (parse_size(val, &o->cfg.mode_w, &o->cfg.mode_h, &o->cfg.mode_hz))
			return bad_value(o, "mode", val, "WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1280x720@60");
		break;
	case OPT_FB:
		o->cfg.fb = val;
		break;
	case OPT_VT:
		if (parse_int(val, 1, 63, &o->cfg.vt))
			return bad_value(o, "vt", val, "a virtual terminal number from 1 to 63");
		break;
	case OPT_LIST_DISPLAYS:
		o->list_displays = 1;
		break;
	case OPT_LIST_INPUTS:
		o->list_inputs = 1;
		break;
	case OPT_GAMEPAD_DB:
		o->cfg.gamepad_db = val;
		break;
	case OPT_BIND: {
		/* the command-line twin of a key.ACTION / pad.ACTION setting */
		char setting[64], why[512];
		size_t n = strcspn(val, "=");
		if (!val[n] || n >= sizeof setting)
			return bad_value(o, "bind", val, "key.ACTION=KEYS or pad.ACTION=BUTTONS, e.g. key.wait=z");
		memcpy(setting, val, n);
		setting[n] = 0;
		int rc = config_binding(&o->binds, setting, val + n + 1, why, sizeof why);
		if (rc == -ENOENT)
			return bad_value(o, "bind", val, "key.ACTION=KEYS or pad.ACTION=BUTTONS, e.g. key.wait=z");
		if (rc) {
			log_error("--bind %s: %s", val, why);
			return EXIT_USAGE;
		}
		o->cfg.bindings = &o->binds;
		break;
	}
	case OPT_VERBOSE:
		o->cfg.verbose = true;
		break;
	case OPT_KIOSK:
		o->cfg.kiosk = true;
		break;
	case OPT_ATTRACT:
		if (parse_int(val, 0, 86400, &o->cfg.attract))
			return bad_value(o, "attract", val, "seconds from 0 (never) to 86400");
		o->cfg.has_attract = true;
		break;
	case OPT_BLANK: {
		/* minutes, or seconds with an s ("30s": tests, impatient shops) */
		char num[16];
		size_t n = strlen(val);
		bool secs = n > 1 && val[n - 1] == 's';
		if (n >= sizeof num || !snprintf(num, sizeof num, "%.*s", (int)(n - secs), val) ||
		    parse_int(num, 0, secs ? 86400 : 1440, &o->cfg.blank))
			return bad_value(o, "blank", val, "minutes from 0 (never) to 1440, or seconds as in 30s");
		if (!secs)
			o->cfg.blank *= 60;
		o->cfg.has_blank = true;
		break;
	}
	case OPT_AUTO_PICKUP:
		if (game_pickup_parse(val, &o->cfg.auto_pickup))
			return bad_value(o, "auto-pickup", val,
					 "a comma list of potions, scrolls, weapons, armour, or all or none");
		o->cfg.has_auto_pickup = true;
		break;
	case OPT_RESET_VT:
		if (parse_int(val, 1, 63, &o->reset_vt))
			return bad_value(o, "reset-vt", val, "a virtual terminal number from 1 to 63");
		break;
	case OPT_FORCE:
		o->force = 1;
		break;
	case OPT_RESET_TERM:
		o->reset_term = 1;
		break;
	case OPT_CONFIG:
	case OPT_STATE_WAIT:
		break; /* handled before everything else (read_settings) */
	case OPT_STATE_DIR:
		if (!val[0])
			return bad_value(o, "state-dir", val, "a directory");
		o->cfg.state_dir = val;
		break;
	case OPT_CHECK_SAVE:
		o->check_save = 1;
		break;
	case OPT_DAILY_SEED:
		o->daily_seed = 1;
		break;
	case OPT_DAILY:
		o->cfg.daily = true;
		break;
	case OPT_WATCH:
		o->cfg.watch = true;
		break;
	case OPT_NO_WATCH:
		o->cfg.no_watch = true;
		break;
	case OPT_PALETTE:
		if (!strcmp(val, "default"))
			o->cfg.palette = UI_PALETTE_DEFAULT;
		else if (!strcmp(val, "high-contrast"))
			o->cfg.palette = UI_PALETTE_HIGH_CONTRAST;
		else
			return bad_value(o, "palette", val, "default or high-contrast");
		break;
	case OPT_TEXT_SIZE:
		if (!strcmp(val, "auto"))
			o->cfg.text_step = 0;
		else if (!strcmp(val, "larger"))
			o->cfg.text_step = 1;
		else if (!strcmp(val, "smaller"))
			o->cfg.text_step = -1;
		else
			return bad_value(o, "text-size", val, "auto, larger or smaller");
		break;
	case OPT_TILES:
		/* on, off, or a tile sheet (checked when the display opens) */
		if (!val[0])
			return bad_value(o, "tiles", val, "on, off or a tile sheet's file name");
		o->cfg.tiles = val;
		o->cfg.tiles_from = NULL;
		if (o->where) {
			snprintf(o->tiles_from, sizeof o->tiles_from, "%s", o->where);
			o->cfg.tiles_from = o->tiles_from;
		}
		break;
	default:
		return EXIT_USAGE;
	}
	return 0;
}

/* Settings that make sense in a file: the long options that configure. */
static const int config_settings[] = {
	OPT_BACKEND, OPT_FONT, OPT_FONT_LAYOUT, OPT_SCALE, OPT_ROTATE, OPT_SIZE, OPT_CARD, OPT_CONNECTOR, OPT_MODE,
	OPT_FB, OPT_VT, OPT_GAMEPAD_DB, OPT_MAPGEN, OPT_MAP_SIZE, OPT_VERBOSE, OPT_STATE_DIR, OPT_KIOSK, OPT_ATTRACT,
	OPT_BLANK, OPT_AUTO_PICKUP, OPT_WATCH, OPT_PALETTE, OPT_TEXT_SIZE, OPT_TILES,
};

static int config_setting(void *ctx, const char *file, int line, const char *key, const char *value)
{
	struct opts *o = ctx;
	char where[300];
	snprintf(where, sizeof where, "%s:%d", file, line);
	char why[512];
	int brc = config_binding(&o->binds, key, value, why, sizeof why);
	if (brc != -ENOENT) {
		if (brc) {
			log_error("%s: %s", where, why);
			return EXIT_USAGE;
		}
		o->cfg.bindings = &o->binds;
		return 0;
	}
	int id = 0;
	for (int i = 0; long_opts[i].name; i++)
		if (!strcmp(long_opts[i].name, key))
			id = long_opts[i].val;
	int allowed = 0;
	for (size_t i = 0; i < sizeof config_settings / sizeof config_settings[0]; i++)
		allowed |= config_settings[i] == id;
	if (!allowed) {
		log_error("%s: unknown setting '%s' (settings: backend font font-layout scale rotate size card connector mode fb "
			  "vt gamepad-db mapgen map-size state-dir verbose kiosk attract blank auto-pickup watch palette text-size tiles, key.ACTION, pad.ACTION)", where, key);
		return EXIT_USAGE;
	}
	if (id == OPT_STATE_DIR && o->in_state) {
		log_error("%s: state-dir cannot be set in the state directory's own settings file (set it in "
			  "/etc/pirogue.conf, your settings file or with --state-dir)", where);
		return EXIT_USAGE;
	}
	if (id == OPT_VERBOSE || id == OPT_KIOSK || id == OPT_WATCH) {
		/* watch = yes/no: whether this game is published (--no-watch) */
		bool yes, *flag = id == OPT_VERBOSE ? &o->cfg.verbose : id == OPT_KIOSK ? &o->cfg.kiosk : &o->cfg.no_watch;
		bool invert = id == OPT_WATCH;
		if (!strcmp(value, "yes") || !strcmp(value, "true") || !strcmp(value, "1"))
			yes = true;
		else if (!strcmp(value, "no") || !strcmp(value, "false") || !strcmp(value, "0"))
			yes = false;
		else {
			log_error("%s: invalid value '%s' for %s: expected yes or no", where, value, key);
			return EXIT_USAGE;
		}
		*flag = invert ? !yes : yes;
		return 0;
	}
	if (o->nowned == (int)(sizeof o->owned / sizeof o->owned[0])) {
		log_error("%s: too many settings", where);
		return EXIT_USAGE;
	}
	char *copy = strdup(value);
	if (!copy)
		return 1;
	o->owned[o->nowned++] = copy;
	o->where = where;
	int rc = set_option(o, id, copy);
	o->where = NULL;
	return rc;
}

/* Reads the settings files (or --config FILE); the state directory's own
 * only when state_file, or when no --state-wait FILE (PIROGUE_STATE_WAIT)
 * is still to appear: then o->cfg.state_wait is FILE, and the app reads
 * it later (restate). Returns 0 or an exit status. */
static int read_settings(struct opts *o, int argc, char **argv, bool state_file)
{
	const char *only = getenv("PIROGUE_CONFIG"), *state_opt = NULL, *wait = getenv("PIROGUE_STATE_WAIT");
	bool scripted = false; /* --keys or headless: a state directory only when named (session_open) */
	if (only && !only[0])
		only = NULL;
	if (wait && !wait[0])
		wait = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			only = argv[i + 1];
		else if (!strncmp(argv[i], "--config=", 9))
			only = argv[i] + 9;
		else if (!strcmp(argv[i], "--state-wait") && i + 1 < argc)
			wait = argv[i + 1];
		else if (!strncmp(argv[i], "--state-wait=", 13))
			wait = argv[i] + 13;
		else if (!strcmp(argv[i], "--keys") || !strncmp(argv[i], "--keys=", 7) ||
			 ((!strcmp(argv[i], "--backend") && i + 1 < argc && !strcmp(argv[i + 1], "headless")) ||
			  !strcmp(argv[i], "--backend=headless")))
			scripted = true;
		else if (!strcmp(argv[i], "--state-dir") && i + 1 < argc)
			state_opt = argv[i + 1];
		else if (!strncmp(argv[i], "--state-dir=", 12))
			state_opt = argv[i] + 12;
	}
	if (only) {
		int rc = config_read(only, config_setting, o);
		if (rc == -ENOENT) {
			log_error("settings file %s does not exist (give --config an existing file)", only);
			return EXIT_USAGE;
		}
		if (rc)
			return EXIT_USAGE;
	} else {
		char user[512];
		const char *files[2] = { CONFIG_SYSTEM_PATH, config_user_path(user, sizeof user) };
		for (int i = 0; i < 2; i++) {
			if (!files[i])
				continue;
			int rc = config_read(files[i], config_setting, o);
			if (rc && rc != -ENOENT)
				return EXIT_USAGE;
		}
	}
	/* the options screen's file, in the state directory (README "Settings
	 * files"): after the others, before the command line. Without any
	 * state directory the session says so later, once; a scripted run
	 * reads one only when it is named, as the session uses one. */
	struct stat sb;
	if (wait && wait[0] && !state_file && lstat(wait, &sb)) {
		o->cfg.state_wait = wait; /* not there yet: read once it is (app_run) */
		return 0;
	}
	if (!state_opt)
		state_opt = o->cfg.state_dir;
	if (o->cfg.backend && !strcmp(o->cfg.backend, "headless"))
		scripted = true;
	if (!state_opt && scripted)
		return 0;
	if (!state_opt && !getenv("STATE_DIRECTORY") && !getenv("XDG_STATE_HOME") && !getenv("HOME"))
		return 0;
	char dir[4096], path[4200];
	if (save_state_dir(state_opt, dir, sizeof dir))
		return 0;
	snprintf(path, sizeof path, "%s/%s", dir, CONFIG_STATE_FILE);
	if (stat(path, &sb))
		return 0; /* none yet, or a directory that is none (the session says so) */
	o->in_state = true;
	int rc = config_read(path, config_setting, o);
	o->in_state = false;
	return rc && rc != -ENOENT ? EXIT_USAGE : 0;
}

/* --reset-term: the controlling terminal, else stdin, made usable again. */
static int reset_term(void)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	int rc = term_reset(fd >= 0 ? fd : STDIN_FILENO);
	if (fd >= 0)
		close(fd);
	if (rc) {
		log_error("cannot reset the terminal: %s (run --reset-term in the terminal to repair)",
			  rc == -ENOTTY ? "not run in a terminal" : strerror(-rc));
		return 1;
	}
	printf("pirogue: terminal reset: normal screen, cursor shown, mouse reporting off, echo and line editing on\n");
	return 0;
}

/* The whole configuration into o (its bindings' defaults, the settings
 * files, the command line, the variables tests set): state_file as for
 * read_settings. Returns 0, -1 when the program should stop with status 0
 * (--help, --version), or an exit status after one line. */
static int configure(struct opts *o, int argc, char **argv, bool state_file)
{
	bind_defaults(&o->binds);
	int status = read_settings(o, argc, argv, state_file);
	if (status)
		return status;
	opterr = 0;
	optind = 0; /* getopt from the start (the second time: restate) */
	for (;;) {
		int c = getopt_long(argc, argv, ":", long_opts, NULL);
		if (c == -1)
			break;
		const char *name = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
		if (c == ':') {
			log_error("option '%s' needs a value (see --help)", name);
			return EXIT_USAGE;
		}
		if (c == '?') {
			log_error("unknown option '%s' (see --help)", name);
			return EXIT_USAGE;
		}
		int rc = set_option(o, c, optarg);
		if (rc)
			return rc;
	}
	if (o->check_save && optind < argc)
		o->check_file = argv[optind++]; /* --check-save [FILE] */
	else if (o->cfg.watch && optind < argc)
		o->cfg.watch_socket = argv[optind++]; /* --watch [SOCKET] */
	if (o->daily_seed && optind < argc)
		o->daily_date = argv[optind++]; /* --daily-seed [DATE] */
	/* the clock: PIROGUE_NOW (seconds since 1970) stands for the system's,
	 * so tests choose the day */
	const char *now = getenv("PIROGUE_NOW");
	if (now) {
		char *end;
		errno = 0;
		long long v = strtoll(now, &end, 10);
		if (errno || end == now || *end || v < 0) {
			log_error("invalid value '%s' for PIROGUE_NOW: expected seconds since 1970", now);
			return EXIT_USAGE;
		}
		o->cfg.has_now = true;
		o->cfg.now = (int64_t)v;
	}
	/* and PIROGUE_IDLE_CLOCK (a file of milliseconds) moves the idle
	 * timers' clock ahead when a test rewrites it (wake_clock_open) */
	o->cfg.idle_clock = getenv("PIROGUE_IDLE_CLOCK");
	if (optind < argc) {
		log_error("unexpected argument '%s' (see --help)", argv[optind]);
		return EXIT_USAGE;
	}
	return 0;
}

/* The command line, kept for restate, and restate's configuration. */
static int main_argc;
static char **main_argv;
static struct opts late; /* lives to the program's end: the app keeps its strings */

/* --state-wait's FILE appeared: the configuration read again, now with
 * the state directory's settings file (app_config's restate). */
static const struct app_config *restate(int *status)
{
	int rc = configure(&late, main_argc, main_argv, true);
	if (rc) {
		*status = rc < 0 ? 0 : rc;
		return NULL;
	}
	log_set_verbose(late.cfg.verbose);
	return &late.cfg;
}

int main(int argc, char **argv)
{
	static struct opts o; /* main's own state; values point into argv or o.owned */
	main_argc = argc;
	main_argv = argv;
	int status = configure(&o, argc, argv, false);
	if (status) {
		status = status < 0 ? 0 : status;
		goto out;
	}
	if (o.cfg.state_wait)
		o.cfg.restate = restate;
	const char *check_file = o.check_file, *daily_date = o.daily_date;
	/* the things to do exclude each other: two given is a mistake, never
	 * one silently winning (--view FILE --watch used to watch) */
	const struct {
		bool on;
		const char *name;
	} modes[] = {
		{ o.cfg.replay != NULL, "--replay" }, { o.cfg.view != NULL, "--view" }, { o.cfg.watch, "--watch" },
		{ o.cfg.daily, "--daily" }, { o.daily_seed, "--daily-seed" }, { o.check_save, "--check-save" },
		{ o.reset_term, "--reset-term" }, { o.reset_vt, "--reset-vt" },
		{ o.list_displays || o.list_inputs, o.list_displays ? "--list-displays" : "--list-inputs" },
	};
	const char *mode = NULL;
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		if (!modes[i].on)
			continue;
		if (mode) {
			log_error("%s cannot be combined with %s: they are different things to do, give one", mode,
				  modes[i].name);
			status = EXIT_USAGE;
			goto out;
		}
		mode = modes[i].name;
	}
	if (o.cfg.replay && (o.cfg.record || o.cfg.keys || o.cfg.has_seed)) {
		log_error("--replay cannot be combined with --record, --keys or --seed");
		status = EXIT_USAGE;
		goto out;
	}
	if (o.cfg.watch && (o.cfg.replay || o.cfg.record || o.cfg.keys || o.cfg.has_seed || o.check_save)) {
		log_error("--watch cannot be combined with --replay, --record, --keys, --seed or --check-save");
		status = EXIT_USAGE;
		goto out;
	}
	if (o.force && !o.reset_vt) {
		log_error("--force only goes with --reset-vt N");
		status = EXIT_USAGE;
		goto out;
	}
	if (o.cfg.view && (o.cfg.replay || o.cfg.record || o.cfg.has_seed || o.cfg.daily)) {
		log_error("--view cannot be combined with --replay, --record, --seed or --daily");
		status = EXIT_USAGE;
		goto out;
	}
	if (o.cfg.daily && (o.cfg.has_seed || o.cfg.replay)) {
		log_error("--daily cannot be combined with --seed or --replay");
		status = EXIT_USAGE;
		goto out;
	}
	log_set_verbose(o.cfg.verbose);
	if (o.daily_seed) {
		struct daily_date d = daily_of_time(o.cfg.has_now ? o.cfg.now : (int64_t)time(NULL));
		if (daily_date && daily_parse(daily_date, &d)) {
			log_error("invalid date '%s' for --daily-seed: expected YYYY-MM-DD, e.g. 2026-12-01", daily_date);
			status = EXIT_USAGE;
			goto out;
		}
		printf("%" PRIu64 "\n", daily_seed(d));
		status = 0;
	} else if (o.check_save) {
		char dir[4096] = "";
		if (!check_file && save_state_dir(o.cfg.state_dir, dir, sizeof dir))
			status = 1;
		else
			status = save_check(dir, check_file);
	} else if (o.reset_term)
		status = reset_term();
	else if (o.reset_vt)
		status = vt_reset(o.reset_vt, o.force) ? 1 : 0;
	else if (o.list_displays || o.list_inputs)
		status = app_list(o.list_displays, o.list_inputs, &o.cfg);
	else
		status = app_run(&o.cfg);
out:
	for (int i = 0; i < o.nowned; i++)
		free(o.owned[i]);
	for (int i = 0; i < late.nowned; i++)
		free(late.owned[i]);
	return status;
}
