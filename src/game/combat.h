/* combat: melee attacks, damage, death, corpses and experience. */
#ifndef PIROGUE_GAME_COMBAT_H
#define PIROGUE_GAME_COMBAT_H
#include "game/world.h"

/* Attack power and defence of an actor, every bonus included (start
 * equipment, equipped items). 0 for a non-actor. */
int combat_power(const struct game *g, ecs_entity e);
int combat_defense(const struct game *g, ecs_entity e);
/* attacker hits target in melee for max(0, power - defence), logs the
 * message ("Orc attacks you for 3 hit points.", "You attack the orc but do
 * no damage.") and kills the target when its HP reaches 0. Returns the
 * damage dealt. */
int combat_attack(struct game *g, ecs_entity attacker, ecs_entity target);
/* Kills e: a monster becomes a "remains of X" corpse (non-blocking, item
 * layer) and, when killed by the player, gives its XP; the player's death
 * ends the game. killer may be ECS_NULL. */
void combat_kill(struct game *g, ecs_entity e, ecs_entity killer);

#endif
