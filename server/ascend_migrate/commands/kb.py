"""`ascend-migrate kb`: look into the knowledge base (stats, lookup) and prove it against the real packages (verify).

- `kb stats [--json]`: entries and usage-weighted coverage per route first, then counts per category, table
  and match kind and the coverage details for maintainers.
- `kb lookup NAME [--json] [--route R]`: the entries for an API as code spells it (`nn.Conv2d`, `Conv2d`,
  `tf.keras.layers.Dense`), a `prefix.` or a method name; close names when nothing matches.
- `kb verify [--numeric] [--json] [--record FILE]`: resolve every source and target in the installed torch,
  mindspore (and TensorFlow if present) and the torch_npu wheel's sources; with --numeric, run torch and
  MindSpore side by side on CPU for the consistent mappings.
Exit codes: 0 fine, 1 a failed check (nothing found, unresolved names, numeric disagreements, a required package
missing without --allow-missing), 2 usage or data error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from ascend_migrate.commands.common import print_error
from ascend_migrate.taxonomy import ROUTES

EXIT_CLEAN = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "kb",
        help="inspect and verify the knowledge base (stats, lookup, verify)",
        description="Inspect the mapping tables and prove them against the real packages.",
    )
    parser.add_argument("--mappings", metavar="DIRECTORY", type=Path,
                        help="the mappings directory (default: the one shipped with ascend-migrate)")
    actions = parser.add_subparsers(dest="kb_command", metavar="ACTION")

    stats = actions.add_parser("stats", help="entry counts per table, category and route; usage-weighted coverage")
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.add_argument("--torch-version", default="2.8", metavar="VERSION", help="the torch version for coverage (default 2.8)")
    stats.add_argument("--mindspore-version", default="2.10", metavar="VERSION", help="the MindSpore version for coverage (default 2.10)")
    stats.add_argument("--unanswered", type=int, default=10, metavar="N", help="list the N most used names without an answer (default 10)")

    lookup = actions.add_parser("lookup", help="the entries for an API name, a prefix ending in '.' or '*', or a method name")
    lookup.add_argument("name", metavar="NAME")
    lookup.add_argument("--json", action="store_true", help="print JSON")
    lookup.add_argument("--route", choices=ROUTES, help="only entries of this route")

    verify = actions.add_parser("verify", help="resolve every source and target in the installed packages")
    verify.add_argument("--json", action="store_true", help="print JSON")
    verify.add_argument("--numeric", action="store_true", help="also run torch and MindSpore side by side on CPU")
    verify.add_argument("--record", metavar="FILE", type=Path,
                        help="with --numeric: write the numeric results to FILE (YAML), e.g. mappings/verification/numeric.yaml")
    verify.add_argument("--npu-wheel", metavar="WHEEL", type=Path,
                        help="the torch_npu wheel whose Python sources resolve torch_npu targets (default: $ASCEND_MIGRATE_TORCH_NPU_WHEEL)")
    verify.add_argument("--limit", type=int, default=0, metavar="N", help="with --numeric: check at most N entries (0: all)")
    verify.add_argument("--allow-missing", action="store_true",
                        help="exit 0 even when torch, mindspore or the torch_npu wheel is missing and names go unchecked")
    parser.set_defaults(run=run, kb_parser=parser)
    parser.action_parsers = actions.choices  # `kb lookup --jsno` prints the usage of `kb lookup`


def run(arguments: argparse.Namespace) -> int:
    from ascend_migrate.kb.index import KnowledgeBase
    from ascend_migrate.kb.loader import KnowledgeBaseError

    if arguments.kb_command is None:
        arguments.kb_parser.print_help()
        return EXIT_USAGE
    try:
        knowledge_base = KnowledgeBase.load(arguments.mappings)
        if arguments.kb_command == "stats":
            return _stats(knowledge_base, arguments)
        if arguments.kb_command == "lookup":
            return _lookup(knowledge_base, arguments)
        return _verify(knowledge_base, arguments)
    except KnowledgeBaseError as error:
        print_error(str(error))
        return EXIT_USAGE


# --- stats -----------------------------------------------------------------------------------------------

def _stats(knowledge_base, arguments: argparse.Namespace) -> int:
    from ascend_migrate.kb import coverage
    from ascend_migrate.kb.numeric import load_record

    entries = knowledge_base.entries
    coverage_report: dict[str, object] = {}
    report = {
        "directory": str(knowledge_base.directory),
        "entries": len(entries),
        "curated": sum(1 for entry in entries if entry.curated),
        "tables": dict(sorted(Counter(entry.table for entry in entries).items())),
        "categories": dict(sorted(Counter(entry.category for entry in entries).items())),
        "routes": dict(sorted(Counter(entry.route for entry in entries).items())),
        "matches": dict(sorted(Counter(entry.match for entry in entries).items())),
        "inventory_names": sum(len(names) for names in knowledge_base.inventory.values()),
        "coverage": coverage_report,
    }
    usage_file = coverage.usage_path(knowledge_base)
    if usage_file.is_file():
        rows = coverage.load_usage(usage_file)
        for route in ROUTES:
            measured = coverage.route_coverage(knowledge_base, route, rows, arguments.torch_version, arguments.mindspore_version)
            coverage_report[route] = measured.to_json()
    method_file = knowledge_base.directory / coverage.METHOD_USAGE_FILE
    if method_file.is_file():
        view = knowledge_base.view("mindspore", arguments.torch_version, arguments.mindspore_version)
        record = load_record(knowledge_base.directory)
        coverage_report["mindspore_tensor_methods"] = coverage.measure(view, coverage.load_method_usage(method_file), record).to_json()
    if arguments.json:
        print(json.dumps(report, indent=2))
        return EXIT_CLEAN
    _print_stats(report, arguments, usage_file)
    return EXIT_CLEAN


def _print_stats(report: dict, arguments: argparse.Namespace, usage_file: Path) -> None:
    """What a user asks first (how much of real code each route answers), then the figures for maintainers."""
    from ascend_migrate.kb import coverage

    print(f"knowledge base {report['directory']}")
    scopes = {"mindspore": "of the torch API uses", "npu": "of the CUDA-related torch API uses"}
    for route in ROUTES:
        count = report["routes"].get(route, 0)
        line = f"  {route + ' route':<16} {count:>6} entr{'y' if count == 1 else 'ies'}"
        measured = report["coverage"].get(route)
        if measured is not None:
            line += (f", an answer for {measured['share'] * 100:.1f} % {scopes[route]} in public projects "
                     f"({measured['answered_references']} of {measured['references']})")
        print(line)
    print("categories:")
    width = max((len(name) for name in report["categories"]), default=0)
    for name, count in report["categories"].items():
        print(f"  {name:<{width}}  {count:>6}")
    print(f"for maintainers: {report['entries']} entries ({report['curated']} curated), "
          f"{report['inventory_names']} inventory names")
    for title, key in (("tables", "tables"), ("match kinds", "matches")):
        print(f"{title}:")
        width = max((len(name) for name in report[key]), default=0)
        for name, count in report[key].items():
            print(f"  {name:<{width}}  {count:>6}")
    if not report["coverage"]:
        print(f"coverage: no usage file at {usage_file}")
        return
    for key, measured in report["coverage"].items():
        route, scope, source = {
            "mindspore": ("mindspore", "all references", usage_file.name),
            "npu": ("npu", "CUDA-related references", usage_file.name),
            "mindspore_tensor_methods": ("mindspore", "tensor-method calls", coverage.METHOD_USAGE_FILE.name),
        }[key]
        print(f"coverage, {route} route ({scope} in {source}): {measured['share'] * 100:.1f} % "
              f"({measured['answered_references']} of {measured['references']} references, "
              f"{measured['answered_names']} of {measured['names']} names); "
              f"curated entries alone: {measured['curated_share'] * 100:.1f} %")
        print(f"  checked answers: {measured['checked_share'] * 100:.1f} % run side by side (kb verify --numeric), "
              f"{measured['checked_or_reviewed_share'] * 100:.1f} % run or reviewed by hand (curated), "
              f"{measured['checked_or_review_noted_share'] * 100:.1f} % run or with a review note naming the "
              f"difference; the rest has an entry whose answer nobody checked")
        for row in measured["unanswered"][: arguments.unanswered]:
            print(f"  no answer: {row['api']} ({row['references']} references)")


# --- lookup ----------------------------------------------------------------------------------------------

def _lookup(knowledge_base, arguments: argparse.Namespace) -> int:
    from ascend_migrate.kb.lookup import lookup_json

    name = arguments.name.strip()
    if not name:
        print_error("kb lookup needs a non-empty NAME")
        return EXIT_USAGE
    found = lookup_json(knowledge_base, name, route=arguments.route)
    if arguments.json:
        print(json.dumps(found, indent=2))
    if not found:
        from ascend_migrate.kb.names import close_names

        close = close_names(knowledge_base.entries, name)
        print(f"no entry for {name}{'; did you mean ' + ', '.join(close) + '?' if close else ''}", file=sys.stderr)
        return EXIT_FAILED
    if arguments.json:
        return EXIT_CLEAN
    names = sorted({data["api"] for data in found})
    if names != [name] and not name.endswith((".", "*")):  # found under another spelling: say which names these are
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        print(f"{name}: {len(found)} entr{'y' if len(found) == 1 else 'ies'} for {shown}\n")
    for data in found:
        _print_entry(data)
    return EXIT_CLEAN


def _print_entry(data: dict) -> None:
    """One entry of `kb.lookup.entry_json` as text."""
    arrow = f" -> {data['target']}" if data["target"] else ""
    versions = ""
    if data["source_versions"] != "*" or data["target_versions"] != "*":
        versions = f" [source {data['source_versions']}, target {data['target_versions']}]"
    how = data["match"] if data["match"] != "name" else ""
    if data["receiver"]:
        how += f" on {data['receiver']}"
    if data["condition"]:
        how += f" ({data['condition']})"
    print(f"{data['api']}{arrow}  {data['route']} {data['category']} {data['code']}"
          f"{'  ' + how.strip() if how.strip() else ''}{versions}")
    for label, value in (("note", data["note"]), ("do", data["suggestion"])):
        if value:
            print(f"    {label}: {value}")
    for difference in data["parameters"]:
        print(f"    parameter: {difference['source'] or '-'} -> {difference['target'] or '-'} ({difference['change']})"
              f"{': ' + difference['note'] if difference['note'] else ''}")
    if "numeric" in data:
        record = data["numeric"]
        print(f"    numeric check: {record['outcome']}{' - ' + record['detail'] if record.get('detail') else ''}")
    checked = "curated" if data["curated"] else "generated"
    print(f"    {checked}; fix {data['fix']}; {data['location']}")


# --- verify ----------------------------------------------------------------------------------------------

def _verify(knowledge_base, arguments: argparse.Namespace) -> int:
    from ascend_migrate.kb import verify

    if arguments.record is not None and not arguments.numeric:
        print_error("--record needs --numeric")
        return EXIT_USAGE
    resolver = verify.Resolvers.from_environment(arguments.npu_wheel)
    report = verify.verify_names(knowledge_base, resolver)
    numeric_report = None
    if arguments.numeric:
        from ascend_migrate.kb import numeric

        if not resolver.has("torch") or not resolver.has("mindspore"):
            print_error("kb verify --numeric needs torch and mindspore installed in this interpreter")
            return EXIT_USAGE
        try:
            numeric_report = numeric.run_checks(knowledge_base, limit=arguments.limit)
        except ImportError as error:  # a broken torch or mindspore install: say so instead of a traceback
            print_error(f"kb verify --numeric could not import what it runs: {error}")
            return EXIT_USAGE
        if arguments.record is not None:
            numeric.write_record(numeric_report, arguments.record)
    if arguments.json:
        result = report.to_json()
        if numeric_report is not None:
            result["numeric"] = numeric_report.to_json()
        print(json.dumps(result, indent=2))
    else:
        for line in report.warning_lines() + report.lines():
            print(line)
        if numeric_report is not None:
            for line in numeric_report.lines():
                print(line)
    failed = (bool(report.problems) or bool(report.parameter_warnings)
              or (bool(report.missing) and not arguments.allow_missing)
              or (numeric_report is not None and bool(numeric_report.unexpected)))
    return EXIT_FAILED if failed else EXIT_CLEAN
