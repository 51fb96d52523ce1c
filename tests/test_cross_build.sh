#!/bin/sh
# The game builds for the Pi's two architectures (armhf, arm64) with the
# project's warnings as errors, so a change that breaks only a 32-bit or ARM
# build (-Wcast-align on armhf, say) fails here at landing rather than in
# make deb. When make deb has built that architecture's package from this
# tree as it is (CI does, before make test), that build is the one checked.
# Skips (77) an architecture whose cross compiler or libraries are
# missing (make deps CROSS=... installs them); skips when both are missing.
# make asan: not rerun: the arm64 and armhf builds are cross builds, never the sanitized one (make test builds them)
. tests/checklib.sh
built=0
for a in arm-linux-gnueabihf:28 aarch64-linux-gnu:b7; do
	triplet=${a%%:*} machine=${a#*:}
	# make deb's package of this tree (CI's, before make test) is this
	# build done already: debian/rules builds with CROSS= and the
	# project's warnings as errors; its game's ELF machine is checked
	case $triplet in arm-*) darch=armhf ;; *) darch=arm64 ;; esac
	if deb=$(deb_of_tree $darch); then
		dpkg-deb -x "$deb" "$tmp/$darch" || { say "dpkg-deb -x $deb failed"; continue; }
		m=$(od -An -tx1 -j18 -N1 "$tmp/$darch/usr/games/pirogue" | tr -d ' ')
		[ "$m" = "$machine" ] || say "$deb: the game's ELF machine is 0x$m, not 0x$machine"
		echo "$triplet: built by make deb from this tree ($deb), warnings as errors"
		built=$((built + 1))
		continue
	fi
	pc=/usr/lib/$triplet/pkgconfig
	if ! command -v "$triplet-gcc" >/dev/null || [ ! -e "$pc/libdrm.pc" ] || [ ! -e "$pc/libevdev.pc" ] ||
		[ ! -e "$pc/zlib.pc" ]; then
		echo "SKIP $triplet: no cross compiler or libraries (make deps CROSS=$triplet)"
		continue
	fi
	if ! make -s -j2 O="$tmp/$triplet" CROSS="$triplet" all >"$tmp/$triplet.log" 2>&1; then
		grep -E "error|warning" "$tmp/$triplet.log" | head -20
		say "the $triplet build fails (above)"
		continue
	fi
	# the ELF header's e_machine (bytes 18-19, little-endian): 0x28 ARM, 0xb7 AArch64
	m=$(od -An -tx1 -j18 -N1 "$tmp/$triplet/pirogue" | tr -d ' ')
	[ "$m" = "$machine" ] || say "$triplet: the game's ELF machine is 0x$m, not 0x$machine"
	built=$((built + 1))
done
[ "$fail" = 0 ] || exit 1
[ "$built" -gt 0 ] || exit 77
echo "cross builds: $built architecture(s) built with warnings as errors"
