"""Looking an API up: one search and one JSON shape, which `kb lookup` and the editor's
`ascend-migrate.lookup` command both render."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.kb.schema import Entry


def find(knowledge_base: KnowledgeBase, name: str, *, prefix: bool = False, route: str | None = None,
         limit: int | None = None) -> list[Entry]:
    """The entries for `name`: its own entries, or every name it begins when `prefix` is set or it ends in
    `.` or `*`; a bare method name (`view`) finds `torch.Tensor.view`; `tf.` is read as `tensorflow.`; import
    aliases (`nn.`, `F.`, ...) and tails of a path (`Conv2d`) are tried when the name as typed has no entry.
    Exact matches first, then by name and route; at most `limit` of them."""
    query = name.strip()
    if query == "tf" or query.startswith("tf."):
        query = "tensorflow" + query[2:]
    if prefix or query.endswith((".", "*")):
        start = query.rstrip("*")
        found = [entry for entry in knowledge_base.entries if entry.api.startswith(start)]
    else:
        found = [entry for entry in knowledge_base.entries if entry.api == query]
    if not found and "." not in query:
        found = [entry for entry in knowledge_base.entries if entry.match in ("method", "definition") and entry.method_name == query]
    if not found:  # `nn.Conv2d`, `Conv2d`, `layers.Dense`: the names users type
        from ascend_migrate.kb.names import typed_name_entries

        found = typed_name_entries(knowledge_base.entries, query.rstrip("*"), prefix or query.endswith((".", "*")))
    if route is not None:
        found = [entry for entry in found if entry.route == route]
    found.sort(key=lambda entry: (entry.api != query, entry.api, entry.route))
    return found[:limit] if limit is not None else found


def entry_json(entry: Entry, knowledge_base: KnowledgeBase) -> dict[str, Any]:
    """One entry as both faces give it: its fields, where it is written, and its numeric check if one ran."""
    from ascend_migrate.taxonomy import DEFAULT_CODE_FOR_CATEGORY

    directory = knowledge_base.directory
    result: dict[str, Any] = {
        "key": entry.key,
        "api": entry.api,
        "route": entry.route,
        "category": entry.category,
        "code": entry.code or DEFAULT_CODE_FOR_CATEGORY[entry.category],
        "match": entry.match,
        "target": entry.target,
        "note": entry.note,
        "suggestion": entry.suggestion,
        "parameters": [
            {
                "source": parameter.source,
                "target": parameter.target,
                "change": parameter.change,
                "source_default": parameter.source_default,
                "target_default": parameter.target_default,
                "note": parameter.note,
            }
            for parameter in entry.parameters
        ],
        "source_versions": entry.source_versions.text,
        "target_versions": entry.target_versions.text,
        "fix": entry.fix,
        "curated": entry.curated,
        "verified": entry.verified,
        "provenance": entry.provenance,
        "docs": list(entry.docs),
        "receiver": entry.receiver,
        "condition": entry.condition,
        "location": f"{directory / (entry.table + '.yaml')}:{entry.line}",
    }
    if entry.review:
        result["review"] = entry.review
    if entry.edge_difference:
        result["edge_difference"] = entry.edge_difference
    record = _numeric_record(directory).get((entry.api, entry.target or ""))
    if record is not None:
        result["numeric"] = record
    return result


def lookup_json(knowledge_base: KnowledgeBase, name: str, *, prefix: bool = False, route: str | None = None,
                limit: int | None = None) -> list[dict[str, Any]]:
    """`find` as JSON objects (`entry_json`)."""
    return [entry_json(entry, knowledge_base) for entry in find(knowledge_base, name, prefix=prefix, route=route, limit=limit)]


def _numeric_record(directory: Path) -> dict[tuple[str, str], dict]:
    """The recorded numeric checks, read again only when the record file changes (the editor asks per keystroke)."""
    from ascend_migrate.kb.numeric import RECORD_FILE

    try:
        stamp = (directory / RECORD_FILE).stat().st_mtime_ns
    except OSError:
        stamp = None
    return _read_numeric_record(directory, stamp)


@lru_cache(maxsize=4)
def _read_numeric_record(directory: Path, stamp: int | None) -> dict[tuple[str, str], dict]:
    from ascend_migrate.kb.numeric import load_record

    return load_record(directory) if stamp is not None else {}
