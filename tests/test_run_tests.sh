#!/bin/sh
# tools/run-tests keeps make test's output to what a person needs: a passing
# test binary is one line (its negative tests' expected "pirogue: ..." error
# lines are not printed), a failing one shows all it printed; a shell check
# can announce long work on fd 3 at once; every skip is one line naming
# its reason once (a cmocka test's printed before skip(), a shell check's
# "SKIP" line), a skip without a reason fails, and the last line counts
# the skips: "N passed, N failed, N skipped"; under make asan
# (PIROGUE_TEST_SANITIZED=1) a check tagged "# make asan: not rerun: WHY" is
# one skip line with WHY, not run. Run on stand-in tests in a
# scratch directory.
# make asan: not rerun: tools/run-tests on stand-in tests: no built code
. tests/checklib.sh
rt=$(pwd)/tools/run-tests
mkdir -p "$tmp/build/tests" "$tmp/tests"
printf '#!/bin/sh\necho "pirogue: blit: scale 9 is out of range; use 1 to 8"\necho "[  PASSED  ] 3 test(s)."\n' \
	> "$tmp/build/tests/test_pass"
printf '#!/bin/sh\necho "detail of the failure"\necho "[  PASSED  ] 1 test(s)."\necho "[  FAILED  ] 1 test(s), listed below:"\nexit 1\n' \
	> "$tmp/build/tests/test_fail"
# cmocka's own output (CMOCKA_MESSAGE_OUTPUT=stdout) for skipped tests
cat >"$tmp/build/tests/test_skip" <<'END'
#!/bin/sh
echo "[==========] Running 2 test(s)."
echo "[ RUN      ] test_pty"
echo "skipped: no pseudo-terminal here"
echo "[  SKIPPED ] test_pty"
echo "[ RUN      ] test_root"
echo "test_root: skipped: needs root"
echo "[  SKIPPED ] test_root"
echo "[==========] 2 test(s) run."
echo "[  PASSED  ] 0 test(s)."
echo "[  SKIPPED ] 2 test(s), listed below:"
echo "[  SKIPPED ] test_pty"
echo "[  SKIPPED ] test_root"
echo
echo " 2 SKIPPED TEST(S)"
END
cat >"$tmp/build/tests/test_partial" <<'END'
#!/bin/sh
echo "[ RUN      ] test_a"
echo "[       OK ] test_a"
echo "[ RUN      ] test_b"
echo "no uinput here"
echo "[  SKIPPED ] test_b"
echo "[  PASSED  ] 1 test(s)."
echo "[  SKIPPED ] 1 test(s), listed below:"
echo "[  SKIPPED ] test_b"
END
cat >"$tmp/build/tests/test_silent" <<'END'
#!/bin/sh
echo "[ RUN      ] test_quiet"
echo "[  SKIPPED ] test_quiet"
echo "[  PASSED  ] 0 test(s)."
echo "[  SKIPPED ] 1 test(s), listed below:"
echo "[  SKIPPED ] test_quiet"
END
printf '#!/bin/sh\necho "nothing"\n' > "$tmp/build/tests/test_zero"
chmod +x "$tmp/build/tests/"*
printf 'echo "pirogue: expected refusal"\necho "starting long work" >&3\necho "PASS: a check"\n' > "$tmp/tests/test_say.sh"
printf 'echo "SKIP: no widget here"\nexit 77\n' > "$tmp/tests/test_skipsh.sh"
printf 'echo "SKIP armhf: no cross compiler"\necho "PASS: arm64"\n' > "$tmp/tests/test_partsh.sh"
printf 'exit 77\n' > "$tmp/tests/test_mute.sh"
printf '# make asan: not rerun: it runs no built code\necho "PASS: plain only"\n' > "$tmp/tests/test_plain.sh"
# under the sanitizers (make asan): the tagged check is one skip line, not run
san=$(cd "$tmp" && PIROGUE_TEST_VERBOSE=0 PIROGUE_TEST_SANITIZED=1 "$rt" build ./none 2>&1)
out=$(cd "$tmp" && PIROGUE_TEST_VERBOSE=0 PIROGUE_TEST_SANITIZED= "$rt" build ./none 2>&1)
fail=0
check() { # pattern present(1)/absent(0) what
	if printf '%s\n' "$out" | grep -q -- "$1"; then got=1; else got=0; fi
	[ "$got" = "$2" ] || { echo "FAIL: $3"; fail=1; }
}
check "scale 9 is out of range" 0 "a passing binary's expected error line is printed"
check "^\[       OK \] test_pass: 3 tests$" 1 "a passing binary is not one line"
check "detail of the failure" 1 "a failing binary's output is hidden"
check "expected refusal" 0 "a passing check's expected error line is printed"
check "^PASS: a check$" 1 "what a passing check says is hidden"
check "^starting long work$" 1 "a check's announcement on fd 3 is lost"
check "^\[ SKIPPED  \] test_skip: test_pty: no pseudo-terminal here$" 1 "a skipped test is not one line with its reason"
check "^\[ SKIPPED  \] test_skip: test_root: needs root$" 1 "a skipped test's reason is not said once, plainly"
check "^\[       OK \] test_partial: 1 tests$" 1 "a binary that passed with a skip is not one line"
check "^\[ SKIPPED  \] test_partial: test_b: no uinput here$" 1 "a passing binary's skip is not said with its reason"
check "^\[  FAILED  \] test_silent: test_quiet skipped without saying why" 1 "a cmocka skip without a reason is not a failure"
check "^\[  EMPTY   \] test_zero ran no test$" 1 "a binary that ran no test is not a failure"
check "^\[ SKIPPED  \] test_skipsh.sh: no widget here$" 1 "a check that skips is not one line with its reason"
check "^\[ SKIPPED  \] test_partsh.sh: armhf: no cross compiler$" 1 "a passing check's SKIP line is not a skip"
check "^PASS: arm64$" 1 "a passing check's PASS line is lost"
check "^\[  FAILED  \] test_mute.sh: skipped (exit 77) without saying why" 1 "a check that skips without a reason is not a failure"
[ "$(printf '%s\n' "$out" | grep -c "no widget here")" = 1 ] || { echo "FAIL: a skip's reason is not said exactly once"; fail=1; }
check "^failed: test_fail test_silent test_zero test_mute.sh$" 1 "the failed line"
check "^PASS: plain only$" 1 "a check tagged 'make asan: not rerun' does not run in the plain suite"
[ "$(printf '%s\n' "$out" | tail -n 1)" = "8 passed, 4 failed, 5 skipped" ] ||
	{ echo "FAIL: the last line is not the summary '8 passed, 4 failed, 5 skipped'"; fail=1; }
printf '%s\n' "$san" | grep -q "^PASS: plain only$" && { echo "FAIL: a check tagged 'make asan: not rerun' ran under PIROGUE_TEST_SANITIZED=1"; fail=1; }
printf '%s\n' "$san" | grep -qx "\[ SKIPPED  \] test_plain.sh: not rerun under the sanitizers: it runs no built code" ||
	{ echo "FAIL: a check left out under the sanitizers is not one skip line with its reason"; fail=1; }
[ "$(printf '%s\n' "$san" | tail -n 1)" = "7 passed, 4 failed, 6 skipped" ] ||
	{ echo "FAIL: under PIROGUE_TEST_SANITIZED=1 the summary is not '7 passed, 4 failed, 6 skipped': $(printf '%s\n' "$san" | tail -n 1)"; fail=1; }
[ "$fail" = 0 ] || printf '%s\n' "$out"
exit $fail
