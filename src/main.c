/* main: wiring — parse the command line into an app_config and run the app. */
#include "app/app.h"
#include "core/log.h"
#include "game/mapgen.h"
#include "platform/vt.h"
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_USAGE 2

static const char usage_text[] =
	"Usage: pirogue [OPTION]...\n"
	"A roguelike for the bare Linux console (DRM/KMS, evdev), a terminal, or headless.\n"
	"\n"
	"Game:\n"
	"  --seed N             start a new game at once with seed N (no menu)\n"
	"  --mapgen KIND        dungeon generator: classic (default), overlap or cave\n"
	"  --record FILE        write the seed and every command to FILE\n"
	"  --replay FILE        play FILE back headless; exit 0 if it replays exactly,\n"
	"                       1 naming the first turn where it diverged\n"
	"  --keys FILE          read keys from FILE instead of a device (one key a line;\n"
	"                       names: up down left right home end pgup pgdn enter\n"
	"                       escape space tab backspace; '#' starts a comment);\n"
	"                       exits after drawing the frame after the last key\n"
	"Display:\n"
	"  --backend NAME       headless, term, drm or fbdev (default: drm if a card can\n"
	"                       be mastered, else fbdev, else term on a tty, else headless)\n"
	"  --font FILE          PNG CP437 tileset or PSF1/PSF2 console font (.psf, .psf.gz)\n"
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
	"  --reset-vt N         repair VT N left in graphics mode by a killed pirogue, then exit\n"
	"Input:\n"
	"  --gamepad-db FILE    SDL GameControllerDB mappings for non-standard gamepads\n"
	"  --list-inputs        list input devices and how each is classified\n"
	"Other:\n"
	"  --verbose            log what happens (one line per frame presented)\n"
	"  --help               show this help and exit\n"
	"  --version            show the version and exit\n";

enum {
	OPT_HELP = 256, OPT_VERSION, OPT_BACKEND, OPT_FONT, OPT_SCALE, OPT_ROTATE, OPT_SIZE,
	OPT_SCREENSHOT, OPT_KEYS, OPT_SEED, OPT_MAPGEN, OPT_RECORD, OPT_REPLAY, OPT_CARD,
	OPT_CONNECTOR, OPT_MODE, OPT_FB, OPT_VT, OPT_LIST_DISPLAYS, OPT_LIST_INPUTS,
	OPT_GAMEPAD_DB, OPT_VERBOSE, OPT_RESET_VT,
};

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "font", required_argument, NULL, OPT_FONT },
	{ "scale", required_argument, NULL, OPT_SCALE },
	{ "rotate", required_argument, NULL, OPT_ROTATE },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "screenshot", required_argument, NULL, OPT_SCREENSHOT },
	{ "keys", required_argument, NULL, OPT_KEYS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "mapgen", required_argument, NULL, OPT_MAPGEN },
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
	{ "verbose", no_argument, NULL, OPT_VERBOSE },
	{ "reset-vt", required_argument, NULL, OPT_RESET_VT },
	{ NULL, 0, NULL, 0 },
};

static int bad_value(const char *opt, const char *val, const char *want)
{
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

int main(int argc, char **argv)
{
	struct app_config cfg = { 0 };
	int list_displays = 0, list_inputs = 0, reset_vt = 0;
	opterr = 0;
	for (;;) {
		int c = getopt_long(argc, argv, ":", long_opts, NULL);
		if (c == -1)
			break;
		const char *name = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
		switch (c) {
		case OPT_HELP:
			fputs(usage_text, stdout);
			return 0;
		case OPT_VERSION:
			printf("pirogue %s\n", PIROGUE_VERSION);
			return 0;
		case OPT_BACKEND:
			if (strcmp(optarg, "headless") && strcmp(optarg, "term") && strcmp(optarg, "drm") &&
			    strcmp(optarg, "fbdev"))
				return bad_value("backend", optarg, "headless, term, drm or fbdev");
			cfg.backend = optarg;
			break;
		case OPT_FONT:
			cfg.font = optarg;
			break;
		case OPT_SCALE:
			if (parse_int(optarg, 1, 8, &cfg.scale))
				return bad_value("scale", optarg, "an integer from 1 to 8");
			break;
		case OPT_ROTATE:
			if (parse_int(optarg, 0, 270, &cfg.rotation) || cfg.rotation % 90)
				return bad_value("rotate", optarg, "0, 90, 180 or 270");
			break;
		case OPT_SIZE:
			if (parse_size(optarg, &cfg.width, &cfg.height, NULL))
				return bad_value("size", optarg, "WIDTHxHEIGHT in pixels, e.g. 640x400");
			break;
		case OPT_SCREENSHOT:
			cfg.screenshot = optarg;
			break;
		case OPT_KEYS:
			cfg.keys = optarg;
			break;
		case OPT_SEED: {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-')
				return bad_value("seed", optarg, "a non-negative integer");
			cfg.seed = (uint64_t)v;
			cfg.has_seed = true;
			break;
		}
		case OPT_MAPGEN: {
			enum mapgen_kind kind;
			if (mapgen_parse(optarg, &kind))
				return bad_value("mapgen", optarg, "classic, overlap or cave");
			cfg.mapgen = optarg;
			break;
		}
		case OPT_RECORD:
			cfg.record = optarg;
			break;
		case OPT_REPLAY:
			cfg.replay = optarg;
			break;
		case OPT_CARD:
			cfg.card = optarg;
			break;
		case OPT_CONNECTOR:
			cfg.connector = optarg;
			break;
		case OPT_MODE:
			if (parse_size(optarg, &cfg.mode_w, &cfg.mode_h, &cfg.mode_hz))
				return bad_value("mode", optarg, "WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1280x720@60");
			break;
		case OPT_FB:
			cfg.fb = optarg;
			break;
		case OPT_VT:
			if (parse_int(optarg, 1, 63, &cfg.vt))
				return bad_value("vt", optarg, "a virtual terminal number from 1 to 63");
			break;
		case OPT_LIST_DISPLAYS:
			list_displays = 1;
			break;
		case OPT_LIST_INPUTS:
			list_inputs = 1;
			break;
		case OPT_GAMEPAD_DB:
			cfg.gamepad_db = optarg;
			break;
		case OPT_VERBOSE:
			cfg.verbose = true;
			break;
		case OPT_RESET_VT:
			if (parse_int(optarg, 1, 63, &reset_vt))
				return bad_value("reset-vt", optarg, "a virtual terminal number from 1 to 63");
			break;
		case ':':
			log_error("option '%s' needs a value (see --help)", name);
			return EXIT_USAGE;
		default:
			log_error("unknown option '%s' (see --help)", name);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		log_error("unexpected argument '%s' (see --help)", argv[optind]);
		return EXIT_USAGE;
	}
	if (cfg.replay && (cfg.record || cfg.keys || cfg.has_seed)) {
		log_error("--replay cannot be combined with --record, --keys or --seed");
		return EXIT_USAGE;
	}
	log_set_verbose(cfg.verbose);
	if (reset_vt)
		return vt_reset(reset_vt) ? 1 : 0;
	if (list_displays || list_inputs)
		return app_list(list_displays, list_inputs, &cfg);
	return app_run(&cfg);
}
