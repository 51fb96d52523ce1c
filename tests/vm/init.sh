#!/bin/sh
# PID 1 of the VM rig's initramfs. Loads the modules, then runs the shell
# commands the host sends over the serial console, one per line, answering
# each with "VMRIG_DONE <status>". The game and the helper run as its children.
export PATH=/bin
mount -t devtmpfs devtmpfs /dev
exec 0</dev/console 1>/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
while read -r m; do
	[ -n "$m" ] && insmod "/lib/modules/$m" 2>&1 | sed 's/^/VMRIG_INSMOD_ERROR /'
done </etc/vmrig-modules
i=0
while [ ! -e /dev/dri/card0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
stty -echo
read -r up _ </proc/uptime
echo "VMRIG_READY uptime=$up kernel=$(uname -r) arch=$(uname -m)"
while IFS= read -r vmrig_line; do
	eval "$vmrig_line"
	echo "VMRIG_DONE $?"
done
poweroff -f
