/* save: state directory, save file framing (magic, version, sections with length and CRC32), atomic writes. */
#include "save/save.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "core/le.h"
#include "core/log.h"
#include "save/crc.h"
#include "save/why.h"

#define HEADER_LEN 20 /* magic 8, version 4, sections 4, header CRC 4 */
#define MAX_SECTIONS 64
/* No save is larger (the writer refuses to write one: -EFBIG). */
#define SAVE_MAX_BYTES (1 << 30)
#define TMP_INFIX ".tmp-"

/* ---- the state directory ---- */

int save_state_dir(const char *opt, char *buf, size_t len)
{
	const char *base = NULL, *suffix = "";
	const char *sd = getenv("STATE_DIRECTORY");
	const char *xdg = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	/* systemd lists several directories with ':'; the first is ours */
	size_t sdlen = sd ? strcspn(sd, ":") : 0;
	if (opt && opt[0]) {
		base = opt;
	} else if (sdlen) {
		base = sd;
	} else if (xdg && xdg[0] == '/') {
		base = xdg;
		suffix = "/pirogue";
	} else if (home && home[0]) {
		base = home;
		suffix = "/.local/state/pirogue";
	} else {
		log_error("no state directory for saves: give --state-dir DIR (neither STATE_DIRECTORY, "
			  "XDG_STATE_HOME nor HOME is set)");
		return -ENOENT;
	}
	size_t baselen = base == sd ? sdlen : strlen(base);
	int n = snprintf(buf, len, "%.*s%s", (int)baselen, base, suffix);
	if (n < 0 || (size_t)n >= len) {
		log_error("state directory %s%s: path too long", base, suffix);
		return -ENAMETOOLONG;
	}
	return 0;
}

int save_make_dir(const char *dir)
{
	char p[4096];
	if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) {
		log_error("state directory %s: path too long", dir);
		return -ENAMETOOLONG;
	}
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s)
			continue;
		char c = *s;
		*s = 0;
		struct stat st;
		int e = 0;
		const char *what = NULL;
		if (mkdir(p, 0700) != 0) {
			e = errno;
			/* there already: a directory, or (stat failing) a link
			 * that leads nowhere or round in a loop, or a file */
			if (e == EEXIST)
				e = stat(p, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
		}
		if (e == ENOENT && lstat(p, &st) == 0 && S_ISLNK(st.st_mode))
			what = "a symbolic link to nothing";
		else if (e == ENOTDIR)
			what = "not a directory";
		if (e) {
			/* the state directory, then what is in its way when that is
			 * one of its parents */
			if (!c && what)
				log_error("cannot create the state directory %s: it is %s (give --state-dir a writable "
					  "directory)", dir, what);
			else if (!c)
				log_error("cannot create the state directory %s: %s (give --state-dir a writable "
					  "directory)", dir, strerror(e));
			else if (what)
				log_error("cannot create the state directory %s: %s is %s (give --state-dir a writable "
					  "directory)", dir, p, what);
			else
				log_error("cannot create the state directory %s: %s: %s (give --state-dir a writable "
					  "directory)", dir, p, strerror(e));
			return -e;
		}
		*s = c;
		if (!c)
			break;
	}
	return 0;
}

/* ---- atomic writes ---- */

static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int rc = fsync(fd) ? -errno : 0;
	close(fd);
	return rc;
}

/* off as an off_t: false when it does not fit (a 32-bit off_t past 2 GB). */
static bool file_offset(uint64_t off, off_t *out)
{
	*out = (off_t)off;
	return *out >= 0 && (uint64_t)*out == off;
}

