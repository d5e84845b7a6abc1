"""`migrate SRC -o DST`: copy the project, migrate each file of it into the copy, write the analysis files.

The order makes an interrupted run recognisable: the marker file first, then each file (whole, by a rename),
then the launcher and the analysis files, the marker removed last. SRC is only read.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ascend_migrate.config import Settings
from ascend_migrate.files import write_atomically
from ascend_migrate.projects import analysis_files, tree
from ascend_migrate.projects.one_file import FileMigration, FilePlan, Step, migrate_file
from ascend_migrate.taxonomy import ROUTE_NPU
from ascend_migrate.workspace import NOT_ANALYSED_KINDS


class MigrationError(Exception):
    """The request cannot be carried out (nothing was written); the message says why."""


@dataclass(frozen=True)
class MigrationRequest:
    source: Path
    destination: Path
    settings: Settings
    unsafe: bool = False
    force: bool = False
    auto: bool = False  # npu: transfer_to_npu at each entry point, only what it cannot do fixed
    main: Path | None = None  # the entry point (--main), a path inside SRC
    model: str | None = None  # with distributed: the model's variable
    distributed: bool = False
    third_party_list: Path | None = None  # a framework_unsupported_op.csv


def migrate(request: MigrationRequest, log: Callable[[str], None] = lambda line: None) -> analysis_files.Summary:
    """Carry out `request`; raises MigrationError before writing anything when it cannot be done."""
    main = _check(request)
    listed = _third_party_list(request.third_party_list)
    walk = tree.walk(request.source, request.settings)
    log_lines: list[str] = []

    def note(line: str) -> None:
        log_lines.append(line)
        log(line)

    summary = analysis_files.Summary(str(request.source), str(request.destination), request.settings.target,
                                     skipped=[{"path": path, "reason": reason} for path, reason in walk.skipped])
    plan = _plan(request, main, walk, summary, note)
    marker = tree.start(request.destination, f"source: {request.source}")
    outcomes: list[FileMigration] = []
    for item in walk.files:
        note(f"[INFO] Start the analysis of {item.relative}.")
        outcome = migrate_file(item, request.destination / item.relative, plan)
        outcomes.append(outcome)
        if outcome.error is not None:
            location = f"{item.relative}:{outcome.error.line}" if outcome.error.line else item.relative
            note(f"[WARNING] {location}: {outcome.error.message}")
        if outcome.changed:
            note(f"[INFO] {item.relative}: {outcome.applied} fixes applied, {len(outcome.operations)} changes.")
        note(f"[INFO] Analysis of {item.relative} completed.")
    if request.distributed and main is not None:
        from ascend_migrate.projects.distributed import LAUNCHER, launcher_text

        launcher = request.destination / LAUNCHER
        write_atomically(launcher, launcher_text(main).encode("utf-8"), mode=0o755)
        note(f"[INFO] wrote {LAUNCHER}: ./{LAUNCHER} NUMBER_OF_CARDS python {main} [ARGUMENTS...]")
        summary.extra["launcher"] = LAUNCHER
    if listed is not None:
        from ascend_migrate.projects.third_party import report_uses

        report_uses(listed, outcomes, request.source, summary)
    not_analysed = [NOT_ANALYSED_KINDS[suffix] for suffix in (os.path.splitext(o.relative)[1].lower() for o in outcomes if not o.analysed)
                    if suffix in NOT_ANALYSED_KINDS]
    analysis_files.summarise(summary, outcomes, not_analysed)
    if request.auto:
        from ascend_migrate.projects.automatic import REMAPPED_AT_RUN_TIME, select_for_automatic_migration

        # Left in the copy on purpose: transfer_to_npu remaps them when the entry point runs.
        summary.extra["left_to_transfer_to_npu"] = sum(
            1 for outcome in outcomes for finding in outcome.left if finding.code in REMAPPED_AT_RUN_TIME
            and finding not in select_for_automatic_migration([finding], "")
        )
    note("[INFO] MsFmkTransplt-compatible analysis finished: "
         f"{len(summary.files_changed)} files changed, {summary.fixes_applied} fixes applied.")
    directory = request.destination / tree.ANALYSIS_DIRECTORY
    analysis_files.write_all(directory, outcomes, request.settings, summary, log_lines)
    marker.unlink()
    return summary


def _check(request: MigrationRequest) -> str | None:
    """The main file relative to SRC (or None); raises MigrationError on a request that cannot run."""
    try:
        tree.check_paths(request.source, request.destination, request.force)
    except tree.DestinationError as error:
        raise MigrationError(str(error)) from None
    if (request.auto or request.distributed) and request.settings.target != ROUTE_NPU:
        raise MigrationError("--auto and --distributed belong to the npu route (torch_npu); use --target npu")
    if request.distributed and (request.main is None or not request.model):
        raise MigrationError("--distributed needs --main FILE (the training script) and --model VAR (the model's variable)")
    if request.main is None:
        return None
    main = request.main.resolve()
    source = request.source.resolve()
    if source not in main.parents or not main.is_file():
        raise MigrationError(f"--main {request.main}: not a file inside {request.source}")
    if main.suffix != ".py":
        raise MigrationError(f"--main {request.main}: not a Python file")
    return main.relative_to(source).as_posix()


def _third_party_list(path: Path | None):
    """The parsed --third-party-api list (read before anything is written), or None."""
    if path is None:
        return None
    from ascend_migrate.projects.third_party import ListError, read_list

    try:
        return read_list(path)
    except ListError as error:
        raise MigrationError(f"--third-party-api {error}") from None


def _plan(request: MigrationRequest, main: str | None, walk: tree.Walk, summary: analysis_files.Summary,
          note: Callable[[str], None]) -> FilePlan:
    steps: dict[str, tuple[Step, ...]] = {}
    select = None
    if request.auto:
        from ascend_migrate.projects.automatic import automatic_imports_step, detect_entry_points, select_for_automatic_migration

        entry_points = {main: "--main"} if main is not None else detect_entry_points(request.source, (f.relative for f in walk.files))
        if not entry_points:
            note("[WARNING] --auto: no entry point found (no `if __name__ == \"__main__\":`, no console script); give --main FILE")
        for relative, why in sorted(entry_points.items()):
            note(f"[INFO] --auto: entry point {relative} ({why})")
            steps[relative] = (automatic_imports_step(),)
        summary.extra["entry_points"] = sorted(entry_points)
        select = select_for_automatic_migration
    if request.distributed and main is not None and request.model:
        from ascend_migrate.projects.distributed import distributed_step

        steps[main] = (*steps.get(main, ()), distributed_step(request.model))
        summary.extra["distributed"] = {"main": main, "model": request.model}
    return FilePlan(request.settings, request.unsafe, select, steps)
