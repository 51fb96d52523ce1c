#!/bin/sh
# The VM rig's systemd system: a minimal Debian 12 (bookworm) with systemd,
# built once with mmdebstrap and kept in the cache until this script or its
# package list changes. What it leaves in OUT_DIR:
#   root.img   ext4 image of the root file system (mke2fs -d), no pirogue in it
#   vmlinuz    its kernel, initrd.img its initramfs (initramfs-tools)
#   image.key  what it was built from (package list, image_version, sysshell)
# The serial console (ttyS0; ttyAMA0 on arm64) logs root in by itself and runs tests/vm/sysshell
# (one shell line in, "VMRIG_DONE <status>" out); tty1 is left as Debian has
# it (getty@tty1) so that installing pirogue is what takes it over.
# Usage: tests/vm/sysimage.sh OUT_DIR [ARCH]   (as root; mmdebstrap, e2fsprogs)
#   ARCH: amd64 (default) or arm64; a foreign one is built through
#   qemu-user-static (binfmt_misc), its serial console is ttyAMA0.
# Exit 0 ready, 77 cannot build here (one line says why), 1 error.
set -eu
out=$1
arch=${2:-amd64}
case $arch in
amd64) serial=ttyS0 ;;
arm64) serial=ttyAMA0 ;;
*) echo "vm sysimage: unknown architecture '$arch' (amd64 or arm64)"; exit 1 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
# What the image is made of; a change here (or in sysshell) rebuilds it.
packages=systemd,systemd-sysv,udev,dbus,linux-image-$arch,initramfs-tools,kmod,libdrm2,libevdev2,zlib1g,libstb0
image_version=2 # bump when the customize hooks below change
key=$( (echo "$packages $image_version"; cat "$here/sysshell") | sha256sum | cut -c1-16)
# each input's own hash (image.inputs), so that a rebuild names what changed
inputs=$(printf 'package-list %s\nimage_version %s\nsysshell %s\n' "$(echo "$packages" | sha256sum | cut -c1-16)" \
	"$image_version" "$(sha256sum <"$here/sysshell" | cut -c1-16)")
if [ -f "$out/image.key" ] && [ "$(cat "$out/image.key")" = "$key" ] &&
	[ -f "$out/root.img" ] && [ -f "$out/vmlinuz" ] && [ -f "$out/initrd.img" ]; then
	echo "vm sysimage: $out reused (its package list, image_version and sysshell are unchanged; the pirogue package is installed into a copy at each run)"
	[ -f "$out/image.inputs" ] || echo "$inputs" >"$out/image.inputs"
	exit 0
fi
if [ ! -f "$out/root.img" ] || [ ! -f "$out/image.key" ]; then
	why="none cached"
elif [ -f "$out/image.inputs" ]; then
	why="changed: $(echo "$inputs" | grep -vxF -f "$out/image.inputs" | cut -d' ' -f1 | tr '\n' ' ')"
else
	why="its key changed (the cache did not record which input)"
fi
echo "vm sysimage: rebuilding $out ($why)"
if [ "$(id -u)" != 0 ]; then
	echo "vm sysimage: building the Debian system image needs root (mmdebstrap); run make vm-test as root"
	exit 77
fi
if ! command -v mmdebstrap >/dev/null 2>&1 || ! command -v mke2fs >/dev/null 2>&1 || ! command -v qemu-img >/dev/null 2>&1; then
	echo "vm sysimage: installing mmdebstrap e2fsprogs qemu-utils"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mmdebstrap e2fsprogs qemu-utils \
		>/dev/null 2>&1 || {
		echo "vm sysimage: cannot install mmdebstrap e2fsprogs qemu-utils (apt-get install them)"
		exit 77
	}
fi
# Another architecture's maintainer scripts run through qemu-user-static.
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
	[ -f /proc/sys/fs/binfmt_misc/status ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
	if [ ! -f /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
		echo "vm sysimage: installing qemu-user-static binfmt-support (the $arch system's packages are set up through them)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends qemu-user-static binfmt-support \
			>/dev/null 2>&1 || true
		update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
	fi
	if [ ! -f /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
		echo "vm sysimage: an $arch system needs qemu-user-static registered with binfmt_misc (apt-get install qemu-user-static binfmt-support; mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc)"
		exit 77
	fi
fi
# The host's own Debian mirror (the only one reachable), as apt knows it.
mirror=$(apt-get indextargets --format '$(REPO_URI)' 'Codename: bookworm' 2>/dev/null | head -n 1)
mirror=${mirror:-http://deb.debian.org/debian/}
echo "vm sysimage: building a Debian 12 $arch system with systemd from $mirror (once; cached in $out)"
rm -rf "$out/root" "$out/root.img" "$out/image.key"
t0=$(date +%s)
# MODULES=list: an initramfs with just what finds the root disk (a much
# smaller one than "most", which TCG unpacks slowly at every boot), set
# before the kernel's package makes it (once, and quickly: under
# qemu-user, for arm64, making a "most" one takes many minutes).
if ! mmdebstrap --quiet --variant=minbase --arch="$arch" \
	--include="$packages" \
	--customize-hook='echo pirogue-vm >"$1/etc/hostname"' \
	--customize-hook='printf "/dev/vda / ext4 rw,errors=remount-ro 0 1\n" >"$1/etc/fstab"' \
	--customize-hook="mkdir -p \"\$1/etc/systemd/system/serial-getty@$serial.service.d\"" \
	--customize-hook="printf '[Service]\nExecStart=\nExecStart=-/sbin/agetty --autologin root --noclear --keep-baud 115200 %%I dumb\n' >\"\$1/etc/systemd/system/serial-getty@$serial.service.d/autologin.conf\"" \
	--customize-hook="install -m 0755 '$here/sysshell' \"\$1/usr/local/sbin/vmrig-shell\"" \
	--customize-hook="printf '[ \"\$(tty)\" = /dev/$serial ] && exec /usr/local/sbin/vmrig-shell\n' >>\"\$1/root/.profile\"" \
	--essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/usr/share/initramfs-tools/modules.d"' \
	--essential-hook='printf "MODULES=list\n" >"$1/etc/initramfs-tools/conf.d/vmrig"' \
	--essential-hook='printf "virtio_pci\nvirtio_blk\next4\n" >"$1/usr/share/initramfs-tools/modules.d/vmrig"' \
	--customize-hook='rm -rf "$1"/var/cache/apt/*.bin "$1"/var/lib/apt/lists/*_Packages' \
	bookworm "$out/root" "$mirror" >"$out/mmdebstrap.log" 2>&1; then
	tail -n 20 "$out/mmdebstrap.log"
	echo "vm sysimage: mmdebstrap failed (log: $out/mmdebstrap.log; is the Debian mirror reachable?)"
	rm -rf "$out/root"
	exit 1
fi
cp "$out/root/boot/vmlinuz-"* "$out/vmlinuz"
cp "$out/root/boot/initrd.img-"* "$out/initrd.img"
# 1.5 GiB leaves room for the package, saves and the journal.
mke2fs -q -t ext4 -L pirogue-root -d "$out/root" "$out/root.img" 1536M >/dev/null
rm -rf "$out/root"
echo "$key" >"$out/image.key"
echo "$inputs" >"$out/image.inputs"
echo "vm sysimage: built in $(($(date +%s) - t0)) s"
