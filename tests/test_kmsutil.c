#include "testutil.h"
#include "blitfont.h"
#include "core/rng.h"
#include "platform/kmsutil.h"
#include "render/blit.h"
#include "render/console.h"
#include <errno.h>
#include <string.h>

static void test_parse_mode(void **st)
{
	(void)st;
	int w = -1, h = -1, hz = -1;
	assert_int_equal(kms_parse_mode("1280x720", &w, &h, &hz), 0);
	assert_int_equal(w, 1280);
	assert_int_equal(h, 720);
	assert_int_equal(hz, 0);
	assert_int_equal(kms_parse_mode("1920X1080@75", &w, &h, &hz), 0);
	assert_int_equal(w, 1920);
	assert_int_equal(h, 1080);
	assert_int_equal(hz, 75);
	const char *bad[] = { "", "x", "1280", "1280x", "x720", "1280x720@", "1280x720@0", "0x720",
			      "1280x720x", "-1x5", "1280 x 720", "99999999x1", "1280x720@60Hz", "20000x10" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		w = h = hz = 7;
		assert_int_equal(kms_parse_mode(bad[i], &w, &h, &hz), -EINVAL);
		assert_int_equal(w, 7); /* untouched on error */
	}
	assert_int_equal(kms_parse_mode(NULL, &w, &h, &hz), -EINVAL);
}

static void test_connector_names(void **st)
{
	(void)st;
	char buf[32];
	kms_connector_name(buf, sizeof buf, "HDMI-A", 1);
	assert_string_equal(buf, "HDMI-A-1");
	kms_connector_name(buf, sizeof buf, "Virtual", 2);
	assert_string_equal(buf, "Virtual-2");
	kms_connector_name(buf, sizeof buf, NULL, 3);
	assert_string_equal(buf, "Unknown-3");
	assert_true(kms_connector_match("HDMI-A-1", "HDMI-A-1"));
	assert_true(kms_connector_match("hdmi-a-1", "HDMI-A-1"));
	assert_true(kms_connector_match("HDMI-A", "HDMI-A-1"));
	assert_false(kms_connector_match("HDMI-A", "HDMI-A-2"));
	assert_false(kms_connector_match("HDMI-A-1", "HDMI-A-11"));
	assert_false(kms_connector_match("HDMI", "HDMI-A-1"));
	assert_false(kms_connector_match("DSI-1", "HDMI-A-1"));
	assert_false(kms_connector_match("", "HDMI-A-1"));
	assert_false(kms_connector_match(NULL, "HDMI-A-1"));
}

static void test_choose_mode(void **st)
{
	(void)st;
	const struct kms_mode m[] = {
		{ 1920, 1080, 60, false }, { 1920, 1080, 50, false }, { 1280, 720, 60, true },
		{ 1280, 720, 50, false },  { 1024, 768, 75, false },  { 1024, 768, 60, false },
	};
	int n = (int)(sizeof m / sizeof *m);
	assert_int_equal(kms_choose_mode(m, n, 0, 0, 0), 2); /* the preferred one */
	assert_int_equal(kms_choose_mode(m, 2, 0, 0, 0), 0); /* none preferred: the first */
	assert_int_equal(kms_choose_mode(m, n, 1920, 1080, 0), 0);
	assert_int_equal(kms_choose_mode(m, n, 1920, 1080, 50), 1);
	assert_int_equal(kms_choose_mode(m, n, 1280, 720, 0), 2);  /* preferred beats rate */
	assert_int_equal(kms_choose_mode(m, n, 1280, 720, 50), 3);
	assert_int_equal(kms_choose_mode(m, n, 1024, 768, 0), 4);  /* highest rate */
	assert_int_equal(kms_choose_mode(m, n, 1024, 768, 60), 5);
	assert_int_equal(kms_choose_mode(m, n, 1024, 768, 85), -ENOENT);
	assert_int_equal(kms_choose_mode(m, n, 800, 600, 0), -ENOENT);
	assert_int_equal(kms_choose_mode(m, 0, 0, 0, 0), -ENOENT);
}

#define MSG(s) s, sizeof s - 1

