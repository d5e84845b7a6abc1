"""The emulated torch.npu against the torch_npu 2.14.0 wheel's names (the wheel is read, never imported).

The wheel is the one CI stage 30 downloads: $ASCEND_MIGRATE_TORCH_NPU_WHEEL, else its cache directory.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from ascend_migrate.runtime.surface import wheel_module_names, wheel_npu_names

pytest.importorskip("torch")

DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "runtime-check.md"


def _wheel() -> Path:
    given = os.environ.get("ASCEND_MIGRATE_TORCH_NPU_WHEEL")
    cache = Path(os.environ.get("ASCEND_MIGRATE_KB_VERIFY_DIR") or Path(os.environ.get("TMPDIR", "/tmp")) / "ascend-migrate-kb-verify")
    candidates = [Path(given)] if given else sorted((cache / "torch_npu").glob("torch_npu-2.14.0-*.whl"))
    if not candidates or not candidates[0].is_file():
        pytest.skip("the torch_npu 2.14.0 wheel is not here (CI stage 30 downloads it)")
    return candidates[0]


def _emulated_names() -> set[str]:
    from ascend_migrate.runtime.emulation import build_npu_module

    npu = build_npu_module()
    return set(npu.__all__) | {f"amp.{name}" for name in npu.amp.__all__}


def test_every_emulated_name_is_defined_by_the_wheel():
    invented = _emulated_names() - wheel_npu_names(_wheel())
    assert not invented, f"torch.npu names the emulation gives but torch_npu 2.14.0 does not define: {sorted(invented)}"


def test_the_names_not_emulated_are_the_ones_the_document_lists():
    missing = wheel_npu_names(_wheel()) - _emulated_names()
    listed = re.search(r"<!-- not-emulated -->\n(.*?)\n<!-- /not-emulated -->", DOCUMENT.read_text(encoding="utf-8"), re.S)
    assert listed, f"{DOCUMENT} has no not-emulated list"
    documented = set(re.findall(r"`([\w.]+)`", listed.group(1)))
    assert missing == documented, (f"not emulated but not in {DOCUMENT.name}: {sorted(missing - documented)}; "
                                   f"listed there but emulated or not in the wheel: {sorted(documented - missing)}")


def test_the_emulated_affine_names_are_the_wheels():
    """torch_npu.optim and torch_npu.contrib.{module,function} as the emulation gives them (what the npu fixes write)."""
    from ascend_migrate.runtime import affine

    wheel = _wheel()
    for dotted, module in affine.modules().items():
        given = {name for name in vars(module) if not name.startswith("_")}
        invented = given - wheel_module_names(wheel, dotted.replace(".", "/") + "/__init__.py")
        assert given and not invented, f"{dotted} names the wheel does not define: {sorted(invented)}"


def test_the_fused_optimizer_parameters_are_the_wheels():
    """What the npu fix keeps of an optimizer's arguments (analysis/rules/fused_optimizers.py) and what the emulation
    takes (runtime/affine.py) are the parameter lists of the wheel's NpuFused* constructors."""
    import ast
    import inspect
    import warnings
    import zipfile

    from ascend_migrate.analysis.rules.fused_optimizers import FUSED_PARAMETERS
    from ascend_migrate.runtime import affine

    constructors = {}
    with zipfile.ZipFile(_wheel()) as wheel:
        for name in wheel.namelist():
            if name.startswith("torch_npu/optim/npu_fused_") and name.endswith(".py"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", SyntaxWarning)  # the wheel's own invalid escapes ('\\s')
                    warnings.simplefilter("ignore", DeprecationWarning)
                    tree = ast.parse(wheel.read(name))
                for node in tree.body:
                    if isinstance(node, ast.ClassDef):
                        for function in node.body:
                            if isinstance(function, ast.FunctionDef) and function.name == "__init__":
                                constructors[node.name] = tuple(argument.arg for argument in function.args.args[2:])
    for api, parameters in FUSED_PARAMETERS.items():
        fused = "NpuFused" + api.rsplit(".", 1)[-1]
        assert constructors[fused] == parameters, fused
        assert tuple(inspect.signature(getattr(affine, fused).__init__).parameters)[2:] == parameters, fused
