#!/bin/sh
# tools/apt-foreign against a pretend mirror (apt-get, apt-cache, dpkg,
# dpkg-query, apt-mark and id replaced on PATH; dpkg --compare-versions is
# the real one): the day the arm64 index lags behind amd64's (linux-libc-dev
# and libssl3 newer for amd64, as seen in session 6) it pins both to the
# newest version all architectures offer (a downgrade for linux-libc-dev),
# says so in one line, installs, and marks what was automatic automatic
# again; a blocker behind a package that is not Multi-Arch: same is found by
# asking apt about that package; with no common version it exits 77 naming
# the package and each architecture's offer; a mirror in step installs at
# once with no pin; one where all is installed changes nothing and says
# so; --update, --log and --retry (what .ci/run, make deb and the VM rig's
# setup use) update first, keep apt's output in the log and try a failed
# download once more.
# make asan: not rerun: tools/apt-foreign against a pretend mirror: shell only, no built code
set -u
command -v dpkg >/dev/null 2>&1 || { echo "SKIP: dpkg is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
F=$tmp/mirror
bin=$tmp/bin
mkdir -p "$F" "$bin"
realdpkg=$(command -v dpkg)
export F

cat >"$bin/id" <<'EOF'
#!/bin/sh
echo 0
EOF
cat >"$bin/dpkg" <<EOF
#!/bin/sh
case \$1 in
--print-architecture) echo amd64 ;;
--print-foreign-architectures) cat "\$F/foreign" ;;
--add-architecture) echo "\$2" >>"\$F/foreign"; echo "add-architecture \$2" >>"\$F/log" ;;
*) exec $realdpkg "\$@" ;;
esac
EOF
# installed: "NAME ARCH VERSION"
cat >"$bin/dpkg-query" <<'EOF'
#!/bin/sh
p=${4:-$3}
n=${p%%:*} a=${p#*:}
[ "$a" != "$p" ] || a=amd64
v=$(awk -v n="$n" -v a="$a" '$1 == n && $2 == a { print $3 }' "$F/installed")
[ -n "$v" ] || exit 1
echo "ii  $v"
EOF
# offers: "NAME ARCH VERSION"; masame: names
cat >"$bin/apt-cache" <<'EOF'
#!/bin/sh
cmd=$1 p=$2
n=${p%%:*} a=${p#*:}
[ "$a" != "$p" ] || a=amd64
case $cmd in
madison) awk -v n="$n" -v a="$a" '$1 == n && $2 == a { print n " | " $3 " | http://mirror/debian bookworm/main " a " Packages" }' "$F/offers" ;;
policy) echo "$p:"; echo "  Candidate: $(cand "$n" "$a")" ;;
show) grep -qx "$n" "$F/masame" && echo "Multi-Arch: same"; echo "Package: $n" ;;
esac
EOF
# cand NAME ARCH: the newest offered or installed version
cat >"$bin/cand" <<'EOF'
#!/bin/sh
best=
for v in $(awk -v n="$1" -v a="$2" '($1 == n && $2 == a) { print $3 }' "$F/offers" "$F/installed"); do
	if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then best=$v; fi
done
echo "${best:-(none)}"
EOF
# rules: "REQUESTED NEEDS [VIA]": installing REQUESTED needs NEEDS (Multi-Arch:
# same) at one version on amd64 and arm64; with VIA, apt names only VIA
# (REQUESTED : Depends: VIA) unless VIA itself is asked for.
cat >"$bin/apt-get" <<'EOF'
#!/bin/sh
echo "apt-get $*" >>"$F/log"
sim=
for x in "$@"; do [ "$x" = -s ] && sim=1; done
has() { for x in $args; do [ "$x" = "$1" ] && return 0; done; return 1; }
args="$*"
ver() { # ver NAME ARCH: the version asked for, else apt's candidate
	for x in $args; do case $x in "$1:$2="*) echo "${x#*=}"; return ;; esac; done
	cand "$1" "$2"
}
unmet=
while read -r req needs via; do
	has "$req" || continue
	if [ "$(ver "$needs" amd64)" != "$(ver "$needs" arm64)" ]; then
		if [ -n "$via" ] && ! has "$via"; then
			unmet="$unmet\n ${req} : Depends: ${via%%:*} but it is not going to be installed"
		else
			unmet="$unmet\n ${via:-$req} : Depends: $needs:arm64 (>= 1.0) but it is not going to be installed"
		fi
	fi
done <"$F/rules"
if [ -n "$unmet" ]; then
	echo "The following packages have unmet dependencies:"
	printf "$unmet\n" | sed 1d
	echo "E: Unable to correct problems, you have held broken packages."
	exit 100
fi
# a download that fails once (a mirror mid-sync): $F/failonce
if [ -z "$sim" ] && [ -f "$F/failonce" ]; then
	rm -f "$F/failonce"
	echo "E: Failed to fetch http://mirror/debian/pool/main/l/libdrm-dev_2.4.114-1_arm64.deb  404  Not Found"
	exit 100
