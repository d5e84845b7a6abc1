"""The training step of a loop body (MindSpore route): `zero_grad()`, the forward pass, `loss.backward()`,
optional clipping, `optimizer.step()` (or GradScaler's `scaler.scale(loss).backward()` / `scaler.step(opt)` /
`scaler.update()`) becomes a forward function differentiated by `mindspore.value_and_grad` and `optimizer(grads)`.
A manual SGD step instead of the optimizer (`for p in model.parameters(): p.data.add_(-lr * p.grad)`) becomes
the same update of each parameter by its grad (`mindspore.ops.assign_add(p, -lr * grad)`).

The fix rides on the `loss.backward()` finding (MS204) that the methods rule made. A step this rule cannot
rewrite keeps its finding, and the message says why (two backward passes before one step, a step in another
block such as gradient accumulation, control flow leaving the forward pass, an optimizer given a closure).
The one closure step rewritten is that of a torch.optim.LBFGS, which the fix replaces with an L-BFGS written into the
file (MS235, rules/lbfgs.py): `optimizer.step(closure)` → `optimizer.step(mindspore.value_and_grad(closure, None,
optimizer.parameters))`, zero_grad() and backward() deleted from the closure, only when the optimizer's construction
is followed and gets that class (`lbfgs.constructor_problem`: not with `line_search_fn="strong_wolfe"`).
"""

from __future__ import annotations

import ast
import copy
import dataclasses

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import FUNCTION_DEFINITION, LOOP, Example, Rule, RuleContext
from ascend_migrate.analysis.rules.lbfgs import constructor_problem
from ascend_migrate.fixes.families.training_step import TrainingStep
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

_BACKWARD_CODE = "MS204"
_CLIP_CALLS = frozenset({"clip_grad_norm_", "clip_grad_norm"})
# A manual update's in-place method → the MindSpore function doing the same to a Parameter (param += value,
# param -= value: the same float arithmetic on the same dtype).
_UPDATES = {"add_": "assign_add", "sub_": "assign_sub"}
_PARAMETER_LISTS = frozenset({"parameters", "get_parameters", "trainable_params"})  # and what their own fix wrote
_LEAVES = (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal)


def _method_call(statement: ast.stmt, method: str) -> ast.Call | None:
    """The call of `statement` when it is exactly `receiver.method(...)` as a statement."""
    if type(statement) is ast.Expr and type(statement.value) is ast.Call:
        call = statement.value
        if type(call.func) is ast.Attribute and call.func.attr == method:
            return call
    return None


def _loss_of(call: ast.Call) -> str | None:
    """`loss` of `loss.backward()` or `scaler.scale(loss).backward()`."""
    assert type(call.func) is ast.Attribute
    receiver = call.func.value
    if type(receiver) is ast.Call and type(receiver.func) is ast.Attribute and receiver.func.attr == "scale" and len(receiver.args) == 1:
        receiver = receiver.args[0]
    return receiver.id if type(receiver) is ast.Name and not call.args and not call.keywords else None


def _optimizer_of(statement: ast.stmt) -> tuple[str, bool] | None:
    """(`optimizer`, given through a GradScaler) for `optimizer.step()` or `scaler.step(optimizer)`."""
    call = _method_call(statement, "step")
    if call is None or call.keywords:
        return None
    if not call.args:
        return ast.unparse(call.func.value), False  # type: ignore[attr-defined]
    if len(call.args) == 1 and type(call.args[0]) in (ast.Name, ast.Attribute):
        return ast.unparse(call.args[0]), True
    return None


