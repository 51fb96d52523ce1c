/* Fuzz target: kernel uevent messages (kms_uevent_parse). */
#include "fuzz.h"
#include "platform/kmsutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kms_uevent ev;
	if (kms_uevent_parse((const char *)data, size, &ev) == 0) {
		/* the fields are NUL-terminated within their arrays */
		if (!memchr(ev.action, 0, sizeof ev.action) || !memchr(ev.subsystem, 0, sizeof ev.subsystem) ||
		    !memchr(ev.devname, 0, sizeof ev.devname))
			abort();
		(void)kms_uevent_is_drm_hotplug(&ev, "/dev/dri/card0");
		(void)kms_uevent_is_drm_hotplug(&ev, "/dev/dri/card1");
	}
	return 0;
}
