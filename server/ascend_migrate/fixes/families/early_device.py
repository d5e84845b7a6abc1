"""The `early-device` fix family: a module-level device choice moved above the first statement that may run a kernel.

`mindspore.set_device` raises RuntimeError once the runtime ran any kernel ("please set it before the kernel is
executed", mindspore 2.10.0): a script that builds tensors at module level (synthetic data, a seed tensor) and chooses
its device after them, as torch allows, stopped there (issue 17, finetune). The device choice the device-choice
rule writes (`device = "Ascend" if cond else "CPU"` and `mindspore.set_device(device)`) therefore goes before the
first top-level statement after the imports, when the statement is top-level and a call stands between the imports
and it; elsewhere (inside a function, or with nothing that may run before it) it stays where it is. Its value reads
nothing the moved statements would miss: the rule moves only a choice whose names are all imports. Where it stood,
one gap is left, not the blank lines above and below it together (`fixes.text.blank_lines_to_join`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascend_migrate.fixes.families.base import Rewrite, Span
from ascend_migrate.pickling import pickled_by_position

if TYPE_CHECKING:
    from ascend_migrate.fixes.text import LineIndex, TextEdit


@pickled_by_position
@dataclass(frozen=True, slots=True)
class EarlyDevice(Rewrite):
    """`statement`: the span of the `name = torch.device(...)` statement; `value`: the device choice written for it
    (`"Ascend" if cond else "CPU"`); `name`: the variable."""

    NAME = "early-device"
    SPAN_FIELDS = ("statement",)

    statement: Span
    value: str
    name: str

    def edits(self, source: str, index: LineIndex) -> list[TextEdit]:
        from ascend_migrate.fixes.errors import FixError
        from ascend_migrate.fixes.families.written_definition import insertion_line
        from ascend_migrate.fixes.text import TextEdit, blank_lines_to_join, newline_of

        line, column, end_line, end_column = self.statement
        try:
            tree = ast.parse(source)
        except SyntaxError:
            raise FixError("the text does not parse") from None
        written = f"{self.name} = {self.value}"
        top = next((statement for statement in tree.body if statement.lineno == line and statement.end_lineno == end_line), None)
        if top is None or column != 1:
            return [TextEdit(line, column, end_line, end_column, f"{written}\n{' ' * (column - 1)}mindspore.set_device({self.name})")]
        first = insertion_line(tree, index)
        earlier = [statement for statement in tree.body if first is not None and first <= statement.lineno < line]
        if first is None or not any(type(node) is ast.Call for statement in earlier for node in ast.walk(statement)):
            return [TextEdit(line, column, end_line, end_column, f"{written}\nmindspore.set_device({self.name})")]
        newline = newline_of(source)
        # the statement's lines, and the blank lines below it that would double the gap above it
        end_line += blank_lines_to_join(index.line_text, line, end_line, index.line_count)
        deleted = TextEdit(line - 1, len(index.line_text(line - 1)) + 1, end_line, len(index.line_text(end_line)) + 1, "")
        inserted = TextEdit(first, 1, first, 1, f"{written}{newline}mindspore.set_device({self.name}){newline}{newline}")
        return [inserted, deleted]
