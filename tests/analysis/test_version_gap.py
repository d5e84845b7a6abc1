"""A name the tables map only for other MindSpore versions is not called unsupported (analysis/rules/names.py)."""

from __future__ import annotations

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable
from ascend_migrate.kb.index import KnowledgeBase

SOURCE = ("import torch\n\nmask = torch.triu(torch.ones(3, 3), diagonal=1)\nbackend = torch.distributed.get_backend()\n"
          "unknown = torch.this_is_not_an_api(3)\n")


def _messages(version: str) -> dict[str, tuple[str, str]]:
    found = analyze(SOURCE, "model.py", Settings(target="mindspore", mindspore_version=version))
    return {finding.api: (finding.code, finding.message) for finding in found}


def test_a_name_mapped_from_2_5_only_says_so_for_an_older_mindspore():
    older = _messages("2.4")
    # get_backend: the ops/nn era has no getter (the backend is what communication.init was given; session 9)
    code, message = older["torch.distributed.get_backend"]
    assert code == "MS102" and "has no MindSpore equivalent" not in message
    assert "no mapping is recorded for MindSpore 2.4" in message and "mindspore.mint.distributed.get_backend" in message
    newer = _messages("2.10")
    assert newer["torch.distributed.get_backend"][0] == "MS101"  # the mint row applies


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


def test_tensor_flatten_is_reported_for_an_older_mindspore_only_where_start_dim_is_positional():
    """mindspore.Tensor.flatten before 2.5 takes order first (its r2.4.0 page): x.flatten(1) passes 1 as order; the
    keyword form and the call without arguments mean the same in both eras (ops_nn_rows.py, a `when` condition)."""
    source = ("import torch\n\nx = torch.ones(2, 3, 4)\na = x.flatten(1)\nb = x.flatten()\nc = x.flatten(start_dim=1)\n"
              "x.clamp_(0, 1)\n")
    found = analyze(source, "model.py", Settings(target="mindspore", mindspore_version="2.4"))
    reported = sorted((finding.line, finding.api) for finding in found if finding.api.startswith("torch.Tensor."))
    assert reported == [(4, "torch.Tensor.flatten"), (7, "torch.Tensor.clamp_")]
    messages = {finding.api: finding.message for finding in found}
    assert "x.flatten(start_dim=1)" in messages["torch.Tensor.flatten"] and "x = x.clamp(" in messages["torch.Tensor.clamp_"]
    newer = analyze(source, "model.py", Settings(target="mindspore", mindspore_version="2.10"))
    assert not [finding for finding in newer if finding.api.startswith("torch.Tensor.")]
