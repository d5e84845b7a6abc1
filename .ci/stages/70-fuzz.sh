#!/usr/bin/env bash
# Reliability at scale: a bounded coverage-guided fuzz run of the engine and the fixes (atheris, in its own
# venv), then the reliability tests with many more property examples and the heavy checks the default suite
# leaves out (10,000 open/close cycles, a 100,000-file workspace). Fails on a crash or a failed test; skips
# the fuzz run (exit 0 if the tests pass) only when atheris cannot be installed.
set -u
cd "$(dirname "$0")/../.."
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
venv=/tmp/ascend-migrate-fuzz-venv
python3 -m venv "$venv" && "$venv/bin/pip" install --quiet -e ".[test]" || {
  echo "fuzz: FAILED: cannot install ascend-migrate with its test extras"; exit 1; }

RELIABILITY_EXAMPLES=300 RELIABILITY_HEAVY=1 timeout 900 "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/reliability \
  > /tmp/ascend-migrate-reliability.log 2>&1
status=$?
tail -n 15 /tmp/ascend-migrate-reliability.log
tests_summary=$(tail -n 1 /tmp/ascend-migrate-reliability.log)
if [ "$status" -ne 0 ]; then echo "fuzz: FAILED: reliability tests with 300 examples and the heavy checks: $tests_summary"; exit 1; fi

if ! timeout 300 "$venv/bin/pip" install --quiet atheris; then
  echo "fuzz: SKIPPED the fuzz run: atheris cannot be installed here (no wheel for $(python3 -c 'import platform; print(platform.python_version(), platform.machine())') and no compiler/libFuzzer to build it); reliability tests passed: $tests_summary"
  exit 0
fi
FUZZ_WORK=/tmp/ascend-migrate-fuzz fuzz/run.sh "$venv/bin/python" "$FUZZ_SECONDS" | tee /tmp/ascend-migrate-fuzz.out
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "fuzz: FAILED: a fuzz input crashed the engine or the fixes (see above)"; exit 1; }
echo "fuzz: passed: reliability tests with 300 examples and the heavy checks ($tests_summary); $(tail -n 1 /tmp/ascend-migrate-fuzz.out)"
