/* The play screen: the map, the HUD and the log; every game command starts here. */
#include "game/map.h"
#include "ui/scr.h"

/* The eight moves are in the same order in both enums (N, NE, E, ... NW). */
_Static_assert(ACT_MOVE_NW - ACT_MOVE_N == 7 && CMD_MOVE_NW - CMD_MOVE_N == 7, "move orders differ");

static const struct scr_key keys[] = {
	{ .moves = true, .hint = "move", .keep = true, .help = "walk (into a monster: attack)" },
	{ .act = ACT_HELP, .hint = "help", .keep = true, .help = "every key (this help)" },
	{ .keys = "L/R+D-pad", .dev = SCR_PAD, .hint = "diagonal", .brief = "diag", .help = "diagonals: hold L or R + d-pad" },
	{ .act = ACT_DO, .hint = "act", .help = "stairs under you, else pick up" },
	{ .act = ACT_INVENTORY, .hint = "inventory", .brief = "inv", .help = "use an item (inventory)" },
	{ .act = ACT_WAIT, .hint = "wait", .help = "wait a turn" },
	{ .act = ACT_BACK, .hint = "wait", .help = "wait a turn" },
	{ .act = ACT_PICKUP, .hint = "pick up", .brief = "get", .help = "pick up what lies here" },
	{ .act = ACT_DROP, .hint = "drop", .help = "drop an item" },
	{ .act = ACT_EXPLORE, .hint = "explore", .help = "explore (any key stops)" },
	{ .act = ACT_DESCEND, .act2 = ACT_ASCEND, .hint = "stairs" },
	{ .act = ACT_DESCEND, .help = "stairs down; away: go to them" },
	{ .act = ACT_ASCEND, .help = "stairs up; away: go to them" },
	{ .act = ACT_LOOK, .hint = "look", .help = "look around (or click)" },
	{ .act = ACT_HISTORY, .hint = "messages", .brief = "log", .help = "message history" },
	{ .act = ACT_QUIT, .hint = "save & quit", .brief = "quit", .keep = true, .help = "save and quit to the menu" },
	{ .act = ACT_MENU, .hint = "menu", .keep = true, .help = "save and quit to the menu" },
	{ .act = ACT_CANCEL, .help = "save and quit to the menu" },
	{ .act = ACT_CHARACTER, .hint = "character", .brief = "char", .help = "character" },
	{ .act = ACT_OPTIONS, .hint = "options", .brief = "opt", .help = "options" },
	{ 0 },
};

static void command(struct ui *u, struct game *g, const struct ui_host *h, enum cmd c)
{
	struct command cmd = ui_cmd(c);
	ui_command(u, g, h, &cmd);
}

static void look_at(struct ui *u, int x, int y)
{
	u->look_x = x;
	u->look_y = y;
	u->screen = UI_LOOK;
}

/* The tile under the player. */
static int here(const struct game *g)
{
	int px, py;
	const struct map *m = game_map(g);
	game_player_pos(g, &px, &py);
	return m->tile[py * m->w + px];
}

static void input(struct ui *u, struct game *g, const struct ui_host *h, const struct ui_input *in)
{
	int px, py;
	if (in->kind == UI_IN_CLICK) {
		/* a click looks at the cell */
		if (ui_click_cell(u, g, in, &px, &py) == 0)
			look_at(u, px, py);
		return;
	}
	switch (in->act) {
	case ACT_MOVE_N: case ACT_MOVE_NE: case ACT_MOVE_E: case ACT_MOVE_SE:
	case ACT_MOVE_S: case ACT_MOVE_SW: case ACT_MOVE_W: case ACT_MOVE_NW:
		command(u, g, h, (enum cmd)(CMD_MOVE_N + (in->act - ACT_MOVE_N)));
		break;
	case ACT_WAIT:
	case ACT_BACK:
		command(u, g, h, CMD_WAIT);
		break;
	case ACT_PICKUP:
		command(u, g, h, CMD_PICKUP);
		break;
	case ACT_DESCEND:
		/* on the stairs: take them; away from them: travel there */
		if (here(g) == TILE_STAIRS_DOWN)
			command(u, g, h, CMD_DESCEND);
		else
			h->request(h->ctx, UI_REQ_TRAVEL_DOWN);
		break;
	case ACT_ASCEND:
		if (here(g) == TILE_STAIRS_UP)
			command(u, g, h, CMD_ASCEND);
		else
			h->request(h->ctx, UI_REQ_TRAVEL_UP);
		break;
	case ACT_DO: {
		/* the one button that does what the cell calls for */
		int t = here(g);
		command(u, g, h, t == TILE_STAIRS_DOWN ? CMD_DESCEND : t == TILE_STAIRS_UP ? CMD_ASCEND : CMD_PICKUP);
		break;
	}
	case ACT_EXPLORE:
		h->request(h->ctx, UI_REQ_EXPLORE);
		break;
	case ACT_INVENTORY:
		u->inv_sel = 0;
		u->screen = UI_INVENTORY;
		break;
	case ACT_DROP:
		u->inv_sel = 0;
		u->screen = UI_DROP;
		break;
	case ACT_LOOK:
		game_player_pos(g, &px, &py);
		look_at(u, px, py);
		break;
	case ACT_HISTORY:
		u->history_top = 0;
		u->screen = UI_HISTORY;
		break;
	case ACT_CHARACTER:
		u->screen = UI_CHARACTER;
		break;
	case ACT_OPTIONS:
		u->opt_from = UI_PLAY;
		u->opt_sel = 0;
		u->notice[0] = 0; /* the title's (not shown in play), not the options' own */
		u->screen = UI_OPTIONS;
		break;
	case ACT_CANCEL:
	case ACT_QUIT:
	case ACT_MENU:
		h->request(h->ctx, UI_REQ_SAVE_QUIT);
		break;
	default:
		break; /* unbound here: costs nothing */
	}
}

/* Attract mode's demo: its hint line says what it is and how to leave it,
 * not the play keys (any key ends it and does nothing else). */
static const struct ui_hint demo_hint[] = {
	{ .full = "Demo: the computer is playing", .brief = "Demo game", .key = "Demo game", .keep = true },
	{ .full = "press any key to go back to the title", .brief = "press any key", .key = "press any key",
	  .keep = true },
};

static void draw(const struct ui *u, const struct ui_layout *l, const struct game *g, struct console *c)
{
	ui_draw_world(u, l, g, c, false, NULL);
	if (u->demo)
		ui_draw_hint(l, c, demo_hint, (int)(sizeof demo_hint / sizeof demo_hint[0]));
	else
		ui_draw_keys_hint(u, l, c, keys);
}

const struct scr scr_play = { .name = "play", .title = "On the map", .keys = keys, .needs_game = true, .input = input, .draw = draw };
