/* combat: melee attacks, damage, death, corpses and experience. */
#ifndef PIROGUE_GAME_COMBAT_H
#define PIROGUE_GAME_COMBAT_H
#include "game/world.h"

/* Attack power and defence of an actor, equipped items included. 0 for a
 * non-actor. */
int combat_power(const struct game *g, ecs_entity e);
int combat_defense(const struct game *g, ecs_entity e);
/* Both at once (what the items e wears add, looked up once): *power and
 * *defense as combat_power and combat_defense give them. */
void combat_power_defense(const struct game *g, ecs_entity e, int *power, int *defense);
/* attacker hits target in melee for max(0, power - defence), logs the
 * message ("Orc attacks you for 3 hit points.", "You attack the orc but do
 * no damage.") and kills the target when its HP reaches 0. Returns the
 * damage dealt. */
int combat_attack(struct game *g, ecs_entity attacker, ecs_entity target);
/* Kills e: a monster becomes a "remains of X" corpse (non-blocking, item
 * layer) and, when killed by the player, gives its XP; the player's death
 * ends the game. killer may be ECS_NULL. */
void combat_kill(struct game *g, ecs_entity e, ecs_entity killer);
/* Deals dmg (> 0) to target without a message (the caller tells how), killing
 * it at 0 HP with source as the killer; when it kills the player, cause
 * ("killed by your own fireball") is his cause of death. */
void combat_damage(struct game *g, ecs_entity target, int dmg, ecs_entity source, const char *cause);

/* Levels (GAME.md §5). XP total (counted from the last level-up) at which the
 * player reaches the next level: xp_base + level * xp_per_level. */
int combat_xp_next(const struct game *g);
/* True while the player (alive) has reached the next level and not chosen. */
bool combat_levelup_pending(const struct game *g);
/* Applies level-up choice (enum levelup_choice): XP goes down by the
 * threshold, the level up by one, the choice's numbers from content_levelups
 * are added (heal capped at max HP) and its message logged. Returns 0, or
 * -EINVAL when no level-up is pending or choice is out of range. */
int combat_level_up(struct game *g, int choice);

#endif
