/* ui: the screens (title, map view with HUD and log, look, history, character, game over) drawn as console cells. */
#ifndef PIROGUE_UI_UI_H
#define PIROGUE_UI_UI_H
#include <stdbool.h>
#include "platform/input.h"
#include "render/console.h"

struct game;

enum ui_screen {
	UI_TITLE,     /* main menu */
	UI_PLAY,      /* the map, awaiting a command */
	UI_LOOK,      /* a cursor over the map describing what is there */
	UI_HISTORY,   /* the whole message log, scrollable */
	UI_CHARACTER, /* the player's numbers */
	UI_GAMEOVER,  /* the player died */
};

/* Title menu entries, in the order shown (only the available ones are). */
enum ui_menu_item { MENU_CONTINUE, MENU_NEW_GAME, MENU_QUIT, MENU_COUNT };

/* What the screens need beyond the game state. Owned by the app. */
struct ui {
	enum ui_screen screen;
	int menu_sel;          /* index into the shown title entries */
	bool can_continue;     /* a game in progress exists */
	int history_top;       /* first message shown in UI_HISTORY, from the newest (0) */
	int look_x, look_y;    /* map cell under the look cursor */
	int hover_x, hover_y;  /* map cell under the mouse pointer, -1 when none */
	enum dev_kind last_dev;/* hints name this device's keys or buttons */
	char notice[128];      /* one line shown on the title screen (errors), may be "" */
};

/* Where things go on a console of a given size (GAME.md §6). */
struct ui_layout {
	int cols, rows;
	bool too_small;        /* below 40×30: only a message is drawn */
	bool compact;          /* narrow HUD: stats on one line, log below */
	int view_x, view_y, view_w, view_h; /* map viewport on the console */
	int panel_y;           /* first row of the HUD/log panel */
	int log_x, log_y, log_w, log_h;     /* message log box */
	int hint_y;            /* key hint line */
};

#define UI_MIN_COLS 40
#define UI_MIN_ROWS 30

/* Computes the layout for a cols×rows console. */
void ui_layout(int cols, int rows, struct ui_layout *l);
/* Map coordinates shown at the viewport's top-left so that the cell (fx, fy)
 * (the player or the look cursor) stays in view; the map is centred when the
 * viewport is larger than it. */
void ui_camera(const struct ui_layout *l, int map_w, int map_h, int fx, int fy, int *cam_x, int *cam_y);
/* The map cell shown at console cell (cx, cy) on the play screens of a
 * cols×rows console, following the same camera as ui_draw. Returns 0 and
 * sets *mx, *my, or -1 when (cx, cy) is not over the map. */
int ui_map_cell_at(const struct ui *u, const struct game *g, int cols, int rows, int cx, int cy, int *mx, int *my);
/* Entries shown on the title screen given can_continue; returns their count. */
int ui_menu_items(const struct ui *u, enum ui_menu_item *items);

/* Redraws the whole screen for u (and g, which may be NULL on the title
 * screen) into c. Only cells that change become damaged. */
void ui_draw(const struct ui *u, const struct game *g, struct console *c);

#endif
