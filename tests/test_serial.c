/* serial: game_encode/game_decode round trips on many states (checksum equal, identical continuation) and damaged encodings refused. */
#include "savefix.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>

#include "game/items.h"
#include "game/serial.h"
#include "save/record.h"
#include "savecraft.h"

/* decode(encode(g)): a new game with g's checksum, encoding to the same bytes. */
static struct game *round_trip(const struct game *g)
{
	struct serial_buf a = {0}, b = {0};
	assert_int_equal(game_encode(g, &a), 0);
	struct game *h;
	char why[256] = "unset";
	int rc = game_decode(&h, a.data, a.len, why, sizeof why);
	if (rc)
		print_message("decode refused: %s\n", why);
	assert_int_equal(rc, 0);
	assert_true(game_checksum(h) == game_checksum(g));
	assert_true(game_digest(h) == game_digest(g));
	assert_int_equal(game_turn(h), game_turn(g));
	assert_int_equal(game_depth(h), game_depth(g));
	assert_int_equal(game_encode(h, &b), 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.data, b.data, a.len);
	free(a.data);
	free(b.data);
	return h;
}

/* Two games on the same seed and commands, one of them saved and loaded
 * every few turns: after every command both have the same checksum (the
 * loaded game goes on exactly as the saved one would, monsters acting in the
 * same order, freed ids reused the same way). */
static void test_round_trip_continues(void **state)
{
	(void)state;
	int loads = 0, deepest = 0;
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		for (uint64_t seed = 1; seed <= 4; seed++) {
			struct game *a = gamefix_new(seed * 101 + (uint64_t)k, (enum mapgen_kind)k);
			struct game *b = gamefix_new(seed * 101 + (uint64_t)k, (enum mapgen_kind)k);
			struct savefix_bot bot;
			savefix_bot_init(&bot, seed);
			for (int t = 0; t < 1500 && !game_is_over(a); t++) {
				if (t % 11 == 0) {
					struct game *c = round_trip(b);
					game_destroy(b);
					b = c;
					loads++;
				}
				enum cmd c = savefix_pick(&bot, a);
				assert_int_equal(game_apply(a, c), game_apply(b, c));
				assert_true(game_checksum(a) == game_checksum(b));
				assert_true(game_digest(a) == game_digest(b));
				/* kept up to date on a, made from scratch on b now and then
				 * (a loaded game) */
				assert_true(game_digest(a) == game_digest_full(a));
			}
			if (game_depth(a) > deepest)
				deepest = game_depth(a);
			game_destroy(round_trip(a)); /* also the game over state */
			game_destroy(a);
			game_destroy(b);
		}
	}
	print_message("serial: %d loads, deepest floor %d\n", loads, deepest);
	assert_true(deepest >= 3);
}

