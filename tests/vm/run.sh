#!/bin/sh
# The VM rig (make vm-test): fetches Debian's kernels, builds the static game
# and helper for each architecture, packs the initramfs images, then boots each
# configuration and runs the checks (tests/vm/vmtest.py).
# Usage: tests/vm/run.sh HOST_PIROGUE [CONFIG...]
#   CONFIG: x86_64-bochs x86_64-virtio x86_64-cirrus aarch64-virtio x86_64-systemd
#   aarch64-systemd
#   and the handheld panels x86_64-panel-320x240 x86_64-panel-480x320
#   x86_64-panel-640x480 x86_64-panel-800x480 x86_64-panel-480x800-rot90
#   (default: all of them)
# Environment: VM_DIR (default build/vm), the cache and output directory;
# VMRIG_PREPARE=1 builds and caches what the configurations need and boots
# nothing (CI, beside the suite); VMRIG_DEBS: where make deb left packages.
# Exit 0 all passed, 77 skipped (the reason is printed), 1 failed.
set -eu
cd "$(dirname "$0")/../.."
# The static builds below are make runs of their own: nothing from a calling
# make (sanitizer flags, O=, jobserver) may leak into them.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
host_bin=$1
shift
panels="x86_64-panel-320x240 x86_64-panel-480x320 x86_64-panel-640x480 x86_64-panel-800x480 x86_64-panel-480x800-rot90"
# aarch64-image (the card image of make image) with VMRIG_IMAGE_CUTS power
# cuts: 2 by default (CI, every submission), VMRIG_IMAGE_CUTS=20 the full run
# (docs/vmrig.md)
configs=${*:-x86_64-bochs x86_64-virtio x86_64-cirrus aarch64-virtio $panels x86_64-systemd aarch64-systemd aarch64-image}
# VM_SKIP_ARCH (e.g. aarch64, set by .ci/run when a Debian mirror is out of
# sync and the arm64 libraries cannot be installed) leaves that architecture's
# configurations out, saying so.
if [ -n "${VM_SKIP_ARCH:-}" ]; then
	kept=
	for c in $configs; do
		case " $VM_SKIP_ARCH " in
		*" ${c%%-*} "*) echo "SKIP vm config $c: VM_SKIP_ARCH=$VM_SKIP_ARCH" ;;
		*) kept="$kept $c" ;;
		esac
	done
	configs=$kept
	if [ -z "$configs" ]; then
		echo "SKIP vm rig: every configuration left out by VM_SKIP_ARCH"
		exit 77
	fi
fi
vm=${VM_DIR:-build/vm}
# Each build and cache step says how long it took ("vmrig: STEP took N s"),
# the cached ones whether they were reused or rebuilt and why (docs/vmrig.md).
took() { # took STEP T0
	echo "vmrig: $1 took $(($(date +%s) - $2)) s"
}
# One run's builds at a time in one VM_DIR: CI builds them ahead with
# VMRIG_PREPARE=1 (which boots nothing) beside ./run test's suite, and the
# rig's own run waits here for it, then finds them built and cached.
mkdir -p "$vm"
exec 9>"$vm/.build.lock"
if ! flock -n 9; then
	echo "vmrig: waiting for another run's builds in $vm"
	t0=$(date +%s)
	flock 9
	took "waiting for the other run's builds" "$t0"
fi
archs=
for c in $configs; do
	a=${c%%-*}
	case " $archs " in *" $a "*) ;; *) archs="$archs $a" ;; esac
done
t0=$(date +%s)
# shellcheck disable=SC2086
tests/vm/setup.sh "$vm" $archs || exit $?
took "setup (host tools, kernels:$archs)" "$t0"
W="-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wvla -O2"
for a in $archs; do
	bin=$vm/bin-$a
	mkdir -p "$bin"
	if [ "$a" = x86_64 ]; then
		cross= cc=gcc libdir=/usr/lib/x86_64-linux-gnu busybox=/bin/busybox
	else
		cross=aarch64-linux-gnu cc=aarch64-linux-gnu-gcc libdir=/usr/lib/aarch64-linux-gnu busybox=$vm/kernel-$a/busybox
	fi
	echo "vmrig: building the static game and helper for $a"
	t0=$(date +%s)
	if ! make --no-print-directory -j2 O="$bin" CROSS=$cross LDFLAGS=-static all >"$bin/make.log" 2>&1; then
		tail -n 20 "$bin/make.log"
		echo "vmrig: static build for $a failed (log: $bin/make.log)"
		exit 1
	fi
	# shellcheck disable=SC2086
	$cc $W -static -I/usr/include/libevdev-1.0 -o "$bin/vmhelper" tests/vm/vmhelper.c -L$libdir -levdev
	${cross:+$cross-}strip -o "$bin/pirogue.stripped" "$bin/pirogue"
	took "static game and helper for $a" "$t0"
	# (the initramfs, and test_evdev that goes into it, are the rig's own
	# run's: seconds, and make test builds test_evdev meanwhile)
	[ "${VMRIG_PREPARE:-0}" != 1 ] || continue
	# test_evdev's uinput test needs /dev/uinput, which CI's machine lacks:
	# the x86_64 guest runs it (the evdev-unit check), dynamically linked
	# (cmocka has no static library here) with its libraries beside it
	unit=
	if [ "$a" = x86_64 ] && [ "$(uname -m)" = x86_64 ]; then
		t0=$(date +%s)
		# the tree's own build's (make test's, built just before), when it
		# is up to date: the same program with the same flags
		if make -q --no-print-directory build/tests/test_evdev 2>/dev/null; then
			unit=build/tests/test_evdev
			echo "vmrig: test_evdev for the guest reused: the tree's build/tests/test_evdev is up to date"
		elif make --no-print-directory -j2 O="$vm/bin-x86_64-unit" "$vm/bin-x86_64-unit/build/tests/test_evdev" \
			>"$vm/bin-x86_64-unit.log" 2>&1; then
			unit=$vm/bin-x86_64-unit/build/tests/test_evdev
		else
			echo "vmrig: test_evdev did not build (log: $vm/bin-x86_64-unit.log): evdev-unit will be skipped"
		fi
		took "test_evdev for the guest (evdev-unit)" "$t0"
	fi
	t0=$(date +%s)
	tests/vm/mkinitrd.sh "$a" "$vm/kernel-$a" "$busybox" "$bin/pirogue.stripped" "$bin/vmhelper" "$vm/initrd-$a.cpio.gz" $unit
	took "initramfs for $a" "$t0"
