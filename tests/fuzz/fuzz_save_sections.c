/* Fuzz target: save files, mutated inside their sections. The mutator
 * (LLVMFuzzerCustomMutator) takes a save apart, changes bytes of one
 * section's payload (libFuzzer's own mutations, numbers at the limits, an
 * entity id copied over another), then recomputes every length and CRC32,
 * so that each input passes the framing and reaches the game's checks. A
 * save that loads must re-encode to the very same bytes, load again to the
 * same game, play a few commands (taken from the input) identically, and
 * then save to a file that loads: a game that loads can always be saved. */
#include "core/le.h"
#include "fuzzsave.h"

#include <zlib.h>

/* libFuzzer's mutator; absent (NULL) in the replay harness. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max) __attribute__((weak));

#define HEAD 20

/* The sections of a save: count, and each one's offset (of its 12-byte
 * head) and payload length. 0, or -1 when data is not framed as a save. */
struct frame {
	uint32_t n;
	size_t at[64];
	uint32_t len[64];
};

static int parse(const uint8_t *d, size_t size, struct frame *f)
{
	if (size < HEAD || memcmp(d, SAVE_MAGIC, 8) != 0)
		return -1;
	f->n = le_get32(d + 12);
	if (f->n == 0 || f->n > 64)
		return -1;
	size_t at = HEAD;
	for (uint32_t i = 0; i < f->n; i++) {
		if (size - at < 12)
			return -1;
		f->at[i] = at;
		f->len[i] = le_get32(d + at + 4);
		if (size - at - 12 < f->len[i])
			return -1;
		at += 12 + f->len[i];
	}
	return at == size ? 0 : -1;
}

/* Every section's length and CRC, and the header's, made right again. */
static void reframe(uint8_t *d, const struct frame *f)
{
	for (uint32_t i = 0; i < f->n; i++) {
		uint8_t *h = d + f->at[i];
		le_put32(h + 4, f->len[i]);
		le_put32(h + 8, (uint32_t)crc32(0L, h + 12, f->len[i]));
	}
	le_put32(d + 12, f->n);
	le_put32(d + 16, (uint32_t)crc32(0L, d, 16));
}

static uint32_t next(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Numbers at the game's limits and beyond (docs/save.md). */
static const int32_t edges[] = { 0, 1, -1, 2, 25, 26, 27, 999, 1000, 1001, (1 << 16), (1 << 20), (1 << 20) + 1,
				 (1 << 24) - 1, (1 << 24), (1 << 24) + 1, (1 << 30) - 2, (1 << 30) - 1, (1 << 30),
				 0x7fffffff, (int32_t)0x80000000, 0x10FFFF, 0x110000, 0xD800 };

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed)
{
	struct frame f;
	uint32_t s = seed;
	if (parse(data, size, &f) || !LLVMFuzzerMutate)
		return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max) : size;
	uint32_t k = next(&s) % f.n;
	size_t at = f.at[k] + 12, n = f.len[k], tail = size - at - n;
	if (max < size)
		return size;
	switch (next(&s) % 4) {
	case 0: /* a number at a limit, at a 4-byte boundary of the payload */
		if (n >= 4) {
			size_t o = (next(&s) % (n / 4)) * 4;
			le_put32(data + at + o, (uint32_t)edges[next(&s) % (sizeof edges / sizeof edges[0])]);
		}
		break;
	case 1: /* 4 or 8 bytes copied from one place to another (an entity id
		   into another slot, a kind into another entity) */
		if (n >= 16) {
			size_t w = next(&s) % 2 ? 8 : 4;
			size_t from = (next(&s) % (n / 4 - w / 4 + 1)) * 4, to = (next(&s) % (n / 4 - w / 4 + 1)) * 4;
			memmove(data + at + to, data + at + from, w);
		}
		break;
	default: { /* libFuzzer's mutations inside the payload, which may
		      grow or shrink it */
		size_t room = max - size + n;
		uint8_t *tmp = malloc(room ? room : 1);
		if (!tmp)
			return size;
		memcpy(tmp, data + at, n);
		size_t m = LLVMFuzzerMutate(tmp, n, room);
		memmove(data + at + m, data + at + n, tail);
		memcpy(data + at, tmp, m);
		free(tmp);
		for (uint32_t i = k + 1; i < f.n; i++)
			f.at[i] = f.at[i] + m - n;
		f.len[k] = (uint32_t)m;
		size = size - n + m;
		break;
	}
	}
	reframe(data, &f);
	return size;
}

/* A few commands of any kind, from the input's bytes. */
static struct command cmd_of(const uint8_t *data, size_t size, int i)
{
	uint8_t b = data[((size_t)i * 7919u + 13u) % size], c = data[((size_t)i * 104729u + 7u) % size];
	struct command cmd = { .c = (enum cmd)(b % CMD_COUNT), .item = c % 27, .x = c % 80, .y = b % 43,
			       .choice = c % 4 };
	return cmd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct game *g;
	if (fuzz_save_load(data, size, &g))
		return 0;
	struct serial_buf b = { 0 };
	if (save_encode(g, &b))
		abort();
	/* a save of this format re-encodes to its very bytes (an older one
	 * this build still reads is rewritten in the current format: then
	 * that encoding must be stable) */
	if (le_get32(data + 8) == SERIAL_VERSION && (b.len != size || memcmp(b.data, data, size))) {
		fprintf(stderr, "fuzz: a save that loads re-encodes to other bytes (%zu, not %zu)\n", b.len, size);
		abort();
	}
	struct game *g2 = fuzz_save_reload(&b, g);
	struct serial_buf b2 = { 0 };
	if (save_encode(g2, &b2) || b2.len != b.len || memcmp(b2.data, b.data, b.len)) {
		fprintf(stderr, "fuzz: a loaded save re-encodes to other bytes each time\n");
		abort();
	}
	free(b2.data);
	free(b.data);
	/* play on both, looking at what the screens look at */
	struct game_item_view items[26];
	struct game_stats st;
	for (int i = 0; i < 12 && !game_is_over(g); i++) {
		struct command c = cmd_of(data, size, i);
		game_do(g, &c);
		game_do(g2, &c);
		if (game_checksum(g) != game_checksum(g2))
			abort();
		(void)game_inventory(g, items, 26);
		game_stats(g, &st);
		int x, y;
		game_player_pos(g, &x, &y);
	}
	/* what play made of it saves, and loads again */
	b = (struct serial_buf){ 0 };
	if (save_encode(g, &b))
		abort();
	struct game *g3 = NULL;
	char why[SAVE_WHY_MAX] = "";
	if (save_decode(b.data, b.len, &g3, why, sizeof why)) {
		fprintf(stderr, "fuzz: a loaded game, played on, saves a file that is refused: %s\n", why);
		abort();
	}
	free(b.data);
	game_destroy(g3);
	game_destroy(g2);
	game_destroy(g);
	return 0;
}
