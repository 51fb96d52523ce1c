#!/bin/sh
# tools/check-deb, which make deb runs on every package it builds, catches a
# package that is wrong: built from the tree's own make install (laid out as
# debian/rules does, packed with dpkg-deb), a whole one passes; one labelled
# arm64 around the host's game (a cross build that used the host compiler),
# one without a font, one whose unit keeps an @bindir@, one that does not
# depend on libstb0, one whose postinst enables the unit and one whose
# postinst makes no group pirogue (the watchers') each fail, naming the fault. (make deb itself runs in CI: .ci/run.)
# make asan: not rerun: make install and tools/check-deb read the files (readelf): nothing is run
set -u
command -v dpkg-deb >/dev/null 2>&1 || { echo "SKIP: dpkg-deb is not installed (apt-get install dpkg)"; exit 77; }
command -v readelf >/dev/null 2>&1 || { echo "SKIP: readelf is not installed (apt-get install binutils)"; exit 77; }
host=$(dpkg --print-architecture)
case $host in amd64 | arm64 | armhf) ;; *) echo "SKIP: check-deb knows amd64, arm64 and armhf, not $host"; exit 77 ;; esac
wrong=arm64
[ "$host" != arm64 ] || wrong=amd64
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build=${BUILD:-build}
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
root=$tmp/root
if ! make --no-print-directory -s install O="$(dirname "$build")" DESTDIR="$root" \
	PREFIX=/usr BINDIR=/usr/games >"$tmp/install.log" 2>&1; then
	cat "$tmp/install.log"
	echo "FAIL: make install DESTDIR=... PREFIX=/usr BINDIR=/usr/games"
	exit 1
fi
# what debhelper adds: compressed docs, copyright, changelog, man pages
doc=$root/usr/share/doc/pirogue
gzip -9n "$doc/README.md" "$doc/kiosk.md"
cp debian/copyright "$doc/"
gzip -9nc debian/changelog >"$doc/changelog.gz"
for m in debian/man/*.[0-9]; do
	s=${m##*.}
	mkdir -p "$root/usr/share/man/man$s"
	gzip -9nc "$m" >"$root/usr/share/man/man$s/$(basename "$m").gz"
done
mkdir -p "$root/DEBIAN"

# pack ARCH DEPENDS NAME: the tree in $root as $tmp/NAME.deb
pack() {
	cat >"$root/DEBIAN/control" <<EOF
Package: pirogue
Version: 0.0.0-test
Architecture: $1
Maintainer: test <test@example.org>
Depends: $2
Description: test package
 test
EOF
	dpkg-deb -Zgzip -z1 --root-owner-group -b "$root" "$tmp/$3.deb" >/dev/null
}
deps="libc6 (>= 2.34), libdrm2 (>= 2.4.112), libevdev2 (>= 0.9.1), libstb0, zlib1g (>= 1:1.1.4)"
cp debian/pirogue.postinst "$root/DEBIAN/postinst"
chmod 755 "$root/DEBIAN/postinst"
fail=0
# expect NAME ARCH PATTERN: check-deb fails on NAME.deb with a line matching PATTERN
expect() {
	if tools/check-deb "$tmp/$1.deb" "$2" >"$tmp/out" 2>&1; then
		echo "FAIL: check-deb passed $1.deb: $(cat "$tmp/out")"
		fail=1
	elif ! grep -q "$3" "$tmp/out"; then
		echo "FAIL: check-deb on $1.deb does not say '$3': $(cat "$tmp/out")"
		fail=1
	else
		echo "caught ($1): $(grep -m1 "$3" "$tmp/out")"
	fi
}

pack "$host" "$deps" good
if ! tools/check-deb "$tmp/good.deb" "$host"; then
	echo "FAIL: check-deb refuses a whole package"
	exit 1
fi
pack "$wrong" "$deps" wrongarch
expect wrongarch "$wrong" "is built for '.*', not '"
pack "$host" "libc6, libdrm2, libevdev2, zlib1g" nostb
expect nostb "$host" "Depends lacks libstb0"
mv "$root/usr/share/pirogue/fonts/cp437-8x8.png" "$tmp/font"
pack "$host" "$deps" nofont
mv "$tmp/font" "$root/usr/share/pirogue/fonts/cp437-8x8.png"
expect nofont "$host" "fonts/cp437-8x8.png is missing"
unit=$root/usr/lib/systemd/system/pirogue.service
cp "$unit" "$tmp/unit"
sed -i '1i # @bindir@' "$unit"
pack "$host" "$deps" placeholder
cp "$tmp/unit" "$unit"
expect placeholder "$host" "unfilled"
cp "$root/DEBIAN/postinst" "$tmp/postinst"
printf '#!/bin/sh\ndeb-systemd-helper enable pirogue.service\n' >>"$root/DEBIAN/postinst"
pack "$host" "$deps" enables
expect enables "$host" "postinst enables or starts"
rm "$root/DEBIAN/postinst"
pack "$host" "$deps" nogroup
expect nogroup "$host" "creates no group pirogue"
cp "$tmp/postinst" "$root/DEBIAN/postinst"
exit $fail
