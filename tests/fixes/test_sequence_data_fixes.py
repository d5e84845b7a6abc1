"""The MindSpore route's fixes for a DataLoader with a collate_fn and random_split over a Python sequence
(analysis/rules/sequence_data.py, issue 17), text for text, both ways: what they write, what they leave to the
pipeline fix, and where they say why they write nothing. tests/execution/test_sequence_data.py runs what they write
beside torch."""

from __future__ import annotations

import ast
import textwrap

import pytest

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable

OPS_NN, MINT = "2.4", "2.10"

LOADERS = """
    import torch
    from torch.utils.data import DataLoader, random_split


    def collate(batch):
        return torch.cat([tokens for _, tokens in batch]), torch.tensor([label for label, _ in batch])


    def train(pairs, images, labels):
        train_part, valid_part = random_split(pairs, [0.9, 0.1])
        for text, label in DataLoader(train_part, batch_size=16, shuffle=True, collate_fn=collate):
            print(text, label)
        plain = DataLoader(torch.utils.data.TensorDataset(images, labels), batch_size=8)
        return plain, len(valid_part)
"""


def fixed(source: str, version: str = OPS_NN) -> str:
    settings = Settings(target="mindspore", mindspore_version=version)
    text = fix_until_stable(textwrap.dedent(source), lambda text: analyze(text, "train.py", settings), unsafe=True).text
    ast.parse(text)
    return text


def loader_findings(source: str, version: str = OPS_NN):
    settings = Settings(target="mindspore", mindspore_version=version)
    return [finding for finding in analyze(textwrap.dedent(source), "train.py", settings)
            if finding.api.endswith(("DataLoader", "random_split"))]


@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_a_collate_loader_and_a_split_call_written_classes_and_a_plain_loader_keeps_the_pipeline(version):
    text = fixed(LOADERS, version)
    assert "train_part, valid_part = RandomSplit(pairs, [0.9, 0.1])" in text
    assert "DataLoader" not in text.replace("DataLoader(dataset, batch_size", "")  # only the written class's docstring
    assert "for text, label in SequenceLoader(train_part, batch_size=16, shuffle=True, collate_fn=collate):" in text
    assert 'plain = mindspore.dataset.NumpySlicesDataset((numpy.asarray(images), numpy.asarray(labels)), column_names=' in text
    assert text.count("class SequenceLoader:") == 1 and text.count("class RandomSplit(list):") == 1
    assert "import numpy" in text and "random_split" not in text.split("class RandomSplit")[0]


def test_a_loader_without_collate_fn_gets_no_written_class():
    text = fixed("""
        import torch

        def loader(images, labels):
            return torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images, labels), batch_size=4, shuffle=True)
    """)
    assert "SequenceLoader" not in text and "NumpySlicesDataset" in text


@pytest.mark.parametrize(("call", "reason"), [
    ("DataLoader(pairs, batch_size=4, sampler=sampler, collate_fn=collate)", "`sampler=` has no counterpart in the class written"),
    ("DataLoader(pairs, 4, False, None, collate_fn=collate)", "more than 3 arguments are passed by position"),
    ("DataLoader(pairs, collate_fn=collate, **options)", "the keys `**options` passes are not known here"),
    ("DataLoader(pairs, *options, collate_fn=collate)", "passed with *, so"),
    ("DataLoader(TensorDataset(images, labels), batch_size=4, collate_fn=collate)", "the dataset is a TensorDataset"),
    ("DataLoader(tensors, batch_size=4, collate_fn=collate)", "the dataset is a TensorDataset"),
    ("random_split(TensorDataset(images, labels), [3, 1])", "split it with the pipeline's .split(sizes, randomize=True)"),
    ("random_split(pairs, [3, 1], torch.Generator(), 5)", "more than 3 arguments are passed by position"),
])
def test_what_the_written_classes_cannot_take_keeps_the_finding_and_says_why(call, reason):
    source = f"""
        import torch
        from torch.utils.data import DataLoader, TensorDataset, random_split


        def run(pairs, images, labels, sampler, collate, options):
            tensors = TensorDataset(images, labels)
            return {call}
    """
    found = [finding for finding in loader_findings(source) if finding.line == 8]
    assert found and all(finding.fix is None for finding in found), found
    assert any(reason in finding.message for finding in found), [finding.message for finding in found]
    assert "SequenceLoader" not in fixed(source) and "RandomSplit" not in fixed(source)


