/* savecraft: crafted games for the save tests: each breaks one invariant of docs/save.md (or sits at a limit), saved with the game's own encoder. */
#ifndef PIROGUE_SAVECRAFT_H
#define PIROGUE_SAVECRAFT_H
#include <stdio.h>
#include <string.h>

#include "game/items.h"
#include "game/limits.h"
#include "game/serial.h"
#include "game/world.h"
#include "save/save.h"

/* One crafted game: made from a fresh game (seed SAVECRAFT_SEED, classic
 * floors, the player carrying his dagger and leather armour, equipped, and
 * a health potion in slot c) by make; refused names a part of the line a
 * load must refuse it with, NULL when it must load (and then play on and
 * save again to a file that loads). tools/craft-saves writes each as
 * tests/saves/crafted/NAME.sav. */
struct savecraft {
	const char *name;
	const char *what;
	void (*make)(struct game *g);
	const char *refused;
};

#define SAVECRAFT_SEED 7
#define SAVECRAFT_POTION_SLOT 2

static inline struct c_inventory *savecraft_inv(struct game *g)
{
	return ecs_get_mut(g->w, g->player, COMP_INVENTORY);
}

/* issue 21.1: 'g' picked the player himself up */
static inline void savecraft_player_item(struct game *g)
{
	struct c_item it = {.kind = ITEM_HEALTH_POTION};
	ecs_add(g->w, g->player, COMP_ITEM, &it);
}

/* issue 21.2: 'i' and 'd' read its look through NULL */
static inline void savecraft_carried_no_render(struct game *g)
{
	ecs_remove(g->w, savecraft_inv(g)->slot[SAVECRAFT_POTION_SLOT], COMP_RENDER);
}

/* issue 21.3: quaffed, it left the other slot naming a dead entity */
static inline void savecraft_item_two_slots(struct game *g)
{
	struct c_inventory *inv = savecraft_inv(g);
	inv->slot[SAVECRAFT_POTION_SLOT + 1] = inv->slot[SAVECRAFT_POTION_SLOT];
	inv->count++;
}

/* issue 21.3: quaffed, it left the weapon slot naming a dead entity */
static inline void savecraft_potion_weapon(struct game *g)
{
	struct c_equipment *eq = ecs_get_mut(g->w, g->player, COMP_EQUIPMENT);
	eq->slot[EQUIP_WEAPON] = savecraft_inv(g)->slot[SAVECRAFT_POTION_SLOT];
}

/* issue 18.1: a stack's count is 2 or more, of potions and scrolls only */
static inline void savecraft_stack_of_one(struct game *g)
{
	struct c_stack st = {.n = 1};
	ecs_add(g->w, savecraft_inv(g)->slot[SAVECRAFT_POTION_SLOT], COMP_STACK, &st);
}

static inline void savecraft_stack_of_daggers(struct game *g)
{
	struct c_stack st = {.n = 3};
	ecs_add(g->w, savecraft_inv(g)->slot[0], COMP_STACK, &st);
}

/* A stack of 40 potions: loads. */
static inline void savecraft_stack_of_forty(struct game *g)
{
	struct c_stack st = {.n = 40};
	ecs_add(g->w, savecraft_inv(g)->slot[SAVECRAFT_POTION_SLOT], COMP_STACK, &st);
}

/* issue 21.3: just under the old limit of every number (1 << 24):
 * 150 * level overflowed in combat_xp_next */
static inline void savecraft_level_xp_huge(struct game *g)
{
	struct c_player *pl = ecs_get_mut(g->w, g->player, COMP_PLAYER);
	pl->level = (1 << 24) - 1;
	pl->xp = (1 << 24) - 1;
}

/* Level and XP at their limits (docs/save.md): loads, and play keeps them
 * there (no level-up past GAME_LEVEL_MAX, XP saturates). */
static inline void savecraft_level_xp_at_limit(struct game *g)
{
	struct c_player *pl = ecs_get_mut(g->w, g->player, COMP_PLAYER);
	pl->level = GAME_LEVEL_MAX;
	pl->xp = GAME_XP_MAX;
}

/* issue 21.3: the next turn was past what a load accepted */
static inline void savecraft_turn_at_limit(struct game *g)
{
	g->turn = GAME_TURN_MAX - 1;
}

/* A message repeated INT_MAX times: once more overflowed its count. */
static inline void savecraft_log_repeat_max(struct game *g)
{
	struct game_msg *m = &g->log[(g->log_start + g->log_count - 1) % GAME_LOG_MAX];
	m->count = 0x7fffffff;
}

