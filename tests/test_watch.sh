#!/bin/sh
# pirogue --watch as a person uses it (docs/watch.md): no game to watch is
# one line and exit 1; a bad watch setting one line and exit 2; the kiosk
# unit's RuntimeDirectory=pirogue (its socket's directory); then in
# tmux, one pane plays ./pirogue --seed 5 and another runs ./pirogue
# --watch: the watcher shows the same map, its hint line saying whom it
# watches; moves in the first show in the second; keys typed in the second
# never reach the game; the watcher stopped (SIGSTOP) while the game plays
# on, and ten more watchers attached, leave the game answering, and once
# continued the watcher shows the game again; q leaves. Skipped (77) without
# tmux.
. tests/tmuxlib.sh
mkdir -p "$tmp/run" "$tmp/state" "$tmp/empty"
chmod 700 "$tmp/run"

# no game: one line, exit 1
out=$(env XDG_RUNTIME_DIR="$tmp/empty" "$P" --watch 2>&1)
rc=$?
[ "$rc" = 1 ] || say "--watch with no game exited $rc, not 1"
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || say "--watch with no game said more than one line: $out"
printf '%s\n' "$out" | grep -q "no game to watch" || say "--watch with no game did not say so: $out"
out=$(env XDG_RUNTIME_DIR="$tmp/empty" "$P" --watch "$tmp/none.sock" 2>&1)
[ $? = 1 ] && printf '%s\n' "$out" | grep -q "no game to watch: no pirogue publishes at $tmp/none.sock" ||
	say "--watch SOCKET with no game there: $out"
# the setting: yes or no, anything else said
printf 'watch = maybe\n' > "$tmp/bad.conf"
out=$("$P" --config "$tmp/bad.conf" --version 2>&1)
[ $? = 2 ] && printf '%s\n' "$out" | grep -q "bad.conf:1: invalid value 'maybe' for watch: expected yes or no" ||
	say "watch = maybe: $out"

# the kiosk unit gives the game its socket's directory, /run/pirogue
grep -qx 'RuntimeDirectory=pirogue' systemd/pirogue.service.in || say "the kiosk unit has no RuntimeDirectory=pirogue"

