#!/bin/sh
# The arm64 and armhf games, run here through qemu-user (binfmt_misc):
# every recording in tests/recordings, and the daily game's of
# tests/daily, replays on each with the checksums it holds and ends as on
# this machine (tests/recordings' final frames byte for byte this
# machine's); a cave game recorded on any of the
# architectures replays exactly on the others; every headless frame of
# tests/frames.list is byte for byte this machine's. So it plays all that
# make deb's play plays of the arm64 and armhf packages (the golden frames,
# the recordings' final frames: this machine's are the goldens,
# test_frames.sh and test_recordings.sh check that), and CI's make deb
# plays only the amd64 one (DEB_PLAY=native, docs/ci.md).
# Each game is its Debian package's: $B/deb/pirogue_VERSION_ARCH.deb taken
# apart (dpkg -x) when make deb built it from this tree (CI does, before
# make test), else the game built the way debian/rules builds it (CROSS=,
# PREFIX=/usr, Debian's build flags) into $B/cross/ARCH, kept there so that
# the next run rebuilds only what changed. An architecture without qemu-user
# in binfmt_misc, or without its cross compiler, is one SKIP line.
# make asan: not rerun: its arm64 and armhf games are the packages' (no sanitizers); what it plays on this machine, every recording and golden frame, test_recordings.sh and test_frames.sh play under the sanitizers
. tests/checklib.sh
# make test's own build settings (make asan's sanitizers above all) are not
# the package's
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES EXTRA_CFLAGS EXTRA_LDFLAGS OPT O CC CFLAGS CPPFLAGS LDFLAGS HARDEN
command -v dpkg >/dev/null 2>&1 || { echo "SKIP: dpkg is not installed (not a Debian system)"; exit 77; }
host=$(dpkg --print-architecture)
version=$(cat VERSION)
games="$host=$P"
for a in arm64 armhf; do
	[ "$a" = "$host" ] && continue
	case $a in arm64) emu=qemu-aarch64 triplet=aarch64-linux-gnu ;; armhf) emu=qemu-arm triplet=arm-linux-gnueabihf ;; esac
	# (an arm64 kernel runs armhf programs itself)
	if ! { [ "$host:$a" = arm64:armhf ] || grep -qx enabled "/proc/sys/fs/binfmt_misc/$emu" 2>/dev/null; }; then
		echo "SKIP $a game: no $emu in binfmt_misc here (apt-get install qemu-user-static binfmt-support; a container needs binfmt_misc from its host)"
		continue
	fi
	if deb=$(deb_of_tree $a); then
		mkdir -p "$tmp/$a"
		dpkg-deb -x "$deb" "$tmp/$a" || { say "dpkg-deb -x $deb failed"; continue; }
		game=$tmp/$a/usr/games/pirogue
		echo "$a: the game of $deb (made by make deb from this tree)"
	else
		pc=/usr/lib/$triplet/pkgconfig
		if ! command -v "$triplet-gcc" >/dev/null || [ ! -e "$pc/libdrm.pc" ] || [ ! -e "$pc/libevdev.pc" ] || [ ! -e "$pc/zlib.pc" ]; then
			echo "SKIP $a game: no $triplet cross compiler or :$a libraries (make deps-test installs them)"
			continue
		fi
		# debian/rules' build: dpkg's flags for that architecture, hardening=+all
		flags() { DEB_HOST_ARCH=$a DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get "$1" 2>/dev/null; }
		out=$B/cross/$a
		if ! make -s -j2 O="$out" CROSS="$triplet" PREFIX=/usr BINDIR=/usr/games \
			CFLAGS="$(flags CFLAGS) $(flags CPPFLAGS)" LDFLAGS="$(flags LDFLAGS)" all >"$tmp/$a.log" 2>&1; then
			grep -E "error|warning" "$tmp/$a.log" | head -20
			say "the $a build (as debian/rules makes it) fails (above)"
			continue
		fi
		game=$out/pirogue
		echo "$a: the game built as debian/rules builds it ($out, kept for the next run)"
	fi
	"$game" --version >/dev/null 2>&1 || { say "the $a game does not start through $emu"; continue; }
	games="$games $a=$game"
