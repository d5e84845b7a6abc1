"""The `loader-dataset-size` fix family: `len(loader.dataset)` → `loader.children[0].get_dataset_size()` (MS215).

torch's `len(loader.dataset)` counts the samples of the dataset a DataLoader reads. The data-pipeline fix writes
the loader as a mindspore.dataset pipeline, `source[.shuffle(n)].batch(...)`, which has no `.dataset`; its
`get_dataset_size()` counts batches, and the node the batch was built on (`children[0]`: the source or its
shuffle, which keeps the count) gives the samples. That is right only once the loader is such a pipeline, which
the analysis of one function cannot see when the loader arrives as a parameter. So the check is made here, on
the whole text being fixed: every assignment of the loader in its function, or, for a parameter of a module-level
function, the argument of every call of that function in the file (at least one), must be a pipeline whose root
is a `mindspore.dataset` call (directly or through a name assigned one). In the first pass of `fix` the
DataLoaders are still torch's, so the check fails and the fix waits (FixError, with the reason); the pass after
the data-pipeline fix applies it. Costs one `ast` parse of the text per such fix (a file holds a few).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascend_migrate.fixes.families.base import Rewrite, Span
from ascend_migrate.pickling import pickled_by_position

if TYPE_CHECKING:
    from ascend_migrate.fixes.text import LineIndex, TextEdit

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@pickled_by_position
@dataclass(frozen=True, slots=True)
class LoaderDatasetSize(Rewrite):
    """`call` is the `len(loader.dataset)` call, `loader` the name of the loader."""

    NAME = "loader-dataset-size"
    SPAN_FIELDS = ("call",)

    call: Span
    loader: str

    def edits(self, source: str, index: LineIndex) -> list[TextEdit]:
        from ascend_migrate.fixes.errors import FixError
        from ascend_migrate.fixes.text import TextEdit

        try:
            text = index.slice(*self.call)
        except ValueError as error:
            raise FixError(f"the call span {list(self.call)} does not fit the text: {error}") from None
        if "".join(text.split()) != f"len({self.loader}.dataset)":
            return []  # already rewritten, or no longer this call
        try:
            tree = ast.parse(source)
        except SyntaxError:
            raise FixError("the text does not parse") from None
        problem = pipeline_problem(tree, self.call[0], self.loader)
        if problem and not pipeline_problem(tree, self.call[0], self.loader, _written_loader):
            return []  # the loader is the SequenceLoader the data-pipeline fix wrote: its .dataset is torch's
        if problem:
            raise FixError(f"`{self.loader}` is not known to be a mindspore.dataset pipeline: {problem}")
        new = f"{self.loader}.children[0].get_dataset_size()"
        return [TextEdit(*self.call, new)]


def pipeline_problem(tree: ast.Module, line: int, loader: str, test=None) -> str:
    """Why `loader`, read on `line`, may not be a mindspore.dataset pipeline ("" when it is one); with `test`, why it
    may not be a call that `test(call, scope, depth)` accepts."""
    test = test or _batched
    chain = _enclosing_functions(tree, line)
    function = chain[-1] if chain else None
    if function is None:
        return _assigned_problem(tree, loader, "the module", test)
    parameters = [*function.args.posonlyargs, *function.args.args]
    keyword_only = [argument.arg for argument in function.args.kwonlyargs]
    names = [argument.arg for argument in parameters]
    if loader not in names and loader not in keyword_only:
        if any(_assignments(enclosing, loader) for enclosing in chain):
            return _assigned_problem(function, loader, f"{function.name}()", test)
        if _declared_global(tree, loader):
            return f"`{loader}` is rebound with `global` in a function, so the module's value is not the only one"
        # a module-level loader the function only reads (vae's train() reads the global train_loader)
        return _assigned_problem(tree, loader, f"the module, whose `{loader}` {function.name}() reads", test)
    if len(chain) > 1 or function not in tree.body:
        return f"it is a parameter of {function.name}(), which is not a module-level function"
    position = names.index(loader) if loader in names else None
    calls = [node for node in ast.walk(tree) if type(node) is ast.Call and type(node.func) is ast.Name
             and node.func.id == function.name]
    if not calls:
        return f"it is a parameter of {function.name}(), which nothing in this file calls"
    for call in calls:
        argument = _argument(call, loader, position)
        if type(argument) is not ast.Name:
            return f"{function.name}() at line {call.lineno} does not pass it as a plain name (or at all)"
        caller = _enclosing_functions(tree, call.lineno)
        scope: ast.AST = caller[-1] if caller else tree
        caller_name = f"{caller[-1].name}()" if caller else "the module"
        problem = _assigned_problem(scope, argument.id, f"{caller_name}, which passes it to {function.name}() at line {call.lineno}", test)
        if problem:
            return problem
    return ""


def _enclosing_functions(tree: ast.Module, line: int) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions whose body holds `line`, outermost first."""
    chain: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    body: list[ast.stmt] = tree.body
    while True:
        inner = next((node for statement in body for node in _statements_with_functions(statement)
                      if isinstance(node, _FUNCTIONS) and node.lineno <= line <= (node.end_lineno or node.lineno)), None)
        if inner is None:
            return chain
        chain.append(inner)
        body = inner.body