tmux_need
env_run="env XDG_RUNTIME_DIR=$tmp/run XDG_STATE_HOME=$tmp/state PIROGUE_CONFIG=/dev/null TERM=xterm-256color"
# one window of 80 x 49: the game's pane of 80 x 24 above, the watcher's below
tmux_session 80 49 "$env_run '$P' --backend term --seed 5; sleep 30"
pane_wait "HP:" 100 || { say "the game never showed its map:"; cat "$tmp/pane"; exit 1; }
i=0
while [ ! -S "$tmp/run/pirogue/watch.sock" ] && [ $i -lt $((100 * W)) ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$tmp/run/pirogue/watch.sock" ] || { say "the game made no socket at $tmp/run/pirogue/watch.sock"; exit 1; }
$T split-window -v -l 24 -t "$(at)" "$env_run '$P' --backend term --watch; echo WATCHER-LEFT; sleep 30"

# pane N's text into $tmp/p.N, the last line (hints, or whom it watches) left out
cap() { $T capture-pane -p -t "$(at ".$1")" | sed '$d' > "$tmp/p.$1"; }
# waits (tenths) until the game's pane and the watcher's show the same map
same() { # tenths
	i=0
	while [ $i -lt $(($1 * W)) ]; do
		cap 0
		cap 1
		cp "$tmp/p.0" "$tmp/a"
		cp "$tmp/p.1" "$tmp/b"
		grep -q "HP:" "$tmp/p.0" && cmp -s "$tmp/a" "$tmp/b" && return 0
		i=$((i + 1))
		sleep 0.1
	done
	return 1
}
$T select-pane -t "$(at .1)"
pane_wait "Watching .* - q leaves" 100 || { say "the watcher never said whom it watches:"; cat "$tmp/pane"; }
same 100 || { say "the watcher does not show the game's map:"; diff "$tmp/a" "$tmp/b"; }

# moves in the game show in the watcher
cap 0
cp "$tmp/p.0" "$tmp/before"
keys_to 0 l l l j j
i=0
while cap 0 && cmp -s "$tmp/p.0" "$tmp/before" && [ $i -lt $((100 * W)) ]; do sleep 0.1; i=$((i + 1)); done
cmp -s "$tmp/p.0" "$tmp/before" && say "the game did not move"
same 100 || { say "moves in the game did not show in the watcher:"; diff "$tmp/a" "$tmp/b"; }

# keys typed in the watcher reach nothing
cap 0
cp "$tmp/p.0" "$tmp/before"
keys_to 1 h h h k k i
keys_to 0 .
i=0
while cap 0 && cmp -s "$tmp/p.0" "$tmp/before" && [ $i -lt $((50 * W)) ]; do sleep 0.1; i=$((i + 1)); done
same 100 || say "after keys typed in the watcher, it shows something else than the game"
grep -q "Inventory" "$tmp/p.0" && say "a key typed in the watcher (i) opened the game's inventory"

# the watcher stopped: the game plays on and answers; continued, it follows again
wpid=$(pgrep -P "$($T display -p -t "$(at .1)" '#{pane_pid}')" -x pirogue)
[ -n "$wpid" ] || say "no watcher process found"
kill -STOP "$wpid"
keys=
n=0
while [ $n -lt 40 ]; do keys="$keys l h"; n=$((n + 1)); done
cap 0
cp "$tmp/p.0" "$tmp/before"
# ten more watchers at once (headless: each runs until the game ends)
m=0
while [ $m -lt 10 ]; do
	env XDG_RUNTIME_DIR="$tmp/run" PIROGUE_CONFIG=/dev/null "$P" --backend headless --watch 2>/dev/null &
	echo $! >> "$tmp/more"
	m=$((m + 1))
done
# shellcheck disable=SC2086
keys_to 0 $keys j
i=0
while cap 0 && cmp -s "$tmp/p.0" "$tmp/before" && [ $i -lt $((100 * W)) ]; do sleep 0.1; i=$((i + 1)); done
cmp -s "$tmp/p.0" "$tmp/before" && say "the game stopped answering while its watcher was stopped"
kill -CONT "$wpid"
same 150 || { say "the continued watcher does not show the game:"; diff "$tmp/a" "$tmp/b"; }
for p in $(cat "$tmp/more"); do
	kill -0 "$p" 2>/dev/null || say "one of the ten more watchers ended early"
	kill "$p" 2>/dev/null
done

# q leaves (the game plays on)
keys_to 1 q
$T select-pane -t "$(at .1)"
pane_wait "WATCHER-LEFT" 100 || say "q did not leave the watcher"
keys_to 0 l
cap 0
grep -q "HP:" "$tmp/p.0" || say "the game ended with its watcher"
# watch = no (and --no-watch): the game plays, unpublished
mkdir -p "$tmp/run2" "$tmp/run3"
printf 'watch = no\n' > "$tmp/nowatch.conf"
$T new-window -n w2 -t "$(at)" "env XDG_RUNTIME_DIR=$tmp/run2 XDG_STATE_HOME=$tmp/state2 PIROGUE_CONFIG=$tmp/nowatch.conf TERM=xterm-256color '$P' --backend term --seed 5 --state-dir $tmp/s2; sleep 30"
$T new-window -n w3 -t "$(at)" "$env_run XDG_RUNTIME_DIR=$tmp/run3 '$P' --backend term --seed 5 --no-watch --state-dir $tmp/s3; sleep 30"
for w in 2 3; do
	i=0
	while ! $T capture-pane -p -t "$(at "w$w")" 2>/dev/null | grep -q "HP:" && [ $i -lt $((100 * W)) ]; do sleep 0.1; i=$((i + 1)); done
	$T capture-pane -p -t "$(at "w$w")" | grep -q "HP:" || say "the game of window w$w never showed its map"
done
[ -e "$tmp/run2/pirogue/watch.sock" ] && say "watch = no: the game published itself anyway"
[ -e "$tmp/run3/pirogue/watch.sock" ] && say "--no-watch: the game published itself anyway"
[ "$fail" = 0 ] && echo "watch: the watcher followed the game, stopped and continued, with ten more; q left; watch = no and --no-watch publish nothing"
exit $fail
