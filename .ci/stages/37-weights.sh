#!/usr/bin/env bash
# Stage 37: `weights convert` and `compare` (issue 19) with the real torch 2.13.0 and mindspore 2.10.0 on CPU.
# Shares stage 30's venv and cache directory (torch, mindspore and numpy<2 are already there when stage 30 ran;
# safetensors and h5py are added), as stage 35 does. keras 3 (for the Keras tests; it runs on its torch backend)
# goes into a directory of its own put on PYTHONPATH for this stage only, so that stage 30's `kb verify` never
# sees a keras it would take for TensorFlow's; its ml-dtypes is pinned to a release for numpy 1. Runs `pytest tests/weights`: three model families
# converted with every parameter mapped and compared within 1e-4, a swapped map caught at its first layer, the
# torch.load fix executed on the converted checkpoint, Keras .keras/.h5 weights converted and computed the same. Fails when a test fails or when no test ran (skips count as not run).
# Measured here: 2:01 with stage 30's venv ready and keras already downloaded once (3:31 the first time), on 2
# shared cores; most of it is importing torch and mindspore.
stage=37-weights
source "$(dirname "$0")/../lib/shared-venv.sh"
echo "+ pip install torch==2.13.0 mindspore==2.10.0 numpy<2 safetensors h5py pytest (into $venv)"
"$venv/bin/pip" install -q torch==2.13.0 mindspore==2.10.0 "numpy<2" "safetensors>=0.4,<1" "h5py>=3.10,<4" "pytest>=8,<10" \
  || fail "torch 2.13.0, mindspore 2.10.0, safetensors, h5py or pytest could not be installed"
keras_site="$work/keras-site"
echo "+ pip install --target $keras_site keras (and its pure-Python dependencies)"
"$venv/bin/pip" install -q --upgrade --no-deps --target "$keras_site" "keras>=3.10,<4" namex optree absl-py rich markdown-it-py \
  mdurl "ml-dtypes>=0.4,<0.6" || fail "keras could not be installed into $keras_site"
"$venv/bin/pip" install -q -e "$root" || fail "ascend-migrate does not install into the weights venv"

echo "+ pytest tests/weights"
PYTHONPATH="$keras_site" "$venv/bin/python" -m pytest -q -rs -p no:cacheprovider tests/weights 2>&1 | tee .ci/logs/weights-pytest.txt
status=${PIPESTATUS[0]}
last=$(grep -E '[0-9]+ (passed|failed|error)' .ci/logs/weights-pytest.txt | tail -n 1)
# Skips other than the tests of a machine without torch (they skip here by design) mean a package is missing.
missing=$(grep '^SKIPPED' .ci/logs/weights-pytest.txt | grep -v 'torch is installed here')
passed=$(echo "$last" | sed -n 's/.*\b\([0-9][0-9]*\) passed.*/\1/p')
[ "$status" -eq 0 ] || fail "pytest tests/weights: ${last:-no summary} (see .ci/logs/weights-pytest.txt)"
[ -n "$passed" ] && [ "$passed" -gt 0 ] || fail "no weights test ran: ${last:-no summary}"
[ -z "$missing" ] || fail "weights tests skipped for a missing package: $(echo "$missing" | head -n 3)"
echo "stage 37-weights: passed: $last"
