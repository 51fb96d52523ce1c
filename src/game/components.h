/* components: the game's component structs (plain data, stored in the ECS) and their type ids. */
#ifndef PIROGUE_GAME_COMPONENTS_H
#define PIROGUE_GAME_COMPONENTS_H
#include <stdint.h>

#include "ecs/ecs.h"
#include "game/content.h"

/* Component type ids; registered in this order, so they equal the ECS ids. */
enum comp {
	COMP_POS,        /* struct c_pos: on a floor */
	COMP_RENDER,     /* struct c_render */
	COMP_NAME,       /* struct c_name */
	COMP_ACTOR,      /* struct c_actor: a living fighter */
	COMP_AI,         /* struct c_ai: a monster's mind */
	COMP_BLOCKS,     /* struct c_blocks: nothing else may enter its cell */
	COMP_CORPSE,     /* struct c_corpse */
	COMP_XP,         /* struct c_xp: experience given when killed */
	COMP_PLAYER,     /* struct c_player: exactly one entity */
	COMP_MEMORY,     /* struct c_memory: where the player last saw it */
	COMP_ITEM,       /* struct c_item: can be picked up */
	COMP_INVENTORY,  /* struct c_inventory: carries items */
	COMP_EQUIPPABLE, /* struct c_equippable: can be equipped */
	COMP_EQUIPMENT,  /* struct c_equipment: wears items */
	COMP_STACK,      /* struct c_stack: an item that is several (potions, scrolls) */
	COMP_DROPPED,    /* struct c_dropped: an item the player put down (auto-pickup leaves it) */
	COMP_COUNT
};

struct c_pos {
	int x, y;
	int floor; /* depth, 1-based */
};

struct c_render {
	uint32_t glyph; /* Unicode code point */
	uint32_t fg;    /* 0xRRGGBB */
	int order;      /* GAME_ORDER_* */
};

#define NAME_LEN 32
struct c_name {
	char s[NAME_LEN]; /* lowercase, "remains of orc" */
};

/* Base stats; equipment bonuses are added by combat_power/defense. */
struct c_actor {
	int kind; /* enum actor_kind */
	int hp, max_hp, power, defense;
};

enum ai_state { AI_IDLE, AI_HUNTING };
struct c_ai {
	int state;          /* enum ai_state */
	int last_x, last_y; /* where it last saw the player (AI_HUNTING) */
	int confused;       /* turns left moving at random */
	int paralysed;      /* turns left doing nothing */
};

struct c_blocks {
	uint8_t on;
};

struct c_corpse {
	int kind; /* enum actor_kind of the dead */
};

struct c_xp {
	int value;
};

#define CAUSE_LEN 48
struct c_player {
	int level;
	int xp;                 /* counted from the last level-up */
	int kills[ACTOR_COUNT]; /* monsters killed by the player, by enum actor_kind */
	char cause[CAUSE_LEN];  /* cause of death ("killed by a troll"), "" while alive */
};

/* The player's memory of a thing that stays drawn when out of view. */
struct c_memory {
	int x, y;
	uint8_t known;
};

/* An item lies on a floor (COMP_POS) or is carried (listed in exactly one
 * c_inventory, no COMP_POS). kind indexes content_items. */
struct c_item {
	int kind;     /* enum item_kind */
	uint8_t seen; /* the player has seen it at least once */
};

/* An item that stands for n >= 2 identical ones (a stack, docs/rules.md);
 * an item without it is one. Only kinds whose item_def has stacks. */
struct c_stack {
	int n;
};

/* An item the player dropped: auto-explore does not pick it up again (it is
 * removed when he picks it up himself). Only in games with stacks. */
struct c_dropped {
	uint8_t by_player; /* 1 */
};

#define INVENTORY_SLOTS 26
struct c_inventory {
	int count;
	ecs_entity slot[INVENTORY_SLOTS]; /* a..z; ECS_NULL = empty */
};

enum equip_slot { EQUIP_WEAPON, EQUIP_ARMOUR, EQUIP_SLOT_COUNT };
struct c_equippable {
	int slot; /* enum equip_slot */
	int power_bonus, defense_bonus;
};

struct c_equipment {
	ecs_entity slot[EQUIP_SLOT_COUNT]; /* ECS_NULL = nothing equipped */
};

#endif
