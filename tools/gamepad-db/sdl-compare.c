/* Cross-checks pirogue's reading of SDL mapping lines (platform/evdb.c,
 * resolved against a pad by platform/evmap.c)
 * against the installed libSDL2 itself, through SDL's public API only.
 *
 * Every mapping a database file gives pirogue is also given to SDL for a
 * virtual joystick (SDL_JoystickAttachVirtualEx) with 32 buttons, 16 axes
 * and 2 hats; pirogue resolves the same line against an evdev pad whose
 * inputs SDL numbers the same way (buttons BTN_JOYSTICK..+31, axes ABS_X..
 * ABS_MISC-1, hats 0 and 1). Then each button is pressed and released,
 * each axis is swept through the values where SDL's rules change their
 * mind, each hat goes round, and after every step the two are compared:
 * a b x y back start leftshoulder rightshoulder leftstick rightstick and
 * the d-pad as pressed or not, leftx/lefty as pirogue's -1000..1000 stick,
 * lefttrigger/righttrigger as pressed from EVM_TRIGGER_PRESS. SDL's side is
 * what its events say (SDL_CONTROLLERBUTTONDOWN/UP, SDL_CONTROLLERAXISMOTION:
 * what pirogue, a program that acts on events, must match), not what
 * SDL_GameControllerGetButton polls: polling asks the first binding whose
 * input is in range at that moment, which events do not follow (a pad
 * mapped "a:+a0,a:-a1" never reports a from axis 1 when polled).
 *
 * Both start from rest: each axis is moved once and back first (SDL takes
 * a joystick axis's first value as its resting point and says nothing).
 *
 * Usage: sdl-compare DBFILE   prints one line per difference (the first
 * 20; all with SDL_COMPARE_ALL set) and a summary; exit status 0 when there
 * is none. Built and run by tests/test_sdl_compare.sh. */
#include "platform/evmap.h"
#include "core/log.h"
#include <SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NB 32
#define NA 16
#define NH 2

static const int sdl_button[EVDB_B_COUNT] = {
	[EVDB_B_SOUTH] = SDL_CONTROLLER_BUTTON_A, [EVDB_B_EAST] = SDL_CONTROLLER_BUTTON_B,
	[EVDB_B_WEST] = SDL_CONTROLLER_BUTTON_X, [EVDB_B_NORTH] = SDL_CONTROLLER_BUTTON_Y,
	[EVDB_B_TL] = SDL_CONTROLLER_BUTTON_LEFTSHOULDER, [EVDB_B_TR] = SDL_CONTROLLER_BUTTON_RIGHTSHOULDER,
	[EVDB_B_START] = SDL_CONTROLLER_BUTTON_START, [EVDB_B_SELECT] = SDL_CONTROLLER_BUTTON_BACK,
	[EVDB_B_DUP] = SDL_CONTROLLER_BUTTON_DPAD_UP, [EVDB_B_DDOWN] = SDL_CONTROLLER_BUTTON_DPAD_DOWN,
	[EVDB_B_DLEFT] = SDL_CONTROLLER_BUTTON_DPAD_LEFT, [EVDB_B_DRIGHT] = SDL_CONTROLLER_BUTTON_DPAD_RIGHT,
	[EVDB_B_TL2] = -1, [EVDB_B_TR2] = -1,
	[EVDB_B_THUMBL] = SDL_CONTROLLER_BUTTON_LEFTSTICK, [EVDB_B_THUMBR] = SDL_CONTROLLER_BUTTON_RIGHTSTICK,
};

static long probes, diffs, events;
/* The controller as its events tell it. */
static Uint8 ev_button[SDL_CONTROLLER_BUTTON_MAX];
static Sint16 ev_axis[SDL_CONTROLLER_AXIS_MAX];

/* Lets SDL act on the virtual joystick's new state and takes in the
 * controller events that produces. */
static void sdl_step(SDL_JoystickID id)
{
	SDL_Event ev;
	SDL_GameControllerUpdate();
	while (SDL_PollEvent(&ev)) {
		events += ev.type == SDL_CONTROLLERBUTTONDOWN || ev.type == SDL_CONTROLLERBUTTONUP ||
			  ev.type == SDL_CONTROLLERAXISMOTION;
		if ((ev.type == SDL_CONTROLLERBUTTONDOWN || ev.type == SDL_CONTROLLERBUTTONUP) &&
		    ev.cbutton.which == id && ev.cbutton.button < SDL_CONTROLLER_BUTTON_MAX)
			ev_button[ev.cbutton.button] = ev.cbutton.state;
		else if (ev.type == SDL_CONTROLLERAXISMOTION && ev.caxis.which == id &&
			 ev.caxis.axis < SDL_CONTROLLER_AXIS_MAX)
			ev_axis[ev.caxis.axis] = ev.caxis.value;
	}
}

