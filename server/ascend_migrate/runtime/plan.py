"""What the parent tells the child to watch, chosen from the knowledge base (parent side, no torch)."""

from __future__ import annotations

from ascend_migrate.kb.index import RouteView

# Codes whose callables the child wraps: NPU201, the APIs msfmktransplt lists as unsupported on NPU.
UNSUPPORTED_CODES = ("NPU201",)


def unsupported_names(view: RouteView) -> list[str]:
    """Dotted torch names the knowledge base calls unsupported on NPU: functions and classes (by name) and Tensor
    methods (`torch.Tensor.X`, indexed by method); the child wraps what it finds and skips the rest."""
    names = set()
    for api, entries in view.by_name.items():
        if not api.startswith("torch.") or api.startswith("torch.cuda."):
            continue  # torch.cuda.* is watched as a whole
        if any(_unsupported(entry) for entry in entries):
            names.add(api)
    for entries in view.by_method.values():
        names.update(entry.api for entry in entries if entry.api.startswith("torch.Tensor.") and _unsupported(entry))
    return sorted(names)


def _unsupported(entry) -> bool:
    return entry.code in UNSUPPORTED_CODES and entry.category == "npu-unsupported" and not entry.condition


def restriction_rows(view: RouteView) -> list[dict]:
    """The restriction rows with `when` conditions on torch APIs (NPU204 and caveats), as JSON for the child: the
    child checks each condition against the arguments a call really passes, dtypes included (analysis/restrictions.py
    reads the same conditions, but dtypes, from the source text)."""
    rows = []
    entries = [entry for listed in view.by_name.values() for entry in listed]
    entries += [entry for listed in view.by_method.values() for entry in listed if entry.api.startswith("torch.Tensor.")]
    seen = set()
    for entry in entries:
        if not entry.when or not entry.api.startswith("torch.") or entry.key in seen:
            continue
        # `reported: false` keeps a row out of scan (its text never shows the restriction); a dtype the run sees does
        when = entry.when if entry.reported else tuple(condition for condition in entry.when if condition.dtypes)
        if not when:
            continue
        seen.add(entry.key)
        rows.append({"api": entry.api, "key": entry.key, "when": [
            {"argument": condition.argument, "position": condition.position, "values": list(condition.values),
             "other_than": list(condition.other_than), "missing": condition.missing, "present": condition.present,
             "unless_number": condition.unless_number, "dtypes": list(condition.dtypes)} for condition in when]})
    return rows