static void test_uevent(void **st)
{
	(void)st;
	struct kms_uevent ev;
	static const char hot[] = "change@/devices/pci0000:00/0000:00:02.0/drm/card0\0ACTION=change\0"
				  "DEVPATH=/devices/pci0000:00/0000:00:02.0/drm/card0\0SUBSYSTEM=drm\0HOTPLUG=1\0"
				  "DEVNAME=dri/card0\0DEVTYPE=drm_minor\0SEQNUM=2042\0MAJOR=226\0MINOR=0";
	assert_int_equal(kms_uevent_parse(MSG(hot), &ev), 0);
	assert_string_equal(ev.action, "change");
	assert_string_equal(ev.subsystem, "drm");
	assert_string_equal(ev.devname, "dri/card0");
	assert_true(ev.hotplug);
	assert_true(kms_uevent_is_drm_hotplug(&ev, "/dev/dri/card0"));
	assert_false(kms_uevent_is_drm_hotplug(&ev, "/dev/dri/card1"));
	assert_false(kms_uevent_is_drm_hotplug(&ev, "/dev/dri/card10"));
	assert_true(kms_uevent_is_drm_hotplug(&ev, NULL));

	static const char add[] = "add@/devices/virtual/input/input7\0ACTION=add\0SUBSYSTEM=input\0SEQNUM=9";
	assert_int_equal(kms_uevent_parse(MSG(add), &ev), 0);
	assert_string_equal(ev.action, "add");
	assert_string_equal(ev.subsystem, "input");
	assert_false(ev.hotplug);
	assert_false(kms_uevent_is_drm_hotplug(&ev, "/dev/dri/card0"));

	/* a drm change with no DEVNAME concerns every card */
	static const char nodev[] = "change@/devices/x/drm/card0\0ACTION=change\0SUBSYSTEM=drm\0HOTPLUG=0";
	assert_int_equal(kms_uevent_parse(MSG(nodev), &ev), 0);
	assert_false(ev.hotplug);
	assert_true(kms_uevent_is_drm_hotplug(&ev, "/dev/dri/card3"));

	/* libudev's re-broadcasts and garbage are not kernel uevents */
	static const char udev[] = "libudev\0\xfe\xed\xca\xfe";
	assert_int_equal(kms_uevent_parse(MSG(udev), &ev), -EINVAL);
	assert_int_equal(kms_uevent_parse(MSG("@nothing"), &ev), -EINVAL);
	assert_int_equal(kms_uevent_parse("", 0, &ev), -EINVAL);

	/* no NUL at the end, long values truncated, not overrun */
	char big[600];
	int n = snprintf(big, sizeof big, "change@/x%cSUBSYSTEM=%0200d%cDEVNAME=dri/card0", 0, 0, 0);
	assert_int_equal(kms_uevent_parse(big, (size_t)n, &ev), 0);
	assert_int_equal(strlen(ev.subsystem), sizeof ev.subsystem - 1);
	assert_string_equal(ev.devname, "dri/card0");
}

static void test_stale_maps(void **st)
{
	(void)st;
	struct kms_stale s = { 0 };
	assert_int_equal(kms_stale_resize(&s, 0, 3), -EINVAL);
	assert_int_equal(kms_stale_resize(&s, 4, 3), 0);
	assert_true(kms_stale_any(&s, 0));
	assert_true(kms_stale_any(&s, 1));
	kms_stale_clear(&s, 0);
	assert_false(kms_stale_any(&s, 0));
	assert_true(kms_stale_any(&s, 1));
	uint8_t dmg[12] = { 0 };
	dmg[5] = 1;
	kms_stale_clear(&s, 1);
	kms_stale_add(&s, dmg, NULL);
	assert_int_equal(s.map[0][5], 1);
	assert_int_equal(s.map[1][5], 1);
	assert_int_equal(s.map[0][4], 0);
	/* cell 5 is (1, 1): row 1's span holds column 1 in both (a whole row
	 * read, without spans, gives the whole row's) */
	for (int k = 0; k < 2; k++)
		assert_true(s.rows[k][1].lo <= 1 && s.rows[k][1].hi >= 1);
	assert_false(con_span_any(s.rows[0][0]) || con_span_any(s.rows[0][2]));
	/* spans given: what lies outside them is not read */
	struct con_span rows[3] = { CON_SPAN_NONE, CON_SPAN_NONE, CON_SPAN_NONE };
	dmg[9] = 1;  /* (1, 2) */
	dmg[11] = 1; /* (3, 2) */
	kms_stale_add(&s, dmg, rows);
	assert_int_equal(s.map[0][9], 0);
	rows[2] = (struct con_span){ 0, 2 };
	kms_stale_add(&s, dmg, rows);
	assert_int_equal(s.map[0][9], 1);
	assert_int_equal(s.map[0][11], 0);
	assert_true(s.rows[1][2].lo == 0 && s.rows[1][2].hi == 2);
	kms_stale_clear(&s, 0);
	assert_false(kms_stale_any(&s, 0));
	assert_int_equal(s.map[0][5], 0);
	assert_int_equal(s.map[0][9], 0);
	assert_true(kms_stale_any(&s, 1));
	assert_int_equal(s.map[1][9], 1);
	kms_stale_all(&s, 1);
	assert_int_equal(s.map[1][0], 1);
	assert_int_equal(s.map[0][0], 0);
	assert_int_equal(kms_stale_resize(&s, 2, 2), 0);
	assert_int_equal(s.w, 2);
	assert_true(kms_stale_any(&s, 0));
	assert_false(kms_stale_any(&s, 2));
	kms_stale_free(&s);
	kms_stale_free(&s);
	kms_stale_free(NULL);
	assert_null(s.map[0]);
}

