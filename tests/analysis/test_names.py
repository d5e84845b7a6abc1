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
