"""The sweeps across every PyTorch → MindSpore entry (issue 16): result kinds (tools/result_kinds.py) and enum-typed
transform parameters (tools/transform_enums.py). The comparison logic runs here on real Python objects; the runs
against torch and mindspore skip without them (stage 30's venv has both)."""

from __future__ import annotations

import collections
import enum
import time
from types import SimpleNamespace

import pytest
from tools.result_kinds import compare_kinds, differences, documented_kind, result_kind
from tools.transform_enums import enum_parameters, scan_entry, torch_parameters

from ascend_migrate.kb.schema import ParameterDifference


class Tensor:
    """Stands for a framework's tensor type in the kind of a result."""


def test_a_named_result_a_plain_tuple_and_a_struct_sequence_have_different_kinds():
    Pair = collections.namedtuple("Pair", "values indices")
    tensor = Tensor()
    named = result_kind(Pair(tensor, tensor), (Tensor,))
    assert named == "named tuple (values, indices) of (tensor, tensor)"
    assert result_kind((tensor, tensor), (Tensor,)) == "tuple of (tensor, tensor)"
    # torch.return_types are struct sequences, as time.struct_time: their fields come from __match_args__
    assert result_kind(time.gmtime(0)).startswith("named tuple (tm_year, tm_mon, tm_mday")
    assert compare_kinds(named, "tuple of (tensor, tensor)") == (
        "torch returns a named tuple (.values, .indices), mindspore tuple of (tensor, tensor)")


def test_scalars_none_lists_and_tensors_are_told_apart_and_equal_kinds_are_no_lead():
    assert [result_kind(value, (Tensor,)) for value in (None, 3, 2.5, True, Tensor(), [1, 2])] == [
        "None", "Python int", "Python float", "Python bool", "tensor", "list of (Python int, Python int)"]
    assert compare_kinds("tensor", "tensor") == ""
    assert compare_kinds("tensor", "tuple of (tensor, tensor)") == "torch returns tensor, mindspore tuple of (tensor, tensor)"
    assert compare_kinds("tuple of (Python int, Python int)", "list of (Python int, Python int)")
    assert compare_kinds("tensor", "Python float")  # a 0-d tensor against a Python number


def test_a_receiver_written_by_an_out_of_place_method_or_left_by_an_in_place_one_is_a_lead():
    same = {"torch": "tensor", "mindspore": "tensor"}
    written = {**same, "receiver": {"torch": "unchanged", "mindspore": "changed"}}
    assert differences(written, "torch.Tensor.index_add", "mindspore.Tensor.index_add") == [
        "mindspore writes into the receiver; torch leaves it unchanged"]
    left = {**same, "receiver": {"torch": "changed", "mindspore": "unchanged"}}
    assert differences(left, "torch.Tensor.add_", "mindspore.Tensor.add_") == [
        "add_ leaves the receiver unchanged; torch's in-place method changes it"]
    both = {**same, "receiver": {"torch": "changed", "mindspore": "changed"}}
    assert differences(both, "torch.Tensor.add_", "mindspore.Tensor.add_") == []


def test_the_documented_kind_comes_from_mindspores_returns_section_and_torchs_prose():
    # excerpts of mindspore 2.10.0's ops.svd and torch 2.13.0's torch.sort docstrings
    mindspore_doc = "Computes the singular value decompositions.\n\nReturns:\n    Tuple of 3 tensors (s, u, v).\n"
    assert documented_kind(mindspore_doc, mindspore=True) == "tuple"
    assert documented_kind("Returns:\n    Tensor, has the same shape as input.\n", mindspore=True) == "tensor"
    assert documented_kind("No section here.", mindspore=True) == ""
    torch_doc = "A namedtuple of (values, indices) is returned, where the values are the sorted values"
    assert documented_kind(torch_doc, mindspore=False) == "named tuple"
    assert documented_kind("Returns the sum of all elements.", mindspore=False) == ""


# torchvision 0.28.0's transforms.py: the signature of Resize.__init__ and Pad.__init__, as written there
TORCHVISION_EXCERPT = '''
class Resize(torch.nn.Module):
    def __init__(self, size, interpolation=InterpolationMode.BILINEAR, max_size=None, antialias=True):
        super().__init__()


class Pad(torch.nn.Module):
    def __init__(self, padding, fill=0, padding_mode="constant"):
        super().__init__()
'''