done
# package DARCH: the pirogue package for DARCH into $vm/deb, its status in
# rc (0, 77 with its SKIP line in $vm/deb-DARCH.log, else failed). make deb's
# own (VMRIG_DEBS, default build/deb: CI's make deb left them there) is
# copied when it was made from this tree as it is (no file git knows is
# newer: tools/newer-than, as tests/test_arch_replay.sh asks); else it is built here
# (DEB_PLAY=0: make deb is what plays a package's game).
package() {
	f=pirogue_$(cat VERSION)_$1.deb
	made=${VMRIG_DEBS:-build/deb}/$f
	t0=$(date +%s)
	rc=0
	if [ -f "$made" ] && newer=$(tools/newer-than "$made"); then
		if [ -z "$newer" ]; then
			mkdir -p "$vm/deb"
			cp "$made" "$vm/deb/$f"
			echo "vmrig: package for $1 reused: $made (make deb made it from this tree: no file is newer)"
			return 0
		fi
		echo "vmrig: package for $1 built here: $newer is newer than $made"
	fi
	DEB_PLAY=0 tools/make-deb "$vm/deb" "$1" >"$vm/deb-$1.log" 2>&1 || rc=$?
	took "package for $1 (make deb)" "$t0"
}
# x86_64-systemd, aarch64-systemd: the Debian system image (built once,
# cached) and the .deb that gets installed into it (tests/vm/sysboot.py).
for c in $configs; do
	case $c in *-systemd) ;; *) continue ;; esac
	a=${c%%-*}
	darch=amd64
	[ "$a" = x86_64 ] || darch=arm64
	rc=0
	t0=$(date +%s)
	tests/vm/sysimage.sh "$vm/sys-$a" $darch || rc=$?
	took "Debian system image for $a" "$t0"
	[ $rc = 0 ] || [ $rc = 77 ] || exit $rc
	if [ $rc != 0 ]; then
		export "VMRIG_SYSTEMD_SKIP_$a=the Debian $darch system image cannot be built here (said above)"
		continue
	fi
	package $darch
	[ $rc != 0 ] || built="${built:-} $darch"
	if [ $rc = 77 ]; then
		export "VMRIG_SYSTEMD_SKIP_$a=$(grep -m1 '^SKIP' "$vm/deb-$darch.log")"
	elif [ $rc != 0 ]; then
		tail -n 20 "$vm/deb-$darch.log"
		echo "vmrig: make deb for $darch failed (log: $vm/deb-$darch.log)"
		exit 1
	fi
done
# shellcheck disable=SC2086
for c in $configs; do
	case $c in *-image) ;; *) continue ;; esac
	# the card image of make image: the arm64 package, then the image (both cached)
	rc=0
	case " ${built:-} " in *" arm64 "*) ;; *) package arm64 ;; esac
	t0=$(date +%s)
	if [ $rc = 77 ]; then
		said=$(grep -m1 '^SKIP' "$vm/deb-arm64.log" || echo "no arm64 package")
	elif [ $rc = 0 ]; then
		said=$(board/make-image "$vm/image" "$vm/deb/pirogue_$(cat VERSION)_arm64.deb" 2>&1) || rc=$?
		echo "$said"
		said=$(echo "$said" | tail -n 1)
		took "card image (make image)" "$t0"
	fi
	if [ $rc = 77 ]; then
		export VMRIG_IMAGE_SKIP="the card image cannot be built here: $said"
	elif [ $rc != 0 ]; then
		echo "vmrig: make image failed"
		exit 1
	fi
done
exec 9>&-
if [ "${VMRIG_PREPARE:-0}" = 1 ]; then
	echo "vmrig: builds and caches ready in $vm (VMRIG_PREPARE=1: nothing booted)"
	exit 0
fi
exec python3 tests/vm/vmtest.py --cache "$vm" --out "$vm/out" --pirogue "$host_bin" --debs "$vm/deb" $configs
