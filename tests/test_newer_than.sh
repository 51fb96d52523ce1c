#!/bin/sh
# tools/newer-than, which says whether make deb's package is still this
# tree's (tests/checklib.sh's deb_of_tree for test_arch_replay.sh and
# test_cross_build.sh, and the VM rig's reuse of make deb's packages): in a
# scratch git tree, a package newer than every file is the tree's; a tracked
# file, or an untracked one that is not ignored, changed after it is named;
# an ignored one (build output) is not; outside a git checkout it says so
# (exit 2). (The check it replaced, find with the paths after -newer, found
# nothing ever: every package was taken as the tree's.)
# make asan: not rerun: a shell tool on a scratch git tree: no built code
. tests/checklib.sh
nt=$(pwd)/tools/newer-than
command -v git >/dev/null || { echo "SKIP: git is not installed"; exit 77; }
r=$tmp/tree
mkdir -p "$r/src" "$r/build"
cd "$r" || exit 1
git init -q . && printf 'build/\n' >.gitignore && echo a >src/a.c && echo b >src/b.c &&
	git add . && git -c user.name=t -c user.email=t@t commit -q -m t || { echo "FAIL: cannot make a scratch git tree"; exit 1; }
old=$(date -d '-1 hour' +%Y%m%d%H%M.%S)
find . -path ./.git -prune -o -type f -exec touch -t "$old" {} +
: >build/pkg.deb
got=$("$nt" build/pkg.deb) || say "exit $? in a git tree"
[ -z "$got" ] || say "a package newer than every file: '$got' named as newer"
touch -t "$(date -d '+1 minute' +%Y%m%d%H%M.%S)" build/other.o
got=$("$nt" build/pkg.deb)
[ -z "$got" ] || say "an ignored file (build output) named as newer: '$got'"
touch -t "$(date -d '+1 minute' +%Y%m%d%H%M.%S)" src/b.c
got=$("$nt" build/pkg.deb)
[ "$got" = src/b.c ] || say "a tracked file changed after the package: '$got', not src/b.c"
touch -t "$old" src/b.c
echo new >src/new.c
touch -t "$(date -d '+1 minute' +%Y%m%d%H%M.%S)" src/new.c
got=$("$nt" build/pkg.deb)
[ "$got" = src/new.c ] || say "an untracked file made after the package: '$got', not src/new.c"
rm -rf .git
"$nt" build/pkg.deb >/dev/null 2>&1
rc=$?
[ $rc = 2 ] || say "outside a git checkout: exit $rc, not 2"
[ $fail = 0 ] && echo "newer-than: a package newer than the tree is its; a tracked or new file after it, named; build output, not"
exit $fail
