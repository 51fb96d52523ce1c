#!/bin/sh
# Things to do that exclude each other (--replay, --view, --watch, --daily,
# --daily-seed, --check-save, --reset-term, --reset-vt, --list-displays /
# --list-inputs): any two given together are refused in one line naming
# both, exit 2, before anything runs (was: one silently won, e.g. --view
# FILE --watch watched). --list-displays with --list-inputs is one thing.
. tests/checklib.sh
r=tests/recordings/items.rec
XDG_RUNTIME_DIR=$tmp
export XDG_RUNTIME_DIR
set -- "--replay $r" "--view $r" "--watch" "--daily" "--daily-seed" "--check-save" "--reset-term" \
	"--reset-vt 63" "--list-displays" "--list-inputs"
for a in "$@"; do
	for b in "$@"; do
		[ "$a" = "$b" ] && continue
		case "$a$b" in --list-displays--list-inputs | --list-inputs--list-displays) continue ;; esac
		# shellcheck disable=SC2086
		err=$(timeout 20 "$P" --backend headless --state-dir "$tmp/s" $a $b 2>&1 </dev/null >/dev/null); rc=$?
		n=$(printf '%s\n' "$err" | grep -c .)
		an=${a%% *}
		bn=${b%% *}
		if [ "$rc" -ne 2 ] || [ "$n" -ne 1 ] || ! printf '%s' "$err" | grep -q -e "$an" ||
			! printf '%s' "$err" | grep -q -e "$bn" || ! printf '%s' "$err" | grep -q "cannot be combined"; then
			say "$a $b: exit $rc, '$err'"
		fi
	done
done
# the two lists together still list both
"$P" --list-displays --list-inputs >/dev/null 2>&1 || true
err=$("$P" --list-displays --list-inputs 2>&1 >/dev/null)
printf '%s' "$err" | grep -q "cannot be combined" && say "--list-displays --list-inputs refused: '$err'"
exit $fail
