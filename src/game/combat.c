/* combat: melee, death and experience (GAME.md §2). */
#include "game/combat.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* What the items e wears add to its power (power) or defense. */
static int equip_bonus(const struct game *g, ecs_entity e, bool power)
{
	int sum = 0;
	const struct c_equipment *eq = ecs_get(g->w, e, COMP_EQUIPMENT);
	for (int s = 0; eq && s < EQUIP_SLOT_COUNT; s++) {
		const struct c_equippable *it = ecs_get(g->w, eq->slot[s], COMP_EQUIPPABLE);
		if (it)
			sum += power ? it->power_bonus : it->defense_bonus;
	}
	return sum;
}

int combat_power(const struct game *g, ecs_entity e)
{
	const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
	return a ? a->power + equip_bonus(g, e, true) : 0;
}

int combat_defense(const struct game *g, ecs_entity e)
{
	const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
	return a ? a->defense + equip_bonus(g, e, false) : 0;
}

void combat_power_defense(const struct game *g, ecs_entity e, int *power, int *defense)
{
	const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
	*power = *defense = 0;
	if (!a)
		return;
	*power = a->power;
	*defense = a->defense;
	const struct c_equipment *eq = ecs_get(g->w, e, COMP_EQUIPMENT);
	for (int s = 0; eq && s < EQUIP_SLOT_COUNT; s++) {
		const struct c_equippable *it = ecs_get(g->w, eq->slot[s], COMP_EQUIPPABLE);
		if (it) {
			*power += it->power_bonus;
			*defense += it->defense_bonus;
		}
	}
}

/* "a" or "an" for name. */
static const char *article(const char *name)
{
	return strchr("aeiou", name[0]) && name[0] ? "an" : "a";
}

/* "Orc" from "orc" (the first letter capitalised) into buf. */
static const char *capitalised(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s", name);
	buf[0] = (char)toupper((unsigned char)buf[0]);
	return buf;
}

int combat_attack(struct game *g, ecs_entity attacker, ecs_entity target)
{
	const struct c_actor *seen = ecs_get(g->w, target, COMP_ACTOR);
	if (!seen || !ecs_has(g->w, attacker, COMP_ACTOR))
		return 0;
	int dmg = combat_power(g, attacker) - combat_defense(g, target);
	if (dmg < 0)
		dmg = 0;
	bool by_player = attacker == g->player, on_player = target == g->player;
	char who[NAME_LEN];
	const char *pts = dmg == 1 ? "hit point" : "hit points";
	if (by_player) {
		if (dmg > 0)
			world_msg(g, GAME_MSG_PLAYER_ATK, "You attack the %s for %d %s.", world_name(g, target), dmg, pts);
		else
			world_msg(g, GAME_MSG_PLAYER_ATK, "You attack the %s but do no damage.", world_name(g, target));
	} else {
		const struct c_pos *ap = ecs_get(g->w, attacker, COMP_POS);
		/* Fights between monsters are told only when seen. */
		if (on_player || (ap && world_visible(g, ap->x, ap->y))) {
			capitalised(world_name(g, attacker), who, sizeof(who));
			char victim[NAME_LEN + 4];
			if (on_player)
				snprintf(victim, sizeof(victim), "you");
			else
				snprintf(victim, sizeof(victim), "the %s", world_name(g, target));
			if (dmg > 0)
				world_msg(g, GAME_MSG_ENEMY_ATK, "%s attacks %s for %d %s.", who, victim, dmg, pts);
			else
				world_msg(g, GAME_MSG_ENEMY_ATK, "%s attacks %s but does no damage.", who, victim);
		}
	}
	if (on_player && dmg >= seen->hp) {
		struct c_player *pl = ecs_get_mut(g->w, target, COMP_PLAYER);
		if (pl && !pl->cause[0])
			snprintf(pl->cause, sizeof(pl->cause), "killed by %s %s", article(world_name(g, attacker)),
				 world_name(g, attacker));
	}
	if (dmg == 0 && seen->hp > 0)
		return 0; /* nothing written: the watchers' digest has nothing to look at */
	struct c_actor *t = ecs_get_mut(g->w, target, COMP_ACTOR);
	t->hp -= dmg;
	if (t->hp <= 0) {
		t->hp = 0;
		combat_kill(g, target, attacker);
	}
	return dmg;
}

void combat_damage(struct game *g, ecs_entity target, int dmg, ecs_entity source, const char *cause)
{
	struct c_actor *t = ecs_get_mut(g->w, target, COMP_ACTOR);
	if (!t || dmg <= 0)
		return;
	struct c_player *pl = ecs_get_mut(g->w, target, COMP_PLAYER);
	if (pl && dmg >= t->hp && !pl->cause[0])
		snprintf(pl->cause, sizeof(pl->cause), "%s", cause);
	t->hp -= dmg;
	if (t->hp <= 0) {
		t->hp = 0;
		combat_kill(g, target, source);
	}
}

