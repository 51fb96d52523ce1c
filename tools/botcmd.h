/* botcmd: the commands the developer bots (tools/balance.c, tools/mkrec.c) build: a command with no arguments, and the step toward a neighbouring cell. */
#ifndef PIROGUE_TOOLS_BOTCMD_H
#define PIROGUE_TOOLS_BOTCMD_H
#include "game/game.h"

/* Command c with every argument unset (-1). */
static inline struct command bot_cmd(enum cmd c)
{
	return (struct command){.c = c, .item = -1, .x = -1, .y = -1, .choice = -1};
}

/* The move by (dx, dy), each -1..1, in the order of CMD_MOVE_N..CMD_MOVE_NW;
 * CMD_WAIT for (0, 0) or anything farther. */
static inline enum cmd bot_step(int dx, int dy)
{
	static const int dirs[8][2] = {{0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}};
	for (int i = 0; i < 8; i++)
		if (dirs[i][0] == dx && dirs[i][1] == dy)
			return (enum cmd)(CMD_MOVE_N + i);
	return CMD_WAIT;
}

#endif
