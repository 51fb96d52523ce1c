/* idle: the pure decisions of an idle machine — when the next timer is due (a walk or demo step, attract mode, screen blanking), what is due now, and what an input does while blanked or in the demo. */
#ifndef PIROGUE_APP_IDLE_H
#define PIROGUE_APP_IDLE_H
#include <stdbool.h>
#include <stdint.h>
#include "game/game.h"

/* The settings: attract (seconds on the title screen before the demo) and
 * blank (seconds on any screen before the display is switched off); 0 =
 * never. */
struct idle_cfg {
	int attract_s;
	int blank_s;
};

/* Where the program is, in monotonic milliseconds. */
struct idle_state {
	int64_t last_input_ms; /* the last key, button or pointer input (or the start) */
	bool title;            /* the title screen is in front (the player's ui) */
	bool demo;             /* the demo is running */
	bool blanked;          /* the display is switched off */
	int64_t step_ms;       /* when the next auto-explore or demo step is due, -1: none */
};

/* What is due. */
enum idle_event {
	IDLE_NOTHING,
	IDLE_STEP,    /* an auto-explore or demo step */
	IDLE_ATTRACT, /* start the demo */
	IDLE_BLANK,   /* switch the display off (and end the demo) */
};

/* What an input does. */
enum idle_input {
	IDLE_IN_PASS,     /* goes to the screen in front as usual */
	IDLE_IN_WAKE,     /* switches the display back on, and nothing else */
	IDLE_IN_END_DEMO, /* ends the demo (back to the title), and nothing else */
};

/* The earliest time anything is due for s under c: the step, the demo's
 * start (on the title screen, not in the demo, attract_s after the last
 * input), the blanking (blank_s after the last input); nothing at all
 * while blanked. Returns that time, or -1 when nothing will ever be due
 * (then no timer is armed: idle stays idle). */
int64_t idle_deadline(const struct idle_cfg *c, const struct idle_state *s);

/* What is due at now_ms: blanking before the demo's start before a step;
 * IDLE_NOTHING when nothing is (an early or stale timer). */
enum idle_event idle_due(const struct idle_cfg *c, const struct idle_state *s, int64_t now_ms);

/* What a key, button or pointer input does in s: a blanked display wakes,
 * a running demo ends, else the input passes. */
enum idle_input idle_on_input(const struct idle_state *s);

/* The demo's player, a deterministic bot over the public game API: takes a
 * pending level-up (choices in turn), attacks an adjacent visible monster,
 * walks toward a visible one, else auto-explores, else travels to the down
 * stairs and takes them, else waits. Returns the command for g. */
struct command idle_demo_command(const struct game *g);

#endif