def test_a_file_that_binds_the_class_name_gets_another():
    text = fixed("""
        from torch.utils.data import DataLoader

        SequenceLoader = None


        def load(pairs, collate):
            return DataLoader(pairs, batch_size=2, collate_fn=collate)
    """)
    assert "return WrittenSequenceLoader(pairs, batch_size=2, collate_fn=collate)" in text
    assert "class WrittenSequenceLoader:" in text and "SequenceLoader = None" in text


def test_len_of_a_written_loaders_dataset_is_left_as_it_is_not_left_over():
    source = textwrap.dedent("""
        import torch
        from torch.utils.data import DataLoader


        def evaluate(loader):
            return len(loader.dataset)


        loader = DataLoader([1, 2, 3], batch_size=2, collate_fn=torch.tensor)
        print(evaluate(loader))
    """)
    settings = Settings(target="mindspore", mindspore_version=OPS_NN)
    result = fix_until_stable(source, lambda text: analyze(text, "train.py", settings), unsafe=True)
    assert "return len(loader.dataset)" in result.text and "loader = SequenceLoader([1, 2, 3]" in result.text
    # MS215's fix has nothing to write (a SequenceLoader keeps torch's .dataset), not a pipeline it cannot prove
    assert not [skipped for skipped in result.skipped if "mindspore.dataset pipeline" in skipped.reason], result.skipped
    pipeline = source.replace("DataLoader([1, 2, 3], batch_size=2, collate_fn=torch.tensor)", "DataLoader(data, batch_size=2)")
    pipeline = pipeline.replace("import torch\n", "import torch\ndata = torch.utils.data.TensorDataset(torch.zeros(3))\n", 1)
    assert "get_dataset_size()" in fixed(pipeline)  # the pipeline fix's loader still gets its size rewritten


def test_a_dataset_class_loses_its_torch_base_and_other_uses_say_why():
    source = """
        import torch
        from torch.utils.data import Dataset


        class Pairs(Dataset):
            def __len__(self):
                return 3


        class Mixed(Dataset, dict):
            pass


        class Spaced( torch.utils.data.Dataset ) :
            pass


        print(isinstance(Pairs(), Dataset))
    """
    text = fixed(source)
    assert "class Pairs(object):" in text and "class Spaced( object ) :" in text and "class Mixed(Dataset, dict):" in text
    settings = Settings(target="mindspore", mindspore_version=OPS_NN)
    left = {finding.line: finding.message for finding in analyze(textwrap.dedent(source), "train.py", settings)
            if finding.api.endswith("Dataset") and finding.fix is None}
    assert "not the only base class" in left[11] and "test your own classes instead, `isinstance(obj, (Mixed, Pairs, Spaced))`" in left[19], left


def test_a_type_test_against_torchs_dataset_stays_reported_after_the_fix_and_names_the_classes_it_turns_false_for():
    source = textwrap.dedent("""
        import torch
        from torch.utils.data import Dataset


        class Pairs(Dataset):
            def __getitem__(self, index):
                return index

            def __len__(self):
                return 3


        class Settings:
            pass


        def check(dataset, kind):
            if not isinstance(dataset, Dataset):
                raise TypeError("not a dataset")
            assert issubclass(kind, torch.utils.data.Dataset)
            return type(dataset) is Dataset
    """)
    settings = Settings(target="mindspore", mindspore_version=OPS_NN)
    text = fixed(source)
    assert "class Pairs(object):" in text and "from torch.utils.data import Dataset" in text  # the tests still need it
    for version in (source, text):  # before the fix and on the re-scan of its result: nothing hidden, no fix written
        tests = [finding for finding in analyze(version, "train.py", settings)
                 if finding.api == "torch.utils.data.Dataset" and "type test" in finding.message]
        assert len(tests) == 3 and all(finding.fix is None for finding in tests), tests
        assert all("this file's dataset classes (Pairs)" in finding.message and "False for their instances" in finding.message
                   and "GeneratorDataset would be too" in finding.message for finding in tests), tests
    assert "GeneratorDataset)" not in text and "isinstance(dataset, Dataset)" in text


