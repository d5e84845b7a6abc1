#!/usr/bin/env bash
# Stage 35: the runtime check (`ascend-migrate run`, issue 18) with real torch. torch 2.13.0 (CPU) is a test
# dependency of this stage only: it shares stage 30's venv and cache directory (torch is already there when
# stage 30 ran) and the torch_npu 2.14.0 wheel stage 30 downloaded (read by tests/runtime/test_surface.py,
# never installed). Runs `pytest tests/runtime`, tests/projects/test_distributed_run.py (migrate --distributed:
# the converted script trains in two processes under the emulation, the launcher runs torchrun, the --auto copy
# runs; 47 s measured on 2 shared cores with torch 2.13.0) and tests/execution/npu (the npu corpus: real training
# scripts fixed with `fix --write --unsafe --target npu`, then run under the emulation; numpy<2 for nanoGPT's and
# GAT's data); fails when a test fails or when no test ran. Measured 2026-12-01 on the shared 2 cores (other jobs
# running), before the projects test joined: 5:48 wall with a fresh venv (torch from the local wheel, the torch_npu
# wheel already there), of which pytest 4:02 for the 25 tests of tests/runtime and tests/execution/npu. Since then
# tests/execution/npu also runs the nine MindSpore-route programs on the npu route (3:13 for the nine) and
# tests/lsp/test_run_program_command.py runs `ascend-migrate.run` through a real client (the test extras are installed
# for pytest-lsp): pytest 13:07 for the 56 tests, measured 2026-12-01 on the 2 shared cores with the whole suite and a
# benchmark running beside it.
# Session 9 added three npu programs (minGPT-ddp under torchrun, the AMP recipe, the torch.compile tutorial: 3:15
# wall for the three on the shared cores, 72 s, 32 s and 60 s; about 12, 5 and 11 CPU seconds each) and two
# runtime tests (torch.compile on the emulated NPU, a resumed training's shapes; about 50 s wall).
# Session 10: the six user-shaped MindSpore-route programs on the npu route too (52 s wall for the six, 3 steps each,
# measured 2026-12-02 with five other agents on the 2 cores).
stage=35-runtime
source "$(dirname "$0")/../lib/shared-venv.sh"
echo "+ pip install torch==2.13.0 numpy<2 pytest (into $venv)"
"$venv/bin/pip" install -q torch==2.13.0 "numpy<2" "pytest>=8,<10" || fail "torch 2.13.0, numpy or pytest could not be installed"
"$venv/bin/pip" install -q -e "$root[test]" || fail "ascend-migrate (with its test extras: pytest-lsp) does not install into the runtime venv"
wheel_dir="$work/torch_npu"
if ! ls "$wheel_dir"/torch_npu-2.14.0-*.whl >/dev/null 2>&1; then
  "$venv/bin/pip" download -q --no-deps torch-npu==2.14.0 -d "$wheel_dir" || echo "the torch_npu 2.14.0 wheel could not be downloaded: the surface tests skip"
fi
wheel=$(ls "$wheel_dir"/torch_npu-2.14.0-*.whl 2>/dev/null | head -n 1)
[ -n "$wheel" ] && export ASCEND_MIGRATE_TORCH_NPU_WHEEL="$wheel"

tests="tests/runtime tests/projects/test_distributed_run.py tests/execution/npu tests/lsp/test_run_program_command.py"
echo "+ pytest $tests"
"$venv/bin/python" -m pytest -q -rs -p no:cacheprovider $tests 2>&1 | tee .ci/logs/runtime-pytest.txt
status=${PIPESTATUS[0]}
last=$(grep -E '[0-9]+ (passed|failed|error)' .ci/logs/runtime-pytest.txt | tail -n 1)
passed=$(echo "$last" | sed -n 's/.*\b\([0-9][0-9]*\) passed.*/\1/p')
[ "$status" -eq 0 ] || fail "pytest $tests: ${last:-no summary} (see .ci/logs/runtime-pytest.txt)"
[ -n "$passed" ] && [ "$passed" -gt 0 ] || fail "no runtime test ran: ${last:-no summary}"
echo "stage 35-runtime: passed: $last"
