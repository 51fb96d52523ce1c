/* ui: the screens (title, play, look, history, character, game over, ...) — each one's input handling and drawing, one file per screen, in one table — and the layout they share. */
#ifndef PIROGUE_UI_UI_H
#define PIROGUE_UI_UI_H
#include <stdbool.h>
#include "game/game.h"
#include "game/map.h"
#include "platform/keys.h"
#include "render/console.h"
#include "ui/bind.h"

enum ui_screen {
	UI_TITLE,     /* main menu */
	UI_PLAY,      /* the map, awaiting a command */
	UI_LOOK,      /* a cursor over the map describing what is there */
	UI_HISTORY,   /* the whole message log, scrollable */
	UI_CHARACTER, /* the player's numbers */
	UI_GAMEOVER,  /* the player died */
	UI_HELP,      /* every binding of every screen, scrollable */
	UI_INVENTORY, /* choose an item to use */
	UI_DROP,      /* choose an item to drop */
	UI_DROP_COUNT,/* drop one of a stack or all of it */
	UI_TARGET,    /* choose the cell or monster a scroll is used on */
	UI_LEVELUP,   /* choose what a new level brings (cannot be left) */
	UI_SCORES,    /* the high-score table */
	UI_NAME,      /* a new high score: the player's name */
	UI_VIEW,      /* watching a recording */
	UI_OPTIONS,   /* the settings the player may change in the game (scr_options.c's table) */
	UI_SCREEN_COUNT
};

/* Title menu entries, in the order shown (only the available ones are). */
enum ui_menu_item { MENU_CONTINUE, MENU_NEW_GAME, MENU_DAILY, MENU_SCORES, MENU_OPTIONS, MENU_HELP, MENU_QUIT, MENU_COUNT };

/* One row of the options screen: a setting of the settings files and the
 * values it offers, or (key NULL) a row that opens another screen. A later
 * setting joins the screen by a row in scr_options.c's table. */
struct ui_option {
	const char *key;   /* the setting's name in a settings file ("attract"), NULL: opens screen */
	const char *label; /* what the screen calls it */
	int n;             /* how many values */
	const char *const *values; /* each as a settings file writes it */
	const char *const *shown;  /* each as the screen shows it */
	enum ui_screen screen;     /* key NULL: the screen it opens */
};
#define UI_OPTIONS_MAX 12
/* The rows, in the order shown, and their count. */
extern const struct ui_option ui_options[];
extern const int ui_option_count;
/* The row whose setting is key, or -1. */
int ui_option_find(const char *key);
/* The index of value among row's values, or -1 (not one of them). */
int ui_option_value(int row, const char *value);

/* One line of the high-score table as the scores screen shows it (the app
 * fills these from the table in the state directory). */
#define UI_NAME_MAX 12 /* characters of a name (the table's SCORES_NAME_MAX) */
struct ui_score {
	long score;
	int depth, turns, level;
	char cause[48];
	char name[UI_NAME_MAX + 1]; /* printable, "" when none was given */
	bool watchable;             /* its recording is kept: the line offers "watch" */
};
#define UI_SCORES_MAX 10

/* UI_VIEW: the recording being watched, as the app plays it (the screen
 * pauses it and sets its speed; the app fills in the rest). */
#define UI_VIEW_SPEED_MAX 64
struct ui_view {
	bool paused;
	int speed;             /* 1, 2, 4 ... UI_VIEW_SPEED_MAX: times the game's pace */
	int turn, end_turn;    /* the game's turn now, the recording's last */
	size_t at, count;      /* commands played, in the recording */
	char name[64];         /* the file's name, for the line on top */
};