/* Compares SDL's controller with pirogue's pad after step (what). */
static void compare(const struct evm_dev *d, const char *name, const char *what)
{
	char why[160] = "";
	for (int b = 0; b < EVDB_B_COUNT && !why[0]; b++) {
		bool ours = (d->pad.btn >> b) & 1, sdl;
		if (sdl_button[b] >= 0)
			sdl = ev_button[sdl_button[b]];
		else
			sdl = ev_axis[b == EVDB_B_TL2 ? SDL_CONTROLLER_AXIS_TRIGGERLEFT : SDL_CONTROLLER_AXIS_TRIGGERRIGHT] >=
			      EVM_TRIGGER_PRESS;
		if (ours != sdl)
			snprintf(why, sizeof why, "button %d: SDL %d, pirogue %d", b, sdl, ours);
	}
	for (int a = 0; a < 2 && !why[0]; a++) {
		long v = ev_axis[a ? SDL_CONTROLLER_AXIS_LEFTY : SDL_CONTROLLER_AXIS_LEFTX];
		long want = v * 1000 / 32767;
		want = want < -1000 ? -1000 : want > 1000 ? 1000 : want;
		if (want != d->pad.ax[a])
			snprintf(why, sizeof why, "left%c: SDL %ld (%ld), pirogue %d", a ? 'y' : 'x', v, want,
				 d->pad.ax[a]);
	}
	probes++;
	if (why[0] && (++diffs <= 20 || getenv("SDL_COMPARE_ALL")))
		printf("%s: after %s: %s\n", name, what, why);
}

static void feed(struct evm_dev *d, unsigned type, unsigned code, int value)
{
	struct evm_pointer p = {0};
	struct in_event out[EVM_MAX_OUT];
	evm_dev_feed(d, &p, type, code, value, out);
	evm_dev_feed(d, &p, EV_SYN, SYN_REPORT, 0, out);
}