int save_pwrite_all(int fd, const void *p, size_t len, uint64_t off)
{
	const unsigned char *c = p;
	for (size_t done = 0; done < len;) {
		off_t at;
		if (!file_offset(off + done, &at))
			return -EFBIG; /* past what off_t holds (32 bits: 2 GB) */
		ssize_t n = pwrite(fd, c + done, len - done, at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	return 0;
}

#define SAVE_IOV_MAX 1024 /* spans a pwritev takes (Linux's UIO_MAXIOV) */

/* The n spans of iov written at off, all their bytes (a short write and
 * EINTR taken up where they stopped; iov is used up). 0 or -errno. */
static int pwritev_all(int fd, struct iovec *iov, int n, uint64_t off)
{
	while (n > 0) {
		off_t at;
		if (!file_offset(off, &at))
			return -EFBIG;
		ssize_t k = pwritev(fd, iov, n < SAVE_IOV_MAX ? n : SAVE_IOV_MAX, at);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? -errno : -EIO;
		off += (uint64_t)k;
		size_t left = (size_t)k;
		for (; n > 0 && left >= iov->iov_len; iov++, n--)
			left -= iov->iov_len;
		if (n > 0) {
			iov->iov_base = (unsigned char *)iov->iov_base + left;
			iov->iov_len -= left;
		}
	}
	return 0;
}

int save_pread_all(int fd, void *p, size_t len, uint64_t off)
{
	unsigned char *c = p;
	for (size_t done = 0; done < len;) {
		off_t at;
		if (!file_offset(off + done, &at))
			return -ENODATA; /* nothing can be written there */
		ssize_t n = pread(fd, c + done, len - done, at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA; /* the file ends first */
		done += (size_t)n;
	}
	return 0;
}

/* What goes into a file written atomically: fill writes it to fd (from its
 * start) and returns 0 or -errno, setting *said when it logged the failure
 * itself. */
typedef int (*fill_fn)(int fd, void *ctx, bool *said);

struct bytes {
	const void *data;
	size_t len;
};

static int fill_bytes(int fd, void *ctx, bool *said)
{
	const struct bytes *b = ctx;
	(void)said;
	return save_pwrite_all(fd, b->data, b->len, 0);
}

/* save_write_atomic with the contents made by fill. */
static int write_atomic(const char *dir, const char *name, fill_fn fill, void *ctx)
{
	char tmp[4096], dst[4096];
	bool said = false;
	if (snprintf(dst, sizeof dst, "%s/%s", dir, name) >= (int)sizeof dst ||
	    snprintf(tmp, sizeof tmp, "%s/%s" TMP_INFIX "XXXXXX", dir, name) >= (int)sizeof tmp) {
		log_error("cannot write %s/%s: path too long", dir, name);
		return -ENAMETOOLONG;
	}
	int rc = save_make_dir(dir);
	if (rc)
		return rc;
	const char *what = "create";
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		goto fail;
	}
	what = "write";
	rc = fill(fd, ctx, &said);
	if (rc)
		goto fail_fd;
	if (fchmod(fd, 0644)) {
		rc = -errno;
		goto fail_fd;
	}
	what = "flush";
	if (fsync(fd)) {
		rc = -errno;
		goto fail_fd;
	}
	if (close(fd)) {
		rc = -errno;
		goto fail_tmp;
	}
	what = "replace";
	if (rename(tmp, dst)) {
		rc = -errno;
		goto fail_tmp;
	}
	what = "flush the directory of";
	rc = fsync_dir(dir);
	if (rc)
		goto fail;
	return 0;
fail_fd:
	close(fd);
fail_tmp:
	unlink(tmp);
fail:
	if (!said)
		log_error("cannot %s %s: %s", what, dst, strerror(-rc));
	return rc;
}

int save_write_atomic(const char *dir, const char *name, const void *data, size_t len)
{
	struct bytes b = {data, len};
	return write_atomic(dir, name, fill_bytes, &b);
}

/* ---- the file format ---- */

static uint32_t crc(const unsigned char *p, size_t n)
{
	return crc_sum(0, p, n);
}

/* The save file's framing around game_encode_to's sections, written as
 * they come to a buffer (save_encode) or a file (save_game): the header and
 * each section's length and CRC32 go first as placeholders, patched once
 * known, so the encoding is never held whole. */
struct framer {
	struct serial_buf *buf; /* the bytes go to buf (after base) ... */
	size_t base;
	int fd;      /* ... or to fd from its start */
	size_t at;   /* bytes written */
	size_t sec;  /* where the open section starts */
	uint32_t nsec, len;
	uLong crc;
	bool same;   /* the open section's chunks so far are those of the last save (crc_cache) */
	uint32_t run;  /* equal whole chunks since the last that differed, not yet in crc (run_sum) */
	uint32_t run_base; /* the upto (crc_cache) before the run, over the last save's copies ... */
	bool base_ok;  /* ... when known */
	bool io;     /* the failure was buf's or fd's (not the game's) */
};

static int fr_put(struct framer *f, const void *p, size_t n)
{
	if (n > SAVE_MAX_BYTES - f->at) { /* a load would refuse it */
		f->io = true;
		return -EFBIG;
	}
	int rc = f->buf ? serial_buf_append(f->buf, p, n) : save_pwrite_all(f->fd, p, n, f->at);
	f->io = rc != 0;
	f->at += n;
	return rc;
}

/* Rewrites the 12 or fewer bytes at offset at (already written). */
static int fr_patch(struct framer *f, size_t at, const unsigned char *p, size_t n)
{
	if (f->buf) {
		memcpy(f->buf->data + f->base + at, p, n);
		return 0;
	}
	int rc = save_pwrite_all(f->fd, p, n, at);
	f->io = rc != 0;
	return rc;
}

static int fr_begin(void *ctx, const char tag[4])
{
	struct framer *f = ctx;
	unsigned char h[12] = {0};
	memcpy(h, tag, 4);
	f->sec = f->at;
	f->len = 0;
	f->crc = crc32(0L, Z_NULL, 0);
	f->same = true;
	f->run = 0;
	f->base_ok = false;
	return fr_put(f, h, sizeof h);
}

/* What the last save wrote, to sum only what changed since (an autosave
 * writes mostly what the last one did: the floors above the player's, the
 * history's start): chunk k of section s is the CRC_CHUNK bytes from
 * k * CRC_CHUNK in that section (the last one shorter), kept with its own
 * CRC32 and, when its stamp is crc_done's, that of its section from the
 * start to its end over the copies as they are (its "upto"). While a
 * section's chunks are equal (memcmp) to their copies, its CRC is the
 * last one's upto (or, one without, its own combined in). After one that
 * differs (summed with crc32 and copied), equal chunks are gathered into a
 * run and combined in at once (run_sum: the run's bytes' CRC is what its
 * last chunk's upto adds to the upto before it, so one crc32_combine_op
 * for the run instead of one a chunk, about 350 instructions each); the
 * chunks inside a run are left without an upto. Only a cache: the CRC
 * written is always that of the bytes written. */
#define CRC_CHUNK 1024
#define CRC_SECTIONS 16  /* game_encode_to writes 6 */
#define CRC_CHUNKS 1024  /* per section: 1 MB; beyond, summed every time */
#define CRC_COPIES 2048  /* 2 MB of copies in all, handed out as chunks are first met
			  * (static: an autosave allocates nothing; pages untouched cost nothing) */
struct crc_chunk {
	uint16_t copy;           /* its copy in crc_copies, plus one; 0: none yet */
	bool own_ok;             /* own known (a chunk that differed is summed on into
				  * its section's CRC: its own made only when needed, own_crc) */
	uint32_t len, own, upto; /* own: its CRC; upto: its section's to its end */
	uint32_t stamp;          /* the save that set upto: valid when crc_done's */
};
static struct crc_chunk crc_cache[CRC_SECTIONS][CRC_CHUNKS];
static unsigned char crc_copies[CRC_COPIES][CRC_CHUNK];
static int crc_copies_used;
/* crc_op[k]: crc32_combine_gen(k * CRC_CHUNK), 0: not made yet (each from
 * the one before: x^(8 * 1024 * k) is x^(8 * 1024) times x^(8 * 1024 * (k - 1))) */
static uLong crc_op[CRC_CHUNKS + 1];
/* The save under way's stamp, and that of the last save framed whole (0:
 * none, or one stopped part way: then no upto is trusted, the copies of
 * some chunks being newer than the uptos after them) */
static uint32_t crc_stamp, crc_done;

static uLong op_chunks(size_t k)
{
	if (!crc_op[1])
		crc_op[1] = crc32_combine_gen(CRC_CHUNK);
	size_t j = k;
	while (!crc_op[j])
		j--;
	for (; j < k; j++)
		crc_op[j + 1] = crc32_combine_op(crc_op[j], 0, crc_op[1]);
	return crc_op[k];
}

/* crc32_combine_op(a, b, op_chunks(1)): the CRC of a chunk's worth of
 * bytes after those of CRC a, the chunk's own CRC being b. It is linear in
 * a (zlib multiplies a by x^(8 * CRC_CHUNK) modulo the polynomial), so it
 * is four lookups, one a byte of a, in tables made once from the 32 bits'
 * images: ~15 instructions instead of zlib's ~350. */
static uint32_t op1_tab[4][256];
static bool op1_ok;

static uint32_t combine1(uLong a, uint32_t b)
{
	if (!op1_ok) {
		uint32_t bit[32];
		for (int i = 0; i < 32; i++)
			bit[i] = (uint32_t)crc32_combine_op((uLong)1 << i, 0, op_chunks(1));
		for (int t = 0; t < 4; t++)
			for (int v = 0; v < 256; v++) {
				uint32_t x = 0;
				for (int i = 0; i < 8; i++)
					if (v >> i & 1)
						x ^= bit[8 * t + i];
				op1_tab[t][v] = x;
			}
		op1_ok = true;
	}
	uint32_t c = (uint32_t)a;
	return op1_tab[0][c & 255] ^ op1_tab[1][c >> 8 & 255] ^ op1_tab[2][c >> 16 & 255] ^ op1_tab[3][c >> 24] ^ b;
}

/* c's own CRC (that of its copy), summed the first time it is asked for. */
static uint32_t own_crc(struct crc_chunk *c)
{
	if (!c->own_ok) {
		c->own = crc_sum(0, crc_copies[c->copy - 1], c->len);
		c->own_ok = true;
	}
	return c->own;
}

/* Whether c's upto is that of the copies as the last whole save left them. */
static inline bool upto_ok(const struct crc_chunk *c)
{
	return c->copy && c->stamp == crc_done && crc_done;
}

/* The run of equal whole chunks k - f->run .. k - 1 of the open section
 * combined into f->crc: from the last of them with an upto (and the upto
 * before the run known) at once, R = op(Rb ^ Rb') ^ R' where Rb is f->crc,
 * Rb' the upto before the run and R' that last chunk's (the run's bytes
 * are the same in both), then each one after it. */
static void run_sum(struct framer *f, size_t k)
{
	if (!f->run)
		return;
	struct crc_chunk *cs = crc_cache[f->nsec];
	size_t i = k - f->run, from = i;
	if (f->base_ok)
		for (size_t j = k; j-- > i;)
			if (upto_ok(&cs[j])) {
				f->crc = crc32_combine_op(f->crc ^ f->run_base, cs[j].upto, op_chunks(j + 1 - i));
				cs[j].upto = (uint32_t)f->crc;
				cs[j].stamp = crc_stamp;
				from = j + 1;
				break;
			}
	for (size_t j = from; j < k; j++) {
		f->crc = combine1(f->crc, own_crc(&cs[j]));
		cs[j].upto = (uint32_t)f->crc;
		cs[j].stamp = crc_stamp;
	}
	f->run = 0;
}

/* Chunk k of the open section (its copy c), n bytes, the same as c's:
 * into f->crc (or into the run under way). */
static inline __attribute__((always_inline)) void chunk_equal(struct framer *f, size_t k, struct crc_chunk *c,
							     size_t n)
{
	if (f->same && upto_ok(c)) {
		f->crc = c->upto;
		c->stamp = crc_stamp;
	} else if (f->same || n != CRC_CHUNK) {
		run_sum(f, k);
		f->crc = n == CRC_CHUNK ? combine1(f->crc, own_crc(c))
					: crc32_combine(f->crc, own_crc(c), (z_off_t)n);
		c->upto = (uint32_t)f->crc;
		c->stamp = crc_stamp;
		f->base_ok = false; /* (its upto is of this save: no run after it has one before) */
	} else {
		f->run++; /* summed with the rest of the run */
	}
}

/* The n <= CRC_CHUNK bytes at p, chunk k of the open section, into f->crc
 * (or into the run under way). */
static inline __attribute__((always_inline)) void chunk_sum(struct framer *f, size_t k, const unsigned char *p,
							   size_t n)
{
	uint32_t s = f->nsec;
	struct crc_chunk *c = s < CRC_SECTIONS && k < CRC_CHUNKS ? &crc_cache[s][k] : NULL;
	if (c && c->copy && c->len == n && memcmp(crc_copies[c->copy - 1], p, n) == 0) {
		chunk_equal(f, k, c, n);
		return;
	}
	run_sum(f, k);
	f->same = false;
	/* the upto before a run that may follow (this chunk's, over the copies
	 * as the last save left them) */
	f->base_ok = c && upto_ok(c);
	f->run_base = f->base_ok ? c->upto : 0;
	/* summed on (its own CRC is needed only if it is met again unchanged
	 * where it cannot take an upto: own_crc; most chunks that differ, the
	 * log's, differ every save) */
	f->crc = crc_sum((uint32_t)f->crc, p, n);
	if (c && !c->copy && crc_copies_used < CRC_COPIES)
		c->copy = (uint16_t)++crc_copies_used; /* none left: not kept */
	if (c && c->copy) {
		memcpy(crc_copies[c->copy - 1], p, n);
		c->len = (uint32_t)n;
		c->own_ok = false;
		c->upto = (uint32_t)f->crc;
		c->stamp = crc_stamp;
	}
}

/* The open chunk's bytes so far (the section's len % CRC_CHUNK last ones):
 * a piece that does not end on a chunk's end leaves its last bytes here,
 * summed once the chunk is whole (or the section ends). Saves are made
 * one at a time, like crc_cache. */
static unsigned char crc_stage[CRC_CHUNK];

static int fr_write(void *ctx, const void *p, size_t n)
{
	struct framer *f = ctx;
	const unsigned char *b = p;
	/* pieces of any length: the chunks are the section's CRC_CHUNK bytes
	 * wherever the pieces begin and end (a whole one in a piece summed
	 * where it lies, the others gathered in crc_stage) */
	size_t done = 0, part = f->len % CRC_CHUNK;
	if (part) {
		done = CRC_CHUNK - part < n ? CRC_CHUNK - part : n;
		memcpy(crc_stage + part, b, done);
		if (part + done == CRC_CHUNK)
			chunk_sum(f, f->len / CRC_CHUNK, crc_stage, CRC_CHUNK);
	}
	for (; n - done >= CRC_CHUNK; done += CRC_CHUNK)
		chunk_sum(f, (f->len + done) / CRC_CHUNK, b + done, CRC_CHUNK);
	if (done < n)
		memcpy(crc_stage, b + done, n - done);
	f->len += (uint32_t)n;
	return fr_put(f, p, n);
}

/* The span the last whole save's framer was told was known by a key
 * (fr_same), and the one this save's is: its section, where it starts in
 * it, its length, its key. */
struct kept_span {
	bool ok;
	uint32_t sec, off, len;
	uint64_t key;
};
static struct kept_span kept_last, kept_now;
static size_t kept_wrote; /* by the save under way, or the last one (save_kept_last) */

size_t save_kept_last(void)
{
	return kept_wrote;
}

/* Whether chunk k of section s has a copy, as the last save left it, of
 * its bytes from o to e (a whole chunk: of a whole chunk). */
static bool copy_holds(uint32_t s, size_t k, size_t o, size_t e)
{
	if (s >= CRC_SECTIONS || k >= CRC_CHUNKS)
		return false;
	const struct crc_chunk *c = &crc_cache[s][k];
	return c->copy && (o == 0 && e == CRC_CHUNK ? c->len == CRC_CHUNK : c->len >= e);
}

/* The serial_sink's same: the len bytes from here known by key. When the
 * last whole save was told the same of the same place (and kept a copy of
 * every chunk they lie in), they are those copies' bytes: written from
 * them (one pwritev), the chunks wholly inside taken as equal without
 * being summed, the others gathered as fr_write does (the encoder then
 * compares its source with them: fr_kept_is). */
static int fr_same(void *ctx, size_t len, uint64_t key)
{
	struct framer *f = ctx;
	const struct kept_span *l = &kept_last;
	kept_now = (struct kept_span){len && len <= UINT32_MAX, f->nsec, f->len, (uint32_t)len, key};
	if (!kept_now.ok || !l->ok || l->sec != f->nsec || l->off != f->len || l->len != len || l->key != key)
		return 0;
	size_t a = f->len, end = a + len;
	for (size_t k = a / CRC_CHUNK; k * CRC_CHUNK < end; k++) {
		size_t from = k * CRC_CHUNK;
		if (!copy_holds(f->nsec, k, from < a ? a - from : 0, end - from < CRC_CHUNK ? end - from : CRC_CHUNK))
			return 0;
	}
	if (len > SAVE_MAX_BYTES - f->at) { /* a load would refuse it */
		f->io = true;
		return -EFBIG;
	}
	static struct iovec iov[CRC_CHUNKS + 2];
	int niov = 0;
	size_t pos = a;
	while (pos < end) {
		size_t k = pos / CRC_CHUNK, off = pos % CRC_CHUNK;
		size_t e = end - (pos - off) < CRC_CHUNK ? end - (pos - off) : CRC_CHUNK; /* where it stops in the chunk */
		struct crc_chunk *c = &crc_cache[f->nsec][k];
		unsigned char *cp = crc_copies[c->copy - 1];
		if (off == 0 && e == CRC_CHUNK) {
			chunk_equal(f, k, c, CRC_CHUNK);
		} else {
			memcpy(crc_stage + off, cp + off, e - off);
			if (e == CRC_CHUNK)
				chunk_sum(f, k, crc_stage, CRC_CHUNK); /* (cp's bytes from off stay what they are) */
		}
		if (niov && (unsigned char *)iov[niov - 1].iov_base + iov[niov - 1].iov_len == cp + off)
			iov[niov - 1].iov_len += e - off;
		else
			iov[niov++] = (struct iovec){cp + off, e - off};
		pos += e - off;
	}
	int rc = 0;
	if (f->buf) {
		for (int i = 0; i < niov && !rc; i++)
			rc = serial_buf_append(f->buf, iov[i].iov_base, iov[i].iov_len);
	} else {
		rc = pwritev_all(f->fd, iov, niov, f->at);
	}
	f->io = rc != 0;
	f->at += len;
	f->len += (uint32_t)len;
	kept_wrote += len;
	return rc ? rc : 1;
}

/* The serial_sink's kept_is: bytes at..at+n of the span fr_same took, as
 * the encoder has them now, compared with the copies they were written
 * from (the chunks' bytes there are still those). 0, or -EIO when they
 * differ. */
static int fr_kept_is(void *ctx, size_t at, const void *p, size_t n)
{
	(void)ctx;
	const unsigned char *b = p;
	if (!kept_now.ok || at > kept_now.len || n > kept_now.len - at)
		return -EIO;
	for (size_t pos = kept_now.off + at, end = pos + n; pos < end;) {
		size_t k = pos / CRC_CHUNK, off = pos % CRC_CHUNK;
		size_t m = end - pos < CRC_CHUNK - off ? end - pos : CRC_CHUNK - off;
		const struct crc_chunk *c = &crc_cache[kept_now.sec][k];
		if (memcmp(crc_copies[c->copy - 1] + off, b, m))
			return -EIO;
		b += m;
		pos += m;
	}
	return 0;
}

static int fr_end(void *ctx)
{
	struct framer *f = ctx;
	if (f->len % CRC_CHUNK)
		chunk_sum(f, f->len / CRC_CHUNK, crc_stage, f->len % CRC_CHUNK);
	else
		run_sum(f, f->len / CRC_CHUNK);
	unsigned char h[8];
	le_put32(h, f->len);
	le_put32(h + 4, (uint32_t)f->crc);
	f->nsec++;
	return fr_patch(f, f->sec + 4, h, sizeof h);
}

/* The whole save file through f: header placeholder, the sections, the
 * header. Returns 0 or -errno (f->io: the output's failure). */
static int frame(struct framer *f, const struct game *g)
{
	unsigned char h[HEADER_LEN] = {0};
	if (++crc_stamp == 0) /* (wrapped: a stamp is never 0) */
		crc_stamp = 1;
	/* what the last save was told was known (fr_same), when it ended whole */
	kept_last = crc_done ? kept_now : (struct kept_span){0};
	kept_now = (struct kept_span){0};
	kept_wrote = 0;
	int rc = fr_put(f, h, sizeof h);
	if (rc) {
		crc_done = 0;
		return rc;
	}
	const struct serial_sink s = {.begin = fr_begin, .write = fr_write, .end = fr_end, .same = fr_same, .kept_is = fr_kept_is, .ctx = f};
	rc = game_encode_to(g, &s);
	/* the uptos stamped now are of this save's copies; after a save
	 * stopped part way none is trusted (the copies of some chunks are
	 * newer than the uptos of those after them), nor what it kept */
	crc_done = rc ? 0 : crc_stamp;
	if (rc)
		return rc;
	memcpy(h, SAVE_MAGIC, 8);
	le_put32(h + 8, SERIAL_VERSION);
	le_put32(h + 12, f->nsec);
	le_put32(h + 16, crc(h, 16));
	return fr_patch(f, 0, h, sizeof h);
}

int save_encode(const struct game *g, struct serial_buf *out)
{
	struct framer f = {.buf = out, .base = out->len, .fd = -1};
	return frame(&f, g);
}

/* A section tag for messages: its printable characters, '?' for others. */
static const char *tag_text(const unsigned char *t, char out[5])
{
	for (int i = 0; i < 4; i++)
		out[i] = t[i] >= 0x21 && t[i] < 0x7F ? (char)t[i] : t[i] == ' ' ? 0 : '?';
	out[4] = 0;
	return out;
}

/* The checks of the header alone: p holds the file's first have bytes
 * (all of them, or HEADER_LEN at least) of len. 0, or -EINVAL with why
 * set; *nsec is the number of sections. */
static int check_header(const unsigned char *p, size_t have, size_t len, uint32_t *nsec, char *why, size_t whylen)
{
	if (len == 0)
		return why_set(why, whylen, -EINVAL, "the save is empty");
	if (len < 8 && memcmp(p, SAVE_MAGIC, len) == 0)
		return why_set(why, whylen, -EINVAL, "the save is cut short (%zu bytes, in its header)", len);
	if (len < 8 || have < 8 || memcmp(p, SAVE_MAGIC, 8) != 0)
		return why_set(why, whylen, -EINVAL, "not a pirogue save (its first bytes are not %s)",
			       "\\x89PIRSAV\\n");
	if (len < HEADER_LEN || have < HEADER_LEN)
		return why_set(why, whylen, -EINVAL, "the save is cut short (%zu bytes, in its header)", len);
	if (crc(p, 16) != le_get32(p + 16))
		return why_set(why, whylen, -EINVAL, "the save's header is damaged (checksum mismatch)");
	uint32_t version = le_get32(p + 8);
	*nsec = le_get32(p + 12);
	if (version > SERIAL_VERSION)
		return why_set(why, whylen, -EINVAL,
			       "the save was written by a newer pirogue (format %" PRIu32 "; this one reads %d)",
			       version, SERIAL_VERSION);
	if (version < SERIAL_OLDEST)
		return why_set(why, whylen, -EINVAL,
			       "the save is in an old format (%" PRIu32 ") this pirogue no longer reads (it reads %d to %d)",
			       version, SERIAL_OLDEST, SERIAL_VERSION);
	if (*nsec == 0 || *nsec > MAX_SECTIONS)
		return why_set(why, whylen, -EINVAL, "the save's header is damaged (%" PRIu32 " sections)", *nsec);
	return 0;
}

/* Section i of nsec, whose 12-byte head h starts at offset at of a file of
 * len bytes: 0 with *n its payload's length when all of it lies inside the
 * file, else -EINVAL with why set. */
static int check_section(const unsigned char *h, size_t have, uint32_t i, uint32_t nsec, size_t at, size_t len,
			 uint32_t *n, char *why, size_t whylen)
{
	char t[5];
	if (len - at < 12 || have < 12)
		return why_set(why, whylen, -EINVAL, "the save is cut short (in section %" PRIu32 " of %" PRIu32 ")", i + 1,
			       nsec);
	*n = le_get32(h + 4);
	if (len - at - 12 < *n)
		return why_set(why, whylen, -EINVAL,
			       "the save is cut short (section %" PRIu32 " of %" PRIu32 ", '%s', lacks %zu bytes)", i + 1,
			       nsec, tag_text(h, t), *n - (len - at - 12));
	return 0;
}

int save_decode(const void *data, size_t len, struct game **out, char *why, size_t whylen)
{
	const unsigned char *p = data;
	*out = NULL;
	if (!p) /* no bytes at all (the analyzer follows a caller's NULL here) */
		return why_set(why, whylen, -EINVAL, "the save is empty");
	uint32_t nsec = 0;
	int rc = check_header(p, len, len, &nsec, why, whylen);
	if (rc)
		return rc;
	/* check every section, then hand their tags, lengths and payloads to
	 * game_decode without the CRCs */
	size_t at = HEADER_LEN, body_len = 0;
	char t[5];
	for (uint32_t i = 0; i < nsec; i++) {
		uint32_t n = 0;
		rc = check_section(p + at, len - at, i, nsec, at, len, &n, why, whylen);
		if (rc)
			return rc;
		if (crc(p + at + 12, n) != le_get32(p + at + 8))
			return why_set(why, whylen, -EINVAL, "the save is damaged (section '%s' fails its checksum)",
				       tag_text(p + at, t));
		body_len += 8 + n;
		at += 12 + n;
	}
	if (at != len)
		return why_set(why, whylen, -EINVAL, "the save has %zu unexpected bytes after its last section", len - at);
	unsigned char *body = malloc(body_len ? body_len : 1);
	if (!body)
		return why_set(why, whylen, -ENOMEM, "out of memory loading the save");
	at = HEADER_LEN;
	size_t o = 0;
	for (uint32_t i = 0; i < nsec; i++) {
		uint32_t n = le_get32(p + at + 4);
		memcpy(body + o, p + at, 8);
		memcpy(body + o + 8, p + at + 12, n);
		o += 8 + n;
		at += 12 + n;
	}
	char gwhy[SAVE_WHY_MAX];
	rc = game_decode(out, body, body_len, gwhy, sizeof gwhy);
	free(body);
	if (rc)
		return why_set(why, whylen, rc, "the save does not hold together: %s", gwhy);
	return 0;
}

/* ---- the save in the state directory ---- */

static int save_file_path(const char *dir, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s", dir, SAVE_FILE);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The save file into fd; a failure of the game's own (its history store:
 * hist_next logged it) is said already. */
static int fill_save(int fd, void *ctx, bool *said)
{
	struct framer f = {.fd = fd};
	int rc = frame(&f, ctx);
	*said = rc && !f.io;
	return rc;
}

int save_game(const char *dir, const struct game *g)
{
	return write_atomic(dir, SAVE_FILE, fill_save, (void *)g);
}

/* A finished game's save: its bytes, then the file's modification time set
 * to the game's end (before the fsync: it is part of what the rename makes
 * durable, so the end can be read back after a crash, save_end_time). */
struct ended {
	const struct game *g;
	int64_t when;
};

static int fill_ended(int fd, void *ctx, bool *said)
{
	const struct ended *e = ctx;
	int rc = fill_save(fd, (void *)e->g, said);
	if (rc)
		return rc;
	const struct timespec ts[2] = {{.tv_sec = (time_t)e->when}, {.tv_sec = (time_t)e->when}};
	return futimens(fd, ts) ? -errno : 0;
}

int save_game_ended(const char *dir, const struct game *g, int64_t when)
{
	struct ended e = {g, when};
	return write_atomic(dir, SAVE_FILE, fill_ended, &e);
}

int save_end_time(const char *dir, int64_t *when)
{
	char path[4096];
	struct stat st;
	if (save_file_path(dir, path, sizeof path))
		return -ENAMETOOLONG;
	if (stat(path, &st))
		return -errno;
	*when = (int64_t)st.st_mtime;
	return 0;
}

bool save_due(int turn0, int depth0, int turn1, int depth1)
{
	return depth0 != depth1 || turn0 / SAVE_EVERY_TURNS != turn1 / SAVE_EVERY_TURNS;
}

bool save_exists(const char *dir)
{
	char path[4096];
	struct stat st;
	return !save_file_path(dir, path, sizeof path) && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* What a file that is not a regular one is, for messages. */
static const char *file_kind(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISFIFO(m) ? "a FIFO (a named pipe)"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISSOCK(m) ? "a socket"
			     : "not a regular file";
}

/* Refuses what is not a regular file: -EISDIR for a directory, -EINVAL
 * for the others (a FIFO, a device, a socket), why naming it. */
static int regular(mode_t m, char *why, size_t whylen)
{
	if (S_ISREG(m))
		return 0;
	return why_set(why, whylen, S_ISDIR(m) ? -EISDIR : -EINVAL, "the save is %s, not a file", file_kind(m));
}

/* The framing of the save file open on fd (size bytes), read from its
 * header and section heads alone: the header right, every section inside
 * the file and filling it, no larger than any save. 0 or -EINVAL with why
 * set; -errno when it cannot be read. */
static int check_frame(int fd, size_t size, char *why, size_t whylen)
{
	unsigned char h[HEADER_LEN];
	size_t have = size < HEADER_LEN ? size : HEADER_LEN;
	int rc = save_pread_all(fd, h, have, 0);
	if (rc)
		return why_set(why, whylen, rc, "the save cannot be read: %s", strerror(-rc));
	uint32_t nsec = 0;
	rc = check_header(h, have, size, &nsec, why, whylen);
	if (rc)
		return rc;
	size_t at = HEADER_LEN;
	for (uint32_t i = 0; i < nsec; i++) {
		unsigned char sh[12];
		size_t got = size - at < 12 ? size - at : 12;
		uint32_t n = 0;
		if ((rc = save_pread_all(fd, sh, got, at)))
			return why_set(why, whylen, rc, "the save cannot be read: %s", strerror(-rc));
		if ((rc = check_section(sh, got, i, nsec, at, size, &n, why, whylen)))
			return rc;
		at += 12 + (size_t)n;
	}
	if (at != size)
		return why_set(why, whylen, -EINVAL, "the save has %zu unexpected bytes after its last section", size - at);
	if (size > SAVE_MAX_BYTES)
		return why_set(why, whylen, -EINVAL, "the save is larger than any save pirogue writes (%zu bytes; at most %d)",
			       size, SAVE_MAX_BYTES);
	return 0;
}

/* Reads the save file at path whole into *out (malloc'd, *len bytes)
 * after checking it is a regular file (before opening it: a FIFO would
 * block the open) and its framing (before reading it: a 2 GB sparse file
 * is refused from its first bytes). 0, or -errno with why set. */
static int read_file(const char *path, unsigned char **out, size_t *len, char *why, size_t whylen)
{
	*out = NULL;
	*len = 0;
	struct stat st;
	if (stat(path, &st))
		return -errno;
	int rc = regular(st.st_mode, why, whylen);
	if (rc)
		return rc;
	/* O_NONBLOCK: should it have become a FIFO since, the open does not
	 * wait for a writer (and fstat refuses it) */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		rc = -errno;
		goto out;
	}
	if ((rc = regular(st.st_mode, why, whylen)))
		goto out;
	if (st.st_size < 0 || (uint64_t)st.st_size > SIZE_MAX - 1) {
		rc = why_set(why, whylen, -EINVAL, "the save is larger than any save pirogue writes (at most %d bytes)",
			     SAVE_MAX_BYTES);
		goto out;
	}
	size_t size = (size_t)st.st_size;
	if ((rc = check_frame(fd, size, why, whylen)))
		goto out;
	unsigned char *d = malloc(size + 1);
	if (!d) {
		rc = -ENOMEM;
		goto out;
	}
	rc = save_pread_all(fd, d, size, 0);
	unsigned char more;
	if (!rc && pread(fd, &more, 1, (off_t)size) > 0)
		rc = why_set(why, whylen, -EINVAL, "the save grew while it was read (another program writes it)");
	else if (rc)
		rc = why_set(why, whylen, rc == -ENODATA ? -EINVAL : rc, "%s",
			     rc == -ENODATA ? "the save shrank while it was read (another program writes it)"
					    : "the save cannot be read");
	if (rc) {
		free(d);
		goto out;
	}
	*out = d;
	*len = size;
out:
	close(fd);
	return rc;
}

int save_load_file(const char *path, struct game **out, char *why, size_t whylen)
{
	*out = NULL;
	unsigned char *data;
	size_t len;
	if (whylen)
		why[0] = 0;
	int rc = read_file(path, &data, &len, why, whylen);
	if (rc == -ENOENT)
		return why_set(why, whylen, rc, "there is no save (%s)", path);
	if (rc && !why[0])
		return why_set(why, whylen, rc, "the save cannot be read: %s", strerror(-rc));
	if (rc)
		return rc;
	rc = save_decode(data, len, out, why, whylen);
	free(data);
	return rc;
}

void save_remove_temps(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	const size_t tail = strlen(TMP_INFIX) + 6;
	for (struct dirent *e; (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		if (n <= tail || strncmp(e->d_name + n - tail, TMP_INFIX, strlen(TMP_INFIX)) != 0)
			continue;
		char p[4096];
		if (snprintf(p, sizeof p, "%s/%s", dir, e->d_name) < (int)sizeof p)
			unlink(p);
	}
	closedir(d);
}

int save_load(const char *dir, struct game **out, char *why, size_t whylen)
{
	char path[4096];
	*out = NULL;
	if (save_file_path(dir, path, sizeof path))
		return why_set(why, whylen, -ENAMETOOLONG, "the state directory's path is too long");
	save_remove_temps(dir);
	int rc = save_load_file(path, out, why, whylen);
	/* refused or unreadable (a directory in its place, no permission, an
	 * I/O error): kept aside, so that the next save cannot replace it;
	 * none, or short of memory or descriptors: left where it is */
	if (rc == 0 || rc == -ENOENT || rc == -ENOMEM || rc == -EMFILE || rc == -ENFILE)
		return rc;
	char kept[300];
	size_t used = strlen(why);
	if (save_set_aside(dir, SAVE_FILE, kept, sizeof kept) == 0)
		snprintf(why + used, whylen - used, "; kept as %s", kept);
	else
		snprintf(why + used, whylen - used, "; it could not be renamed aside");
	return rc;
}

int save_set_aside(const char *dir, const char *name, char *kept, size_t keptlen)
{
	return save_keep_aside(dir, name, "bad", kept, keptlen);
}

int save_keep_aside(const char *dir, const char *name, const char *tag, char *kept, size_t keptlen)
{
	return save_keep_aside_at(dir, name, tag, (int64_t)time(NULL), kept, keptlen);
}

int save_keep_aside_at(const char *dir, const char *name, const char *tag, int64_t when, char *kept,
		       size_t keptlen)
{
	char from[4096], to[4096], stamp[32];
	time_t now = (time_t)when;
	struct tm tm;
	if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm))
		snprintf(stamp, sizeof stamp, "%lld", (long long)now);
	if (snprintf(from, sizeof from, "%s/%s", dir, name) >= (int)sizeof from)
		return -ENAMETOOLONG;
	for (int i = 0; i < 1000; i++) {
		if (i == 0)
			snprintf(kept, keptlen, "%s.%s-%s", name, tag, stamp);
		else
			snprintf(kept, keptlen, "%s.%s-%s-%d", name, tag, stamp, i);
		if (snprintf(to, sizeof to, "%s/%s", dir, kept) >= (int)sizeof to)
			return -ENAMETOOLONG;
		/* never over a file kept earlier; a file system without
		 * RENAME_NOREPLACE gets a check first */
		int r = renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
		if (r && errno == EINVAL) {
			struct stat st;
			if (lstat(to, &st) == 0)
				continue;
			r = rename(from, to);
		}
		if (r == 0) {
			(void)fsync_dir(dir);
			return 0;
		}
		if (errno == EEXIST)
			continue;
		int e = errno;
		if (e != ENOENT)
			log_error("cannot rename %s aside to %s: %s", from, to, strerror(e));
		return -e;
	}
	log_error("cannot rename %s aside: too many files kept", from);
	return -EEXIST;
}

int save_delete(const char *dir)
{
	char path[4096];
	if (save_file_path(dir, path, sizeof path))
		return -ENAMETOOLONG;
	if (unlink(path) && errno != ENOENT) {
		int e = errno;
		log_error("cannot delete the save %s: %s", path, strerror(e));
		return -e;
	}
	(void)fsync_dir(dir);
	return 0;
}

int save_check(const char *dir, const char *path)
{
	char p[4096], why[SAVE_WHY_MAX];
	if (!path) {
		if (save_file_path(dir, p, sizeof p)) {
			printf("%s: path too long\n", dir);
			return 1;
		}
		path = p;
	}
	struct game *g;
	int rc = save_load_file(path, &g, why, sizeof why);
	if (rc) {
		if (rc == -ENOENT)
			printf("%s\n", why); /* names the path */
		else
			printf("%s: %s\n", path, why);
		return 1;
	}
	printf("ok turn %d depth %d checksum %016" PRIx64 "%s\n", game_turn(g), game_depth(g), game_checksum(g),
	       game_is_over(g) ? " (a finished game: the next start writes its morgue file and score, then deletes it)"
			       : "");
	game_destroy(g);
	return 0;
}