class Inter(enum.Enum):
    BILINEAR = 2


class Border(enum.Enum):
    CONSTANT = "constant"


class Resize:
    """A transform shaped as mindspore.dataset.vision.Resize: an enum default."""

    def __init__(self, size, interpolation=Inter.BILINEAR):
        pass


class Pad:
    """A transform whose enum parameter is required; its type is in the docstring.

    Args:
        padding (int): how much.
        padding_mode (Border): the border type.
    """

    def __init__(self, padding, padding_mode):
        pass


def test_torch_constructor_parameters_are_read_from_source_without_importing_it():
    parsed = torch_parameters(TORCHVISION_EXCERPT)
    assert parsed["Resize"] == {"size": "", "interpolation": "InterpolationMode.BILINEAR", "max_size": "None",
                                "antialias": "True"}
    assert parsed["Pad"]["padding_mode"] == "'constant'"


def test_an_enum_parameter_is_found_by_its_default_or_its_documented_type_and_a_type_row_answers_it():
    assert enum_parameters(Resize) == {"interpolation": "Inter"}
    assert enum_parameters(Pad) == {"padding_mode": "Border"}
    torch_classes = torch_parameters(TORCHVISION_EXCERPT)
    entry = SimpleNamespace(api="torchvision.transforms.Resize", fix="unsafe", parameters=())
    assert scan_entry(entry, torch_classes, Resize) == [
        "interpolation (torch default InterpolationMode.BILINEAR) -> interpolation: an Inter"]
    typed = ParameterDifference(source="interpolation", target="interpolation", change="type")
    answered = SimpleNamespace(api="torchvision.transforms.Resize", fix="unsafe", parameters=(typed,))
    assert scan_entry(answered, torch_classes, Resize) == []
    # a rename row that maps torch's name onto the enum parameter is followed, and a safe fix is named
    renamed = ParameterDifference(source="padding_mode", target="padding_mode", change="renamed")
    safe = SimpleNamespace(api="torchvision.transforms.Pad", fix="safe", parameters=(renamed,))
    assert scan_entry(safe, torch_classes, Pad) == [
        "padding_mode (torch default 'constant') -> padding_mode: a Border; the fix is safe"]


def test_mindspores_own_transforms_declare_their_enums():
    vision = pytest.importorskip("mindspore.dataset.vision")
    audio = pytest.importorskip("mindspore.dataset.audio")
    assert enum_parameters(vision.Resize) == {"interpolation": "Inter"}
    assert enum_parameters(audio.Fade)["fade_shape"] == "FadeShape"


def test_the_probe_of_real_entries_shows_a_named_result_a_list_for_a_tuple_and_nothing_for_a_plain_rename():
    pytest.importorskip("torch")
    pytest.importorskip("mindspore")
    import sys

    from ascend_migrate.kb.numeric import _run_batch

    jobs = [{"api": "torch.Tensor.cummax", "target": "mindspore.Tensor.cummax", "method": True},
            {"api": "torch.Tensor.stride", "target": "mindspore.Tensor.stride", "method": True},
            {"api": "torch.abs", "target": "mindspore.mint.abs"}]
    _, found = _run_batch(jobs, sys.executable, module="tools.result_kinds", argument="--child")
    cummax, stride, absolute = found
    assert differences(cummax, "torch.Tensor.cummax", "mindspore.Tensor.cummax")[0].startswith(
        "torch returns a named tuple (.values, .indices)")
    assert (stride["torch"], stride["mindspore"]) == ("tuple of (Python int, Python int)",
                                                      "list of (Python int, Python int)")
    assert absolute["ran"] and differences(absolute, "torch.abs", "mindspore.mint.abs") == []


def test_the_ops_nn_era_population_holds_2_4_and_not_2_10_and_its_corrected_rows_are_there():
    from pathlib import Path

    from tools.signature_scan import era_population

    era = era_population(Path(__file__).resolve().parents[2] / "mappings", "2.4")
    assert era and all(entry.target_versions.contains((2, 4)) and not entry.target_versions.contains((2, 10))
                       for entry in era)
    (nansum,) = [entry for entry in era if entry.api == "torch.nansum"]
    assert (nansum.category, nansum.target) == ("ms-equivalent", "mindspore.ops.nansum")
    assert [(row.source, row.target, row.change) for row in nansum.parameters] == [
        ("dim", "axis", "renamed"), ("keepdim", "keepdims", "renamed")]
