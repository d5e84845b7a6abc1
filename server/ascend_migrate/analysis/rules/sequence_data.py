"""A DataLoader and random_split over a Python sequence, MindSpore route (issue 17): the calls become calls of classes the fix writes into the file (fixes/templates/sequence_data.py: SequenceLoader,
RandomSplit), which batch and split as torch does in the program's own process.

A mindspore.dataset pipeline cannot carry a collate_fn's result: GeneratorDataset and batch(per_batch_map=...)
hand over NumPy columns, where the collate_fn takes the list of samples as the dataset returns them. So a
DataLoader with `collate_fn=` over a source that is not a TensorDataset (which its own fix makes a
NumpySlicesDataset, with no [i]) calls SequenceLoader with the same arguments. A DataLoader without one calls
SequenceLoader too (torch's default collate, written with it) when its source is known to be read by len() and [i]:
a list display or comprehension, or an instance of a map-style dataset class of the file (pytorch/examples'
siamese_network); any other keeps the pipeline fix (structure_fixes.data_pipeline). Options passed by `**name` are
taken when every key the dict may hold is one the class takes (dictionary_keys). An option the written class does
not take (sampler, timeout, ...) leaves the finding without a fix, saying which.
"""

from __future__ import annotations

import ast
import re

from ascend_migrate.analysis.dictionary_keys import dictionary_keys
from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.call_rewrite import source_text, written_class_name
from ascend_migrate.analysis.rules.structure_fixes import NotFixed, data_pipeline
from ascend_migrate.analysis.symbols import TENSOR_DATASETS
from ascend_migrate.fixes.families.written_definition import WrittenDefinition
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

TEMPLATE = "sequence_data"
# SequenceLoader's parameters: torch's first three by position, the rest by name (num_workers, pin_memory and
# persistent_workers are taken and not used: the batches are made in this process, with the same values; a
# generator seeds the shuffle with its initial_seed()).
_LOADER_POSITIONAL = ("dataset", "batch_size", "shuffle")
_LOADER_KEYWORDS = frozenset((*_LOADER_POSITIONAL, "collate_fn", "drop_last", "generator", "num_workers", "pin_memory",
                              "persistent_workers"))
_SPLIT_PARAMETERS = ("dataset", "lengths", "generator")
# The bases a map-style dataset class of the file may have besides its own classes (`object` is no base here: the
# walker records only bases it can name, and the fix makes torch's Dataset `object`).
_MAP_STYLE_BASES = frozenset(("torch.utils.data.Dataset", "torch.utils.data.dataset.Dataset"))
_DEEPEST_BASES = 8  # classes followed through at most this many bases (a cycle ends here)


def _passed(context, call: ast.Call, positional: tuple[str, ...], keywords: frozenset[str]) -> dict[str, ast.expr] | NotFixed:
    """The call's arguments by parameter name (an option a `**name` dict may pass: that dict's name node), or why
    the written class cannot take them as written. A `**name` dict is taken when every key it may hold (built in
    this function: dictionary_keys) is one the class takes and none is passed otherwise."""
    if any(type(argument) is ast.Starred for argument in call.args):
        return NotFixed("its arguments are passed with *, so which options it sets is not known here")
    if len(call.args) > len(positional):
        return NotFixed(f"more than {len(positional)} arguments are passed by position")
    passed = dict(zip(positional, call.args, strict=False))
    spread: list[tuple[ast.Name, set[str]]] = []
    for keyword in call.keywords:
        if keyword.arg is None:
            value = keyword.value
            keys = dictionary_keys(context.assigned_dicts, value.id) if type(value) is ast.Name else None
            if keys is None or type(value) is not ast.Name:
                return NotFixed(f"the keys `**{source_text(context, value)}` passes are not known here")
            spread.append((value, keys))
            continue
        if keyword.arg not in keywords:
            return NotFixed(f"`{keyword.arg}=` has no counterpart in the class written into the file (it takes "
                            f"{', '.join(sorted(keywords))})")
        passed[str(keyword.arg)] = keyword.value
    for name, keys in spread:
        unknown = sorted(keys - keywords)
        if unknown:
            return NotFixed(f"`**{name.id}` may pass {', '.join(unknown)}, which the class written into the file does not "
                            f"take (it takes {', '.join(sorted(keywords))})")
        for key in sorted(keys):
            if key in passed:
                return NotFixed(f"`{key}` may be passed twice")
            passed[key] = name
    return passed


