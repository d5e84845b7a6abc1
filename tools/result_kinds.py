"""Result kinds of every PyTorch → MindSpore entry the battery can call: what each side returns, not its values.

    PYTHONPATH=server /work/kbvenv/bin/python -m tools.result_kinds [--json]

Needs torch and mindspore importable (stage 30's venv or /work/kbvenv). The numeric battery (kb/battery.py) flattens
both results into arrays before comparing values, so it cannot see that torch returns a named tuple and MindSpore a
plain one (`torch.sort(x).values`), a tensor where the other side returns a one-element tuple or a Python number, or
that an out-of-place method wrote into its receiver (`x.index_add(...)` in MindSpore 2.10 on the CPU). This tool runs
the battery's probe call of each entry (the first call shape torch accepts, in a child process per batch, as `kb
verify --numeric` does) and compares the RESULT KIND of both sides: tensor, Python scalar, None, tuple or list (with
its length and each item's kind), named tuple (with its fields), and whether the receiver of a method changed.

Entries the probe cannot run on both sides (no CPU kernel, MindSpore refused the probe, no call shape fits) are
compared by their documentation instead: torch's docstring naming a (named)tuple result against the `Returns:`
section of MindSpore's. A finding is a lead for a person, not a verdict; each is judged and corrected in
tools/generate_mappings/corrections.py.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from ascend_migrate.kb import battery, numeric

_BATCH = 40
# What the numeric battery leaves out that a comparison of kinds must leave out too: calls that touch the process's
# state or files (seeds, save/load, device moves) and predicates. Random calls are kept: a kind does not depend on values.
_STATEFUL = re.compile(
    r"(^|\.)(manual_seed|seed|initial_seed|get_rng_state|set_rng_state|Generator|set_\w+|is_\w+|get_\w+|use_\w+|save|"
    r"load|compile|data_ptr|storage\w*|pin_memory|share_memory_|record_stream|to|cpu|cuda|npu)$")


def result_kind(value: object, tensor_types: tuple[type, ...] = ()) -> str:
    """What a call returned, in words that do not depend on its values or on the framework."""
    if value is None:
        return "None"
    if tensor_types and isinstance(value, tensor_types):
        return "tensor"
    if isinstance(value, (bool, int, float, complex)):
        return f"Python {type(value).__name__}"
    if isinstance(value, tuple):
        # collections.namedtuple has _fields; torch.return_types (struct sequences) have __match_args__
        fields = getattr(type(value), "_fields", None) or getattr(type(value), "__match_args__", None)
        inner = ", ".join(result_kind(item, tensor_types) for item in value)
        if fields:
            return f"named tuple ({', '.join(fields)}) of ({inner})"
        return f"tuple of ({inner})"
    if isinstance(value, list):
        return f"list of ({', '.join(result_kind(item, tensor_types) for item in value)})"
    return type(value).__name__


def compare_kinds(torch_kind: str, mindspore_kind: str) -> str:
    """The difference between two result kinds in words, or "" when a rename keeps every use of the result working.
    torch.Size and MindSpore's shape tuple, a list and a tuple of the same items, and Python int and float are
    reported too: code that indexes, unpacks or compares the result may notice."""
    if torch_kind == mindspore_kind:
        return ""
    if torch_kind.startswith("named tuple") and not mindspore_kind.startswith("named tuple"):
        fields = torch_kind[len("named tuple ("):torch_kind.index(")")]
        return f"torch returns a named tuple (.{', .'.join(fields.split(', '))}), mindspore {mindspore_kind}"
    return f"torch returns {torch_kind}, mindspore {mindspore_kind}"


class _ProbeDone(Exception):
    """Raised once the probe call ran (or could not run) on both sides: the battery's other cases are not needed."""

    def __init__(self, found: dict) -> None:
        super().__init__()
        self.found = found


class KindCall(battery.Call):
    """The battery's call that also notes, per framework, whether a method changed its receiver."""

    def invoke(self, framework: str, values: list, keywords: dict):
        result = super().invoke(framework, values, keywords)
        receiver = self._receivers.get(framework)
        if receiver is not None and isinstance(values[0], self.battery.numpy.ndarray):
            after = self.battery.flatten(receiver, framework)[0]
            # the receiver was a copy of values[0] (Battery.convert): any change is the call's
            changed = after.shape != values[0].shape or not self.battery.numpy.array_equal(after, values[0], equal_nan=True)
            self.battery.receivers[framework] = changed
        return result


class KindBattery(battery.Battery):
    """The battery, stopped after the probe: it records the kinds of both results instead of their values."""

    def __init__(self) -> None:
        super().__init__()
        self.receivers: dict[str, bool] = {}

    def case(self, run_torch, run_mindspore, extra=None, values: bool = True):
        results: dict[str, object] = {}
        self.receivers = {}

        def noting(framework, run):
            def wrapped():
                results[framework] = run()
                return results[framework]
            return wrapped

        status, detail, difference = super().case(noting("torch", run_torch), noting("mindspore", run_mindspore),
                                                  extra, values)
        if status is None:
            return status, detail, difference  # torch refuses this call shape: the battery tries the next one
        if "mindspore" not in results:
            raise _ProbeDone({"ran": False, "detail": detail})
        types = (self.torch.Tensor, self.mindspore.Tensor)
        found = {"ran": True, "torch": result_kind(results["torch"], types),
                 "mindspore": result_kind(results["mindspore"], types)}
        if self.receivers:
            found["receiver"] = {framework: ("changed" if changed else "unchanged")
                                 for framework, changed in self.receivers.items()}
        raise _ProbeDone(found)


