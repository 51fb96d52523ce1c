/* drmcard: see drmcard.h. */
#include "platform/drmcard.h"
#include "platform/devnode.h"
#include "platform/holders.h"
#include "core/log.h"
#include "platform/kmsutil.h"
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xf86drm.h>

static void norm_card_path(const char *in, char *out, size_t len)
{
	if (strchr(in, '/'))
		snprintf(out, len, "%s", in);
	else
		snprintf(out, len, "/dev/dri/%s", in);
}

static int card_cmp(const void *a, const void *b)
{
	const char *x = a, *y = b;
	size_t lx = strlen(x), ly = strlen(y);
	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y);
}

/* The primary nodes of every DRM device (libdrm's enumeration, else the
 * /dev/dri/cardN that exist), sorted. Returns how many. */
static int enum_cards(char paths[][DRMCARD_PATH_LEN], int max)
{
	int n = 0;
	drmDevicePtr devs[DRMCARD_MAX];
	int nd = drmGetDevices2(0, devs, DRMCARD_MAX);
	for (int i = 0; i < nd && n < max; i++) {
		if (devs[i]->available_nodes & (1 << DRM_NODE_PRIMARY))
			snprintf(paths[n++], DRMCARD_PATH_LEN, "%s", devs[i]->nodes[DRM_NODE_PRIMARY]);
	}
	if (nd > 0)
		drmFreeDevices(devs, nd);
	if (n == 0) {
		for (int i = 0; i < 32 && n < max; i++) {
			char p[DRMCARD_PATH_LEN];
			snprintf(p, sizeof p, "/dev/dri/card%d", i);
			if (access(p, F_OK) == 0)
				snprintf(paths[n++], DRMCARD_PATH_LEN, "%s", p);
		}
	}
	qsort(paths, (size_t)n, DRMCARD_PATH_LEN, card_cmp);
	return n;
}

/* 1 for the device ctx points to. */
static unsigned same_dev(dev_t rdev, void *ctx)
{
	return rdev == *(const dev_t *)ctx;
}

/* Names (comm and pid) of up to three other processes holding card `path`
 * open, so the "cannot become master" line can say who; empty when none
 * can be seen. */
static void card_holders(const char *path, char *buf, size_t len)
{
	struct stat cst;
	buf[0] = 0;
	if (stat(path, &cst) == 0)
		holders_find("/proc", getpid(), same_dev, &cst.st_rdev, 1, 3, buf, len);
}

void drmcard_log_master_failure(const char *path, int err)
{
	char who[160];
	card_holders(path, who, sizeof who);
	if (err == EACCES || err == EPERM)
		log_error("%s: cannot become DRM master (%s)%s%s: run pirogue from a text console login (Ctrl+Alt+F3, or --vt N as root), "
			  "as root, or stop the X/Wayland session holding the display (sudo systemctl stop display-manager)",
			  path, strerror(err), who[0] ? "; the card is open in " : "", who);
	else
		log_error("%s: the display is held by another DRM master (%s%s, probably a running X/Wayland compositor or "
			  "another pirogue): switch to a free VT and run pirogue there (or with --vt N), or stop the display "
			  "manager (sudo systemctl stop display-manager)",
			  path, who[0] ? who : "who holds it cannot be seen", "");
}

/* Opens a card node; on failure logs one line (when quiet is false). */
static int open_card(const char *path, bool quiet)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	int err = errno;
	if (!quiet) {
		if (err == ENOENT || err == ENODEV || err == ENXIO)
			log_error("%s: no such DRM card (%s): --list-displays shows the cards there are", path, strerror(err));
		else if (err == EACCES || err == EPERM)
			log_error("%s: %s: %s", path, strerror(err), devnode_advice(DEVNODE_DRM, err));
		else
			log_error("%s: %s", path, strerror(err));
	}
	return -err;
}

void drmcard_driver(int fd, char *buf, size_t len)
{
	drmVersionPtr v = drmGetVersion(fd);
	snprintf(buf, len, "%s", v && v->name ? v->name : "unknown driver");
	drmFreeVersion(v);
}

int drmcard_master(int fd)
{
	if (drmIsMaster(fd))
		return 0;
	if (drmSetMaster(fd) == 0)
		return 0;
	return errno ? -errno : -EBUSY;
}

static void conn_name(const drmModeConnector *c, char *buf, size_t len)
{
	kms_connector_name(buf, len, drmModeGetConnectorTypeName(c->connector_type), c->connector_type_id);
}