/* A fresh game and one with freed and reused entity slots. */
static void test_round_trip_fresh_and_freed(void **state)
{
	(void)state;
	struct game *g = gamefix_new(7, MAPGEN_CLASSIC);
	game_destroy(round_trip(g));
	/* kill every monster of floor 1: freed slots, a free list to keep */
	world_clear_monsters(g, 1);
	assert_true(ecs_free_count(g->w) > 0);
	struct game *h = round_trip(g);
	assert_int_equal(ecs_free_count(h->w), ecs_free_count(g->w));
	for (uint32_t i = 0; i < ecs_free_count(g->w); i++)
		assert_int_equal(ecs_free_at(h->w, i), ecs_free_at(g->w, i));
	ecs_entity x, y;
	assert_int_equal(world_spawn_actor(g, ACTOR_ORC, 1, 1, 1, &x), 0);
	assert_int_equal(world_spawn_actor(h, ACTOR_ORC, 1, 1, 1, &y), 0);
	assert_true(x == y);
	game_destroy(g);
	game_destroy(h);
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A state worth damaging: a few floors, monsters, corpses, a log. */
static struct serial_buf sample(struct game **out)
{
	struct game *g = gamefix_new(5, MAPGEN_CLASSIC);
	struct savefix_bot bot;
	savefix_bot_init(&bot, 5);
	savefix_play(&bot, g, 400);
	/* a stack (COMP_STACK): three potions more, onto one slot */
	assert_int_equal(items_give(g, ITEM_HEALTH_POTION, false), 0);
	assert_int_equal(items_give(g, ITEM_HEALTH_POTION, false), 0);
	assert_int_equal(items_give(g, ITEM_HEALTH_POTION, false), 0);
	/* one of them put down (COMP_DROPPED) */
	struct game_item_view v[INVENTORY_SLOTS];
	int n = game_inventory(g, v, INVENTORY_SLOTS);
	assert_true(v[n - 1].count == 3);
	assert_int_equal(items_drop(g, v[n - 1].slot, false), 1);
	struct serial_buf b = {0};
	assert_int_equal(game_encode(g, &b), 0);
	if (out)
		*out = g;
	else
		game_destroy(g);
	return b;
}

/* game_checksum and the save read one list of component fields
 * (serial_fields): every value of every field of every component the
 * sample's entities hold changes the checksum when it changes, and the
 * digest (pirogue --watch's) too. */
static void test_checksum_covers_every_field(void **state)
{
	(void)state;
	struct game *g;
	struct serial_buf b = sample(&g);
	free(b.data);
	bool seen[COMP_COUNT] = {false};
	uint64_t sum = game_checksum(g), dig = game_digest(g);
	assert_true(dig != sum); /* another function of the same state */
	long changed = 0;
	for (uint32_t i = 0; i < ecs_slots(g->w); i++) {
		ecs_entity e = ecs_slot_entity(g->w, i);
		for (int c = 0; e != ECS_NULL && c < COMP_COUNT; c++) {
			unsigned char *s = ecs_get_mut(g->w, e, c);
			if (!s)
				continue;
			seen[c] = true;
			int nf;
			const struct serial_field *f = serial_fields(c, &nf);
			assert_true(nf > 0);
			for (int k = 0; k < nf; k++) {
				/* each value's lowest byte (a string: its first) */
				int n = f[k].kind == SERIAL_CHARS ? 1 : f[k].n;
				size_t size = f[k].kind == SERIAL_U64 ? 8 : f[k].kind == SERIAL_U8 ? 1 : 4;
				for (int j = 0; j < n; j++) {
					size_t off = f[k].off + (f[k].kind == SERIAL_CHARS ? 0 : (size_t)j * size);
					unsigned char *p = s + off;
					*p ^= 1;
					assert_true(game_checksum(g) != sum);
					assert_true(game_digest(g) != dig); /* seen: ecs_get_mut marked it */
					assert_true(game_digest(g) == game_digest_full(g));
					/* the digest forgot the marks: a write asks again */
					p = (unsigned char *)ecs_get_mut(g->w, e, c) + off;
					*p ^= 1;
					assert_true(game_digest(g) == dig);
					s = ecs_get_mut(g->w, e, c);
					changed++;
				}
			}
		}
	}
	assert_true(game_checksum(g) == sum);
	assert_true(game_digest(g) == dig);
	for (int c = 0; c < COMP_COUNT; c++)
		assert_true(seen[c]); /* the sample holds every component */
	assert_true(changed > 1000);
	/* every byte of every floor's tiles and memory (the digest reads them
	 * eight at a time: the last few of a floor too), the RNG, the turn */
	for (int f = 0; f < g->nfloors; f++) {
		struct map *m = g->floors[f];
		size_t cells = (size_t)m->w * (size_t)m->h;
		unsigned char *arr[] = { (unsigned char *)m->tile, m->visible, m->explored };
		for (int a = 0; a < 3; a++)
			for (size_t i = 0; i < cells; i += i + 9 < cells ? 7 : 1) {
				/* a writer other than map_set and map_update_fov says so
				 * (map_changed); the digest made from scratch needs not */
				arr[a][i] ^= 1;
				assert_true(game_checksum(g) != sum);
				assert_true(game_digest_full(g) != dig);
				map_changed(m);
				assert_true(game_digest(g) != dig);
				arr[a][i] ^= 1;
				map_changed(m);
			}
		/* map_set keeps the floor's part itself */
		for (size_t i = 0; i < cells; i += 13) {
			int x = (int)(i % (size_t)m->w), y = (int)(i / (size_t)m->w);
			enum tile t = map_tile(m, x, y);
			map_set(m, x, y, t == TILE_WALL ? TILE_FLOOR : TILE_WALL);
			assert_true(game_digest(g) != dig);
			assert_true(game_digest(g) == game_digest_full(g));
			map_set(m, x, y, t);
			assert_true(game_digest(g) == dig);
		}
	}
	assert_true(game_digest(g) == dig);
	/* every message's text, colour and count (the log is written only by
	 * world_msg: the digest made from scratch sees a byte changed in
	 * place) */
	for (int i = 0; i < g->log_count; i++) {
		struct game_msg *msg = &g->log[(g->log_start + i) % GAME_LOG_MAX];
		msg->text[0] ^= 1;
		assert_true(game_checksum(g) != sum);
		assert_true(game_digest_full(g) != dig);
		msg->text[0] ^= 1;
		msg->fg ^= 1;
		assert_true(game_digest_full(g) != dig);
		msg->fg ^= 1;
		msg->count++;
		assert_true(game_digest_full(g) != dig);
		msg->count--;
	}
	assert_true(game_digest_full(g) == dig);

	g->rng.state ^= 1ull << 40;
	assert_true(game_digest(g) != dig);
	g->rng.state ^= 1ull << 40;
	g->turn++;
	assert_true(game_digest(g) != dig);
	g->turn--;
	assert_true(game_digest(g) == dig);
	/* a message, then the same again (its count raised) */
	world_msg(g, 0xFFFFFF, "one more");
	assert_true(game_digest(g) != dig && game_digest(g) == game_digest_full(g));
	uint64_t once = game_digest(g);
	world_msg(g, 0xFFFFFF, "one more");
	assert_true(game_digest(g) != once && game_digest(g) == game_digest_full(g));
	assert_int_equal(serial_fields(COMP_COUNT, &(int){1}) == NULL, 1);
	game_destroy(g);
}

/* game_digest's bookkeeping against the digest made from scratch: a game
 * g checked after every command, a copy h after batches of 1 to 9 (what a
 * watcher checks after), the digest equal to game_digest_full each time. */
static void digest_follows(struct game *g, struct game *h, const struct command *cmd, size_t i)
{
	game_do(g, cmd);
	game_do(h, cmd);
	assert_true(game_digest(g) == game_digest_full(g));
	if (i % (1 + i % 9) == 0) {
		assert_true(game_digest(h) == game_digest_full(h));
		assert_true(game_digest(h) == game_digest(g));
	}
}

/* Every recording in tests/recordings/, and the bot's long games over
 * every generator and two floor sizes, deep floors and a log that has
 * wrapped (more than GAME_LOG_MAX messages). */
static void test_digest_follows_games(void **state)
{
	(void)state;
	DIR *d = opendir(TEST_DIR "/recordings");
	assert_non_null(d);
	int recs = 0;
	long steps = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".rec") != 0)
			continue;
		char path[512], err[256];
		snprintf(path, sizeof path, TEST_DIR "/recordings/%s", e->d_name);
		struct recording r = {0};
		assert_int_equal(rec_load(path, &r, err, sizeof err), 0);
		struct game_opts o = { .seed = r.seed, .map_w = r.map_w, .map_h = r.map_h, .stacks_from = r.stacks_from };
		assert_int_equal(mapgen_parse(r.mapgen, &o.mapgen), 0);
		struct game *g, *h;
		assert_int_equal(game_create(&g, &o), 0);
		assert_int_equal(game_create(&h, &o), 0);
		for (size_t i = 0; i < r.nsteps; i++)
			digest_follows(g, h, &r.steps[i].cmd, i);
		steps += (long)r.nsteps;
		assert_true(game_checksum(g) == r.end_sum || !r.end_has_sum);
		game_destroy(g);
		game_destroy(h);
		rec_free(&r);
		recs++;
	}
	closedir(d);
	assert_true(recs >= 3);
	int deepest = 0, wrapped = 0;
	for (int k = 0; k < MAPGEN_COUNT; k++) {
		for (int size = 0; size < 2; size++) {
			struct game_opts o = { .seed = 40 + (uint64_t)k, .mapgen = (enum mapgen_kind)k,
					       .map_w = size ? 120 : 0, .map_h = size ? 60 : 0 };
			/* u: the same game never digested (no watcher): the digest
			 * must not change the game it reads */
			struct game *g, *h, *u;
			assert_int_equal(game_create(&g, &o), 0);
			assert_int_equal(game_create(&h, &o), 0);
			assert_int_equal(game_create(&u, &o), 0);
			((struct c_actor *)ecs_get_mut(g->w, g->player, COMP_ACTOR))->defense = 1000;
			((struct c_actor *)ecs_get_mut(h->w, h->player, COMP_ACTOR))->defense = 1000;
			((struct c_actor *)ecs_get_mut(u->w, u->player, COMP_ACTOR))->defense = 1000;
			struct savefix_bot bot;
			savefix_bot_init(&bot, 40 + (uint64_t)k);
			for (size_t i = 0; i < 4000 && !game_is_over(g); i++) {
				struct command c = { .c = savefix_pick(&bot, g), .item = -1, .x = -1, .y = -1, .choice = -1 };
				/* on the larger floors, messages enough to wrap the log */
				if (size && i % 4 == 0) {
					world_msg(g, 0xFFFFFF, "a note %zu", i);
					world_msg(h, 0xFFFFFF, "a note %zu", i);
					world_msg(u, 0xFFFFFF, "a note %zu", i);
				}
				digest_follows(g, h, &c, i);
				game_do(u, &c);
				if (i % 500 == 0)
					assert_true(game_checksum(u) == game_checksum(g));
			}
			assert_true(game_checksum(u) == game_checksum(g));
			game_destroy(u);
			steps += 4000;
			if (game_depth(g) > deepest)
				deepest = game_depth(g);
			wrapped += g->log_start > 0;
			game_destroy(g);
			game_destroy(h);
		}
	}
	print_message("digest: %d recordings, %ld commands, deepest floor %d, %d logs wrapped\n", recs, steps, deepest,
		      wrapped);
	assert_true(deepest >= 3);
	assert_true(wrapped > 0);
}

