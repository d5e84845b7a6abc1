"""Tensor methods whose function had an entry and the method none (issue 16): x.dot(tensor=y) went unreported. The
entries added from runs in torch 2.13.0 and mindspore 2.10.0 report the calls that change, and only those."""

from __future__ import annotations

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings

PROGRAM = ("import torch\nfrom torchvision import transforms\nx = torch.ones(3)\ny = torch.ones(3)\n"
           "a = x.dot(tensor=y)\n"            # 5: mindspore.Tensor.dot refuses tensor= and 1-D inputs
           "b = x.dot(y)\n"                   # 6: the same name is another operation in MindSpore
           "c = x.equal(y)\n"                 # 7: element-wise in MindSpore, one bool in torch
           "d = x.count_nonzero()\n"          # 8: the same counts (int32 for int64, the note says): not reported
           "e = x.count_nonzero(dim=0)\n"     # 9: MindSpore calls it axis
           "f = x.gcd(y)\n"                   # 10: agrees
           "g = x.allclose(y, rtol=1e-3)\n"   # 11: agrees
           "h = x.quantile(0.5)\n"            # 12: the battery's probe failed in MindSpore: reported
           "i = x.quantile(0.5, dim=0)\n"     # 13: dim= is axis=
           "p = transforms.RandomChoice([transforms.CenterCrop(2)], p=[1.0])\n"  # 14: MindSpore has no p
           "q = transforms.RandomChoice([transforms.CenterCrop(2)])\n")  # 15: a rename


def test_the_calls_that_change_are_reported_and_the_others_are_not() -> None:
    findings = analyze(PROGRAM, "train.py", Settings(target="mindspore"))
    reported = {(finding.line, finding.api) for finding in findings
                if finding.api and finding.api.startswith(("torch.Tensor.", "torchvision.transforms.RandomChoice"))}
    assert reported == {(5, "torch.Tensor.dot"), (6, "torch.Tensor.dot"), (7, "torch.Tensor.equal"),
                        (9, "torch.Tensor.count_nonzero"), (12, "torch.Tensor.quantile"),
                        (13, "torch.Tensor.quantile"),
                        (14, "torchvision.transforms.RandomChoice"), (15, "torchvision.transforms.RandomChoice")}
    by_line = {finding.line: finding for finding in findings
               if finding.api in ("torch.Tensor.dot", "torchvision.transforms.RandomChoice")}
    assert by_line[6].code == "MS102" and by_line[14].code == "MS102"  # not a rename: warned, no automatic fix
    assert by_line[14].fix is None or not by_line[14].fix.safe
