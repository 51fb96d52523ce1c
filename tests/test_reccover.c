/* The recordings in tests/recordings/ together use every item kind, equip and unequip, drop, and level up with every choice (issue 7, item 9). */
#include "gamefix.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "game/items.h"
#include "save/record.h"

struct cover {
	int used[ITEM_COUNT]; /* accepted uses by kind */
	int equip, unequip, drop;
	int choice[LEVELUP_COUNT];
};

/* Replays r, counting what its accepted commands did. */
static void replay(const struct recording *r, struct cover *c)
{
	struct game_opts o = {.seed = r->seed, .mapgen = MAPGEN_CLASSIC, .stacks_from = r->stacks_from};
	assert_string_equal(r->mapgen, "classic");
	struct game *g;
	assert_int_equal(game_create(&g, &o), 0);
	for (size_t i = 0; i < r->nsteps; i++) {
		const struct command *cmd = &r->steps[i].cmd;
		ecs_entity it = cmd->c == CMD_USE || cmd->c == CMD_DROP ? items_in_slot(g, cmd->item) : ECS_NULL;
		bool was_equipped = items_equipped(g, it);
		const struct c_item *ci = ecs_get(g->w, it, COMP_ITEM);
		int kind = ci ? ci->kind : -1; /* before: a consumable is gone after */
		bool pending = game_levelup_pending(g);
		int cost = game_do(g, cmd);
		if (cmd->c == CMD_LEVEL_UP && pending && !game_levelup_pending(g))
			c->choice[cmd->choice]++;
		if (!cost || it == ECS_NULL)
			continue;
		if (cmd->c == CMD_DROP) {
			c->drop++;
			c->unequip += was_equipped;
			continue;
		}
		if (content_items[kind].effect == EFFECT_EQUIP) {
			if (was_equipped)
				c->unequip++;
			else
				c->equip++;
		}
		c->used[kind]++;
	}
	game_destroy(g);
}

static void test_recordings_cover_the_rules(void **state)
{
	(void)state;
	DIR *d = opendir(TEST_DIR "/recordings");
	assert_non_null(d);
	struct cover c = {0};
	int n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".rec") != 0)
			continue;
		char path[512], err[256];
		snprintf(path, sizeof(path), TEST_DIR "/recordings/%s", e->d_name);
		struct recording r = {0};
		assert_int_equal(rec_load(path, &r, err, sizeof(err)), 0);
		replay(&r, &c);
		rec_free(&r);
		n++;
	}
	closedir(d);
	assert_true(n >= 3);
	for (int k = 0; k < ITEM_COUNT; k++) {
		print_message("%s: used %d times\n", content_item_name(k), c.used[k]);
		if (k != ITEM_DAGGER && k != ITEM_LEATHER_ARMOUR) /* carried from the start */
			assert_true(c.used[k] > 0);
	}
	print_message("equip %d, unequip %d, drop %d, level-ups %d/%d/%d\n", c.equip, c.unequip, c.drop,
		      c.choice[0], c.choice[1], c.choice[2]);
	assert_true(c.equip > 0 && c.unequip > 0 && c.drop > 0);
	for (int i = 0; i < LEVELUP_COUNT; i++)
		assert_true(c.choice[i] > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recordings_cover_the_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
