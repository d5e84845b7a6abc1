"""Parameter rows of entries called equivalent (issue 16): a call passing a parameter in a form the target renames,
lacks or types otherwise is reported at that call, through the same checks for a function (names.py) and a tensor
method (methods.py); a call that passes none of them stays as it was."""

from __future__ import annotations

from ascend_migrate.analysis.engine import analyze, analyze_file
from ascend_migrate.config import Settings
from ascend_migrate.fixes.apply import fix_all
from ascend_migrate.kb.index import KnowledgeBase

MINDSPORE = Settings(target="mindspore")

# A method entry as the generator writes one for an equivalent entry with rows (EQUIVALENT_ROWS): torch's
# x.dot(tensor=y) is mindspore's x.dot(other=y), and a `removed` and a `type` row at known positions.
METHOD_TABLE = """\
provenance: test
entries:
  - api: torch.Tensor.dot
    match: method
    receiver: tensor
    category: ms-equivalent
    code: MS105
    target: mindspore.Tensor.dot
    fix: safe
    parameters:
      - {source: tensor, target: other, change: renamed}
  - api: torch.Tensor.histc
    match: method
    receiver: tensor
    category: ms-equivalent
    code: MS105
    target: mindspore.Tensor.histc
    fix: unsafe
    parameters:
      - {source: bins, target: bins, change: type, target_default: "Bins.HUNDRED", position: 0}
      - {source: weight, change: removed, position: 3}
"""


def method_findings(tmp_path, source: str):
    (tmp_path / "methods.yaml").write_text(METHOD_TABLE, encoding="utf-8")
    knowledge_base = KnowledgeBase.from_directory(tmp_path)
    return [finding for finding in analyze_file(source, "train.py", MINDSPORE, knowledge_base).findings
            if finding.api and finding.api.startswith("torch.Tensor.")]


PROGRAM = "import torch\nx = torch.ones(3)\ny = torch.ones(3)\n"


def test_an_equivalent_methods_renamed_keyword_is_reported_and_renamed_and_its_ordinary_call_is_not(tmp_path):
    (finding,) = method_findings(tmp_path, PROGRAM + "a = x.dot(tensor=y)\nb = x.dot(y)\n")
    assert (finding.line, finding.code, finding.fix.safe) == (4, "MS105", True)
    assert "a = x.dot(other=y)\nb = x.dot(y)\n" in fix_all(PROGRAM + "a = x.dot(tensor=y)\nb = x.dot(y)\n",
                                                          [finding], unsafe=False).text


def test_a_form_an_equivalent_methods_target_refuses_gets_ms102_and_no_fix(tmp_path):
    source = PROGRAM + "h = x.histc(bins=10)\ng = x.histc(10)\nw = x.histc(weight=y)\nk = x.histc(min=0)\n"
    findings = method_findings(tmp_path, source)
    assert [(finding.line, finding.code, finding.fix) for finding in findings] == [
        (4, "MS102", None), (5, "MS102", None), (6, "MS102", None)]
    assert "takes bins as another type (Bins.HUNDRED is one)" in findings[0].message
    assert "has no weight" in findings[2].message


def test_a_transform_called_with_torchs_enum_gets_ms102_and_its_usual_call_keeps_its_rename():
    source = ("from torchvision import transforms\nfrom torchvision.transforms import InterpolationMode\n"
              "plain = transforms.Resize(224)\n"
              "bicubic = transforms.Resize(224, interpolation=InterpolationMode.BICUBIC)\n"
              "by_position = transforms.Resize(224, InterpolationMode.BICUBIC)\n")
    resized = [finding for finding in analyze(source, "data.py", MINDSPORE) if finding.api == "torchvision.transforms.Resize"
               or "Resize" in (finding.message or "")]
    by_line = {finding.line: finding for finding in resized}
    assert by_line[3].fix is None or not by_line[3].fix.safe  # ms-differs since the fifth sample (antialias)
    for line in (4, 5):  # ms-differs since the fifth sample: MS102, never a safe fix
        assert by_line[line].code == "MS102" and (by_line[line].fix is None or not by_line[line].fix.safe)
