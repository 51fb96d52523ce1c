/* benchplay: the game the watch benches play (bench_watch, bench_wake): a
 * game of seed 5 whose player cannot die, on the play screen, drawn into
 * 80x24 consoles and presented by the terminal backend into a memfd. */
#ifndef PIROGUE_BENCHPLAY_H
#define PIROGUE_BENCHPLAY_H
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "game/world.h"
#include "platform/display.h"
#include "platform/term.h"
#include "render/console.h"
#include "ui/ui.h"

struct bench_play {
	struct game *g;
	struct ui u;
	struct ui_drawn *d;
	struct console *c, *s;
	struct display *disp; /* the terminal backend, writing into memfd */
	int memfd;
};

/* b opened, its memfd named name; exits 1 when anything cannot be made
 * (a bench has no figure to give then). */
static inline void bench_play_open(struct bench_play *b, const char *name)
{
	memset(b, 0, sizeof *b);
	struct game_opts o = { .seed = 5, .mapgen = MAPGEN_CLASSIC };
	if (game_create(&b->g, &o))
		exit(1);
	((struct c_actor *)ecs_get_mut(b->g->w, b->g->player, COMP_ACTOR))->defense = 1000;
	b->u = (struct ui){ .screen = UI_PLAY, .hover_x = -1, .hover_y = -1, .score_rank = -1, .can_continue = true };
	b->d = calloc(1, sizeof *b->d);
	b->memfd = memfd_create(name, 0);
	if (!b->d || b->memfd < 0 || term_open_fds(&b->disp, -1, b->memfd, 80, 24) || con_create(&b->c, 80, 24) ||
	    con_create(&b->s, 80, 24))
		exit(1);
}

/* What bench_play_open made, undone. */
static inline void bench_play_close(struct bench_play *b)
{
	game_destroy(b->g);
	b->disp->ops->close(b->disp);
	close(b->memfd);
	free(b->d);
	con_destroy(b->c);
	con_destroy(b->s);
}
#endif
