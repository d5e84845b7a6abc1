"""Embedding bags on the MindSpore route (MS237, MS238, issue 17), text for text: `nn.EmbeddingBag(...)`,
`nn.EmbeddingBag.from_pretrained(...)` and `F.embedding_bag(...)` call the EmbeddingBag class written into the file
(fixes/templates/embedding_bag.py, once per file, after the imports), in both eras; what the class does not write
(max_norm, scale_grad_by_freq, unreadable arguments, a bare `embedding_bag` name) keeps the finding without a fix,
saying why. tests/execution/test_embedding_bag.py runs the class beside torch's and a fixed script."""

from __future__ import annotations

import ast
import textwrap

import pytest

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable
from ascend_migrate.fixes.templates import class_source

OPS_NN, MINT = "2.4", "2.10"

MODEL = textwrap.dedent("""
    import torch
    import torch.nn as nn


    class TextSentiment(nn.Module):
        def __init__(self, vocab_size, embed_dim, num_class):
            super().__init__()
            self.embedding = nn.EmbeddingBag(vocab_size, embed_dim{options})
            self.fc = nn.Linear(embed_dim, num_class)

        def forward(self, text, offsets):
            return self.fc(self.embedding(text, offsets))
""")


def program(options: str = ", sparse=True") -> str:
    return MODEL.format(options=options)


def settings(version: str = MINT, target: str = "mindspore") -> Settings:
    return Settings(target=target, mindspore_version=version)


def fixed(source: str, version: str = MINT) -> str:
    return fix_until_stable(source, lambda text: analyze(text, "model.py", settings(version)), unsafe=True).text


def at_line(source: str, line: int, version: str = MINT) -> list:
    return [finding for finding in analyze(source, "model.py", settings(version)) if finding.line == line]


def without_torch(text: str) -> bool:
    return not [node for node in ast.walk(ast.parse(text)) if isinstance(node, (ast.Import, ast.ImportFrom)) and "torch" in ast.unparse(node)]


@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_the_layer_calls_the_written_class(version):
    [found] = at_line(program(), 9, version)
    assert found.code == "MS237" and found.fix is not None and not found.fix.safe
    assert "mindspore 2.10 has no embedding bag" in found.message and "EmbeddingBag(...)" in found.fix.title
    text = fixed(program(), version)
    assert "self.embedding = EmbeddingBag(vocab_size, embed_dim, sparse=True)" in text
    assert text.count("class EmbeddingBag(mindspore.nn.Cell):") == 1 and class_source("embedding_bag", "EmbeddingBag") in text
    assert text.index("import mindspore") < text.index("class EmbeddingBag(") < text.index("class TextSentiment(")
    assert without_torch(text)
    assert fixed(text, version) == text  # fixing again writes nothing more


def test_from_pretrained_and_the_function_call_the_same_class_written_once():
    source = program().replace("import torch.nn as nn\n", "import torch.nn as nn\nimport torch.nn.functional as F\n") + textwrap.dedent("""

        table = torch.zeros(5, 3)
        frozen = nn.EmbeddingBag.from_pretrained(table, mode="sum")
        pooled = F.embedding_bag(torch.tensor([1, 2]), table, torch.tensor([0]), mode="max")
        spelled = torch.nn.functional.embedding_bag(torch.tensor([1]), table, torch.tensor([0]))
    """)
    lines = source.split("\n")
    codes: dict[int, set[str]] = {}
    for finding in analyze(source, "model.py", settings()):
        codes.setdefault(finding.line, set()).add(finding.code)
    assert "MS237" in codes[lines.index("frozen = nn.EmbeddingBag.from_pretrained(table, mode=\"sum\")") + 1]
    assert "MS238" in codes[lines.index("pooled = F.embedding_bag(torch.tensor([1, 2]), table, torch.tensor([0]), mode=\"max\")") + 1]
    text = fixed(source)
    assert "frozen = EmbeddingBag.from_pretrained(table, mode=\"sum\")" in text
    assert "pooled = EmbeddingBag.embedding_bag(mindspore.tensor([1, 2]), table, mindspore.tensor([0]), mode=\"max\")" in text
    assert "spelled = EmbeddingBag.embedding_bag(mindspore.tensor([1]), table, mindspore.tensor([0]))" in text
    assert text.count("class EmbeddingBag(") == 1 and without_torch(text)


@pytest.mark.parametrize(("options", "says"), [
    (", max_norm=1.0", "max_norm=1.0: torch renormalises the rows it looks up"),
    (", 2.0", "max_norm=2.0: torch renormalises"),  # max_norm by position
    (", scale_grad_by_freq=True", "scale_grad_by_freq=True: torch scales each row's gradient"),
    (", **options", "its arguments are unpacked (*args/**kwargs)"),
])
def test_what_the_class_does_not_write_stays_advice(options, says):
    [found] = at_line(program(options), 9)
    assert found.code == "MS237" and found.fix is None
    assert "Not rewritten automatically: " + says in found.message
    assert "nn.EmbeddingBag(" in fixed(program(options))


@pytest.mark.parametrize("options", [", max_norm=None", ", scale_grad_by_freq=False", ", None, 2.0, False, 'sum'"])
def test_the_defaults_written_out_are_covered(options):
    [found] = at_line(program(options), 9)
    assert found.fix is not None


def test_the_bare_function_name_says_what_to_call():
    source = "import torch\nfrom torch.nn.functional import embedding_bag\n\nout = embedding_bag(torch.tensor([1]), torch.zeros(3, 2), torch.tensor([0]))\n"
    [found] = [finding for finding in at_line(source, 4) if finding.code == "MS238"]
    assert found.fix is None and "call EmbeddingBag.embedding_bag(...)" in found.message


def test_the_class_named_but_not_built_has_no_fix():
    source = program() + "\n\ndef is_bag(layer):\n    return isinstance(layer, nn.EmbeddingBag)\n"
    found = [finding for finding in analyze(source, "model.py", settings()) if finding.line == len(source.split("\n")) - 1]
    assert [finding.code for finding in found] == ["MS237"] and found[0].fix is None


def test_a_name_the_file_uses_gets_another_class_name():
    source = program().replace("import torch.nn as nn\n", "import torch.nn as nn\nfrom mylib import EmbeddingBag\n")
    text = fixed(source)
    assert "self.embedding = WrittenEmbeddingBag(vocab_size, embed_dim, sparse=True)" in text
    assert "class WrittenEmbeddingBag(mindspore.nn.Cell):" in text


def test_the_bags_weight_filled_in_place_gets_set_data():
    """text_classifier's init_weights: the written class's parameter is `weight`, so MS246 rewrites its fill."""
    source = program().replace("        self.fc = nn.Linear(embed_dim, num_class)\n",
                               "        self.fc = nn.Linear(embed_dim, num_class)\n        self.embedding.weight.data.uniform_(-0.5, 0.5)\n")
    assert "MS246" in {finding.code for finding in at_line(source, 11)}
    text = fixed(source)
    assert "self.embedding.weight.set_data(mindspore.common.initializer.initializer(mindspore.common.initializer.Uniform(0.5), " in text


def test_the_npu_route_is_quiet_about_it():
    codes = {finding.code for finding in analyze(program(), "model.py", settings(target="npu"))}
    assert not codes & {"MS237", "MS238", "MS103"}
