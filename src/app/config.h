/* config: the INI-style settings files (/etc/pirogue.conf, $XDG_CONFIG_HOME/pirogue/pirogue.conf), read line by line. */
#ifndef PIROGUE_APP_CONFIG_H
#define PIROGUE_APP_CONFIG_H
#include <stddef.h>
#include "ui/bind.h"

/* Called for each "key = value" line; file and line are for messages.
 * Returns 0 to go on, nonzero to stop reading (that value is returned). */
typedef int (*config_fn)(void *ctx, const char *file, int line, const char *key, const char *value);

/* Reads path: blank lines and lines starting with '#' or ';' are skipped; a
 * "[pirogue]" section header is accepted (other sections are errors, for
 * now); every other line must be "key = value" (spaces around both trimmed,
 * value may be empty; after the value, a blank then '#' or ';' starts a
 * comment). Lines are at most CONFIG_LINE_MAX characters and hold no NUL
 * byte (each an error naming the line). Returns 0 when every line was
 * accepted, -ENOENT
 * when the file does not exist (nothing logged: the files are optional),
 * the callback's nonzero result, or a negative errno after logging one line
 * naming the file (and line) and the problem. */
int config_read(const char *path, config_fn fn, void *ctx);

/* The per-user file: $XDG_CONFIG_HOME/pirogue/pirogue.conf, else
 * $HOME/.config/pirogue/pirogue.conf; written into buf. Returns buf, or NULL
 * when neither variable is set. */
const char *config_user_path(char *buf, size_t len);

/* A key binding setting: "key.ACTION = KEYS" (keyboard) or "pad.ACTION =
 * BUTTONS" (gamepad), KEYS a blank-separated list of key names as --keys
 * takes them (empty: the action has none). Applied to b. Returns 0,
 * -ENOENT when setting is not a binding (b unchanged, why untouched), or
 * -EINVAL with a one-line reason in why (unknown action or key, a button
 * where a key belongs...), b unchanged. */
int config_binding(struct bindings *b, const char *setting, const char *value, char *why, size_t len);
/* The settings file the game itself writes (the options screen), in the
 * state directory: read after /etc/pirogue.conf and the user's file,
 * before the command line. */
#define CONFIG_STATE_FILE "pirogue.conf"

/* Sets key to value in dir/CONFIG_STATE_FILE: its "key = value" line
 * replaced (the first one; later ones for key dropped), else one
 * appended; every other line (other settings, comments) kept as it was.
 * The file is written atomically (save_write_atomic), dir made when
 * missing. key and value hold no newline. Returns 0 or -errno after
 * logging one line naming the file. */
int config_state_set(const char *dir, const char *key, const char *value);

/* The longest line accepted, without its newline. */
#define CONFIG_LINE_MAX 1022

/* The system-wide file. */
#define CONFIG_SYSTEM_PATH "/etc/pirogue.conf"

#endif
