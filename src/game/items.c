/* items: inventory, pick up, drop, use, targeting and equipment (GAME.md §4). */
#include "game/items.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/combat.h"

/* Refusal messages (docs/rules.md lists them). */
#define MSG_NO_ITEM "You have no item in that slot."
#define MSG_UNSEEN "You cannot target an area that you cannot see."
#define MSG_NO_ENEMY "You must select an enemy to target."
#define MSG_FULL_HP "Your health is already full."
#define MSG_TOO_FAR "No enemy is close enough to strike."

ecs_entity items_in_slot(const struct game *g, int slot)
{
	const struct c_inventory *inv = ecs_get(g->w, g->player, COMP_INVENTORY);
	if (!inv || slot < 0 || slot >= INVENTORY_SLOTS)
		return ECS_NULL;
	return ecs_alive(g->w, inv->slot[slot]) ? inv->slot[slot] : ECS_NULL;
}

bool items_equipped(const struct game *g, ecs_entity e)
{
	const struct c_equipment *eq = ecs_get(g->w, g->player, COMP_EQUIPMENT);
	for (int s = 0; eq && e != ECS_NULL && s < EQUIP_SLOT_COUNT; s++)
		if (eq->slot[s] == e)
			return true;
	return false;
}

/* Puts e (no COMP_POS any more) into the first free slot. -ENOSPC when full. */
static int inventory_add(struct game *g, ecs_entity e)
{
	struct c_inventory *inv = ecs_get(g->w, g->player, COMP_INVENTORY);
	if (!inv)
		return -EINVAL;
	for (int s = 0; s < INVENTORY_SLOTS; s++) {
		if (inv->slot[s] == ECS_NULL) {
			inv->slot[s] = e;
			inv->count++;
			return 0;
		}
	}
	return -ENOSPC;
}

static void inventory_remove(struct game *g, int slot)
{
	struct c_inventory *inv = ecs_get(g->w, g->player, COMP_INVENTORY);
	if (inv && inv->slot[slot] != ECS_NULL) {
		inv->slot[slot] = ECS_NULL;
		inv->count--;
	}
}

static void equip(struct game *g, ecs_entity e)
{
	struct c_equipment *eq = ecs_get(g->w, g->player, COMP_EQUIPMENT);
	const struct c_equippable *it = ecs_get(g->w, e, COMP_EQUIPPABLE);
	if (!eq || !it)
		return;
	ecs_entity old = eq->slot[it->slot];
	if (old != ECS_NULL && old != e)
		world_msg(g, GAME_MSG_ITEM, "You remove the %s.", world_name(g, old));
	eq->slot[it->slot] = e;
	world_msg(g, GAME_MSG_ITEM, "You equip the %s.", world_name(g, e));
}

static void unequip(struct game *g, ecs_entity e)
{
	struct c_equipment *eq = ecs_get(g->w, g->player, COMP_EQUIPMENT);
	for (int s = 0; eq && s < EQUIP_SLOT_COUNT; s++) {
		if (eq->slot[s] == e) {
			eq->slot[s] = ECS_NULL;
			world_msg(g, GAME_MSG_ITEM, "You remove the %s.", world_name(g, e));
		}
	}
}

int items_give(struct game *g, int kind, bool equip_it)
{
	ecs_entity e;
	int rc = world_spawn_item(g, kind, 0, 0, 0, &e);
	if (rc)
		return rc;
	ecs_remove(g->w, e, COMP_POS);
	struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
	it->seen = 1;
	rc = inventory_add(g, e);
	if (rc) {
		ecs_destroy(g->w, e);
		return rc;
	}
	const struct c_equippable *eqp = ecs_get(g->w, e, COMP_EQUIPPABLE);
	struct c_equipment *eq = ecs_get(g->w, g->player, COMP_EQUIPMENT);
	if (equip_it && eqp && eq)
		eq->slot[eqp->slot] = e;
	return 0;
}

static int cmp_index(const void *a, const void *b)
{
	uint32_t x = ECS_INDEX(*(const ecs_entity *)a), y = ECS_INDEX(*(const ecs_entity *)b);
	return x < y ? -1 : x > y;
}

