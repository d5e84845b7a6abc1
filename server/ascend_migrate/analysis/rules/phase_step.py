"""A training step that runs only in the training phase (MindSpore route, MS245): the transfer-learning tutorial's

    optimizer.zero_grad()
    with torch.set_grad_enabled(phase == 'train'):
        outputs = model(inputs)
        loss = criterion(outputs, labels)
        if phase == 'train':
            loss.backward()
            optimizer.step()

becomes a forward function, differentiated only in that phase and called plainly in the other:

    def forward_fn(inputs, labels):
        outputs = model(inputs)
        loss = criterion(outputs, labels)
        return loss, (outputs,)
    if phase == 'train':
        (loss, (outputs,)), grads = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)(inputs, labels)
        optimizer(grads)
    else:
        loss, (outputs,) = forward_fn(inputs, labels)

MindSpore records gradients only inside value_and_grad, so the set_grad_enabled switch has nothing left to do, and
zero_grad() goes (value_and_grad returns fresh grads each call). The loop's own step rule (training_step.py) sees
only backward() as a statement of the loop body; here it sits two blocks deeper, so `model` and `optimizer` are
often parameters of a function of unknown type and nothing else reported the lines (issue 17, finetune: a silent
stop at `optimizer.zero_grad()`). The backward() line gets the MS245 finding, with the fix or the reason there is none.

The training branch may hold what real train/eval loops put there: `optimizer.zero_grad()` before backward() (it
goes), gradient clipping between backward() and step() (`clip_grad_norm_(params, max_norm)` →
`grads = mindspore.ops.clip_by_global_norm(grads, max_norm)`, as training_step.py writes it) and statements after
step() that do not touch `.grad` (a scheduler's step, a running sum), kept after `optimizer(grads)`. The same
branch without the set_grad_enabled block (`loss = criterion(model(x), y)` then `if model.training: ...backward();
step()` in the loop body) gets the same fix: the loop-body statements from the last zero_grad() (else the first
statement) to the `if` become the function, indented one level. Anything else in the branch, an `else:` branch, or a
loss not computed before the branch keeps the finding without a fix, saying what is in the way.
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import LOOP, Example, Matcher, Rule, RuleContext
from ascend_migrate.analysis.rules.call_rewrite import source_text
from ascend_migrate.analysis.rules.training_step import deletion, read_and_assigned, why_not_movable
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

PATTERN = "phase-training-step"
_SWITCHES = frozenset({"torch.set_grad_enabled", "torch.autograd.set_grad_enabled", "torch.autograd.grad_mode.set_grad_enabled"})
_CLIPS = frozenset({"clip_grad_norm_", "clip_grad_norm"})


@dataclasses.dataclass
class _Branch:
    """The training branch `if cond: [optimizer.zero_grad()] loss.backward() [clipping...] optimizer.step() [after...]`."""

    test: ast.expr
    backward: ast.Call
    optimizer: str
    max_norms: list[str]  # each clip_grad_norm_(..., max_norm) between backward() and step(), in order
    after: list[ast.stmt]  # statements after step(), kept after optimizer(grads)
    problem: str | None = None  # why it cannot be rewritten


def _expression_call(statement: ast.stmt, method: str) -> ast.Call | None:
    if type(statement) is ast.Expr and type(statement.value) is ast.Call and type(statement.value.func) is ast.Attribute \
            and statement.value.func.attr == method:
        return statement.value
    return None


def _branch(statement: ast.stmt) -> _Branch | None:
    """The training branch of `statement`, or None when it holds no `loss.backward()` followed by `X.step()`."""
    if type(statement) is not ast.If:
        return None
    body = statement.body
    position = next((index for index, inner in enumerate(body) if (call := _expression_call(inner, "backward")) is not None
                     and type(call.func.value) is ast.Name and not call.args and not call.keywords), None)  # type: ignore[attr-defined]
    if position is None:
        return None
    step_at = next((index for index in range(position + 1, len(body)) if (call := _expression_call(body[index], "step")) is not None
                    and not call.args and not call.keywords), None)
    if step_at is None:
        return None
    backward = _expression_call(body[position], "backward")
    step = _expression_call(body[step_at], "step")
    assert backward is not None and step is not None
    optimizer = ast.unparse(step.func.value)  # type: ignore[attr-defined]
    branch = _Branch(statement.test, backward, optimizer, [], body[step_at + 1:])
    for inner in body[:position]:
        zero_grad = _expression_call(inner, "zero_grad")
        if zero_grad is None or ast.unparse(zero_grad.func.value) != optimizer:  # type: ignore[attr-defined]
            branch.problem = (f"the training branch runs `{ast.unparse(inner)}` before backward(); compute it before the "
                              "`if` (in the forward pass) or write it into forward_fn")
            return branch
    for inner in body[position + 1:step_at]:
        clip = inner.value if type(inner) is ast.Expr and type(inner.value) is ast.Call else None
        name = (clip.func.attr if type(clip.func) is ast.Attribute else clip.func.id if type(clip.func) is ast.Name else "") \
            if clip is not None else ""
        if clip is None or name not in _CLIPS or len(clip.args) < 2 or clip.keywords:
            branch.problem = (f"`{ast.unparse(inner)}` stands between backward() and step(): only gradient clipping "
                              "(clip_grad_norm_(params, max_norm)) is rewritten there, as grads = "
                              "mindspore.ops.clip_by_global_norm(grads, max_norm)")
            return branch
        branch.max_norms.append(ast.unparse(clip.args[1]))
    for inner in branch.after:
        if any((type(node) is ast.Attribute and node.attr == "grad") or (type(node) is ast.Call and type(node.func) is ast.Attribute
               and node.func.attr in ("backward", "zero_grad")) for node in ast.walk(inner)):
            branch.problem = (f"`{ast.unparse(inner)}` after step() reads or resets gradients, which MindSpore keeps only "
                              "in the grads value_and_grad returns")
            return branch
    if statement.orelse:
        branch.problem = "the `if` has an else branch: write forward_fn, call it with value_and_grad in the training branch"
    return branch


def on_loop(context: RuleContext, node: ast.For | ast.AsyncFor) -> None:
    entries = context.view.patterns.get(PATTERN)
    if not entries:
        return
    for index, statement in enumerate(node.body):
        switch: ast.Call | None = None
        if type(statement) is ast.With:
            called = statement.items[0].context_expr if len(statement.items) == 1 and statement.body else None
            if type(called) is not ast.Call or context.qualified_name(called.func) not in _SWITCHES:
                continue
            switch = called
            branch = _branch(statement.body[-1])
        else:
            branch = _branch(statement)
        if branch is None:
            continue
        factory = context.factory
        span = factory.attribute_name_span(branch.backward.func)  # type: ignore[arg-type]
        fix = branch.problem or _fix(context, node, index, statement, branch)
        for entry in entries:
            finding = factory.finding(entry, span, "exact", api=entry.api, fix=fix if isinstance(fix, Fix) else None)
            if finding is not None and isinstance(fix, str):
                finding = dataclasses.replace(finding, message=f"{finding.message} Not rewritten automatically: {fix}.")
            context.add(finding)
        if isinstance(fix, Fix) and switch is not None:
            _quiet_switch(context, switch)


def _fix(context: RuleContext, loop: ast.For | ast.AsyncFor, index: int, statement: ast.stmt, branch: _Branch) -> Fix | str:
    """The fix of the step in `loop.body[index]`: a set_grad_enabled block ending in the training branch, or the
    training branch itself with the forward pass in the loop body before it; or why there is none."""
    factory = context.factory
    body = loop.body
    phase = statement.body[-1] if type(statement) is ast.With else statement
    assert type(phase) is ast.If
    loss = branch.backward.func.value.id  # type: ignore[attr-defined]
    edits: list[TextEdit] = []
    if type(statement) is ast.With:
        forward, first = statement.body[:-1], index
        header_line = statement.lineno
        if statement.body[0].lineno == header_line or not factory.lines.text(header_line).rstrip().split("#")[0].rstrip().endswith(":"):
            return "the with statement's header is not one line of its own"
        indent = " " * statement.col_offset
        unit = " " * (forward[0].col_offset - statement.col_offset) if forward else ""
    else:
        zero_grads = [position for position in range(index) if (call := _expression_call(body[position], "zero_grad")) is not None
                      and ast.unparse(call.func.value) == branch.optimizer]  # type: ignore[attr-defined]
        first = zero_grads[-1] + 1 if zero_grads else 0
        forward = body[first:index]
        indent = " " * statement.col_offset
        unit = " " * (phase.body[0].col_offset - phase.col_offset)
    if not forward:
        return f"`{loss}` is not computed before the training branch in this loop (no forward pass to differentiate)"
    reason = why_not_movable(forward)
    if reason is not None:
        return reason
    read_first, assigned = read_and_assigned(forward)
    if loss not in assigned:
        return f"`{loss}` is not computed {'inside the set_grad_enabled block' if type(statement) is ast.With else 'before the training branch in this loop'}"
    tested = sorted({node.id for node in ast.walk(branch.test) if type(node) is ast.Name} & set(assigned))
    if tested:
        return f"the condition reads `{tested[0]}`, which the forward pass computes (it would run before forward_fn)"
    batch = set(read_and_assigned([ast.Assign(targets=[loop.target], value=ast.Constant(None)), *body[:first]])[1])
    inputs = [name for name in read_first if name in batch]
    outputs = [name for name in assigned if name not in (loss, "_")]
    inner = indent + unit  # the function's body and each branch's body
    function = "forward_fn"
    while context.lookup(function) is not None:
        function += "_"
    arguments = ", ".join(inputs)
    aux = "(" + ", ".join(outputs) + ("," if len(outputs) == 1 else "") + ")"
    returned = f"{loss}, {aux}" if outputs else loss
    differentiated = (f"mindspore.value_and_grad({function}, None, {branch.optimizer}.parameters"
                      + (", has_aux=True)" if outputs else ")") + f"({arguments})")
    condition = source_text(context, branch.test)  # as written (its quotes kept)
    if type(statement) is ast.With:
        header = factory.lines.text(statement.lineno)
        edits.append(TextEdit(statement.lineno, 1, statement.lineno, len(header) + 1, f"{indent}def {function}({arguments}):"))
    else:  # the loop-body lines go one level in, under the function's header
        first_line, last_forward_line = forward[0].lineno, forward[-1].end_lineno
        assert last_forward_line is not None
        for number in range(first_line, last_forward_line + 1):
            if number == first_line:
                edits.append(TextEdit(number, 1, number, 1, f"{indent}def {function}({arguments}):\n{unit}"))
            elif factory.lines.text(number).strip():
                edits.append(TextEdit(number, 1, number, 1, unit))
    last_line, last_column = forward[-1].end_lineno, forward[-1].end_col_offset
    assert last_line is not None and last_column is not None
    edits.append(TextEdit(last_line, last_column + 1, last_line, last_column + 1, f"\n{inner}return {returned}"))
    training = [f"({returned}), grads = {differentiated}" if outputs else f"{loss}, grads = {differentiated}"]
    training += [f"grads = mindspore.ops.clip_by_global_norm(grads, {max_norm})" for max_norm in branch.max_norms]
    training.append(f"{branch.optimizer}(grads)")
    old_indent = " " * phase.body[0].col_offset
    for kept in branch.after:
        lines = [factory.lines.text(number) for number in range(kept.lineno, (kept.end_lineno or kept.lineno) + 1)]
        training.append("\n".join(line[len(old_indent):] if line.startswith(old_indent) else line.lstrip() for line in lines))
    replaced = (f"{indent}if {condition}:\n" + "\n".join(f"{inner}{line}" for line in training)
                + f"\n{indent}else:\n{inner}{returned} = {function}({arguments})")
    phase_end = phase.end_lineno
    assert phase_end is not None
    edits.append(TextEdit(phase.lineno, 1, phase_end, len(factory.lines.text(phase_end)) + 1, replaced))
    before = body[first - 1] if first else None
    if (before is not None and (call := _expression_call(before, "zero_grad")) is not None
            and ast.unparse(call.func.value) == branch.optimizer and before.lineno == before.end_lineno):  # type: ignore[attr-defined]
        edits.append(deletion(factory, before))  # value_and_grad's grads start from zero each call
    return Fix(
        title=f"Rewrite the phase's training step: `{function}` differentiated with `mindspore.value_and_grad` when "
              f"`{condition}`, called plainly otherwise",
        safe=False, edits=tuple(edits), add_imports=("import mindspore",), remove_imports=("torch",))


def _quiet_switch(context: RuleContext, switch: ast.Call) -> None:
    """The set_grad_enabled finding keeps its message but loses any fix of its own: the step's fix rewrites its line."""
    span = context.factory.span(switch.func)
    whole = context.factory.span(switch)
    for position, finding in enumerate(context.findings):
        if (finding.line, finding.column) in ((span[0], span[1]), (whole[0], whole[1])) and finding.fix is not None:
            context.findings[position] = dataclasses.replace(finding, fix=None)