/* Refused with a reason, or (a change the checks cannot tell from a real
 * state) a game that plays on without harm. */
static void decode_survives(const unsigned char *data, size_t len, int *refused)
{
	struct game *g;
	char why[256] = "";
	int rc = game_decode(&g, data, len, why, sizeof why);
	if (rc) {
		assert_int_equal(rc, -EINVAL);
		assert_true(why[0] != 0);
		assert_null(strchr(why, '\n'));
		(*refused)++;
		return;
	}
	for (int i = 0; i < 30; i++)
		game_apply(g, (enum cmd)(CMD_MOVE_N + i % 8));
	(void)game_checksum(g);
	game_destroy(g);
}

/* Every truncation of the encoding is refused. */
static void test_truncated(void **state)
{
	(void)state;
	struct serial_buf b = sample(NULL);
	int refused = 0;
	/* every length within the section headers and around each boundary,
	 * and a spread through the payloads */
	for (size_t n = 0; n < b.len; n += n < 64 ? 1 : 97) {
		decode_survives(b.data, n, &refused);
	}
	for (size_t at = 0; at + 8 <= b.len; at += 8 + get32(b.data + at + 4))
		for (size_t n = at > 8 ? at - 8 : 0; n < at + 16 && n < b.len; n++)
			decode_survives(b.data, n, &refused);
	int tries = 0;
	for (size_t n = 0; n < b.len; n += n < 64 ? 1 : 97)
		tries++;
	assert_true(refused >= tries);
	free(b.data);
}

