/* limits: the range every number of a game stays in, in play and in a save (docs/save.md, "What a game holds"). */
#ifndef PIROGUE_GAME_LIMITS_H
#define PIROGUE_GAME_LIMITS_H

/* Each range is closed under play: a rule that would take a number past
 * its limit stops it there (the turn, XP, kills, a message's repeat count
 * and the stats a level-up raises saturate; no level-up past
 * GAME_LEVEL_MAX), and a save holding a number out of its range is
 * refused, so a game that loads saves again to a file that loads. Every
 * limit is far beyond what play reaches and small enough that the rules'
 * arithmetic on it cannot overflow an int (combat_xp_next: 200 + level *
 * 150; damage: power plus two bonuses minus defense plus two bonuses). */

/* Turns played: 0 .. GAME_TURN_MAX. */
#define GAME_TURN_MAX ((1 << 30) - 1)
/* The player's level: 1 .. GAME_LEVEL_MAX (then no more level-ups). */
#define GAME_LEVEL_MAX 1000
/* XP towards the next level, and what a monster gives: 0 .. GAME_XP_MAX. */
#define GAME_XP_MAX (1 << 24)
/* Hit points, maximum hit points, power and defense: 0 .. GAME_STAT_MAX
 * (maximum hit points from 1); an item's bonuses within +-GAME_STAT_MAX. */
#define GAME_STAT_MAX (1 << 20)
/* Monsters killed, per kind: 0 .. GAME_KILLS_MAX. */
#define GAME_KILLS_MAX (1 << 24)
/* Turns a monster stays confused or paralysed: 0 .. GAME_EFFECT_MAX. */
#define GAME_EFFECT_MAX (1 << 16)
/* How many times a message was said in a row: 1 .. GAME_REPEAT_MAX. */
#define GAME_REPEAT_MAX (1 << 30)

/* n + add, stopped at max (n, add >= 0, n <= max). */
static inline int limits_add(int n, int add, int max)
{
	return n > max - add ? max : n + add;
}

#endif
