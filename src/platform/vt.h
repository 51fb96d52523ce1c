/* vt: the Linux virtual terminal the game runs on (graphics mode, muted keyboard, cooperative VT switching, restore on every exit path). */
#ifndef PIROGUE_PLATFORM_VT_H
#define PIROGUE_PLATFORM_VT_H
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The signals the kernel sends when another VT is wanted (release) and when
 * ours comes back (acquire). The program must block them and read them
 * through its signalfd BEFORE vt_open(), or the default action kills it. */
#define VT_RELEASE_SIGNAL SIGUSR1
#define VT_ACQUIRE_SIGNAL SIGUSR2

struct vt;

/* Takes a virtual terminal. vtnum 0: the one on stdin/stdout/stderr or the
 * controlling terminal, which must be a VT (/dev/console and /dev/tty0 on
 * stdio, as init gives them, stand for the VT shown now); N > 0: /dev/ttyN, made the
 * active VT first (VT_ACTIVATE + VT_WAITACTIVE). Then: KD_GRAPHICS (the
 * kernel stops drawing text), the keyboard muted (K_OFF: no key reaches a
 * shell or getty; the game reads keys through evdev), and VT_PROCESS
 * switching with VT_RELEASE_SIGNAL / VT_ACQUIRE_SIGNAL. Remembers what it
 * changed. Returns 0, or a negative errno having logged one line naming the
 * terminal and the fix (-ENOTTY: not on a VT and no number given; -EACCES:
 * no permission on /dev/ttyN; -EINVAL: the signals are not blocked). Only
 * one vt may be open at a time (-EBUSY). */
int vt_open(struct vt **out, int vtnum);
/* Gives the terminal back: VT_AUTO switching, the old keyboard mode, text
 * mode, and, when vt_open switched to another VT, the VT that was active
 * before. Accepts NULL. */
void vt_close(struct vt *v);
/* The VT number (1..63) this vt runs on. */
int vt_number(const struct vt *v);
/* Answers VT_RELEASE_SIGNAL: allows the switch away. Call after dropping
 * DRM master and input grabs. */
void vt_release_ack(struct vt *v);
/* Answers VT_ACQUIRE_SIGNAL. Call before taking DRM master back. */
void vt_acquire_ack(struct vt *v);
/* Asks the kernel to switch to VT n (1..63), as Ctrl+Alt+Fn would do if the
 * keyboard were not muted. The switch then goes through the release signal.
 * Returns 0, -EINVAL or the ioctl's negative errno. */
int vt_switch_to(struct vt *v, int n);
/* Repairs VT n (1..63) left in graphics mode with a muted keyboard by a
 * program that could not clean up (killed with SIGKILL): KD_TEXT, the
 * keyboard in K_UNICODE, VT_AUTO switching, then prints one line on stdout
 * saying what it set and what was there. Unless force, it first refuses
 * (-EBUSY, one line naming the holder) while another live process holds
 * both the VT (/dev/ttyN; /dev/tty0 or /dev/console when N is shown) and a
 * display (a DRM card or a framebuffer): that program is drawing there and
 * would lose its picture and its VT switching. For a --reset-vt option or
 * a systemd ExecStopPost=. Returns 0 or a negative errno having logged one
 * line. */
int vt_reset(int n, bool force);

/* The processes under proc (normally "/proc"; tests give a tree of their
 * own), other than pid self, that hold one of the nttys character devices
 * ttys open together with a display device (DRM primary node, major 226
 * minor < 64, or framebuffer, major 29). Writes "comm (pid N), ..." into
 * who (len bytes, cut when full; control bytes in a name become '?').
 * Returns how many there are, or a negative errno when proc cannot be
 * read. */
int vt_display_holders(const char *proc, const dev_t *ttys, int nttys, pid_t self, char *who, size_t len);

/* Restores text mode, the keyboard mode and VT_AUTO on the open vt, with
 * nothing but ioctl(): usable from a crash signal handler. Does nothing when
 * no vt is open. */
void vt_emergency_restore(void);

#endif