/* Random bytes changed (no CRC here to catch them): refused with a reason
 * or harmless; never a crash (make asan runs this too). */
static void test_flipped(void **state)
{
	(void)state;
	struct serial_buf b = sample(NULL);
	unsigned char *copy = malloc(b.len);
	assert_non_null(copy);
	struct rng r;
	rng_seed(&r, 99);
	int refused = 0;
	for (int i = 0; i < 3000; i++) {
		memcpy(copy, b.data, b.len);
		int flips = rng_range(&r, 1, 3);
		for (int f = 0; f < flips; f++)
			copy[rng_range(&r, 0, (int)b.len - 1)] ^= (unsigned char)rng_range(&r, 1, 255);
		decode_survives(copy, b.len, &refused);
	}
	print_message("serial: %d of 3000 damaged encodings refused\n", refused);
	/* most bytes are tiles, seen-flags and numbers the checks test */
	assert_true(refused > 1000);
	free(copy);
	free(b.data);
}

/* Hand-made damage names what is wrong. */
static void test_reasons(void **state)
{
	(void)state;
	struct game *g;
	struct serial_buf b = sample(&g);
	char why[256];
	struct game *h;
	/* another version */
	b.data[8] ^= 0x40;
	assert_int_equal(game_decode(&h, b.data, b.len, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "version"));
	b.data[8] ^= 0x40;
	/* a byte too many */
	unsigned char *more = malloc(b.len + 1);
	memcpy(more, b.data, b.len);
	more[b.len] = 0;
	assert_int_equal(game_decode(&h, more, b.len + 1, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "unexpected bytes"));
	free(more);
	/* the player's floor out of range: depth field of GAME (after tag,
	 * length, version, seed, mapgen, rng: 8 + 4 + 8 + 4 + 16 + 4 (turn)) */
	size_t depth_at = 8 + 4 + 8 + 4 + 16 + 4;
	b.data[depth_at] = 99;
	assert_int_equal(game_decode(&h, b.data, b.len, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "floor 99"));
	b.data[depth_at] = (unsigned char)game_depth(g);
	/* no entity slots at all (found by the fuzzer: the ECS was handed an
	 * empty free list it had no room for) */
	for (size_t at = 0; at + 8 <= b.len; at += 8 + get32(b.data + at + 4)) {
		if (memcmp(b.data + at, "ENTS", 4) == 0) {
			memset(b.data + at + 8, 0, 4);
			break;
		}
	}
	assert_int_equal(game_decode(&h, b.data, b.len, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "no entities"));
	/* nothing at all, and a NULL why */
	assert_int_equal(game_decode(&h, b.data, 0, NULL, 0), -EINVAL);
	assert_null(h);
	free(b.data);
	game_destroy(g);
}