/* What the screens need beyond the game state. Owned by the app. */
struct ui {
	enum ui_screen screen;
	int menu_sel;          /* index into the shown title entries */
	bool can_continue;     /* a game in progress exists */
	int history_top;       /* first message shown in UI_HISTORY, from the newest (0) */
	int help_top;          /* first row shown in UI_HELP */
	enum ui_screen help_from; /* the screen UI_HELP goes back to */
	int look_x, look_y;    /* map cell under the look cursor */
	int hover_x, hover_y;  /* console cell under the mouse pointer, -1 when none (frames describe the map cell shown there) */
	enum dev_kind last_dev;/* hints name this device's keys or buttons */
	char notice[128];      /* one line shown on the title screen (errors), may be "" */
	const struct bindings *binds; /* for hints and help; NULL = the defaults */
	bool kiosk;            /* the machine's console: Quit on the title asks first */
	bool pictures;         /* the display draws the map in pictures (tiles): map cells carry them; else
				* glyphs only, so that cells that look alike compare equal (a scroll redraws less) */
	bool demo;             /* attract mode's demo game: the hint line says so and "press any key" */
	bool confirm_quit;     /* the title asks "quit and restart?" */
	bool confirm_new;      /* the title asks "a new game, the game in progress lost?" */
	bool confirm_daily;    /* ... the same for the daily game */
	char status[128];      /* one line over the map (why auto-explore stopped, a refused target), may be "" */
	int inv_sel;           /* selected line of UI_INVENTORY / UI_DROP */
	int target_slot;       /* UI_TARGET: the item being used */
	bool target_armed;     /* UI_TARGET: confirmed once at (armed_x, armed_y), an area that holds the player */
	int armed_x, armed_y;
	int drop_slot;         /* UI_DROP_COUNT: the stack being dropped */
	int drop_sel;          /* UI_DROP_COUNT: 0 one, 1 all */
	int levelup_sel;       /* selected choice of UI_LEVELUP */
	struct ui_score scores[UI_SCORES_MAX];
	int nscores;           /* lines in scores */
	int score_rank;        /* the line of the game just ended, -1 when none */
	bool scores_after_death; /* UI_SCORES follows a game over: Enter starts a new game */
	int opt_sel;           /* UI_OPTIONS: the selected row of ui_options */
	enum ui_screen opt_from; /* the screen UI_OPTIONS goes back to */
	int opt_val[UI_OPTIONS_MAX]; /* each row's value (an index into its values), -1: another (opt_other) */
	char opt_other[UI_OPTIONS_MAX][32]; /* a row's value set in a file that is none of its values */
	int palette;           /* enum ui_palette_kind: the colours the screens draw in */
	int map_cw;            /* text cells a map cell spans across as the display draws it (docs/cells.md):
				* 2 on a pixel display with a square map sheet, else 1 (0 counts as 1) */
	bool scores_daily;     /* UI_SCORES shows the daily games' table */
	bool name_pending;     /* the game just ended made the table: UI_NAME asks who played */
	char name[UI_NAME_MAX + 1]; /* UI_NAME: the name so far (the app puts the last one given here) */
	struct ui_view view;   /* UI_VIEW */
	int watch;             /* UI_REQ_WATCH: the line of the scores screen to watch */
};

/* What a screen may ask of the program that runs it (the app). Screens
 * never touch devices, files or the game's lifetime themselves. */
enum ui_request {
	UI_REQ_NEW_GAME,  /* start a new game and show it on the play screen */
	UI_REQ_CONTINUE,  /* go on with the game in progress, on the play screen */
	UI_REQ_SAVE_QUIT, /* keep the game and go back to the title screen */
	UI_REQ_QUIT,      /* leave the program */
	UI_REQ_SCORES,    /* read the high-score table into the ui and show UI_SCORES */
	UI_REQ_EXPLORE,   /* auto-explore, a step at a time, until something happens or a key */
	UI_REQ_TRAVEL_DOWN, /* walk to the known down stairs the same way */
	UI_REQ_TRAVEL_UP,   /* ... the up stairs */
	UI_REQ_NAME,        /* give the game just ended the name in ui->name ("" none) */
	UI_REQ_DAILY,       /* start today's daily game (once a day) and show it */
	UI_REQ_VIEW_STEP,   /* UI_VIEW: one command on */
	UI_REQ_VIEW_BACK,   /* UI_VIEW: jump back (a snapshot's span of turns) */
	UI_REQ_VIEW_ON,     /* UI_VIEW: jump forward */
	UI_REQ_VIEW_STOP,   /* UI_VIEW: stop watching (back where it began, or quit) */
	UI_REQ_WATCH,       /* watch the recording of the scores' line ui->watch */
	UI_REQ_OPTION,      /* the options screen's row u->opt_sel now has value u->opt_val[opt_sel]:
			     * apply it at once and save it in the state directory's settings file */
};

struct ui_host {
	void *ctx;
	/* Gives the game the command cmd (the host records it). Returns 1 when
	 * a turn passed, 0 when none did. */
	int (*command)(void *ctx, const struct command *cmd);
	/* Carries out r, including the screen shown afterwards. Returns 0, or
	 * a negative errno after reporting the failure (the host has already
	 * decided what follows, e.g. quitting). */
	int (*request)(void *ctx, enum ui_request r);
};

