"""`kb verify`'s resolution logic, on real standard-library modules and a small wheel built here.

No torch or mindspore is needed: the resolvers are the same code that checks them in CI
(.ci/stages/30-kb-verify.sh), pointed at packages every Python has.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.kb.numeric import load_record
from ascend_migrate.kb.verify import ModuleResolver, NeedsDependency, Resolvers, WheelResolver, verify_names

MAPPINGS = Path(__file__).resolve().parents[2] / "mappings"


def test_an_installed_name_resolves_by_import_then_getattr():
    resolver = ModuleResolver("json")
    assert resolver.resolve("json.dumps") is None
    assert resolver.resolve("json.decoder.JSONDecoder.decode") is None  # a submodule, a class, a method


def test_a_missing_attribute_says_which_owner_lacks_it():
    resolver = ModuleResolver("os")
    assert resolver.resolve("os.path.join") is None
    assert resolver.resolve("os.path.no_such_function") == "os.path has no attribute no_such_function"


def test_a_module_that_needs_an_absent_package_is_reported_as_unverifiable(tmp_path, monkeypatch):
    package = tmp_path / "needs_extra"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "writer.py").write_text("import some_absent_dependency\nclass Writer: pass\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    reason = ModuleResolver("needs_extra").resolve("needs_extra.writer.Writer")
    assert isinstance(reason, NeedsDependency)
    assert reason == "needs_extra.writer needs some_absent_dependency, which is not installed"


TABLE = """\
table: checked
provenance: written for these tests
entries:
  - api: json.dumps
    category: ms-equivalent
    target: json.loads
  - api: json.dumps_everything
    category: ms-equivalent
    target: json.loads
  - api: os.path.join
    category: ms-equivalent
    target: os.path.no_such_join
  - api: torch.cuda.synchronize
    route: npu
    category: npu-rename
    target: torch_npu.npu.synchronize
  - api: cuda
    match: string
    condition: device
    route: npu
    category: npu-rename
    target: npu
  - api: json.dump
    category: ms-differs
    target: not a name
