"""A TensorFlow project scanned for the npu route gets one note saying the route is for PyTorch, not silence."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

KERAS_FILE = "import numpy as np\nimport tensorflow as tf\n\nx = np.zeros((2, 3)).astype('float32')\ny = tf.reduce_mean(x)\n"
TORCH_AND_TF_FILE = "import tensorflow as tf\nimport torch\n\nz = torch.zeros(2)\n"


def _scan(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ascend_migrate", "scan", "--format", "json", *arguments],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120, env=dict(os.environ))


def test_tensorflow_files_get_one_note_on_the_npu_route_and_no_findings(tmp_path):
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(KERAS_FILE, encoding="utf-8")
    (tmp_path / "both.py").write_text(TORCH_AND_TF_FILE, encoding="utf-8")
    completed = _scan(tmp_path, ".")
    assert json.loads(completed.stdout)["findings"] == []
    assert completed.stderr == (
        "ascend-migrate: note: 2 files use TensorFlow/Keras and not PyTorch (a.py, b.py); the npu route (torch_npu) is "
        "for PyTorch and reports nothing on them: scan them with --target mindspore\n"
    )


def test_no_note_for_the_mindspore_route(tmp_path):
    (tmp_path / "a.py").write_text(KERAS_FILE, encoding="utf-8")
    completed = _scan(tmp_path, "--target", "mindspore", ".")
    assert "note" not in completed.stderr
    assert [finding["api"] for finding in json.loads(completed.stdout)["findings"]] == ["tensorflow.reduce_mean"]