/* A name that would send the terminal an escape sequence. */
static inline void savecraft_name_escape(struct game *g)
{
	struct c_name *n = ecs_get_mut(g->w, savecraft_inv(g)->slot[SAVECRAFT_POTION_SLOT], COMP_NAME);
	snprintf(n->s, sizeof n->s, "\x1b]0;owned\x07potion");
}

/* A monster holding an inventory (only the player carries). */
static inline void savecraft_monster_inventory(struct game *g)
{
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_AI));
	ecs_entity e;
	if (ecs_query_next(&q, &e))
		ecs_add(g->w, e, COMP_INVENTORY, NULL);
}

/* A monster hunting the player at no place (-1, -1; found by the
 * save_sections fuzzer: its distance map was indexed at -81). */
static inline void savecraft_monster_hunts_nowhere(struct game *g)
{
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_AI));
	ecs_entity e;
	if (ecs_query_next(&q, &e)) {
		struct c_ai *ai = ecs_get_mut(g->w, e, COMP_AI);
		*ai = (struct c_ai){.state = AI_HUNTING, .last_x = -1, .last_y = -1};
	}
}

/* A carried item listed in no slot. */
static inline void savecraft_item_in_no_slot(struct game *g)
{
	struct c_inventory *inv = savecraft_inv(g);
	inv->slot[SAVECRAFT_POTION_SLOT] = ECS_NULL;
	inv->count--;
}

/* Hit points above the maximum. */
static inline void savecraft_hp_over_max(struct game *g)
{
	struct c_actor *a = ecs_get_mut(g->w, g->player, COMP_ACTOR);
	a->hp = a->max_hp + 1;
}

static const struct savecraft savecraft_all[] = {
	{"player-item", "the player is also an item", savecraft_player_item, "the player"},
	{"carried-no-render", "a carried potion has no look", savecraft_carried_no_render, "item"},
	{"item-two-slots", "one potion in slots c and d", savecraft_item_two_slots, "slot"},
	{"potion-weapon", "a potion in the weapon slot", savecraft_potion_weapon, "weapon"},
	{"level-xp-huge", "level and XP just under 1 << 24", savecraft_level_xp_huge, "level"},
	{"level-xp-at-limit", "level and XP at their limits", savecraft_level_xp_at_limit, NULL},
	{"turn-at-limit", "the turn one under its limit", savecraft_turn_at_limit, NULL},
	{"log-repeat-max", "a message repeated INT_MAX times", savecraft_log_repeat_max, "message"},
	{"name-escape", "an item's name holds control bytes", savecraft_name_escape, "name"},
	{"monster-inventory", "a monster carries an inventory", savecraft_monster_inventory, "monster"},
	{"monster-hunts-nowhere", "a monster hunts the player at -1,-1", savecraft_monster_hunts_nowhere, "mind"},
	{"item-in-no-slot", "a carried potion in no slot", savecraft_item_in_no_slot, "slot"},
	{"hp-over-max", "the player's HP above its maximum", savecraft_hp_over_max, "hit points"},
	{"stack-of-one", "a stack counting one potion", savecraft_stack_of_one, "stack"},
	{"stack-of-daggers", "three daggers in a stack", savecraft_stack_of_daggers, "stack"},
	{"stack-of-forty", "forty potions in one slot", savecraft_stack_of_forty, NULL},
};
#define SAVECRAFT_COUNT (int)(sizeof savecraft_all / sizeof savecraft_all[0])

/* The fresh game every crafted one starts from: 0 or -errno. */
static inline int savecraft_base(struct game **g)
{
	struct game_opts o = {.seed = SAVECRAFT_SEED, .mapgen = MAPGEN_CLASSIC};
	int rc = game_create(g, &o);
	if (rc)
		return rc;
	rc = items_give(*g, ITEM_HEALTH_POTION, false);
	if (!rc && items_in_slot(*g, SAVECRAFT_POTION_SLOT) == ECS_NULL)
		rc = -EINVAL;
	if (rc)
		game_destroy(*g);
	return rc;
}

/* The save file of crafted game c into out (zeroed before): 0 or -errno. */
static inline int savecraft_encode(const struct savecraft *c, struct serial_buf *out)
{
	struct game *g;
	int rc = savecraft_base(&g);
	if (rc)
		return rc;
	c->make(g);
	rc = save_encode(g, out);
	game_destroy(g);
	return rc;
}

#endif
