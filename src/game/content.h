/* content: the game's numbers as const tables (actors, spawn weights by floor, rule constants). */
#ifndef PIROGUE_GAME_CONTENT_H
#define PIROGUE_GAME_CONTENT_H
#include <stdint.h>

enum actor_kind { ACTOR_PLAYER, ACTOR_GOBLIN, ACTOR_ORC, ACTOR_TROLL, ACTOR_COUNT };

/* One kind of actor (GAME.md §2). start_power/start_defense are the bonuses
 * of the equipment the kind starts with (the player's dagger and leather
 * armour) until the items issue gives them as real items. */
struct actor_def {
	const char *name; /* lowercase: "orc" */
	uint32_t glyph;
	uint32_t fg; /* 0xRRGGBB */
	int hp, defense, power, xp;
	int start_power, start_defense;
};
extern const struct actor_def content_actors[ACTOR_COUNT];

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

/* GAME.md §5 spawn tables. */
extern const struct floor_table content_monster_weight[ACTOR_COUNT]; /* player: none */
extern const struct floor_table content_max_monsters_per_room;
extern const struct floor_table content_max_items_per_room; /* for the items issue */

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