int combat_xp_next(const struct game *g)
{
	const struct c_player *pl = ecs_get(g->w, g->player, COMP_PLAYER);
	return content_rules.xp_base + (pl ? pl->level : 0) * content_rules.xp_per_level;
}

bool combat_levelup_pending(const struct game *g)
{
	const struct c_player *pl = ecs_get(g->w, g->player, COMP_PLAYER);
	return pl && !g->over && pl->level < GAME_LEVEL_MAX && pl->xp >= combat_xp_next(g);
}

int combat_level_up(struct game *g, int choice)
{
	if (!combat_levelup_pending(g) || choice < 0 || choice >= LEVELUP_COUNT)
		return -EINVAL;
	struct c_player *pl = ecs_get_mut(g->w, g->player, COMP_PLAYER);
	struct c_actor *a = ecs_get_mut(g->w, g->player, COMP_ACTOR);
	const struct levelup_def *l = &content_levelups[choice];
	pl->xp -= combat_xp_next(g);
	pl->level++;
	a->max_hp = limits_add(a->max_hp, l->max_hp, GAME_STAT_MAX);
	a->hp = limits_add(a->hp, l->heal, a->max_hp);
	a->power = limits_add(a->power, l->power, GAME_STAT_MAX);
	a->defense = limits_add(a->defense, l->defense, GAME_STAT_MAX);
	world_msg(g, GAME_MSG_LEVEL_UP, "%s", l->msg);
	if (combat_levelup_pending(g))
		world_msg(g, GAME_MSG_LEVEL_UP, "Your battle skills grow stronger! You reach level %d!", pl->level + 1);
	return 0;
}

void combat_kill(struct game *g, ecs_entity e, ecs_entity killer)
{
	struct c_render *r = ecs_get_mut(g->w, e, COMP_RENDER);
	struct c_pos *p = ecs_get_mut(g->w, e, COMP_POS);
	if (e == g->player) {
		struct c_actor *a = ecs_get_mut(g->w, e, COMP_ACTOR);
		if (a)
			a->hp = 0;
		if (r) {
			r->glyph = content_rules.corpse_glyph;
			r->fg = content_rules.player_corpse_fg;
			r->order = GAME_ORDER_CORPSE;
		}
		world_msg(g, GAME_MSG_PLAYER_DIE, "You died!");
		g->over = true;
		return;
	}
	const struct c_actor *a = ecs_get(g->w, e, COMP_ACTOR);
	if (!a)
		return;
	char who[NAME_LEN];
	bool seen = p && p->floor == g->depth && world_visible(g, p->x, p->y);
	if (seen || killer == g->player)
		world_msg(g, GAME_MSG_ENEMY_DIE, "%s is dead!", capitalised(world_name(g, e), who, sizeof(who)));
	const struct c_xp *xp = ecs_get(g->w, e, COMP_XP);
	struct c_player *pl = ecs_get_mut(g->w, g->player, COMP_PLAYER);
	if (killer == g->player && pl) {
		pl->kills[a->kind] = limits_add(pl->kills[a->kind], 1, GAME_KILLS_MAX);
		if (xp && xp->value > 0) {
			bool was = combat_levelup_pending(g);
			pl->xp = limits_add(pl->xp, xp->value, GAME_XP_MAX);
			world_msg(g, GAME_MSG_DEFAULT, "You gain %d experience points.", xp->value);
			if (!was && combat_levelup_pending(g))
				world_msg(g, GAME_MSG_LEVEL_UP, "Your battle skills grow stronger! You reach level %d!",
					  pl->level + 1);
		}
	}
	struct c_corpse corpse = {.kind = a->kind};
	struct c_name name = {{0}};
	snprintf(name.s, sizeof(name.s), "remains of %s", world_name(g, e));
	world_unblock(g, e);
	ecs_remove(g->w, e, COMP_AI);
	ecs_remove(g->w, e, COMP_XP);
	ecs_remove(g->w, e, COMP_ACTOR);
	ecs_add(g->w, e, COMP_CORPSE, &corpse);
	ecs_add(g->w, e, COMP_NAME, &name);
	struct c_memory mem = {.x = p ? p->x : 0, .y = p ? p->y : 0, .known = seen};
	ecs_add(g->w, e, COMP_MEMORY, &mem);
	if (r) {
		r->glyph = content_rules.corpse_glyph;
		r->fg = content_rules.corpse_fg;
		r->order = GAME_ORDER_CORPSE;
	}
}
