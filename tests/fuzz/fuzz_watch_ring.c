/* Fuzz target: the watcher's reading of the ring the game shares with
 * every watcher (docs/watch.md, "The ring"): a memory the watcher maps
 * read-only but the game (here: the input) writes at will, header and
 * counts included. The watcher is given a greeting and a snapshot on its
 * socket, then a WATCH_RING message with the ring's memfd (its size,
 * where to start, whether the memfd is as large as it says and whether it
 * came at all chosen by the input); then, round after round, the input
 * writes the header's counts and bytes into the ring and the watcher
 * reads it and draws a frame. Whatever the ring holds: no crash, a
 * refusal is one line, the reader holds at most twice the bytes it took
 * from the ring (and never more than the protocol's longest message), and
 * a watcher that finds it fell behind plays nothing until a snapshot.
 *
 * The input: u8 flags (bits 0-1: the ring's size, 4 KiB << n; bit 2: the
 * memfd a page smaller than the ring; bit 3: no memfd passed; bit 4: a
 * second WATCH_RING of another size after the first round), 64 bytes
 * XORed into the valid header, u64 where the watcher starts; then rounds
 * of u8 f (bit 0: the write count behind the watcher's position, not
 * ahead), u32 d (the write count is the watcher's position +/- d), i32 l
 * (the count being written up to: that +  l), u16 at, u16 n, n bytes
 * written into the ring from byte at (wrapping). */
#include "fuzzwatch.h"
#include "core/le.h"
#include "render/console.h"
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

static struct serial_buf greeting; /* HELLO and SNAPSHOT of a new game, seed 5 */

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)le_get32(p) | (uint64_t)le_get32(p + 4) << 32;
}

static void put64(unsigned char *p, uint64_t v)
{
	le_put32(p, (uint32_t)v);
	le_put32(p + 4, (uint32_t)(v >> 32));
}

/* The ring message of size and pos fed to w; returns watcher_feed's. */
static int feed_ring(struct watcher *w, uint32_t size, uint64_t pos, char *why, int len)
{
	struct serial_buf b = { 0 };
	if (watchwire_ring(&b, size, pos))
		abort();
	int rc = watcher_feed(w, b.data, b.len, why, len);
	free(b.data);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!greeting.len) {
		struct game *g;
		struct game_opts o = { .seed = 5 };
		struct ui u = { .screen = UI_PLAY, .hover_x = -1, .hover_y = -1, .score_rank = -1, .can_continue = true };
		if (game_create(&g, &o) || watchwire_hello(&greeting, "fuzz@ring") || watchwire_snapshot(&greeting, &u, g))
			abort();
		game_destroy(g);
	}
	if (size < 1 + WATCH_RING_HEAD + 8)
		return 0;
	uint8_t flags = data[0];
	uint32_t rsize = WATCH_RING_MIN << (flags & 3);
	const uint8_t *hx = data + 1;
	uint64_t start = get64(data + 1 + WATCH_RING_HEAD);
	data += 1 + WATCH_RING_HEAD + 8;
	size -= 1 + WATCH_RING_HEAD + 8;

	struct fuzz_log l;
	fuzz_log_begin(&l);
	/* the game's side of the ring: the memfd, mapped for writing */
	size_t len = WATCH_RING_HEAD + rsize, real = flags & 4 ? len - 4096 : len;
	int mfd = memfd_create("fuzz-ring", MFD_CLOEXEC), efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	int sv[2];
	if (mfd < 0 || efd < 0 || ftruncate(mfd, (off_t)real) || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		abort();
	unsigned char *ring = mmap(NULL, real, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	if (ring == MAP_FAILED)
		abort();
	le_put32(ring, WATCH_RING_MAGIC);
	le_put32(ring + 4, WATCH_VERSION);
	le_put32(ring + 8, rsize);
	put64(ring + WATCH_RING_AT_HEAD, start);
	put64(ring + WATCH_RING_AT_LIMIT, start);
	for (int i = 0; i < WATCH_RING_HEAD; i++)
		ring[i] ^= hx[i];
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	fcntl(sv[1], F_SETFL, O_NONBLOCK);

	struct watcher w = { .fd = sv[0] };
	if (!(flags & 8)) {
		w.has_fds = true;
		w.ring_fd = mfd;
		w.wake_fd = efd;
	}
	struct console *c, *s;
	struct ui_drawn *d = calloc(1, sizeof *d);
	if (!d || con_create(&c, 80, 24) || con_create(&s, 80, 24))
		abort();
	char why[512] = "";
	int rc = watcher_feed(&w, greeting.data, greeting.len, why, sizeof why);
	if (!rc)
		rc = feed_ring(&w, rsize, start, why, sizeof why);
	size_t took = 0; /* bytes the watcher took from the ring */
	for (int round = 0; !rc && size >= 13 && round < 256; round++) {
		uint8_t f = data[0];
		uint32_t dh = le_get32(data + 1);
		int32_t dl = (int32_t)le_get32(data + 5);
		uint32_t at = (uint32_t)data[9] | (uint32_t)data[10] << 8, n = (uint32_t)data[11] | (uint32_t)data[12] << 8;
		data += 13;
		size -= 13;
		if (n > size)
			n = (uint32_t)size;
		/* the bytes (wherever the memfd holds them), then the counts */
		for (uint32_t k = 0; k < n; k++) {
			size_t o = WATCH_RING_HEAD + (at + k) % rsize;
			if (o < real)
				ring[o] = data[k];
		}
		data += n;
		size -= n;
		uint64_t head = f & 1 ? w.pos - dh : w.pos + dh;
		put64(ring + WATCH_RING_AT_LIMIT, head + (uint64_t)(int64_t)dl);
		put64(ring + WATCH_RING_AT_HEAD, head);
		uint64_t was = w.pos;
		bool lost = !w.following && !w.synced;
		int ncmd = w.ncmd;
		rc = watcher_read(&w, why, sizeof why);
		if (rc == 1)
			abort(); /* the socket never closed */
		if (w.following && w.pos - was <= rsize)
			took += (size_t)(w.pos - was);
		if (lost && w.ncmd != ncmd)
			abort(); /* played a command while behind, before a snapshot */
		if (w.rrd.cap > 2 * took + 256 || w.rrd.cap > WATCH_MSG_MAX)
			abort(); /* held more than what came */
		if (!rc && watcher_draw(&w, d, c, s))
			abort();
		if (!rc && round == 0 && (flags & 16))
			rc = feed_ring(&w, rsize * 2, w.pos, why, sizeof why);
		/* what the watcher asked for (snapshots) is read and dropped */
		unsigned char sink[4096];
		while (read(sv[1], sink, sizeof sink) > 0)
			;
	}
	fuzz_log_end(&l);
	fuzz_watch_verdict(rc, why, &w);
	if (!w.has_fds) {
		close(mfd);
		close(efd);
	}
	watcher_close(&w); /* (closes sv[0] and the fds it was given) */
	close(sv[1]);
	munmap(ring, real);
	con_destroy(c);
	con_destroy(s);
	free(d);
	return 0;
}
