#!/usr/bin/env bash
# Stage 39: the TensorFlow/Keras side of the knowledge base against the real packages (issue 21).
# A venv of its own gets tensorflow-cpu 2.21.0, keras 3.15.1 and tf_keras 2.21.0 from PyPI (pinned: the inventory test
# compares the committed inventory with what exactly these releases export) (no mindspore: stage 30 checks the
# MindSpore targets), then runs tests/tensorflow_route, whose test_tensorflow_installed.py skips without these packages:
#   every source name of the hand-written TensorFlow tables is public in tensorflow 2.21.0 / keras 3, and
#   mappings/tensorflow_inventory.yaml is exactly what tools/generate_mappings/tensorflow_inventory.py collects now.
# Then the numeric battery (tools/tensorflow_battery.py): the TensorFlow side in this venv, the MindSpore side in
# stage 30's venv (mindspore 2.10.0; numpy<2 keeps the two apart), and the comparison must equal the committed
# mappings/verification/tensorflow_numeric.yaml.
# Fails on a failed test, when the installed-package tests did not run, or when the battery could not run or
# its record differs from the committed one.
# Budget: measured here 11 min 21 s wall with a cold venv on 2 cores shared with other test runs (72 s of CPU;
# most of the wall time is the tensorflow-cpu download and install), of which tests/tensorflow_route took 1 min 45 s.
# The battery adds 26 s wall (7.6 s CPU: TensorFlow side 18 s wall, MindSpore side 8 s; measured 2026-12-01, shared cores).
# The Keras layer check (tools/keras_layer_check.py) adds 23 s wall (8.6 s CPU: Keras side 15 s, MindSpore side 8 s; 2026-12-02).
# The page check (tools/tensorflow_page_check.py, 119 cases behind the 53 see-the-diff-page notes and 23 withdrawn
# renames) adds 21-47 s wall (11.6-12.7 s CPU; measured 2026-12-02 on the shared cores, the scipy wheel already there).
set -u
cd "$(dirname "$0")/../.."
root=$(pwd)
work="${ASCEND_MIGRATE_TENSORFLOW_DIR:-${TMPDIR:-/tmp}/ascend-migrate-tensorflow}"
venv="$work/venv"
mkdir -p "$work" .ci/logs
export PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONWARNINGS=ignore TF_CPP_MIN_LOG_LEVEL=3

skip() { echo "stage 39-tensorflow: SKIPPED: $1"; exit 0; }
fail() { echo "stage 39-tensorflow: FAILED: $1"; exit 1; }

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" || skip "python3 -m venv is not available"
fi
echo "+ pip install tensorflow-cpu==2.21.0 keras==3.15.1 tf_keras==2.21.0 (into $venv)"
if ! "$venv/bin/pip" install -q tensorflow-cpu==2.21.0 keras==3.15.1 tf_keras==2.21.0 >.ci/logs/tensorflow-install.log 2>&1; then
  skip "tensorflow-cpu 2.21.0 / keras 3.15.1 / tf_keras 2.21.0 could not be installed from PyPI"
fi
"$venv/bin/pip" install -q -e "$root[test]" >>.ci/logs/tensorflow-install.log 2>&1 || fail "ascend-migrate does not install into the tensorflow venv"

echo "+ pytest tests/tensorflow_route -rs"
"$venv/bin/python" -m pytest -q -rs tests/tensorflow_route >.ci/logs/tensorflow-tests.txt 2>&1
status=$?
tail -n 3 .ci/logs/tensorflow-tests.txt
if grep -q "SKIPPED.*test_tensorflow_installed" .ci/logs/tensorflow-tests.txt; then
  fail "the installed-package tests were skipped (see .ci/logs/tensorflow-tests.txt)"
fi
[ "$status" -eq 0 ] || fail "tests/tensorflow_route failed (see .ci/logs/tensorflow-tests.txt)"

