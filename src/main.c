/* main: wiring. Options, config, backends, and the loop. */
#include <stdio.h>

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	puts("pirogue " PIROGUE_VERSION);
	return 0;
}
