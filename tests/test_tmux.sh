#!/bin/sh
# The terminal at 80×24 as a person sees it: pirogue --backend term in a
# tmux window of 80×24, the screen captured with its colours (tmux
# capture-pane -e, made canonical by tools/termcells) and compared, text and
# colours, with tests/golden/tmux-*.txt: the title, the play screen after a
# few moves, look, inventory, help, history, the character screen, a fight
# and the game-over screen.
# Skipped (77) without tmux. tools/regen-tmux (PIROGUE_REGEN=1) rewrites the goldens (look at
# them: git diff).
. tests/tmuxlib.sh
tmux_need

# Waits until the pane differs from what it showed before the last keys
# ($tmp/before), shows pattern and stays the same for a moment; then
# writes it to $tmp/pane.
settle() { # pattern
	prev=
	i=0
	while [ $i -lt $((100 * W)) ]; do
		pane
		cur=$(cat "$tmp/pane")
		if [ "$cur" = "$prev" ] && grep -q -- "$1" "$tmp/pane" && ! cmp -s "$tmp/pane" "$tmp/before"; then
			cp "$tmp/pane" "$tmp/before"
			return 0
		fi
		prev=$cur
		i=$((i + 1))
		sleep 0.1
	done
	echo "FAIL: the screen never showed '$1':"
	cat "$tmp/pane"
	return 1
}

# Compares the settled screen, text and colours, with tests/golden/tmux-NAME.txt:
# the capture with its colour escapes as tools/termcells writes it (the
# rows as text, then each row's runs of colours).
check() { # name pattern
	settle "$2" || { fail=1; return; }
	g=tests/golden/tmux-$1.txt
	if ! tmux -S "$sock" capture-pane -p -e -N -t "$(at)" | "$B/tools/termcells" > "$tmp/cells"; then
		echo "FAIL: $B/tools/termcells could not read the $1 screen's capture"
		fail=1
	elif [ "${PIROGUE_REGEN:-0}" = 1 ]; then
		cp "$tmp/cells" "$g"
		echo "wrote $g"
	elif ! cmp -s "$tmp/cells" "$g"; then
		echo "FAIL: the 80x24 terminal's $1 screen (text or colours) differs from $g:"
		diff "$g" "$tmp/cells"
		fail=1
	fi
}

n=0
start() { # pirogue arguments; a new tmux server on its own socket
	stop_server
	n=$((n + 1))
	sock="$tmp/sock$n"
	: > "$tmp/before"
	tmux_session 80 24 "'$P' --backend term $*; sleep 30"
}

start "--state-dir $tmp/empty"  # an empty state: no Continue whatever the user has saved
check title "New game"
start "--seed 7 --state-dir $tmp/state"
check play "HP:"
keys l l j
check walk "HP:"
keys x
check look "Look"
back() { # Esc alone (then nothing for a moment: not an Alt- key), back to play
	keys Escape
	settle "arrows/hjkl" || fail=1
}
back
keys i
check inventory "item"
back
keys '?'
check help "elp"
back
keys v
check history "Hello and welcome"
back
keys c
check character "evel"
# a fight and its end: a saved game with a troll beside the player at 1 HP
# (tools/mkstate dying), continued; then a turn's wait dies
if "$B/tools/mkstate" dying "$tmp/dying"; then
	start "--state-dir $tmp/dying"
	check title-continue "Continue"
	keys Enter
	check fight "Troll attacks"
	keys .
	check gameover "You died"
else
	echo "FAIL: $B/tools/mkstate dying failed"
	fail=1
fi
exit $fail
