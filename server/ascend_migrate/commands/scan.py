"""`ascend-migrate scan PATH...`: report what must change, as text, JSON, CSV, SARIF or HTML."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ascend_migrate.commands.common import (
    add_settings_arguments,
    missing_path,
    named_file_failed,
    print_error,
    settings_from_arguments,
)

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
FORMATS = ("text", "json", "csv", "sarif", "html")
# An --output file's suffix → the format it asks for, when --format is not given.
SUFFIX_FORMATS = {".txt": "text", ".json": "json", ".csv": "csv", ".sarif": "sarif", ".html": "html", ".htm": "html"}


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "scan",
        help="report the lines that must change (exit 1 on a finding --fail-on names)",
        description="Scan Python files and directories (recursively, honouring .gitignore and exclude).",
    )
    parser.add_argument("paths", nargs="*", type=Path, default=None, metavar="PATH", help="files or directories (default: .)")
    parser.add_argument("--format", choices=FORMATS,
                        help="the report format (default: from the --output file's suffix, else text)")
    parser.add_argument("--output", "-o", type=Path, metavar="FILE",
                        help="write the report to FILE; for csv, a directory receives every CSV file and a FILE.csv "
                        "only the flat findings table")
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="analyse in N processes (0: one per core)")
    parser.add_argument("--bom", action="store_true", help="start CSV files with a UTF-8 byte-order mark (for Excel)")
    parser.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    parser.add_argument("--third-party-api", type=Path, metavar="CSV",
                        help="a framework_unsupported_op.csv (the Ascend tool's layout): also report the uses of the library APIs it lists (TP102)")
    parser.add_argument("--third-party-report", type=Path, metavar="LIB_DIR",
                        help="write framework_unsupported_op.csv and migration_needed_op.csv for this library folder into the "
                        "--output directory: its functions that reach unsupported or CUDA-only calls")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    from ascend_migrate.config import ConfigError, fails_run
    from ascend_migrate.kb.errors import KnowledgeBaseError
    from ascend_migrate.reports import ReportOptions, writer
    from ascend_migrate.workspace import processes, scan

    if arguments.third_party_report is not None:
        return _third_party_report(arguments)
    paths = arguments.paths or [Path(".")]
    missing = missing_path(paths)
    if missing is not None:
        print_error(f"{missing}: no such file or directory")
        return EXIT_USAGE
    if arguments.format is None:
        suffix = arguments.output.suffix.lower() if arguments.output is not None else ""
        arguments.format = SUFFIX_FORMATS.get(suffix, "text")
    if arguments.format == "csv" and arguments.output is None:
        print_error("--format csv writes files: give a directory (every CSV file) or a FILE.csv (the findings table) with --output")
        return EXIT_USAGE
    try:
        settings = settings_from_arguments(arguments, paths)
    except ConfigError as error:
        print_error(str(error))
        return EXIT_USAGE
    listed = None
    if arguments.third_party_api is not None:
        from ascend_migrate.projects.third_party import ListError, read_list

        try:
            listed = read_list(arguments.third_party_api)
        except ListError as error:
            print_error(f"--third-party-api {error}")
            return EXIT_USAGE
    jobs = processes(arguments.jobs)
    progress = None if arguments.no_progress or not sys.stderr.isatty() else _ProgressBar()
    try:
        result = scan(paths, settings, jobs=jobs, progress=progress, keep_sources=arguments.format in ("html", "sarif"))
    except KnowledgeBaseError as error:
        print_error(f"the knowledge base is broken: {error}")
        return EXIT_USAGE
    finally:
        if progress is not None:
            progress.close()
    if listed is not None:
        _add_third_party_uses(result, paths, settings, listed)
    for problem in result.errors:
        location = f"{problem.path}:{problem.line}" if problem.line else problem.path
        print(f"ascend-migrate: {location}: {problem.message}", file=sys.stderr)
    if settings.target == "npu" and result.tensorflow_files:
        print(f"ascend-migrate: note: {tensorflow_note(result.tensorflow_files)}", file=sys.stderr)
    options = ReportOptions(color=sys.stdout.isatty() and arguments.output is None, bom=arguments.bom)
    try:
        writer(arguments.format)(result, arguments.output, options)
    except OSError as error:
        print_error(f"cannot write {arguments.output}: {error.strerror or error}")
        return EXIT_USAGE
    if named_file_failed(paths, result.errors):
        return EXIT_USAGE  # a file named on the command line was not analysed: never "clean"
    failing = any(fails_run(finding, settings.fail_on) for finding in result.findings)
    return EXIT_FINDINGS if failing else EXIT_CLEAN


def _add_third_party_uses(result, paths: list[Path], settings, listed) -> None:
    from ascend_migrate.analysis.findings import FINDING_ORDER
    from ascend_migrate.files import display_path
    from ascend_migrate.projects.third_party import uses_in_files
    from ascend_migrate.workspace import discover

    base = result.base or Path.cwd().resolve()
    files = [(path, display_path(path, base)) for path in discover(paths, settings).files]
    result.findings.extend(uses_in_files(files, listed))
    result.findings.sort(key=FINDING_ORDER)


def _third_party_report(arguments: argparse.Namespace) -> int:
    """`scan --third-party-report LIB_DIR -o DIR`: the library's list, in the Ascend tool's third_party files."""
    from ascend_migrate.config import ConfigError
    from ascend_migrate.files import write_atomically
    from ascend_migrate.kb.errors import KnowledgeBaseError
    from ascend_migrate.projects.third_party import library_report

    library = arguments.third_party_report
    if not library.is_dir():
        print_error(f"--third-party-report {library}: not a directory")
        return EXIT_USAGE
    if arguments.output is None or arguments.output.exists() and not arguments.output.is_dir():
        print_error("--third-party-report writes framework_unsupported_op.csv and migration_needed_op.csv: give a directory with --output")
        return EXIT_USAGE
    try:
        settings = settings_from_arguments(arguments, [library])
        files, reaching = library_report(library, settings)
        for name, text in files.items():
            write_atomically(arguments.output / name, text.encode("utf-8-sig" if arguments.bom else "utf-8"))
    except ConfigError as error:
        print_error(str(error))
        return EXIT_USAGE
    except KnowledgeBaseError as error:
        print_error(f"the knowledge base is broken: {error}")
        return EXIT_USAGE
    except OSError as error:
        print_error(f"cannot write {arguments.output}: {error.strerror or error}")
        return EXIT_USAGE
    print(f"{reaching} function{'s' if reaching != 1 else ''} of {library} reach unsupported or CUDA-only calls; "
          f"wrote {', '.join(sorted(files))} into {arguments.output}", file=sys.stderr)
    return EXIT_CLEAN


def tensorflow_note(paths: list[str]) -> str:
    """The one note for TensorFlow/Keras files scanned for the npu route, which analyses PyTorch only."""
    shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    files, them = ("file uses", "it") if len(paths) == 1 else ("files use", "them")
    return (f"{len(paths)} {files} TensorFlow/Keras and not PyTorch ({shown}); the npu route (torch_npu) is for "
            f"PyTorch and reports nothing on {them}: scan {them} with --target mindspore")


class _ProgressBar:
    """A one-line progress bar on stderr, drawn only for scans long enough to need one."""

    def __init__(self) -> None:
        import time

        self._time = time
        self._started = time.monotonic()
        self._drawn = False
        self._last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = self._time.monotonic()
        if now - self._started < 0.3 or (now - self._last < 0.05 and done != total):
            return
        self._last = now
        width = 30
        filled = int(width * done / total) if total else width
        sys.stderr.write(f"\r  scanning [{'#' * filled}{'.' * (width - filled)}] {done}/{total} files")
        sys.stderr.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