int drmcard_mode_hz(const drmModeModeInfo *m)
{
	if (m->vrefresh)
		return (int)m->vrefresh;
	if (!m->htotal || !m->vtotal)
		return 0;
	return (int)(((uint64_t)m->clock * 1000 + (uint64_t)m->htotal * m->vtotal / 2) / ((uint64_t)m->htotal * m->vtotal));
}

/* Writes "WxH@Hz[*] ..." for a connector's modes (no duplicates). */
static void mode_list(const drmModeConnector *c, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; i < c->count_modes; i++) {
		const drmModeModeInfo *m = &c->modes[i];
		bool dup = false;
		for (int j = 0; j < i && !dup; j++)
			dup = c->modes[j].hdisplay == m->hdisplay && c->modes[j].vdisplay == m->vdisplay &&
			      drmcard_mode_hz(&c->modes[j]) == drmcard_mode_hz(m) &&
			      !(m->type & DRM_MODE_TYPE_PREFERRED);
		if (dup)
			continue;
		int w = snprintf(buf + used, len - used, "%s%ux%u@%d%s", used ? " " : "", m->hdisplay, m->vdisplay,
				 drmcard_mode_hz(m), m->type & DRM_MODE_TYPE_PREFERRED ? "*" : "");
		if (w < 0 || (size_t)w >= len - used) {
			if (len > 4)
				snprintf(buf + len - 4, 4, "...");
			return;
		}
		used += (size_t)w;
	}
}

/* Index of the chosen mode of connector c for the wanted size, or -ENOENT. */
static int pick_mode(const drmModeConnector *c, int w, int h, int hz)
{
	struct kms_mode ms[256];
	int n = c->count_modes < 256 ? c->count_modes : 256;
	for (int i = 0; i < n; i++)
		ms[i] = (struct kms_mode){ c->modes[i].hdisplay, c->modes[i].vdisplay, drmcard_mode_hz(&c->modes[i]),
					   (c->modes[i].type & DRM_MODE_TYPE_PREFERRED) != 0 };
	return kms_choose_mode(ms, n, w, h, hz);
}

/* A CRTC that can drive connector c: its current one, else the first free-
 * looking one its encoders allow. 0 when none. */
static uint32_t pick_crtc(int fd, const drmModeRes *res, const drmModeConnector *c)
{
	uint32_t crtc = 0;
	if (c->encoder_id) {
		drmModeEncoderPtr e = drmModeGetEncoder(fd, c->encoder_id);
		if (e) {
			crtc = e->crtc_id;
			drmModeFreeEncoder(e);
		}
	}
	for (int i = 0; !crtc && i < c->count_encoders; i++) {
		drmModeEncoderPtr e = drmModeGetEncoder(fd, c->encoders[i]);
		if (!e)
			continue;
		for (int j = 0; j < res->count_crtcs; j++)
			if (e->possible_crtcs & (1u << j)) {
				crtc = res->crtcs[j];
				break;
			}
		drmModeFreeEncoder(e);
	}
	return crtc;
}

