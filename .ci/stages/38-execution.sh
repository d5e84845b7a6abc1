#!/usr/bin/env bash
# Stage 38: the MindSpore route proven by execution (issue 17). Each program of tests/execution/corpus is fixed
# with `ascend-migrate fix --write --unsafe --target mindspore` (ops/nn era 2.4 and mint era 2.10) and run with
# the real mindspore 2.10.0 on CPU; a re-scan must still report what the fix left. mindspore (and torch, which
# the unfixed programs import) is a dependency of this stage only: it shares stage 30's venv and cache
# directory (both are there when stage 30 ran). Runs `pytest tests/execution`; fails when a test fails or when
# no test ran. It also runs the one precision test that needs mindspore (mindspore 2.10.0's Tensor has dim() and
# numpy(), the reason those MS105 rows are not reported). Measured: 14 min 45 s for the 36 tests of tests/execution
# (each a fix and a few training steps; with test_manual_sgd.py, 13 s, and test_data_pipeline.py, 44 s) on 2 cores
# shared with 8 agents' work; expect less on an idle machine.
# tests/execution/test_tensorflow_route.py (issue 21: the tf_* corpus programs fixed from TensorFlow/Keras, TensorFlow
# not installed here) adds 18 tests (6 programs x 2 eras + 6 re-scans): 7 min 50 s to 10 min 38 s wall and
# about 2 min of CPU on the same shared cores (load average about 13).
# test_mindspore_route.py alone: 9 min 08 s (its mint era now runs under tests/execution/mint_on_cpu.py,
# past model construction); 12 min 07 s on 2026-12-02 with regression running to its end in both eras (busy cores).
# test_format_spec.py (what mindspore 2.10's Tensor.__format__ accepts, the MS230 entry's source): 18 s.
# test_gan_step.py (the G step made again, against torch): 36 s; test_lbfgs.py (the written L-BFGS against torch's,
# a fixed program against torch, time_sequence_prediction in float32 to its end, why not mindspore.scipy's minimize):
# the float32 run alone 92 s of CPU (8 min 36 s wall on the shared cores), the rest 86 s for minimize's compilation
# and about 3 min wall for the comparisons.
# test_loader_dataset_size.py and test_dropout2d_input.py (issue 17, mnist): 37 s each (a fix and two short runs),
# measured with the shared cores busy; mnist and mnist_rnn now run their epoch to the end in the ops/nn era.
# Session 8 (issue 17, a new user's programs): amp_cifar, finetune and text_classifier add 9 tests (3 programs x 2
# eras + 3 re-scans): 3 min 17 s wall; test_user_program_fixes.py (5 tests, each fix run beside torch): 1 min 51 s
# wall, both measured with 2 cores shared by 7 agents.
# Session 9 (embbag): test_embedding_bag.py (92 tests: the written EmbeddingBag beside torch's, a fixed script in both
# eras) 29 s of CPU, 1 min 52 s wall on 2 cores shared by 7 agents.
# Session 7 (dcgan7): test_dcgan_resumes_from_its_own_checkpoints (two dcgan runs, ops/nn era) 71 s,
# test_max_pool2d_positions.py and test_dropout2d_input.py (now with the function form) together 75 s, busy cores.
# Session 10 (mintera10): test_mint_on_cpu.py (each emulated mint op's kernel missing on CPU, 7 interpreters) and
# test_line_completion.py (the mint-era `builds` check on small scripts) together 21 s of CPU, 46 s wall; the mint era of
# test_mindspore_route.py (-k mint, 15 runs) 120 s of CPU before (delayed parameter initialisation) and 81 s after.
# Session 10 (npindex10): test_numpy_index.py (a tensor indexed by NumPy integers, fixed in both eras, against torch;
# 3 tests) 72 s wall, 18 s of CPU on 2 cores shared by 7 agents.
stage=38-execution
source "$(dirname "$0")/../lib/shared-venv.sh"
echo "+ pip install torch==2.13.0 mindspore==2.10.0 numpy<2 pytest (into $venv)"
"$venv/bin/pip" install -q torch==2.13.0 mindspore==2.10.0 "numpy<2" "pytest>=8,<10" || fail "torch 2.13.0, mindspore 2.10.0 or pytest could not be installed"
"$venv/bin/pip" install -q -e "$root" || fail "ascend-migrate does not install into the execution venv"

echo "+ pytest tests/execution (and the mindspore check of tests/precision/test_messages.py)"
"$venv/bin/python" -m pytest -q -rs -p no:cacheprovider tests/execution \
  tests/precision/test_messages.py::test_mindspore_tensors_have_dim_and_numpy 2>&1 | tee .ci/logs/execution-pytest.txt
status=${PIPESTATUS[0]}
last=$(grep -E '[0-9]+ (passed|failed|error)' .ci/logs/execution-pytest.txt | tail -n 1)
passed=$(echo "$last" | sed -n 's/.*\b\([0-9][0-9]*\) passed.*/\1/p')
[ "$status" -eq 0 ] || fail "pytest tests/execution: ${last:-no summary} (see .ci/logs/execution-pytest.txt)"
[ -n "$passed" ] && [ "$passed" -gt 0 ] || fail "no execution test ran: ${last:-no summary}"
echo "stage 38-execution: passed: $last"
