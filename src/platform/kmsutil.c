#include "platform/kmsutil.h"
#include "render/blit.h"
#include "render/console.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Reads a decimal number of at most 6 digits; returns the end or NULL. */
static const char *read_num(const char *p, int *out)
{
	int v = 0, n = 0;
	while (isdigit((unsigned char)*p)) {
		if (++n > 6)
			return NULL;
		v = v * 10 + (*p++ - '0');
	}
	if (!n)
		return NULL;
	*out = v;
	return p;
}

int kms_parse_mode(const char *s, int *w, int *h, int *hz)
{
	int pw, ph, phz = 0;
	if (!s)
		return -EINVAL;
	const char *p = read_num(s, &pw);
	if (!p || (*p != 'x' && *p != 'X'))
		return -EINVAL;
	p = read_num(p + 1, &ph);
	if (!p)
		return -EINVAL;
	if (*p == '@') {
		p = read_num(p + 1, &phz);
		if (!p || phz < 1 || phz > 1000)
			return -EINVAL;
	}
	if (*p || pw < 1 || ph < 1 || pw > 16384 || ph > 16384)
		return -EINVAL;
	*w = pw;
	*h = ph;
	*hz = phz;
	return 0;
}

void kms_connector_name(char *buf, size_t len, const char *type_name, unsigned type_id)
{
	snprintf(buf, len, "%s-%u", type_name ? type_name : "Unknown", type_id);
}

bool kms_connector_match(const char *want, const char *name)
{
	if (!want || !name || !*want)
		return false;
	if (!strcasecmp(want, name))
		return true;
	/* "HDMI-A" names "HDMI-A-1" */
	size_t wl = strlen(want);
	return !strncasecmp(want, name, wl) && !strcmp(name + wl, "-1");
}

int kms_choose_mode(const struct kms_mode *modes, int n, int want_w, int want_h, int want_hz)
{
	if (n <= 0)
		return -ENOENT;
	if (!want_w || !want_h) {
		for (int i = 0; i < n; i++)
			if (modes[i].preferred)
				return i;
		return 0;
	}
	int best = -ENOENT;
	for (int i = 0; i < n; i++) {
		const struct kms_mode *m = &modes[i];
		if (m->w != want_w || m->h != want_h || (want_hz && m->hz != want_hz))
			continue;
		if (best < 0) {
			best = i;
			continue;
		}
		const struct kms_mode *b = &modes[best];
		if (b->preferred)
			continue;
		if (m->preferred || m->hz > b->hz)
			best = i;
	}
	return best;
}

/* Copies value into dst (len bytes), truncating. */
static void copy_val(char *dst, size_t len, const char *v, size_t vlen)
{
	if (vlen >= len)
		vlen = len - 1;
	memcpy(dst, v, vlen);
	dst[vlen] = 0;
}

int kms_uevent_parse(const char *buf, size_t len, struct kms_uevent *ev)
{
	memset(ev, 0, sizeof *ev);
	if (!buf || !len)
		return -EINVAL;
	/* header: "action@devpath" */
	const char *end = buf + len;
	const char *nul = memchr(buf, 0, len);
	size_t hlen = nul ? (size_t)(nul - buf) : len;
	const char *at = memchr(buf, '@', hlen);
	if (!at || at == buf)
		return -EINVAL;
	copy_val(ev->action, sizeof ev->action, buf, (size_t)(at - buf));
	const char *p = nul ? nul + 1 : end;
	while (p < end) {
		const char *z = memchr(p, 0, (size_t)(end - p));
		size_t l = z ? (size_t)(z - p) : (size_t)(end - p);
		const char *eq = memchr(p, '=', l);
		if (eq) {
			size_t kl = (size_t)(eq - p);
			const char *v = eq + 1;
			size_t vl = l - kl - 1;
			if (kl == 6 && !memcmp(p, "ACTION", 6))
				copy_val(ev->action, sizeof ev->action, v, vl);
			else if (kl == 9 && !memcmp(p, "SUBSYSTEM", 9))
				copy_val(ev->subsystem, sizeof ev->subsystem, v, vl);
			else if (kl == 7 && !memcmp(p, "DEVNAME", 7))
				copy_val(ev->devname, sizeof ev->devname, v, vl);
			else if (kl == 7 && !memcmp(p, "HOTPLUG", 7))
				ev->hotplug = vl == 1 && v[0] == '1';
		}
		p += l + 1;
	}
	return 0;
}

