"""Name resolution: every import form, aliases, scopes, and references in every syntactic position."""

import pytest

SYNC = "torch.cuda.synchronize"


@pytest.mark.parametrize(
    "source, line",
    [
        ("import torch\ntorch.cuda.synchronize()\n", 2),
        ("import torch as T\nT.cuda.synchronize()\n", 2),
        ("import torch.cuda\ntorch.cuda.synchronize()\n", 2),
        ("import torch.cuda as tc\ntc.synchronize()\n", 2),
        ("from torch import cuda as tc\ntc.synchronize()\n", 2),
        ("from torch.cuda import synchronize\nsynchronize()\n", 2),
        ("from torch.cuda import synchronize as sync\nsync()\n", 2),
        ("def step():\n    import torch\n    torch.cuda.synchronize()\n", 3),
        ("try:\n    import torch\nexcept ImportError:\n    torch = None\n\ndef f():\n    torch.cuda.synchronize()\n", 7),
    ],
)
def test_every_import_form_resolves(found, source, line):
    assert found(source) == [(line, "NPU101", SYNC)]


def test_other_modules_with_the_same_attribute_names_are_not_torch(found):
    source = """
        import mylib as torch_like
        import cupy
        torch_like.cuda.synchronize()
        cupy.cuda.synchronize()
    """
    assert found(source) == []


def test_a_parameter_shadows_an_import(found):
    source = """
        import torch.nn as nn
        def build(nn):
            return nn.Linear(3, 4)
        layer = nn.Linear(3, 4)
    """
    assert found(source, target="mindspore") == [(5, "MS101", "torch.nn.Linear")]


def test_a_local_assignment_shadows_an_import_from_that_point(found):
    source = """
        import torch
        def f():
            torch.cuda.synchronize()
            torch = object()
            torch.cuda.synchronize()
    """
    assert found(source) == [(4, "NPU101", SYNC)]


def test_comprehension_and_lambda_variables_shadow(found):
    source = """
        import torch
        values = [torch.cuda.synchronize() for torch in range(3)]
        call = lambda torch: torch.cuda.synchronize()
    """
    assert found(source) == []


def test_references_in_every_position(found):
    source = """
        import torch
        import torch.nn as nn

        torch.backends.cudnn.benchmark = True
        enabled = torch.backends.cudnn.benchmark
        scaler = torch.cuda.amp.GradScaler()

        @torch.jit.script
        def fused(x: torch.cuda.FloatTensor) -> torch.cuda.FloatTensor:
            return x

        class Net(nn.Module):
            pass

        with torch.cuda.nvtx.range("step"):
            pass
        available = getattr(torch.cuda, "is_available")
        checker = torch.cuda.is_available
    """
    assert found(source) == [
        (5, "NPU203", "torch.backends.cudnn.benchmark"),
        (6, "NPU203", "torch.backends.cudnn.benchmark"),
        (7, "NPU101", "torch.cuda.amp.GradScaler"),
        (9, "NPU202", "torch.jit.script"),
        # line 10: annotations run nothing that fails on Ascend (issue 15): no finding
        (16, "NPU202", "torch.cuda.nvtx.range"),
        (18, "NPU101", "torch.cuda.is_available"),
        (19, "NPU101", "torch.cuda.is_available"),
    ]
    assert found(source, target="mindspore") == [(13, "MS201", "torch.nn.Module")]


def test_outer_chain_is_one_reference_not_each_prefix(run):
    result = run("import torch\ntorch.cuda.synchronize()\n")
    assert [(f.column, f.end_column) for f in result.findings] == [(1, 23)]


def test_third_party_imports(found):
    source = """
        import amp_C
        from apex.optimizers import FusedAdam
        from apex import amp
        optimizer = FusedAdam(params)
    """
    assert found(source) == [
        (2, "TP101", "amp_C"),
        (3, "TP101", "apex.optimizers"),
        (4, "TP101", "apex"),
        (5, "NPU301", "apex.optimizers.FusedAdam"),
    ]


@pytest.mark.parametrize("statement, column", [
    ("import torch_npu.contrib.transfer_to_npu", 8),
    ("from torch_npu.contrib import transfer_to_npu", 31),
    ("from torch_npu.contrib import transfer_to_npu as auto", 31),
])
def test_the_auto_migration_caveat_whichever_form_imports_it(statement, column):
    """transfer_to_npu's caveat (jit.script becomes the identity, channels_last) for the from-import too: it named
    only torch_npu.contrib, which has no entry, so the form the Ascend guide writes went without it."""
    from ascend_migrate.analysis.engine import analyze
    from ascend_migrate.config import Settings

    findings = [finding for finding in analyze(f"import torch\nimport torch_npu\n{statement}\n", "train.py",
                                               Settings(target="npu")) if finding.code == "NPU202"]
    assert [(finding.line, finding.column, finding.api, finding.severity) for finding in findings] == [
        (3, column, "torch_npu.contrib.transfer_to_npu", "info")]
    assert "torch.jit.script becomes the identity" in findings[0].message