int drmcard_choose(int fd, const char *path, const char *want_conn, int ww, int wh, int whz, bool probe,
		   uint32_t prefer, bool strict, bool loud, struct drmcard_output *ch)
{
	drmModeResPtr res = drmModeGetResources(fd);
	if (!res) {
		int err = errno ? errno : ENODEV;
		if (loud)
			log_error("%s: cannot read display resources (%s): is it a display controller? --list-displays",
				  path, strerror(err));
		return -err;
	}
	int rc = -ENOENT;
	bool named_seen = false;
	char names[256] = "";
	size_t nused = 0;
	drmModeConnectorPtr best = NULL;
	int best_rank = 0;
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnectorPtr c = probe ? drmModeGetConnector(fd, res->connectors[i])
					      : drmModeGetConnectorCurrent(fd, res->connectors[i]);
		if (!c)
			continue;
		char name[32];
		conn_name(c, name, sizeof name);
		int w = snprintf(names + nused, sizeof names - nused, "%s%s (%s)", nused ? ", " : "", name,
				 c->connection == DRM_MODE_CONNECTED	      ? "connected"
				 : c->connection == DRM_MODE_DISCONNECTED ? "disconnected"
									  : "status unknown");
		if (w > 0 && (size_t)w < sizeof names - nused)
			nused += (size_t)w;
		/* connected beats "unknown" (outputs that cannot sense a display,
		 * such as composite video, yet list modes); the connector in use
		 * beats another of the same rank */
		int rank = c->count_modes <= 0 ? 0 : c->connection == DRM_MODE_CONNECTED ? 4
						 : c->connection == DRM_MODE_UNKNOWNCONNECTION ? 2 : 0;
		if (rank && prefer && c->connector_id == prefer)
			rank++;
		if (want_conn && *want_conn) {
			if (!kms_connector_match(want_conn, name)) {
				drmModeFreeConnector(c);
				continue;
			}
			named_seen = true;
		}
		if (rank > best_rank) {
			best_rank = rank;
			drmModeFreeConnector(best);
			best = c;
		} else {
			drmModeFreeConnector(c);
		}
	}
	if (want_conn && *want_conn && !named_seen) {
		if (loud)
			log_error("%s: no connector named %s; this card has: %s", path, want_conn, names[0] ? names : "none");
		rc = -EINVAL;
		goto out;
	}
	if (!best) {
		if (loud)
			log_error("%s: no display connected (%s): plug one in, or choose another card with --card "
				  "(--list-displays)",
				  path, names[0] ? names : "no connectors");
		goto out;
	}
	int mi = pick_mode(best, ww, wh, whz);
	if (mi < 0) {
		char modes[512], name[32];
		mode_list(best, modes, sizeof modes);
		conn_name(best, name, sizeof name);
		if (strict) {
			if (loud) {
				if (whz)
					log_error("%s %s: no mode %dx%d@%d; it offers %s", path, name, ww, wh, whz, modes);
				else
					log_error("%s %s: no mode %dx%d; it offers %s", path, name, ww, wh, modes);
			}
			rc = -EINVAL;
			goto out;
		}
		mi = pick_mode(best, 0, 0, 0);
		if (loud)
			log_error("%s %s: the display now lacks mode %dx%d; using its preferred mode %ux%u", path, name,
				  ww, wh, best->modes[mi].hdisplay, best->modes[mi].vdisplay);
	}
	ch->crtc_id = pick_crtc(fd, res, best);
	if (!ch->crtc_id) {
		if (loud)
			log_error("%s: no display controller (CRTC) can drive the connected display", path);
		rc = -ENODEV;
		goto out;
	}
	ch->conn_id = best->connector_id;
	conn_name(best, ch->name, sizeof ch->name);
	ch->mode = best->modes[mi];
	rc = 0;
out:
	drmModeFreeConnector(best);
	drmModeFreeResources(res);
	return rc;
}

int drmcard_find(const char *card, const char *want_conn, bool probe, char *path, size_t len)
{
	if (card) {
		norm_card_path(card, path, len);
		return open_card(path, false);
	}
	char cards[DRMCARD_MAX][DRMCARD_PATH_LEN];
	int n = enum_cards(cards, DRMCARD_MAX);
	if (n == 0) {
		log_error("drm: no DRM card (/dev/dri/card*): the kernel has no display driver loaded; try "
			  "--backend fbdev or --backend term");
		return -ENODEV;
	}
	struct drmcard_output ch;
	for (int i = 0; i < n; i++) {
		int fd = open_card(cards[i], true);
		if (fd < 0)
			continue;
		if (n > 1 && drmcard_choose(fd, cards[i], want_conn, 0, 0, 0, probe, 0, false, false, &ch) < 0) {
			close(fd);
			continue;
		}
		snprintf(path, len, "%.63s", cards[i]);
		return fd;
	}
	/* none has a display: the first that drives outputs at all (on a Pi,
	 * not the V3D render-only card) waits for one */
	for (int i = 0; i < n; i++) {
		int fd = open_card(cards[i], true);
		if (fd < 0)
			continue;
		drmModeResPtr res = drmModeGetResources(fd);
		bool drives = res && res->count_connectors > 0 && res->count_crtcs > 0;
		drmModeFreeResources(res);
		if (drives) {
			snprintf(path, len, "%.63s", cards[i]);
			return fd;
		}
		close(fd);
	}
	/* none can: report on the first */
	snprintf(path, len, "%.63s", cards[0]);
	return open_card(path, false);
}

