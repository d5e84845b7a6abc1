"""A tensor indexed by NumPy integers on the MindSpore route (MS217 `t[int(i)]`, MS218 `t[mindspore.Tensor(a)]`; issue 17,
siamese_network), and the NumPy types behind it (analysis/numpy_values.py): text for text with the shipped knowledge
base, and where the type is not known, nothing. tests/execution/test_numpy_index.py runs the fixed forms against torch."""

from __future__ import annotations

import textwrap

import pytest
from tests.fixes.test_mindspore_loader_and_dropout import MINT, OPS_NN, fixed
from tests.fixes.test_mindspore_loader_and_dropout import codes as all_codes

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings


def codes(source: str, version: str = OPS_NN) -> list[tuple[int, str]]:
    return [(line, code) for line, code in all_codes(source, version) if code in ("MS217", "MS218")]


SIAMESE = """
    import random

    import numpy as np
    import torch


    class Pairs:
        def __init__(self, targets):
            self.data = torch.randint(0, 256, (64, 1, 28, 28), dtype=torch.uint8)
            np_arr = np.array(targets)
            self.grouped_examples = {}
            for i in range(0, 10):
                self.grouped_examples[i] = np.where((np_arr == i))[0]

        def __getitem__(self, index):
            selected_class = random.randint(0, 9)
            random_index_1 = random.randint(0, self.grouped_examples[selected_class].shape[0] - 1)
            index_1 = self.grouped_examples[selected_class][random_index_1]
            image_1 = self.data[index_1].clone().float()
            return image_1
"""


@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_the_siamese_networks_index_becomes_an_int_in_both_eras(version):
    assert codes(SIAMESE, version) == [(20, "MS217")]
    text = fixed(SIAMESE, version)
    assert "image_1 = self.data[int(index_1)]." in text, text
    assert codes(text, version) == []  # a re-scan: int(...) is taken


def test_an_index_array_becomes_a_mindspore_tensor_and_mindspore_is_imported():
    source = """
        import numpy as np
        import torch


        def rows(labels, table: torch.Tensor):
            chosen = np.nonzero(labels)[0]
            table[np.flatnonzero(labels)] = 0.0
            return table[chosen], table[np.arange(0, 4, 2)], table[np.random.permutation(8)]
    """
    assert codes(source) == [(8, "MS218"), (9, "MS218"), (9, "MS218"), (9, "MS218")]
    text = fixed(source)
    assert "import mindspore\n" in text
    assert "table[mindspore.Tensor(np.flatnonzero(labels))] = 0.0" in text, text
    assert "return table[mindspore.Tensor(chosen)], table[mindspore.Tensor(np.arange(0, 4, 2))], " \
           "table[mindspore.Tensor(np.random.permutation(8))]" in text, text


def test_numpy_integers_in_a_tuple_index_and_from_argmax():
    source = """
        import numpy as np
        import torch


        def best(scores, table: torch.Tensor):
            order = np.argsort(scores)
            positions = np.where(scores > 0)
            table[positions[0][0], 1] = 1.0
            return table[np.argmin(scores)], table[order[0]]
    """
    assert codes(source) == [(9, "MS217"), (10, "MS217")]  # argsort's rank follows its input's: not typed
    text = fixed(source)
    assert "table[int(positions[0][0]), 1] = 1.0" in text and "return table[int(np.argmin(scores))], table[order[0]]" in text, text


def test_nothing_is_said_where_the_index_or_the_receiver_is_not_known():
    source = """
        import numpy as np
        import torch


        def pick(scores, where, position, table: torch.Tensor, other):
            values = np.array(scores)
            chosen = np.where(scores > 0, scores, 0)  # three arguments: values, not indices
            a = table[values[0]]  # an array of unknown dtype
            b = table[chosen[0]]
            c = table[np.where(scores > 0)[0][position]]  # position of unknown type: a scalar or an array
            d = other[np.argmax(scores)]  # the receiver is not known to be a tensor
            e = table[np.arange(0.0, 4.0)[1]]  # float arguments: a float array
            f = table[np.argmax(scores, axis=0)]  # an array
            return a, b, c, d, e, f
    """
    assert codes(source) == []


def test_a_dict_whose_writes_disagree_or_that_is_updated_has_no_element_type():
    source = """
        import numpy as np
        import torch


        def groups(labels, table: torch.Tensor, extra):
            mixed = {}
            mixed[0] = np.where(labels == 0)[0]
            mixed[1] = [1, 2]
            updated = {}
            updated[0] = np.where(labels == 0)[0]
            updated.update(extra)
            kept = {}
            kept[0] = np.where(labels == 0)[0]
            return table[mixed[0]], table[updated[0]], table[kept[0]]
    """
    assert codes(source) == [(15, "MS218")]


def test_the_npu_route_says_nothing():
    findings = analyze(textwrap.dedent(SIAMESE), "train.py", Settings(target="npu"))
    assert not [finding for finding in findings if finding.code in ("MS217", "MS218")]
