/* Prints the gamepad mappings built into the installed libSDL2, one per
 * line, as SDL itself writes them (SDL_GameControllerMappingForIndex), for
 * tools/make-gamepad-db. Only SDL's public API is used. The joystick
 * subsystem alone is started: it loads the built-in list and never adds
 * automatic mappings for pads that happen to be plugged in (those come from
 * the game controller subsystem, which is not started). tools/make-gamepad-db
 * runs it without the user's SDL_GAMECONTROLLERCONFIG* variables, so the
 * output depends only on the library and on the hints SDL evaluates while
 * adding its list (the script sets them). */
#include <SDL.h>
#include <stdio.h>

int main(void)
{
	SDL_version v;
	SDL_GetVersion(&v);
	if (SDL_Init(SDL_INIT_JOYSTICK) != 0) {
		fprintf(stderr, "sdl-mappings: SDL_Init: %s\n", SDL_GetError());
		return 1;
	}
	int n = SDL_GameControllerNumMappings();
	printf("# SDL %d.%d.%d: %d built-in mappings\n", v.major, v.minor, v.patch, n);
	for (int i = 0; i < n; i++) {
		char *m = SDL_GameControllerMappingForIndex(i);
		if (!m) {
			fprintf(stderr, "sdl-mappings: mapping %d: %s\n", i, SDL_GetError());
			SDL_Quit();
			return 1;
		}
		printf("%s\n", m);
		SDL_free(m);
	}
	SDL_Quit();
	return ferror(stdout) ? 1 : 0;
}
