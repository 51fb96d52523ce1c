/* pngcmp: compares two PNG files pixel for pixel (RGB); with --top N only
 * their first N pixel rows. Exit 0 when equal, 1 when they differ (says
 * where), 2 when one cannot be read. */
#include <stb_image.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	long top = -1;
	if (argc == 5 && !strcmp(argv[1], "--top")) {
		char *end;
		top = strtol(argv[2], &end, 10);
		if (*end || end == argv[2] || top < 0) {
			fprintf(stderr, "pngcmp: invalid value '%s' for --top: expected a number of pixel rows\n", argv[2]);
			return 2;
		}
		argv += 2;
		argc -= 2;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: pngcmp [--top ROWS] A.png B.png\n");
		return 2;
	}
	int w[2], h[2], n;
	unsigned char *px[2];
	for (int i = 0; i < 2; i++) {
		px[i] = stbi_load(argv[1 + i], &w[i], &h[i], &n, 3);
		if (!px[i]) {
			fprintf(stderr, "pngcmp: cannot read %s: %s\n", argv[1 + i], stbi_failure_reason());
			return 2;
		}
	}
	int rc = 0;
	if (w[0] != w[1] || h[0] != h[1]) {
		fprintf(stderr, "pngcmp: sizes differ: %dx%d vs %dx%d\n", w[0], h[0], w[1], h[1]);
		rc = 1;
	} else {
		long diff = 0, first = -1, rows = top >= 0 && top < h[0] ? top : h[0];
		for (long i = 0; i < (long)w[0] * rows; i++)
			if (px[0][i * 3] != px[1][i * 3] || px[0][i * 3 + 1] != px[1][i * 3 + 1] ||
			    px[0][i * 3 + 2] != px[1][i * 3 + 2]) {
				if (first < 0)
					first = i;
				diff++;
			}
		if (diff) {
			fprintf(stderr, "pngcmp: %ld pixels differ, first at (%ld, %ld)\n", diff, first % w[0],
				first / w[0]);
			rc = 1;
		}
	}
	stbi_image_free(px[0]);
	stbi_image_free(px[1]);
	return rc;
}