_FLAGS = (
    Example("mindspore", """
        import torch


        def train_model(model, criterion, optimizer, loaders):
            for phase in ["train", "val"]:
                for inputs, labels in loaders[phase]:
                    optimizer.zero_grad()
                    with torch.set_grad_enabled(phase == "train"):
                        outputs = model(inputs)
                        loss = criterion(outputs, labels)
                        if phase == "train":
                            loss.backward()  # expect: MS245
                            optimizer.step()
        """, codes=("MS245",)),
    Example("mindspore", """
        def run_epoch(model, criterion, optimizer, loader):
            for inputs, labels in loader:
                loss = criterion(model(inputs), labels)
                if model.training:
                    optimizer.zero_grad()
                    loss.backward()  # expect: MS245
                    optimizer.step()
        """, codes=("MS245",)),
)
_LEAVES_ALONE = (
    Example("mindspore", """
        import torch


        def evaluate(model, criterion, loader):
            for inputs, labels in loader:
                with torch.set_grad_enabled(False):
                    outputs = model(inputs)
                    loss = criterion(outputs, labels)
        """, codes=("MS245",)),
    Example("mindspore", """
        def accumulate(model, criterion, loader):
            for inputs, labels in loader:
                loss = criterion(model(inputs), labels)
                if model.training:
                    loss.backward()
        """, codes=("MS245",)),
)

RULE = Rule(name="phase_step", routes=frozenset({ROUTE_MINDSPORE}), matchers={PATTERN: Matcher(LOOP, on_loop)}, flags=_FLAGS,
            leaves_alone=_LEAVES_ALONE)
