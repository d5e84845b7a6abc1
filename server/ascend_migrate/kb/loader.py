"""Reading mappings/*.yaml into entries, with errors that name the file, the line and the key.

Only safe YAML is read, anchors and aliases are refused (they are how alias bombs blow up), and a file over
MAX_FILE_BYTES (kb.table_files) is refused before it is parsed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import yaml

from ascend_migrate.kb.errors import KnowledgeBaseError
from ascend_migrate.kb.patterns import PATTERN_NAMES
from ascend_migrate.kb.schema import CHANGES, FIX_SAFETY, MATCH_KINDS, CallCondition, Entry, ParameterDifference
from ascend_migrate.kb.table_files import read_table_bytes
from ascend_migrate.kb.versions import VersionRangeError, parse_range
from ascend_migrate.taxonomy import CATEGORIES, CATEGORY_ROUTES, CODES, ROUTES, SEVERITIES

_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STRING_TAG = "tag:yaml.org,2002:str"

TABLE_KEYS = {"table", "description", "provenance", "entries", "inventory", "aliases", "module_aliases"}
ENTRY_KEYS = {
    "api": str,
    "route": str,
    "category": str,
    "match": str,
    "code": str,
    "target": str,
    "note": str,
    "suggestion": str,
    "parameters": list,
    "source_versions": str,
    "target_versions": str,
    "docs": list,
    "fix": str,
    "provenance": str,
    "verified": str,
    "curated": bool,
    "receiver": str,
    "condition": str,
    "severity": str,
    "when": list,
    "note_original": str,
    "reported": bool,
    "documentation_only": bool,
    "review": str,
    "edge_difference": str,
}
# The conditions each match kind understands (pattern conditions name engine matchers: kb/patterns.py).
CONDITIONS = {
    "name": ("prefix", "single-argument", "device-argument", "float64-file", "transfer-to-npu"),
    "string": ("device", "backend", "environment-variable", "tensor-type"),
    "import": ("torch-npu-not-imported",),
    "method": ("device-argument",),
    "definition": (),
}
WHEN_KEYS = {"argument": str, "position": int, "values": list, "other_than": list, "missing": bool, "present": bool,
             "unless_number": bool, "dtypes": list, "derived_from": str}
# The dtypes a `when` condition may list (torch's names; the Ascend tables write fp16, bf16, ...).
TORCH_DTYPES = frozenset(("float16", "float32", "bfloat16", "float64", "uint8", "int8", "int16", "int32", "int64", "bool",
                          "complex64", "complex128"))
PARAMETER_KEYS = {"source", "target", "change", "source_default", "target_default", "note", "position"}


class TableParts(NamedTuple):
    """What one mappings file holds besides its entries: the inventory of public names and the names that are
    one API (`aliases`: groups of names of one object; `module_aliases`: a module spelling → the spelling the
    tables use, `keras` → `tensorflow.keras`)."""

    entries: list[Entry]
    inventory: dict[str, list[str]]
    aliases: list[list[str]]
    module_aliases: dict[str, str]


def load_table(path: Path) -> tuple[list[Entry], dict[str, list[str]]]:
    """The entries of one mappings file and its inventory (module → public names), validated."""
    parts = load_table_parts(path)
    return parts.entries, parts.inventory


def load_table_parts(path: Path) -> TableParts:
    """Everything one mappings file holds, validated."""
    data = read_table_bytes(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise KnowledgeBaseError(path, None, f"not valid UTF-8: {error.reason} at byte {error.start}") from None
    return parse_table_parts(text, path)


def parse_table(text: str, path: Path) -> tuple[list[Entry], dict[str, list[str]]]:
    parts = parse_table_parts(text, path)
    return parts.entries, parts.inventory


def parse_table_parts(text: str, path: Path) -> TableParts:
    try:
        loader = _SafeLoader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise KnowledgeBaseError(path, mark.line + 1 if mark else None, f"not valid YAML: {error}") from None
    if root is None:
        raise KnowledgeBaseError(path, None, "the file is empty")
    _refuse_aliases(root, path)
    reader = _NodeReader(path)
    document = reader.mapping(root, "the document")
    for key, (key_node, _value) in document.items():
        if key not in TABLE_KEYS:
            raise KnowledgeBaseError(path, _line(key_node), f"unknown top-level key {key!r}; expected one of {sorted(TABLE_KEYS)}")
    table_name = path.stem
    if "table" in document:
        table_name = reader.scalar(document["table"][1], "table", str)
    default_provenance = reader.scalar(document["provenance"][1], "provenance", str) if "provenance" in document else ""
    entries: list[Entry] = []
    if "entries" in document:
        for index, entry_node in enumerate(reader.sequence(document["entries"][1], "entries")):
            entries.append(reader.entry(entry_node, table_name, index, default_provenance))
    inventory: dict[str, list[str]] = {}
    if "inventory" in document:
        for module, (_module_node, names_node) in reader.mapping(document["inventory"][1], "inventory").items():
            names = reader.sequence(names_node, f"inventory.{module}")
            inventory[module] = [reader.scalar(name, f"inventory.{module}", str) for name in names]
    aliases: list[list[str]] = []
    if "aliases" in document:
        for group_node in reader.sequence(document["aliases"][1], "aliases"):
            group = [reader.scalar(name, "a name in aliases", str) for name in reader.sequence(group_node, "an alias group")]
            if len(group) < 2:
                raise reader.fail(group_node, "an alias group names at least two names of one API")
            aliases.append(group)
    module_aliases: dict[str, str] = {}
    if "module_aliases" in document:
        for spelling, (_node, target_node) in reader.mapping(document["module_aliases"][1], "module_aliases").items():
            module_aliases[spelling] = reader.scalar(target_node, f"module_aliases.{spelling}", str)
    return TableParts(entries, inventory, aliases, module_aliases)


def _refuse_aliases(root: yaml.Node, path: Path) -> None:
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise KnowledgeBaseError(path, _line(node), "YAML anchors and aliases are not allowed in mappings")
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.append(key)
                stack.append(value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


class _NodeReader:
    """Turns YAML nodes into Python values, checking types and keys as it goes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._constructor = yaml.constructor.SafeConstructor()

    def fail(self, node: yaml.Node, message: str) -> KnowledgeBaseError:
        return KnowledgeBaseError(self.path, _line(node), message)

    def mapping(self, node: yaml.Node, what: str) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{what} must be a mapping")
        result: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in node.value:
            key = self.scalar(key_node, f"a key of {what}", str)
            if key in result:
                raise self.fail(key_node, f"key {key!r} appears twice in {what}")
            result[key] = (key_node, value_node)
        return result

    def construct(self, node: yaml.ScalarNode, what: str) -> Any:
        """A plain YAML value (bool, number, null); a tag such as !!python/name is refused with its place."""
        try:
            return self._constructor.construct_object(node)
        except yaml.YAMLError:
            raise self.fail(node, f"{what}: the tag {node.tag!r} is not allowed (plain YAML values only)") from None

    def sequence(self, node: yaml.Node, what: str) -> list[yaml.Node]:
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, f"{what} must be a list")
        return list(node.value)

    def scalar(self, node: yaml.Node, what: str, expected: type) -> Any:
        if not isinstance(node, yaml.ScalarNode):
            raise self.fail(node, f"{what} must be a {expected.__name__}, not a {'list' if isinstance(node, yaml.SequenceNode) else 'mapping'}")
        if node.tag == _STRING_TAG:
            value = node.value  # most scalars are strings: skip the constructor (a third of the load time)
        else:
            value = self.construct(node, what)
        if expected is str and isinstance(value, (int, float)) and not isinstance(value, bool):
            value = node.value  # `2.10` is a version string, not the float 2.1
        if value is None and expected is str:
            raise self.fail(node, f"{what} is empty")
        if not isinstance(value, expected) or (expected is not bool and isinstance(value, bool)):
            raise self.fail(node, f"{what} must be a {expected.__name__}, got {type(value).__name__} {value!r}")
        return value

    def entry(self, node: yaml.Node, table: str, index: int, default_provenance: str) -> Entry:
        fields = self.mapping(node, f"entry {index + 1}")
        values: dict[str, Any] = {}
        for key, (key_node, value_node) in fields.items():
            expected = ENTRY_KEYS.get(key)
            if expected is None:
                raise self.fail(key_node, f"unknown key {key!r} in an entry; expected one of {sorted(ENTRY_KEYS)}")
            if expected is list:
                values[key] = self.sequence(value_node, key)
            else:
                values[key] = self.scalar(value_node, key, expected)
        for required in ("api", "category"):
            if required not in values:
                raise self.fail(node, f"entry {index + 1} has no {required!r}")
        category = values["category"]
        if category not in CATEGORIES:
            raise self.fail(fields["category"][1], f"unknown category {category!r}; expected one of {list(CATEGORIES)}")
        routes = CATEGORY_ROUTES[category]
        route = values.get("route", routes[0] if len(routes) == 1 else "")
        if route not in ROUTES:
            node_for_error = fields["route"][1] if "route" in fields else node
            raise self.fail(node_for_error, f"route must be one of {list(ROUTES)} for category {category!r}")
        if route not in routes:
            raise self.fail(fields["route"][1], f"category {category!r} does not belong to route {route!r}")
        self._check_choice(fields, values, "match", MATCH_KINDS)
        self._check_choice(fields, values, "fix", FIX_SAFETY)
        self._check_choice(fields, values, "severity", SEVERITIES)
        self._check_shape(fields, values, route)
        ranges = {}
        for key in ("source_versions", "target_versions"):
            if key in values:
                try:
                    ranges[key] = parse_range(values[key])
                except VersionRangeError as error:
                    raise self.fail(fields[key][1], f"{key}: {error}") from None
        provenance = values.get("provenance", default_provenance)
        if not provenance:
            raise self.fail(node, f"entry for {values['api']!r} says nowhere where it came from (provenance)")
        return Entry(
            api=values["api"],
            route=route,
            category=category,
            table=table,
            index=index,
            line=_line(node),
            provenance=provenance,
            match=values.get("match", "name"),
            code=values.get("code"),
            target=values.get("target"),
            note=values.get("note", ""),
            suggestion=values.get("suggestion", ""),
            parameters=tuple(self.parameter(item) for item in values.get("parameters", ())),
            docs=tuple(self.scalar(item, "docs", str) for item in values.get("docs", ())),
            fix=values.get("fix", "none"),
            verified=values.get("verified", ""),
            curated=values.get("curated", False),
            receiver=values.get("receiver", ""),
            condition=values.get("condition", ""),
            severity=values.get("severity"),
            when=tuple(self.call_condition(item) for item in values.get("when", ())),
            note_original=values.get("note_original", ""),
            reported=values.get("reported", True),
            documentation_only=values.get("documentation_only", False),
            review=values.get("review", ""),
            edge_difference=values.get("edge_difference", ""),
            **ranges,
        )

    def _check_shape(self, fields, values, route: str) -> None:
        """What a well-formed entry looks like beyond its types: a usable api, a known code of the entry's category,
        a receiver only on methods, and a condition the match kind knows."""
        api = values["api"]
        if not api.strip() or any(character.isspace() for character in api):
            raise self.fail(fields["api"][1], f"api {api!r} must be a name without spaces")
        match = values.get("match", "name")
        if match in ("method", "definition") and "." not in api:
            raise self.fail(fields["api"][1], f"a {match} entry's api is Type.method, got {api!r}")
        if "receiver" in values and match != "method":
            raise self.fail(fields["receiver"][1], f"receiver only applies to match: method, not match: {match}")
        condition = values.get("condition", "")
        allowed = CONDITIONS.get(match)
        if condition and allowed is not None and condition not in allowed:
            raise self.fail(fields["condition"][1], f"condition of a match: {match} entry must be one of {list(allowed)}, got {condition!r}")
        if match == "pattern":
            self._check_pattern(fields, values, condition or api)
        elif "documentation_only" in values:
            raise self.fail(fields["documentation_only"][1], f"documentation_only only applies to match: pattern, not match: {match}")
        if match == "string" and not condition:
            raise self.fail(fields["api"][1], f"a match: string entry needs a condition: one of {list(CONDITIONS['string'])}")
        if "code" in values:
            info = CODES.get(values["code"])
            if info is None:
                raise self.fail(fields["code"][1], f"unknown code {values['code']!r}; codes are listed in taxonomy.py and docs/codes.md")
            if info.category != values["category"]:
                raise self.fail(fields["code"][1], f"code {info.code} belongs to category {info.category!r}, not {values['category']!r}")

    def _check_pattern(self, fields, values, name: str) -> None:
        """A pattern entry names a shape the engine matches, or says it is documentation only (a shape no precise
        matcher exists for, kept for `kb lookup` and the docs). A typo would otherwise silently disable it."""
        where = fields["condition"][1] if "condition" in fields else fields["api"][1]
        documentation_only = values.get("documentation_only", False)
        if name not in PATTERN_NAMES and not documentation_only:
            raise self.fail(where, f"no matcher for pattern {name!r}; the engine matches {sorted(PATTERN_NAMES)} "
                                   f"(mark a shape no matcher exists for `documentation_only: true`)")
        if name in PATTERN_NAMES and documentation_only:
            raise self.fail(fields["documentation_only"][1], f"pattern {name!r} has a matcher: remove documentation_only")

    def _check_choice(self, fields, values, key: str, choices: tuple[str, ...]) -> None:
        if key in values and values[key] not in choices:
            raise self.fail(fields[key][1], f"{key} must be one of {list(choices)}, got {values[key]!r}")

    def call_condition(self, node: yaml.Node) -> CallCondition:
        fields = self.mapping(node, "a `when` condition")
        values: dict[str, Any] = {}
        for key, (key_node, value_node) in fields.items():
            expected = WHEN_KEYS.get(key)
            if expected is None:
                raise self.fail(key_node, f"unknown key {key!r} in a `when` condition; expected one of {sorted(WHEN_KEYS)}")
            if expected is list:
                # Values are kept as written (`False`, `0`, `cudagraphs`), like parameter defaults.
                values[key] = tuple(self._written(item, key) for item in self.sequence(value_node, key))
            else:
                values[key] = self.scalar(value_node, key, expected)
        if "argument" not in values:
            raise self.fail(node, "a `when` condition needs argument: the restricted parameter's name")
        if values.get("values") and values.get("other_than"):
            raise self.fail(node, "a `when` condition takes values or other_than, not both")
        if values.get("dtypes"):
            unknown = sorted(set(values["dtypes"]) - TORCH_DTYPES)
            if unknown:
                raise self.fail(node, f"unknown dtypes {unknown} in a `when` condition; expected torch names: {sorted(TORCH_DTYPES)}")
            if values.get("values") or values.get("other_than") or not values.get("derived_from"):
                raise self.fail(node, "a `when` condition with dtypes takes no values or other_than, and says where the "
                                      "dtypes come from (derived_from)")
        return CallCondition(
            argument=values["argument"],
            position=values.get("position"),
            values=values.get("values", ()),
            other_than=values.get("other_than", ()),
            missing=values.get("missing", False),
            present=values.get("present", True),
            unless_number=values.get("unless_number", False),
            dtypes=values.get("dtypes", ()),
            derived_from=values.get("derived_from", ""),
        )

    def _written(self, node: yaml.Node, what: str) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.value == "":
            raise self.fail(node, f"each of {what} must be a single non-empty value")
        return node.value

    def parameter(self, node: yaml.Node) -> ParameterDifference:
        fields = self.mapping(node, "a parameter difference")
        values = {}
        for key, (key_node, value_node) in fields.items():
            if key not in PARAMETER_KEYS:
                raise self.fail(key_node, f"unknown key {key!r} in a parameter difference; expected one of {sorted(PARAMETER_KEYS)}")
            if not isinstance(value_node, yaml.ScalarNode):
                raise self.fail(value_node, f"{key} of a parameter difference must be a single value, not a "
                                            f"{'list' if isinstance(value_node, yaml.SequenceNode) else 'mapping'}")
            if value_node.tag == _STRING_TAG:
                values[key] = value_node.value
                continue
            value = self.construct(value_node, key)
            # Defaults are kept as the text written (`0.9`, `True`); only an empty value means "none".
            values[key] = None if value is None else value_node.value
        if values.get("change") not in CHANGES:
            raise self.fail(node, f"a parameter difference needs change: one of {list(CHANGES)}")
        position = values.get("position")
        if position is not None and not (position.isdigit() and len(position) < 4):
            raise self.fail(fields["position"][1], f"position must be a small whole number (0-based), got {position!r}")
        return ParameterDifference(
            source=values.get("source"),
            target=values.get("target"),
            change=values["change"],
            source_default=values.get("source_default"),
            target_default=values.get("target_default"),
            note=values.get("note") or "",
            position=int(position) if position is not None else None,
        )
