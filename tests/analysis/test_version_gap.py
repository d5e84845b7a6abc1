"""A name the tables map only for other MindSpore versions is not called unsupported (analysis/rules/names.py)."""

from __future__ import annotations

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable
from ascend_migrate.kb.index import KnowledgeBase

SOURCE = ("import torch\n\nmask = torch.triu(torch.ones(3, 3), diagonal=1)\nlength = torch.linalg.vector_norm(mask)\n"
          "unknown = torch.this_is_not_an_api(3)\n")


def _messages(version: str) -> dict[str, tuple[str, str]]:
    found = analyze(SOURCE, "model.py", Settings(target="mindspore", mindspore_version=version))
    return {finding.api: (finding.code, finding.message) for finding in found}


def test_a_name_mapped_from_2_5_only_says_so_for_an_older_mindspore():
    older = _messages("2.4")
    code, message = older["torch.linalg.vector_norm"]
    assert code == "MS102" and "has no MindSpore equivalent" not in message
    assert "no mapping is recorded for MindSpore 2.4" in message and "mindspore.mint.linalg.vector_norm" in message
    newer = _messages("2.10")
    assert newer["torch.linalg.vector_norm"][0] == "MS101"  # the mint row applies


def test_a_name_with_a_derived_ops_nn_row_names_it_for_an_older_mindspore():
    """torch.triu had only its mint row (issue 17): the ops/nn era now gets mindspore.ops.triu (ops_nn_rows.py)."""
    code, message = _messages("2.4")["torch.triu"]
    assert code == "MS101" and "mindspore.ops.triu" in message and "no mapping is recorded" not in message
    assert "mindspore.mint.triu" in _messages("2.10")["torch.triu"][1]


def test_a_name_no_table_maps_for_any_version_keeps_the_generic_answer():
    knowledge_base = KnowledgeBase.load()
    view = knowledge_base.view("mindspore", "2.8", "2.4")
    unmapped = sorted(name for name in view.inventory if name.startswith("torch.") and name.count(".") == 1
                      and not name.split(".")[1].startswith("_") and not knowledge_base.lookup(name))[0]
    found = analyze(f"import torch\n\nvalue = {unmapped}\n", "model.py", Settings(target="mindspore", mindspore_version="2.4"))
    assert [(finding.code, "has no entry in the knowledge base: no table maps it" in finding.message) for finding in found
            if finding.api == unmapped] == [("MS103", True)]


DERIVED = """import torch
import torch.nn.functional as F

def masks(x, labels, index):
    upper = torch.triu(x, diagonal=1)
    picked = torch.gather(x, 1, index)
    coded = F.one_hot(labels, num_classes=10)
    same = torch.equal(x, upper)
    return upper, picked, coded, same
"""


def _fixed(version: str) -> str:
    settings = Settings(target="mindspore", mindspore_version=version)
    return fix_until_stable(DERIVED, lambda text: analyze(text, "model.py", settings), unsafe=True).text


def test_the_quick_fix_writes_the_ops_nn_api_for_an_older_mindspore_and_mint_for_a_newer():
    older = _fixed("2.4")
    assert "mindspore.ops.triu(x, diagonal=1)" in older and "mindspore.ops.gather_elements(x, 1, index)" in older
    assert "mindspore.ops.one_hot(labels, depth=10)" in older
    assert "torch.equal(x, upper)" in older  # fix none: one bool, not ops.equal's elementwise tensor (its note says)
    assert "mint.triu(x, diagonal=1)" in _fixed("2.10")