def _manual_update(statement: ast.stmt) -> tuple[ast.For, ast.expr, ast.Call] | None:
    """(the loop, the model, the update call) of `for p in model.parameters(): p.data.add_(-lr * p.grad)` (or
    `.sub_(lr * p.grad)`, on `p` itself, alone under a `with`); None for any other statement."""
    if type(statement) is ast.With and len(statement.body) == 1:
        statement = statement.body[0]  # with torch.no_grad(): for p in ...
    if type(statement) is not ast.For or statement.orelse or type(statement.target) is not ast.Name or len(statement.body) != 1:
        return None
    iterator, name = statement.iter, statement.target.id
    if not (type(iterator) is ast.Call and type(iterator.func) is ast.Attribute and iterator.func.attr in _PARAMETER_LISTS
            and not iterator.args and not iterator.keywords):
        return None
    inner = statement.body[0]
    call = inner.value if type(inner) is ast.Expr and type(inner.value) is ast.Call else None
    if call is None or type(call.func) is not ast.Attribute or call.func.attr not in _UPDATES or len(call.args) != 1 or call.keywords:
        return None
    receiver = call.func.value
    if type(receiver) is ast.Attribute and receiver.attr == "data":
        receiver = receiver.value
    grads = [node for node in ast.walk(call.args[0]) if type(node) is ast.Attribute and node.attr == "grad"]
    if type(receiver) is not ast.Name or receiver.id != name or not grads:
        return None
    if any(not (type(grad.value) is ast.Name and grad.value.id == name) for grad in grads):
        return None  # another tensor's grad: not this parameter's update
    return statement, iterator.func.value, call


class _GradToName(ast.NodeTransformer):
    """`p.grad` → `grad` in a copy of the update's value."""

    def __init__(self, parameter: str, grad: str) -> None:
        self.parameter, self.grad = parameter, grad

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if node.attr == "grad" and type(node.value) is ast.Name and node.value.id == self.parameter:
            return ast.Name(id=self.grad, ctx=ast.Load())
        return self.generic_visit(node)


def read_and_assigned(statements: list[ast.stmt]) -> tuple[list[str], list[str]]:
    """(names the statements read before assigning them, names they assign), each in order of appearance.
    An assignment's value is read before its targets are bound, and `x += 1` reads x."""
    read_first: list[str] = []
    assigned: list[str] = []

    def load(node: ast.AST) -> None:
        for inner in ast.walk(node):
            if type(inner) is ast.Name:
                if type(inner.ctx) is ast.Load:
                    if inner.id not in assigned and inner.id not in read_first:
                        read_first.append(inner.id)
                elif inner.id not in assigned:
                    assigned.append(inner.id)

    for statement in statements:
        if type(statement) is ast.Assign:
            load(statement.value)
            for target in statement.targets:
                load(target)
        elif type(statement) is ast.AugAssign:
            load(statement.value)
            if type(statement.target) is ast.Name and statement.target.id not in assigned and statement.target.id not in read_first:
                read_first.append(statement.target.id)
            load(statement.target)
        else:
            load(statement)
    return read_first, assigned


def why_not_movable(statements: list[ast.stmt]) -> str | None:
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, _LEAVES):
                return "control flow (break, continue, return, yield) leaves the forward pass"
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                return "the forward pass defines a function or class"
            if type(node) is ast.Constant and type(node.value) is str and node.lineno != node.end_lineno:
                return "the forward pass holds a multi-line string (its lines cannot be re-indented)"
    return None


def on_loop(context: RuleContext, node: ast.For | ast.AsyncFor) -> None:
    if context.route != ROUTE_MINDSPORE:
        return
    _on_body(context, node)


def on_function(context: RuleContext, node: ast.FunctionDef | ast.AsyncFunctionDef, *_: object) -> None:
    """A step written in a function's own body, run once per call (gcn's `train_iter(epoch, model, optimizer, ...)`
    called per epoch): rewritten as a loop body's, the function's parameters taking the place of the loop's target.
    Only when its forward pass may run a model: REINFORCE's `finish_episode` sums log-probabilities saved by earlier
    calls of the policy, and a forward function that only sums them would give zero gradients, silently."""
    if context.route == ROUTE_MINDSPORE and any(_method_call(statement, "backward") for statement in node.body):
        _on_body(context, node)


