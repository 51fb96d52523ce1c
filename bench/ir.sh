#!/bin/sh
# bench-ir: runs each benchmark given with --ir under callgrind and prints
# instructions per call from its dumps (a key and side dumped more than
# once: calls and instructions summed) (see bench_ir_stop in bench/bench.h;
# a figure under 100, such as instructions a pixel, with two decimals):
# one line per case, the first side's figure, every other side's figure and
# the ratio first/other, and the verdict when the case names a target.
# Instruction counts are deterministic: use them on a noisy machine.
# Only programs with an instruction-count mode (--ir) are run: the ones
# after --timed-only are named, labelled as timing benches (make bench) and
# not run, since valgrind's slowdown would make their times mean nothing.
set -u
command -v valgrind >/dev/null || { echo "bench-ir: valgrind is missing; install it with make deps-bench" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
timed=0
for b in "$@"; do
	if [ "$b" = --timed-only ]; then
		timed=1
		continue
	fi
	if [ $timed = 1 ]; then
		echo "== $b: no instruction-count mode; not run here (make bench prints its figures)"
		continue
	fi
	echo "== $b (instructions per call, callgrind)"
	rm -f "$tmp"/cg.out*
	if ! valgrind --tool=callgrind -q --callgrind-out-file="$tmp/cg.out" "$b" --ir >"$tmp/stdout"; then
		cat "$tmp/stdout"
		echo "bench-ir: $b failed under callgrind" >&2
		exit 1
	fi
	cat "$tmp/stdout"
	n=1
	while [ -f "$tmp/cg.out.$n" ]; do
		d=$(sed -n 's/^desc: Trigger: Client Request: //p' "$tmp/cg.out.$n")
		t=$(sed -n 's/^summary: //p' "$tmp/cg.out.$n")
		printf '%s|%s\n' "$d" "${t:-0}"
		n=$((n + 1))
	done | awk -F'|' '
	function fmt(x,   s, r) { if (x < 100) return sprintf("%.2f", x); s = sprintf("%.0f", x); r = ""; while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) } return s r }
	{
		key = $1; side = $2
		if (!(key in seen)) { seen[key] = 1; order[nk++] = key }
		if (!((key, side) in sidx)) { sidx[key, side] = nsides[key]++; sname[key, sidx[key, side]] = side }
		j = sidx[key, side]; calls[key, j] += $3; ir[key, j] += $5
		if ($4 ~ /^x/) rtarget[key] = substr($4, 2) + 0
		else if ($4 > 0) target[key] = $4
	}
	END {
		for (i = 0; i < nk; i++) for (j = 0; j < nsides[order[i]]; j++) sval[order[i], j] = ir[order[i], j] / (calls[order[i], j] > 0 ? calls[order[i], j] : 1)
		for (i = 0; i < nk; i++) {
			k = order[i]; line = sprintf("  %s: %s %s", k, sname[k, 0], fmt(sval[k, 0]))
			for (j = 1; j < nsides[k]; j++)
				{ r = sval[k, j] > 0 ? sval[k, 0] / sval[k, j] : 0; line = line sprintf(r < 0.1 ? ", %s %s (ratio %.4f)" : ", %s %s (ratio %.2f)", sname[k, j], fmt(sval[k, j]), r) }
			if ((k in rtarget) && nsides[k] > 1) { r = sval[k, 1] > 0 ? sval[k, 0] / sval[k, 1] : 0; line = line sprintf("; target <= %.2f x %s: %s (ratio %.4f: %s %s against %s %s, that key, this callgrind run)", rtarget[k], sname[k, 1], r <= rtarget[k] ? "met" : "NOT met", r, sname[k, 0], fmt(sval[k, 0]), sname[k, 1], fmt(sval[k, 1])) }
			if (k in target) line = line sprintf("; target <= %s: %s (%s, %s figure above, this callgrind run)", fmt(target[k]), sval[k, 0] <= target[k] ? "met" : "NOT met", fmt(sval[k, 0]), sname[k, 0])
			print line
		}
	}'
done
