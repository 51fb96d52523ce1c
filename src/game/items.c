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

int items_count(const struct game *g, ecs_entity e)
{
	const struct c_stack *st = ecs_get(g->w, e, COMP_STACK);
	return st ? st->n : 1;
}

/* Makes e stand for n (>= 1) items: a stack for n >= 2. -ENOMEM. */
static int set_count(struct game *g, ecs_entity e, int n)
{
	if (n <= 1) {
		ecs_remove(g->w, e, COMP_STACK);
		return 0;
	}
	struct c_stack *st = ecs_get_mut(g->w, e, COMP_STACK);
	if (st) {
		st->n = n;
		return 0;
	}
	struct c_stack v = {.n = n};
	return ecs_add(g->w, e, COMP_STACK, &v) ? 0 : -ENOMEM;
}

static bool stackable(const struct game *g, ecs_entity e)
{
	const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
	return it && content_items[it->kind].stacks;
}

/* The carried stack (or single item) e would join: a slot holding the same
 * stackable kind while stacks apply; -1 when none. */
static int stack_slot(const struct game *g, ecs_entity e)
{
	const struct c_inventory *inv = ecs_get(g->w, g->player, COMP_INVENTORY);
	if (!inv || !g->stacking || !stackable(g, e))
		return -1;
	const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
	for (int s = 0; s < INVENTORY_SLOTS; s++) {
		const struct c_item *o = inv->slot[s] != ECS_NULL ? ecs_get(g->w, inv->slot[s], COMP_ITEM) : NULL;
		if (o && inv->slot[s] != e && o->kind == it->kind)
			return s;
	}
	return -1;
}

/* Whether e would find room: a stack to join or a free slot. */
static bool inventory_has_room(const struct game *g, ecs_entity e)
{
	const struct c_inventory *inv = ecs_get(g->w, g->player, COMP_INVENTORY);
	return inv && (stack_slot(g, e) >= 0 || inv->count < INVENTORY_SLOTS);
}

bool items_room_for(const struct game *g, ecs_entity e)
{
	return inventory_has_room(g, e);
}

/* Puts e (no COMP_POS any more) into the player's inventory: onto a stack
 * of its kind (then e is destroyed), else into the first free slot.
 * -ENOSPC when neither. */
static int inventory_add(struct game *g, ecs_entity e)
{
	struct c_inventory *inv = ecs_get_mut(g->w, g->player, COMP_INVENTORY);
	if (!inv)
		return -EINVAL;
	int k = stack_slot(g, e);
	if (k >= 0) {
		int rc = set_count(g, inv->slot[k], items_count(g, inv->slot[k]) + items_count(g, e));
		if (rc)
			return rc;
		ecs_destroy(g->w, e);
		return 0;
	}
	for (int s = 0; s < INVENTORY_SLOTS; s++) {
		if (inv->slot[s] == ECS_NULL) {
			inv->slot[s] = e;
			inv->count++;
			return 0;
		}
	}
	return -ENOSPC;
}

void items_merge_all(struct game *g)
{
	struct c_inventory *inv = ecs_get_mut(g->w, g->player, COMP_INVENTORY);
	for (int s = 0; inv && s < INVENTORY_SLOTS; s++) {
		ecs_entity e = inv->slot[s];
		if (e == ECS_NULL || !stackable(g, e))
			continue;
		const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
		for (int t = s + 1; t < INVENTORY_SLOTS; t++) {
			ecs_entity o = inv->slot[t];
			const struct c_item *ot = o != ECS_NULL ? ecs_get(g->w, o, COMP_ITEM) : NULL;
			if (!ot || ot->kind != it->kind || items_equipped(g, o))
				continue;
			if (set_count(g, e, items_count(g, e) + items_count(g, o)))
				return; /* out of memory: both kept apart, nothing lost */
			inv->slot[t] = ECS_NULL;
			inv->count--;
			ecs_destroy(g->w, o);
		}
	}
}

static void inventory_remove(struct game *g, int slot)
{
	struct c_inventory *inv = ecs_get_mut(g->w, g->player, COMP_INVENTORY);
	if (inv && inv->slot[slot] != ECS_NULL) {
		inv->slot[slot] = ECS_NULL;
		inv->count--;
	}
}

