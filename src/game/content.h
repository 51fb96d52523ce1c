/* content: the game's numbers as const tables (actors, items, level-ups, spawn weights by floor, rule constants). */
#ifndef PIROGUE_GAME_CONTENT_H
#define PIROGUE_GAME_CONTENT_H
#include <stdbool.h>
#include <stdint.h>

#include "game/game.h"

/* A value that applies from floor `from` on (until a later step). */
struct floor_step {
	int from, value;
};
#define CONTENT_MAX_STEPS 4
struct floor_table {
	int n;
	struct floor_step step[CONTENT_MAX_STEPS];
};
/* Value of t on floor depth: the last step with from <= depth, else 0. */
int content_floor_value(const struct floor_table *t, int depth);

enum actor_kind { ACTOR_PLAYER, ACTOR_GOBLIN, ACTOR_ORC, ACTOR_TROLL, ACTOR_COUNT };

/* One kind of actor (GAME.md §2): base stats, without equipment. */
struct actor_def {
	const char *name; /* lowercase: "orc" */
	uint32_t glyph;
	uint32_t fg; /* 0xRRGGBB */
	int hp, defense, power, xp;
};
extern const struct actor_def content_actors[ACTOR_COUNT];
/* Name of actor kind ("orc"), "?" out of range. */
const char *content_actor_name(int kind);

enum item_kind {
	ITEM_HEALTH_POTION,
	ITEM_CONFUSION_SCROLL,
	ITEM_PARALYSIS_SCROLL,
	ITEM_LIGHTNING_SCROLL,
	ITEM_FIREBALL_SCROLL,
	ITEM_DAGGER,
	ITEM_SWORD,
	ITEM_LEATHER_ARMOUR,
	ITEM_CHAIN_MAIL,
	ITEM_COUNT
};

/* What using an item does. */
enum item_effect {
	EFFECT_HEAL,      /* amount HP, refused at full HP */
	EFFECT_LIGHTNING, /* amount damage to the nearest visible monster within range */
	EFFECT_CONFUSE,   /* a chosen visible monster confused for amount turns */
	EFFECT_PARALYSE,  /* a chosen visible monster paralysed for amount turns */
	EFFECT_FIREBALL,  /* amount damage to every actor within radius of a chosen visible cell */
	EFFECT_EQUIP      /* toggles it in its equipment slot */
};

/* One kind of item (GAME.md §4). */
struct item_def {
	const char *name; /* lowercase: "health potion" */
	const char *plural; /* "health potions": several of a stack */
	bool stacks;        /* identical ones share a slot (potions, scrolls) */
	uint32_t glyph;
	uint32_t fg;
	int effect;      /* enum item_effect */
	int target;      /* enum target_kind: what CMD_USE needs */
	int amount;      /* HP healed, damage, or turns */
	int range;       /* EFFECT_LIGHTNING: reach (Euclidean, cells) */
	int radius;      /* EFFECT_FIREBALL: area (Euclidean, cells) */
	int slot;        /* EFFECT_EQUIP: enum equip_slot */
	int power_bonus, defense_bonus;
	struct floor_table weight; /* spawn weight by floor (none: never placed) */
};
extern const struct item_def content_items[ITEM_COUNT];
/* Name of item kind, "?" out of range. */
const char *content_item_name(int kind);

/* The items the player starts with, carried and equipped (GAME.md §2). */
#define CONTENT_START_ITEMS 2
extern const int content_start_items[CONTENT_START_ITEMS];

/* One level-up choice (GAME.md §5). */
struct levelup_def {
	const char *label; /* for the level-up screen: "+20 max HP" */
	const char *msg;   /* logged when chosen */
	int max_hp, heal, power, defense;
};
extern const struct levelup_def content_levelups[LEVELUP_COUNT];


/* GAME.md §5 spawn tables. */
extern const struct floor_table content_monster_weight[ACTOR_COUNT]; /* player: none */
extern const struct floor_table content_max_monsters_per_room;
extern const struct floor_table content_max_items_per_room;

/* Every other number the rules use. */
struct rules {
	int fov_radius;       /* player's and monsters' view radius */
	int crowd_cost;       /* path cost of entering a cell held by a monster */
	int xp_base, xp_per_level; /* XP to next level = base + level * per_level */
	int start_level;
	uint32_t corpse_glyph, corpse_fg;
	uint32_t player_corpse_fg;
};
extern const struct rules content_rules;

#endif
