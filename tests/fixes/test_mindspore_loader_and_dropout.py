"""The MindSpore route's fixes for pytorch/examples' mnist and mnist_rnn (issue 17), text for text with the shipped
knowledge base: `F.max_pool2d`, `F.softplus` and `F.mish` in the ops/nn era (curated rows), `len(loader.dataset)` followed into a function's
parameter (MS215, `loader-dataset-size`), and torch's Dropout2d called on any rank (MS216). tests/execution runs
them on the real programs with mindspore 2.10 (the proof they run); these pin the text and the cases where no fix
is written."""

from __future__ import annotations

import textwrap

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import edits_for, fix_until_stable
from ascend_migrate.fixes.errors import FixError

OPS_NN, MINT = "2.4", "2.10"


def settings(version: str) -> Settings:
    return Settings(target="mindspore", mindspore_version=version)


def fixed(source: str, version: str = OPS_NN) -> str:
    return fix_until_stable(textwrap.dedent(source), lambda text: analyze(text, "train.py", settings(version)), unsafe=True).text


def codes(source: str, version: str = OPS_NN) -> list[tuple[int, str]]:
    return [(finding.line, finding.code) for finding in analyze(textwrap.dedent(source), "train.py", settings(version))]


POOL = """
    import torch.nn.functional as F


    def pool(x):
        return F.max_pool2d(x, 2), F.max_pool2d(x, 3, 2, 1, 1, True), F.max_pool2d(input=x, kernel_size=2)
"""


def test_max_pool2d_has_a_row_in_each_era():
    assert "mindspore.ops.max_pool2d(x, 2), mindspore.ops.max_pool2d(x, 3, 2, 1, 1, ceil_mode=True), " \
           "mindspore.ops.max_pool2d(x=x, kernel_size=2)" in fixed(POOL)  # ops/nn: return_indices is 6th there
    assert "mint.nn.functional.max_pool2d(x, 2)" in fixed(POOL, MINT)


ACTIVATIONS = """
    import torch.nn.functional as F


    def act(x):
        return F.softplus(x, beta=2), F.mish(x), F.mish(input=x, inplace=True)
"""


def test_softplus_and_mish_have_a_row_in_each_era():
    assert "mindspore.ops.softplus(x, beta=2), mindspore.ops.mish(x), mindspore.ops.mish(x=x)" in fixed(ACTIVATIONS)
    assert "mint.nn.functional.softplus(x, beta=2), mint.nn.functional.mish(x)" in fixed(ACTIVATIONS, MINT)


PIPELINE = """
    import torch


    def train(model, device, train_loader, epoch):
        for batch_idx, (data, target) in enumerate(train_loader):
            print(epoch, batch_idx * len(data), len(train_loader.dataset), f"{len(train_loader.dataset):5d}")


    def main(images, labels, batch_size):
        dataset1 = torch.utils.data.TensorDataset(images, labels)
        train_loader = torch.utils.data.DataLoader(dataset1, batch_size=batch_size, shuffle=True)
        for epoch in range(2):
            train(None, "cpu", train_loader, epoch)
        local = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images, labels), batch_size=4)
        return len(local.dataset)
"""


def test_len_of_a_loaders_dataset_follows_the_loader_into_the_parameter():
    text = fixed(PIPELINE)
    assert ("print(epoch, batch_idx * len(data), train_loader.children[0].get_dataset_size(), "
            'f"{train_loader.children[0].get_dataset_size():5d}")') in text, text
    assert "return local.children[0].get_dataset_size()" in text, text
    assert "dataset1.shuffle(dataset1.get_dataset_size()).batch(batch_size" in text, text
    assert [code for _, code in codes(text)].count("MS215") == 0  # nothing left to report


def test_a_parameter_some_call_passes_another_loader_keeps_its_finding():
    # the second call passes a loader over a Dataset class of the user's: the data-pipeline fix cannot write it
    source = textwrap.dedent(PIPELINE).replace(
        "    local = ", "    other = torch.utils.data.DataLoader(Custom())\n    train(None, 'cpu', other, 0)\n    local = ") + textwrap.dedent("""

        class Custom(torch.utils.data.Dataset):
            def __len__(self):
                return 3
        """)
    text = fixed(source)
    assert "len(train_loader.dataset)" in text and "return local.children[0].get_dataset_size()" in text, text
    line = next(number for number, text_line in enumerate(text.splitlines(), 1) if "len(train_loader.dataset)" in text_line)
    assert (line, "MS215") in codes(text)  # still reported after the fix (nothing hidden)


