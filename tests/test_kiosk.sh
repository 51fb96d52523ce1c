#!/bin/sh
# The kiosk files without a VM: make install puts the unit (not enabled) and
# pirogue-kiosk where they belong; the unit is what issue 8 asks (no start
# limit, devices allow-listed, no tty group, tty1 cleared, exposure <= 2.0 by
# `systemd-analyze security --offline`); pirogue-kiosk enable/disable on a
# system image (--root) with a Raspberry Pi boot partition: config.txt gets
# an [all] section of its own after a board section, cmdline.txt is replaced
# through a rename (a new inode), and disable gives both files back byte for
# byte. The VM rig (x86_64-systemd) boots the same thing for real.
set -u
fail=0
no() { echo "FAIL: $*"; fail=1; }
P=${PIROGUE:-./pirogue}
# Kiosk mode with nothing to show the game on: it says so once and waits
# (asleep: no CPU time), where the plain game exits 1 at once.
if ls /dev/dri/card* /dev/fb* >/dev/null 2>&1; then
	echo "this machine has a display (/dev/dri or /dev/fb*): the kiosk wait is checked in the VM rig only"
else
	err=$(mktemp)
	PIROGUE_CONFIG=/dev/null "$P" --kiosk </dev/null >/dev/null 2>"$err" &
	pid=$!
	# its line said (waited for: a loaded machine takes longer than any
	# fixed sleep), then a second of waiting measured
	i=0
	while kill -0 $pid 2>/dev/null && ! grep -q 'waiting for one to appear' "$err" && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	t0=$(awk '{ print $14 + $15 }' /proc/$pid/stat 2>/dev/null)
	sleep 1
	if kill -0 $pid 2>/dev/null; then
		ticks=$(($(awk '{ print $14 + $15 }' /proc/$pid/stat) - ${t0:-0}))
		kill $pid
		wait $pid 2>/dev/null
		[ "$ticks" -le 5 ] || no "kiosk: the game used $ticks clock ticks in 1 s while waiting for a display (a busy wait)"
		grep -q 'kiosk: no display yet (.*); waiting for one to appear' "$err" || no "kiosk: the wait is not in the log: $(cat "$err")"
		[ "$(wc -l <"$err")" = 1 ] || no "kiosk: more than one line while waiting: $(cat "$err")"
	else
		wait $pid
		no "kiosk: with no display the game exited ($?) instead of waiting: $(cat "$err")"
	fi
	PIROGUE_CONFIG=/dev/null "$P" </dev/null >/dev/null 2>"$err"
	[ $? = 1 ] || no "without --kiosk and no display the game did not exit 1"
	printf 'kiosk = maybe\n' >"$err.conf"
	out=$("$P" --config "$err.conf" 2>&1)
	[ $? = 2 ] && printf '%s' "$out" | grep -q "invalid value 'maybe' for kiosk" || no "kiosk = maybe: $out"
	rm -f "$err" "$err.conf"
fi
command -v systemctl >/dev/null 2>&1 || { echo "SKIP: systemctl is not installed (apt-get install systemd)"; exit 77; }
if [ "$(id -u)" != 0 ]; then
	[ $fail = 0 ] || exit 1
	echo "SKIP: pirogue-kiosk enable/disable runs as root (run the suite as root, as CI does)"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
build=${BUILD:-build}
# the tree's own build (O= of the calling make): nothing is rebuilt here
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
if ! make --no-print-directory -s install O="$(dirname "$build")" DESTDIR="$root" PREFIX=/usr >"$tmp/install.log" 2>&1; then
	cat "$tmp/install.log"
	echo "FAIL: make install DESTDIR=... PREFIX=/usr"
	exit 1
fi
for f in usr/bin/pirogue usr/sbin/pirogue-kiosk usr/lib/systemd/system/pirogue.service \
	usr/share/pirogue/board/config.txt usr/share/pirogue/board/cmdline.txt usr/share/doc/pirogue/kiosk.md \
	usr/share/pirogue/fonts/cp437-8x8.png; do
	[ -f "$root/$f" ] || no "make install did not install /$f"