def _sequence_problem(context, source: ast.expr | None, call: ast.Call) -> str | None:
    """Why `source` is known not to be a sequence after the fix (None when it may be one)."""
    if source is None:
        return "the dataset is not passed"
    if any(keyword.arg is None and keyword.value is source for keyword in call.keywords):
        return "the dataset is passed in a `**` dict, so what it is is not known here"
    known = context.infer(source) or ""
    called = context.qualified_name(source.func) if type(source) is ast.Call else None
    if known in TENSOR_DATASETS or known.startswith("mindspore.dataset.") or (called or "").startswith("mindspore.dataset."):
        # a TensorDataset's own fix makes it a NumpySlicesDataset, before or after this call is fixed
        return ("the dataset is a TensorDataset, which its own fix makes a NumpySlicesDataset (no len() and [i] "
                "there): batch it with the pipeline's .batch(n, per_batch_map=...) by hand")
    return None


def _known_sequence(context, source: ast.expr) -> bool:
    """Whether torch's DataLoader reads `source` by len() and [i] (a map-style dataset) and the written loader can
    too: a list display or comprehension, or an instance of a class of this file that defines (or inherits from
    its own classes) __getitem__ and __len__ and derives from nothing but torch's map-style Dataset, object and
    such classes (an IterableDataset, or a base the file does not define, may be iterated instead)."""
    if type(source) is ast.List or type(source) is ast.ListComp:
        return True
    known = context.infer(source) or ""
    return known.startswith("local:") and _map_style_class(context, known[len("local:"):])


def _map_style_class(context, name: str, depth: int = 0) -> bool:
    """Whether class `name` of this file has __getitem__ and __len__ (its own or from its own classes) and no base
    but torch's map-style Dataset and its own classes."""
    methods = _class_methods(context, name, depth)
    return methods is not None and {"__getitem__", "__len__"} <= methods


def _class_methods(context, name: str, depth: int) -> set[str] | None:
    """The methods class `name` of this file defines or inherits from its own classes; None when one of its bases is
    something else than those and torch's Dataset (an IterableDataset, a library class: it may be iterated)."""
    info = context.types.classes.get(name)
    if info is None or depth > _DEEPEST_BASES:
        return None
    methods = set(info.methods)
    for base in info.bases:
        if base.startswith("local:"):
            inherited = _class_methods(context, base[len("local:"):], depth + 1)
            if inherited is None:
                return None
            methods |= inherited
        elif base not in _MAP_STYLE_BASES:
            return None
    return methods


def _written(context, call: ast.Call, class_name: str, root: str | None, title: str) -> Fix:
    """The call's callee replaced by `class_name` (renamed away from a name the file already binds), the class
    written after the imports."""
    name = written_class_name(context, class_name)
    line, column, end_line, end_column = context.factory.span(call.func)
    return Fix(
        title=title.format(name=name),
        safe=False,
        rewrite=WrittenDefinition((line, column, end_line, end_column), f"{TEMPLATE}:{class_name}", name),
        add_imports=("import numpy",),
        remove_imports=(root,) if root else (),
    )


def _data_loader(context, entry, node, call, span, root) -> Fix | NotFixed | None:
    """DataLoader(seq, batch_size, shuffle, collate_fn=f, drop_last=...) → SequenceLoader(...) with the same
    arguments; without collate_fn, the same over a source known to be a sequence (torch's default collate, written
    with the class), else the pipeline fix."""
    if call is None:
        return None
    collated = any(keyword.arg == "collate_fn" for keyword in call.keywords)
    if not collated:
        source = call.args[0] if call.args else next((keyword.value for keyword in call.keywords if keyword.arg == "dataset"), None)
        if source is None or not _known_sequence(context, source):
            return data_pipeline(context, entry, node, call, span, root)
    passed = _passed(context, call, _LOADER_POSITIONAL, _LOADER_KEYWORDS)
    if isinstance(passed, NotFixed):
        return passed
    problem = _sequence_problem(context, passed.get("dataset"), call)
    if problem is not None:
        return NotFixed(problem)
    if collated:
        return _written(context, call, "SequenceLoader", root,
                        "Replace with `{name}(...)`, a loader written into the file that calls the collate_fn on each batch "
                        "as torch does (batch_size, shuffle, drop_last kept; no mindspore.dataset pipeline can carry its result)")
    return _written(context, call, "SequenceLoader", root,
                    "Replace with `{name}(...)`, a loader written into the file that batches the dataset's samples with "
                    "torch's default collate (tensors stacked; tuples, lists and dicts field by field; batch_size, "
                    "shuffle, drop_last kept)")


