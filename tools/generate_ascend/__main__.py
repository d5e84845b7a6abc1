"""`python -m tools.generate_ascend`: regenerate the NPU-route mappings from the Ascend reference data."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from tools.generate_ascend import (
    affinity_rows,
    cuda_rows,
    curated,
    dynamic_rows,
    hand_edits,
    third_party,
    unsupported_rows,
)
from tools.generate_ascend.book import TABLE_DESCRIPTIONS, Book
from tools.generate_ascend.reference import VersionTables, read_rows
from tools.generate_ascend.wheel_names import WheelNames, verify_drafts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.generate_ascend", description=__doc__)
    parser.add_argument("--reference", type=Path, default=Path("../shared/reference/ascend"),
                        help="directory with cuda_to_npu.csv, affinity_apis.csv, unsupported_or_caveats.csv, "
                             "dynamic_shape_ops.csv (default: %(default)s)")
    parser.add_argument("--resources", type=Path, required=True,
                        help="msfmktransplt's resource/ directory (op_list_2_*.json, supported_op_2_*.json, "
                             "affinity_list_1_11_0.json) from Ascend-mstt commit 99c2e0f")
    parser.add_argument("--wheel", type=Path,
                        help="torch_npu-2.14.0 wheel (pip download --no-deps torch-npu==2.14.0) to check torch_npu "
                             "names against; without it entries carry no `verified`")
    parser.add_argument("--output", type=Path, default=Path("mappings"), help="where to write (default: %(default)s)")
    parser.add_argument("--record-hand-edits", action="store_true",
                        help="first rewrite tools/generate_ascend/hand_edits.yaml from the tables in --output: the "
                             "fields edited there by hand (reported, when, note_original, ...), so that they survive")
    arguments = parser.parse_args(argv)

    tables = VersionTables.read(arguments.resources)
    book = Book()
    curated.add_entries(book)
    third_party.add_entries(book)
    cuda_rows.add_rows(book, read_rows(arguments.reference, "cuda_to_npu.csv"), tables)
    affinity_rows.add_rows(book, read_rows(arguments.reference, "affinity_apis.csv"), arguments.resources)
    dynamic_rows.add_rows(book, read_rows(arguments.reference, "dynamic_shape_ops.csv"))
    unsupported_rows.add_rows(book, read_rows(arguments.reference, "unsupported_or_caveats.csv"), tables)
    older = unsupported_rows.add_older_versions(book, tables)
    older_notes = unsupported_rows.add_older_restrictions(book, tables)
    if arguments.wheel is not None:
        missing = verify_drafts(book.all_drafts(), WheelNames(arguments.wheel))
        print(f"torch_npu names not found in the wheel's Python sources: {', '.join(sorted(set(missing))) or 'none'}")
    if arguments.record_hand_edits:
        with tempfile.TemporaryDirectory() as plain:
            book.write(Path(plain))
            edited = hand_edits.record(Path(plain), arguments.output, list(TABLE_DESCRIPTIONS))
        print(f"hand edits recorded for {edited} entries in {hand_edits.HAND_EDITS}")
    counts = book.write(arguments.output, hand_edits.HandEdits.read())
    for table, count in counts.items():
        print(f"{table}: {count} entries")
    print(f"(of which {older} APIs are unsupported only in the PyTorch 2.1/2.6/2.7 tables, and {older_notes} "
          f"entries carry restriction notes of those tables that 2.8 does not have)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