done
[ "$games" != "$host=$P" ] || { [ $fail = 0 ] && exit 77; exit 1; }

# every recording: the checksums it holds, and the same last line as here;
# those of tests/recordings also their final frame (test_recordings.sh's,
# at 640x400), byte for byte this machine's
for r in tests/recordings/*.rec tests/daily/*.rec; do
	want=$("$P" --replay "$r" 2>&1) || { say "$r does not replay on $host: $want"; continue; }
	shot=
	case $r in tests/recordings/*)
		shot=$(basename "$r" .rec)
		"$P" --replay "$r" --size 640x400 --screenshot "$tmp/rec-$shot-$host.png" >/dev/null 2>&1 ||
			say "$r: no final frame on $host"
		;;
	esac
	for g in $games; do
		a=${g%%=*} game=${g#*=}
		[ "$a" = "$host" ] && continue
		got=$("$game" --replay "$r" 2>&1) || { say "$r does not replay on $a: $got"; continue; }
		[ "$got" = "$want" ] || say "$r on $a ends '$got', on $host '$want'"
		[ -n "$shot" ] || continue
		"$game" --replay "$r" --size 640x400 --screenshot "$tmp/rec-$shot-$a.png" >/dev/null 2>&1 ||
			{ say "$r: no final frame on $a"; continue; }
		cmp -s "$tmp/rec-$shot-$host.png" "$tmp/rec-$shot-$a.png" || say "the final frame of $r on $a differs from $host's"
	done
done

# a cave game recorded on each architecture replays exactly on every other
for g in $games; do
	a=${g%%=*} game=${g#*=}
	"$game" --backend headless --seed 4242 --mapgen cave --keys bench/turn.keys --record "$tmp/rec-$a.rec" \
		--state-dir "$tmp/state-$a" >/dev/null 2>&1 || { say "recording a cave game on $a failed"; continue; }
done
for r in "$tmp"/rec-*.rec; do
	[ -f "$r" ] || continue
	from=${r##*/rec-} from=${from%.rec}
	cmp -s "$r" "$tmp/rec-$host.rec" || say "the cave game recorded on $from differs from $host's"
	for g in $games; do
		a=${g%%=*} game=${g#*=}
		[ "$a" = "$from" ] && continue
		got=$("$game" --replay "$r" 2>&1) || say "the cave game recorded on $from does not replay on $a: $got"
	done
done

# every headless frame of tests/frames.list, byte for byte this machine's
n=0
while IFS='|' read -r name args; do
	name=$(echo "$name" | tr -d ' ')
	case "$name" in '' | '#'*) continue ;; esac
	kind=$(echo "$args" | sed -n 's/.*--state-dir @\([a-z]*\).*/\1/p')
	for g in $games; do
		a=${g%%=*} game=${g#*=}
		a_args=$args
		if [ -n "$kind" ]; then
			rm -rf "$tmp/state"
			"$B/tools/mkstate" "$kind" "$tmp/state" || { say "frame $name: mkstate $kind failed"; continue; }
			a_args=$(echo "$args" | sed "s|@$kind|$tmp/state|")
		fi
		# each architecture's own state (what a run may save), the same runs in the same order
		# shellcheck disable=SC2086
		XDG_STATE_HOME=$tmp/xdg-$a "$game" $a_args --screenshot "$tmp/$name-$a.png" >/dev/null 2>&1 ||
			{ say "frame $name: the $a game fails (pirogue $args)"; continue; }
		[ "$a" = "$host" ] && continue
		cmp -s "$tmp/$name-$host.png" "$tmp/$name-$a.png" || say "frame $name on $a differs from $host's (pirogue $args)"
	done
	n=$((n + 1))
done <tests/frames.list
[ "$n" -gt 0 ] || say "no frames in tests/frames.list"
echo "arch replay: $(echo "$games" | wc -w) architectures ($(for g in $games; do printf '%s ' "${g%%=*}"; done | sed 's/ $//')): $(ls tests/recordings/*.rec tests/daily/*.rec | wc -l) recordings (the daily game's among them; the final frames of tests/recordings' too) and a cave game recorded on each replay exactly on all, $n frames byte for byte equal"
exit $fail
