#include "app/blank.h"
#include "core/log.h"
#include <errno.h>

void blank_on(struct blank *b, const struct display_ops *ops, struct display *d)
{
	b->on = true;
	int rc = ops->blank ? ops->blank(d, true) : -ENOTSUP;
	b->dark = rc == 0;
	log_info("screen blanked (%s)", rc ? "a black frame" : "display off");
}

void blank_off(struct blank *b, const struct display_ops *ops, struct display *d, struct console *con)
{
	b->on = false;
	if (b->dark && ops->blank)
		ops->blank(d, false);
	b->dark = false;
	con_damage_all(con);
	log_info("screen unblanked");
}
