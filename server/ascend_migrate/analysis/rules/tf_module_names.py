"""`tf.__version__` and `tf.newaxis` on the MindSpore route (MS267, MS268; issue 21).

    print("TensorFlow version:", tf.__version__)   →   print("MindSpore version:", mindspore.__version__)
    x_train = x_train[..., tf.newaxis]             →   x_train = x_train[..., None]

MS267: a program that prints its framework's version tells its reader which framework runs it; after the port that
is MindSpore, so a `print(...)` of `tf.__version__` prints `mindspore.__version__`, and the word "TensorFlow" in that
call's plain string arguments becomes "MindSpore" (the label would otherwise name the wrong framework). Anywhere
else (a comparison, a check of the version) the value is TensorFlow's version on purpose and MindSpore's would not
mean the same thing: no fix, and the message says so. MS268: `tf.newaxis` is `None` (tensorflow 2.21:
`tf.newaxis is None`), which NumPy and MindSpore indexing read as a new axis of size 1, so it becomes `None`.
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import CALL, REFERENCE, TENSORFLOW, Example, Matcher, Rule, RuleContext
from ascend_migrate.analysis.rules.keras_layers import keras_roots
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

VERSION = "tf-version"
NEWAXIS = "tf-newaxis"
_NAMES = {"tensorflow.__version__": VERSION, "tensorflow.newaxis": NEWAXIS}
_FRAMEWORK = ("TensorFlow", "MindSpore")  # the word in a printed label, and what it becomes


def _canonical(context: RuleContext, node: ast.expr) -> str | None:
    qualified = context.qualified_name(node)
    return context.view.aliases.canonical(qualified) if qualified else None


def on_reference(context: RuleContext, qualified: str, node: ast.expr, call: ast.Call | None, root: str | None) -> None:
    canonical = context.view.aliases.canonical(qualified)
    if canonical.startswith("tensorflow.__version__."):  # tf.__version__.startswith(...): one reference, read its head
        while type(node) is ast.Attribute and node.attr != "__version__":
            node = node.value
        canonical, qualified = "tensorflow.__version__", qualified[: qualified.index("__version__") + len("__version__")]
    pattern = _NAMES.get(canonical)
    if pattern is None or context.route != ROUTE_MINDSPORE or context.in_annotation:
        return
    entries = context.view.patterns.get(pattern)
    if not entries:
        return
    factory = context.factory
    span = factory.span(node)
    finding = factory.finding(entries[0], span, "exact", api=qualified)
    if finding is None:
        return
    if pattern == NEWAXIS:
        fix = Fix(title="Index with None (what tf.newaxis is)", safe=False, edits=(TextEdit(*span, "None"),),
                  remove_imports=keras_roots(context, [node]))
        context.add(dataclasses.replace(finding, fix=fix))
        return
    # The version: fixed by on_print when a print(...) shows it; elsewhere it is compared or checked.
    reason = ("the value is TensorFlow's version and MindSpore's (mindspore.__version__) numbers differ: rewrite or "
              "remove the check by hand (only a print of it is rewritten)")
    context.add(dataclasses.replace(finding, message=f"{finding.message} Not rewritten automatically: {reason}."))


def on_print(context: RuleContext, node: ast.Call) -> None:
    """`print(..., tf.__version__, ...)`: the version shown becomes MindSpore's, and so does the label's framework."""
    if type(node.func) is not ast.Name or node.func.id != "print" or context.route != ROUTE_MINDSPORE or VERSION not in context.view.patterns:
        return
    versions = [argument for argument in node.args if type(argument) is ast.Attribute
                and _canonical(context, argument) == "tensorflow.__version__"]
    if not versions:
        return
    factory = context.factory
    spans = {factory.span(argument) for argument in versions}
    edits = [TextEdit(*span, "mindspore.__version__") for span in sorted(spans)]
    for argument in node.args:
        if type(argument) is ast.Constant and type(argument.value) is str and _FRAMEWORK[0] in argument.value:
            line, column, end_line, end_column = factory.span(argument)
            if line == end_line:  # the literal as written (its quotes and prefix kept), the word replaced
                written = factory.lines.text(line)[column - 1:end_column - 1]
                edits.append(TextEdit(line, column, end_line, end_column, written.replace(*_FRAMEWORK)))
    fix = Fix(title="Print MindSpore's version", safe=False, edits=tuple(edits), add_imports=("import mindspore",),
              remove_imports=keras_roots(context, list[ast.AST](versions)))
    # The references' findings (no fix) are replaced by one carrying the print's fix.
    shown = [found for found in context.findings if found.code == "MS267" and (found.line, found.column, found.end_line, found.end_column) in spans]
    if not shown:
        return  # suppressed, or not reported on this route
    replaced = factory.finding(context.view.patterns[VERSION][0], factory.span(versions[0]), "exact", api=shown[0].api, fix=fix)
    if replaced is None:
        return
    # In place (the first reference's span and code are already reported); the print's other references go.
    context.findings[:] = [replaced if found is shown[0] else found for found in context.findings if found is shown[0] or found not in shown]


_FLAGS = (
    Example("mindspore", """
        import numpy as np
        import tensorflow as tf

        print("TensorFlow version:", tf.__version__)  # expect: MS267
        images = np.zeros((4, 28, 28))[..., tf.newaxis]  # expect: MS268
        if tf.__version__.startswith("2."):  # expect: MS267
            print("TensorFlow 2")
        """, codes=("MS267", "MS268")),
)

RULE = Rule(name="tf_module_names", frameworks=TENSORFLOW, routes=frozenset({ROUTE_MINDSPORE}), hooks={CALL: on_print},
            matchers={VERSION: Matcher(REFERENCE, on_reference), NEWAXIS: Matcher(REFERENCE, on_reference)}, flags=_FLAGS)
