/* game: the rules engine's public face: one game state driven by commands, read back for drawing. */
#ifndef PIROGUE_GAME_GAME_H
#define PIROGUE_GAME_GAME_H
#include <stdbool.h>
#include <stdint.h>

#include "game/map.h"
#include "game/mapgen.h"

struct game; /* opaque */

/* Everything the player can ask for. A command either costs a turn or does
 * not (see game_apply). Later issues append values before CMD_COUNT; the
 * names (cmd_name) are what recordings store, so they never change. */
enum cmd {
	CMD_NONE,
	CMD_MOVE_N,
	CMD_MOVE_NE,
	CMD_MOVE_E,
	CMD_MOVE_SE,
	CMD_MOVE_S,
	CMD_MOVE_SW,
	CMD_MOVE_W,
	CMD_MOVE_NW,
	CMD_WAIT,
	CMD_PICKUP,
	CMD_DESCEND,
	CMD_ASCEND,
	CMD_COUNT
};

/* Stable lowercase name of c for recordings ("none", "move_n", "move_ne",
 * ..., "wait", "pickup", "descend", "ascend"); "?" for a value out of range. */
const char *cmd_name(enum cmd c);
/* Parses a name given by cmd_name into *out. Returns 0, or -EINVAL for an
 * unknown name or NULL (then *out is untouched). */
int cmd_parse(const char *name, enum cmd *out);

/* Options of a new game. */
struct game_opts {
	uint64_t seed;
	enum mapgen_kind mapgen;
};

/* Starts a new game from o: floor 1 generated, the player on it, FOV done,
 * a welcome message logged. Returns 0 with *out set, -EINVAL for a bad
 * mapgen, -ENOMEM. */
int game_create(struct game **out, const struct game_opts *o);
/* Frees g and every floor; accepts NULL. */
void game_destroy(struct game *g);

/* Applies one player command. Returns 1 when it cost a turn (then every
 * living monster has acted once and FOV is updated), 0 when it did not:
 * CMD_NONE, an unknown value, bumping a wall, stairs commands off the
 * stairs, or any command once the game is over. Messages go to the log,
 * also for some commands that cost no turn ("That way is blocked."), so a
 * recording must keep every command given, not only those returning 1. */
int game_apply(struct game *g, enum cmd c);
/* True once the player has died; the game then takes no more turns. */
bool game_is_over(const struct game *g);
/* A 64-bit hash of the whole game state (every floor's tiles and memory,
 * every entity and component, the RNG, the turn and depth, the log), built
 * from integers only, so it is the same on every CPU and compiler. Two games
 * given the same seed and commands have the same checksum after every turn. */
uint64_t game_checksum(const struct game *g);
/* Number of turns taken so far (0 at the start). */
int game_turn(const struct game *g);
/* The dungeon level the player is on, 1-based. */
int game_depth(const struct game *g);
/* The seed the game was created with. */
uint64_t game_seed(const struct game *g);
/* The player's current floor, with visible[] (now in view) and explored[]
 * (ever seen) filled. Valid until the next game_apply. */
const struct map *game_map(const struct game *g);
/* The player's cell on the current floor. */
void game_player_pos(const struct game *g, int *x, int *y);

/* The numbers the HUD shows. xp_next is the XP total at which the next
 * level is reached. */
struct game_stats {
	int hp, max_hp, power, defense, level, xp, xp_next, depth, turn;
};
void game_stats(const struct game *g, struct game_stats *s);

/* Render orders, lowest drawn first. */
enum {
	GAME_ORDER_CORPSE = 0,
	GAME_ORDER_ITEM = 1,
	GAME_ORDER_ACTOR = 2
};

/* One thing to draw over the map. remembered: not in view now, drawn where
 * it was last seen (items and corpses only; actors are drawn only in view). */
struct drawable {
	int x, y;
	uint32_t glyph; /* Unicode code point */
	uint32_t fg;    /* 0xRRGGBB */
	int order;      /* GAME_ORDER_* */
	bool remembered;
};
/* Fills out with up to max drawables of the current floor: every actor the
 * player sees now and every corpse/item seen now or remembered, sorted by
 * order (ties in a fixed entity order), the player last of all. When there
 * are more than max, the lowest layers are left out first. Returns the
 * number written (never more than max). */
int game_drawables(const struct game *g, struct drawable *out, int max);

/* Message colours (0xRRGGBB). */
#define GAME_MSG_DEFAULT 0xFFFFFFu
#define GAME_MSG_WELCOME 0x20A0FFu
#define GAME_MSG_PLAYER_ATK 0xE0E0E0u
#define GAME_MSG_ENEMY_ATK 0xFFC0C0u
#define GAME_MSG_PLAYER_DIE 0xFF3030u
#define GAME_MSG_ENEMY_DIE 0xFFA030u
#define GAME_MSG_STAIRS 0x9F3FFFu
#define GAME_MSG_IMPOSSIBLE 0x808080u

/* The message log. An identical message logged right after itself is not
 * repeated: count goes up instead (shown as " (x3)"). The log keeps the
 * newest GAME_LOG_MAX messages. */
#define GAME_LOG_MAX 512
struct game_msg {
	char text[120];
	uint32_t fg;
	int count;
};
/* Number of messages kept (0..GAME_LOG_MAX). */
int game_msg_count(const struct game *g);
/* Message i, 0 = oldest kept, game_msg_count()-1 = newest; NULL out of range. */
const struct game_msg *game_msg_get(const struct game *g, int i);
/* Writes "text" or "text (xN)" for message m into buf (len > 0), truncating;
 * returns buf. */
const char *game_msg_format(const struct game_msg *m, char *buf, int len);

/* What the player sees or remembers at (x, y) of the current floor, for
 * look and mouse hover: names of the visible actors there, else remembered
 * corpses/items, written into buf ("orc", "remains of goblin", "player";
 * several joined by ", "). NULL when nothing is known to be there or when
 * (x, y) is off the map or never seen. */
const char *game_describe(const struct game *g, int x, int y, char *buf, int len);

#endif
