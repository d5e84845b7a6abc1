"""The data pipeline's `**kwargs` fix gives the batches torch's DataLoader gives (issue 17): a program building its
loader options in a dict, as pytorch/examples' mnist does (`train_kwargs = {'batch_size': ...}`,
`train_kwargs.update(accel_kwargs)` under a condition), is fixed with `fix --write --unsafe --target mindspore
--mindspore-version 2.4`; the original (torch 2.13.0) and the fixed program (mindspore 2.10.0) then print every
batch of the same data, each branch of the condition: the same batches, in the same order when unshuffled, the
same multiset of rows when shuffled. Needs both packages in this interpreter (CI stage 38-execution); skips
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
import sys

import numpy
import torch


def main(use_accel):
    train_kwargs = {'batch_size': 4}
    test_kwargs = {'batch_size': 3, 'drop_last': True}
    if use_accel:
        accel_kwargs = {'num_workers': 1, 'persistent_workers': True, 'pin_memory': True, 'shuffle': True}
        train_kwargs.update(accel_kwargs)
        test_kwargs.update(accel_kwargs)
    dataset1 = torch.utils.data.TensorDataset(torch.tensor(numpy.arange(20.0).reshape(10, 2)), torch.tensor(numpy.arange(10)))
    dataset2 = torch.utils.data.TensorDataset(torch.tensor(numpy.arange(20.0).reshape(10, 2)), torch.tensor(numpy.arange(10)))
    train_loader = torch.utils.data.DataLoader(dataset1, **train_kwargs)
    test_loader = torch.utils.data.DataLoader(dataset2, **test_kwargs)
    batches = []
    for loader in (train_loader, test_loader):
        batches.append([[x.numpy().tolist(), y.numpy().tolist()] for x, y in loader])
    print(json.dumps(batches))


main(sys.argv[1] == "accel")
'''


# One dataset per loader, as mnist has: a MindSpore dataset node feeds one pipeline only ("The data pipeline is
# not a tree"), so two loaders over one TensorDataset variable do not run after the fix (docs/fixes.md).


def _rows(batches: list) -> list:
    return sorted((tuple(x), y) for features, labels in batches for x, y in zip(features, labels, strict=True))


def test_a_loader_built_from_a_kwargs_dict_gives_torchs_batches(tmp_path):
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM)
    assert "DataLoader" not in text and 'train_kwargs.get("shuffle", False)' in text, text
    plain_torch, plain_mindspore = printed(original, "cpu"), printed(fixed, "cpu")
    assert plain_mindspore == plain_torch  # unshuffled: the same batches in the same order
    assert [len(batch[1]) for batch in plain_torch[0]] == [4, 4, 2] and [len(batch[1]) for batch in plain_torch[1]] == [3, 3, 3]
    shuffled_torch, shuffled_mindspore = printed(original, "accel"), printed(fixed, "accel")
    for torch_batches, mindspore_batches in zip(shuffled_torch, shuffled_mindspore, strict=True):
        assert [len(batch[1]) for batch in mindspore_batches] == [len(batch[1]) for batch in torch_batches]
    assert _rows(shuffled_mindspore[0]) == _rows(shuffled_torch[0])  # every row once, in some order
    assert len(_rows(shuffled_mindspore[1])) == 9  # drop_last: 9 of the 10 rows, whichever the shuffle left out