int drmcard_probe(const struct display_opts *o, char *why, size_t len)
{
	char cards[DRMCARD_MAX][DRMCARD_PATH_LEN];
	int n;
	if (o && o->card) {
		norm_card_path(o->card, cards[0], DRMCARD_PATH_LEN);
		n = 1;
	} else {
		n = enum_cards(cards, DRMCARD_MAX);
	}
	if (n == 0) {
		snprintf(why, len, "no DRM card (/dev/dri/card*)");
		return -ENODEV;
	}
	char first_reason[300] = "";
	int first_err = -ENODEV;
	for (int i = 0; i < n; i++) {
		char reason[300] = "";
		int err = 0;
		int fd = open_card(cards[i], true);
		char drv[32] = "";
		struct drmcard_output ch;
		if (fd < 0) {
			err = fd;
			const char *fix = devnode_advice(DEVNODE_DRM, -fd);
			snprintf(reason, sizeof reason, "%.63s cannot be opened (%s)%s%s", cards[i], strerror(-fd),
				 fix[0] ? ": " : "", fix);
		} else {
			drmcard_driver(fd, drv, sizeof drv);
			err = drmcard_master(fd);
			if (err) {
				char who[120];
				card_holders(cards[i], who, sizeof who);
				snprintf(reason, sizeof reason, "%.63s (%s) cannot be mastered (%s%s%.60s)", cards[i], drv,
					 strerror(-err), who[0] ? ", held by " : "", who);
			} else if ((err = drmcard_choose(fd, cards[i], o ? o->connector : NULL, 0, 0, 0, true, 0, false,
							 false, &ch)) < 0) {
				snprintf(reason, sizeof reason, "%.63s (%s) has no connected %s%.31s", cards[i], drv,
					 o && o->connector ? "connector " : "display",
					 o && o->connector ? o->connector : "");
			}
			close(fd);
		}
		if (!err) {
			snprintf(why, len, "%s (%s) has a connected connector %s", cards[i], drv, ch.name);
			return 0;
		}
		if (!first_reason[0]) {
			snprintf(first_reason, sizeof first_reason, "%s", reason);
			first_err = err;
		}
	}
	snprintf(why, len, "%s%s", first_reason, n > 1 ? " (and no other card qualifies)" : "");
	return first_err;
}

int drmcard_list(FILE *out)
{
	char cards[DRMCARD_MAX][DRMCARD_PATH_LEN];
	int n = enum_cards(cards, DRMCARD_MAX);
	fprintf(out, "DRM cards (* = preferred mode):\n");
	if (n == 0)
		fprintf(out, "  none (/dev/dri/card* does not exist: no display driver loaded)\n");
	for (int i = 0; i < n; i++) {
		int fd = open_card(cards[i], true);
		if (fd < 0) {
			const char *fix = devnode_advice(DEVNODE_DRM, -fd);
			fprintf(out, "  %s: cannot open: %s%s%s%s\n", cards[i], strerror(-fd), fix[0] ? " (" : "", fix,
				fix[0] ? ")" : "");
			continue;
		}
		char drv[32], who[160] = "";
		drmcard_driver(fd, drv, sizeof drv);
		int m = drmcard_master(fd);
		if (m)
			card_holders(cards[i], who, sizeof who);
		fprintf(out, "  %s: driver %s, %s%s%s%s\n", cards[i], drv,
			m ? "cannot be mastered: " : "can be mastered", m ? strerror(-m) : "", who[0] ? ", held by " : "",
			who);
		drmModeResPtr res = drmModeGetResources(fd);
		if (!res) {
			fprintf(out, "    no display resources (render-only device?)\n");
			close(fd);
			continue;
		}
		for (int k = 0; k < res->count_connectors; k++) {
			drmModeConnectorPtr c = drmModeGetConnector(fd, res->connectors[k]);
			if (!c)
				continue;
			char name[32], modes[2048];
			conn_name(c, name, sizeof name);
			const char *st = c->connection == DRM_MODE_CONNECTED	  ? "connected"
					 : c->connection == DRM_MODE_DISCONNECTED ? "disconnected"
										  : "unknown";
			mode_list(c, modes, sizeof modes);
			if (c->count_modes)
				fprintf(out, "    %-12s %s, %dx%d mm: %s\n", name, st, (int)c->mmWidth, (int)c->mmHeight,
					modes);
			else
				fprintf(out, "    %-12s %s\n", name, st);
			drmModeFreeConnector(c);
		}
		drmModeFreeResources(res);
		close(fd);
	}
	return n;
}
