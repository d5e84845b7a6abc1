"""`ascend-migrate run [options] -- python SCRIPT [ARGS...]`: run the program on CPU with torch_npu emulated and
report what would fail or slow down on Ascend, confirmed at run time. It RUNS the user's code (scan never does)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ascend_migrate.commands.common import print_error

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
EXIT_PROGRAM_FAILED = 3  # the user's program raised or exited non-zero: its traceback is above the report
EXIT_TIMEOUT = 4  # --timeout passed: the program was stopped


def register(subparsers) -> None:
    from ascend_migrate.config import FAIL_ON_CHOICES

    parser = subparsers.add_parser(
        "run",
        help="run a program on CPU with torch_npu emulated and report what Ascend would reject (runs your code)",
        description="Run `python SCRIPT [ARGS...]` or `python -m MODULE [ARGS...]` in a child process on CPU torch with "
        "torch_npu emulated, and report torch.cuda calls left, unsupported APIs, DataParallel and dynamic shapes at "
        "the lines that make them. Exit: 0 clean, 1 findings at --fail-on, 2 usage error, "
        f"{EXIT_PROGRAM_FAILED} the program failed, {EXIT_TIMEOUT} --timeout passed.",
    )
    parser.add_argument("--steps", type=_positive_int, metavar="N", help="stop cleanly after N optimizer steps")
    parser.add_argument("--timeout", type=_positive_float, metavar="SECONDS", help="stop the program after this long")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--output", "-o", type=Path, metavar="FILE", help="write the report here")
    parser.add_argument("--shape-report", type=Path, default=Path("."), metavar="DIRECTORY",
                        help="where msft_dynamic_shape_analysis_report.csv is written (default: the current directory)")
    parser.add_argument("--torch-version", metavar="VERSION", help="the PyTorch version the code is written for (default 2.8)")
    parser.add_argument("--fail-on", choices=FAIL_ON_CHOICES,
                        help="exit 1 on these findings: required (default: what the code cannot run on Ascend without) or a least severity")
    parser.add_argument("program", nargs=argparse.REMAINDER, metavar="-- python SCRIPT [ARGS...]")
    parser.set_defaults(run=run)


def _positive_int(text: str) -> int:
    value = int(text) if text.isdigit() else 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def run(arguments: argparse.Namespace) -> int:
    from ascend_migrate.config import ConfigError, fails_run, load_settings
    from ascend_migrate.files import write_atomically
    from ascend_migrate.kb.errors import KnowledgeBaseError
    from ascend_migrate.kb.index import KnowledgeBase
    from ascend_migrate.runtime import report
    from ascend_migrate.runtime.launch import ProgramError, parse_program, run_child
    from ascend_migrate.runtime.plan import restriction_rows, unsupported_names

    try:
        program = parse_program(arguments.program)
    except ProgramError as error:
        print_error(str(error))
        return EXIT_USAGE
    if not arguments.shape_report.is_dir():
        print_error(f"--shape-report {arguments.shape_report}: not a directory")
        return EXIT_USAGE
    try:
        settings = load_settings(Path.cwd(), {"torch-version": arguments.torch_version, "fail-on": arguments.fail_on})
        knowledge_base = KnowledgeBase.load()
        view = knowledge_base.view("npu", settings.torch_version, settings.mindspore_version)
    except ConfigError as error:
        print_error(str(error))
        return EXIT_USAGE
    except KnowledgeBaseError as error:
        print_error(f"the knowledge base is broken: {error}")
        return EXIT_USAGE
    child = run_child(program, steps=arguments.steps, timeout=arguments.timeout, unsupported=unsupported_names(view),
                      quiet_stdout=arguments.format == "json" and arguments.output is None, restrictions=restriction_rows(view))
    if child.outcome.outcome == "no-torch":
        print_error(child.outcome.message)
        return EXIT_USAGE
    base = Path.cwd()
    findings = report.findings_from(child.records, view, base, dict(settings.severity))
    harmless = report.harmless_static_findings(child.records, settings, knowledge_base, base)
    try:
        write_atomically(arguments.shape_report / report.DYNAMIC_SHAPE_CSV, report.dynamic_shape_csv(child.records, base).encode())
        text = _render(arguments.format, findings, child, arguments, harmless)
        if arguments.output is None:
            sys.stdout.write(text)
        else:
            write_atomically(arguments.output, text.encode("utf-8"))
    except OSError as error:
        print_error(f"cannot write the report: {error.strerror or error}")
        return EXIT_USAGE
    if child.timed_out:
        return EXIT_TIMEOUT
    if child.outcome.outcome in ("failed", "exited", None):
        return EXIT_PROGRAM_FAILED
    failing = any(fails_run(item.finding, settings.fail_on) for item in findings)
    return EXIT_FINDINGS if failing else EXIT_CLEAN


def _program_line(child, arguments) -> str:
    outcome = child.outcome
    if child.timed_out:
        return f"the program was stopped after --timeout {arguments.timeout:g} s"
    if outcome.outcome is None:
        return f"the program's process ended without a report (exit status {child.returncode})"
    steps = f" ({outcome.steps} optimizer step{'s' if outcome.steps != 1 else ''})" if outcome.steps is not None else ""
    return {
        "completed": f"the program completed{steps}",
        "steps": f"the program was stopped cleanly after --steps {arguments.steps}",
        "exited": f"the program exited with status {outcome.exit_code}{steps}",
        "failed": f"the program failed{steps}: its traceback is above",
    }.get(outcome.outcome, outcome.outcome)


def _render(output_format: str, findings, child, arguments, harmless=()) -> str:
    import json

    from ascend_migrate import __version__

    if output_format == "json":
        document = {
            "version": 1,
            "tool": {"name": "ascend-migrate", "version": __version__},
            "target": "npu",
            "program": {"outcome": "timeout" if child.timed_out else child.outcome.outcome,
                        "exit_code": child.outcome.exit_code, "steps": child.outcome.steps,
                        "summary": _program_line(child, arguments)},
            "findings": [item.to_json() for item in findings],
            "harmless": [item.to_json() for item in harmless],
        }
        return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    lines = []
    for item in findings:
        finding = item.finding
        lines.append(f"{finding.path}:{finding.line}: {finding.code} {finding.message}")
        if any(value != "" for value in item.observed.values()):
            lines.append("    observed: " + ", ".join(f"{key}={value}" for key, value in item.observed.items() if value != ""))
    for item in harmless:
        lines.append(f"{item.path}:{item.line}: {item.code} {item.api}: {item.to_json()['harmless']}")
    lines.append(f"{len(findings)} finding{'s' if len(findings) != 1 else ''} confirmed at run time; {_program_line(child, arguments)}")
    return "\n".join(lines) + "\n"
