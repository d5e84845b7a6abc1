#!/usr/bin/env bash
# Benchmark smoke run: the whole benchmark harness on a small corpus (lightning's fabric package from PyPI,
# installed with --no-deps) and small documents, once each. It catches crashes of the scan, the language
# server under edits and many open documents, and the harness itself; it asserts no timing.
set -u
cd "$(dirname "$0")/../.."
if [ -x .venv/bin/python ] && .venv/bin/python -c "import ascend_migrate" 2>/dev/null; then
  python=.venv/bin/python
else  # the README's install did not leave a venv: make one for this stage
  python3 -m venv /tmp/ascend-migrate-bench-venv && /tmp/ascend-migrate-bench-venv/bin/pip install --quiet -e . || {
    echo "bench-smoke: FAILED: cannot install ascend-migrate"; exit 1; }
  python=/tmp/ascend-migrate-bench-venv/bin/python
fi
if ! timeout 60 "$python" -m pip download --quiet --no-deps -d "$(mktemp -d)" lightning==2.6.6 >/dev/null 2>&1; then
  echo "bench-smoke: skipped: PyPI cannot be reached for the smoke corpus (lightning 2.6.6)"
  exit 0
fi
timeout 280 "$python" benchmarks/run.py --smoke
status=$?
if [ "$status" -eq 124 ]; then echo "bench-smoke: FAILED: over its 280 s budget"; exit 1; fi
if [ "$status" -ne 0 ]; then echo "bench-smoke: FAILED (exit $status)"; exit "$status"; fi
echo "bench-smoke: passed (no timing asserted)"