"""


@pytest.fixture
def knowledge_base(tmp_path: Path) -> KnowledgeBase:
    directory = tmp_path / "mappings"
    directory.mkdir()
    (directory / "checked.yaml").write_text(TABLE, encoding="utf-8")
    return KnowledgeBase.from_directory(directory)


def test_verify_reports_each_unresolved_name_with_file_and_line(knowledge_base):
    report = verify_names(knowledge_base, Resolvers())
    table = knowledge_base.directory / "checked.yaml"
    json_version = __import__("json").__version__
    assert [problem.line() for problem in report.problems] == [
        f"{table}:7: source json.dumps_everything (entry json.dumps_everything) does not resolve: "
        f"json has no attribute dumps_everything (json {json_version})",
        f"{table}:10: target os.path.no_such_join (entry os.path.join) does not resolve: os.path has no attribute no_such_join",
        f"{table}:23: target not a name (entry json.dump) does not resolve: not a qualified Python name",
    ]


def test_verify_skips_and_counts_what_is_not_installed(knowledge_base):
    report = verify_names(knowledge_base, Resolvers())
    assert dict(report.skipped) == {"targets in torch_npu (not installed here)": 1, "sources in torch (not installed here)": 1}
    assert report.checked["target"] == 4  # string targets are literal values, not names
    assert report.resolved["target"] == 2


def test_verify_lines_end_with_a_summary(knowledge_base):
    lines = verify_names(knowledge_base, Resolvers()).lines()
    assert lines[-1] == ("kb verify: 6 entries, 3 unresolved names, NOT VERIFIED against torch (1 name), "
                         "torch_npu (1 name): not installed, 0 parameter warnings")
    assert lines[-3] == "targets: 2 of 4 resolve (50.0 %)"


def test_the_kb_verify_command_exits_1_on_unresolved_names(knowledge_base):
    result = subprocess.run(
        [sys.executable, "-m", "ascend_migrate", "kb", "--mappings", str(knowledge_base.directory), "verify", "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 1
    assert '"name": "os.path.no_such_join"' in result.stdout


def test_parameter_names_of_differences_are_checked_against_the_installed_signatures(tmp_path):
    directory = tmp_path / "mappings"
    directory.mkdir()
    (directory / "parameters.yaml").write_text(
        "provenance: written for these tests\n"
        "entries:\n"
        "  - api: shutil.copyfile\n"
        "    category: ms-differs\n"
        "    target: shutil.copy\n"
        "    parameters:\n"
        "      - {source: follow_symlinks, target: null, change: removed}\n"
        "      - {source: src, target: source, change: renamed}\n",
        encoding="utf-8",
    )
    report = verify_names(KnowledgeBase.from_directory(directory), Resolvers())
    assert report.parameters_checked == 3
    assert report.warning_lines() == [
        f"{directory / 'parameters.yaml'}:3: target parameter source (entry shutil.copyfile) is not in the signature: "
        "shutil.copy takes dst, follow_symlinks, src (renamed)"
    ]
    assert report.problems == []


def test_parameter_names_of_type_rows_are_checked_too(tmp_path):
    # a `type` row names a keyword a call passes (MS102 names it): ger's vec2 was written `other`, which no MindSpore has
    directory = tmp_path / "mappings"
    directory.mkdir()
    (directory / "types.yaml").write_text(
        "provenance: written for these tests\n"
        "entries:\n"
        "  - api: shutil.copyfile\n"
        "    category: ms-differs\n"
        "    target: shutil.copy\n"
        "    parameters:\n"
        "      - {source: dst, target: dst, change: type}\n"
        "      - {source: follow_symlinks, target: symlinks, change: type}\n",
        encoding="utf-8",
    )
    report = verify_names(KnowledgeBase.from_directory(directory), Resolvers())
    assert report.parameters_checked == 4
    assert report.warning_lines() == [
        f"{directory / 'types.yaml'}:3: target parameter symlinks (entry shutil.copyfile) is not in the signature: "
        "shutil.copy takes dst, follow_symlinks, src (type)"
    ]


WHEEL_FILES = {
    "torch_npu/__init__.py": "from torch_npu import npu\n__all__ = ['npu_format_cast']\n\ndef npu_format_cast(x, f):\n    return x\n",
    "torch_npu/npu/__init__.py": "from .utils import *\nfrom . import amp\n\ndef synchronize(device=None):\n    torch_npu._C._npu_synchronize()\n",
    "torch_npu/npu/utils.py": "def device_count():\n    return 1\n\nclass Stream:\n    def wait_event(self, event):\n        pass\n",
    "torch_npu/npu/amp.py": "class GradScaler:\n    pass\n",
    "torch_npu/utils/exposed_api.py": "public_npu_functions = ['npu_fusion_attention', 'npu_rms_norm']\n",
    "torch_npu/utils/custom_ops.py": "import torch_npu\ntorch_npu.npu_swiglu = torch.ops.npu.npu_swiglu\n",
    "torch_npu/utils/tensor_methods.py": "def npu(self, device=None):\n    return self\n",
    "torch_npu/_init/patches/distributed_patches.py": "PATCHES = [('distributed.is_hccl_available', 'x')]\n",
}


@pytest.fixture
def wheel(tmp_path: Path) -> WheelResolver:
    path = tmp_path / "torch_npu-9.9.0-cp311-cp311-linux_x86_64.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in WHEEL_FILES.items():
            archive.writestr(name, text)
    return WheelResolver(path)


@pytest.mark.parametrize("name", [
    "torch_npu.npu.synchronize",  # a function in a package's __init__
    "torch_npu.npu.device_count",  # through `from .utils import *`
    "torch_npu.npu.Stream.wait_event",  # a method of a class
    "torch_npu.npu.amp.GradScaler",  # a submodule
    "torch_npu.npu_format_cast",  # in __all__
    "torch_npu.npu_fusion_attention",  # a custom operator listed in exposed_api
    "torch_npu.npu_swiglu",  # set on the package by an attribute assignment
    "torch_npu._C._npu_synchronize",  # a C++ name the Python sources use
])
def test_wheel_names_resolve_without_importing(wheel, name):
    assert wheel.resolve(name) is None
    assert "torch_npu" not in sys.modules


@pytest.mark.parametrize(("name", "reason"), [
    ("torch_npu.npu.no_such", "torch_npu.npu in torch_npu-9.9.0-cp311-cp311-linux_x86_64.whl has no no_such"),
    ("torch_npu.npu.Stream.no_method", "class torch_npu.npu.utils.Stream in torch_npu-9.9.0-cp311-cp311-linux_x86_64.whl defines no no_method"),
    ("torch_npu._C._never_used", "torch_npu._C._never_used is not used by any Python source in torch_npu-9.9.0-cp311-cp311-linux_x86_64.whl"),
])
def test_wheel_names_that_do_not_exist_say_why(wheel, name, reason):
    assert wheel.resolve(name) == reason


def test_the_wheel_version_comes_from_its_file_name(wheel):
    assert wheel.version == "9.9.0"


def test_the_committed_numeric_record_covers_at_least_200_entries():
    record = load_record(MAPPINGS)
    run = [outcome for outcome in record.values() if outcome["outcome"] in ("agree", "differ", "error")]
    assert len(run) >= 200
    assert record[("torch.abs", "mindspore.mint.abs")]["outcome"] == "agree"


class _Layer:
    def __init__(self, size: int) -> None:
        self.weight = [0.0] * size
        self.bias: list[float] | None = None


class _Embedding(_Layer):
    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.padding_idx = None


def test_an_instance_attribute_the_constructor_sets_counts_as_a_name_of_the_class():
    # `torch.nn.Embedding.weight` (MS222) exists on every instance, not on the class: getattr alone calls it unresolved
    from ascend_migrate.kb.verify import _constructor_assigns

    assert _constructor_assigns(_Embedding, "padding_idx") and _constructor_assigns(_Embedding, "weight")
    assert _constructor_assigns(_Embedding, "bias")  # an annotated assignment
    assert not _constructor_assigns(_Embedding, "embedding_table")
    assert not _constructor_assigns(_Embedding(2), "weight")  # an instance is not a class
