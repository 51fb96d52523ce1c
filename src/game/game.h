/* game: the rules engine's public face: one game state driven by commands, read back for drawing. */
#ifndef PIROGUE_GAME_GAME_H
#define PIROGUE_GAME_GAME_H
#include <stdbool.h>
#include <stdint.h>

#include "game/map.h"
#include "game/mapgen.h"

struct game; /* opaque */
struct history;    /* game/history.h */
struct hist_store; /* game/history.h */

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
	CMD_USE,      /* use inventory slot `item`; a targeted item needs x, y */
	CMD_DROP,     /* drop inventory slot `item` (unequips it first); choice
		       * GAME_DROP_ALL drops a whole stack, else one of it */
	CMD_LEVEL_UP, /* choice = enum levelup_choice */
	CMD_COUNT
};

/* The choices of a level-up (GAME.md §5); their numbers are in
 * content_levelups. */
enum levelup_choice { LEVELUP_HP, LEVELUP_POWER, LEVELUP_DEFENSE, LEVELUP_COUNT };

/* A command with its arguments. Unused fields: item = -1, x = y = -1,
 * choice = -1 (game_do stores them so in the history, whatever was given). */
struct command {
	enum cmd c;
	int item;   /* CMD_USE, CMD_DROP: inventory slot 0..25 (letter a..z) */
	int x, y;   /* CMD_USE of a targeted item: the chosen cell */
	int choice; /* CMD_LEVEL_UP: enum levelup_choice; CMD_DROP: GAME_DROP_ALL or -1 */
};
/* CMD_DROP's choice for a whole stack (any other value drops one). */
#define GAME_DROP_ALL 1

/* Stable lowercase name of c for recordings ("none", "move_n", "move_ne",
 * ..., "wait", "pickup", "descend", "ascend", "use", "drop", "levelup");
 * "?" for a value out of range. */
const char *cmd_name(enum cmd c);
/* Parses a name given by cmd_name into *out. Returns 0, or -EINVAL for an
 * unknown name or NULL (then *out is untouched). */
int cmd_parse(const char *name, enum cmd *out);

/* Options of a new game. */
struct game_opts {
	uint64_t seed;
	enum mapgen_kind mapgen;
	int map_w, map_h; /* every floor's size; 0, 0: MAP_W x MAP_H (80 x 43) */
	/* Stacks (docs/rules.md): identical potions and scrolls share a slot
	 * from the moment the history holds stacks_from commands (then what is
	 * carried is merged); 0: from the start (every new game);
	 * GAME_STACKS_NEVER: never (a game of a recording or save made before
	 * stacks, replayed exactly as it was played). */
	int stacks_from;
};
#define GAME_STACKS_NEVER (-1)

/* Starts a new game from o: floor 1 generated, the player on it, FOV done,
 * a welcome message logged. Returns 0 with *out set, -EINVAL for a bad
 * mapgen or a size map_size_ok refuses, -ENOMEM. */
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
/* The general form of game_apply: applies cmd with its arguments and returns
 * the same (1 = a turn passed, 0 = none). Every command given is appended to
 * the history (game_history), also those that cost nothing; a command that
 * cannot be recorded (out of memory, logged) is not applied and returns 0.
 * While a level-up is pending every command but CMD_LEVEL_UP does nothing.
 * CMD_LEVEL_UP itself costs no turn. cmd NULL: returns 0. */
int game_do(struct game *g, const struct command *cmd);
/* Every command given since the seed, in order (with arguments normalised:
 * unused fields -1): count them with hist_count, read them in chunks with
 * hist_begin and hist_next (game/history.h). Replaying them from the seed
 * gives the same game. A reader of it is valid until the next game_do. */
const struct history *game_history(const struct game *g);
/* Gives g's history a store for its older commands, so that memory holds
 * only the newest block (HIST_BLOCK) of them, at any game length: see
 * hist_set_store (same returns). Without one the history grows in memory
 * (demo games, tests, replays). */
int game_set_history_store(struct game *g, const struct hist_store *s);
/* While true the player must choose a level-up (CMD_LEVEL_UP): every other
 * command costs nothing and does nothing. */
