"""A DataLoader without collate_fn over a sequence the fix knows as one (a map-style Dataset class of the file, a
list display or comprehension; issue 17, pytorch/examples' siamese_network) becomes the SequenceLoader of
fixes/templates/sequence_data.py with torch's default collate: the program below (torch 2.13.0) and what
`fix --write --unsafe --target mindspore` makes of it (mindspore 2.10.0, both eras) print the same batches,
unshuffled: the same values, dtypes (NumPy's names), shapes and structure for samples that are tuples of tensors,
dicts (int64, float64, bool, strings), NumPy arrays and scalars, ints, floats, lists, namedtuples and a list of
tuples; drop_last and len(); options passed by `**options` built as siamese_network builds them; and a TypeError
naming the sample's type where torch raises one (an `object()` sample). Needs both packages in this interpreter
(CI stage 38-execution); skips cleanly without them.
"""

from __future__ import annotations

import pytest
from tests.execution.side_by_side import original_and_fixed, printed

pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("mindspore")

PROGRAM = '''\
import collections
import json

import numpy
import torch
from torch.utils.data import DataLoader, Dataset

Point = collections.namedtuple("Point", ["x", "y"])


class Pairs(Dataset):
    def __init__(self, size):
        super().__init__()
        self.size = size

    def __getitem__(self, index):
        return torch.ones(2, 3) * index, torch.tensor(index % 3)

    def __len__(self):
        return self.size


class Records(Pairs):
    def __getitem__(self, index):
        return {"x": torch.tensor([0, 1, 2]) * index, "label": index, "weight": 0.5 * index, "name": f"s{index}", "flag": index % 2 == 0}


class Arrays(Dataset):
    def __getitem__(self, index):
        return numpy.full((2,), index, dtype=numpy.float32), numpy.int32(index), numpy.float64(index / 2)

    def __len__(self):
        return 5


class Numbers(Dataset):
    def __init__(self, kind):
        self.kind = kind

    def __getitem__(self, index):
        if self.kind == "int":
            return index * 3
        if self.kind == "float":
            return index / 4
        if self.kind == "list":
            return [index, float(index) + 0.5]
        if self.kind == "point":
            return Point(torch.tensor([index, index]).float(), index)
        return object()

    def __len__(self):
        return 5


def described(value):
    """A JSON picture of a batch: tensors by values, dtype and shape; containers by kind."""
    if type(value).__module__.split(".")[0] in ("torch", "mindspore"):
        array = getattr(value, "asnumpy", None) or getattr(value, "numpy")
        array = array()
        return {"tensor": array.tolist(), "dtype": array.dtype.name, "shape": list(array.shape)}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {type(value).__name__: [described(item) for item in value]}
    if isinstance(value, dict):
        return {"dict": {key: described(item) for key, item in value.items()}}
    if isinstance(value, (list, tuple)):
        return {type(value).__name__: [described(item) for item in value]}
    return {type(value).__name__: value}


def main(accelerated):
    options = {"batch_size": 3}
    if accelerated:
        extra = {"num_workers": 1, "pin_memory": True, "shuffle": True}
        options.update(extra)
    loaders = [DataLoader(Pairs(5), batch_size=2),
               DataLoader(Pairs(7), batch_size=3, drop_last=True),
               DataLoader(Records(4), batch_size=3, shuffle=False),
               DataLoader(Arrays(), 2),
               DataLoader(Numbers("int"), batch_size=2),
               DataLoader(Numbers("float"), batch_size=2),
               DataLoader(Numbers("list"), batch_size=4),
               DataLoader(Numbers("point"), batch_size=5),
               DataLoader([(index, index * 0.5) for index in range(5)], batch_size=2),
               DataLoader(Pairs(8), **options)]
    try:
        next(iter(DataLoader(Numbers("object"), batch_size=2)))
        refused = None
    except TypeError as error:
        refused = "object" in str(error)
    print(json.dumps({"lengths": [len(loader) for loader in loaders],
                      "batches": [[described(batch) for batch in loader] for loader in loaders],
                      "refused": refused}))


main(False)
'''


@pytest.mark.parametrize("version", ["2.4", "2.10"], ids=["ops-nn", "mint"])
def test_the_written_loader_collates_as_torchs_default_collate(tmp_path, version):
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM, version)
    assert "import torch" not in text and "from torch" not in text, text
    assert text.count("class SequenceLoader") == 1 and "SequenceLoader(Pairs(8), **options)" in text, text
    torch_run, mindspore_run = printed(original), printed(fixed)
    assert torch_run["lengths"] == [3, 2, 2, 3, 3, 3, 2, 1, 3, 3]  # drop_last: Pairs(7) in batches of 3 gives 2
    assert torch_run["refused"] is True and mindspore_run["refused"] is True
    for loader, (torch_batches, mindspore_batches) in enumerate(zip(torch_run["batches"], mindspore_run["batches"], strict=True)):
        assert mindspore_batches == torch_batches, loader
    assert mindspore_run == torch_run
    records = torch_run["batches"][2][0]["dict"]
    assert [records[key]["dtype"] for key in ("x", "label", "weight", "flag")] == ["int64", "int64", "float64", "bool"]
    assert records["name"] == {"list": [{"str": "s0"}, {"str": "s1"}, {"str": "s2"}]}