mindspore_venv="${ASCEND_MIGRATE_KB_VERIFY_DIR:-${TMPDIR:-/tmp}/ascend-migrate-kb-verify}/venv"
"$mindspore_venv/bin/python" -c "import mindspore" >/dev/null 2>&1 || fail "no mindspore in stage 30's venv ($mindspore_venv): run stage 30 first"
echo "+ tools/tensorflow_battery.py: tensorflow in $venv, mindspore in $mindspore_venv"
"$venv/bin/python" -m tools.tensorflow_battery run --side tensorflow --output "$work/battery-tensorflow.json" >.ci/logs/tensorflow-battery.txt 2>&1 \
  || fail "the TensorFlow side of the battery failed (see .ci/logs/tensorflow-battery.txt)"
GLOG_v=3 "$mindspore_venv/bin/python" -m tools.tensorflow_battery run --side mindspore --output "$work/battery-mindspore.json" >>.ci/logs/tensorflow-battery.txt 2>&1 \
  || fail "the MindSpore side of the battery failed (see .ci/logs/tensorflow-battery.txt)"
"$venv/bin/python" -m tools.tensorflow_battery compare "$work/battery-tensorflow.json" "$work/battery-mindspore.json" \
  --output "$work/tensorflow_numeric.yaml" >>.ci/logs/tensorflow-battery.txt 2>&1 || fail "the battery comparison failed"
cmp -s "$work/tensorflow_numeric.yaml" mappings/verification/tensorflow_numeric.yaml \
  || fail "the battery's record differs from mappings/verification/tensorflow_numeric.yaml (diff it with $work/tensorflow_numeric.yaml)"
echo "+ tools/keras_layer_check.py: the Keras layers and the Cells the model rewrites write, side by side"
"$venv/bin/python" -m tools.keras_layer_check keras --output "$work/keras-layers.npz" >.ci/logs/keras-layers.txt 2>&1 \
  || fail "the Keras side of the layer check failed (see .ci/logs/keras-layers.txt)"
GLOG_v=3 PYTHONPATH="$root/server" "$mindspore_venv/bin/python" -m tools.keras_layer_check mindspore "$work/keras-layers.npz" \
  --output "$work/keras_layers_numeric.yaml" >>.ci/logs/keras-layers.txt 2>&1 || fail "the MindSpore side of the layer check failed (see .ci/logs/keras-layers.txt)"
cmp -s "$work/keras_layers_numeric.yaml" mappings/verification/keras_layers_numeric.yaml \
  || fail "the layer check's record differs from mappings/verification/keras_layers_numeric.yaml (diff it with $work/keras_layers_numeric.yaml)"
echo "+ tools/tensorflow_page_check.py: the outcomes the see-the-diff-page notes rest on, both sides"
# Keras' legacy image functions (random_rotation, random_shear, random_shift) import scipy: a wheel beside the venv,
# not in it (the inventory test compares exactly what the pinned packages export).
"$venv/bin/pip" install -q --no-deps --target "$work/scipy" scipy==1.17.1 >>.ci/logs/tensorflow-install.log 2>&1 \
  || fail "scipy 1.17.1 (for Keras' legacy image functions) could not be installed from PyPI"
rm -rf "$work/pages"
PYTHONPATH="$work/scipy" "$venv/bin/python" -m tools.tensorflow_page_check run --side tensorflow --output "$work/pages" \
  >.ci/logs/tensorflow-pages.txt 2>&1 || fail "the TensorFlow side of the page check failed (see .ci/logs/tensorflow-pages.txt)"
GLOG_v=3 "$mindspore_venv/bin/python" -m tools.tensorflow_page_check run --side mindspore --output "$work/pages" \
  >>.ci/logs/tensorflow-pages.txt 2>&1 || fail "the MindSpore side of the page check failed (see .ci/logs/tensorflow-pages.txt)"
"$mindspore_venv/bin/python" -m tools.tensorflow_page_check check "$work/pages" >>.ci/logs/tensorflow-pages.txt 2>&1 \
  || fail "an outcome a TensorFlow note rests on changed (see .ci/logs/tensorflow-pages.txt; notes in corrections.TENSORFLOW_PAGE_DIFFERENCES)"
echo "stage 39-tensorflow: passed ($(tail -n 1 .ci/logs/tensorflow-tests.txt); battery: $(tail -n 1 .ci/logs/tensorflow-battery.txt))"
