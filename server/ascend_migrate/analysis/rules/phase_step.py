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


def on_loop(context: RuleContext, node: ast.For | ast.AsyncFor) -> None:
    entries = context.view.patterns.get(PATTERN)
    if not entries:
        return
    body = node.body
    for index, statement in enumerate(body):
        if type(statement) is not ast.With or len(statement.items) != 1 or not statement.body:
            continue
        switch = statement.items[0].context_expr
        if type(switch) is not ast.Call or context.qualified_name(switch.func) not in _SWITCHES:
            continue
        phase = statement.body[-1]
        step = _backward_and_step(phase)
        if step is None:
            continue
        backward, optimizer = step
        factory = context.factory
        span = factory.attribute_name_span(backward.func)  # type: ignore[arg-type]
        fix = _fix(context, node, index, statement, phase, backward, optimizer)  # type: ignore[arg-type]
        for entry in entries:
            finding = factory.finding(entry, span, "exact", api=entry.api, fix=fix if isinstance(fix, Fix) else None)
            if finding is not None and isinstance(fix, str):
                finding = dataclasses.replace(finding, message=f"{finding.message} Not rewritten automatically: {fix}.")
            context.add(finding)
        if isinstance(fix, Fix):
            _quiet_switch(context, switch)


def _backward_and_step(statement: ast.stmt) -> tuple[ast.Call, str] | None:
    """(the backward call, the optimizer's text) of `if cond: loss.backward(); optimizer.step()` with no else."""
    if type(statement) is not ast.If or statement.orelse or len(statement.body) != 2:
        return None
    first, second = statement.body
    calls = [inner.value if type(inner) is ast.Expr and type(inner.value) is ast.Call else None for inner in (first, second)]
    backward, step = calls
    if (backward is None or step is None or type(backward.func) is not ast.Attribute or backward.func.attr != "backward"
            or type(backward.func.value) is not ast.Name or backward.args or backward.keywords):
        return None
    if type(step.func) is not ast.Attribute or step.func.attr != "step" or step.args or step.keywords:
        return None
    return backward, ast.unparse(step.func.value)


def _fix(context: RuleContext, loop: ast.For | ast.AsyncFor, index: int, switch: ast.With, phase: ast.If,
         backward: ast.Call, optimizer: str) -> Fix | str:
    factory = context.factory
    forward = switch.body[:-1]
    loss = backward.func.value.id  # type: ignore[attr-defined]
    if not forward:
        return "no forward pass before the phase's backward()"
    reason = why_not_movable(forward)
    if reason is not None:
        return reason
    header_line = switch.lineno
    if switch.body[0].lineno == header_line or not factory.lines.text(header_line).rstrip().split("#")[0].rstrip().endswith(":"):
        return "the with statement's header is not one line of its own"
    read_first, assigned = read_and_assigned(forward)
    if loss not in assigned:
        return f"`{loss}` is not computed inside the set_grad_enabled block"
    batch = set(read_and_assigned([ast.Assign(targets=[loop.target], value=ast.Constant(None)), *loop.body[:index]])[1])
    inputs = [name for name in read_first if name in batch]
    outputs = [name for name in assigned if name not in (loss, "_")]
    indent = " " * switch.col_offset
    inner = " " * forward[0].col_offset
    step_indent = indent + inner[len(indent):]  # one level below the with, as the source indents
    function = "forward_fn"
    while context.lookup(function) is not None:
        function += "_"
    arguments = ", ".join(inputs)
    aux = "(" + ", ".join(outputs) + ("," if len(outputs) == 1 else "") + ")"
    returned = f"{loss}, {aux}" if outputs else loss
    differentiated = (f"mindspore.value_and_grad({function}, None, {optimizer}.parameters"
                      + (", has_aux=True)" if outputs else ")") + f"({arguments})")
    condition = source_text(context, phase.test)  # as written (its quotes kept)
    edits = []
    header = factory.lines.text(header_line)
    edits.append(TextEdit(header_line, 1, header_line, len(header) + 1, f"{indent}def {function}({arguments}):"))
    last_line, last_column = forward[-1].end_lineno, forward[-1].end_col_offset
    assert last_line is not None and last_column is not None
    edits.append(TextEdit(last_line, last_column + 1, last_line, last_column + 1, f"\n{inner}return {returned}"))
    phase_end = phase.end_lineno
    assert phase_end is not None
    replaced = (f"{indent}if {condition}:\n{step_indent}({returned}), grads = {differentiated}\n{step_indent}{optimizer}(grads)\n"
                f"{indent}else:\n{step_indent}{returned} = {function}({arguments})")
    edits.append(TextEdit(phase.lineno, 1, phase_end, len(factory.lines.text(phase_end)) + 1, replaced))
    before = loop.body[index - 1] if index else None
    if (before is not None and type(before) is ast.Expr and type(before.value) is ast.Call
            and type(before.value.func) is ast.Attribute and before.value.func.attr == "zero_grad"
            and ast.unparse(before.value.func.value) == optimizer and before.lineno == before.end_lineno):
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
)

RULE = Rule(name="phase_step", routes=frozenset({ROUTE_MINDSPORE}), matchers={PATTERN: Matcher(LOOP, on_loop)}, flags=_FLAGS,
            leaves_alone=_LEAVES_ALONE)
