"""Command line: regenerate mappings/pytorch_mindspore*.yaml and mappings/tensorflow_mindspore.yaml."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from tools.generate_mappings import general, pytorch_rows
from tools.generate_mappings import tensorflow_rows as tensorflow_table
from tools.generate_mappings.emit import dump_table
from tools.generate_mappings.existing import hand_written_apis
from tools.generate_mappings.numeric import NumericRecord
from tools.generate_mappings.parameters import ParameterIndex
from tools.generate_mappings.signatures import Signatures
from tools.generate_mappings.sources import (
    DEFAULT_REFERENCE,
    read_general_parameters,
    read_mapping,
    read_parameters,
    read_resolution,
)

HERE = Path(__file__).resolve().parent
SOURCE_RESOLUTION = HERE / "source_resolution.json"
TENSORFLOW_RESOLUTION = HERE / "tensorflow_resolution.json"
NOT_INSTALLED = ("torchaudio", "torchtext")


def refresh_source_resolution(names: set[str], torch_python: str, torchvision_python: str | None) -> None:
    """Checks each torch-side name in the real packages and caches the answers (the venvs are not in git)."""
    results: dict[str, str] = {}
    groups = {"torch": sorted(name for name in names if name.split(".")[0] == "torch")}
    if torchvision_python:
        groups["torchvision"] = sorted(name for name in names if name.split(".")[0] == "torchvision")
    for package, group in groups.items():
        python = torch_python if package == "torch" else torchvision_python
        version = subprocess.run([python, "-c", f"import {package}; print({package}.__version__)"],
                                 capture_output=True, text=True, check=True).stdout.strip()
        answer = subprocess.run([python, str(HERE / "resolve_names.py")], input="\n".join(group),
                                capture_output=True, text=True, check=True).stdout
        for name, resolves in json.loads(answer).items():
            results[name] = f"{'resolves' if resolves else 'does not resolve'} in {package} {version}"
    for name in names:
        if name.split(".")[0] in NOT_INSTALLED:
            results[name] = f"not checked ({name.split('.')[0]} is not installed)"
    SOURCE_RESOLUTION.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def refresh_tensorflow_resolution(names: set[str], tensorflow_python: str) -> None:
    """Checks the TensorFlow names in an installed TensorFlow (2.21 installs here; the table's 2.6 does not)."""
    version = subprocess.run(
        [tensorflow_python, "-c", "import tensorflow, keras; print(tensorflow.__version__, keras.__version__)"],
        capture_output=True, text=True, check=True).stdout.split()
    label = f"tensorflow {version[0]} (keras {version[1]})"
    answer = subprocess.run([tensorflow_python, str(HERE / "resolve_names.py")], input="\n".join(sorted(names)),
                            capture_output=True, text=True, check=True).stdout
    results = {}
    for name, resolves in json.loads(answer).items():
        if name.startswith("tensorflow_probability."):
            results[name] = "not checked (tensorflow_probability is not installed)"
        else:
            results[name] = f"{'resolves' if resolves else 'does not resolve'} in {label}"
    TENSORFLOW_RESOLUTION.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.generate_mappings", description=__doc__)
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE, help="the reference/mindspore folder")
    parser.add_argument("--mappings", type=Path, default=Path("mappings"))
    parser.add_argument("--torch-python", help="re-check torch source names with this interpreter")
    parser.add_argument("--torchvision-python", help="re-check torchvision source names with this interpreter")
    parser.add_argument("--tensorflow-python", help="re-check TensorFlow source names with this interpreter")
    arguments = parser.parse_args(argv)
    reference = arguments.reference
    master = read_mapping(reference / "pytorch_api_mapping.csv", "torch_api", "pytorch_doc_version")
    legacy = read_mapping(reference / "pytorch_api_mapping_r2.4.10.csv", "torch_api", "pytorch_doc_version")
    target_resolution = read_resolution(reference / "mindspore_api_resolution.csv")
    if arguments.torch_python:
        from tools.generate_mappings.corrections import correct_source

        names = {correct_source(row.source_api)[0] for row in master + legacy if row.source_api}
        refresh_source_resolution(names, arguments.torch_python, arguments.torchvision_python)
    source_resolution = json.loads(SOURCE_RESOLUTION.read_text(encoding="utf-8")) if SOURCE_RESOLUTION.exists() else {}
    hand_written = hand_written_apis(arguments.mappings)

    lookups = pytorch_rows.Lookups(
        parameters=ParameterIndex(read_parameters(reference / "pytorch_param_diffs.csv", "torch")),
        target_resolution=target_resolution,
        source_resolution=source_resolution,
        numeric=NumericRecord.read(arguments.mappings),
        signatures=Signatures.read(),
    )
    outcome = pytorch_rows.build(master, legacy, lookups, hand_written)
    covered = len({entry["api"] for entry in outcome.entries}) + len(outcome.skipped)
    dump_table(
        arguments.mappings / "pytorch_mindspore.yaml", "pytorch_mindspore",
        f"PyTorch → MindSpore from MindSpore's API mapping docs: master (≈ 2.6, mindspore.mint, target_versions "
        f">=2.5) and r2.4.10 (mindspore.ops/nn). {len(outcome.source_apis)} distinct torch APIs as the docs spell "
        f"them, {covered} after spelling corrections. Left to the hand-written tables: "
        f"{', '.join(sorted(outcome.skipped)) or 'none'}.",
        pytorch_rows.file_provenance(), outcome.entries,
    )
    general_entries = general.build(read_general_parameters(reference / "pytorch_general_difference_params.csv"))
    dump_table(
        arguments.mappings / "pytorch_mindspore_keywords.yaml", "pytorch_mindspore_keywords",
        "The docs' General Difference Parameter Table: torch keyword arguments MindSpore has on no API. "
        "One entry per keyword: match pattern, condition general-keyword, api the keyword, code MS104.",
        general.file_provenance(), general_entries,
    )
    tensorflow_rows = read_mapping(reference / "tensorflow_api_mapping.csv", "tf_api", "tensorflow_doc_version")
    if arguments.tensorflow_python:
        refresh_tensorflow_resolution({tensorflow_table.real_name(row.source_api) for row in tensorflow_rows},
                                      arguments.tensorflow_python)
    tensorflow_resolution = (json.loads(TENSORFLOW_RESOLUTION.read_text(encoding="utf-8"))
                             if TENSORFLOW_RESOLUTION.exists() else {})
    tensorflow_entries = tensorflow_table.build(
        tensorflow_rows, ParameterIndex(read_parameters(reference / "tensorflow_param_diffs.csv", "tf")), target_resolution,
        tensorflow_resolution, hand_written,
    )
    dump_table(
        arguments.mappings / "tensorflow_mindspore.yaml", "tensorflow_mindspore",
        f"TensorFlow → MindSpore from MindSpore's r2.1 docs (TensorFlow 2.6, a TensorFlow 1.15 block and one "
        f"tfp 0.14.1 row): {len(tensorflow_rows)} rows in {len(tensorflow_entries)} entries.",
        tensorflow_table.file_provenance(), tensorflow_entries,
    )
    print(f"pytorch_mindspore: {len(outcome.entries)} entries for {covered} torch APIs "
          f"({len(outcome.source_apis)} as spelled in the docs), {len(outcome.skipped)} left to hand-written tables")
    for correction in outcome.corrections:
        print(f"  correction: {correction}")
    print(f"pytorch_mindspore_keywords: {len(general_entries)} entries")
    print(f"tensorflow_mindspore: {len(tensorflow_entries)} entries from {len(tensorflow_rows)} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
