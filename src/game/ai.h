/* ai: the monsters' turn (sight, memory of the player, pathing, melee, confusion, paralysis). */
#ifndef PIROGUE_GAME_AI_H
#define PIROGUE_GAME_AI_H
#include "game/world.h"

/* Every living monster on the current floor acts once, in entity order:
 * paralysed ones count down; confused ones stumble in a random direction
 * (attacking whatever is there); others that see the player (symmetric FOV:
 * the monster sees the player exactly when the player sees it, so the
 * player's visible[] of this turn is used) hunt: attack when adjacent
 * (8-way), else step down the shared distance map from the player (other
 * monsters cost content_rules.crowd_cost to pass, so they flank). Monsters
 * that lost sight walk to where they last saw the player along a shortest
 * path around the walls (a map kept from turn to turn), then give up.
 * Monsters killed during the phase do not act; the phase stops when the
 * player dies. Expects the current floor's FOV and occupancy to be current,
 * and a floor's tiles not to change once its monsters have acted (the phase
 * keeps the floor's walkable cells as bits, and the list of its monsters
 * while no entity gains or loses COMP_AI or COMP_POS). No allocation. */
void ai_take_turns(struct game *g);

/* One monster's action (as in ai_take_turns); the phase's scratch must have
 * been reset by ai_begin_phase. Exposed for tests. */
void ai_begin_phase(struct game *g);
void ai_act(struct game *g, ecs_entity e);

#endif
