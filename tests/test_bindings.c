#include "testutil.h"
#include "ui/bind.h"
#include "platform/input.h"
#include <errno.h>

static void test_game_md_keys(void **st)
{
	(void)st;
	/* GAME.md §7: every way to move */
	const uint32_t north[] = { KEY_UP, KEY_KP8, 'k', PAD_UP };
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(bind_action(north[i]), ACT_MOVE_N);
	assert_int_equal(bind_action(KEY_HOME), ACT_MOVE_NW);
	assert_int_equal(bind_action(KEY_PGUP), ACT_MOVE_NE);
	assert_int_equal(bind_action(KEY_END), ACT_MOVE_SW);
	assert_int_equal(bind_action(KEY_PGDN), ACT_MOVE_SE);
	assert_int_equal(bind_action('y'), ACT_MOVE_NW);
	assert_int_equal(bind_action('u'), ACT_MOVE_NE);
	assert_int_equal(bind_action('b'), ACT_MOVE_SW);
	assert_int_equal(bind_action('n'), ACT_MOVE_SE);
	assert_int_equal(bind_action(KEY_KP1), ACT_MOVE_SW);
	assert_int_equal(bind_action('.'), ACT_WAIT);
	assert_int_equal(bind_action(KEY_KP5), ACT_WAIT);
	assert_int_equal(bind_action(' '), ACT_WAIT);
	assert_int_equal(bind_action('g'), ACT_PICKUP);
	assert_int_equal(bind_action(','), ACT_PICKUP);
	assert_int_equal(bind_action('>'), ACT_DESCEND);
	assert_int_equal(bind_action('<'), ACT_ASCEND);
	assert_int_equal(bind_action('/'), ACT_LOOK);
	assert_int_equal(bind_action('x'), ACT_LOOK);
	assert_int_equal(bind_action('v'), ACT_HISTORY);
	assert_int_equal(bind_action('c'), ACT_CHARACTER);
	assert_int_equal(bind_action('Q'), ACT_QUIT);
	assert_int_equal(bind_action(KEY_ESCAPE), ACT_CANCEL);
	assert_int_equal(bind_action(KEY_ENTER), ACT_CONFIRM);
	assert_int_equal(bind_action(PAD_SOUTH), ACT_PAD_A);
	assert_int_equal(bind_action(PAD_EAST), ACT_PAD_B);
	assert_int_equal(bind_action(PAD_WEST), ACT_INVENTORY);
	assert_int_equal(bind_action(PAD_NORTH), ACT_LOOK);
	assert_int_equal(bind_action(PAD_START), ACT_MENU);
	assert_int_equal(bind_action(PAD_SELECT), ACT_HISTORY);
	/* unbound keys and a lone modifier do nothing */
	assert_int_equal(bind_action('z'), ACT_NONE);
	assert_int_equal(bind_action(KEY_MODIFIER), ACT_NONE);
	assert_int_equal(bind_action('K'), ACT_NONE);
}

static void test_move_delta(void **st)
{
	(void)st;
	int dx, dy;
	assert_int_equal(bind_move_delta(ACT_MOVE_NE, &dx, &dy), 1);
	assert_int_equal(dx, 1);
	assert_int_equal(dy, -1);
	assert_int_equal(bind_move_delta(ACT_MOVE_W, &dx, &dy), 1);
	assert_int_equal(dx, -1);
	assert_int_equal(dy, 0);
	assert_int_equal(bind_move_delta(ACT_WAIT, &dx, &dy), 0);
	assert_string_equal(bind_action_name(ACT_MOVE_SW), "move_sw");
}

static void test_key_parse(void **st)
{
	(void)st;
	uint32_t k;
	assert_int_equal(key_parse("UP", &k), 0);
	assert_int_equal(k, KEY_UP);
	assert_int_equal(key_parse("PgDn", &k), 0);
	assert_int_equal(k, KEY_PGDN);
	assert_int_equal(key_parse("<", &k), 0);
	assert_int_equal(k, '<');
	assert_int_equal(key_parse(">", &k), 0);
	assert_int_equal(k, '>');
	assert_int_equal(key_parse("Q", &k), 0);
	assert_int_equal(k, 'Q');
	assert_int_equal(key_parse("\xc3\xa9", &k), 0); /* é */
	assert_int_equal(k, 0xE9);
	assert_int_equal(key_parse("space", &k), 0);
	assert_int_equal(k, ' ');
	assert_int_equal(key_parse("ab", &k), -EINVAL);
	assert_int_equal(key_parse("", &k), -EINVAL);
	assert_int_equal(key_parse("upp", &k), -EINVAL);
	char buf[16];
	assert_string_equal(key_name(KEY_HOME, buf, sizeof buf), "home");
	assert_string_equal(key_name('>', buf, sizeof buf), ">");
	/* every name round-trips */
	for (uint32_t key = KEY_UP; key < KEY_LAST; key++) {
		key_name(key, buf, sizeof buf);
		uint32_t back;
		assert_int_equal(key_parse(buf, &back), 0);
		assert_int_equal(back, key);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_game_md_keys),
		cmocka_unit_test(test_move_delta),
		cmocka_unit_test(test_key_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
