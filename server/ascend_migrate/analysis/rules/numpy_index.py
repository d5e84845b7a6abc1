"""A tensor indexed by a NumPy integer or a NumPy integer array, MindSpore route (MS217, MS218).

torch takes a NumPy integer as an index (`t[np.int64(3)]`, `t[np.where(mask)[0]]`); mindspore 2.10.0 refuses it in
both `__getitem__` and `__setitem__`, in both eras (IndexError "Unsupported Python object type received:
<class 'numpy.int64'>" for numpy.int64/int32/uint8 scalars, also inside a tuple index; "Only support integers,
slices(`:`), ellipsis(`...`), None, bool, tensor, int, list and tuple as index" for 0-d and 1-d arrays; checked on
CPU). `int(index)` and `mindspore.Tensor(index_array)` are taken and select what torch selects (an empty index array
included); tests/execution/test_numpy_index.py runs both against torch. Reported only where the index's type is
known (analysis/numpy_values.py: `np.where(c)[0][i]`, an element of `np.arange(n)`, a dict of such arrays): an index
of unknown type says nothing. A NumPy bool (torch reads np.bool_ as the integer 0 or 1, with a DeprecationWarning) and
an array of unknown dtype are not typed, so not reported.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.numpy_values import INDEX_ARRAY, NUMPY_INTEGER
from ascend_migrate.analysis.rules.api import SUBSCRIPT, Example, Matcher, Rule, RuleContext
from ascend_migrate.analysis.rules.call_rewrite import source_text
from ascend_migrate.analysis.symbols import TENSOR

INTEGER_PATTERN = "numpy-integer-index"
ARRAY_PATTERN = "numpy-array-index"


# The index shapes a NumPy integer or index array can have (a literal, a slice, an operation never is one).
_TYPED_SHAPES = (ast.Name, ast.Subscript, ast.Call, ast.Attribute)


def on_subscript(context: RuleContext, node: ast.Subscript) -> None:
    index = node.slice
    if type(index) is ast.Tuple:  # t[i, 0]: each NumPy integer in it
        pattern, parts = INTEGER_PATTERN, [(item, "int({})") for item in index.elts
                                           if type(item) in _TYPED_SHAPES and context.infer(item) == NUMPY_INTEGER]
    elif type(index) not in _TYPED_SHAPES:
        return  # x[0], x[:, 1], x[a + b]
    else:
        index_type = context.infer(index)
        if index_type == NUMPY_INTEGER:
            pattern, parts = INTEGER_PATTERN, [(index, "int({})")]
        elif index_type == INDEX_ARRAY:
            pattern, parts = ARRAY_PATTERN, [(index, "mindspore.Tensor({})")]
        else:
            return  # most subscripts: the receiver is not asked for
    if parts and context.infer(node.value) == TENSOR:
        _report(context, pattern, node, parts, ("import mindspore",) if pattern == ARRAY_PATTERN else ())


def _report(context: RuleContext, pattern: str, node: ast.Subscript, parts: list[tuple[ast.expr, str]], imports: tuple[str, ...]) -> None:
    factory = context.factory
    span = factory.span(node)
    for entry in context.view.patterns.get(pattern, ()):
        fix = None
        if entry.fix != "none":
            edits = []
            for part, form in parts:
                line, column, end_line, end_column = factory.span(part)
                edits.append(TextEdit(line, column, end_line, end_column, form.format(source_text(context, part))))
            written = ", ".join(form.format(source_text(context, part)) for part, form in parts)
            fix = Fix(title=f"Index with `{written}` (mindspore 2.10 refuses NumPy integers as indices)", safe=False,
                      edits=tuple(edits), add_imports=imports)
        context.add(factory.finding(entry, span, "inferred", api=entry.api, fix=fix))


# --- examples (tests/analysis/test_rule_examples.py runs them) ---------------------------------------------
_FLAGS = (
    Example("mindspore", """
        import random

        import numpy as np
        import torch
        from torch.utils.data import Dataset


        class PairDataset(Dataset):
            def __init__(self, labels):
                self.data = torch.randn(len(labels), 1, 28, 28)
                self.by_class = {}
                for label in range(10):
                    self.by_class[label] = np.where(labels == label)[0]

            def __getitem__(self, index):
                members = self.by_class[random.randint(0, 9)]
                first = members[random.randint(0, len(members) - 1)]
                return self.data[first], self.data[members]  # expect: MS217, MS218
        """, codes=("MS217", "MS218")),
    Example("mindspore", """
        import numpy as np
        import torch


        def best_rows(scores):
            table = torch.zeros(8, 4)
            order = np.arange(8)
            table[order[0], 1] = 1.0  # expect: MS217
            return table[np.argmax(scores)]  # expect: MS217
        """, codes=("MS217",), mindspore_version="2.4"),
)
_LEAVES_ALONE = (
    Example("mindspore", """
        import numpy as np
        import torch


        def pick(scores, position):
            table = torch.zeros(8, 4)
            rows = np.array(scores)  # dtype unknown: its elements are not typed
            first = table[rows[0]]
            second = table[position]  # a parameter of unknown type
            third = table[int(np.argmax(scores))]  # already an int
            kept = np.arange(8)[np.argmax(scores)]  # a NumPy array indexed, not a tensor
            return first, second, third, kept
        """, codes=("MS217", "MS218")),
)

RULE = Rule(name="numpy_index",
            matchers={INTEGER_PATTERN: Matcher(SUBSCRIPT, on_subscript), ARRAY_PATTERN: Matcher(SUBSCRIPT, on_subscript)},
            flags=_FLAGS, leaves_alone=_LEAVES_ALONE)
