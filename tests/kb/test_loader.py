"""The mappings loader: what it reads from a table, and the file:line error for each kind of bad input."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.kb.loader import KnowledgeBaseError, load_table
from ascend_migrate.kb.schema import ParameterDifference


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def load_error(path: Path) -> str:
    with pytest.raises(KnowledgeBaseError) as raised:
        load_table(path)
    return str(raised.value)


GOOD_TABLE = """
table: example
provenance: written for this test
entries:
  - api: torch.nn.BatchNorm2d
    category: ms-differs
    target: mindspore.nn.BatchNorm2d
    target_versions: "<2.5"
    fix: unsafe
    parameters:
      - source: momentum
        target: momentum
        change: default
        source_default: 0.1
        target_default: 0.9
        note: MindSpore's momentum is 1 - torch's
    docs:
      - https://www.mindspore.cn/docs/en/r2.4.10/note/api_mapping/pytorch_diff/BatchNorm2d.html
  - api: torch.Tensor.numpy
    match: method
    receiver: tensor
    category: ms-equivalent
    code: MS105
    target: mindspore.Tensor.asnumpy
    fix: safe
    provenance: its own source
    curated: true
inventory:
  torch.nn: [Linear, BatchNorm2d]
"""


def test_a_good_table_becomes_entries_and_inventory(tmp_path: Path) -> None:
    entries, inventory = load_table(write(tmp_path, "example.yaml", GOOD_TABLE))
    batch_norm, numpy = entries
    assert (batch_norm.api, batch_norm.route, batch_norm.category, batch_norm.line) == (
        "torch.nn.BatchNorm2d", "mindspore", "ms-differs", 4)
    assert batch_norm.target_versions.text == "<2.5"
    assert batch_norm.target_versions.contains((2, 4, 10)) and not batch_norm.target_versions.contains((2, 5))
    assert batch_norm.parameters == (
        ParameterDifference("momentum", "momentum", "default", "0.1", "0.9", "MindSpore's momentum is 1 - torch's"),
    )
    assert batch_norm.provenance == "written for this test"
    assert batch_norm.key == "example:0"
    assert (numpy.match, numpy.receiver, numpy.receiver_type, numpy.method_name) == (
        "method", "tensor", "torch.Tensor", "numpy")
    assert (numpy.code, numpy.fix, numpy.curated, numpy.provenance) == ("MS105", "safe", True, "its own source")
    assert inventory == {"torch.nn": ["Linear", "BatchNorm2d"]}


def test_defaults_that_look_like_numbers_keep_their_text(tmp_path: Path) -> None:
    path = write(tmp_path, "numbers.yaml", """
        provenance: test
        entries:
          - api: torch.optim.Adam
            category: ms-differs
            parameters:
              - source: eps
                target: eps
                change: default
                source_default: 1e-08
                target_default: 0.10
    """)
    (entry,), _ = load_table(path)
    assert (entry.parameters[0].source_default, entry.parameters[0].target_default) == ("1e-08", "0.10")


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        pytest.param(
            "  - api: torch.abs\n    category: ms-equivalent\n    colour: red\n", 5,
            "unknown key 'colour' in an entry; expected one of", id="unknown key"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-equivalent\n    curated: yes please\n", 5,
            "curated must be a bool, got str 'yes please'", id="wrong type: string for bool"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-equivalent\n    docs: https://example.invalid\n", 5,
            "docs must be a list", id="wrong type: scalar for list"),
        pytest.param(
            "  - api: [torch.abs]\n    category: ms-equivalent\n", 3,
            "api must be a str, not a list", id="wrong type: list for string"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-equal\n", 4,
            "unknown category 'ms-equal'; expected one of", id="unknown category"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-equivalent\n    target_versions: '>=2.x'\n", 5,
            "target_versions: '>=2.x' in '>=2.x' is not a version clause like '>=2.5' or '<2.8'",
            id="bad version range"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-equivalent\n    source_versions: '2.1-2.8'\n", 5,
            "source_versions: '2.1-2.8' in '2.1-2.8' is not a version clause", id="bad version range: dash"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-equivalent\n    match: regex\n", 5,
            "match must be one of ['name', 'method', 'import', 'string', 'definition', 'pattern'], got 'regex'",
            id="unknown match kind"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-equivalent\n    fix: maybe\n", 5,
            "fix must be one of ['safe', 'unsafe', 'none'], got 'maybe'", id="unknown fix"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-equivalent\n    code: MS999\n", 5,
            "unknown code 'MS999'", id="unknown code"),
        pytest.param(
            "  - api: torch.cuda.synchronize\n    category: npu-rename\n    code: MS101\n", 5,
            "code MS101 belongs to category 'ms-equivalent', not 'npu-rename'", id="code of the other route"),
        pytest.param(
            "  - api: torch.Tensor.grad\n    category: ms-differs\n    code: MS204\n", 5,
            "code MS204 belongs to category 'ms-structure', not 'ms-differs'", id="code of another category"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-equivalent\n    receiver: tensor\n", 5,
            "receiver only applies to match: method, not match: name", id="receiver on a name"),
        pytest.param(
            "  - api: cuda\n    category: npu-rename\n    match: string\n", 3,
            "a match: string entry needs a condition", id="string without role"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-equivalent\n    condition: suffix\n", 5,
            "condition of a match: name entry must be one of ['prefix', 'single-argument'",
            id="unknown condition"),
        pytest.param(
            "  - api: torch abs\n    category: ms-equivalent\n", 3,
            "api 'torch abs' must be a name without spaces", id="api with a space"),
        pytest.param(
            "  - api: view\n    category: ms-equivalent\n    match: method\n", 3,
            "a method entry's api is Type.method, got 'view'", id="method without type"),
        pytest.param(
            "  - api: torch.abs\n", 3, "entry 1 has no 'category'", id="missing category"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-differs\n    parameters:\n      - source: out\n        change: dropped\n",
            6, "a parameter difference needs change: one of", id="unknown parameter change"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-differs\n    parameters:\n      - source: out\n        change: removed\n"
            "        kind: keyword\n",
            8, "unknown key 'kind' in a parameter difference", id="unknown parameter key"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-differs\n    parameters:\n      - source: [out]\n        change: removed\n",
            6, "source of a parameter difference must be a single value, not a list", id="parameter of wrong type"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-equivalent\n    category: ms-differs\n", 5,
            "key 'category' appears twice in entry 1", id="key twice"),
        pytest.param(
            "  - api: rms-norm\n    category: npu-affinity\n    match: pattern\n    condition: rms-nrom\n", 6,
            "no matcher for pattern 'rms-nrom'", id="pattern name with no matcher"),
        pytest.param(
            "  - api: rms-nrom\n    category: npu-affinity\n    match: pattern\n", 3,
            "no matcher for pattern 'rms-nrom'", id="pattern named by its api, no matcher"),
        pytest.param(
            "  - api: rms-norm\n    category: npu-affinity\n    match: pattern\n    condition: rms-norm\n"
            "    documentation_only: true\n", 7,
            "pattern 'rms-norm' has a matcher: remove documentation_only", id="documentation-only shape that has a matcher"),
        pytest.param(
            "  - api: torch.abs\n    category: ms-equivalent\n    documentation_only: true\n", 5,
            "documentation_only only applies to match: pattern, not match: name", id="documentation-only on a name"),
    ],
)
def test_a_bad_entry_is_an_error_naming_file_and_line(tmp_path: Path, body: str, line: int, message: str) -> None:
    path = write(tmp_path, "bad.yaml", "provenance: test\nentries:\n" + body)
    error = load_error(path)
    assert error.startswith(f"{path}:{line}: ")
    assert message in error


def test_an_unknown_top_level_key_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "top.yaml", "provenance: test\nmappings: []\n")
    assert load_error(path) == (
        f"{path}:2: unknown top-level key 'mappings'; "
        "expected one of ['aliases', 'description', 'entries', 'inventory', 'module_aliases', 'provenance', 'table']"
    )


def test_an_entry_without_provenance_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "nowhere.yaml", "entries:\n  - api: torch.abs\n    category: ms-equivalent\n")
    assert load_error(path) == f"{path}:2: entry for 'torch.abs' says nowhere where it came from (provenance)"


def test_yaml_aliases_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "alias.yaml", """
        provenance: test
        entries:
          - &first
            api: torch.abs
            category: ms-equivalent
          - *first
    """)
    assert load_error(path) == f"{path}:3: YAML anchors and aliases are not allowed in mappings"


def test_yaml_that_does_not_parse_names_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.yaml", "provenance: test\nentries:\n  - api: torch.abs\n   category: [\n")
    error = load_error(path)
    assert error.startswith(f"{path}:4: not valid YAML:")


def test_an_empty_file_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "empty.yaml", "# nothing yet\n")
    assert load_error(path) == f"{path}: the file is empty"


def test_python_tags_are_refused_not_constructed(tmp_path: Path) -> None:
    path = write(tmp_path, "tag.yaml", "provenance: test\nentries:\n  - api: !!python/name:os.system\n    category: ms-equivalent\n")
    assert load_error(path) == (
        f"{path}:3: api: the tag 'tag:yaml.org,2002:python/name:os.system' is not allowed (plain YAML values only)"
    )


def test_a_duplicate_entry_across_files_names_both_places(tmp_path: Path) -> None:
    entry = "  - api: torch.abs\n    category: ms-equivalent\n    target_versions: '>=2.5'\n"
    write(tmp_path, "a.yaml", "provenance: test\nentries:\n" + entry)
    write(tmp_path, "b.yaml", "provenance: test\nentries:\n  - api: torch.add\n    category: ms-equivalent\n" + entry)
    with pytest.raises(KnowledgeBaseError) as raised:
        KnowledgeBase.from_directory(tmp_path)
    assert str(raised.value) == (
        f"{tmp_path / 'b.yaml'}:5: duplicate entry for 'torch.abs' (route mindspore, match name, versions "
        "*/>=2.5); the first is a.yaml:3"
    )


def test_the_same_api_for_other_versions_is_not_a_duplicate(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", """
        provenance: test
        entries:
          - api: torch.nn.Linear
            category: ms-equivalent
            target: mindspore.mint.nn.Linear
            target_versions: ">=2.5"
          - api: torch.nn.Linear
            category: ms-differs
            target: mindspore.nn.Dense
            target_versions: "<2.5"
    """)
    knowledge_base = KnowledgeBase.from_directory(tmp_path)
    assert [entry.target for entry in knowledge_base.view("mindspore", "2.8", "2.10").by_name["torch.nn.Linear"]] == [
        "mindspore.mint.nn.Linear"]
    assert [entry.target for entry in knowledge_base.view("mindspore", "2.8", "2.4.10").by_name["torch.nn.Linear"]] == [
        "mindspore.nn.Dense"]


def test_a_missing_mappings_directory_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(KnowledgeBaseError) as raised:
        KnowledgeBase.from_directory(tmp_path / "nowhere")
    assert str(raised.value) == f"{tmp_path / 'nowhere'}: the mappings directory does not exist"


def test_a_shape_without_a_matcher_loads_when_marked_documentation_only(tmp_path: Path) -> None:
    path = write(tmp_path, "shapes.yaml", """
        provenance: test
        entries:
          - api: box-iou
            category: npu-affinity
            match: pattern
            condition: box-iou
            documentation_only: true
        """)
    entries, _ = load_table(path)
    assert [(entry.condition, entry.documentation_only) for entry in entries] == [("box-iou", True)]