/* Games on floors of other sizes: saved and loaded every few turns they go
 * on exactly as the ones never saved; a floor whose size is out of range,
 * or unlike floor 1's, is refused. */
static void test_sizes(void **state)
{
	(void)state;
	static const int sizes[][2] = { { MAP_MIN_W, MAP_MIN_H }, { 123, 57 }, { MAP_MAX_W, MAP_MAX_H } };
	for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
		struct game_opts o = { .seed = 5 + z, .mapgen = MAPGEN_CLASSIC, .map_w = sizes[z][0], .map_h = sizes[z][1] };
		struct game *a, *b;
		assert_int_equal(game_create(&a, &o), 0);
		assert_int_equal(game_create(&b, &o), 0);
		assert_int_equal(game_map(a)->w, sizes[z][0]);
		assert_int_equal(game_map(a)->h, sizes[z][1]);
		struct savefix_bot bot;
		savefix_bot_init(&bot, 3);
		for (int t = 0; t < 300 && !game_is_over(a); t++) {
			if (t % 11 == 0) {
				struct game *c = round_trip(b);
				game_destroy(b);
				b = c;
			}
			enum cmd c = savefix_pick(&bot, a);
			assert_int_equal(game_apply(a, c), game_apply(b, c));
			assert_true(game_checksum(a) == game_checksum(b));
		}
		struct game_opts back;
		game_opts_of(b, &back);
		assert_int_equal(back.map_w, sizes[z][0]);
		assert_int_equal(back.map_h, sizes[z][1]);
		game_destroy(a);
		game_destroy(b);
	}
	struct game *g;
	struct serial_buf b = sample(&g);
	size_t flor = 0;
	for (size_t at = 0; at + 8 <= b.len; at += 8 + get32(b.data + at + 4))
		if (memcmp(b.data + at, "FLOR", 4) == 0)
			flor = at + 8;
	assert_true(flor > 0);
	char why[256];
	struct game *h;
	b.data[flor + 4] = MAP_MIN_W - 1; /* floor 1's width (little-endian) */
	assert_int_equal(game_decode(&h, b.data, b.len, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "floor 1 is 19x43 cells"));
	b.data[flor + 4] = MAP_W;
	b.data[flor + 5] = 1; /* 336 wide */
	assert_int_equal(game_decode(&h, b.data, b.len, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "floor 1 is 336x43 cells"));
	free(b.data);
	game_destroy(g);
}

/* Plays on a loaded crafted game what the reports did ('g', 'i',
 * quaffing, dropping, waiting, an attack that kills and gives XP), then
 * saves it: the save must load again. */
