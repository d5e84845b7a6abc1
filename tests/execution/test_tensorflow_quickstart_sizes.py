"""The TensorFlow quickstart for experts (corpus/tf_quickstart_advanced) fixed for MindSpore, then completed by hand
as its MS270 finding says: the sizes it writes in terms of the input's height H, width W and channels C get the
numbers of the arrays the program feeds (28 x 28 x 1: `rng.integers(..., size=(128, 28, 28))[..., None]`), and
construct transposes its NHWC input to NCHW. The completed program must run to its end with the real mindspore 2.10
on CPU (no TensorFlow installed) and no TensorFlow import left: so the finding's expressions give the sizes the
layers meet, and the fixes after the model (tf.newaxis, the loss object with its arguments swapped inside the
GradientTape rewrite and in test_step, the metrics) run. tests/execution/test_tensorflow_route.py checks where the
fixed program stops without that completion. Needs mindspore (CI stage 38-execution); skips cleanly without it."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tests.execution.test_tensorflow_route import CORPUS, MINT, OPS_NN, RUN_SECONDS, tensorflow_imports

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mindspore") is None, reason="needs mindspore 2.10 (CI stage 38-execution)")

SCRIPT = "quickstart_advanced.py"
DATA_SHAPE = {"H": 28, "W": 28, "C": 1}  # the corpus program's images after x[..., None]
TRANSPOSE = "x = x.transpose(0, 3, 1, 2)"  # the finding's first option for the layout


def _ascend_migrate(*arguments: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ascend_migrate", *arguments], cwd=cwd, capture_output=True, text=True, timeout=RUN_SECONDS)


class _Numbers(ast.NodeTransformer):
    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.Constant(DATA_SHAPE[node.id]) if node.id in DATA_SHAPE else node


def _completed(directory: Path) -> str:
    """The fixed program with each `self.NAME = CELL` of the original's MS270 finding written in, the data's numbers
    put in (the finding is read before the fix: once its class is a Cell the rule no longer reads it as Keras')."""
    scan = _ascend_migrate("scan", "--target", "mindspore", "--format", "json", SCRIPT, cwd=CORPUS / "tf_quickstart_advanced")
    (finding,) = [finding for finding in json.loads(scan.stdout)["findings"] if finding["code"] == "MS270"]
    assert TRANSPOSE in finding["message"]
    cells = re.findall(r"self\.(\w+) = (.+?)(?=; self\.|\. Put in)", finding["message"])
    assert [name for name, _ in cells] == ["conv1", "d1"], finding["message"]
    text = (directory / SCRIPT).read_text(encoding="utf-8")
    for name, cell in cells:
        numbers = ast.unparse(_Numbers().visit(ast.parse(cell, mode="eval")))
        text, count = re.subn(rf"self\.{name} = .*", lambda _, name=name, numbers=numbers: f"self.{name} = {numbers}", text)
        assert count == 1
    text, count = re.subn(r"\n(\s*)def construct\(self, x\):\n", lambda match: f"{match.group(0)}{match.group(1)}  {TRANSPOSE}\n", text)
    assert count == 1
    # The Keras layers import is what the finding's layers still used.
    return "\n".join(line for line in text.splitlines() if not line.startswith("from tensorflow")) + "\n"


@pytest.mark.parametrize("era", [OPS_NN, MINT], ids=["ops-nn", "mint"])
def test_the_quickstart_runs_with_the_sizes_its_finding_names(era: str, tmp_path: Path) -> None:
    directory = tmp_path / "tf_quickstart_advanced"
    shutil.copytree(CORPUS / "tf_quickstart_advanced", directory, ignore=shutil.ignore_patterns("SOURCE.md", "__pycache__"))
    fix = _ascend_migrate("fix", "--write", "--unsafe", "--target", "mindspore", "--mindspore-version", era, ".", cwd=directory)
    assert fix.returncode in (0, 1) and "Traceback" not in fix.stderr, fix.stderr
    (directory / SCRIPT).write_text(_completed(directory), encoding="utf-8")
    assert tensorflow_imports(directory / SCRIPT) == []
    environment = dict(os.environ, GLOG_v="3", PYTHONWARNINGS="ignore")
    run = subprocess.run([sys.executable, SCRIPT], cwd=directory, capture_output=True, text=True, timeout=RUN_SECONDS, env=environment)
    tail = "\n".join((run.stdout + run.stderr).splitlines()[-25:])
    assert run.returncode == 0, f"{era}: exited {run.returncode}:\n{tail}"
    assert re.search(r"MindSpore version: \d", run.stdout) and re.search(r"Epoch 1, Loss: \d+\.\d\d, Accuracy: ", run.stdout), tail


def test_the_newaxis_fix_indexes_a_mindspore_tensor_as_tensorflow_does() -> None:
    from ascend_migrate.analysis.engine import analyze_file
    from ascend_migrate.config import Settings
    from ascend_migrate.fixes import fix_all
    from ascend_migrate.kb.index import KnowledgeBase

    source = ("import numpy as np\nimport mindspore\nimport tensorflow as tf\n"
              "column = mindspore.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))[..., tf.newaxis]\n"
              "row = mindspore.Tensor(np.arange(3, dtype=np.float32))[tf.newaxis, :]\n")
    knowledge_base = KnowledgeBase.load(Path(__file__).resolve().parents[2] / "mappings")
    fixed = fix_all(source, analyze_file(source, "index.py", Settings(target="mindspore"), knowledge_base).findings, unsafe=True).text
    assert "tensorflow" not in fixed and "[..., None]" in fixed
    namespace: dict = {}
    exec(compile(fixed, "index.py", "exec"), namespace)  # what the fix wrote, run with mindspore
    assert namespace["column"].shape == (2, 3, 1) and namespace["row"].shape == (1, 3)  # tensorflow 2.21 gives these
