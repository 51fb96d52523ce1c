/* Fuzz target: input-event streams through the pure evdev mapping (evmap):
 * keyboards, gamepads and mice with any capabilities, absolute ranges and
 * values, including INT_MIN/INT_MAX, SYN_DROPPED recovery and releases.
 * Input layout: 1 byte of device classes, 1 byte of flags, then capability
 * and range bytes, then 7-byte events (type 1, code 2, value 4 LE) for
 * one of two devices sharing their modifiers (bit 7 of the type; types
 * 0x70-0x72: SYN_DROPPED recovery begin and end, all released). */
#include "fuzz.h"
#include "platform/evmap.h"
#include <limits.h>

struct reader {
	const uint8_t *p;
	size_t left;
};

static uint32_t take(struct reader *r, int n)
{
	uint32_t v = 0;
	for (int i = 0; i < n; i++) {
		v |= (uint32_t)(r->left ? *r->p : 0) << (8 * i);
		if (r->left) {
			r->p++;
			r->left--;
		}
	}
	return v;
}

/* A value biased toward the edges a crafted device would send. */
static int value_of(uint32_t raw)
{
	switch (raw & 0xf) {
	case 0: return INT_MAX;
	case 1: return INT_MIN;
	case 2: return INT_MAX - 1;
	case 3: return INT_MIN + 1;
	default: return (int)raw;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader r = { data, size };
	unsigned cls = take(&r, 1) & (EVM_KEYBOARD | EVM_GAMEPAD | EVM_MOUSE);
	unsigned flags = take(&r, 1);
	struct evm_caps caps;
	memset(&caps, 0, sizeof caps);
	if (flags & 1) {
		memset(&caps, 0xff, sizeof caps); /* a device that has everything */
	} else {
		for (int i = 0; i < 24; i++) {
			unsigned code = take(&r, 2);
			if (i < 16)
				EVM_SET(&caps, key, code % KEY_CNT);
			else if (i < 20)
				EVM_SET(&caps, abs, code % ABS_CNT);
			else
				EVM_SET(&caps, rel, code % REL_CNT);
		}
	}
	caps.bus = (uint16_t)take(&r, 2);
	caps.vendor = (uint16_t)take(&r, 2);
	caps.product = (uint16_t)take(&r, 2);
	caps.name[sizeof caps.name - 1] = 0;
	const char *why;
	if (flags & 2)
		cls = evm_classify(&caps, &why);
	/* two devices sharing the seat's modifiers: events go to one or the
	 * other (bit 7 of the type byte) */
	static struct evm_dev dev[2]; /* large: not on the stack */
	struct evm_mods mods;
	memset(&mods, 0, sizeof mods);
	memset(dev, 0, sizeof dev);
	for (int i = 0; i < ABS_CNT; i++) {
		dev[0].absmin[i] = 0;
		dev[0].absmax[i] = 255;
	}
	int nranges = (int)(take(&r, 1) % 8);
	for (int i = 0; i < nranges; i++) {
		int code = (int)(take(&r, 1) % ABS_CNT);
		dev[0].absmin[code] = value_of(take(&r, 4));
		dev[0].absmax[code] = value_of(take(&r, 4));
	}
	memcpy(dev[1].absmin, dev[0].absmin, sizeof dev[1].absmin);
	memcpy(dev[1].absmax, dev[0].absmax, sizeof dev[1].absmax);
	evm_dev_init(&dev[0], cls, &caps);
	evm_dev_init(&dev[1], cls | EVM_KEYBOARD, &caps);
	evm_dev_share(&dev[0], &mods);
	evm_dev_share(&dev[1], &mods);
	if (flags & 4)
		evm_dev_set_caps(&dev[0], true);
	struct evm_pointer ptr;
	memset(&ptr, 0, sizeof ptr);
	evm_pointer_space(&ptr, value_of(take(&r, 4)) % 100000, value_of(take(&r, 4)) % 100000,
			  (int)(take(&r, 1) % 64), (int)(take(&r, 1) % 64));
	struct in_event out[EVM_MAX_OUT];
	while (r.left >= 7) {
		unsigned type = take(&r, 1);
		struct evm_dev *dp = &dev[(type >> 7) & 1];
		type &= 0x7f;
		unsigned code = take(&r, 2);
		int value = value_of(take(&r, 4));
		if (type == 0x70) {
			evm_dev_sync_begin(dp);
			continue;
		}
		if (type == 0x71) {
			evm_dev_sync_end(dp, &ptr);
			continue;
		}
		if (type == 0x72) {
			evm_dev_release_all(dp); /* a device unplugged */
			continue;
		}
		int n = evm_dev_feed(dp, &ptr, type % (EV_CNT + 2), code, value, out);
		if (n < 0 || n > EVM_MAX_OUT)
			abort();
		for (int i = 0; i < n; i++)
			(void)evm_key_repeats(out[i].key);
	}
	return 0;
}