static int crafted_plays_on(struct game *g, const char *name)
{
	struct game_item_view items[INVENTORY_SLOTS];
	int x, y;
	game_player_pos(g, &x, &y);
	ecs_entity orc;
	int ox = x + 1, oy = y;
	if (!world_on_floor(g, ox, oy) || map_tile(world_floor(g, g->depth), ox, oy) == TILE_WALL ||
	    world_blocker_at(g, g->depth, ox, oy) != ECS_NULL)
		ox = x - 1;
	assert_int_equal(world_spawn_actor(g, ACTOR_ORC, g->depth, ox, oy, &orc), 0);
	struct c_actor *a = ecs_get_mut(g->w, orc, COMP_ACTOR);
	a->hp = 1;
	a->power = 0;
	game_apply(g, CMD_PICKUP);
	assert_true(game_inventory(g, items, INVENTORY_SLOTS) > 0);
	struct command c = {.c = CMD_USE, .item = SAVECRAFT_POTION_SLOT, .x = -1, .y = -1, .choice = -1};
	struct c_actor *pa = ecs_get_mut(g->w, g->player, COMP_ACTOR);
	if (pa->hp == pa->max_hp && pa->hp > 1)
		pa->hp--; /* so that the potion is drunk */
	game_do(g, &c);
	game_apply(g, ox > x ? CMD_MOVE_E : CMD_MOVE_W); /* kills the orc */
	for (int i = 0; i < 4; i++)
		game_apply(g, CMD_WAIT);
	c = (struct command){.c = CMD_DROP, .item = 0, .x = -1, .y = -1, .choice = -1};
	game_do(g, &c);
	assert_true(game_inventory(g, items, INVENTORY_SLOTS) >= 0);
	struct serial_buf b = {0};
	assert_int_equal(save_encode(g, &b), 0);
	struct game *h;
	char why[SAVE_WHY_MAX] = "";
	int rc = save_decode(b.data, b.len, &h, why, sizeof why);
	free(b.data);
	if (rc) {
		print_message("%s: played on, saved, refused: %s\n", name, why);
		return 1;
	}
	int differs = game_checksum(h) != game_checksum(g);
	game_destroy(h);
	return differs;
}

/* The crafted saves of tests/savecraft.h (issue 21, items 1-3): each is
 * refused with one line naming what is wrong, or loads and plays on to a
 * game whose next save loads too. */
static void test_crafted(void **state)
{
	(void)state;
	int wrong = 0;
	for (int i = 0; i < SAVECRAFT_COUNT; i++) {
		const struct savecraft *c = &savecraft_all[i];
		struct serial_buf b = {0};
		assert_int_equal(savecraft_encode(c, &b), 0);
		struct game *g;
		char why[SAVE_WHY_MAX] = "";
		int rc = save_decode(b.data, b.len, &g, why, sizeof why);
		free(b.data);
		if (c->refused) {
			if (rc != -EINVAL || !strstr(why, c->refused) || strchr(why, '\n')) {
				print_message("%s (%s): %s '%s'\n", c->name, c->what,
					      rc ? "refused, but not naming what is wrong:" : "loaded", why);
				wrong++;
			}
			if (!rc)
				game_destroy(g);
			continue;
		}
		if (rc) {
			print_message("%s (%s): refused: %s\n", c->name, c->what, why);
			wrong++;
			continue;
		}
		wrong += crafted_plays_on(g, c->name);
		game_destroy(g);
	}
	assert_int_equal(wrong, 0);
}

/* Fills 64 KB of the stack below the caller with v, as earlier work leaves it. */
static __attribute__((noinline)) void dirty_stack(unsigned char v)
{
	volatile unsigned char buf[1 << 16];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = v;
}

/* The same game played twice over different leftovers on the stack saves
 * the same bytes: a message's text after its end is zeros, not what the
 * stack held (world_msg copied all 120 bytes of its stack buffer). */
static void test_same_bytes_whatever_the_stack(void **state)
{
	(void)state;
	struct serial_buf b[2] = {{0}, {0}};
	for (int k = 0; k < 2; k++) {
		struct game *g = gamefix_new(3, MAPGEN_CLASSIC);
		struct savefix_bot bot;
		savefix_bot_init(&bot, 3);
		for (int t = 0; t < 200 && !game_is_over(g); t++) {
			enum cmd c = savefix_pick(&bot, g);
			dirty_stack(k ? 0x55 : 0xAA);
			game_apply(g, c);
		}
		assert_int_equal(game_encode(g, &b[k]), 0);
		game_destroy(g);
	}
	assert_int_equal(b[0].len, b[1].len);
	assert_memory_equal(b[0].data, b[1].data, b[0].len);
	free(b[0].data);
	free(b[1].data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_fresh_and_freed),
		cmocka_unit_test(test_round_trip_continues),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_checksum_covers_every_field),
		cmocka_unit_test(test_digest_follows_games),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_flipped),
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_same_bytes_whatever_the_stack),
		cmocka_unit_test(test_crafted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
