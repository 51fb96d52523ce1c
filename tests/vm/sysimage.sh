#!/bin/sh
# The VM rig's systemd system: a minimal Debian 12 (bookworm) with systemd,
# built once with mmdebstrap and kept in the cache until this script or its
# package list changes. What it leaves in OUT_DIR:
#   root.img   ext4 image of the root file system (mke2fs -d), no pirogue in it
#   vmlinuz    its kernel, initrd.img its initramfs (initramfs-tools)
#   image.key  what it was built from (package list, image_version, sysshell)
# The serial console (ttyS0) logs root in by itself and runs tests/vm/sysshell
# (one shell line in, "VMRIG_DONE <status>" out); tty1 is left as Debian has
# it (getty@tty1) so that installing pirogue is what takes it over.
# Usage: tests/vm/sysimage.sh OUT_DIR       (as root; mmdebstrap, e2fsprogs)
# Exit 0 ready, 77 cannot build here (one line says why), 1 error.
set -eu
out=$1
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
# What the image is made of; a change here (or in sysshell) rebuilds it.
packages=systemd,systemd-sysv,udev,dbus,linux-image-amd64,initramfs-tools,kmod,libdrm2,libevdev2,zlib1g,libstb0
image_version=1 # bump when the customize hooks below change
key=$( (echo "$packages $image_version"; cat "$here/sysshell") | sha256sum | cut -c1-16)
if [ -f "$out/image.key" ] && [ "$(cat "$out/image.key")" = "$key" ] &&
	[ -f "$out/root.img" ] && [ -f "$out/vmlinuz" ] && [ -f "$out/initrd.img" ]; then
	exit 0
fi
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
# The host's own Debian mirror (the only one reachable), as apt knows it.
mirror=$(apt-get indextargets --format '$(REPO_URI)' 'Codename: bookworm' 2>/dev/null | head -n 1)
mirror=${mirror:-http://deb.debian.org/debian/}
echo "vm sysimage: building a Debian 12 system with systemd from $mirror (once; cached in $out)"
rm -rf "$out/root" "$out/root.img" "$out/image.key"
t0=$(date +%s)
# MODULES=list: an initramfs with just what finds the root disk (a much
# smaller one than "most", which TCG unpacks slowly at every boot).
if ! mmdebstrap --quiet --variant=minbase \
	--include="$packages" \
	--customize-hook='echo pirogue-vm >"$1/etc/hostname"' \
	--customize-hook='printf "/dev/vda / ext4 rw,errors=remount-ro 0 1\n" >"$1/etc/fstab"' \
	--customize-hook='mkdir -p "$1/etc/systemd/system/serial-getty@ttyS0.service.d"' \
	--customize-hook='printf "[Service]\nExecStart=\nExecStart=-/sbin/agetty --autologin root --noclear --keep-baud 115200 %%I dumb\n" >"$1/etc/systemd/system/serial-getty@ttyS0.service.d/autologin.conf"' \
	--customize-hook="install -m 0755 '$here/sysshell' \"\$1/usr/local/sbin/vmrig-shell\"" \
	--customize-hook='printf "[ \"\$(tty)\" = /dev/ttyS0 ] && exec /usr/local/sbin/vmrig-shell\n" >>"$1/root/.profile"' \
	--customize-hook='printf "MODULES=list\n" >"$1/etc/initramfs-tools/conf.d/vmrig"' \
	--customize-hook='printf "virtio_pci\nvirtio_blk\next4\n" >>"$1/etc/initramfs-tools/modules"' \
	--customize-hook='chroot "$1" update-initramfs -u -k all >/dev/null' \
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
echo "vm sysimage: built in $(($(date +%s) - t0)) s"