/* What the DRM backend does with its two buffers, on real pixels: random
 * console changes, frames sometimes deferred (a flip still pending) and a
 * buffer sometimes redrawn whole; after every flip the buffer on screen
 * must equal a full draw of the console, pixel for pixel. */
static void test_double_buffer_damage(void **st)
{
	(void)st;
	struct font *f = tf_make(0);
	assert_non_null(f);
	struct blitter *b;
	assert_int_equal(blit_create(&b, f, 1), 0);
	enum { CW = 9, CH = 5 };
	int W = CW * TF_W + 3, H = CH * TF_H + 2;
	size_t bytes = (size_t)W * 4 * (size_t)H;
	uint8_t *px[2] = { malloc(bytes), malloc(bytes) }, *ref = malloc(bytes);
	assert_non_null(px[0]);
	assert_non_null(px[1]);
	assert_non_null(ref);
	struct surface s[2], rs;
	for (int i = 0; i < 2; i++) {
		s[i] = (struct surface){ px[i], W, H, W * 4, SURF_XRGB8888, 0 };
		blit_clear(&s[i], 0);
	}
	rs = (struct surface){ ref, W, H, W * 4, SURF_XRGB8888, 0 };
	struct console *c;
	assert_int_equal(con_create(&c, CW, CH), 0);
	struct kms_stale ks = { 0 };
	assert_int_equal(kms_stale_resize(&ks, CW, CH), 0);
	struct rng r;
	rng_seed(&r, 1234);
	const uint32_t glyphs[] = { ' ', '@', 'F', 'R', 'g', 0x2588 };
	int front = 0, flips = 0;
	for (int frame = 0; frame < 400; frame++) {
		int changes = (int)rng_range(&r, 0, 4);
		for (int k = 0; k < changes; k++)
			con_put(c, (int)rng_range(&r, 0, CW - 1), (int)rng_range(&r, 0, CH - 1),
				glyphs[rng_range(&r, 0, 5)], CON_RGB(rng_range(&r, 0, 255), 200, 10),
				CON_RGB(0, rng_range(&r, 0, 3) * 60, 0));
		kms_stale_add(&ks, c->damage, frame % 2 ? c->row_damage : NULL);
		con_clear_damage(c);
		if (rng_range(&r, 0, 9) == 0) { /* a buffer's contents lost (new buffer, VT switch) */
			int lost = rng_range(&r, 0, 1);
			blit_clear(&s[lost], 0);
			kms_stale_all(&ks, lost);
		}
		if (rng_range(&r, 0, 3) == 0)
			continue; /* flip pending: frame deferred, damage kept */
		int back = 1 - front;
		if (!kms_stale_draw(&ks, back, b, c, &s[back]) && !kms_stale_any(&ks, front))
			continue; /* nothing to show */
		front = back;
		flips++;
		blit_clear(&rs, 0);
		blit_draw(b, c, &rs, NULL);
		assert_memory_equal(px[front], ref, bytes);
	}
	assert_true(flips > 100);
	kms_stale_free(&ks);
	con_destroy(c);
	blit_destroy(b);
	free(px[0]);
	free(px[1]);
	free(ref);
	tf_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_mode),
		cmocka_unit_test(test_connector_names),
		cmocka_unit_test(test_choose_mode),
		cmocka_unit_test(test_uevent),
		cmocka_unit_test(test_stale_maps),
		cmocka_unit_test(test_double_buffer_damage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
