/* pngcmp: compares two PNG files pixel for pixel (RGB). Exit 0 when equal,
 * 1 when they differ (says where), 2 when one cannot be read. */
#include <stb_image.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: pngcmp A.png B.png\n");
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
		long diff = 0, first = -1;
		for (long i = 0; i < (long)w[0] * h[0]; i++)
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
