#include "app/idle.h"
#include "game/map.h"
#include <string.h>

static int64_t earliest(int64_t a, int64_t b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

static int64_t attract_at(const struct idle_cfg *c, const struct idle_state *s)
{
	if (c->attract_s <= 0 || !s->title || s->demo || s->blanked)
		return -1;
	return s->last_input_ms + (int64_t)c->attract_s * 1000;
}

static int64_t blank_at(const struct idle_cfg *c, const struct idle_state *s)
{
	if (c->blank_s <= 0 || s->blanked)
		return -1;
	return s->last_input_ms + (int64_t)c->blank_s * 1000;
}

int64_t idle_deadline(const struct idle_cfg *c, const struct idle_state *s)
{
	if (s->blanked)
		return -1;
	return earliest(earliest(s->step_ms, attract_at(c, s)), blank_at(c, s));
}

enum idle_event idle_due(const struct idle_cfg *c, const struct idle_state *s, int64_t now_ms)
{
	if (s->blanked)
		return IDLE_NOTHING;
	int64_t b = blank_at(c, s), a = attract_at(c, s);
	if (b >= 0 && now_ms >= b)
		return IDLE_BLANK;
	if (a >= 0 && now_ms >= a)
		return IDLE_ATTRACT;
	if (s->step_ms >= 0 && now_ms >= s->step_ms)
		return IDLE_STEP;
	return IDLE_NOTHING;
}

enum idle_input idle_on_input(const struct idle_state *s)
{
	if (s->blanked)
		return IDLE_IN_WAKE;
	if (s->demo)
		return IDLE_IN_END_DEMO;
	return IDLE_IN_PASS;
}

static struct command plain(enum cmd c)
{
	return (struct command){ .c = c, .item = -1, .x = -1, .y = -1, .choice = -1 };
}

static struct command move(int dx, int dy)
{
	static const int dirs[8][2] = { { 0, -1 }, { 1, -1 }, { 1, 0 }, { 1, 1 },
					{ 0, 1 },  { -1, 1 }, { -1, 0 }, { -1, -1 } };
	for (int i = 0; i < 8; i++)
		if (dirs[i][0] == dx && dirs[i][1] == dy)
			return plain((enum cmd)(CMD_MOVE_N + i));
	return plain(CMD_WAIT);
}

struct command idle_demo_command(const struct game *g)
{
	if (game_levelup_pending(g)) {
		struct command c = plain(CMD_LEVEL_UP);
		c.choice = game_turn(g) % LEVELUP_COUNT;
		return c;
	}
	int px, py, mx, my;
	game_player_pos(g, &px, &py);
	if (game_nearest_monster(g, &mx, &my) == 0) {
		/* fight: into it when adjacent, else a greedy step toward it */
		int sx = (mx > px) - (mx < px), sy = (my > py) - (my < py);
		if (mx - px >= -1 && mx - px <= 1 && my - py >= -1 && my - py <= 1)
			return move(sx, sy);
		const int tries[3][2] = { { sx, sy }, { sx, 0 }, { 0, sy } };
		for (int i = 0; i < 3; i++)
			if ((tries[i][0] || tries[i][1]) && map_walkable(game_map(g), px + tries[i][0], py + tries[i][1]))
				return move(tries[i][0], tries[i][1]);
	}
	struct command step;
	char why[128];
	/* an explore stop for an item or for HP is given once: asked again,
	 * it goes on */
	for (int i = 0; i < 2; i++)
		if (game_explore_step(g, &step, why, sizeof why) == 1)
			return step;
	for (int i = 0; i < 2; i++) {
		if (game_travel_step(g, true, &step, why, sizeof why) == 1)
			return step;
		if (!strcmp(why, "You are on the stairs."))
			return plain(CMD_DESCEND);
	}
	return plain(CMD_WAIT);
}
