#!/bin/sh
# ./run on a machine without a compiler installs it through apt-get, which
# waits for another package manager's lock (a fresh system's
# unattended-upgrades) instead of failing at once, and says so; make deps
# does the same. apt-get and sudo are stand-ins; apt-get records its
# arguments.
. tests/checklib.sh
mkdir "$tmp/bin"
for t in sh dirname id cat env; do
	p=$(command -v "$t") && ln -s "$p" "$tmp/bin/$t"
done
printf '#!/bin/sh\necho "apt-get $*" >> "%s/log"\n' "$tmp" > "$tmp/bin/apt-get"
printf '#!/bin/sh\nexec "$@"\n' > "$tmp/bin/sudo"
chmod +x "$tmp/bin/apt-get" "$tmp/bin/sudo"
# the repository's run script on a PATH without make, cc or pkg-config (it
# stops after the install step: make is still missing; only what it asked
# apt-get and what it said are checked)
mkdir "$tmp/repo"
cp run "$tmp/repo/run"
out=$(cd "$tmp/repo" && PATH="$tmp/bin" APT_WAIT=120 sh ./run 2>&1)
fail=0
grep -q "apt-get -o DPkg::Lock::Timeout=120 update" "$tmp/log" 2>/dev/null ||
	{ echo "FAIL: ./run's apt-get update does not wait for the lock"; fail=1; }
grep -q "apt-get -o DPkg::Lock::Timeout=120 install -y build-essential pkg-config" "$tmp/log" 2>/dev/null ||
	{ echo "FAIL: ./run's apt-get install does not wait for the lock"; fail=1; }
printf '%s\n' "$out" | grep -q "holds the package lock, waiting for it (up to 120 s)" ||
	{ echo "FAIL: ./run does not say it waits: $out"; fail=1; }
make -n --no-print-directory deps APT_WAIT=77 2>/dev/null | grep -q "apt-get -o DPkg::Lock::Timeout=77 install" ||
	{ echo "FAIL: make deps does not wait for the lock"; fail=1; }
exit $fail
