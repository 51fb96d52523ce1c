#include "game/game.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "core/log.h"

static const char *const cmd_names[CMD_COUNT] = {
	[CMD_NONE] = "none",
	[CMD_MOVE_N] = "move_n",
	[CMD_MOVE_NE] = "move_ne",
	[CMD_MOVE_E] = "move_e",
	[CMD_MOVE_SE] = "move_se",
	[CMD_MOVE_S] = "move_s",
	[CMD_MOVE_SW] = "move_sw",
	[CMD_MOVE_W] = "move_w",
	[CMD_MOVE_NW] = "move_nw",
	[CMD_WAIT] = "wait",
	[CMD_PICKUP] = "pickup",
	[CMD_DESCEND] = "descend",
	[CMD_ASCEND] = "ascend",
};

const char *cmd_name(enum cmd c)
{
	if ((int)c < 0 || c >= CMD_COUNT)
		return "?";
	return cmd_names[c];
}

int cmd_parse(const char *name, enum cmd *out)
{
	if (!name)
		return -EINVAL;
	for (int i = 0; i < CMD_COUNT; i++) {
		if (strcmp(name, cmd_names[i]) == 0) {
			*out = (enum cmd)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* Interim: the rules engine lands in the next commits (branch rules). */
struct game {
	int unused;
};

int game_create(struct game **out, const struct game_opts *o)
{
	(void)out;
	(void)o;
	log_error("game: rules engine not landed yet");
	return -ENOSYS;
}

void game_destroy(struct game *g) { (void)g; }
int game_apply(struct game *g, enum cmd c) { (void)g; (void)c; return 0; }
bool game_is_over(const struct game *g) { (void)g; return true; }
uint64_t game_checksum(const struct game *g) { (void)g; return 0; }
int game_turn(const struct game *g) { (void)g; return 0; }
int game_depth(const struct game *g) { (void)g; return 1; }
uint64_t game_seed(const struct game *g) { (void)g; return 0; }
const struct map *game_map(const struct game *g) { (void)g; return NULL; }
void game_player_pos(const struct game *g, int *x, int *y) { (void)g; *x = 0; *y = 0; }
void game_stats(const struct game *g, struct game_stats *s) { (void)g; memset(s, 0, sizeof(*s)); }
int game_drawables(const struct game *g, struct drawable *out, int max) { (void)g; (void)out; (void)max; return 0; }
int game_msg_count(const struct game *g) { (void)g; return 0; }
const struct game_msg *game_msg_get(const struct game *g, int i) { (void)g; (void)i; return NULL; }
const char *game_msg_format(const struct game_msg *m, char *buf, int len) { (void)m; if (len > 0) buf[0] = 0; return buf; }
const char *game_describe(const struct game *g, int x, int y, char *buf, int len) { (void)g; (void)x; (void)y; (void)buf; (void)len; return NULL; }