int items_pickup(struct game *g)
{
	const struct c_pos *pp = ecs_get(g->w, g->player, COMP_POS);
	ecs_entity here[64];
	int n = 0;
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_POS) | ECS_BIT(COMP_ITEM));
	for (ecs_entity e; ecs_query_next(&q, &e) && n < 64;) {
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		if (p->floor == pp->floor && p->x == pp->x && p->y == pp->y)
			here[n++] = e;
	}
	if (n == 0) {
		world_msg(g, GAME_MSG_IMPOSSIBLE, "There is nothing here to pick up.");
		return 0;
	}
	qsort(here, (size_t)n, sizeof(here[0]), cmp_index);
	int taken = 0;
	for (int i = 0; i < n; i++) {
		if (inventory_add(g, here[i]) != 0) {
			world_msg(g, GAME_MSG_IMPOSSIBLE, "Your inventory is full.");
			break;
		}
		ecs_remove(g->w, here[i], COMP_POS);
		struct c_memory *m = ecs_get(g->w, here[i], COMP_MEMORY);
		if (m)
			m->known = 0;
		world_msg(g, GAME_MSG_ITEM, "You pick up the %s.", world_name(g, here[i]));
		taken++;
	}
	return taken > 0;
}

int items_drop(struct game *g, int slot)
{
	ecs_entity e = items_in_slot(g, slot);
	if (e == ECS_NULL) {
		world_msg(g, GAME_MSG_IMPOSSIBLE, MSG_NO_ITEM);
		return 0;
	}
	unequip(g, e);
	inventory_remove(g, slot);
	const struct c_pos *pp = ecs_get(g->w, g->player, COMP_POS);
	struct c_pos pos = *pp;
	ecs_add(g->w, e, COMP_POS, &pos);
	struct c_memory *m = ecs_get(g->w, e, COMP_MEMORY);
	if (m)
		*m = (struct c_memory){.x = pos.x, .y = pos.y, .known = 1};
	world_msg(g, GAME_MSG_ITEM, "You drop the %s.", world_name(g, e));
	return 1;
}

ecs_entity items_nearest_monster(const struct game *g, int range)
{
	const struct c_pos *pp = ecs_get(g->w, g->player, COMP_POS);
	ecs_entity best = ECS_NULL;
	int bestd = 0;
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_AI) | ECS_BIT(COMP_ACTOR) | ECS_BIT(COMP_POS));
	for (ecs_entity e; ecs_query_next(&q, &e);) {
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
		if (p->floor != g->depth || a->hp <= 0 || !world_visible(g, p->x, p->y))
			continue;
		int dx = p->x - pp->x, dy = p->y - pp->y, d = dx * dx + dy * dy;
		if (range >= 0 && d > range * range)
			continue;
		if (best == ECS_NULL || d < bestd || (d == bestd && ECS_INDEX(e) < ECS_INDEX(best))) {
			best = e;
			bestd = d;
		}
	}
	return best;
}

/* The living monster at a visible (x, y), or ECS_NULL. */
static ecs_entity monster_at(const struct game *g, int x, int y)
{
	ecs_entity e = world_blocker_at(g, g->depth, x, y);
	return ecs_has(g->w, e, COMP_AI) && ecs_has(g->w, e, COMP_ACTOR) ? e : ECS_NULL;
}

static int refuse(char *why, int len, const char *msg)
{
	if (why && len > 0)
		snprintf(why, (size_t)len, "%s", msg);
	return -1;
}

int items_check(const struct game *g, int slot, int x, int y, char *why, int len)
{
	ecs_entity e = items_in_slot(g, slot);
	if (e == ECS_NULL)
		return refuse(why, len, MSG_NO_ITEM);
	const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
	const struct item_def *d = &content_items[it->kind];
	const struct c_actor *pa = ecs_get(g->w, g->player, COMP_ACTOR);
	switch (d->effect) {
	case EFFECT_HEAL:
		if (pa->hp >= pa->max_hp)
			return refuse(why, len, MSG_FULL_HP);
		return 0;
	case EFFECT_LIGHTNING:
		if (items_nearest_monster(g, d->range) == ECS_NULL)
			return refuse(why, len, MSG_TOO_FAR);
		return 0;
	case EFFECT_CONFUSE:
	case EFFECT_PARALYSE:
		if (!world_visible(g, x, y))
			return refuse(why, len, MSG_UNSEEN);
		if (world_blocker_at(g, g->depth, x, y) == g->player)
			return refuse(why, len, d->effect == EFFECT_CONFUSE ? "You cannot confuse yourself!"
									     : "You cannot paralyse yourself!");
		if (monster_at(g, x, y) == ECS_NULL)
			return refuse(why, len, MSG_NO_ENEMY);
		return 0;
	case EFFECT_FIREBALL:
		if (!world_visible(g, x, y))
			return refuse(why, len, MSG_UNSEEN);
		return 0;
	default:
		return 0;
	}
}