bool game_levelup_pending(const struct game *g);
/* True once the player has died; the game then takes no more turns. */
bool game_is_over(const struct game *g);
/* A 64-bit hash of the whole game state (every floor's tiles and memory,
 * every entity and component, the RNG, the turn and depth, the log), built
 * from integers only, so it is the same on every CPU and compiler. Two games
 * given the same seed and commands have the same checksum after every turn. */
uint64_t game_checksum(const struct game *g);
/* A 64-bit digest of the same state as game_checksum (every value it
 * hashes), the same on every CPU but another value (not the recordings'
 * checksum): two games that differ in one hashed value always have
 * different digests. It is kept up to date as the game goes (game/digest.h:
 * a sum per floor, per component pool and for the log, of parts of which a
 * turn changes few), so after the first one a digest costs about what the
 * turn changed; before the first, nothing is kept. pirogue --watch compares
 * it after every batch. Writes to a floor's cells must go through map_set
 * and map_update_fov (or be followed by map_changed), to the log through
 * world_msg; components only through ecs_get_mut, ecs_add or
 * ecs_pool_view_mut (which mark what they hand out: ecs_track_writes).
 * Equals game_digest_full. */
uint64_t game_digest(const struct game *g);
/* The same value made from scratch, reading the whole state (the check of
 * game_digest's bookkeeping). */
uint64_t game_digest_full(const struct game *g);
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
 * level is reached (xp is counted from the last level-up). power and
 * defense include the equipment; base_power and base_defense do not. */
struct game_stats {
	int hp, max_hp, power, defense, level, xp, xp_next, depth, turn;
	int base_power, base_defense;
};
/* Fills *s with the player's current numbers (the game must have a player). */
void game_stats(const struct game *g, struct game_stats *s);

/* Cause of death for the game-over screen and the morgue ("killed by a
 * troll", "killed by your own fireball"); "" while alive. */
const char *game_death_cause(const struct game *g);
/* How many monsters of actor kind (enum actor_kind) the player has killed
 * (melee and spells); 0 for a kind out of range. content_actors names them. */
int game_kills(const struct game *g, int kind);

/* ---- inventory and targeting ---- */

/* What CMD_USE of an item needs besides its slot. */
enum target_kind {
	TARGET_NONE,    /* nothing (potion, lightning, equipment) */
	TARGET_MONSTER, /* a visible monster's cell (confusion, paralysis) */
	TARGET_CELL     /* a visible cell, with an area of `radius` (fireball) */
};
/* One carried item as the inventory screens show it. */
struct game_item_view {
	int slot; /* 0..25 (letter 'a' + slot) */
	uint32_t glyph, fg;
	char name[32]; /* "health potion" */
	bool equipped;
	int kind;                /* enum item_kind */
	enum target_kind target; /* what CMD_USE of it needs */
	int radius;              /* TARGET_CELL: the area's radius (fireball 3), else 0 */
	int count;               /* how many (a stack: 2 or more), 1 for one */
	char label[48];          /* "dagger", "3 health potions" */
};
/* Fills out with up to max carried items in slot order; returns how many. */
int game_inventory(const struct game *g, struct game_item_view *out, int max);
/* Whether CMD_USE of slot at (x, y) would be accepted now (x, y matter only
 * for targeted items): 0, or -1 with the refusal message the game would log
 * written into why (len > 0; "You cannot target an area that you cannot
 * see.", "Your health is already full.", ...). */
int game_target_check(const struct game *g, int slot, int x, int y, char *why, int len);
/* The nearest visible living monster to the player (squared Euclidean
 * distance, ties to the oldest entity): 0 with its cell in *x, *y, or -1 when
 * none is visible (then *x, *y are untouched). */
int game_nearest_monster(const struct game *g, int *x, int *y);

/* ---- auto-explore and travel ---- */

