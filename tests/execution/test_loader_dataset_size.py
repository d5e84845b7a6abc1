"""`len(loader.dataset)`, fixed for MindSpore (MS215: `loader.children[0].get_dataset_size()` once the loader is the
fixed pipeline), counts what torch counts (issue 17, mnist): a program passes loaders (shuffled, with drop_last,
from a TensorDataset variable and inline, options from a `**kwargs` dict) to a function that reads
`len(loader.dataset)` and `len(loader)`, and reads `len(local.dataset)` where a loader is built; it is fixed with
`fix --write --unsafe --target mindspore --mindspore-version 2.4` and both versions run (torch 2.13.0, mindspore
2.10.0 on CPU) and print the same numbers. Needs both packages in this interpreter (CI stage 38-execution); skips
cleanly without them.
"""

from __future__ import annotations

import pytest
from tests.execution.side_by_side import original_and_fixed, printed

pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("mindspore")

PROGRAM = '''\
import json

import numpy
import torch


def sizes(loader):
    batches = sum(1 for _ in loader)
    return [len(loader.dataset), len(loader), batches]


def main():
    kwargs = {'batch_size': 4, 'drop_last': True}
    rows = torch.tensor(numpy.arange(22.0).reshape(11, 2))
    labels = torch.tensor(numpy.arange(11))
    dataset1 = torch.utils.data.TensorDataset(rows, labels)
    shuffled = torch.utils.data.DataLoader(dataset1, batch_size=3, shuffle=True)
    dropping = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(rows, labels), **kwargs)
    local = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(rows[:7], labels[:7]), batch_size=2)
    print(json.dumps([sizes(shuffled), sizes(dropping), len(local.dataset)]))


main()
'''


def test_len_of_a_fixed_loaders_dataset_counts_torchs_samples(tmp_path):
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM)
    assert "return [loader.children[0].get_dataset_size(), len(loader), batches]" in text, text
    assert "local.children[0].get_dataset_size()" in text and "import torch" not in text, text
    expected = printed(original)
    assert expected == [[11, 4, 4], [11, 2, 2], 7]  # samples, batches (len), batches (iterated); drop_last drops 3
    assert printed(fixed) == expected