/* One input for the screen in front. */
enum ui_input_kind {
	UI_IN_KEY,   /* a key or pad button: act (from the bindings) and key */
	UI_IN_HOVER, /* the pointer moved over console cell (x, y) */
	UI_IN_CLICK, /* button clicked at console cell (x, y) */
};
struct ui_input {
	enum ui_input_kind kind;
	enum action act;     /* UI_IN_KEY: what the bindings say key means */
	uint32_t key;        /* UI_IN_KEY: the key itself (letters choose items) */
	enum dev_kind from;  /* the device it came from (hints follow it) */
	int x, y, button;    /* pointer inputs: console cell, button 1..3 */
	int cols, rows;      /* the console's size (to find the map under the pointer) */
};

/* Where things go on a console of a given size (GAME.md §6). */
struct ui_palette;
/* The palettes (ui_palette_of; the setting `palette`: default, high-contrast). */
enum ui_palette_kind { UI_PALETTE_DEFAULT, UI_PALETTE_HIGH_CONTRAST, UI_PALETTE_COUNT };
struct ui_layout {
	const struct ui_palette *pal; /* the colours to draw in (ui_layout: the default; ui_draw: u's) */
	int cols, rows;
	int map_cw;            /* text cells per map cell across (1 or 2): the view shows view_w / map_cw map columns */
	bool too_small;        /* below 40×24: only a message is drawn, no input taken but the way out (ui_input) */
	bool compact;          /* narrow HUD: stats on one line, log below */
	int view_x, view_y, view_w, view_h; /* map viewport on the console, in text cells */
	int panel_y;           /* first row of the HUD/log panel */
	int log_x, log_y, log_w, log_h;     /* message log box */
	int hint_y;            /* key hint line */
	int desc_y;            /* the row the cell under the look cursor or the pointer is described on, off the
				* map: the wide panel's separator, the compact panel's first log line */
	bool pictures;         /* map cells carry their pictures (ui_tile_look; ui_draw: u->pictures) */
};

#define UI_MIN_COLS 40
#define UI_MIN_ROWS 24

/* Computes the layout for a cols×rows console whose map cells are map_cw
 * text cells wide (1 or 2; anything else counts as 1). */
void ui_layout(int cols, int rows, int map_cw, struct ui_layout *l);
/* The map_cw the display asks of u (u->map_cw: 1 or 2; u NULL: 1). */
int ui_map_cw(const struct ui *u);
/* Map coordinates shown at the viewport's top-left so that the cell (fx, fy)
 * (the player or the look cursor) stays in view; the map is centred when the
 * viewport (view_w / map_cw map columns) is larger than it. */
void ui_camera(const struct ui_layout *l, int map_w, int map_h, int fx, int fy, int *cam_x, int *cam_y);
/* The map cell shown at console cell (cx, cy) on the play screens of a
 * cols×rows console, following the same camera as ui_draw. Returns 0 and
 * sets *mx, *my, or -1 when (cx, cy) is not over the map. */
int ui_map_cell_at(const struct ui *u, const struct game *g, int cols, int rows, int cx, int cy, int *mx, int *my);
/* Entries shown on the title screen given can_continue; returns their count. */
int ui_menu_items(const struct ui *u, enum ui_menu_item *items);

/* Hands in to the screen in front (g may be NULL while no game exists);
 * the screen changes u, gives commands and makes requests through h. A
 * screen that needs a game and has none does nothing. Two inputs never
 * reach a screen: UI_IN_HOVER only notes the pointer's console cell in
 * u->hover_x, hover_y (each frame describes the map cell shown there);
 * and while the console is too small (ui_layout's too_small) every input
 * is ignored but ACT_QUIT and ACT_MENU, which request UI_REQ_QUIT. */
void ui_input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in);

/* Redraws the whole screen for u (and g, which may be NULL on the title
 * screen) into c. Only cells that change become damaged. */
void ui_draw(const struct ui *u, const struct game *g, struct console *c);

/* The most things the map view draws (the lowest layers go first). */
#define UI_MAX_DRAWABLES 1024
#define UI_LOG_LINES 10 /* the most messages the log box shows (ui_layout) */

/* What a console holds after ui_draw_frame, kept by its caller so that the
 * next frame redraws only what changed: the inputs of the play screen as
 * last drawn. Zeroed (or after ui_drawn_forget) it knows nothing and the
 * next frame is drawn whole. Large (the map's cells): keep it on the heap
 * or static, not on the stack. */
/* The looks of the map's cells for one palette, picture setting and map
 * cell width (ui_looks_make, src/ui/scr.h: what ui_tile_look and
 * ui_put_map make of a cell, worked out once), by the cell's state (0:
 * neither in view nor remembered, 1: remembered, 2 and 3: in view) and
 * tile (enum tile). */