static void check_entry(const struct evdb_entry *e, const char *body)
{
	static const int axis_values[] = {2, 0, -1, -2, 16383, 16384, 32767, -16384, -16385, -32768, 0, 32767, 0};
	static const int hat_values[] = {1, 3, 2, 6, 4, 12, 8, 9, 0, 4, 1, 0}; /* what two hat axes can say */
	struct evm_caps c;
	struct evm_dev d;
	char what[64], mapping[4096], gs[64];
	memset(&c, 0, sizeof c);
	for (unsigned k = BTN_JOYSTICK; k < BTN_JOYSTICK + NB; k++)
		EVM_SET(&c, key, k);
	for (unsigned a = 0; a < NA; a++)
		EVM_SET(&c, abs, a);
	for (unsigned a = ABS_HAT0X; a < ABS_HAT0X + 2 * NH; a++)
		EVM_SET(&c, abs, a);
	memset(&d, 0, sizeof d);
	for (int a = 0; a < ABS_CNT; a++) {
		d.absmin[a] = a >= ABS_HAT0X && a <= ABS_HAT3Y ? -1 : -32768;
		d.absmax[a] = a >= ABS_HAT0X && a <= ABS_HAT3Y ? 1 : 32767;
	}
	evm_dev_init(&d, EVM_GAMEPAD, &c);
	evm_padmap_from_db(&d.map, e, &c);

	SDL_VirtualJoystickDesc desc = {.version = SDL_VIRTUAL_JOYSTICK_DESC_VERSION,
					.type = SDL_JOYSTICK_TYPE_GAMECONTROLLER, .naxes = NA, .nbuttons = NB,
					.nhats = NH, .name = "pirogue sdl-compare"};
	int idx = SDL_JoystickAttachVirtualEx(&desc);
	if (idx < 0) {
		printf("%s: SDL_JoystickAttachVirtualEx: %s\n", e->name, SDL_GetError());
		diffs++;
		return;
	}
	SDL_JoystickGetGUIDString(SDL_JoystickGetDeviceGUID(idx), gs, sizeof gs);
	/* the line without the name's CRC bytes, as SDL's own lines are
	 * written (SDL 2.26.5 matches no mapping whose GUID holds them for a
	 * virtual joystick) */
	memcpy(gs + 4, "0000", 4);
	snprintf(mapping, sizeof mapping, "%s,%s,%s", gs, e->name, body);
	if (SDL_GameControllerAddMapping(mapping) < 0) {
		printf("%s: SDL_GameControllerAddMapping: %s\n", e->name, SDL_GetError());
		diffs++;
		SDL_JoystickDetachVirtual(idx);
		return;
	}
	SDL_GameController *gc = SDL_GameControllerOpen(idx);
	SDL_Joystick *j = gc ? SDL_GameControllerGetJoystick(gc) : NULL;
	if (!j) {
		printf("%s: SDL_GameControllerOpen: %s\n", e->name, SDL_GetError());
		diffs++;
		SDL_JoystickDetachVirtual(idx);
		return;
	}
	SDL_JoystickID id = SDL_JoystickInstanceID(j);
	memset(ev_button, 0, sizeof ev_button);
	memset(ev_axis, 0, sizeof ev_axis);
	sdl_step(id);
	/* every axis moved once and back: SDL takes a joystick axis's first
	 * value as its resting point and says nothing of it */
	for (int a = 0; a < NA; a++) {
		SDL_JoystickSetVirtualAxis(j, a, 1);
		sdl_step(id);
		SDL_JoystickSetVirtualAxis(j, a, 0);
		sdl_step(id);
		feed(&d, EV_ABS, (unsigned)a, 1);
		feed(&d, EV_ABS, (unsigned)a, 0);
	}
	compare(&d, e->name, "opening");
	for (int b = 0; b < NB; b++) {
		for (int v = 1; v >= 0; v--) {
			SDL_JoystickSetVirtualButton(j, b, (Uint8)v);
			sdl_step(id);
			feed(&d, EV_KEY, BTN_JOYSTICK + (unsigned)b, v);
			snprintf(what, sizeof what, "b%d %s", b, v ? "pressed" : "released");
			compare(&d, e->name, what);
		}
	}
	for (int a = 0; a < NA; a++) {
		for (size_t i = 0; i < sizeof axis_values / sizeof *axis_values; i++) {
			SDL_JoystickSetVirtualAxis(j, a, (Sint16)axis_values[i]);
			sdl_step(id);
			feed(&d, EV_ABS, (unsigned)a, axis_values[i]);
			snprintf(what, sizeof what, "a%d = %d", a, axis_values[i]);
			compare(&d, e->name, what);
		}
	}
	for (int h = 0; h < NH; h++) {
		for (size_t i = 0; i < sizeof hat_values / sizeof *hat_values; i++) {
			int bits = hat_values[i];
			SDL_JoystickSetVirtualHat(j, h, (Uint8)bits);
			sdl_step(id);
			/* one report with both hat axes, as the kernel sends a diagonal */
			struct evm_pointer p = {0};
			struct in_event out[EVM_MAX_OUT];
			evm_dev_feed(&d, &p, EV_ABS, ABS_HAT0X + 2u * (unsigned)h, bits & 8 ? -1 : bits & 2 ? 1 : 0, out);
			evm_dev_feed(&d, &p, EV_ABS, ABS_HAT0Y + 2u * (unsigned)h, bits & 1 ? -1 : bits & 4 ? 1 : 0, out);
			evm_dev_feed(&d, &p, EV_SYN, SYN_REPORT, 0, out);
			snprintf(what, sizeof what, "h%d = %d", h, bits);
			compare(&d, e->name, what);
		}
	}
	SDL_GameControllerClose(gc);
	SDL_JoystickDetachVirtual(idx);
}

int main(int argc, char **argv)
{
	struct evdb db = {0};
	if (argc != 2) {
		fprintf(stderr, "usage: sdl-compare DBFILE\n");
		return 2;
	}
	if (evdb_load_file(&db, argv[1]) < 0)
		return 1;
	if (SDL_Init(SDL_INIT_GAMECONTROLLER) != 0) {
		fprintf(stderr, "sdl-compare: SDL_Init: %s\n", SDL_GetError());
		return 1;
	}
	/* the body of each stored line, as the file has it */
	FILE *f = fopen(argv[1], "r");
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;
	while (f && getline(&line, &cap, f) >= 0) {
		lineno++;
		line[strcspn(line, "\r\n")] = 0;
		for (int i = 0; i < db.n; i++) {
			if (db.v[i].line != lineno)
				continue;
			const char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
			if (c2)
				check_entry(&db.v[i], c2 + 1);
		}
	}
	free(line);
	if (f)
		fclose(f);
	printf("sdl-compare: %d mappings, %ld probes, %ld controller events from SDL %d.%d.%d, %ld differences\n",
	       db.n, probes, events, SDL_MAJOR_VERSION, SDL_MINOR_VERSION, SDL_PATCHLEVEL, diffs);
	if (events < probes / 10) {
		printf("sdl-compare: SDL sent too few controller events for the comparison to mean anything\n");
		diffs++;
	}
	evdb_free(&db);
	SDL_Quit();
	return diffs ? 1 : 0;
}
