"""The classes the MindSpore route writes for a DataLoader with a collate_fn and for random_split over a Python
sequence (fixes/templates/sequence_data.py, issue 17) batch and split as torch does: a program shaped like
pytorch/tutorials' text classifier (a list of (label, token ids) pairs of varying length, a collate_fn building
(text, offsets, labels), random_split by counts, by fractions and with a seeded generator, a loader shuffled by a seeded generator, a map-style Dataset
class calling super().__init__(), whose base the fix makes `object`) is fixed with `fix --write --unsafe --target mindspore` for each era, and the original (torch 2.13.0) and the
fixed program (mindspore 2.10.0) print what they computed. Unshuffled, the loaders over the list and over the
Dataset class give the same batches in the same order; shuffled, the same rows in batches of the same sizes; every
split has torch's part lengths and is a partition of the source (the order differs: a permutation drawn by NumPy,
the same for the same generator seed, not torch's). Needs both packages in this interpreter (CI stage 38-execution);
skips cleanly without them.
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

import torch
from torch.utils.data import DataLoader, Dataset, random_split


def collate(batch):
    labels = torch.tensor([label for label, _ in batch])
    lengths = [len(tokens) for _, tokens in batch]
    offsets = torch.tensor([0] + lengths[:-1]).cumsum(dim=0)
    text = torch.cat([tokens for _, tokens in batch])
    return text, offsets, labels


class Pairs(Dataset):
    def __init__(self, size):
        super().__init__()
        self.size = size

    def __getitem__(self, index):
        return index % 4, torch.tensor(list(range(index, index + 1 + index % 5)))

    def __len__(self):
        return self.size


def ids(part):
    return sorted(int(part[position][1][0]) for position in range(len(part)))


def firsts(loader):
    return [[text.numpy().tolist()[start] for start in offsets.numpy().tolist()] for text, offsets, _ in loader]


def main(shuffle):
    samples = [(index % 4, torch.tensor(list(range(index, index + 1 + index % 5)))) for index in range(23)]
    counted = random_split(samples, [17, 6])
    fractions = random_split(samples, [0.7, 0.2, 0.1])
    seeded = random_split(Pairs(10), [0.5, 0.5], generator=torch.Generator().manual_seed(7))
    again = random_split(Pairs(10), [0.5, 0.5], generator=torch.Generator().manual_seed(7))
    loaders = [DataLoader(samples, batch_size=5, shuffle=shuffle, collate_fn=collate),
               DataLoader(counted[0], batch_size=4, shuffle=shuffle, drop_last=True, collate_fn=collate),
               DataLoader(counted[1], 4, shuffle, collate_fn=collate, num_workers=0),
               DataLoader(Pairs(7), batch_size=3, shuffle=shuffle, collate_fn=collate)]
    seeded_orders = [firsts(DataLoader(samples, batch_size=23, shuffle=True, collate_fn=collate,
                                       generator=torch.Generator().manual_seed(3))) for _ in range(2)]
    batches = [[[text.numpy().tolist(), offsets.numpy().tolist(), labels.numpy().tolist()] for text, offsets, labels in loader]
               for loader in loaders]
    print(json.dumps({
        "lengths": [[len(part) for part in split] for split in (counted, fractions, seeded)],
        "parts": [[ids(part) for part in split] for split in (counted, fractions, seeded)],
        "seeded_again": [ids(part) == ids(other) for part, other in zip(seeded, again)],
        "seeded_loader": [seeded_orders[0] == seeded_orders[1], seeded_orders[0] != [list(range(23))]],
        "loader_lengths": [len(loader) for loader in loaders],
        "batches": batches,
    }))


main(sys.argv[1] == "shuffle")
'''


def _rows(batches: list) -> list[tuple]:
    """(label, token ids) of every row, the text cut at its offsets."""
    rows = []
    for text, offsets, labels in batches:
        ends = [*offsets[1:], len(text)]
        rows += [(label, tuple(text[start:end])) for label, start, end in zip(labels, offsets, ends, strict=True)]
    return rows


def _sizes(batches: list) -> list[int]:
    return [len(labels) for _, _, labels in batches]


@pytest.fixture(scope="module", params=["2.4", "2.10"], ids=["ops-nn", "mint"])
def programs(request, tmp_path_factory):
    original, fixed, text = original_and_fixed(tmp_path_factory.mktemp(f"sequence-{request.param}"), PROGRAM, request.param)
    assert "import torch" not in text and "from torch" not in text, text
    assert "SequenceLoader(samples, batch_size=5" in text and "RandomSplit(samples, [17, 6])" in text, text
    assert text.count("class SequenceLoader") == 1 and text.count("class RandomSplit") == 1, text
    assert "class Pairs(object):" in text, text
    return original, fixed


@pytest.mark.parametrize("mode", ["plain", "shuffle"])
def test_the_written_loader_and_split_give_torchs_batches_and_parts(programs, mode):
    original, fixed = programs
    torch_run, mindspore_run = printed(original, mode), printed(fixed, mode)
    assert mindspore_run["lengths"] == torch_run["lengths"] == [[17, 6], [17, 4, 2], [5, 5]]
    for run in (torch_run, mindspore_run):
        for split, size in zip(run["parts"], (23, 23, 10), strict=True):
            assert sorted(index for part in split for index in part) == list(range(size))  # a partition of the source
        assert run["seeded_again"] == [True, True]  # the same seed, the same split
        assert run["seeded_loader"] == [True, True]  # the same seed, the same shuffled order
    assert mindspore_run["loader_lengths"] == torch_run["loader_lengths"] == [5, 4, 2, 3]
    over_list, over_first, over_second, over_class = mindspore_run["batches"]
    torch_list, torch_first, torch_second, torch_class = torch_run["batches"]
    if mode == "plain":  # the same batches in the same order (the collate_fn's variable-length text and offsets)
        assert over_list == torch_list and over_class == torch_class
    else:
        assert sorted(_rows(over_list)) == sorted(_rows(torch_list)) and _sizes(over_list) == _sizes(torch_list)
        assert sorted(_rows(over_class)) == sorted(_rows(torch_class)) and _sizes(over_class) == _sizes(torch_class)
        assert _rows(over_list) != _rows(torch_list) or _rows(over_class) != _rows(torch_class)  # shuffled at all
    first, second = mindspore_run["parts"][0]
    assert _sizes(over_first) == _sizes(torch_first) == [4, 4, 4, 4]  # drop_last: 16 of the part's 17 rows
    assert {row[1][0] for row in _rows(over_first)} < set(first)
    assert sorted(row[1][0] for row in _rows(over_second)) == second and _sizes(over_second) == _sizes(torch_second)