done
unit=$root/usr/lib/systemd/system/pirogue.service
grep -q '@[a-z]*dir@' "$unit" && no "the installed unit still has @...@ placeholders: $(grep '@[a-z]*dir@' "$unit")"
grep -qx 'ExecStart=/usr/bin/pirogue --kiosk' "$unit" || no "the unit does not start /usr/bin/pirogue --kiosk"
grep -qx 'ExecStopPost=+/usr/sbin/pirogue-kiosk exited' "$unit" || no "the unit does not run pirogue-kiosk exited"
# a broken settings file must neither stop the console's repair nor, by
# failing it, skip pirogue-kiosk exited (ExecStopPost stops at a failure)
grep -qx 'ExecStopPost=-/usr/bin/pirogue --config /dev/null --reset-vt 1' "$unit" ||
	no "the unit's --reset-vt reads the settings files or its failure skips the failure count"
grep -qx 'StartLimitIntervalSec=0' "$unit" || no "the unit has a start limit (a burst of exits would stop the kiosk)"
grep -q '^ProtectClock=' "$unit" && no "ProtectClock= (on systemd < 252 a device allow-list that blocks the display)"
grep -q '^SupplementaryGroups=.*tty' "$unit" && no "SupplementaryGroups has tty (write access to other users' terminals)"
grep -qx 'DevicePolicy=closed' "$unit" || no "no DevicePolicy=closed"
for d in 'char-226 rw' 'char-13 rw' 'char-29 rw' '/dev/tty1 rw'; do
	grep -qx "DeviceAllow=$d" "$unit" || no "no DeviceAllow=$d"
done
# issue 21 #8: a device group by name (char-drm) is looked up in
# /proc/devices when the unit starts: with the drm module not loaded yet it
# allows nothing, and a card that appears later is refused for good.
grep -E '^DeviceAllow=(char|block)-[a-z]' "$unit" &&
	no "DeviceAllow= by a device group's name (resolved once, at start: a display whose driver loads later stays refused); use the major number"
grep -qx 'TTYVTDisallocate=yes' "$unit" || no "tty1 is not cleared (TTYVTDisallocate=yes)"
if systemd-analyze --help 2>/dev/null | grep -q -- '--offline'; then
	score=$(systemd-analyze security --offline=yes --root="$root" pirogue.service 2>&1 |
		sed -n 's/.*Overall exposure level for pirogue.service: \([0-9.]*\).*/\1/p')
	if [ -z "$score" ]; then
		no "systemd-analyze security --offline gave no exposure level"
	elif awk -v s="$score" 'BEGIN { exit !(s > 2.0) }'; then
		no "systemd-analyze security: exposure $score > 2.0"
	else
		echo "systemd-analyze security --offline pirogue.service: exposure $score (at most 2.0)"
	fi
fi

# A Raspberry Pi image: getty@tty1 enabled as Debian has it, a config.txt
# whose last section is [pi4], a cmdline.txt that already has quiet.
mkdir -p "$root/etc/systemd/system/getty.target.wants" "$root/boot/firmware" "$root/var/lib"
cat >"$root/usr/lib/systemd/system/getty@.service" <<'EOF'
[Unit]
Description=Getty on %I
[Service]
ExecStart=-/sbin/agetty -o '-p -- \\u' --noclear - $TERM
[Install]
WantedBy=getty.target
DefaultInstance=tty1
EOF
ln -s /usr/lib/systemd/system/getty@.service "$root/etc/systemd/system/getty.target.wants/getty@tty1.service"
# issue 21 #9: more login prompts on other consoles, as Debian has them: a
# getty on tty3 the administrator enabled, and getty-static.service (gettys
# on tty2..tty6 when there is no D-Bus, hence no logind), pulled in from /usr.
ln -s /usr/lib/systemd/system/getty@.service "$root/etc/systemd/system/getty.target.wants/getty@tty3.service"
mkdir -p "$root/usr/lib/systemd/system/getty.target.wants" "$root/etc/systemd/system/multi-user.target.wants"
printf '[Unit]\nDescription=getty on tty2-tty6 if dbus and logind are not available\nConditionPathExists=!/usr/bin/dbus-daemon\n[Service]\nType=oneshot\nExecStart=systemctl --no-block start getty@tty2.service getty@tty3.service\n' \
	>"$root/usr/lib/systemd/system/getty-static.service"