def test_the_fix_says_why_it_waits_for_the_pipeline():
    source = textwrap.dedent(PIPELINE)
    finding = next(finding for finding in analyze(source, "train.py", settings(OPS_NN)) if finding.code == "MS215")
    try:
        edits_for(finding.fix, source)
    except FixError as error:
        assert "`train_loader` is assigned other than a mindspore.dataset pipeline in main(), which passes it to train() at line 14" in str(error)
    else:
        raise AssertionError("the fix wrote text while the loader was still torch's DataLoader")


def test_len_of_another_objects_dataset_is_left_alone():
    found = codes("""
        import torch


        def sizes(loader, split, len_of):
            layer = torch.nn.Linear(2, 2)
            return len(loader), len(split["dataset"]), len(layer.dataset), len(loader.dataset.rows), len_of(loader.dataset)
    """)
    assert "MS215" not in [code for _, code in found] and (6, "MS102") in found  # the Linear itself is reported


DROPOUT = """
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.dropout1 = nn.Dropout2d(0.25)
            self.dropout2 = nn.Dropout2d(p=0.5)

        def forward(self, x):
            x = self.dropout1(x)
            return self.dropout2(x * 2)
"""


def test_a_dropout2d_call_gets_its_input_as_n_c_minus_one_one_in_both_eras():
    for version, layer in ((OPS_NN, "mindspore.nn.Dropout2d(0.25)"), (MINT, "mint.nn.Dropout2d(0.25)")):
        text = fixed(DROPOUT, version)
        assert layer in text, text
        assert "x = self.dropout1(x.reshape(x.shape[:2] + (-1, 1))).reshape(x.shape)" in text, text
        assert "return self.dropout2(x * 2)" in text  # an input that is not a name is not repeated: reported, not fixed
        lines = text.splitlines()
        left = next(number for number, text_line in enumerate(lines, 1) if "self.dropout2(x * 2)" in text_line)
        assert [line for line, code in codes(text, version) if code == "MS216"] == [left]


FUNCTIONAL_DROPOUT = """
    import torch.nn.functional as F


    def regularise(x, training):
        kept = F.dropout2d(x, 0.25, training)
        return kept, F.dropout2d(x * 2, p=0.5), F.dropout(x, 0.5)
"""


def test_the_function_form_of_dropout2d_gets_its_input_as_n_c_minus_one_one():
    for version, function in ((OPS_NN, "mindspore.ops.dropout2d"), (MINT, "mint.nn.functional.dropout2d")):
        text = fixed(FUNCTIONAL_DROPOUT, version)
        assert f"kept = {function}(x.reshape(x.shape[:2] + (-1, 1)), 0.25, training).reshape(x.shape)" in text, text
        assert f"{function}(x * 2, p=0.5)" in text  # an input that is not a name is not repeated: reported, not fixed
        lines = text.splitlines()
        left = next(number for number, text_line in enumerate(lines, 1) if "(x * 2, p=0.5)" in text_line)
        assert [line for line, code in codes(text, version) if code == "MS216"] == [left]  # F.dropout: any rank


def test_max_pool2d_with_both_swapped_parameters_by_position_writes_both_by_keyword():
    source = POOL.replace("F.max_pool2d(x, 2), ", "F.max_pool2d(x, 2, 2, 0, 1, False, True), ")
    assert "mindspore.ops.max_pool2d(x, 2, 2, 0, 1, ceil_mode=False, return_indices=True), " in fixed(source)


GLOBAL_LOADER = """
    import torch

    images, labels = torch.zeros(10, 3), torch.zeros(10)
    train_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images, labels), batch_size=4, shuffle=True)


    def train(epoch):
        for batch_idx, (data, _) in enumerate(train_loader):
            print(epoch, batch_idx * len(data), len(train_loader.dataset))
"""


def test_a_module_level_loader_a_function_only_reads_is_followed():
    text = fixed(GLOBAL_LOADER)  # vae's shape: the loader built at module level, read in train()
    assert "print(epoch, batch_idx * len(data), train_loader.children[0].get_dataset_size())" in text, text


def test_a_loader_rebound_with_global_keeps_its_finding():
    source = textwrap.dedent(GLOBAL_LOADER) + textwrap.dedent("""

        def reload(dataset):
            global train_loader
            train_loader = torch.utils.data.DataLoader(dataset)
        """)
    text = fixed(source)
    assert "len(train_loader.dataset)" in text, text
    line = next(number for number, text_line in enumerate(text.splitlines(), 1) if "len(train_loader.dataset)" in text_line)
    assert (line, "MS215") in codes(text)