fi
if [ -n "$sim" ]; then
	# what would change: each package asked for whose installed version is
	# not the one asked for (or apt's candidate)
	for x in $args; do
		case $x in -*|install|*::*) continue ;; esac
		p=${x%%=*} n=${x%%:*} a=${p#*:}
		[ "$a" != "$p" ] || a=amd64
		iv=$(awk -v n="$n" -v a="$a" '$1 == n && $2 == a { print $3 }' "$F/installed")
		[ "$iv" = "$(ver "$n" "$a")" ] || echo "Inst $p"
	done
else
	echo "installed $*" >>"$F/log"
fi
EOF
cat >"$bin/apt-mark" <<'EOF'
#!/bin/sh
case $1 in
showauto) cat "$F/auto" ;;
auto) shift; echo "apt-mark auto $*" >>"$F/log" ;;
esac
EOF
chmod +x "$bin"/*
PATH=$bin:$PATH
export PATH

fail=0
no() { echo "FAIL: $*"; fail=1; }
tool=$(pwd)/tools/apt-foreign
# mirror: sets the pretend mirror of session 6 (arm64 behind amd64)
mirror() {
	echo arm64 >"$F/foreign"
	: >"$F/log"
	cat >"$F/offers" <<-EOF
	linux-libc-dev amd64 6.1.192-3
	linux-libc-dev amd64 6.1.176-1
	linux-libc-dev arm64 6.1.176-1
	libssl3 amd64 3.0.22-1~deb12u2
	libssl3 amd64 3.0.20-1~deb12u2
	libssl3 arm64 3.0.20-1~deb12u2
	libssl3 arm64 3.0.17-1~deb12u2
	libdrm-dev arm64 2.4.114-1
	EOF
	cat >"$F/installed" <<-EOF
	linux-libc-dev amd64 6.1.187-1
	libssl3 amd64 3.0.19-1~deb12u2
	EOF
	printf 'linux-libc-dev\nlibssl3\nlibkrb5-3\n' >"$F/masame"
	printf 'linux-libc-dev\n' >"$F/auto"
	cat >"$F/rules" <<-EOF
	libdrm-dev:arm64 linux-libc-dev libc6-dev:arm64
	libdrm-dev:arm64 libssl3 libkrb5-3:arm64
	EOF
}

# 1. out of step: pins, a downgrade, one line, automatic stays automatic
mirror
out=$(sh "$tool" libdrm-dev:arm64 2>&1) || no "out of step: exit $?: $out"
line=$(echo "$out" | grep '^apt-foreign: pinned')
echo "$line"
echo "$line" | grep -q 'linux-libc-dev=6.1.176-1 \[amd64: 6.1.187-1 installed, newest offered 6.1.192-3 | arm64: newest offered 6.1.176-1\]' ||
	no "the line does not name linux-libc-dev's pin and why: $out"
echo "$line" | grep -q 'libssl3=3.0.20-1~deb12u2' || no "libssl3 is not pinned to 3.0.20: $out"
[ "$(echo "$out" | grep -c '^apt-foreign: pinned')" = 1 ] || no "not one line: $out"
inst=$(grep '^installed' "$F/log")
for p in linux-libc-dev:amd64=6.1.176-1 linux-libc-dev:arm64=6.1.176-1 libssl3:amd64=3.0.20-1~deb12u2 \
	libssl3:arm64=3.0.20-1~deb12u2 --allow-downgrades libdrm-dev:arm64; do
	echo " $inst " | grep -q -- " $p " || no "the install lacks $p: $inst"
done
echo " $inst " | grep -q 'libc6-dev:arm64\|libkrb5-3' && no "the install asks for what apt was only asked about: $inst"
am=$(grep '^apt-mark auto' "$F/log")
for p in linux-libc-dev:amd64 linux-libc-dev:arm64 libssl3:arm64; do
	echo " $am " | grep -q " $p " || no "$p is not marked automatic again: $am"
done
echo " $am " | grep -q ' libssl3:amd64 ' && no "libssl3:amd64 was installed by hand but is marked automatic: $am"

# 2. no version in common: 77 and one line naming each offer
mirror
sed -i '/linux-libc-dev arm64/s/6.1.176-1/6.1.170-1/; /linux-libc-dev amd64 6.1.176-1/d' "$F/offers"
out=$(sh "$tool" libdrm-dev:arm64 2>&1)
rc=$?
[ $rc = 77 ] || no "no common version: exit $rc, not 77: $out"
echo "$out" | grep -q '^apt-foreign: no version of linux-libc-dev .* amd64 arm64 \[amd64: 6.1.187-1 installed, newest offered 6.1.192-3 | arm64: newest offered 6.1.170-1\]' ||
	no "no common version: the line does not say it: $out"
grep -q '^installed' "$F/log" && no "no common version: it installed something"
echo "$out" | grep '^apt-foreign: no version'

# 3. in step: installed at once, nothing pinned
mirror
sed -i 's/^linux-libc-dev amd64 6.1.187-1/linux-libc-dev amd64 6.1.176-1/; /6.1.192-3/d; /libssl3 amd64 3.0.22/d' "$F/offers" "$F/installed"
sed -i 's/^libssl3 amd64 3.0.19-1~deb12u2/libssl3 amd64 3.0.20-1~deb12u2/' "$F/installed"
out=$(sh "$tool" libdrm-dev:arm64 2>&1) || no "in step: exit $?: $out"
echo "$out" | grep -q pinned && no "in step: it pinned: $out"
[ "$(grep -c '^apt-get .* install ' "$F/log")" = 2 ] || no "in step: not one simulation and one install: $(cat "$F/log")"

# 4. a new foreign architecture is added first
mirror
: >"$F/foreign"
sh "$tool" libdrm-dev:arm64 >/dev/null 2>&1
grep -q '^add-architecture arm64' "$F/log" || no "arm64 was not added"
grep -q '^apt-get update' "$F/log" || no "no apt-get update after adding arm64"

# 5. everything installed already: nothing changes, and it says so
mirror
sed -i '/6.1.192-3/d; /libssl3 amd64 3.0.22/d' "$F/offers"
sed -i 's/^linux-libc-dev amd64 6.1.187-1/linux-libc-dev amd64 6.1.176-1/; s/^libssl3 amd64 3.0.19-1~deb12u2/libssl3 amd64 3.0.20-1~deb12u2/' "$F/installed"
echo 'libdrm-dev arm64 2.4.114-1' >>"$F/installed"
out=$(sh "$tool" libdrm-dev:arm64 2>&1) || no "installed: exit $?: $out"
[ "$out" = "apt-foreign: nothing to do: libdrm-dev:arm64 already installed" ] || no "installed: not the one line: $out"
grep -q '^installed' "$F/log" && no "installed: it ran the install: $(cat "$F/log")"

# 6. --update --log: apt's output in the log, only the tool's lines shown
mirror
log=$tmp/apt.log
out=$(sh "$tool" --update --log "$log" libdrm-dev:arm64 2>&1) || no "--log: exit $?: $out"
[ "$(echo "$out" | grep -vc '^apt-foreign: ')" = 0 ] || no "--log: more than its own lines on the screen: $out"
echo "$out" | grep -q '^apt-foreign: pinned' || no "--log: the pin is not said: $out"
grep -q '^apt-get .*update' "$F/log" || no "--update: no apt-get update: $(cat "$F/log")"
grep -q '^apt-foreign: pinned' "$log" || no "--log: the log lacks the pin line: $(cat "$log")"
grep -q '^installed' "$F/log" || no "--log: nothing installed"

# 7. --retry: a failed install is tried once more after apt-get update;
# without it the failure is final and shows apt's error and the log
mirror
touch "$F/failonce"
out=$(APT_FOREIGN_RETRY_WAIT=0 sh "$tool" --retry --log "$log" libdrm-dev:arm64 2>&1) || no "--retry: exit $?: $out"
echo "$out" | grep -q 'trying once more' || no "--retry: it does not say it tries again: $out"
[ "$(grep -c '^apt-get .*update' "$F/log")" = 1 ] || no "--retry: not one apt-get update before the second try"
grep -q '^installed' "$F/log" || no "--retry: not installed on the second try"
mirror
touch "$F/failonce"
out=$(sh "$tool" --log "$log" libdrm-dev:arm64 2>&1)
rc=$?
[ $rc = 1 ] || no "a failed install: exit $rc, not 1: $out"
echo "$out" | grep -q '^E: Failed to fetch' || no "a failed install: apt's error is not shown: $out"
echo "$out" | tail -n 1 | grep -q "^apt-foreign: installing libdrm-dev:arm64 failed (log: $log)" || no "a failed install: no last line naming the log: $out"
# with no common version (77) there is nothing to try again
mirror
sed -i '/linux-libc-dev arm64/s/6.1.176-1/6.1.170-1/; /linux-libc-dev amd64 6.1.176-1/d' "$F/offers"
out=$(APT_FOREIGN_RETRY_WAIT=0 sh "$tool" --retry --log "$log" libdrm-dev:arm64 2>&1)
rc=$?
[ $rc = 77 ] || no "--retry, no common version: exit $rc, not 77: $out"
echo "$out" | grep -q 'trying once more' && no "--retry: a missing common version is tried again: $out"
echo "$out" | grep -q '^apt-foreign: no version of linux-libc-dev' || no "--log, 77: the reason is not shown: $out"

[ $fail = 0 ] && echo "apt-foreign: pins out-of-step Multi-Arch: same packages, skips with no common version, leaves a mirror in step alone"
exit $fail