ln -s ../getty-static.service "$root/usr/lib/systemd/system/getty.target.wants/getty-static.service"
# a system's own service (systemctl removes a .wants directory it empties)
ln -s /usr/lib/systemd/system/cron.service "$root/etc/systemd/system/multi-user.target.wants/cron.service"
# /etc as it was: disable must give back exactly this
etc_now() { (cd "$root/etc" && find . -printf '%p %y %l\n' | sort); }
etc_now >"$tmp/etc.orig"
printf '# For more options see config.txt documentation\ndtparam=audio=on\n\n[pi4]\narm_boost=1\n' >"$root/boot/firmware/config.txt"
printf 'console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes rootwait quiet\n' \
	>"$root/boot/firmware/cmdline.txt"
cp "$root/boot/firmware/config.txt" "$tmp/config.orig"
cp "$root/boot/firmware/cmdline.txt" "$tmp/cmdline.orig"
ino_before=$(stat -c %i "$root/boot/firmware/cmdline.txt")
kiosk=$root/usr/sbin/pirogue-kiosk
# The running machine's display drivers (PIROGUE_KIOSK_SYS: a sysfs of our
# own, laid out as virtio-gpu's in the VM rig): card0 and fb0 hang off the
# PCI device 0000:00:01.0, driven by virtio-pci (module virtio_pci), whose
# virtio0 is driven by virtio_gpu; card0-Virtual-1 is a connector; card1's
# driver (simpledrm) is built into the kernel (no module).
sys=$tmp/sys
pci=$sys/devices/pci0/0000:00:01.0
mkdir -p "$pci/virtio0" "$pci/drm/card0/card0-Virtual-1" "$pci/graphics/fb0" "$pci/power" \
	"$sys/devices/platform/simple/drm/card1" "$sys/bus/pci/drivers/virtio-pci" "$sys/bus/virtio/drivers/virtio_gpu" \
	"$sys/bus/platform/drivers/simpledrm" "$sys/module/virtio_pci" "$sys/module/virtio_gpu" "$sys/class/drm" \
	"$sys/class/graphics"
ln -s ../../../bus/pci/drivers/virtio-pci "$pci/driver"
ln -s ../../../../bus/virtio/drivers/virtio_gpu "$pci/virtio0/driver"
ln -s ../../../../module/virtio_pci "$sys/bus/pci/drivers/virtio-pci/module"
ln -s ../../../../module/virtio_gpu "$sys/bus/virtio/drivers/virtio_gpu/module"
ln -s ../../../bus/platform/drivers/simpledrm "$sys/devices/platform/simple/driver"
ln -s ../../../0000:00:01.0 "$pci/drm/card0/device"
ln -s ../../../../0000:00:01.0/drm/card0 "$pci/drm/card0/card0-Virtual-1/device"
ln -s ../../../0000:00:01.0 "$pci/graphics/fb0/device"
ln -s ../../../simple "$sys/devices/platform/simple/drm/card1/device"
ln -s ../../devices/pci0/0000:00:01.0/drm/card0 "$sys/class/drm/card0"
ln -s ../../devices/pci0/0000:00:01.0/drm/card0/card0-Virtual-1 "$sys/class/drm/card0-Virtual-1"
ln -s ../../devices/pci0/0000:00:01.0/graphics/fb0 "$sys/class/graphics/fb0"
ln -s ../../devices/platform/simple/drm/card1 "$sys/class/drm/card1"
mods=$root/etc/modules-load.d/pirogue-kiosk.conf
# with --root alone: another machine's drivers are not this image's
"$kiosk" enable --root "$root" >"$tmp/enable0.log" 2>&1 || no "pirogue-kiosk enable --root (no sysfs) failed"
[ -e "$mods" ] && no "enable --root listed the running machine's display drivers for an image: $(cat "$mods")"
grep -q 'loaded by udev as before' "$tmp/enable0.log" || no "enable --root: no line saying the display driver is left to udev: $(cat "$tmp/enable0.log")"
"$kiosk" disable --root "$root" >/dev/null 2>&1 || no "disable after enable --root (no sysfs) failed"
ino_before=$(stat -c %i "$root/boot/firmware/cmdline.txt") # (that disable renamed a new one into place)
if ! PIROGUE_KIOSK_SYS=$sys "$kiosk" enable --root "$root" >"$tmp/enable.log" 2>&1; then
	cat "$tmp/enable.log"
	no "pirogue-kiosk enable --root failed"