bool kms_uevent_is_drm_hotplug(const struct kms_uevent *ev, const char *card_path)
{
	if (strcmp(ev->subsystem, "drm") || strcmp(ev->action, "change"))
		return false;
	if (!ev->devname[0] || !card_path)
		return true;
	/* DEVNAME is relative to /dev: "dri/card0" */
	size_t cl = strlen(card_path), dl = strlen(ev->devname);
	return cl >= dl && !strcmp(card_path + cl - dl, ev->devname) &&
	       (cl == dl || card_path[cl - dl - 1] == '/');
}

int kms_stale_resize(struct kms_stale *s, int w, int h)
{
	if (w < 1 || h < 1 || w > 4096 || h > 4096)
		return -EINVAL;
	size_t n = (size_t)w * (size_t)h;
	if (s->map[0] && s->w == w && s->h == h) {
		kms_stale_all(s, -1);
		return 0;
	}
	uint8_t *a = malloc(n), *b = malloc(n);
	struct con_span *ra = malloc((size_t)h * sizeof *ra), *rb = malloc((size_t)h * sizeof *rb);
	if (!a || !b || !ra || !rb) {
		free(a);
		free(b);
		free(ra);
		free(rb);
		return -ENOMEM;
	}
	kms_stale_free(s);
	s->map[0] = a;
	s->map[1] = b;
	s->rows[0] = ra;
	s->rows[1] = rb;
	s->w = w;
	s->h = h;
	kms_stale_all(s, -1);
	return 0;
}

void kms_stale_add(struct kms_stale *s, const uint8_t *damage, const struct con_span *rows)
{
	if (!s->map[0] || !damage)
		return;
	size_t w = (size_t)s->w;
	for (int y = 0; y < s->h; y++) {
		struct con_span sp = rows ? rows[y] : (struct con_span){ 0, (uint16_t)(w - 1) };
		if (!con_span_any(sp))
			continue;
		if (sp.hi >= w)
			sp.hi = (uint16_t)(w - 1);
		size_t i = (size_t)y * w + sp.lo, end = (size_t)y * w + sp.hi + 1;
		uint8_t any = 0;
		/* nonzero means stale, so OR-ing whole words keeps the meaning */
		for (; i + 8 <= end; i += 8) {
			uint64_t d, a, b;
			memcpy(&d, damage + i, 8);
			if (!d)
				continue;
			memcpy(&a, s->map[0] + i, 8);
			memcpy(&b, s->map[1] + i, 8);
			a |= d;
			b |= d;
			memcpy(s->map[0] + i, &a, 8);
			memcpy(s->map[1] + i, &b, 8);
			any = 1;
		}
		for (; i < end; i++) {
			s->map[0][i] |= damage[i];
			s->map[1][i] |= damage[i];
			any |= damage[i] != 0;
		}
		if (!any)
			continue;
		for (int k = 0; k < 2; k++) { /* (a span wider than the stale cells is fine) */
			struct con_span *r = &s->rows[k][y];
			r->lo = sp.lo < r->lo ? sp.lo : r->lo;
			r->hi = sp.hi > r->hi ? sp.hi : r->hi;
		}
	}
}

void kms_stale_all(struct kms_stale *s, int i)
{
	size_t n = (size_t)s->w * (size_t)s->h;
	for (int k = 0; k < 2; k++)
		if (s->map[k] && (i < 0 || i == k)) {
			memset(s->map[k], 1, n);
			for (int y = 0; y < s->h; y++)
				s->rows[k][y] = (struct con_span){ 0, (uint16_t)(s->w - 1) };
		}
}

bool kms_stale_any(const struct kms_stale *s, int i)
{
	if (i < 0 || i > 1 || !s->map[i])
		return false;
	for (int y = 0; y < s->h; y++)
		if (con_span_any(s->rows[i][y]))
			return true;
	return false;
}

void kms_stale_clear(struct kms_stale *s, int i)
{
	if (i < 0 || i > 1 || !s->map[i])
		return;
	for (int y = 0; y < s->h; y++) {
		struct con_span sp = s->rows[i][y];
		if (con_span_any(sp))
			memset(s->map[i] + (size_t)y * (size_t)s->w + sp.lo, 0, (size_t)(sp.hi - sp.lo + 1));
		s->rows[i][y] = CON_SPAN_NONE;
	}
}

void kms_stale_free(struct kms_stale *s)
{
	if (!s)
		return;
	free(s->map[0]);
	free(s->map[1]);
	free(s->rows[0]);
	free(s->rows[1]);
	s->map[0] = s->map[1] = NULL;
	s->rows[0] = s->rows[1] = NULL;
	s->w = s->h = 0;
}

bool kms_stale_draw(struct kms_stale *s, int i, struct blitter *b, const struct console *c, struct surface *surf)
{
	if (!kms_stale_any(s, i))
		return false;
	blit_draw_rows(b, c, surf, s->map[i], s->rows[i]);
	kms_stale_clear(s, i);
	return true;
}
