"""`torch.optim.LBFGS(...)` on the MindSpore route (MS235): the call becomes a call of an L-BFGS the fix writes into
the program (fixes/templates/lbfgs.py, torch's algorithm without line search), since mindspore 2.10 has none for a
network's Parameters. Its `step(closure)` is rewritten by the training-step rule (analysis/rules/training_step.py).

A construction the written class does not cover keeps its finding, saying why: a line search
(`line_search_fn="strong_wolfe"`: torch's strong-Wolfe search with cubic interpolation is not written) or arguments
that cannot be read (`*args`, `**kwargs`). Its `step(closure)` then stays too: the training-step rule follows the
optimizer to its construction (`constructor_problem`) before rewriting a step, and says which line keeps it, or only
that the construction is not followed here.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.call_rewrite import written_class_name
from ascend_migrate.analysis.rules.structure_fixes import NotFixed
from ascend_migrate.analysis.symbols import dotted_parts, qualify
from ascend_migrate.fixes.families.written_definition import WrittenDefinition
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

TEMPLATE = "lbfgs"
# torch.optim.LBFGS's parameters (torch 2.13), which the written class takes with the same defaults.
_PARAMETERS = ("params", "lr", "max_iter", "max_eval", "tolerance_grad", "tolerance_change", "history_size", "line_search_fn")


def _written_lbfgs(context, entry, node, call: ast.Call | None, span, root) -> Fix | NotFixed | None:
    if call is None:
        return None  # the class named, not built (isinstance, a subclass): nothing to write
    reason = not_covered(call)
    if reason is not None:
        return NotFixed(reason)
    name = written_class_name(context, "LBFGS")
    line, column, end_line, end_column = context.factory.span(call.func)
    return Fix(
        title=f"Replace with `{name}(...)`, an L-BFGS written into the file (torch's algorithm without line search, for MindSpore tensors)",
        safe=False,
        rewrite=WrittenDefinition((line, column, end_line, end_column), TEMPLATE, name),
        add_imports=("import mindspore",),
        remove_imports=(root,) if root else (),
    )


def not_covered(call: ast.Call) -> str | None:
    """Why the written class cannot stand for this `LBFGS(...)` construction, or None when it can."""
    if any(type(argument) is ast.Starred for argument in call.args) or any(keyword.arg is None for keyword in call.keywords):
        return "its arguments are unpacked (*args/**kwargs), so whether it asks for a line search is not known"
    given = dict(zip(_PARAMETERS, call.args, strict=False))  # more positional arguments than torch takes: its TypeError
    given.update({str(keyword.arg): keyword.value for keyword in call.keywords})
    search = given.get("line_search_fn")
    if search is not None and not (type(search) is ast.Constant and search.value is None):
        return (f"line_search_fn={ast.unparse(search)}: the L-BFGS this fix writes follows torch's without line "
                "search, and torch's strong-Wolfe search (cubic interpolation, up to max_eval evaluations) is not "
                "written; drop the line search to get it, or write that search")
    return None


def constructor_problem(context, optimizer: ast.expr, step_line: int) -> str | None:
    """None when `optimizer` (a name, or `self.name`) at `step_line` holds an L-BFGS this fix writes: every
    assignment of it that the step can see (the innermost enclosing function that assigns the name, else the module;
    for `self.name`, the enclosing class's methods) builds torch.optim.LBFGS with arguments the written class covers.
    Otherwise why the step is not rewritten: the constructor the class does not cover, or, when the assignment is
    not followed here (a parameter, a helper's result, another module), only that.

    Reads the module's text above the step (parsed here, once per closure step of an LBFGS-typed optimizer), so it
    tells the engine (`read_earlier_lines`): an edit there walks this chunk again."""
    receiver = ast.unparse(optimizer)
    unknown = (f"where `{receiver}` is built is not followed here (the step is rewritten only for a torch.optim.LBFGS "
               "built without line search in the same function, class or module)")
    lines = context.factory.lines
    if lines.first_line != 1 or type(optimizer) not in (ast.Name, ast.Attribute):
        return unknown  # a piece of a large module: the statements above are not at hand
    try:  # the module up to the end of the top-level statement holding the step: the text this chunk depends on
        tree = ast.parse("\n".join(lines.text(number) for number in range(1, _statement_end(lines, step_line) + 1)))
    except SyntaxError:
        return unknown
    context.read_earlier_lines(1)
    constructions = _assignments(tree, optimizer, receiver, step_line)
    if not constructions:
        return unknown
    canonical = context.view.aliases.canonical
    for statement in constructions:
        value = statement.value if type(statement) is ast.Assign else None
        if type(value) is not ast.Call:
            return unknown
        parts = dotted_parts(value.func)
        qualified = qualify(context.lookup(parts[0]), parts[1]) if parts is not None else None
        if qualified is None or canonical(qualified) != canonical(_LBFGS):
            return unknown
        reason = not_covered(value)
        if reason is not None:
            what = reason.split(":", 1)[0] if reason.startswith("line_search_fn") else "unpacked arguments"
            return (f"`{receiver}` is built at line {statement.lineno} with {what}, which the L-BFGS the fix writes "
                    "does not cover: its construction keeps its torch.optim.LBFGS (MS235 says why), so its step(closure) "
                    "stays torch's")
    return None


_LBFGS = "torch.optim.LBFGS"
_CONTINUATIONS = ("else", "elif", "except", "finally", "case", ")", "]", "}", "#")  # column-0 lines inside a statement


def _statement_end(lines, line: int) -> int:
    """The last line of the top-level statement holding `line`: the line before the next one that starts a
    statement at column 0."""
    last = lines.first_line + len(lines.lines) - 1
    for number in range(line + 1, last + 1):
        text = lines.text(number)
        if text[:1].strip() and not text.startswith(_CONTINUATIONS):
            return number - 1
    return last


def _assignments(tree: ast.Module, optimizer: ast.expr, receiver: str, step_line: int) -> list[ast.Assign]:
    """The assignments of `receiver` the step can see (see constructor_problem); empty when it is bound another
    way too (a parameter, a loop or `with` target, an import, `+=`) or not at all."""
    chain: list[ast.AST] = [tree]  # the scopes holding the step, outermost first
    while True:
        inner = next((child for child in ast.iter_child_nodes(chain[-1])
                      if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                      and child.lineno <= step_line <= (child.end_lineno or child.lineno)), None)
        if inner is None:
            break
        chain.append(inner)
    if type(optimizer) is ast.Attribute:  # self.optimizer: its assignments in every method of the enclosing class
        owner = next((scope for scope in reversed(chain) if type(scope) is ast.ClassDef), None)
        return [] if owner is None else _only_assignments(_binders(owner, receiver, deep=True))
    for scope in reversed(chain):
        if type(scope) is ast.ClassDef:
            continue  # a class body's names are not visible from its methods
        if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = scope.args
            if receiver in {argument.arg for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}:
                return []
        binders = _binders(scope, receiver, deep=False)
        if binders:
            return [statement for statement in _only_assignments(binders) if statement.lineno < step_line]
    return []


def _only_assignments(binders: list[ast.stmt]) -> list[ast.Assign]:
    return [] if any(type(statement) is not ast.Assign for statement in binders) else binders  # type: ignore[return-value]


def _binders(scope: ast.AST, receiver: str, deep: bool) -> list[ast.stmt]:
    """The statements of `scope`'s own body (`deep`: and of the functions in it) that bind `receiver`."""
    found: list[ast.stmt] = []
    pending = list(ast.iter_child_nodes(scope))
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda) and not deep:
            continue
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign | ast.For | ast.AsyncFor | ast.With | ast.Import | ast.ImportFrom) \
                and receiver in _bound_texts(node):
            found.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return found


def _bound_texts(node: ast.stmt) -> set[str]:
    """What a binding statement binds: names and attribute chains (`self.optimizer`) as written."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.With):
        targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
    else:
        targets = [node.target]  # type: ignore[attr-defined]
    return {ast.unparse(part) for target in targets for part in ast.walk(target)
            if isinstance(part, ast.Name | ast.Attribute) and isinstance(part.ctx, ast.Store)}


BUILDERS = {(ROUTE_MINDSPORE, "torch.optim.LBFGS"): _written_lbfgs}