#define UI_LOOKS_BLANKS 64
struct ui_looks {
	struct con_cell base[4][4];    /* as ui_tile_look leaves v (state 0: the blank a drawable is put on) */
	struct con_cell cell[4][4][2]; /* the text cells ui_put_map writes: the head (or the only one), the tail */
	uint16_t var[4][4];            /* 3 where the picture has variants (a hash's bits added to tile), else 0 */
	struct con_cell blanks[UI_LOOKS_BLANKS]; /* cell[0][0][0] (an unseen cell's text cells) over and over */
};

struct ui_drawn {
	bool valid;                /* c holds the play screen drawn from what follows */
	const struct console *c;   /* the console it was drawn into, its size and map cell width */
	int w, h, map_cw;
	enum dev_kind last_dev;    /* the hint line's device, bindings and kind */
	const struct bindings *binds;
	bool demo;
	int cam_x, cam_y;
	const struct game *g;      /* the game and floor drawn, the floor's view count and box */
	const struct map *map;
	uint32_t views;
	struct fov_box seen;
	struct fov_rows vrows;     /* that view's cells as bits when known (vrows_ok: struct map's vrows) */
	bool vrows_ok;
	int map_w, map_h;          /* the floor's size: its cells below at y * map_w + x */
	uint8_t tile[MAP_MAX_CELLS], visible[MAP_MAX_CELLS], explored[MAP_MAX_CELLS];
	int ndraw;
	struct drawable draw[UI_MAX_DRAWABLES];
	struct game_stats stats;
	uint32_t log_seq;          /* the log as drawn (game_msg_seq) */
	int nmsg;                  /* newest messages shown, newest first */
	struct game_msg msg[UI_LOG_LINES];
	uint16_t log_end[UI_LOG_LINES]; /* the log box's rows blank from these columns on (ui_draw_log_over) */
	int lab_w;                 /* cells the pointer's description covers on the panel (0: none) */
	/* The floor's cells marked for this frame's redraw, as bits (cell x
	 * of row y: bit x % 64 of marks[y][x / 64]), the rows holding any
	 * (bit y % 64 of mark_rows[y / 64]): none between frames. */
	uint64_t marks[MAP_MAX_H][MAP_EXP_WORDS];
	uint64_t mark_rows[(MAP_MAX_H + 63) / 64];
	int view_w, view_h;          /* this frame's map view */
	uint16_t top[MAP_MAX_CELLS]; /* a marked cell in view: its top drawable + 1, 0: none (all 0 between frames) */
	struct ui_looks looks;       /* the map cells' looks, for looks_pal, looks_pictures, looks_cw */
	const struct ui_palette *looks_pal;
	bool looks_pictures;
	int looks_cw;
};

/* A frame: brings shown (the console the display shows) up to date for u
 * and g, ending exactly as ui_draw would leave it and damaged exactly where
 * it changed. On the play screen (no status line, the same size,
 * device, bindings and demo flag as last time, a camera less than a view
 * away; a new field of struct ui that the play screen draws from must join
 * these in redraw.c) only what changed is drawn, straight into shown, each
 * cell once: the map cells whose tile, view or memory changed, those where
 * a drawable came, went or changed, the HUD's numbers and the log when
 * they changed (composed in scratch and copied), the description of the
 * map cell under the pointer now (the map put back where the last one
 * was); when the camera moved, the view is composed in scratch from the
 * cells of shown that stay in view, moved, and those uncovered or changed,
 * drawn, then copied where it differs. The map is compared only
 * where the game's view last changed it (struct map's views and seen), or
 * whole when the floor changed or more than one view was taken since.
 * Anything else is drawn whole into scratch and copied where it differs.
 * scratch holds nothing between calls (it is resized to shown's size when
 * it differs). shown must hold what the last call with d drew (call
 * ui_drawn_forget after writing to it otherwise), g must be the game it
 * drew or another screen must have been drawn since (call ui_drawn_forget
 * when a game is replaced by another, which may lie at the same address),
 * and the bindings u->binds points to must not change in place. */
void ui_draw_frame(struct ui_drawn *d, const struct ui *u, const struct game *g, struct console *shown,
		   struct console *scratch);
/* Makes the next ui_draw_frame with d draw the whole screen (d NULL: nothing). */
void ui_drawn_forget(struct ui_drawn *d);

/* After a command (or a loaded game): the game-over screen when the player
 * died, the level-up screen while a level-up is pending. */
void ui_after_command(struct ui *u, const struct game *g);

/* The name of screen s ("title", "play", ...), for messages and tests. */
const char *ui_screen_name(enum ui_screen s);

#endif
