#!/bin/sh
# Builds the VM rig's initramfs: busybox, the kernel modules for the display
# and input devices, the static game, the static helper, init.sh, and the
# game's data beside it in /bin (fonts/, tiles/, gamepads/).
# Usage: tests/vm/mkinitrd.sh ARCH KERNEL_DIR BUSYBOX PIROGUE VMHELPER OUT.cpio.gz [TEST]
# (KERNEL_DIR as tests/vm/setup.sh leaves it: lib/modules/<version>/...;
# TEST: a dynamically linked unit test of the host's architecture, put in
# /bin with the libraries ldd names, at their paths)
set -eu
arch=$1 kdir=$2 busybox=$3 game=$4 helper=$5 out=$6 unit=${7:-}
here=$(cd "$(dirname "$0")" && pwd)
case $arch in
x86_64) mods="bochs cirrus virtio_pci virtio-gpu virtio_input evdev uinput" ;;
aarch64) mods="virtio_pci virtio-gpu virtio_input evdev uinput" ;;
*) echo "mkinitrd: unknown architecture $arch"; exit 1 ;;
esac
kver=$(cat "$kdir/kernel.ver")
root=$out.d
rm -rf "$root"
mkdir -p "$root/bin" "$root/dev" "$root/proc" "$root/sys" "$root/tmp" "$root/etc" "$root/lib/modules"
: >"$root/etc/vmrig-modules"
for m in $mods; do
	modprobe -d "$kdir" -S "$kver" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while read -r ko; do
	b=$(basename "$ko")
	case $b in
	*.ko) cp "$ko" "$root/lib/modules/$b" ;;
	*.ko.xz) xz -dc "$ko" >"$root/lib/modules/${b%.xz}"; b=${b%.xz} ;;
	*) echo "mkinitrd: cannot handle module $ko"; exit 1 ;;
	esac
	echo "$b" >>"$root/etc/vmrig-modules"
done
cp "$busybox" "$root/bin/busybox"
# The applet list of the host's busybox-static (the same Debian version).
for a in $(/bin/busybox --list); do
	[ "$a" = busybox ] || ln -s busybox "$root/bin/$a"
done
cp "$game" "$root/bin/pirogue"
cp "$helper" "$root/bin/vmhelper"
if [ -d "$here/../../fonts" ]; then
	mkdir -p "$root/bin/fonts"
	cp -r "$here/../../fonts/." "$root/bin/fonts/"
fi
# the tile sheets (--tiles on): beside the binary, where the game looks
if [ -d "$here/../../tiles" ]; then
	mkdir -p "$root/bin/tiles"
	cp "$here/../../tiles/"*.png "$here/../../tiles/index.txt" "$root/bin/tiles/"
fi
if [ -d "$here/../../gamepads" ]; then
	mkdir -p "$root/bin/gamepads"
	cp "$here/../../gamepads/gamecontrollerdb.txt" "$root/bin/gamepads/"
fi
if [ -n "$unit" ]; then
	cp "$unit" "$root/bin/"
	for lib in $(ldd "$unit" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
fi
# The kernel opens /dev/console before init mounts devtmpfs (root only).
mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || true
cp "$here/init.sh" "$root/init"
chmod +x "$root/init" "$root/bin/pirogue" "$root/bin/vmhelper"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -6 >"$out"
rm -rf "$root"
