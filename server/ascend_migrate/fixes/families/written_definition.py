"""The `written-definition` fix family: a call of a class MindSpore lacks becomes a call of a class the fix writes
into the program (MS235: `optim.LBFGS(...)` → `LBFGS(...)`, the L-BFGS of fixes/templates/lbfgs.py).

The class's text is the template's: everything below its marker line (`lbfgs`), or one class of the template
module (`recurrent_cells:LSTMCell`, MS236), inserted once per file before the first
top-level statement that is not an import, a docstring or a comment just above it: after the imports, so the
`mindspore` it uses is bound when it runs. A text that already has a top-level `class NAME` gets no second copy
(a second call in the file, or a fix applied again). Costs one `ast` parse of the text per such fix. The change
list shows the inserted class as one line (`listed`).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascend_migrate.fixes.families.base import Rewrite, Span
from ascend_migrate.pickling import pickled_by_position

if TYPE_CHECKING:
    from ascend_migrate.fixes.text import LineIndex, TextEdit


@pickled_by_position
@dataclass(frozen=True, slots=True)
class WrittenDefinition(Rewrite):
    """`callee`: the span of the called name (`optim.LBFGS`); `template`: the module of fixes/templates whose
    text is written (`lbfgs`), or `module:Class` for one class of it; `name`: the class the template defines, and
    what the call calls."""

    NAME = "written-definition"
    SPAN_FIELDS = ("callee",)

    callee: Span
    template: str
    name: str

    def edits(self, source: str, index: LineIndex) -> list[TextEdit]:
        from ascend_migrate.fixes.errors import FixError
        from ascend_migrate.fixes.templates import class_source, written_text
        from ascend_migrate.fixes.text import TextEdit, newline_of

        try:
            called = index.slice(*self.callee)
        except ValueError as error:
            raise FixError(f"the callee span {list(self.callee)} does not fit the text: {error}") from None
        try:
            tree = ast.parse(source)
        except SyntaxError:
            raise FixError("the text does not parse") from None
        edits = [] if called == self.name else [TextEdit(*self.callee, self.name)]
        if any(type(statement) is ast.ClassDef and statement.name == self.name for statement in tree.body):
            return edits  # written already
        try:
            module, _, class_name = self.template.partition(":")
            text = class_source(module, class_name) + "\n" if class_name else written_text(module)
        except (OSError, ValueError, LookupError) as error:
            raise FixError(f"written-definition: {error}") from None
        defined = re.search(r"^class (\w+)", text, re.MULTILINE)
        if defined is None:
            raise FixError(f"written-definition: template {self.template!r} defines no class")
        text = text[:defined.start(1)] + self.name + text[defined.end(1):]  # the name the call was given
        line = insertion_line(tree, index)
        if line is None:
            raise FixError("written-definition: the text has no statement after its imports")
        newline = newline_of(source)
        written = text.replace("\n", newline) + newline + newline
        return [TextEdit(line, 1, line, 1, written), *edits]

    def listed(self, edit: TextEdit) -> str | None:
        """The inserted definition as one line of the change list (`class LBFGS: 104 lines written ...`); the
        file gets the whole text, and the diff shows it."""
        if (edit.line, edit.column) != (edit.end_line, edit.end_column) or f"class {self.name}" not in edit.new_text:
            return None
        lines = len(edit.new_text.strip("\r\n").splitlines())
        module = self.template.partition(":")[0]  # `recurrent_cells:LSTMCell`: one class of recurrent_cells.py
        return f"class {self.name}: {lines} lines written into the file (fixes/templates/{module}.py)"


def insertion_line(tree: ast.Module, index: LineIndex) -> int | None:
    """The line before which the definition goes: that of the first top-level statement that is not a docstring,
    an import or a `from __future__` import, moved up over the comment lines right above it."""
    for position, statement in enumerate(tree.body):
        docstring = position == 0 and type(statement) is ast.Expr and type(statement.value) is ast.Constant \
            and isinstance(statement.value.value, str)
        if docstring or type(statement) in (ast.Import, ast.ImportFrom):
            continue
        decorators = getattr(statement, "decorator_list", [])
        line = min([statement.lineno, *(decorator.lineno for decorator in decorators)])
        while line > 1 and index.line_text(line - 1).lstrip().startswith("#"):
            line -= 1
        return line
    return None