fi
[ -L "$root/etc/systemd/system/multi-user.target.wants/pirogue.service" ] || no "enable: pirogue.service not enabled"
# issue 20 item 5: the display's driver loaded by systemd-modules-load, not
# at udev's coldplug (the VM rig measured it 20 s after the game's start)
[ "$(grep -v '^#' "$mods" 2>/dev/null | tr '\n' ' ')" = 'virtio_gpu virtio_pci ' ] ||
	no "enable: /etc/modules-load.d/pirogue-kiosk.conf does not list virtio_gpu and virtio_pci, once each (card0's and fb0's device and its virtio0; card1's driver is built in): $(cat "$mods" 2>&1)"
grep -q 'loaded early at boot: virtio_gpu virtio_pci' "$tmp/enable.log" || no "enable: no line naming the display drivers loaded early: $(cat "$tmp/enable.log")"
[ -e "$root/etc/systemd/system/getty.target.wants/getty@tty1.service" ] && no "enable: getty@tty1 still enabled"
grep -qx 'NAutoVTs=0' "$root/etc/systemd/logind.conf.d/pirogue-kiosk.conf" 2>/dev/null ||
	no "enable: logind still spawns login prompts on other consoles (no NAutoVTs=0)"
left=$(cd "$root/etc/systemd/system" && ls -d ./*.wants/getty@tty* ./*.wants/autovt@tty* 2>/dev/null)
[ -z "$left" ] || no "enable: gettys on consoles still enabled: $left"
[ "$(readlink "$root/etc/systemd/system/getty-static.service")" = /dev/null ] ||
	no "enable: getty-static.service not masked (without logind it starts gettys on tty2..tty6)"
cfg=$root/boot/firmware/config.txt
head -c "$(wc -c <"$tmp/config.orig")" "$cfg" | cmp -s - "$tmp/config.orig" || no "enable: config.txt's own lines changed"
# after [pi4]: an [all] section, then pirogue's lines
after=$(sed -n '/^\[pi4\]/,$p' "$cfg")
printf '%s\n' "$after" | grep -qx '\[all\]' || no "enable: no [all] section after [pi4] in config.txt: $(cat "$cfg")"
all_line=$(grep -n '^\[all\]' "$cfg" | tail -n 1 | cut -d: -f1)
kms_line=$(grep -n '^dtoverlay=vc4-kms-v3d$' "$cfg" | cut -d: -f1)
[ -n "$kms_line" ] && [ -n "$all_line" ] && [ "$kms_line" -gt "$all_line" ] ||
	no "enable: dtoverlay=vc4-kms-v3d is not in the [all] section: $(cat "$cfg")"
cmd=$root/boot/firmware/cmdline.txt
[ "$(wc -l <"$cmd")" = 1 ] || no "enable: cmdline.txt is not one line"
for o in consoleblank=0 logo.nologo vt.global_cursor_default=0 loglevel=3 rootwait; do
	grep -q " $o\( \|$\)" "$cmd" || no "enable: cmdline.txt lacks $o: $(cat "$cmd")"
done
[ "$(grep -o ' quiet' "$cmd" | wc -l)" = 1 ] || no "enable: cmdline.txt has quiet twice: $(cat "$cmd")"
[ "$(stat -c %i "$cmd")" != "$ino_before" ] || no "enable: cmdline.txt was rewritten in place (a power cut mid-write leaves a Pi that cannot boot), not renamed over"
ls "$root/boot/firmware" | grep -q tmp && no "enable: a temporary file was left in the boot partition"
cp "$cfg" "$tmp/config.on"
cp "$cmd" "$tmp/cmdline.on"
cp "$mods" "$tmp/mods.on"
PIROGUE_KIOSK_SYS=$sys "$kiosk" enable --root "$root" >/dev/null 2>&1 || no "a second enable failed"
cmp -s "$mods" "$tmp/mods.on" || no "a second enable changed $mods"
cmp -s "$cfg" "$tmp/config.on" && cmp -s "$cmd" "$tmp/cmdline.on" || no "a second enable changed the boot files again"
if ! "$kiosk" disable --root "$root" >"$tmp/disable.log" 2>&1; then
	cat "$tmp/disable.log"
	no "pirogue-kiosk disable --root failed"
fi
cmp -s "$cfg" "$tmp/config.orig" || no "disable: config.txt differs from before enable: $(diff "$tmp/config.orig" "$cfg")"
cmp -s "$cmd" "$tmp/cmdline.orig" || no "disable: cmdline.txt differs from before enable: $(cat "$cmd")"
[ -e "$root/etc/systemd/system/multi-user.target.wants/pirogue.service" ] && no "disable: pirogue.service still enabled"
[ -e "$root/etc/systemd/system/getty.target.wants/getty@tty1.service" ] || no "disable: getty@tty1 not enabled again"
[ -e "$root/etc/systemd/logind.conf.d/pirogue-kiosk.conf" ] && no "disable: logind drop-in left behind"
[ -e "$mods" ] && no "disable: $mods left behind"
etc_now >"$tmp/etc.off"
cmp -s "$tmp/etc.orig" "$tmp/etc.off" || no "disable: /etc is not as before enable: $(diff "$tmp/etc.orig" "$tmp/etc.off" | grep '^[<>]' | tr '\n' ' ')"
[ -e "$root/var/lib/pirogue-kiosk" ] && no "disable: /var/lib/pirogue-kiosk left behind: $(ls "$root/var/lib/pirogue-kiosk")"
# enabled by a pirogue-kiosk that kept no record of what it disabled (before
# issue 21): disable gives getty@tty1 back, as that one did
"$kiosk" enable --root "$root" >/dev/null 2>&1 || no "enable after disable failed"
rm -f "$root/var/lib/pirogue-kiosk/getty-links" "$root/var/lib/pirogue-kiosk/masked"
"$kiosk" disable --root "$root" >/dev/null 2>&1 || no "disable without records failed"
[ -e "$root/etc/systemd/system/getty.target.wants/getty@tty1.service" ] || no "disable without records: getty@tty1 not enabled again"
out=$("$kiosk" frobnicate 2>&1) && no "an unknown command was accepted"
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && printf '%s' "$out" | grep -q "unknown command 'frobnicate'" ||
	no "an unknown command: not one line naming it: $out"
# In a chroot (systemd not running; systemctl answers "offline", and every
# command that needs the manager fails as systemctl does there): enable says
# to use --root, in one line, instead of systemctl's "not booted with systemd".
mkdir -p "$tmp/stub"
cat >"$tmp/stub/systemctl" <<'EOF'
#!/bin/sh
case $1 in
is-system-running) echo offline; exit 1 ;;
list-unit-files | is-enabled) exit 0 ;;
esac
echo "System has not been booted with systemd as init system (PID 1). Can't operate." >&2
echo "Failed to connect to bus: Host is down" >&2
exit 1
EOF
chmod +x "$tmp/stub/systemctl"
for a in enable disable; do
	out=$(PATH="$tmp/stub:$PATH" board/pirogue-kiosk $a 2>&1) && no "$a in a chroot exited 0: $out"
	[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && printf '%s' "$out" | grep -q "systemd is not running here.*--root" ||
		no "$a in a chroot: not one line saying to use --root: $out"
done
[ $fail = 0 ] && echo "make install, the unit and pirogue-kiosk enable/disable --root: all as expected"
exit $fail
