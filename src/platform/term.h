/* term: the terminal display backend (24-bit colour escapes, UTF-8, raw mode, restored on every way out; what it reads is decoded by termkeys). */
#ifndef PIROGUE_PLATFORM_TERM_H
#define PIROGUE_PLATFORM_TERM_H
#include "platform/display.h"

/* The backend: open() takes the terminal on stdin/stdout (both must be
 * terminals, else -ENOTTY with one line saying to use --backend headless).
 *
 * Behaviour in short (docs/term.md has the long form):
 * - open switches to the alternate screen, hides the cursor, turns off
 *   autowrap, puts the keypad in application mode, enables SGR mouse
 *   reporting and sets raw mode (no echo, no canonical input, no CR/NL
 *   translation, no flow control). ISIG stays on so Ctrl+C raises SIGINT,
 *   which the loop handles as a clean quit, and Ctrl+Z (only under a
 *   shell's job control, which can continue the stop) raises SIGTSTP, on
 *   which the app saves and calls suspend() before stopping; Ctrl+\ is
 *   disabled (it would core-dump the process with the terminal still raw).
 * - close, exit() (atexit), and a crash (SIGSEGV, SIGBUS, SIGABRT, SIGFPE,
 *   SIGILL) restore the terminal: colours reset, mouse and keypad modes off,
 *   autowrap on, cursor shown, normal screen, termios as it was. SIGINT,
 *   SIGTERM, SIGHUP and SIGQUIT get the same restoring handler only when
 *   their disposition is SIG_DFL at open time (a loop that blocks them for
 *   a signalfd never sees it run, and then calls close itself).
 * - present() writes only the cells that differ from what the terminal
 *   shows (a shadow copy decides), as one write(), wrapped in synchronized
 *   output (DEC mode 2026) so capable terminals never show half a frame.
 * - dispatch() turns the bytes on stdin into EV_KEY_PRESS (DEV_KEYBOARD)
 *   and EV_MOUSE_MOVE / EV_MOUSE_CLICK (DEV_MOUSE) events, and one EV_QUIT
 *   when the terminal goes away. Give it room for at least 64 events.
 * - suspend() gives the terminal back as it was (e.g. before the loop stops
 *   itself on SIGTSTP); resume() takes it again and redraws everything.
 * - screenshot is NULL (not supported). */
extern const struct display_ops term_display_ops;

/* The largest console the backend reports, whatever the terminal's size. */
#define TERM_MAX_COLS 512
#define TERM_MAX_ROWS 256

/* Opens the backend on arbitrary descriptors (tests, or a terminal that is
 * not stdin/stdout). in_fd may be -1 for no input. When out_fd is a
 * terminal, its size is read with TIOCGWINSZ and cols/rows are ignored;
 * otherwise the size is fixed at cols×rows (1..TERM_MAX_COLS/ROWS). Raw mode
 * is set on in_fd only when it is a terminal, and the crash/exit restore is
 * installed only when out_fd or in_fd is a terminal. Only one backend that
 * owns a terminal may be open at a time (-EBUSY otherwise). The enter
 * sequence is written to out_fd before returning. The descriptors stay the
 * caller's (close does not close them). Returns 0 or a negative errno. */
int term_open_fds(struct display **out, int in_fd, int out_fd, int cols, int rows);

/* Call when SIGWINCH arrived: re-reads the terminal size (console_size then
 * reports it) and makes the next present() clear the screen and redraw
 * every cell, since terminals reflow or drop contents when resized. Returns
 * 1 when the size changed, 0 when not. Calling console_size() alone also
 * notices a changed size and forces the full redraw. */
int term_handle_resize(struct display *d);

/* Repairs terminal fd left as the backend had it by a game that could not
 * clean up (killed with SIGKILL): writes the leave sequence (colours reset,
 * mouse and keypad modes off, autowrap on, cursor shown, normal screen) and
 * sets sane line settings: echo, canonical input, CR read as NL, NL written
 * as CR NL, signals, and the control characters (Ctrl+Z, Ctrl+\, any left
 * disabled) back to their defaults. For --reset-term. Returns 0, -ENOTTY when
 * fd is not a terminal, or the negative errno of the failing call; logs
 * nothing. */
int term_reset(int fd);

#endif
