"""A regeneration reproduces mappings/ byte for byte: hand decisions live in the generators, not only in the tables."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # tools/ is not part of the installed package
from tools.generate_ascend import hand_edits  # noqa: E402
from tools.generate_ascend.__main__ import main as generate_ascend  # noqa: E402
from tools.generate_mappings.__main__ import main as generate_mappings  # noqa: E402

MINDSPORE_REFERENCE = Path(os.environ.get("ASCEND_MIGRATE_MINDSPORE_REFERENCE", "/work/shared/reference/mindspore"))
ASCEND_REFERENCE = Path(os.environ.get("ASCEND_MIGRATE_ASCEND_REFERENCE", "/work/shared/reference/ascend"))
# msfmktransplt's resource/*.json (Ascend-mstt 99c2e0f) and the torch_npu 2.14.0 wheel are not in the repository
# (a variable of its own: ASCEND_MIGRATE_TORCH_NPU_WHEEL would change what kb verify checks in other tests).
MSFMK_RESOURCES = os.environ.get("ASCEND_MIGRATE_MSFMK_RESOURCES", "")
TORCH_NPU_WHEEL = os.environ.get("ASCEND_MIGRATE_REGENERATE_NPU_WHEEL", "")


def test_the_mindspore_generator_reproduces_its_tables(tmp_path: Path) -> None:
    if not (MINDSPORE_REFERENCE / "pytorch_api_mapping.csv").exists():
        pytest.skip(f"no MindSpore reference data at {MINDSPORE_REFERENCE} (ASCEND_MIGRATE_MINDSPORE_REFERENCE)")
    shutil.copytree(ROOT / "mappings", tmp_path / "mappings")  # the hand-written tables and the numeric record
    assert generate_mappings(["--reference", str(MINDSPORE_REFERENCE), "--mappings", str(tmp_path / "mappings")]) == 0
    for table in ("pytorch_mindspore", "pytorch_mindspore_keywords", "tensorflow_mindspore"):
        fresh = (tmp_path / "mappings" / f"{table}.yaml").read_bytes()
        assert fresh == (ROOT / "mappings" / f"{table}.yaml").read_bytes(), f"{table}.yaml differs after regeneration"


def test_the_ascend_generator_reproduces_its_tables(tmp_path: Path) -> None:
    if not (MSFMK_RESOURCES and Path(MSFMK_RESOURCES, "op_list_2_8.json").exists()
            and TORCH_NPU_WHEEL and Path(TORCH_NPU_WHEEL).exists()):
        pytest.skip("set ASCEND_MIGRATE_MSFMK_RESOURCES (msfmktransplt resource/*.json) and "
                    "ASCEND_MIGRATE_REGENERATE_NPU_WHEEL (torch_npu 2.14.0 wheel); see docs/knowledge-base-ascend.md")
    assert generate_ascend(["--reference", str(ASCEND_REFERENCE), "--resources", MSFMK_RESOURCES,
                            "--wheel", TORCH_NPU_WHEEL, "--output", str(tmp_path)]) == 0
    for table in ("cuda_npu", "npu_affinity", "npu_unsupported", "npu_dynamic_shape", "third_party"):
        fresh = (tmp_path / f"{table}.yaml").read_bytes()
        assert fresh == (ROOT / "mappings" / f"{table}.yaml").read_bytes(), f"{table}.yaml differs after regeneration"


def write_edits(path: Path, items: list[dict]) -> None:
    path.write_text(yaml.safe_dump({"tables": {"npu_unsupported": items}}), encoding="utf-8")


def test_a_hand_edit_sets_and_removes_fields_of_its_entry_only(tmp_path: Path) -> None:
    write_edits(tmp_path / "edits.yaml", [{"api": "torch.load", "match": "name",
                                           "set": {"reported": False, "suggestion": None}}])
    edits = hand_edits.HandEdits.read(tmp_path / "edits.yaml")
    load = {"api": "torch.load", "match": "name", "suggestion": "pass map_location", "note": "n"}
    other = {"api": "torch.save", "match": "name", "suggestion": "s"}
    edits.apply("npu_unsupported", load)
    edits.apply("npu_unsupported", other)
    assert load == {"api": "torch.load", "match": "name", "reported": False, "note": "n"}
    assert other == {"api": "torch.save", "match": "name", "suggestion": "s"}
    edits.check_all_used()


def test_a_hand_edit_whose_entry_is_gone_stops_the_generator(tmp_path: Path) -> None:
    write_edits(tmp_path / "edits.yaml", [{"api": "torch.gone", "match": "name", "set": {"reported": False}}])
    edits = hand_edits.HandEdits.read(tmp_path / "edits.yaml")
    edits.apply("npu_unsupported", {"api": "torch.gone", "match": "name", "source_versions": "<2.7"})
    with pytest.raises(hand_edits.HandEditError, match="no generated entry for 1 hand edits: npu_unsupported: torch.gone"):
        edits.check_all_used()


def test_only_the_reviewed_fields_can_be_edited_by_hand(tmp_path: Path) -> None:
    write_edits(tmp_path / "edits.yaml", [{"api": "torch.load", "set": {"target": "torch_npu.load"}}])
    with pytest.raises(hand_edits.HandEditError, match=r"entry 1 \(torch.load\): fields \['target'\]"):
        hand_edits.HandEdits.read(tmp_path / "edits.yaml")

