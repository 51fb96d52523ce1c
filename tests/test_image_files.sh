#!/bin/sh
# make image on a fresh clone: every file of the tree that board/make-image
# puts into the card (board/image/*, board/cmdline.txt, the rig's shell) is
# in git, so a clone has it (board/image/pirogue.conf.d was ignored by
# .gitignore's *.d and never committed: make image failed on every clone);
# and nothing under board/ is left out by .gitignore.
# make asan: not rerun: git and board/make-image only: no built code
. tests/checklib.sh
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "SKIP: not a git checkout (what a clone holds is what git tracks)"
	exit 77
fi
mi=board/make-image
# "$here/PATH" (no variable in PATH), and the unit names of its for-u loop
# for "$here/image/$u"
files=$(grep -o '"\$here/[^"$]*"' "$mi" | sed 's|^"\$here/||; s|"$||' | sort -u)
units=$(sed -n 's/^for u in \(.*\); do$/\1/p' "$mi")
grep -q '"\$here/image/\$u"' "$mi" && [ -z "$units" ] && say "$mi installs \$here/image/\$u but its 'for u in' list was not found"
n=0
for f in $files $(for u in $units; do echo "image/$u"; done); do
	p=$(realpath -m --relative-to=. "board/$f")
	n=$((n + 1))
	git ls-files --error-unmatch "$p" >/dev/null 2>&1 ||
		say "$mi uses $p, which git does not track (a fresh clone lacks it: git add it; check .gitignore)"
done
[ "$n" -ge 10 ] || say "only $n files found in $mi's \"\$here/...\" paths: the check reads it wrongly"
ign=$(git ls-files --others --ignored --exclude-standard board/)
[ -z "$ign" ] || say ".gitignore leaves out files under board/ (a clone lacks them): $ign"
[ $fail = 0 ] && echo "ok: the $n files $mi takes from the tree are all in git"
exit $fail
