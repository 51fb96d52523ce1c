/* content: every number of the rules in one place (GAME.md §2, §5). */
#include "game/content.h"

const struct actor_def content_actors[ACTOR_COUNT] = {
	[ACTOR_PLAYER] = {.name = "player", .glyph = '@', .fg = 0xFFFFFF,
			  .hp = 30, .defense = 1, .power = 2, .xp = 0,
			  .start_power = 2 /* dagger */, .start_defense = 1 /* leather armour */},
	[ACTOR_GOBLIN] = {.name = "goblin", .glyph = 'g', .fg = 0x00C000,
			  .hp = 6, .defense = 0, .power = 2, .xp = 20},
	[ACTOR_ORC] = {.name = "orc", .glyph = 'o', .fg = 0x3F7F3F,
		       .hp = 10, .defense = 0, .power = 3, .xp = 35},
	[ACTOR_TROLL] = {.name = "troll", .glyph = 'T', .fg = 0x007F00,
			 .hp = 16, .defense = 1, .power = 4, .xp = 100},
};

const struct floor_table content_monster_weight[ACTOR_COUNT] = {
	[ACTOR_PLAYER] = {.n = 0},
	[ACTOR_GOBLIN] = {.n = 2, .step = {{1, 60}, {3, 0}}},
	[ACTOR_ORC] = {.n = 1, .step = {{1, 80}}},
	[ACTOR_TROLL] = {.n = 3, .step = {{3, 15}, {5, 30}, {7, 60}}},
};

const struct floor_table content_max_monsters_per_room = {.n = 3, .step = {{1, 2}, {4, 3}, {6, 5}}};
const struct floor_table content_max_items_per_room = {.n = 2, .step = {{1, 1}, {4, 2}}};

const struct rules content_rules = {
	.fov_radius = 8,
	.crowd_cost = 10,
	.xp_base = 200,
	.xp_per_level = 150,
	.start_level = 1,
	.corpse_glyph = '%',
	.corpse_fg = 0xBF0000,
	.player_corpse_fg = 0x8B0000,
};

int content_floor_value(const struct floor_table *t, int depth)
{
	int v = 0;
	for (int i = 0; i < t->n; i++)
		if (t->step[i].from <= depth)
			v = t->step[i].value;
	return v;
}
