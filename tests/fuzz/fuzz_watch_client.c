/* Fuzz target: the game's handling of whatever a watcher sends (the
 * publisher reads its socket: only whole requests for a snapshot are
 * taken, anything else drops that watcher). The input is written to a
 * watcher's socket, then the publisher serves it and plays on: it must
 * drop the watcher exactly when the input is not made of requests, and
 * keep nothing but a WATCH_RING waiting on its socket besides snapshots. */
#include "fuzz.h"
#include "app/watch.h"
#include "app/watchwire.h"
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>

static struct game *g;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!g) {
		struct game_opts o = { .seed = 5 };
		if (game_create(&g, &o))
			abort();
	}
	struct fuzz_log l;
	fuzz_log_begin(&l);
	struct watch_pub *p;
	int sv[2];
	if (watch_pub_new(&p, "fuzz") || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		abort();
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	if (watch_pub_adopt(p, sv[0]))
		abort();
	struct ui u = { .screen = UI_PLAY, .hover_x = -1, .hover_y = -1, .score_rank = -1 };
	bool good = true;
	for (size_t i = 0; i < size; i++)
		good = good && data[i] == watch_resync_msg[i % WATCH_RESYNC_LEN];
	size_t at = 0;
	for (int round = 0; round < 64; round++) {
		if (at < size) {
			ssize_t k = write(sv[1], data + at, size - at);
			if (k > 0)
				at += (size_t)k;
		}
		struct command c = { .c = CMD_WAIT, .item = -1, .x = -1, .y = -1, .choice = -1 };
		watch_pub_command(p, &c);
		watch_pub_flush(p, &u, g);
		struct pollfd pfd[2];
		int n = watch_pub_poll_fds(p, pfd, 2);
		if (n && poll(pfd, (nfds_t)n, 0) > 0 && pfd[0].revents)
			watch_pub_dispatch(p, pfd[0].fd, pfd[0].revents);
		unsigned char sink[65536];
		while (read(sv[1], sink, sizeof sink) > 0)
			;
		struct watch_pub_stats st;
		watch_pub_stats(p, &st);
		if (st.queued > WATCH_HEAD + 12)
			abort();
		if (at == size && (st.watchers == 0 || round > 8))
			break;
	}
	struct watch_pub_stats st;
	watch_pub_stats(p, &st);
	if (!good && st.dropped != 1)
		abort(); /* junk kept */
	if (good && (st.dropped != 0 || st.watchers != 1))
		abort(); /* a good watcher dropped */
	watch_pub_close(p);
	close(sv[1]);
	fuzz_log_end(&l);
	return 0;
}