def test_a_from_import_of_a_listed_module_beside_unlisted_names_gets_both():
    """`from apex import amp, contrib`: apex.amp's entry on amp, apex's on the statement for the rest; `from
    torch.utils import tensorboard` gets tensorboard's caveat (torch's own entry is only for a missing torch_npu)."""
    source = """
        import torch
        import torch_npu
        from apex import amp, contrib
        from torch.utils import tensorboard, data
    """
    from textwrap import dedent

    from ascend_migrate.analysis.engine import analyze
    from ascend_migrate.config import Settings

    findings = analyze(dedent(source), "train.py", Settings(target="npu"))
    assert sorted((finding.line, finding.code, finding.api) for finding in findings) == [
        (4, "TP101", "apex"), (4, "TP101", "apex.amp"), (5, "NPU202", "torch.utils.tensorboard")]


def test_tensorflow_alias(found):
    source = """
        import tensorflow as tf
        from tensorflow.keras import layers
        a = tf.keras.layers.Dense(4)
        b = layers.Dense(4)
    """
    assert found(source, target="mindspore") == [
        (4, "MS102", "tensorflow.keras.layers.Dense"),
        (5, "MS102", "tensorflow.keras.layers.Dense"),
    ]


def test_public_name_without_mapping_is_unsupported_for_mindspore(run):
    result = run("import torch\ny = torch.histc(x)\nz = torch.zeros_not_public(1)\n", target="mindspore")
    assert [(f.line, f.code, f.api, f.category) for f in result.findings] == [(2, "MS103", "torch.histc", "ms-unsupported")]
    assert "custom operator" in result.findings[0].suggestion


def test_single_argument_condition(found):
    source = """
        import torch
        a = torch.where(mask)
        b = torch.where(mask, x, y)
        c = torch.nonzero(x)
    """
    assert found(source) == [(3, "NPU401", "torch.where"), (5, "NPU401", "torch.nonzero")]


@pytest.mark.parametrize("target, code", [("npu", "NPU201"), ("mindspore", "MS208")])
def test_data_parallel_under_every_name_torch_exports_it(target, code):
    """torch.nn.parallel.DataParallel and torch.nn.parallel.data_parallel.DataParallel are torch.nn.DataParallel
    (torch 2.13.0): `from torch.nn.parallel import DataParallel` (basicsr's spelling) went unreported on both routes.
    A class of the user's own named DataParallel is not torch's."""
    from textwrap import dedent

    from ascend_migrate.analysis.engine import analyze
    from ascend_migrate.config import Settings

    source = dedent("""
        import torch.nn as nn
        from torch.nn.parallel import DataParallel
        from torch.nn.parallel import data_parallel

        net = nn.Linear(2, 3)
        first = DataParallel(net)
        second = data_parallel.DataParallel(net)
        third = nn.DataParallel(net)


        def wrap(model):
            class DataParallel:
                def __init__(self, module):
                    self.module = module
            return DataParallel(model)
    """)
    findings = analyze(source, "train.py", Settings(target=target))
    assert [(finding.line, finding.api) for finding in findings if finding.code == code] == [
        (7, "torch.nn.parallel.DataParallel"), (8, "torch.nn.parallel.data_parallel.DataParallel"), (9, "torch.nn.DataParallel")]


# (the module a program imports the name from, the name, the module the tables spell it under): each pair is one object
# in torch 2.13.0 (mappings/torch_aliases.yaml, generated with an identity check); the first spelling has no entry of its
# own, so only the alias table finds the entries
_REEXPORTED = [
    ("torch.nn.modules.conv", "Conv2d", "torch.nn"),
    ("torch.nn.modules.loss", "CrossEntropyLoss", "torch.nn"),
    ("torch.optim.adam", "Adam", "torch.optim"),
    ("torch.optim.adamw", "AdamW", "torch.optim"),
    ("torch.functional", "meshgrid", "torch"),
    ("torch.nn.utils.clip_grad", "clip_grad_norm_", "torch.nn.utils"),
    ("torch.cuda.amp.grad_scaler", "GradScaler", "torch.cuda.amp"),
    ("torch.amp.autocast_mode", "autocast", "torch.amp"),
]


@pytest.mark.parametrize("target", ["npu", "mindspore"])
@pytest.mark.parametrize("module, name, public", _REEXPORTED)
def test_a_name_torch_reexports_gets_the_findings_of_its_public_spelling(target, module, name, public):
    """`from torch.nn.modules.conv import Conv2d` is torch.nn.Conv2d: the same findings (code, severity, message,
    fix), the api as the code writes it; a written `torch.nn.modules.conv.Conv2d(...)` too."""
    from textwrap import dedent

    from ascend_migrate.analysis.engine import analyze
    from ascend_migrate.config import Settings

    template = dedent("""
        import torch
        import {module}
        from {module} import {name}

        net = torch.nn.Linear(2, 3)
        first = {name}(net.parameters())
        second = {module}.{name}(net.parameters())
    """)

    def findings(spelled_module):
        source = template.format(module=spelled_module, name=name)
        return [(finding.line, finding.code, finding.severity, finding.api, finding.message, finding.fix is not None)
                for finding in analyze(source, "train.py", Settings(target=target)) if finding.line in (7, 8)]

    written = findings(module)
    public_name, written_name = f"{public}.{name}", f"{module}.{name}"
    expected = [(line, code, severity, written_name if api == public_name else api,
                 message.replace(f"`{public_name}`", f"`{written_name}`"), fixed)
                for line, code, severity, api, message, fixed in findings(public)]
    assert written == expected
    if target == "mindspore":  # every one of these names has a MindSpore entry: the comparison is not of two empties
        assert {line for line, *_ in written} == {7, 8}
