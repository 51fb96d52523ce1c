#!/bin/sh
# VM rig setup: checks (and, as root, installs) the host tools, then fetches
# Debian's kernels and the arm64 busybox into the cache with apt-get download.
# Usage: tests/vm/setup.sh CACHE_DIR ARCH...   (ARCH: x86_64, aarch64)
# Exit 0 ready, 77 cannot run here (one line says why and what to do), 1 error.
set -eu
cache=$1
shift
archs=$*
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

have_lib() { [ -e "/usr/lib/$1/$2" ]; }

# Debian packages the rig needs, and the file that proves each is there.
missing=
need() { # need PACKAGE TEST...
	pkg=$1
	shift
	"$@" >/dev/null 2>&1 || missing="$missing $pkg"
}
need python3 command -v python3
need cpio command -v cpio
need kmod command -v depmod
need xz-utils command -v xz
need busybox-static sh -c 'dpkg-query -W -f="\${Status}" busybox-static | grep -q "ok installed"'
need libevdev-dev have_lib x86_64-linux-gnu libevdev.a
for a in $archs; do
	case $a in
	x86_64)
		need qemu-system-x86 command -v qemu-system-x86_64
		;;
	aarch64)
		need qemu-system-arm command -v qemu-system-aarch64
		need gcc-aarch64-linux-gnu command -v aarch64-linux-gnu-gcc
		need libc6-dev-arm64-cross test -e /usr/aarch64-linux-gnu/lib/libc.a
		need libdrm-dev:arm64 have_lib aarch64-linux-gnu libdrm.a
		need libevdev-dev:arm64 have_lib aarch64-linux-gnu libevdev.a
		need zlib1g-dev:arm64 have_lib aarch64-linux-gnu libz.a
		need libstb-dev:arm64 have_lib aarch64-linux-gnu libstb.a
		;;
	*)
		echo "vm setup: unknown architecture '$a' (use x86_64 or aarch64)"
		exit 1
		;;
	esac
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "vm setup: missing Debian packages:$missing; install them as root (dpkg --add-architecture arm64 for the :arm64 ones), then run again"
		exit 77
	fi
	echo "vm setup: installing$missing"
	# tools/apt-foreign adds arm64 and pins Multi-Arch: same packages when
	# the mirror's arm64 and amd64 indexes are out of step
	rc=0
	# shellcheck disable=SC2086
	"$(dirname "$0")/../../tools/apt-foreign" --update --log "$cache/apt.log" $missing || rc=$?
	if [ $rc = 77 ]; then
		echo "vm setup: no common version of a Multi-Arch: same package (above); the rig cannot run here today"
		exit 77
	elif [ $rc != 0 ]; then
		echo "vm setup: installing$missing failed (log: $cache/apt.log)"
		exit 1
	fi
fi

# Kernel and, for aarch64, busybox: unpacked once per package version.
fetch() { # fetch DEB_ARCH PACKAGE... -> downloads into $cache/debs
	(cd "$cache/debs" && apt-get download "$@" >/dev/null 2>&1)
}
mkdir -p "$cache/debs"
for a in $archs; do
	case $a in
	x86_64) darch=amd64 ;;
	aarch64) darch=arm64 ;;
	esac
	dir=$cache/kernel-$a
	kpkg=$(apt-cache depends "linux-image-$darch:$darch" 2>/dev/null |
		awk '/Depends: linux-image-/{print $2; exit}' | cut -d: -f1)
	if [ -z "$kpkg" ]; then
		if [ -f "$dir/kernel.pkg" ]; then
			echo "vm setup: cannot ask apt for the current kernel; using the cached $(cat "$dir/kernel.pkg")"
			continue
		fi
		echo "vm setup: apt does not know linux-image-$darch:$darch (run apt-get update; for arm64 first dpkg --add-architecture arm64)"
		exit 77
	fi
	if [ -f "$dir/kernel.pkg" ] && [ "$(cat "$dir/kernel.pkg")" = "$kpkg" ]; then
		echo "vm setup: kernel $kpkg ($darch) reused: the cached one is apt's current"
		continue
	fi
	if [ -f "$dir/kernel.pkg" ]; then
		why="the cached one is $(cat "$dir/kernel.pkg"), apt's current $kpkg"
	else
		why="none cached"
	fi
	echo "vm setup: fetching $kpkg ($darch) from the Debian mirror ($why)"
	rm -rf "$dir"
	mkdir -p "$dir/root"
	rm -f "$cache/debs/${kpkg}_"*"_$darch.deb"
	if ! fetch "$kpkg:$darch"; then
		echo "vm setup: apt-get download $kpkg:$darch failed (is a Debian mirror reachable?)"
		exit 77
	fi
	dpkg -x "$cache/debs/${kpkg}_"*"_$darch.deb" "$dir/root"
	# Only the kernel image and its modules are kept.
	kver=$(ls "$dir/root/lib/modules")
	mkdir -p "$dir/lib/modules"
	mv "$dir/root/lib/modules/$kver" "$dir/lib/modules/$kver"
	mv "$dir/root/boot/vmlinuz-$kver" "$dir/vmlinuz"
	rm -rf "$dir/root"
	depmod -b "$dir" "$kver"
	echo "$kver" >"$dir/kernel.ver"
	if [ "$a" = x86_64 ]; then
		# PVH direct boot wants the uncompressed ELF inside the bzImage.
		off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$dir/vmlinuz" | head -n 1 | cut -d: -f1)
		tail -c +$((off + 1)) "$dir/vmlinuz" | xz -dc --single-stream >"$dir/vmlinux"
	else
		rm -f "$cache/debs/busybox-static_"*"_arm64.deb"
		if ! fetch busybox-static:arm64; then
			echo "vm setup: apt-get download busybox-static:arm64 failed"
			exit 77
		fi
		mkdir -p "$dir/bb"
		dpkg -x "$cache/debs/busybox-static_"*"_arm64.deb" "$dir/bb"
		cp "$dir/bb/bin/busybox" "$dir/busybox"
		rm -rf "$dir/bb"
	fi
	rm -f "$cache/debs/"*.deb
	echo "$kpkg" >"$dir/kernel.pkg"
done
exit 0
