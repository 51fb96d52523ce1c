/* crc: crc_sum gives zlib's CRC-32 for every length, alignment and split. */
#include "testutil.h"
#include "save/crc.h"
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static unsigned char bytes[4096 + 64];

static void fill(void)
{
	uint32_t x = 12345;
	for (size_t i = 0; i < sizeof bytes; i++) {
		x = x * 1103515245u + 12345u;
		bytes[i] = (unsigned char)(x >> 16);
	}
}

static uint32_t zsum(uint32_t crc, const unsigned char *p, size_t n)
{
	return (uint32_t)crc32(crc, p, (uInt)n);
}

/* Every length up to 1,100 bytes at every start modulo 16, and 4 KB. */
static void test_lengths_and_alignments(void **st)
{
	(void)st;
	fill();
	for (size_t off = 0; off < 16; off++)
		for (size_t n = 0; n <= 1100; n++)
			if (crc_sum(0, bytes + off, n) != zsum(0, bytes + off, n))
				fail_msg("crc_sum differs from zlib's crc32 at offset %zu, %zu bytes", off, n);
	assert_int_equal(crc_sum(0, bytes, 4096), zsum(0, bytes, 4096));
	assert_int_equal(crc_sum(0, NULL, 0), 0);
}

/* Continued from a CRC: any split of a run sums as the whole, and the
 * value continued is zlib's continued. */
static void test_continued(void **st)
{
	(void)st;
	fill();
	uint32_t whole = zsum(0, bytes, 3000);
	for (size_t cut = 0; cut <= 3000; cut += 7)
		assert_int_equal(crc_sum(crc_sum(0, bytes, cut), bytes + cut, 3000 - cut), whole);
	assert_int_equal(crc_sum(0xDEADBEEF, bytes, 1024), zsum(0xDEADBEEF, bytes, 1024));
	memset(bytes, 0, 256);
	assert_int_equal(crc_sum(0, bytes, 256), zsum(0, bytes, 256));
	memset(bytes, 0xFF, 256);
	assert_int_equal(crc_sum(0, bytes, 256), zsum(0, bytes, 256));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths_and_alignments),
		cmocka_unit_test(test_continued),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
