/* fuzz: what every libFuzzer target under tests/fuzz/ shares (the entry point's prototype, inputs as files, checks on messages). */
#ifndef PIROGUE_TESTS_FUZZ_H
#define PIROGUE_TESTS_FUZZ_H
#include "core/log.h"
#include "game/game.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* libFuzzer's entry point (tests/fuzz/replay.c calls it without libFuzzer):
 * feeds one input to one parser; returns 0. A crash, a sanitizer report or
 * abort() is a finding. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a file: a memfd holding data, its path written into path
 * ("/proc/self/fd/N"). Returns the fd (close it after), or aborts. */
static inline int fuzz_as_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	size_t off = 0;
	while (off < size) {
		ssize_t n = write(fd, data + off, size - off);
		if (n <= 0)
			abort();
		off += (size_t)n;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* Aborts unless s is one printable line (the project's rule for every
 * message: no control byte, no line break). */
static inline void fuzz_check_line(const char *s)
{
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if (*c < 0x20 || *c == 0x7f) {
			fprintf(stderr, "fuzz: a message holds control byte 0x%02x: %s\n", *c, s);
			abort();
		}
}

/* The log goes into a memory stream while an input is parsed; then every
 * message must be one line of its own (log.c's promise). */
struct fuzz_log {
	char *buf;
	size_t len;
	FILE *f;
};

static inline void fuzz_log_begin(struct fuzz_log *l)
{
	l->buf = NULL;
	l->len = 0;
	l->f = open_memstream(&l->buf, &l->len);
	if (!l->f)
		abort();
	log_set_stream(l->f);
}

static inline void fuzz_log_end(struct fuzz_log *l)
{
	log_set_stream(NULL);
	fclose(l->f);
	for (char *line = l->buf; line && *line;) {
		char *nl = strchr(line, '\n');
		if (!nl || strncmp(line, "pirogue: ", 9)) {
			fprintf(stderr, "fuzz: a log message is not one 'pirogue: ...' line: %s\n", line);
			abort();
		}
		*nl = 0;
		fuzz_check_line(line);
		line = nl + 1;
	}
	free(l->buf);
}

/* Plays cmds on a and on b (a game and its reloaded copy) side by side;
 * aborts as soon as their checksums differ. */
static inline void fuzz_play_both(struct game *a, struct game *b, const enum cmd *cmds, size_t n)
{
	for (size_t i = 0; i < n && !game_is_over(a); i++) {
		game_apply(a, cmds[i]);
		game_apply(b, cmds[i]);
		if (game_checksum(a) != game_checksum(b))
			abort();
	}
}

#endif