def run_child() -> int:
    """In the child process: jobs on stdin, one JSON line per job on stdout (as kb/battery.py's main)."""
    jobs = json.load(sys.stdin)
    battery.Call = KindCall  # Battery.run builds the module's Call: the subclass notes receivers
    checker = KindBattery()
    print(json.dumps({"versions": checker.versions()}), flush=True)
    for job in jobs:
        try:
            answer = checker.run(job)
            found = {"ran": False, "detail": answer.get("detail", "")}
        except _ProbeDone as done:
            found = done.found
        except Exception as error:  # the battery itself failed on this entry: no kind known
            found = {"ran": False, "detail": f"{type(error).__name__}: {battery._first_line(error)}"}
        print(json.dumps(found, default=str), flush=True)
    return 0


def differences(found: dict, api: str, target: str) -> list[str]:
    """The result-kind leads of one entry's probe."""
    leads = []
    difference = compare_kinds(found["torch"], found["mindspore"])
    if difference:
        leads.append(difference)
    receiver = found.get("receiver", {})
    torch_in_place = api.rsplit(".", 1)[-1].endswith("_")
    if receiver.get("torch") == "unchanged" and receiver.get("mindspore") == "changed":
        leads.append("mindspore writes into the receiver; torch leaves it unchanged")
    elif torch_in_place and receiver.get("torch") == "changed" and receiver.get("mindspore") == "unchanged":
        leads.append(f"{target.rsplit('.', 1)[-1]} leaves the receiver unchanged; torch's in-place method changes it")
    return leads


_RETURNS = re.compile(r"^\s*Returns?:?\s*$", re.MULTILINE)


def documented_kind(doc: str, mindspore: bool) -> str:
    """"tuple", "named tuple" or "" from a docstring: MindSpore's `Returns:` section, torch's prose."""
    if mindspore:
        match = _RETURNS.search(doc)
        if match is None:
            return ""
        section = doc[match.end():].lstrip().split("\n\n", 1)[0]
        head = section.split(".", 1)[0].lower()
        return "tuple" if re.search(r"\btuple\b|\bnamedtuple\b", head) else "tensor" if "tensor" in head else ""
    if "namedtuple" in doc or "named tuple" in doc:
        return "named tuple"
    return "tuple" if re.search(r"\breturns?\s+(a\s+)?tuple\b", doc, re.IGNORECASE) else ""


def documentation_leads(api: str, target: str) -> list[str]:
    """For an entry the probe could not run: the kinds both docstrings state, when they differ."""
    from tools.signature_scan import _resolve

    try:
        torch_doc, target_doc = (getattr(_resolve(name), "__doc__", None) or "" for name in (api, target))
    except Exception:  # kb verify reports names that do not resolve
        return []
    torch_kind, target_kind = documented_kind(torch_doc, False), documented_kind(target_doc, True)
    if torch_kind and target_kind and torch_kind != target_kind:
        return [f"documented: torch returns a {torch_kind}, mindspore's Returns: a {target_kind}"]
    return []


def scan(mappings: Path, python: str = sys.executable) -> tuple[list[dict], dict[str, int]]:
    from ascend_migrate.kb.index import KnowledgeBase

    knowledge_base = KnowledgeBase.load(mappings)
    selected = [entry for entry in numeric.candidates(knowledge_base, _STATEFUL) if entry.api.startswith("torch.")]
    elsewhere = numeric.general_keywords(knowledge_base)
    jobs = [numeric.job(entry, elsewhere) for entry in selected]
    answers: list[dict] = []
    for start in range(0, len(jobs), _BATCH):
        answers += numeric._run_batch(jobs[start:start + _BATCH], python, module="tools.result_kinds", argument="--child")[1]
    leads, counts = [], {"entries": len(selected), "ran": 0, "read": 0}
    for entry, found in zip(selected, answers, strict=True):
        if found.get("ran"):
            counts["ran"] += 1
            what = differences(found, entry.api, entry.target)
            how = f"ran: torch {found['torch']}, mindspore {found['mindspore']}"
        else:
            counts["read"] += 1
            what = documentation_leads(entry.api, entry.target)
            how = f"not run ({found.get('detail', '')[:80]})"
        leads += [{"entry": f"{entry.table}.yaml:{entry.line}", "api": entry.api, "target": entry.target,
                   "category": entry.category, "fix": entry.fix, "what": lead, "how": how} for lead in what]
    return leads, counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.result_kinds", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mappings", type=Path, default=Path("mappings"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.child:
        return run_child()
    leads, counts = scan(arguments.mappings)
    if arguments.json:
        json.dump({"counts": counts, "leads": leads}, sys.stdout, indent=1)
        print()
        return 0
    for lead in leads:
        print(f"{lead['category']:14} {lead['fix']:6} {lead['api']} -> {lead['target']}: {lead['what']}  "
              f"[{lead['how']}] ({lead['entry']})")
    print(f"{counts['entries']} entries: {counts['ran']} ran on both sides, {counts['read']} compared by their "
          f"docstrings; {len(leads)} leads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
