#include "testutil.h"
#include "ui/bind.h"
#include "platform/keys.h"
#include <errno.h>
#include <string.h>

static void test_game_md_keys(void **st)
{
	(void)st;
	struct bindings b;
	bind_defaults(&b);
	/* GAME.md §7: every way to move */
	const uint32_t north[] = { KEY_UP, KEY_KP8, 'k', PAD_UP };
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(bind_action(&b, north[i]), ACT_MOVE_N);
	assert_int_equal(bind_action(&b, KEY_HOME), ACT_MOVE_NW);
	assert_int_equal(bind_action(&b, KEY_PGUP), ACT_MOVE_NE);
	assert_int_equal(bind_action(&b, KEY_END), ACT_MOVE_SW);
	assert_int_equal(bind_action(&b, KEY_PGDN), ACT_MOVE_SE);
	assert_int_equal(bind_action(&b, 'y'), ACT_MOVE_NW);
	assert_int_equal(bind_action(&b, 'u'), ACT_MOVE_NE);
	assert_int_equal(bind_action(&b, 'b'), ACT_MOVE_SW);
	assert_int_equal(bind_action(&b, 'n'), ACT_MOVE_SE);
	assert_int_equal(bind_action(&b, KEY_KP1), ACT_MOVE_SW);
	assert_int_equal(bind_action(&b, '.'), ACT_WAIT);
	assert_int_equal(bind_action(&b, KEY_KP5), ACT_WAIT);
	assert_int_equal(bind_action(&b, ' '), ACT_WAIT);
	assert_int_equal(bind_action(&b, 'g'), ACT_PICKUP);
	assert_int_equal(bind_action(&b, ','), ACT_PICKUP);
	assert_int_equal(bind_action(&b, '>'), ACT_DESCEND);
	assert_int_equal(bind_action(&b, '<'), ACT_ASCEND);
	assert_int_equal(bind_action(&b, '/'), ACT_LOOK);
	assert_int_equal(bind_action(&b, 'x'), ACT_LOOK);
	assert_int_equal(bind_action(&b, 'v'), ACT_HISTORY);
	assert_int_equal(bind_action(&b, 'c'), ACT_CHARACTER);
	assert_int_equal(bind_action(&b, 'Q'), ACT_QUIT);
	assert_int_equal(bind_action(&b, KEY_ESCAPE), ACT_CANCEL);
	assert_int_equal(bind_action(&b, KEY_ENTER), ACT_CONFIRM);
	assert_int_equal(bind_action(&b, PAD_SOUTH), ACT_DO);
	assert_int_equal(bind_action(&b, PAD_EAST), ACT_BACK);
	assert_int_equal(bind_action(&b, PAD_WEST), ACT_INVENTORY);
	assert_int_equal(bind_action(&b, PAD_NORTH), ACT_LOOK);
	assert_int_equal(bind_action(&b, PAD_START), ACT_MENU);
	assert_int_equal(bind_action(&b, PAD_SELECT), ACT_HISTORY);
	/* unbound keys and a lone modifier do nothing */
	assert_int_equal(bind_action(&b, 'z'), ACT_NONE);
	assert_int_equal(bind_action(&b, 'o'), ACT_EXPLORE);
	assert_int_equal(bind_action(&b, '?'), ACT_HELP);
	assert_int_equal(bind_action(&b, PAD_TR2), ACT_EXPLORE);
	assert_int_equal(bind_action(&b, KEY_MODIFIER), ACT_NONE);
	assert_int_equal(bind_action(&b, 'K'), ACT_NONE);
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

static void test_set(void **st)
{
	(void)st;
	struct bindings b;
	char why[256];
	bind_defaults(&b);
	/* replaces the keyboard keys of wait, takes 'g' from pick up */
	assert_int_equal(bind_set(&b, ACT_WAIT, false, "  z g\tkp0 ", why, sizeof why), 0);
	assert_int_equal(bind_action(&b, 'z'), ACT_WAIT);
	assert_int_equal(bind_action(&b, 'g'), ACT_WAIT);
	assert_int_equal(bind_action(&b, KEY_KP0), ACT_WAIT);
	assert_int_equal(bind_action(&b, '.'), ACT_NONE);
	assert_int_equal(bind_action(&b, KEY_SPACE), ACT_NONE);
	assert_int_equal(bind_action(&b, ','), ACT_PICKUP);
	uint32_t k[8];
	assert_int_equal(bind_keys(&b, ACT_WAIT, false, k, 8), 3);
	assert_int_equal(k[0], 'z');
	/* the pad's buttons are untouched by a keyboard setting */
	assert_int_equal(bind_keys(&b, ACT_BACK, true, k, 8), 1);
	assert_int_equal(k[0], PAD_EAST);
	assert_int_equal(bind_set(&b, ACT_EXPLORE, true, "pad_x pad_r2", why, sizeof why), 0);
	assert_int_equal(bind_action(&b, PAD_WEST), ACT_EXPLORE);
	assert_int_equal(bind_keys(&b, ACT_INVENTORY, true, k, 8), 0);
	assert_int_equal(bind_keys(&b, ACT_INVENTORY, false, k, 8), 1);
	assert_int_equal(bind_action(&b, PAD_THUMBL), ACT_OPTIONS); /* another action's button: untouched */
	/* empty: no key at all */
	assert_int_equal(bind_set(&b, ACT_HELP, false, "", why, sizeof why), 0);
	assert_int_equal(bind_keys(&b, ACT_HELP, false, k, 8), 0);
	assert_int_equal(bind_action(&b, '?'), ACT_NONE);
	/* bad lists leave the table as it was */
	struct bindings before = b;
	assert_int_equal(bind_set(&b, ACT_WAIT, false, "z nosuchkey", why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "unknown key 'nosuchkey'"));
	assert_int_equal(bind_set(&b, ACT_WAIT, false, "pad_a", why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "'pad_a' is a gamepad button; it goes in pad.wait"));
	assert_int_equal(bind_set(&b, ACT_WAIT, true, "x", why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "'x' is a keyboard key; it goes in key.wait"));
	assert_int_equal(bind_set(&b, ACT_WAIT, false, "modifier", why, sizeof why), -EINVAL);
	assert_memory_equal(&before, &b, sizeof b);
}

/* A keyboard setting of an action that also has gamepad buttons keeps its
 * buttons, and a gamepad setting keeps its keys (test_set's wait has no
 * button: dropping every binding of the action passed it; only a golden
 * file saw it). */
static void test_set_keeps_the_other_kind(void **st)
{
	(void)st;
	struct bindings b;
	char why[256];
	uint32_t k[8];
	bind_defaults(&b);
	assert_int_equal(bind_set(&b, ACT_MOVE_N, false, "w", why, sizeof why), 0);
	assert_int_equal(bind_keys(&b, ACT_MOVE_N, false, k, 8), 1);
	assert_int_equal(k[0], 'w');
	assert_int_equal(bind_keys(&b, ACT_MOVE_N, true, k, 8), 1);
	assert_int_equal(k[0], PAD_UP);
	assert_int_equal(bind_action(&b, PAD_UP), ACT_MOVE_N);
	assert_int_equal(bind_set(&b, ACT_INVENTORY, false, "I", why, sizeof why), 0);
	assert_int_equal(bind_action(&b, PAD_WEST), ACT_INVENTORY);
	assert_int_equal(bind_action(&b, 'i'), ACT_NONE);
	/* and the other way round */
	assert_int_equal(bind_set(&b, ACT_HELP, true, "pad_r", why, sizeof why), 0);
	assert_int_equal(bind_action(&b, PAD_TR), ACT_HELP);
	assert_int_equal(bind_action(&b, PAD_TL2), ACT_NONE);
	assert_int_equal(bind_keys(&b, ACT_HELP, false, k, 8), 2);
	assert_int_equal(k[0], '?');
	assert_int_equal(k[1], KEY_F1);
	/* an empty list leaves the other kind too */
	assert_int_equal(bind_set(&b, ACT_EXPLORE, false, "", why, sizeof why), 0);
	assert_int_equal(bind_keys(&b, ACT_EXPLORE, false, k, 8), 0);
	assert_int_equal(bind_keys(&b, ACT_EXPLORE, true, k, 8), 1);
	assert_int_equal(k[0], PAD_TR2);
}

static void test_names_and_labels(void **st)
{
	(void)st;
	enum action a;
	for (int i = ACT_NONE + 1; i < ACT_COUNT; i++) {
		assert_int_equal(bind_action_parse(bind_action_name((enum action)i), &a), 0);
		assert_int_equal(a, i);
	}
	assert_int_equal(bind_action_parse("fly", &a), -EINVAL);
	assert_int_equal(bind_action_parse("none", &a), -EINVAL);
	char buf[32];
	assert_string_equal(bind_key_label(KEY_ESCAPE, buf, sizeof buf), "Esc");
	assert_string_equal(bind_key_label(PAD_SOUTH, buf, sizeof buf), "A");
	assert_string_equal(bind_key_label(KEY_KP5, buf, sizeof buf), "Num5");
	assert_string_equal(bind_key_label(KEY_F1, buf, sizeof buf), "F1");
	assert_string_equal(bind_key_label('g', buf, sizeof buf), "g");
	assert_true(bind_is_pad(PAD_TR2));
	assert_false(bind_is_pad(KEY_F12));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_game_md_keys),
		cmocka_unit_test(test_move_delta),
		cmocka_unit_test(test_key_parse),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_set_keeps_the_other_kind),
		cmocka_unit_test(test_names_and_labels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
