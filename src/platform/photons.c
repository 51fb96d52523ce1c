/* photons: input-to-photons timing (see photons.h). */
#include "platform/photons.h"
#include "core/log.h"
#include <time.h>

static struct photons self;

struct photons *photons_self(void)
{
	return &self;
}

int64_t photons_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void photons_input(struct photons *p, int64_t kernel_us, int64_t read_us)
{
	if (!p)
		p = &self;
	if (p->waiting)
		return;
	p->waiting = true;
	p->in_kernel_us = kernel_us;
	p->in_read_us = read_us;
}

void photons_flip_queued(struct photons *p, int64_t now_us)
{
	if (!p)
		p = &self;
	if (!p->waiting)
		return;
	/* a flip queued again before the last completed (it never came):
	 * the newer one is timed */
	p->waiting = false;
	p->pending = true;
	p->q_kernel_us = p->in_kernel_us;
	p->q_read_us = p->in_read_us;
	p->queued_us = now_us;
}

static double ms(int64_t us)
{
	return (double)us / 1000.0;
}

void photons_flip_done(struct photons *p, int64_t done_us)
{
	if (!p)
		p = &self;
	if (!p->pending)
		return;
	p->pending = false;
	p->frames++;
	log_info("photons: frame %ld: input to read %.3f ms, read to flip queued %.3f ms (the game's share), "
		 "queued to flip done %.3f ms, input to photons %.3f ms", p->frames, ms(p->q_read_us - p->q_kernel_us),
		 ms(p->queued_us - p->q_read_us), ms(done_us - p->queued_us), ms(done_us - p->q_kernel_us));
}
