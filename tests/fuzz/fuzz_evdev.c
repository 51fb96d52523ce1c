/* Fuzz target: input-event streams through the pure evdev mapping (evmap):
 * keyboards, gamepads and mice with any capabilities, absolute ranges and
 * values, including INT_MIN/INT_MAX, SYN_DROPPED recovery and releases.
 * Input layout: 1 byte of device classes, 1 byte of flags, then capability
 * and range bytes, then 7-byte events (type 1, code 2, value 4 LE). */
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
	static struct evm_dev d; /* large: not on the stack */
	memset(&d, 0, sizeof d);
	for (int i = 0; i < ABS_CNT; i++) {
		d.absmin[i] = 0;
		d.absmax[i] = 255;
	}
	int nranges = (int)(take(&r, 1) % 8);
	for (int i = 0; i < nranges; i++) {
		int code = (int)(take(&r, 1) % ABS_CNT);
		d.absmin[code] = value_of(take(&r, 4));
		d.absmax[code] = value_of(take(&r, 4));
	}
	evm_dev_init(&d, cls, &caps);
	struct evm_pointer ptr;
	memset(&ptr, 0, sizeof ptr);
	evm_pointer_space(&ptr, value_of(take(&r, 4)) % 100000, value_of(take(&r, 4)) % 100000,
			  (int)(take(&r, 1) % 64), (int)(take(&r, 1) % 64));
	struct in_event out[EVM_MAX_OUT];
	while (r.left >= 7) {
		unsigned type = take(&r, 1);
		unsigned code = take(&r, 2);
		int value = value_of(take(&r, 4));
		if (type == 0xf0) {
			evm_dev_sync_begin(&d);
			continue;
		}
		if (type == 0xf1) {
			evm_dev_sync_end(&d, &ptr);
			continue;
		}
		if (type == 0xf2) {
			evm_dev_release_all(&d);
			continue;
		}
		int n = evm_dev_feed(&d, &ptr, type % (EV_CNT + 2), code, value, out);
		if (n < 0 || n > EVM_MAX_OUT)
			abort();
		for (int i = 0; i < n; i++)
			(void)evm_key_repeats(out[i].key);
	}
	return 0;
}
