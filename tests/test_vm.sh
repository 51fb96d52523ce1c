#!/bin/sh
# The VM rig (tests/vm/, docs/vmrig.md) as part of make test: boots Debian's
# kernels in QEMU with the game as PID 1's child and checks DRM, fbdev, evdev,
# uinput gamepad and mouse, VT switching and SIGTERM. Skipped (exit 77, with
# the reason) where QEMU is not installed or under the sanitizer build.
# $PIROGUE: the host binary (headless reference frames).
if [ "${PIROGUE_VM:-1}" = 0 ]; then
	echo "SKIP vm rig: PIROGUE_VM=0 (make vm-test, or make test without it, runs it)"
	exit 77
fi
if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
	echo "SKIP vm rig: QEMU is not installed (apt-get install qemu-system-x86 qemu-system-arm, or run make vm-test as root, which installs what it needs)"
	exit 77
fi
# said at once (fd 3: the terminal under tools/run-tests), before any download
msg="vm rig: QEMU is installed, so make test now downloads two Debian kernels and builds Debian systems and the card image (once, into ${VM_DIR:-build/vm}) and boots VMs for many minutes; PIROGUE_VM=0 make test skips this"
{ echo "$msg" >&3; } 2>/dev/null || echo "$msg"
# shellcheck disable=SC2086
exec tests/vm/run.sh "${PIROGUE:-./pirogue}" ${VM_CONFIGS:-}
