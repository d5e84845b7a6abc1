#!/usr/bin/env bash
# Stage 36: the knowledge-base sweeps' tests with the real packages (issue 16). tests/kb holds tests that need torch
# 2.13.0 and mindspore 2.10.0 (the edge-input sweep of tools/edge_inputs.py, the result-kind sweep of
# tools/result_kinds.py, mindspore's enum-typed transforms); the README's test command has neither package, so there
# they skip. This stage runs those files in stage 30's venv (torch, mindspore, numpy<2 are there when stage 30 ran;
# pytest is added) and fails when a test fails or is skipped (a skip here means torch or mindspore is missing).
# Measured 2026-12-02 with a warm venv: pytest 52-78 s of wall time for the 13 tests (the edge sweep's child runs five
# entries; the result-kind test four) on the 2 shared cores at a load average near 12; well inside 2 minutes.
# Session 10: tests/kb/test_torch_aliases.py (mappings/torch_aliases.yaml regenerated from the installed torch and
# every group checked with `is`): 10-12 s wall on the shared cores.
stage=36-kb-sweeps
source "$(dirname "$0")/../lib/shared-venv.sh"
echo "+ pip install torch==2.13.0 mindspore==2.10.0 numpy<2 pytest (into $venv)"
"$venv/bin/pip" install -q torch==2.13.0 mindspore==2.10.0 "numpy<2" "pytest>=8,<10" || fail "torch 2.13.0, mindspore 2.10.0 or pytest could not be installed"
"$venv/bin/pip" install -q -e "$root" || fail "ascend-migrate does not install into the shared venv"

tests="tests/kb/test_edge_inputs.py tests/kb/test_sweeps.py tests/kb/test_torch_aliases.py"
echo "+ pytest $tests"
"$venv/bin/python" -m pytest -q -rs -p no:cacheprovider $tests 2>&1 | tee .ci/logs/kb-sweeps-pytest.txt
status=${PIPESTATUS[0]}
last=$(grep -E '[0-9]+ (passed|failed|error)' .ci/logs/kb-sweeps-pytest.txt | tail -n 1)
skipped=$(echo "$last" | sed -n 's/.*\b\([0-9][0-9]*\) skipped.*/\1/p')
[ "$status" -eq 0 ] || fail "pytest $tests: ${last:-no summary} (see .ci/logs/kb-sweeps-pytest.txt)"
[ -z "$skipped" ] || fail "$skipped tests skipped: torch or mindspore is missing from $venv (${last})"
echo "stage 36-kb-sweeps: passed: $last"