def _random_split(context, entry, node, call, span, root) -> Fix | NotFixed | None:
    """random_split(seq, [n1, n2] or [0.9, 0.1], generator=g) → RandomSplit(...) with the same arguments."""
    if call is None:
        return None
    passed = _passed(context, call, _SPLIT_PARAMETERS, frozenset(_SPLIT_PARAMETERS))
    if isinstance(passed, NotFixed):
        return passed
    problem = _sequence_problem(context, passed.get("dataset"), call)
    if problem is not None:
        return NotFixed(problem.replace("batch it with the pipeline's .batch(n, per_batch_map=...)",
                                        "split it with the pipeline's .split(sizes, randomize=True)"))
    if "lengths" not in passed:
        return NotFixed("the lengths are not passed")
    return _written(context, call, "RandomSplit", root,
                    "Replace with `{name}(...)`, a split written into the file: its parts keep len(), [i], .dataset and "
                    ".indices (lengths as counts or fractions; not torch's order for the same seed)")


def _dataset_base(context, entry, node, call, span, root) -> Fix | NotFixed | None:
    """`class Pairs(Dataset):` → `class Pairs(object):`: a map-style dataset is a plain class with __getitem__ and
    __len__ in MindSpore (what SequenceLoader reads and GeneratorDataset wraps); as a subclass of the entry's
    GeneratorDataset its `super().__init__()` raises TypeError (no source; mindspore 2.10.0)."""
    if context.compared_only:
        return NotFixed(_type_test_reason(context))
    if call is not None:
        return NotFixed("torch's Dataset class is called here, not subclassed: use a plain class with __getitem__ and __len__")
    line, column, end_line, end_column = span
    header = context.factory.lines.text(line)
    written = header[column - 1:end_column - 1] if line == end_line else ""
    if not written or not re.fullmatch(r"\s*class \w+\(\s*", header[:column - 1]) or not re.match(r"\s*\)\s*:", header[end_column - 1:]):
        return NotFixed("not the only base class of a class statement: drop it from the bases by hand")
    return Fix(title="Replace the base class with `object` (a map-style dataset is a plain class with __getitem__ and __len__)",
               safe=False, edits=(TextEdit(line, column, end_line, end_column, "object"),),
               remove_imports=(root,) if root else ())


def _derives_from_dataset(context, name: str, depth: int) -> bool:
    """Whether class `name` of this file derives from torch's Dataset, directly or through its own classes."""
    info = context.types.classes.get(name)
    if info is None or depth > _DEEPEST_BASES:
        return False
    return any(base in _MAP_STYLE_BASES or base.startswith("local:") and _derives_from_dataset(context, base[len("local:"):], depth + 1)
               for base in info.bases)


def _type_test_reason(context) -> str:
    """Why a type test against torch's Dataset (`isinstance(x, Dataset)`, `issubclass(c, Dataset)`, `type(x) is
    Dataset`) gets no fix: the fix makes the file's dataset classes plain, so the test turns False for them, and
    no MindSpore class stands in (their instances are no GeneratorDataset either). Names those classes: the file's
    own classes deriving from torch's Dataset (before the fix) or, plain, with __getitem__ and __len__ (after it)."""
    classes = sorted(name for name in context.types.classes if _derives_from_dataset(context, name, 0) or _map_style_class(context, name))
    own = f"this file's dataset classes ({', '.join(classes)})" if classes else "a dataset class"
    example = f"`isinstance(obj, {classes[0] if len(classes) == 1 else '(' + ', '.join(classes) + ')'})`" if classes else "`isinstance(obj, YourDataset)`"
    return (f"a type test against torch's Dataset class: the port makes {own} plain (`object` as the base, what "
            "SequenceLoader and GeneratorDataset read), so this test is False for their instances after the fix, and "
            "one against mindspore.dataset.GeneratorDataset would be too; test your own classes instead, "
            f"{example}, or the protocol torch's Dataset provides, `hasattr(obj, \"__getitem__\")` "
            "(torch stays imported while this test does)")


BUILDERS = {
    **{(ROUTE_MINDSPORE, api): _dataset_base for api in ("torch.utils.data.Dataset", "torch.utils.data.dataset.Dataset")},
    **{(ROUTE_MINDSPORE, api): _data_loader for api in ("torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader")},
    **{(ROUTE_MINDSPORE, api): _random_split for api in ("torch.utils.data.random_split", "torch.utils.data.dataset.random_split")},
}