/* Destroys a used-up consumable in slot. */
static void use_up(struct game *g, int slot, ecs_entity e)
{
	inventory_remove(g, slot);
	ecs_destroy(g->w, e);
}

static void fireball(struct game *g, const struct item_def *d, int x, int y)
{
	ecs_entity hit[256] = { 0 };
	int n = 0;
	struct ecs_query q;
	ecs_query_init(&q, g->w, ECS_BIT(COMP_ACTOR) | ECS_BIT(COMP_POS));
	for (ecs_entity e; ecs_query_next(&q, &e) && n < 256;) {
		const struct c_pos *p = ecs_get(g->w, e, COMP_POS);
		int dx = p->x - x, dy = p->y - y;
		if (p->floor == g->depth && dx * dx + dy * dy <= d->radius * d->radius)
			hit[n++] = e;
	}
	qsort(hit, (size_t)n, sizeof(hit[0]), cmp_index);
	world_msg(g, GAME_MSG_MAGIC, "The fireball explodes, burning everything within %d tiles!", d->radius);
	for (int i = 0; i < n; i++) {
		if (!ecs_has(g->w, hit[i], COMP_ACTOR))
			continue;
		if (hit[i] == g->player)
			world_msg(g, GAME_MSG_MAGIC, "You are engulfed in the fiery explosion, taking %d damage!", d->amount);
		else
			world_msg(g, GAME_MSG_MAGIC, "The %s is engulfed in a fiery explosion, taking %d damage!",
				  world_name(g, hit[i]), d->amount);
		combat_damage(g, hit[i], d->amount, g->player, "killed by your own fireball");
	}
}

int items_use(struct game *g, int slot, int x, int y)
{
	char why[120];
	if (items_check(g, slot, x, y, why, sizeof(why))) {
		world_msg(g, GAME_MSG_IMPOSSIBLE, "%s", why);
		return 0;
	}
	ecs_entity e = items_in_slot(g, slot);
	const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
	const struct item_def *d = &content_items[it->kind];
	switch (d->effect) {
	case EFFECT_HEAL: {
		struct c_actor *pa = ecs_get(g->w, g->player, COMP_ACTOR);
		int heal = pa->max_hp - pa->hp < d->amount ? pa->max_hp - pa->hp : d->amount;
		pa->hp += heal;
		world_msg(g, GAME_MSG_HEAL, "You drink the %s and recover %d HP.", d->name, heal);
		use_up(g, slot, e);
		return 1;
	}
	case EFFECT_LIGHTNING: {
		ecs_entity t = items_nearest_monster(g, d->range);
		world_msg(g, GAME_MSG_MAGIC, "A lightning bolt strikes the %s with a loud thunder, for %d damage!",
			  world_name(g, t), d->amount);
		use_up(g, slot, e);
		combat_damage(g, t, d->amount, g->player, "");
		return 1;
	}
	case EFFECT_CONFUSE:
	case EFFECT_PARALYSE: {
		ecs_entity t = monster_at(g, x, y);
		struct c_ai *ai = ecs_get(g->w, t, COMP_AI);
		if (d->effect == EFFECT_CONFUSE) {
			ai->confused = d->amount;
			world_msg(g, GAME_MSG_MAGIC, "The eyes of the %s look vacant, as it starts to stumble around!",
				  world_name(g, t));
		} else {
			ai->paralysed = d->amount;
			world_msg(g, GAME_MSG_MAGIC, "The %s is paralysed and cannot move!", world_name(g, t));
		}
		use_up(g, slot, e);
		return 1;
	}
	case EFFECT_FIREBALL:
		use_up(g, slot, e);
		fireball(g, d, x, y);
		return 1;
	case EFFECT_EQUIP:
		if (items_equipped(g, e))
			unequip(g, e);
		else
			equip(g, e);
		return 1;
	default:
		return 0;
	}
}