def _on_body(context: RuleContext, node: ast.For | ast.AsyncFor | ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    body = node.body
    for position, statement in enumerate(body):
        stepped = _method_call(statement, "step")
        if stepped is not None and (stepped.args or stepped.keywords):
            _closure_step(context, body[:position], stepped)
    backwards = [(position, call) for position, statement in enumerate(body) if (call := _method_call(statement, "backward")) is not None]
    steps = [(index, found) for index, statement in enumerate(body) if (found := _optimizer_of(statement))]
    # One group per step: the backward passes before it (after the step before). dcgan: the D step's two, then G's one.
    groups: list[tuple[list[tuple[int, ast.Call]], tuple[int, tuple[str, bool]] | None]] = []
    for position, backward in backwards:
        step = next(((index, found) for index, found in steps if index > position), None)
        if groups and groups[-1][1] == step:
            groups[-1][0].append((position, backward))
        else:
            groups.append(([(position, backward)], step))
    lower = 0  # the first statement a group's forward pass may start at: after the step before
    # names the forward passes of the steps before assigned (also those a fix wrote already) → the statement that
    # assigned each (None when it is not one plain assignment)
    earlier: dict[str, ast.stmt | None] = {}
    rewritten = [index for index, statement in enumerate(body) if _differentiated(statement)]
    for number, (group, step) in enumerate(groups):
        position, backward = group[-1]
        finding_index = _backward_finding(context, backward)
        if finding_index is None:
            continue
        losses = [_loss_of(call) for _, call in group]
        manual = [(index, update) for index, statement in enumerate(body) if index > position and (update := _manual_update(statement))]
        reason: str | None = None
        if any(loss is None for loss in losses):
            reason = "the loss is not a plain variable (`loss.backward()`)"
        elif any(_method_call(body[index], "zero_grad") is not None for index in range(group[0][0], position)):
            reason = "zero_grad() between the backward passes"
        elif step is None and not manual:
            reason = "optimizer.step() is not in the same block as backward() (gradient accumulation or a closure): " \
                     "accumulate the grads of value_and_grad and call optimizer(grads) where step() was"
        else:
            for index in rewritten:
                if lower <= index < position:
                    earlier.update(_rewritten_definitions(body, index))
            function = "forward_fn" if number == 0 else f"forward_fn_{number + 1}"
            built = _build(context, node, lower, position, backward, step, [str(loss) for loss in losses], finding_index,
                           function, earlier, manual[0] if step is None else None)
            if isinstance(built, str):
                reason = built
            else:
                earlier.update(built)
        if reason is not None:
            if len(group) > 1:
                reason = f"{len(group)} backward() passes before one step: {reason}"
            finding = context.findings[finding_index]
            context.findings[finding_index] = dataclasses.replace(finding, message=f"{finding.message} Not rewritten automatically: {reason}.")
            if type(node) not in (ast.For, ast.AsyncFor):
                # a function's body is walked after this: its zero_grad() (the first line a run stops at) says it too
                for statement in body[lower:position]:
                    if (zero_grad := _method_call(statement, "zero_grad")) is not None:
                        _explained(context, zero_grad, "torch.optim.Optimizer.zero_grad", reason)
        if step is not None:
            lower = step[0] + 1


def _definitions(statements: list[ast.stmt]) -> dict[str, ast.stmt | None]:
    """Each name the statements assign → its last assignment when that is `name = value`, else None."""
    found: dict[str, ast.stmt | None] = {}
    for statement in statements:
        for name in read_and_assigned([statement])[1]:
            plain = type(statement) is ast.Assign and len(statement.targets) == 1 and type(statement.targets[0]) is ast.Name
            found[name] = statement if plain else None
    return found


def _rewritten_definitions(body: list[ast.stmt], index: int) -> dict[str, ast.stmt | None]:
    """The names a step the fix already rewrote (`body[index]`) hands out, each with its assignment in the forward
    function defined just before it."""
    handed_out = dict.fromkeys(read_and_assigned([body[index]])[1])
    before = body[index - 1] if index else None
    if type(before) is ast.FunctionDef:
        inside = _definitions(before.body)
        handed_out.update({name: inside[name] for name in handed_out if name in inside})
    return handed_out


def _differentiated(statement: ast.stmt) -> bool:
    """`(loss, (...)), grads = mindspore.value_and_grad(...)(...)`: a step the fix already rewrote."""
    if type(statement) is not ast.Assign or type(statement.value) is not ast.Call:
        return False
    inner = statement.value.func
    return type(inner) is ast.Call and type(inner.func) is ast.Attribute and inner.func.attr == "value_and_grad"


_CLOSURE_REASON = ("the optimizer is given a closure (LBFGS evaluates the loss several times per step); a MindSpore optimizer "
                   "is called once with the grads of value_and_grad, and mindspore 2.10 has no L-BFGS optimizer for networks: "
                   "only a torch.optim.LBFGS built without line search gets one written into the file (MS235), and then a "
                   "closure of zero_grad(), the forward pass, loss.backward() and `return loss`; otherwise choose another "
                   "optimizer and write the closure's body as the forward function")
_WRITTEN_OPTIMIZER = "torch.optim.LBFGS"  # its construction becomes the L-BFGS written into the file (rules/lbfgs.py)


def _closure_step(context: RuleContext, before: list[ast.stmt], step: ast.Call) -> None:
    """`optimizer.step(closure)`: for the L-BFGS the fix writes (MS235), the closure loses zero_grad() and
    backward() and goes to the step as `mindspore.value_and_grad(closure, None, optimizer.parameters)`, the
    (loss, grads) the written step asks for; any other closure step stays advice, and its MS204 finding says why."""
    span = context.factory.attribute_name_span(step.func)  # type: ignore[arg-type]
    for index, finding in enumerate(context.findings):
        if finding.code == _BACKWARD_CODE and (finding.line, finding.column, finding.end_line, finding.end_column) == span:
            fix = _closure_fix(context, before, step)
            if isinstance(fix, Fix):
                context.findings[index] = dataclasses.replace(finding, fix=fix)
            else:
                message = f"{finding.message} Not rewritten automatically: {fix or _CLOSURE_REASON}."
                context.findings[index] = dataclasses.replace(finding, message=message, fix=None)


def _closure_fix(context: RuleContext, before: list[ast.stmt], step: ast.Call) -> Fix | str | None:
    """The fix of a written L-BFGS's `step(closure)` (`before`: the statements of its block before it), or why
    there is none (None: the general reason)."""
    optimizer = step.func.value  # type: ignore[attr-defined]
    if context.infer(optimizer) != _WRITTEN_OPTIMIZER or len(step.args) != 1 or step.keywords or type(step.args[0]) is not ast.Name:
        return None
    built = constructor_problem(context, optimizer, context.factory.span(step)[0])
    if built is not None:
        return built  # a line search, or a constructor not followed: the written class may not stand for it
    name = step.args[0].id
    closure = next((statement for statement in reversed(before)
                    if type(statement) is ast.FunctionDef and statement.name == name), None)
    if closure is None:
        return f"the closure `{name}` is not a function defined just before the step in the same block"
    arguments = closure.args
    if arguments.posonlyargs or arguments.args or arguments.vararg or arguments.kwonlyargs or arguments.kwarg or closure.decorator_list:
        return f"the closure `{name}` takes arguments or is decorated"
    last = closure.body[-1]
    loss = last.value.id if type(last) is ast.Return and type(last.value) is ast.Name else None
    backwards = [index for index, statement in enumerate(closure.body) if _method_call(statement, "backward") is not None]
    if loss is None or len(backwards) != 1 or _loss_of(_method_call(closure.body[backwards[0]], "backward")) != loss:  # type: ignore[arg-type]
        return f"the closure `{name}` is not zero_grad(), the forward pass, `loss.backward()` and `return loss`"
    zero_grads = [index for index, statement in enumerate(closure.body) if _method_call(statement, "zero_grad") is not None]
    if any(index > backwards[0] for index in zero_grads):
        return f"the closure `{name}` calls zero_grad() after backward()"
    kept = [statement for index, statement in enumerate(closure.body[:-1]) if index not in (*zero_grads, backwards[0])]
    reason = why_not_movable(kept)
    if reason is not None:
        return f"in the closure `{name}`, {reason}"
    after = closure.body[backwards[0] + 1:-1]
    if any(type(node) is ast.Attribute and node.attr == "grad" for statement in after for node in ast.walk(statement)):
        return f"the closure `{name}` reads .grad after backward()"
    factory = context.factory
    receiver = ast.unparse(optimizer)
    edits = [deletion(factory, closure.body[index]) for index in (*zero_grads, backwards[0])]
    edits.append(TextEdit(*factory.span(step.args[0]), f"mindspore.value_and_grad({name}, None, {receiver}.parameters)"))
    return Fix(
        title=f"Give the written L-BFGS `mindspore.value_and_grad({name}, None, {receiver}.parameters)` (its step asks it for "
              "the loss and the grads; zero_grad() and backward() go from the closure)",
        safe=False,
        edits=tuple(edits),
        add_imports=("import mindspore",),
    )


def _explained(context: RuleContext, call: ast.Call, api: str, reason: str) -> None:
    """The finding of `call` (a method of the entry `api`) made now, saying why the step was not rewritten: the
    methods rule's own finding at the same span comes later and is dropped as the same finding."""
    entry = next((entry for entry in context.view.by_method.get(api.rsplit(".", 1)[-1], ()) if entry.api == api), None)
    if entry is not None:
        span = context.factory.attribute_name_span(call.func)  # type: ignore[arg-type]
        finding = context.factory.finding(entry, span, "heuristic", api=entry.api)
        if finding is not None:
            context.add(dataclasses.replace(finding, message=f"{finding.message} Not rewritten automatically: {reason}."))


def _backward_finding(context: RuleContext, backward: ast.Call) -> int | None:
    """The index of the `loss.backward()` finding, made here when the methods rule did not know the loss's type
    (`loss = criterion(...)` with a criterion passed in): the training-step shape says it is a tensor."""
    span = context.factory.attribute_name_span(backward.func)  # type: ignore[arg-type]
    for index, finding in enumerate(context.findings):
        if finding.code == _BACKWARD_CODE and (finding.line, finding.column, finding.end_line, finding.end_column) == span:
            return index
    entry = next((entry for entry in context.view.by_method.get("backward", ()) if entry.api == "torch.Tensor.backward"), None)
    if entry is None:
        return None
    before = len(context.findings)
    context.add(context.factory.finding(entry, span, "heuristic", api=entry.api))
    return before if len(context.findings) > before else None


def _batch_targets(node: ast.AST) -> list[ast.expr]:
    """What holds the batch before the step: a loop's target, or a function's parameters."""
    if type(node) in (ast.For, ast.AsyncFor):
        return [node.target]  # type: ignore[attr-defined]
    arguments = node.args  # type: ignore[attr-defined]
    names = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    return [ast.Name(id=argument.arg, ctx=ast.Store()) for argument in names if argument is not None]


def _build(context: RuleContext, loop: ast.For | ast.AsyncFor | ast.FunctionDef | ast.AsyncFunctionDef, lower: int, position: int, backward: ast.Call,
           step: tuple[int, tuple[str, bool]] | None, losses: list[str], finding_index: int, function: str,
           earlier: dict[str, ast.stmt | None], manual: tuple[int, tuple[ast.For, ast.expr, ast.Call]] | None = None,
           ) -> str | dict[str, ast.stmt | None]:
    """The step's fix on its finding, and the names its forward pass assigns; or why there is none. Several
    backward passes (`losses`, the last one's at `position`) become one function returning their sum."""
    factory = context.factory
    body = loop.body
    loss, summed = losses[-1], losses[:-1]
    zero_grads = [index for index in range(lower, position) if _method_call(body[index], "zero_grad") is not None]
    start = zero_grads[-1] + 1 if zero_grads else lower
    forward = body[start:position]
    skipped: tuple[str, ...] = ()  # a zero_grad() line inside the moved lines: dropped from them, not deleted apart
    if not forward and zero_grads == [position - 1]:
        # nanoGPT's order: `logits, loss = model(x, y)`, then `optimizer.zero_grad()`, then `loss.backward()`: the
        # forward pass starts at the first statement before zero_grad that runs the model
        first = _first_model_statement(context, body, lower, position - 1)
        zero_grad = body[position - 1]
        if first is not None and zero_grad.lineno == zero_grad.end_lineno:
            start, forward = first, body[first:position - 1]
            skipped = (factory.lines.text(factory.span(zero_grad)[0]).strip(),)
            zero_grads = []
    if not forward:
        return "no forward pass between zero_grad() and backward()"
    reason = why_not_movable(forward)
    if reason is not None:
        return reason
    read_first, assigned = read_and_assigned(forward)
    # The batch (the loop's target, and what the body made of it before the forward pass) goes in as arguments:
    # a tensor the differentiated function only closes over reaches some cells (LSTM) as an opaque value.
    batch = set(read_and_assigned([ast.Assign(targets=_batch_targets(loop), value=ast.Constant(None)), *body[:start]])[1])
    if type(loop) not in (ast.For, ast.AsyncFor) and _first_model_statement(context, forward, 0, len(forward)) is None:
        return ("no model runs between zero_grad() and backward(): the loss is made from tensors of earlier forward passes "
                "(log-probabilities saved while acting); MindSpore differentiates a function, so keep the inputs "
                "(states, actions) and run the model again inside the forward function")
    missing = [name for name in losses if name not in assigned]
    if missing:
        return f"`{missing[0]}` is not computed between zero_grad() and backward()"
    inputs = tuple(name for name in read_first if name in assigned or name in batch)
    carried = [name for name in inputs if name in earlier]
    recomputed = _recomputed(context, carried, earlier)
    if isinstance(recomputed, list):
        names = ", ".join(f"`{name}`" for name in recomputed)
        return (f"{names} come from the forward pass of an earlier step: a gradient that flowed through them in torch "
                "(dcgan's fake = netG(noise)) would not reach this step's parameters, and they are not one model call "
                "this step can repeat; compute what needs it in this step's forward function")
    if recomputed:
        # the model's output made again inside this function, from the same inputs: the same values, and now the
        # gradient reaches the model's parameters as torch's reuse of the earlier output did
        repeated = [name for statement in recomputed.values() for name in read_and_assigned([statement])[0]]
        inputs = tuple(dict.fromkeys((*[name for name in repeated if name in earlier or name in batch],
                                      *[name for name in inputs if name not in recomputed])))
        assigned = [*[name for name in recomputed if name not in assigned], *assigned]
    if step is not None:
        step_index, (optimizer, scaled) = step
    else:
        assert manual is not None
        step_index, (optimizer, scaled) = manual[0], ("", False)
    between = body[position + 1:step_index]
    edits: list[TextEdit] = []
    for statement in between:
        call = _method_call(statement, "clip_grad_norm_") or _method_call(statement, "clip_grad_norm")
        if call is not None and len(call.args) >= 2:
            line, column, end_line, end_column = factory.span(statement)
            maximum = ast.unparse(call.args[1])
            edits.append(TextEdit(line, column, end_line, end_column, f"grads = mindspore.ops.clip_by_global_norm(grads, {maximum})"))
        elif any(type(inner) is ast.Attribute and inner.attr == "grad" for inner in ast.walk(statement)):
            return "the code between backward() and step() reads .grad"
    for index in zero_grads:
        edits.append(deletion(factory, body[index]))
    weights = ""
    if manual is not None:
        loop_over, model, update = manual[1]
        optimizer = weights = f"{ast.unparse(model)}.trainable_params()"
        edits.extend(_manual_edits(context, loop_over, weights, update))
    else:
        line, column, end_line, end_column = factory.span(body[step_index])
        edits.append(TextEdit(line, column, end_line, end_column, f"{optimizer}(grads)"))
    if scaled:
        for statement in body[step_index + 1:]:
            if _method_call(statement, "update") is not None:
                edits.append(deletion(factory, statement))
                break
    first_line = factory.span(forward[0])[0]
    _, _, last_line, last_column = factory.span(body[position])
    while context.lookup(function) is not None:
        function += "_"
    rewrite = TrainingStep(
        (first_line, 1, last_line, last_column), loss, optimizer, function,
        inputs=inputs,
        outputs=tuple(name for name in assigned if name != loss or summed),
        weights=weights,
        summed=tuple(summed),
        recomputed=tuple(ast.unparse(statement) for statement in (recomputed or {}).values()),
        skipped=skipped,
    )
    finding = context.findings[finding_index]
    fix = Fix(
        title=(f"Rewrite the training step with `mindspore.value_and_grad` and `{optimizer}(grads)`" if not weights else
               "Rewrite the training step with `mindspore.value_and_grad` and the same update of each parameter by its grad")
              + (f" (one forward function returning {' + '.join(losses)})" if summed else ""),
        safe=False,
        edits=tuple(edits),
        rewrite=rewrite,
        add_imports=("import mindspore",),
        remove_imports=("torch",),  # removed only when nothing uses it any more (the clipping call did)
    )
    context.findings[finding_index] = dataclasses.replace(finding, fix=fix)
    return {**dict.fromkeys(assigned), **_definitions(forward)}


def _recomputed(context: RuleContext, carried: list[str], earlier: dict[str, ast.stmt | None]) -> dict[str, ast.stmt] | list[str]:
    """Of the names an earlier step's forward pass made and this one reads: those that carry a model's output
    (`fake = netG(noise)`), each with the one model call that makes it again here; or the list of those that carry
    one but cannot be made again so (not `name = model(plain names)`, or from another such name). Every other
    carried name (labels, noise) holds no gradient path to a model and comes in as an argument."""
    derived = _model_derived(context, earlier)
    again: dict[str, ast.stmt] = {}
    refused = []
    for name in carried:
        if name not in derived:
            continue
        statement = earlier.get(name)
        value = statement.value if type(statement) is ast.Assign else None
        if (type(value) is ast.Call and type(value.func) is ast.Name and _may_be_model(context, value)
                and not value.keywords and all(type(argument) is ast.Name and argument.id not in derived for argument in value.args)):
            again[name] = statement  # type: ignore[assignment]
        else:
            refused.append(name)
    return refused or again


def _may_be_model(context: RuleContext, call: ast.Call) -> bool:
    """Whether `call` may run a model: a method of a module (`netG.main(x)`), or a name called directly that is a
    module or of unknown type (`netG(noise)` with netG a parameter). A torch/MindSpore function, a class (a model
    built, not run) and a method of anything else (`x.size(0)`) are not."""
    root = call.func
    while type(root) is ast.Attribute:
        root = root.value
    if type(root) is not ast.Name:
        return False
    kind = context.infer(root)
    if context.types.is_module(kind):
        return True
    binding = context.lookup(root.id)
    return root is call.func and kind is None and (binding is None or binding[0] not in ("import", "class"))


def _first_model_statement(context: RuleContext, body: list[ast.stmt], lower: int, upper: int) -> int | None:
    """The first statement of body[lower:upper] that runs a module (its type known), else one that may run a model
    (`model(x)` with model of unknown type; not a function of this file, `get_batch()`, which makes the batch)."""
    def runs(index: int, strict: bool) -> bool:
        for node in ast.walk(body[index]):
            if type(node) is not ast.Call or not _may_be_model(context, node):
                continue
            root = node.func
            while type(root) is ast.Attribute:
                root = root.value
            if strict and context.types.is_module(context.infer(root)):
                return True
            binding = context.lookup(root.id) if type(root) is ast.Name else None
            if not strict and (binding is None or binding[0] != "function"):
                return True
        return False
    return next((index for strict in (True, False) for index in range(lower, upper) if runs(index, strict)), None)


def _model_derived(context: RuleContext, earlier: dict[str, ast.stmt | None]) -> set[str]:
    """The earlier names whose value may come from a model (a call that may run one), directly or through another
    such name; a name of unknown assignment counts as one."""
    derived: set[str] = set()
    for name, statement in earlier.items():  # in assignment order, so a name's sources were seen before it
        if statement is None:
            derived.add(name)
            continue
        value = statement.value  # type: ignore[attr-defined]
        if any((type(node) is ast.Name and node.id in derived) or (type(node) is ast.Call and _may_be_model(context, node))
               for node in ast.walk(value)):
            derived.add(name)
    return derived


def _manual_edits(context: RuleContext, loop: ast.For, weights: str, update: ast.Call) -> list[TextEdit]:
    """`for p in fc.parameters():` → `for p, grad in zip(fc.trainable_params(), grads):` (value_and_grad gives the
    grads in the order of the weights it was given) and `p.data.add_(-0.1 * p.grad)` →
    `mindspore.ops.assign_add(p, -0.1 * grad)`."""
    factory = context.factory
    parameter = loop.target.id  # type: ignore[attr-defined]
    grad = "grad"
    while context.lookup(grad) is not None or grad == parameter:
        grad += "_"
    line, column, _, _ = factory.span(loop.target)
    _, _, end_line, end_column = factory.span(loop.iter)
    value = _GradToName(parameter, grad).visit(copy.deepcopy(update.args[0]))
    update_line, update_column, update_end_line, update_end_column = factory.span(update)
    function = _UPDATES[update.func.attr]  # type: ignore[attr-defined]
    return [TextEdit(line, column, end_line, end_column, f"{parameter}, {grad} in zip({weights}, grads)"),
            TextEdit(update_line, update_column, update_end_line, update_end_column,
                     f"mindspore.ops.{function}({parameter}, {ast.unparse(value)})")]


def deletion(factory, statement: ast.stmt) -> TextEdit:
    """The statement's whole line(s) with the line break before them: from the end of the line above (a loop
    body's statement always has one: the loop's header) to the end of its last line, so a statement on the
    file's last line, with no line break after it, goes as cleanly."""
    line, _, end_line, _ = factory.span(statement)
    return TextEdit(line - 1, len(factory.lines.text(line - 1)) + 1, end_line, len(factory.lines.text(end_line)) + 1, "")


_FLAGS = (
    Example("mindspore", """
        import torch

        model = torch.nn.Linear(4, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for data, target in [(torch.randn(3, 4), torch.randn(3, 2))]:
            optimizer.zero_grad()  # expect: MS204
            output = model(data)
            loss = torch.nn.functional.mse_loss(output, target)
            loss.backward()  # expect: MS204
            optimizer.step()  # expect: MS204
        """, codes=("MS204",)),
    Example("mindspore", """
        import torch

        model = torch.nn.Linear(4, 2)
        optimizer = torch.optim.LBFGS(model.parameters(), lr=0.8)  # expect: MS235
        data, target = torch.randn(3, 4), torch.randn(3, 2)
        for step in range(2):
            def closure():
                optimizer.zero_grad()  # expect: MS204
                loss = torch.nn.functional.mse_loss(model(data), target)
                loss.backward()  # expect: MS204
                return loss
            optimizer.step(closure)  # expect: MS204
        """, codes=("MS204", "MS235")),
)

RULE = Rule(name="training_step", routes=frozenset({ROUTE_MINDSPORE}), hooks={LOOP: on_loop, FUNCTION_DEFINITION: on_function}, flags=_FLAGS)
