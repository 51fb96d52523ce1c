/* evdb: the SDL GameControllerDB (mapping lines read as SDL 2.26 reads them, found by joystick GUID) and SDL's Linux joystick GUIDs; reads a file only when asked, touches no device. */
#ifndef PIROGUE_PLATFORM_EVDB_H
#define PIROGUE_PLATFORM_EVDB_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The outputs of a mapping line. pirogue acts on the buttons, the left
 * stick and the triggers (a trigger counts as its button, L2/R2, from half
 * way: EVM_TRIGGER_PRESS in platform/evmap.h); SDL's other outputs are kept as EVDB_T_OTHER + n
 * only because they take part in SDL's rules (the first binding of an input
 * wins, an axis remembers which binding it drove last) and drive nothing. */
enum evdb_btn {
	EVDB_B_SOUTH, EVDB_B_EAST, EVDB_B_WEST, EVDB_B_NORTH, EVDB_B_TL, EVDB_B_TR,
	EVDB_B_START, EVDB_B_SELECT, EVDB_B_DUP, EVDB_B_DDOWN, EVDB_B_DLEFT, EVDB_B_DRIGHT,
	EVDB_B_TL2, EVDB_B_TR2, EVDB_B_THUMBL, EVDB_B_THUMBR,
	EVDB_B_COUNT,
	/* axis targets follow the buttons in a binding's target field */
	EVDB_T_LX = EVDB_B_COUNT, EVDB_T_LY, EVDB_T_LT, EVDB_T_RT,
	EVDB_T_COUNT,
	EVDB_T_OTHER = EVDB_T_COUNT,
};

/* One "target:source" element of a mapping line, as SDL 2.26 reads it. */
struct evdb_bind {
	uint8_t target;   /* enum evdb_btn, EVDB_T_LX .. EVDB_T_RT, or EVDB_T_OTHER + n */
	int8_t out_half;  /* '+leftx:' = 1, '-leftx:' = -1, else 0 */
	char kind;        /* 'b' button, 'a' axis, 'h' hat */
	int8_t in_half;   /* '+a1' = 1, '-a1' = -1, else 0 */
	bool invert;      /* 'a1~' */
	uint8_t hatmask;  /* hN.M: any mask, the binding is on while (hat & M) (1 up, 2 right, 4 down, 8 left) */
	uint16_t index;   /* bN / aN / hN (saturated at 65535) */
};

#define EVDB_MAXBINDS 48
struct evdb_entry {
	uint8_t guid[16]; /* with the CRC bytes (2-3) cleared */
	uint16_t crc;     /* the line's crc: field (or its GUID's CRC bytes), 0 none */
	char name[64];
	const char *src;  /* where the line was read ("FILE", "SDL_GAMECONTROLLERCONFIG"); owned by the db */
	int line;
	int nbinds;
	struct evdb_bind binds[EVDB_MAXBINDS];
};

struct evdb {
	struct evdb_entry *v;
	int n, cap;
	char **srcs;      /* the source names entries point to */
	int nsrcs;
	bool quiet;       /* notes on skipped elements at log_info level (set while reading the shipped database) */
};

/* How a text is read: EVDB_FILE follows SDL's file reader
 * (SDL_GameControllerAddMappingsFromFile: a line is used only if it holds a
 * "platform:NAME," field naming Linux); without it, SDL's
 * SDL_GAMECONTROLLERCONFIG reader (every line, whatever its platform). */
#define EVDB_FILE 1u

/* Reads one mapping line ("GUID,name,a:b0,...,platform:Linux,") of len
 * bytes (no NUL needed; it ends at one, and surrounding blanks are trimmed)
 * the way SDL 2.26 does. Returns 0 when the line is stored: a line for a GUID already held
 * (same GUID without CRC, same crc) replaces that entry in place, as SDL
 * does. Returns 1 for a line that is not used: blank, '#' comment, another
 * platform, a false hint: field, SDL's special "xinput"/"default" lines,
 * and (EVDB_FILE) a line with no usable platform: field (reported).
 * Elements SDL would skip (an empty or malformed source, an unknown output)
 * are skipped and the rest of the line kept; they are named once for the
 * line: "SRC:LINE: gamepad mapping "NAME": skipped ...". A line that cannot
 * be used at all (no GUID, no name) logs one line "SRC:LINE: bad gamepad
 * mapping: ...; line ignored" and returns -EINVAL; -ENOMEM when out of
 * memory. */
int evdb_add_line(struct evdb *db, const char *line, size_t len, const char *src, int lineno,
		    unsigned flags);
/* Adds every line of text (lines separated by '\n'), each read whole by
 * evdb_add_line. Returns the number of entries stored, or -ENOMEM. */
int evdb_add_text(struct evdb *db, const char *text, const char *src, unsigned flags);
/* Loads a GameControllerDB file (EVDB_FILE rules). Returns the number of
 * entries stored, or a negative errno after logging one line naming the
 * file. */
int evdb_load_file(struct evdb *db, const char *path);
/* Finds the entry for a device's GUID (CRC bytes included) as SDL does: the
 * GUID with the CRC matching the entry's crc, then the GUID whatever the
 * crc, then (vendor and product known) the same two ignoring the version
 * (bytes 12-13); within a step the entry first in the list. NULL if none. */
const struct evdb_entry *evdb_find(const struct evdb *db, const uint8_t guid[16]);
/* Frees the entries; the db may be reused. Accepts NULL. */
void evdb_free(struct evdb *db);
/* Whether a hint: field holds for this process, as SDL_GetHintBoolean with
 * the field's default: the environment variable of that name if set and
 * not empty ("0..." or "false" is false, anything else true), else the
 * default after ":=" (non-zero is true), else false; '!' negates. field is
 * what follows "hint:". */
bool evdb_hint(const char *field);

/* The SDL 2.26 joystick GUID of an evdev device (SDL's Linux driver) from
 * its bus, ids and name (NUL-terminated): bus (LE16), the CRC-16 of the
 * name (LE16), then vendor, 0, product, 0, version, 0 (LE16 each) when
 * vendor and product are non-zero, else the first 11 bytes of the name
 * (then zeros). */
void evdb_guid(uint16_t bus, uint16_t vendor, uint16_t product, uint16_t version, const char *name,
	      uint8_t guid[16]);
/* Writes the GUID as 32 lower-case hex digits and a NUL into out[33]. */
void evdb_guid_str(const uint8_t guid[16], char out[33]);
/* Parses 32 hex digits. Returns 0 or -EINVAL. */
int evdb_guid_parse(const char *s, uint8_t guid[16]);
/* CRC-16 (SDL_crc16: polynomial 0xA001, reflected, initial crc) of n bytes. */
uint16_t evdb_crc16(uint16_t crc, const void *data, size_t n);

#endif