/* The next step of auto-explore, without applying it: toward the nearest
 * explored walkable cell next to an unexplored one, over known walkable
 * cells. Returns 1 with *step set (a move), or 0 with the reason to stop in
 * why (len > 0): "You see an orc." (a monster in view), "You see a health
 * potion." (an item first seen by the last command), "Your health is below
 * half." (HP fell below half during the last command), "Explored this
 * floor." (nothing reachable is left). A stop for an event (item, HP) is
 * given once: asked again before any other command, it goes on (so pressing
 * the key again continues); this memory is scratch, not game state. */
int game_explore_step(const struct game *g, struct command *step, char *why, int len);
/* The classes of items auto-pickup may gather (a set of bits). */
enum {
	GAME_PICKUP_POTIONS = 1,
	GAME_PICKUP_SCROLLS = 2,
	GAME_PICKUP_WEAPONS = 4,
	GAME_PICKUP_ARMOUR = 8,
	GAME_PICKUP_ALL = 15
};
/* Auto-pickup's default: potions and scrolls, not weapons or armour. */
#define GAME_PICKUP_DEFAULT (GAME_PICKUP_POTIONS | GAME_PICKUP_SCROLLS)
/* The class (GAME_PICKUP_*) of item kind (enum item_kind); 0 out of range. */
unsigned game_pickup_class(int kind);
/* Parses an auto-pickup setting: a comma list of potions, scrolls, weapons,
 * armour (or armor), all, none, into *out (GAME_PICKUP_* bits). Returns 0,
 * or -EINVAL (nothing set) for an empty list, an empty item or another word. */
int game_pickup_parse(const char *s, unsigned *out);
/* game_explore_step with auto-pickup of the classes in pickup (GAME_PICKUP_*
 * bits; 0 is game_explore_step): an item of those classes that the player
 * remembers lying on this floor, has room for and did not put down himself
 * is walked to (the nearest first, over known cells) and picked up (the step
 * is CMD_PICKUP on its cell) before exploring goes on; its first sight is no
 * stop. One of those classes without room stops once, when first seen, as
 * other items do, saying so ("You see a sword. Your inventory is full.").
 * The stops for monsters and HP are game_explore_step's. */
int game_explore_pickup_step(const struct game *g, unsigned pickup, struct command *step, char *why, int len);
/* Travel to the known down (down = true) or up stairs: same returns and
 * stops as game_explore_step (monsters, HP; not items). 0 with "You don't
 * know where the stairs are." when they were never seen (no turn: the step is
 * only proposed), "There are no stairs up on this floor." on floor 1, "You
 * are on the stairs." when already there (the stairs command takes them),
 * "You know no way to the stairs." when no known cells lead there. */
int game_travel_step(const struct game *g, bool down, struct command *step, char *why, int len);

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
	/* what it is, for a picture of it: a living actor's enum actor_kind
	 * (else -1), an item's enum item_kind (else -1), a corpse; a
	 * monster's GAME_STATUS_* bits */
	int8_t actor, item;
	bool corpse;
	uint8_t status;
};
#define GAME_STATUS_CONFUSED 1u
#define GAME_STATUS_PARALYSED 2u
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
#define GAME_MSG_ITEM 0xD0D0FFu     /* picking up, dropping, equipping */
#define GAME_MSG_HEAL 0x00FF60u     /* potion, level-up health */
#define GAME_MSG_MAGIC 0x3FBFFFu    /* scroll effects */
#define GAME_MSG_LEVEL_UP 0xFFFF40u /* reaching a level, the choice */

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
/* A number that changes whenever the game writes to its log (a message
 * added, or the newest one's count raised; it wraps): the same number on
 * the same game, the same log. */
uint32_t game_msg_seq(const struct game *g);
/* Writes "text" or "text (xN)" for message m into buf (len > 0), truncating;
 * returns buf. */
const char *game_msg_format(const struct game_msg *m, char *buf, int len);

/* What the player sees or remembers at (x, y) of the current floor, for
 * look and mouse hover: names of the visible actors there ("confused orc",
 * "paralysed troll" while under a scroll), then the corpses and items seen
 * or remembered there, written into buf ("orc", "remains of goblin, health
 * potion", "you" for the player; joined by ", "). NULL when nothing is known to be there
 * or when (x, y) is off the map or never seen. */
const char *game_describe(const struct game *g, int x, int y, char *buf, int len);

#endif
