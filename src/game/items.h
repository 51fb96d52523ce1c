/* items: the player's inventory, picking up, dropping, using items (potions, scrolls, targeting) and equipment. */
#ifndef PIROGUE_GAME_ITEMS_H
#define PIROGUE_GAME_ITEMS_H
#include <stdbool.h>

#include "game/world.h"

/* Puts a new item of kind into the player's first free slot (and equips it
 * when equip is true and it is equippable). Returns 0, -ENOSPC (inventory
 * full), -EINVAL, -ENOMEM. */
int items_give(struct game *g, int kind, bool equip);
/* The item in the player's inventory slot (0..25), or ECS_NULL. */
ecs_entity items_in_slot(const struct game *g, int slot);
/* True when item e is equipped by the player. */
bool items_equipped(const struct game *g, ecs_entity e);

/* Every command below returns 1 when it cost a turn, 0 when refused (the
 * refusal is logged, with GAME_MSG_IMPOSSIBLE). */

/* Picks up every item on the player's cell, in entity order, "You pick up
 * the dagger." ("the 3 health potions" for a stack) each: onto a carried
 * stack of its kind while stacks apply (docs/rules.md), else into a free
 * slot. What finds no room stays, with one "Your inventory is full." for
 * the command (before stacks: the first that finds none stops it); "There
 * is nothing here to pick up." */
int items_pickup(struct game *g);
/* Drops the item of slot on the player's cell, unequipping it first; of a
 * stack, one (a new item on the floor) or, all true, the whole stack. */
int items_drop(struct game *g, int slot, bool all);
/* Whether picking up item e would find room: a carried stack of its kind
 * (while stacks apply) or a free slot. */
bool items_room_for(const struct game *g, ecs_entity e);
/* How many items e stands for: its stack's count, 1 for a single item. */
int items_count(const struct game *g, ecs_entity e);
/* Merges every carried stackable item onto the first slot of its kind (the
 * later slots are emptied), for stacks starting in a game played without
 * them (struct game_opts stacks_from). Out of memory leaves what it could
 * not merge apart. */
void items_merge_all(struct game *g);
/* Uses the item of slot: consumables take effect (targeted ones at x, y) and
 * are used up; equipment toggles. Refusals are those of items_check. */
int items_use(struct game *g, int slot, int x, int y);
/* Whether items_use(g, slot, x, y) would be accepted: 0, or -1 with the
 * refusal message in why (len > 0). */
int items_check(const struct game *g, int slot, int x, int y, char *why, int len);
/* The nearest visible living monster within range (squared Euclidean
 * distance <= range * range; range < 0: any distance), ties to the lowest
 * entity index; ECS_NULL when none. */
ecs_entity items_nearest_monster(const struct game *g, int range);

#endif