MAP_STYLE = """
    import torch
    from torch.utils.data import DataLoader, Dataset, IterableDataset
    from library import LibraryDataset


    class Pairs(Dataset):
        def __getitem__(self, index):
            return torch.ones(2) * index, torch.tensor(index % 2)

        def __len__(self):
            return 10


    class Shifted(Pairs):
        def __getitem__(self, index):
            return super().__getitem__(index + 1)


    class Stream(IterableDataset):
        def __iter__(self):
            yield torch.ones(2)

        def __getitem__(self, index):
            return torch.ones(2)

        def __len__(self):
            return 1


    class Unsized(Dataset):
        def __getitem__(self, index):
            return torch.ones(2)


    class Borrowed(LibraryDataset):
        def __getitem__(self, index):
            return torch.ones(2)

        def __len__(self):
            return 1


    def main(accelerated, given):
        train_kwargs = {'batch_size': 8}
        if accelerated:
            accel_kwargs = {'num_workers': 1, 'pin_memory': True, 'shuffle': True}
            train_kwargs.update(accel_kwargs)
        train_dataset = Pairs()
        train_loader = torch.utils.data.DataLoader(train_dataset, **train_kwargs)
        shifted = DataLoader(Shifted(), batch_size=4, drop_last=True)
        listed = DataLoader([(index, index * 0.5) for index in range(5)], 2)
        return train_loader, shifted, listed, {call}
"""


@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_a_loader_without_collate_fn_over_a_map_style_class_or_a_list_gets_the_written_loader(version):
    text = fixed(MAP_STYLE.replace("{call}", "None"), version)
    assert "train_loader = SequenceLoader(train_dataset, **train_kwargs)" in text  # siamese_network's shape
    assert "shifted = SequenceLoader(Shifted(), batch_size=4, drop_last=True)" in text
    assert "listed = SequenceLoader([(index, index * 0.5) for index in range(5)], 2)" in text
    assert text.count("class SequenceLoader:") == 1 and "DataLoader" not in text.replace("DataLoader(dataset, batch_size", "")


@pytest.mark.parametrize(("call", "reason"), [
    ("DataLoader(Stream(), batch_size=2)", "not a TensorDataset built in this file"),  # an IterableDataset is iterated
    ("DataLoader(Unsized(), batch_size=2)", "not a TensorDataset built in this file"),
    ("DataLoader(Borrowed(), batch_size=2)", "not a TensorDataset built in this file"),  # its base may be iterable
    ("DataLoader(given, batch_size=2)", "not a TensorDataset built in this file"),
    ("DataLoader(Pairs(), batch_size=2, sampler=given)", "`sampler=` has no counterpart in the class written"),
    ("DataLoader(Pairs(), batch_size=2, timeout=5)", "`timeout=` has no counterpart in the class written"),
    ("DataLoader(Pairs(), **given)", "the keys `**given` passes are not known here"),
])
def test_a_loader_without_collate_fn_over_what_is_not_known_as_a_sequence_keeps_the_finding(call, reason):
    source = MAP_STYLE.replace("{call}", call)
    line = textwrap.dedent(source).splitlines().index("    return train_loader, shifted, listed, " + call) + 1
    found = [finding for finding in loader_findings(source) if finding.line == line]
    assert found and all(finding.fix is None for finding in found), found
    assert any(reason in finding.message for finding in found), [finding.message for finding in found]


def test_a_dict_that_may_pass_an_option_the_written_loader_lacks_keeps_the_finding():
    source = """
        from torch.utils.data import DataLoader, Dataset


        class Pairs(Dataset):
            def __getitem__(self, index):
                return index

            def __len__(self):
                return 4


        def main(sampler, ordered):
            options = {"batch_size": 2}
            if ordered:
                options["sampler"] = sampler
            return DataLoader(Pairs(), **options)
    """
    found = [finding for finding in loader_findings(source) if finding.line == 17]
    assert found and found[0].fix is None
    assert "`**options` may pass sampler, which the class written into the file does not take" in found[0].message
