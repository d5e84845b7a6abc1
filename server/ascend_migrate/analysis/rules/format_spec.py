"""A format spec applied to a tensor (MindSpore route, MS230): `'{:+.2f}'.format(w)`, `f'{w:.2f}'`, `format(w, '.2f')`.

torch formats a 0-d tensor as its number; mindspore 2.10's Tensor.__format__ takes no spec and raises TypeError
(tests/execution/test_format_spec.py). Reported where the formatted value is known to be a tensor (also a
parameter every call of its function passes a tensor to: analysis/call_sites.py); the fix formats `w.item()`.
A field with a conversion (`{w!r:>20}`) formats a string, and `'%.2f' % w` converts to a number: both work.
"""

from __future__ import annotations

import ast
import string

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import CALL, FORMATTED_VALUE, Example, Matcher, Rule, RuleContext
from ascend_migrate.analysis.symbols import TENSOR

PATTERN = "tensor-format-spec"


def on_call(context: RuleContext, node: ast.Call) -> None:
    func = node.func
    if type(func) is ast.Attribute and type(func.value) is ast.Constant and type(func.value.value) is str:
        for value in _formatted_with_spec(func.value.value, node):
            _report(context, value)
    elif type(func) is ast.Name and context.lookup("format") is None and len(node.args) == 2 and not node.keywords:
        spec = node.args[1]
        if type(spec) is ast.Constant and type(spec.value) is str and spec.value:
            _report(context, node.args[0])  # format(w, ".2f")


def on_formatted_value(context: RuleContext, node: ast.FormattedValue) -> None:
    spec = node.format_spec
    if node.conversion == -1 and type(spec) is ast.JoinedStr and spec.values:
        _report(context, node.value)  # f"{w:.2f}"


def _formatted_with_spec(template: str, call: ast.Call) -> list[ast.expr]:
    """The arguments of `template.format(...)` that a field formats with a spec and no conversion."""
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:
        return []  # not a valid template: str.format raises anyway
    arguments = call.args
    if any(type(argument) is ast.Starred for argument in arguments):
        return []
    keywords = {keyword.arg: keyword.value for keyword in call.keywords if keyword.arg is not None}
    found: list[ast.expr] = []
    automatic = 0
    for _, name, spec, conversion in fields:
        if name is None:
            continue  # literal text only
        if name == "":
            index: int | str = automatic
            automatic += 1
        elif name.isdigit():
            index = int(name)
        elif name.isidentifier():
            index = name
        else:
            continue  # {0.real}, {0[1]}: an attribute or item of the argument is formatted
        if not spec or conversion is not None:
            continue
        value = keywords.get(index) if isinstance(index, str) else arguments[index] if index < len(arguments) else None
        if value is not None:
            found.append(value)
    return found


def _report(context: RuleContext, value: ast.expr) -> None:
    entries = context.view.patterns.get(PATTERN)
    if not entries or context.infer(value) != TENSOR:
        return
    entry = entries[0]
    factory = context.factory
    span = factory.span(value)
    context.add(factory.finding(entry, span, "inferred", api=entry.api, fix=_item_fix(context, value, span) if entry.fix != "none" else None))


def _item_fix(context: RuleContext, value: ast.expr, span) -> Fix | None:
    line, column, end_line, end_column = span
    if line != end_line:
        return None
    text = context.factory.lines.text(line)[column - 1:end_column - 1]
    try:
        parsed = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    if ast.dump(parsed) != ast.dump(value):
        return None  # the span does not hold the expression (an f-string position the parser got wrong)
    simple = type(value) in (ast.Name, ast.Attribute, ast.Subscript, ast.Call)
    new = f"{text}.item()" if simple else f"({text}).item()"
    return Fix(title=f"Format `{new}` (a Python number): a MindSpore tensor takes no format spec", safe=False,
               edits=(TextEdit(line, column, end_line, end_column, new),))


_FLAGS = (
    Example("mindspore", """
        import torch

        def describe(weights, bias):
            text = ""
            for index, weight in enumerate(weights):
                text += "{:+.2f} x^{} ".format(weight, index + 1)  # expect: MS230
            return text + "{:+.2f}".format(bias[0])  # expect: MS230

        loss = torch.randn(3).sum()
        print(f"loss {loss:.4f}")  # expect: MS230
        print(format(loss, ".3f"))  # expect: MS230
        for step in range(3):
            print(describe(torch.randn(4), torch.randn(1)))
        """),
)
_LEAVES_ALONE = (
    Example("mindspore", """
        import torch

        loss = torch.randn(3).sum()
        print("{} {!r:>30} {:.4f} %.2f" % loss, "{}".format(loss), f"{loss}", "{:.4f}".format(loss.item()))

        def describe(weights):
            return "{:.2f}".format(weights)

        describe(torch.randn(1))
        describe(0.5)
        """, codes=("MS230",)),
)

RULE = Rule(name="format_spec",
            matchers={PATTERN: Matcher(CALL, on_call, called=frozenset({"format"}))},
            hooks={FORMATTED_VALUE: on_formatted_value},  # an f-string: checks the pattern's entries itself
            flags=_FLAGS, leaves_alone=_LEAVES_ALONE)