static void equip(struct game *g, ecs_entity e)
{
	struct c_equipment *eq = ecs_get_mut(g->w, g->player, COMP_EQUIPMENT);
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
	struct c_equipment *eq = ecs_get_mut(g->w, g->player, COMP_EQUIPMENT);
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
	struct c_item *it = ecs_get_mut(g->w, e, COMP_ITEM);
	it->seen = 1;
	rc = inventory_add(g, e);
	if (rc) {
		ecs_destroy(g->w, e);
		return rc;
	}
	const struct c_equippable *eqp = ecs_get(g->w, e, COMP_EQUIPPABLE);
	struct c_equipment *eq = ecs_get_mut(g->w, g->player, COMP_EQUIPMENT);
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
	const struct c_pos at = *pp; /* (pp moves as positions are removed) */
	int taken = 0, full = 0;
	for (int i = 0; i < n; i++) {
		if (!inventory_has_room(g, here[i])) {
			full++;
			if (!g->stacking)
				break; /* as before stacks: the first that finds no room stops it */
			continue;
		}
		char name[64];
		int count = items_count(g, here[i]);
		const struct c_item *it = ecs_get(g->w, here[i], COMP_ITEM);
		snprintf(name, sizeof name, "%s", count > 1 ? content_items[it->kind].plural : world_name(g, here[i]));
		ecs_remove(g->w, here[i], COMP_POS);
		ecs_remove(g->w, here[i], COMP_DROPPED);
		struct c_memory *m = ecs_get_mut(g->w, here[i], COMP_MEMORY);
		if (m)
			m->known = 0;
		if (inventory_add(g, here[i]) != 0) { /* out of memory for a stack: back where it lay */
			ecs_add(g->w, here[i], COMP_POS, &at);
			full++;
			continue;
		}
		if (count > 1)
			world_msg(g, GAME_MSG_ITEM, "You pick up the %d %s.", count, name);
		else
			world_msg(g, GAME_MSG_ITEM, "You pick up the %s.", name);
		taken++;
	}
	if (full)
		world_msg(g, GAME_MSG_IMPOSSIBLE, "Your inventory is full.");
	return taken > 0;
}

/* Marks e as put down by the player (auto-pickup leaves it), in games with
 * stacks (a game before them hashes as it did). */
static void mark_dropped(struct game *g, ecs_entity e)
{
	static const struct c_dropped by = {.by_player = 1};
	if (g->stacking && !ecs_has(g->w, e, COMP_DROPPED))
		(void)ecs_add(g->w, e, COMP_DROPPED, &by); /* out of memory: it may be picked up again */
}

int items_drop(struct game *g, int slot, bool all)
{
	ecs_entity e = items_in_slot(g, slot);
	if (e == ECS_NULL) {
		world_msg(g, GAME_MSG_IMPOSSIBLE, MSG_NO_ITEM);
		return 0;
	}
	const struct c_pos *pp = ecs_get(g->w, g->player, COMP_POS);
	struct c_pos pos = *pp;
	int count = items_count(g, e);
	if (count > 1 && !all) {
		/* one of the stack: a new item of its kind on the floor */
		const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
		ecs_entity one;
		if (world_spawn_item(g, it->kind, pos.floor, pos.x, pos.y, &one) || set_count(g, e, count - 1)) {
			world_msg(g, GAME_MSG_IMPOSSIBLE, "You cannot drop it: out of memory.");
			return 0;
		}
		struct c_item *oi = ecs_get_mut(g->w, one, COMP_ITEM);
		oi->seen = 1;
		mark_dropped(g, one);
		struct c_memory *m = ecs_get_mut(g->w, one, COMP_MEMORY);
		if (m)
			*m = (struct c_memory){.x = pos.x, .y = pos.y, .known = 1};
		world_msg(g, GAME_MSG_ITEM, "You drop a %s.", world_name(g, one));
		return 1;
	}
	unequip(g, e);
	inventory_remove(g, slot);
	ecs_add(g->w, e, COMP_POS, &pos);
	mark_dropped(g, e);
	struct c_memory *m = ecs_get_mut(g->w, e, COMP_MEMORY);
	if (m)
		*m = (struct c_memory){.x = pos.x, .y = pos.y, .known = 1};
	const struct c_item *it = ecs_get(g->w, e, COMP_ITEM);
	if (count > 1)
		world_msg(g, GAME_MSG_ITEM, "You drop the %d %s.", count, content_items[it->kind].plural);
	else
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

/* Uses up one of the consumable e in slot: one fewer in its stack, or
 * destroyed when it was the last. */
static void use_up(struct game *g, int slot, ecs_entity e)
{
	int n = items_count(g, e);
	if (n > 1 && set_count(g, e, n - 1) == 0)
		return;
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
		struct c_actor *pa = ecs_get_mut(g->w, g->player, COMP_ACTOR);
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
		struct c_ai *ai = ecs_get_mut(g->w, t, COMP_AI);
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
