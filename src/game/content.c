/* content: every number of the rules in one place (GAME.md §2, §4, §5). */
#include "game/content.h"

#include "game/components.h"

const struct actor_def content_actors[ACTOR_COUNT] = {
	[ACTOR_PLAYER] = {.name = "player", .glyph = '@', .fg = 0xFFFFFF,
			  .hp = 30, .defense = 1, .power = 2, .xp = 0},
	[ACTOR_GOBLIN] = {.name = "goblin", .glyph = 'g', .fg = 0x00C000,
			  .hp = 6, .defense = 0, .power = 2, .xp = 20},
	[ACTOR_ORC] = {.name = "orc", .glyph = 'o', .fg = 0x3F7F3F,
		       .hp = 10, .defense = 0, .power = 3, .xp = 35},
	[ACTOR_TROLL] = {.name = "troll", .glyph = 'T', .fg = 0x007F00,
			 .hp = 16, .defense = 1, .power = 4, .xp = 100},
};

const char *content_actor_name(int kind)
{
	return kind >= 0 && kind < ACTOR_COUNT ? content_actors[kind].name : "?";
}

const struct item_def content_items[ITEM_COUNT] = {
	[ITEM_HEALTH_POTION] = {.name = "health potion", .plural = "health potions", .stacks = true, .glyph = '!', .fg = 0x7F00FF,
				.effect = EFFECT_HEAL, .target = TARGET_NONE, .amount = 4,
				.weight = {.n = 1, .step = {{1, 35}}}},
	[ITEM_CONFUSION_SCROLL] = {.name = "confusion scroll", .plural = "confusion scrolls", .stacks = true, .glyph = '~', .fg = 0xCF3FFF,
				   .effect = EFFECT_CONFUSE, .target = TARGET_MONSTER, .amount = 10,
				   .weight = {.n = 1, .step = {{2, 10}}}},
	[ITEM_PARALYSIS_SCROLL] = {.name = "paralysis scroll", .plural = "paralysis scrolls", .stacks = true, .glyph = '~', .fg = 0x3F9FFF,
				   .effect = EFFECT_PARALYSE, .target = TARGET_MONSTER, .amount = 5,
				   .weight = {.n = 1, .step = {{3, 10}}}},
	[ITEM_LIGHTNING_SCROLL] = {.name = "lightning scroll", .plural = "lightning scrolls", .stacks = true, .glyph = '~', .fg = 0xFFFF00,
				   .effect = EFFECT_LIGHTNING, .target = TARGET_NONE, .amount = 20, .range = 5,
				   .weight = {.n = 1, .step = {{4, 25}}}},
	[ITEM_FIREBALL_SCROLL] = {.name = "fireball scroll", .plural = "fireball scrolls", .stacks = true, .glyph = '~', .fg = 0xFF0000,
				  .effect = EFFECT_FIREBALL, .target = TARGET_CELL, .amount = 12, .radius = 3,
				  .weight = {.n = 1, .step = {{6, 25}}}},
	[ITEM_DAGGER] = {.name = "dagger", .plural = "daggers", .glyph = '/', .fg = 0x00BFFF,
			 .effect = EFFECT_EQUIP, .slot = EQUIP_WEAPON, .power_bonus = 2},
	[ITEM_SWORD] = {.name = "sword", .plural = "swords", .glyph = '/', .fg = 0x00BFFF,
			.effect = EFFECT_EQUIP, .slot = EQUIP_WEAPON, .power_bonus = 4,
			.weight = {.n = 1, .step = {{4, 5}}}},
	[ITEM_LEATHER_ARMOUR] = {.name = "leather armour", .plural = "suits of leather armour", .glyph = '[', .fg = 0x8B4513,
				 .effect = EFFECT_EQUIP, .slot = EQUIP_ARMOUR, .defense_bonus = 1},
	[ITEM_CHAIN_MAIL] = {.name = "chain mail", .plural = "suits of chain mail", .glyph = '[', .fg = 0x8B4513,
			     .effect = EFFECT_EQUIP, .slot = EQUIP_ARMOUR, .defense_bonus = 3,
			     .weight = {.n = 1, .step = {{6, 15}}}},
};

const char *content_item_name(int kind)
{
	return kind >= 0 && kind < ITEM_COUNT ? content_items[kind].name : "?";
}

const int content_start_items[CONTENT_START_ITEMS] = {ITEM_DAGGER, ITEM_LEATHER_ARMOUR};

const struct levelup_def content_levelups[LEVELUP_COUNT] = {
	[LEVELUP_HP] = {.label = "Constitution (+20 max HP, heal 20)", .msg = "Your health improves!",
			.max_hp = 20, .heal = 20},
	[LEVELUP_POWER] = {.label = "Strength (+1 power)", .msg = "You feel stronger!", .power = 1},
	[LEVELUP_DEFENSE] = {.label = "Agility (+1 defence)", .msg = "Your movements are getting swifter!",
			     .defense = 1},
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
