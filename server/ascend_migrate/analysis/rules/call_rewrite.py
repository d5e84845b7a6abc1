"""Fixes that write a whole call anew: the call's source text, and the fix replacing its span with the renamed
callee and rewritten arguments (`nn.Embedding(n, d)` → `mindspore.nn.Embedding(n, d, embedding_table=...)`)."""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.fixes.families.call_arguments import CallArguments


def source_text(context, node: ast.AST) -> str:
    """The source text of `node` as written (several lines joined with the file's own line breaks removed)."""
    line, column, end_line, end_column = context.factory.span(node)
    lines = context.factory.lines
    if line == end_line:
        return lines.text(line)[column - 1:end_column - 1]
    parts = [lines.text(line)[column - 1:], *(lines.text(number) for number in range(line + 1, end_line)), lines.text(end_line)[:end_column - 1]]
    return "\n".join(parts)


def renamed_call(context, entry, span, root, call: ast.Call, arguments: list[str], title: str,
                 imports: tuple[str, ...] = ()) -> Fix | None:
    """The call replaced by the entry's target called with `arguments` (source texts, keywords as `name=value`);
    None when the target cannot be written here. The title names what is written beside the rename; `imports` are
    what the arguments need besides the target's own (`import mindspore` for an initializer written out)."""
    rename = context.factory.rename_fix(entry, span, root)
    if rename is None or not rename.edits:
        return None
    callee = rename.edits[0].new_text
    line, column, end_line, end_column = context.factory.span(call)
    return Fix(
        title=f"Replace with `{callee}(...)` {title}",
        safe=False,
        edits=(TextEdit(line, column, end_line, end_column, f"{callee}({', '.join(arguments)})"),),
        add_imports=tuple(dict.fromkeys((*rename.add_imports, *imports))),
        remove_imports=rename.remove_imports,
    )


def replaced_call(context, call: ast.Call, new: str, title: str, root: str | None) -> Fix:
    """The call replaced by `new`, a MindSpore expression written out whole (`import mindspore` added); the import of
    `root` goes once nothing uses it. Unsafe, as every structure fix."""
    line, column, end_line, end_column = context.factory.span(call)
    return Fix(title=title, safe=False, edits=(TextEdit(line, column, end_line, end_column, new),),
               add_imports=("import mindspore",), remove_imports=(root,) if root else ())


def written_class_name(context, name: str) -> str:
    """The name a class written into the file gets: `name`, or `Written<name>` (then `_` added) while the file
    already binds it, so the written class never shadows one of the program's own names."""
    while context.lookup(name) is not None:
        name = "Written" + name if not name.startswith("Written") else name + "_"
    return name


def renamed_with_default(context, entry, span, root, call: ast.Call, keyword: str, value: str, why: str) -> Fix | None:
    """The entry's rename with torch's default `keyword=value` written into a call that leaves it out, where the
    target's default differs (`why`, for the title); None when the rename itself has no fix."""
    rename = context.factory.rename_fix(entry, span, root)
    if rename is None:
        return None
    return Fix(title=f"{rename.title}, with torch's default {keyword}={value} written out ({why})", safe=False,
               edits=rename.edits, rewrite=CallArguments(context.factory.span(call), default_keywords=((keyword, value),)),
               add_imports=rename.add_imports, remove_imports=rename.remove_imports)