def _statements_with_functions(statement: ast.AST):
    """`statement` if it is a function, else the functions defined in the blocks of the class or compound
    statement it is (`if __name__ == "__main__":`, `class Trainer:`, `try:`)."""
    if isinstance(statement, _FUNCTIONS):
        yield statement
        return
    for field in ("body", "orelse", "finalbody", "handlers"):
        for child in getattr(statement, field, None) or ():
            yield from _statements_with_functions(child)


def _argument(call: ast.Call, name: str, position: int | None) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    if position is None or any(type(argument) is ast.Starred for argument in call.args[:position + 1]):
        return None
    return call.args[position] if position < len(call.args) else None


def _assignments(scope: ast.AST, name: str) -> list[ast.expr | None]:
    """The values `name` is bound to in `scope` (not inside nested functions); None for a binding other than `=`."""
    found: list[ast.expr | None] = []
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, (*_FUNCTIONS, ast.Lambda, ast.ClassDef)):
            continue
        if type(node) is ast.Assign:
            for target in node.targets:
                if type(target) is ast.Name and target.id == name:
                    found.append(node.value)
                elif any(type(inner) is ast.Name and inner.id == name for inner in ast.walk(target)):
                    found.append(None)  # unpacked from something
        elif isinstance(node, ast.AnnAssign) and _binds(node.target, name):
            found.append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.For, ast.AsyncFor, ast.NamedExpr)) and _binds(node.target, name):
            found.append(None)
        elif isinstance(node, (ast.With, ast.AsyncWith)) and any(_binds(item.optional_vars, name) for item in node.items):
            found.append(None)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _declared_global(tree: ast.Module, name: str) -> bool:
    """Whether any function of the file says `global name` (and so may rebind the module's value)."""
    return any(type(node) is ast.Global and name in node.names for node in ast.walk(tree))


def _binds(target: ast.expr | None, name: str) -> bool:
    return target is not None and any(type(inner) is ast.Name and inner.id == name for inner in ast.walk(target))


def _assigned_problem(scope: ast.AST, name: str, where: str, test) -> str:
    values = _assignments(scope, name)
    if not values:
        return f"`{name}` is not assigned in {where}"
    for value in values:
        if value is None or not _always(value, scope, 0, test):
            return f"`{name}` is assigned other than a mindspore.dataset pipeline in {where}"  # e.g. a DataLoader not rewritten
    return ""


def _always(value: ast.expr, scope: ast.AST, depth: int, test) -> bool:
    """`test(call, scope, depth)` holds for every call `value` may be: both branches of `a if c else b`, every
    value a name is assigned in `scope`."""
    if depth > 8:
        return False
    if type(value) is ast.IfExp:
        return _always(value.body, scope, depth + 1, test) and _always(value.orelse, scope, depth + 1, test)
    if type(value) is ast.Name:
        values = _assignments(scope, value.id)
        return bool(values) and all(item is not None and _always(item, scope, depth + 1, test) for item in values)
    return type(value) is ast.Call and test(value, scope, depth + 1)


def _batched(call: ast.Call, scope: ast.AST, depth: int) -> bool:
    """`X.batch(...)` whose X is a `mindspore.dataset.*(...)` call, maybe shuffled (through `a if c else b` and
    names): the batch's first child then counts the samples."""
    return type(call.func) is ast.Attribute and call.func.attr == "batch" and _always(call.func.value, scope, depth, _source)


def _written_loader(call: ast.Call, scope: ast.AST, depth: int) -> bool:
    """A call of the loader class the data-pipeline fix writes for a DataLoader with a collate_fn (SequenceLoader,
    or the name it took beside one the file binds): it keeps torch's `.dataset`."""
    return type(call.func) is ast.Name and call.func.id.endswith("SequenceLoader")


def _source(call: ast.Call, scope: ast.AST, depth: int) -> bool:
    """A `mindspore.dataset.*(...)` call, or its `.shuffle(...)`."""
    if type(call.func) is ast.Attribute and call.func.attr == "shuffle":
        return _always(call.func.value, scope, depth, _source)
    return ast.unparse(call.func).startswith("mindspore.dataset.")
