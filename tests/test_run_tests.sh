#!/bin/sh
# tools/run-tests keeps make test's output to what a person needs: a passing
# test binary is one line (its negative tests' expected "pirogue: ..." error
# lines are not printed), a failing one shows all it printed; a shell check
# can announce long work on fd 3 at once. Run on stand-in tests in a
# scratch directory.
. tests/checklib.sh
rt=$(pwd)/tools/run-tests
mkdir -p "$tmp/build/tests" "$tmp/tests"
printf '#!/bin/sh\necho "pirogue: blit: scale 9 is out of range; use 1 to 8"\necho "[  PASSED  ] 3 test(s)."\n' \
	> "$tmp/build/tests/test_pass"
printf '#!/bin/sh\necho "detail of the failure"\necho "[  PASSED  ] 1 test(s)."\necho "[  FAILED  ] 1 test(s), listed below:"\nexit 1\n' \
	> "$tmp/build/tests/test_fail"
printf '#!/bin/sh\necho "[  SKIPPED ] test_x"\necho " 2 SKIPPED TEST(S)"\n' > "$tmp/build/tests/test_skip"
printf '#!/bin/sh\necho "nothing"\n' > "$tmp/build/tests/test_zero"
chmod +x "$tmp/build/tests/test_pass" "$tmp/build/tests/test_fail" "$tmp/build/tests/test_skip" "$tmp/build/tests/test_zero"
printf 'echo "pirogue: expected refusal"\necho "starting long work" >&3\necho "PASS: a check"\n' > "$tmp/tests/test_say.sh"
out=$(cd "$tmp" && PIROGUE_TEST_VERBOSE=0 "$rt" build ./none 2>&1)
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
check "^\[ SKIPPED  \] test_skip: all 2 tests skipped$" 1 "a binary whose tests all skipped themselves is not shown as skipped"
check "^\[  EMPTY   \] test_zero ran no test$" 1 "a binary that ran no test is not a failure"
check "^5 passed, 2 failed$" 1 "the summary line"
[ "$fail" = 0 ] || printf '%s\n' "$out"
exit $fail
