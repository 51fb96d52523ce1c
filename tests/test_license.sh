#!/bin/sh
# The licence: MIT in LICENSE at the top (2026, the pirogue authors), named
# in the README and in --version; debian/copyright gives it for the tree
# and, beside it, a stanza with its own licence for every shipped file that
# is not ours (the fonts, the gamepad database, tiles when there are any),
# each licence's text in full or in a License: paragraph of its own.
. tests/checklib.sh
[ -f LICENSE ] || say "there is no LICENSE at the top of the tree"
head -n 1 LICENSE 2>/dev/null | grep -qx 'MIT License' || say "LICENSE is not the MIT licence"
grep -qx 'Copyright (c) 2026 the pirogue authors' LICENSE 2>/dev/null || say "LICENSE does not say 'Copyright (c) 2026 the pirogue authors'"
grep -q 'Permission is hereby granted, free of charge' LICENSE 2>/dev/null || say "LICENSE lacks the MIT permission text"
grep -q 'MIT licence: see \[LICENSE\](LICENSE)' README.md || say "the README does not name the licence and LICENSE"
"$P" --version | grep -q 'MIT licence' || say "--version does not name the licence: $("$P" --version)"
"$P" --version | head -n 1 | grep -q '^pirogue [0-9]' || say "--version's first line is not 'pirogue VERSION'"
c=debian/copyright
# the stanza for everything (Files: *): ours, MIT (Debian calls it Expat)
awk '/^Files: \*$/ { on = 1; next } /^$/ { on = 0 } on' "$c" >"$tmp/ours"
grep -qx 'Copyright: 2026 the pirogue authors' "$tmp/ours" || say "debian/copyright's Files: * is not '2026 the pirogue authors'"
grep -qx 'License: Expat' "$tmp/ours" || say "debian/copyright's Files: * is not under the MIT (Expat) licence"
grep -q 'Permission is hereby granted, free of charge' "$tmp/ours" || say "debian/copyright's Files: * lacks the MIT text"
# every shipped file not ours has a stanza of its own with a licence
for f in fonts/*.png gamepads/gamecontrollerdb.txt tiles/* data/tiles/*; do
	[ -f "$f" ] || continue
	lic=$(awk -v f="$f" '
		/^Files: / { pats = substr($0, 8); lic = ""; n = split(pats, p, " "); hit = 0
			for (i = 1; i <= n; i++) if (p[i] != "*" && match(f, "^" glob(p[i]) "$")) hit = 1 }
		/^License: / && hit { print substr($0, 10); hit = 0 }
		function glob(s) { gsub(/\./, "\\.", s); gsub(/\*/, ".*", s); gsub(/\?/, ".", s); return s }' "$c")
	[ -n "$lic" ] || say "debian/copyright has no stanza of its own (with a License:) for $f"
done
exit $fail
