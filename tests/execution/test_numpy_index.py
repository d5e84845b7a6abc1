"""A tensor indexed by NumPy integers, fixed for MindSpore (MS217: `t[int(index)]`, MS218: `t[mindspore.Tensor(index)]`),
selects and writes what torch does (issue 17, siamese_network): a program that groups row numbers by class with
np.where, as pytorch/examples' siamese_network does, and reads and writes rows of a tensor with the NumPy integers and
arrays it holds, is fixed with `fix --write --unsafe --target mindspore` for both eras and run (torch 2.13.0, mindspore
2.10.0 on CPU); unfixed, mindspore raises IndexError at the first of them. Needs both packages in this interpreter (CI
stage 38-execution); skips cleanly without them.
"""

from __future__ import annotations

import pytest
from tests.execution.side_by_side import original_and_fixed, printed

pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("mindspore")

PROGRAM = '''\
import json
import random

import numpy as np
import torch


class Rows:
    def __init__(self):
        self.data = torch.tensor(np.arange(24.0).reshape(8, 3), dtype=torch.float32)
        labels = np.arange(8) % 3
        self.grouped_examples = {}
        for label in range(3):
            self.grouped_examples[label] = np.where(labels == label)[0]

    def pick(self, label, position: int):
        index = self.grouped_examples[label][position]
        return self.data[index]


def listed(tensor):
    return np.asarray(tensor).tolist()


random.seed(0)
rows = Rows()
results = {}
results["scalar"] = [listed(rows.pick(label, 0)) for label in range(3)]
results["negative"] = listed(rows.pick(1, -1))
chosen = random.randint(0, rows.grouped_examples[2].shape[0] - 1)
results["random"] = listed(rows.data[rows.grouped_examples[2][chosen]])
scores = np.array([0.1, 0.7, 0.2])
results["argmax"] = listed(rows.data[np.argmax(scores)])
results["pair"] = float(rows.data[np.nonzero(labels_odd := np.arange(8) % 2)[0][1], 2])
results["rows"] = listed(rows.data[rows.grouped_examples[0]])
results["no rows"] = listed(rows.data[np.where(np.arange(8) > 100)[0]])
table = torch.tensor(np.zeros((8, 3)), dtype=torch.float32)
order = np.arange(8)
table[order[2]] = 5.0
table[order[3], 1] = 7.0
table[np.flatnonzero(np.arange(8) > 5)] = 9.0
results["written"] = listed(table)
print(json.dumps(results))
'''


@pytest.mark.parametrize("version", ["2.4", "2.10"])
def test_a_tensor_indexed_by_numpy_integers_selects_and_writes_what_torch_does(tmp_path, version):
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM, version)
    assert "import torch" not in text, text
    for written in ("self.data[int(index)]", "rows.data[int(rows.grouped_examples[2][chosen])]", "rows.data[int(np.argmax(scores))]",
                    "rows.data[int(np.nonzero(labels_odd := np.arange(8) % 2)[0][1]), 2]", "rows.data[mindspore.Tensor(rows.grouped_examples[0])]",
                    "rows.data[mindspore.Tensor(np.where(np.arange(8) > 100)[0])]", "table[int(order[2])]", "table[int(order[3]), 1]",
                    "table[mindspore.Tensor(np.flatnonzero(np.arange(8) > 5))]"):
        assert written in text, (written, text)
    expected = printed(original)
    assert expected["rows"] == [[0.0, 1.0, 2.0], [9.0, 10.0, 11.0], [18.0, 19.0, 20.0]] and expected["no rows"] == []
    assert printed(fixed) == expected


def test_unfixed_mindspore_refuses_the_numpy_indices():
    import mindspore
    import numpy

    data = mindspore.Tensor(numpy.arange(24.0).reshape(8, 3), mindspore.float32)
    for index in (numpy.int64(3), numpy.int32(3), numpy.where(numpy.arange(8) > 5)[0], (numpy.int64(3), 1)):
        with pytest.raises(IndexError):
            data[index]
        with pytest.raises(IndexError):
            data[index] = 1.0
