"""Device placement on the MindSpore route (analysis/rules/device_placement.py, issue 17): a statement that only
places values (`x, y = x.to(device), y.to(device)`, `model = model.to(device)`) is removed, with `pass` where it was a
block's only statement; one that computes (`inputs, labels = data[0].to(d), data[1].to(d)`, a swap) keeps its value.
The program is run as torch wrote it (torch 2.13.0) and as `fix --write --unsafe` rewrote it (mindspore 2.10.0, both
eras): the same numbers. Needs both packages (CI stage 38-execution); skips cleanly without them."""

from __future__ import annotations

import pytest
from tests.execution.side_by_side import original_and_fixed, printed

pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("mindspore")

PROGRAM = '''\
import json
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(3, 1)
model = model.to(device)
torch.nn.init.constant_(model.weight, 0.5)
torch.nn.init.constant_(model.bias, 0.25)
loader = [(torch.ones(2, 3), torch.ones(2, 1) * 2), (torch.ones(2, 3) * 3, torch.zeros(2, 1))]
seen = []
for data in loader:
    inputs, labels = data[0].to(device), data[1].to(device)
    for tensor in data:
        tensor = tensor.to(device)
    first, second = labels.to(device), inputs.to(device)
    inputs, labels = inputs.to(device), labels.to(device)
    seen.append([float(model(inputs).sum()), float(labels.sum()), float(first.sum()), float(second.sum())])
print(json.dumps(seen))
'''


@pytest.mark.parametrize("version", ["2.4", "2.10"])
def test_placements_removed_and_values_kept_compute_what_torch_computes(tmp_path, version):
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM, version)
    assert "inputs, labels = data[0], data[1]\n" in text and "first, second = labels, inputs\n" in text
    assert "model = model" not in text and "inputs, labels = inputs" not in text
    assert "    for tensor in data:\n        pass\n" in text
    assert "torch" not in text.replace("torch.cuda", "")  # nothing of torch left but what the device line names
    assert printed(fixed) == printed(original)
