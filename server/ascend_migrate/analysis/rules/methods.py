"""Attributes and methods on receivers: `x.view(...)`, `model.train()`, `opt.zero_grad()`, `x.cuda()`, `x.is_cuda`,
and method definitions in subclasses (`def forward` in an nn.Module)."""

from __future__ import annotations

import ast
import re
from typing import cast

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.restrictions import applies_at
from ascend_migrate.analysis.rules.api import ATTRIBUTE, METHOD_DEFINITION, WRITTEN_IN_PLACE, Example, Rule, RuleContext
from ascend_migrate.analysis.rules.names import adapted_arguments, with_reason
from ascend_migrate.analysis.rules.parameter_values import METHOD_BUILDERS as VALUE_BUILDERS
from ascend_migrate.analysis.rules.parameter_values import READ_THROUGH
from ascend_migrate.analysis.rules.size_arguments import ONE_SIZE_TARGETS
from ascend_migrate.analysis.rules.structure_fixes import METHOD_BUILDERS, NotFixed
from ascend_migrate.analysis.rules.unbiased_std import METHOD_BUILDERS as STD_BUILDERS
from ascend_migrate.taxonomy import ROUTE_NPU

# Structural method rewrites whose replacement is not a plain rename: api → (new text for a call with no
# arguments, new method name for a call with arguments).
_CALL_REWRITES = {
    "torch.nn.Module.train": ("set_train(True)", "set_train"),
    "torch.nn.Module.eval": ("set_train(False)", None),
}


def on_attribute(
    context: RuleContext,
    node: ast.Attribute,
    receiver_type: str | None,
    call: ast.Call | None,
    intermediate: str = "",
) -> None:
    """`intermediate`: the attribute read on this one, when it is itself a receiver (`synchronize` for `obj.cuda` in
    `obj.cuda.synchronize()`)."""
    entries = context.view.by_method.get(node.attr)
    if not entries:
        return
    entries = [entry for entry in entries if entry.condition != "device-argument"]  # strings.py reports those
    if receiver_type is not None:
        family = context.types.family(receiver_type)
        matched = [entry for entry in entries if entry.receiver_type in family]
        confidence = "inferred"
    else:
        if (intermediate and intermediate != WRITTEN_IN_PLACE) or _receiver_is_foreign(node.value) or _is_local_class(context, node.value):
            return
        matched = [entry for entry in entries if entry.receiver == "any" and _fits_torch_signature(entry.api, call)]
        confidence = "heuristic"
    if not matched:
        return
    factory = context.factory
    span = factory.attribute_name_span(node)
    for entry in matched:
        if _unchanged_on_mindspore(entry, node, call) or not applies_at(entry, call, context.infer):
            continue
        if entry.api in _BOOL_IN_TORCH and _result_used_as_tensor(context, call):
            continue  # `pred.equal(target).sum()`: MindSpore's element-wise equal (what the fix of `eq` writes)
        if entry.api in READ_THROUGH and (intermediate == WRITTEN_IN_PLACE or (intermediate.endswith("_") and not intermediate.startswith("_"))):
            continue  # `p.data.uniform_(-r, r)`, `p.data[:] = v`, `p.data *= v`: an in-place write, reported (if at all) on its own
        if entry.target == "mindspore.Parameter" and _is_layer_parameter(context, node.value):
            continue  # `fc.bias.requires_grad = False`: a layer's weight is a Parameter in MindSpore too, which has it
        fix: Fix | NotFixed | None = _method_fix(context, entry, node, call, span)
        if entry.category == "ms-equivalent" and call is not None and _passes_a_row(entry, call) and entry.fix != "none":
            # x.dot(tensor=y): the method keeps its name, the call's arguments follow the entry's rows (names.py)
            kept = Fix(title=f"Keep `.{node.attr}`", safe=entry.fix == "safe")
            fix = adapted_arguments(context, entry, call, fix if isinstance(fix, Fix) else kept)
        reason = None
        if isinstance(fix, NotFixed):
            reason, fix = fix, None
        finding = factory.finding(entry, span, confidence, api=entry.api, fix=fix)
        context.add(with_reason(finding, reason) if reason is not None and finding is not None else finding)


# The parameters of torch.nn.Module methods that the knowledge base matches on receivers of unknown type (inspect.signature
# in torch 2.13.0, self left out). Only the name ties such a receiver to torch, so a call torch's method would refuse is
# some other object's method: `trainer.train(resume_from_checkpoint=...)` (a Hugging Face Trainer), `algo.train(params,
# settings)`.
_MODULE_METHOD_PARAMETERS = {
    "torch.nn.Module.train": ("mode",),
    "torch.nn.Module.eval": (),
    "torch.nn.Module.parameters": ("recurse",),
    "torch.nn.Module.named_parameters": ("prefix", "recurse", "remove_duplicate"),
}


# Tensor methods that return one Python bool in torch and a tensor in MindSpore: a tensor method or an index on the
# result (`x.equal(y).sum()`) cannot be torch's call, so the receiver is already a MindSpore tensor (the ops/nn era's
# fix of `x.eq(y)` writes `x.equal(y)`, and a re-scan must not call that torch's whole-tensor test).
_BOOL_IN_TORCH = frozenset({"torch.Tensor.equal"})


def _result_used_as_tensor(context: RuleContext, call: ast.Call | None) -> bool:
    """The text right after the call is a method call or an index on its result (`).sum()`, `).float()`, `)[0]`)."""
    if call is None:
        return False
    _, _, end_line, end_column = context.factory.span(call)
    return re.match(r"\s*(\.\s*[a-z_]\w*\s*\(|\[)", context.factory.lines.text(end_line)[end_column - 1:]) is not None


def _fits_torch_signature(api: str, call: ast.Call | None) -> bool:
    """Whether `call` could call torch's method `api`: no more positional arguments than it takes and no keyword it
    lacks (`*args`/`**kwargs` may fit anything). A method only referenced (`has_option(algo.train, "x")`, call None)
    runs nothing here."""
    parameters = _MODULE_METHOD_PARAMETERS.get(api)
    if parameters is None:
        return True
    if call is None:
        return False
    if any(type(argument) is ast.Starred for argument in call.args) or any(keyword.arg is None for keyword in call.keywords):
        return True
    return len(call.args) <= len(parameters) and all(keyword.arg in parameters[len(call.args):] for keyword in call.keywords)


def _unchanged_on_mindspore(entry, node: ast.Attribute, call: ast.Call | None) -> bool:
    """x.view(...) works as it is on a mindspore.Tensor; so does x.squeeze(1) when the only difference is a
    keyword's name (dim → axis) and the call does not pass that keyword, or x.diag() when the parameter that
    MindSpore lacks is not passed. Nothing to change, nothing to report. Rows that say `same` never matter;
    any other difference (a default, a meaning, a type) matters whatever the call passes. Only a target that is the
    receiver's own method of the same name can stay as written: `x.relu()` → the function mindspore.mint.nn.functional
    .relu is reported, whatever its rows say (mindspore.Tensor has no relu)."""
    if not entry.target or not is_own_method(entry.target, node.attr):
        return False
    if entry.target in ONE_SIZE_TARGETS and call is not None and (len(call.args) > 1 or any(type(argument) is ast.Starred for argument in call.args)):
        return False  # x.new_zeros(2, 3), x.new_ones(*shape): MindSpore takes the sizes as one tuple (size_arguments.py)
    if entry.category == "ms-equivalent":
        return not _passes_a_row(entry, call)
    if entry.category != "ms-differs" or not entry.parameters or call is None:
        return False
    differences = [difference for difference in entry.parameters if difference.change != "same"]
    if not call.args and not call.keywords and all(
            difference.change in ("renamed", "removed", "position")
            or (difference.change == "type" and difference.position is not None)
            or (difference.change == "added" and difference.target_default is not None) for difference in differences):
        # `x.sum()` passes nothing: a parameter named otherwise, lacking, taken by position only, typed otherwise at a
        # known position (where a positional argument lands), or one only MindSpore has with a default, cannot matter.
        # A default that differs, a meaning, or a type with no position (x.std()'s unbiased -> ddof) would.
        return True
    if any(difference.change not in ("renamed", "removed") for difference in differences):
        return False
    passed = {keyword.arg for keyword in call.keywords}
    if None in passed or any(isinstance(argument, ast.Starred) for argument in call.args):
        return False  # **kwargs or *args may carry a parameter MindSpore renamed or lacks
    for difference in differences:
        if difference.source in passed:
            return False
        # A removed parameter may also arrive by position: only a known position past the arguments rules it out.
        if difference.change == "removed" and call.args and (difference.position is None or difference.position < len(call.args)):
            return False
    return True


def is_own_method(target: str, method: str) -> bool:
    """`target` is the method `method` of a MindSpore class (`mindspore.Tensor.squeeze`, `mindspore.nn.Cell.apply`),
    not a function of that name in a module (`mindspore.mint.dot`). MindSpore's modules are lower-case and its
    classes CapWords; tests/execution/test_method_targets.py checks every such target against mindspore 2.10."""
    owner, _, name = target.rpartition(".")
    return name == method and owner.rpartition(".")[2][:1].isupper()


def _is_layer_parameter(context: RuleContext, node: ast.expr) -> bool:
    """`self.fc.weight`, `conv.bias`: a torch.nn layer's own weight or bias (a Parameter), as the walker infers it."""
    if type(node) is not ast.Attribute or node.attr not in ("weight", "bias"):
        return False
    owner = context.infer(node.value)
    return owner is not None and owner.startswith("torch.nn.") and context.types.is_module(owner)


def _passes_a_row(entry, call: ast.Call | None) -> bool:
    """The call passes a parameter one of the entry's rows renames, lacks or types otherwise (`x.dot(tensor=y)`), by
    keyword or, for a parameter MindSpore lacks or types otherwise, at the row's known position; `x.dot(y)` does not."""
    if call is None:
        return False
    used = {keyword.arg for keyword in call.keywords if keyword.arg}
    return any(
        row.source and row.change != "same"
        and (row.source in used or (row.change in ("removed", "type") and row.position is not None
                                    and row.position < len(call.args)))
        for row in entry.parameters)


def _methods_of(context: RuleContext, class_type: str) -> frozenset[str]:
    info = context.types.classes.get(class_type.removeprefix("local:"))
    return info.methods if info is not None else frozenset()


def _is_local_class(context: RuleContext, node: ast.expr) -> bool:
    """`Pool.is_cuda` where Pool is a class of this file: an attribute of the user's own class, not a tensor's."""
    if type(node) is not ast.Name:
        return False
    binding = context.lookup(node.id)
    return binding is not None and binding[0] == "class"


def _receiver_is_foreign(node: ast.expr) -> bool:
    """Literals and containers are never torch objects: `"a,b".split()`, `[1, 2].index(1)`."""
    return isinstance(node, (ast.Constant, ast.JoinedStr, ast.List, ast.Dict, ast.Set, ast.Tuple, ast.ListComp,
                             ast.DictComp, ast.SetComp))


def _method_fix(context: RuleContext, entry, node: ast.Attribute, call: ast.Call | None, span) -> Fix | NotFixed | None:
    if entry.fix == "none":
        return None
    builder = (METHOD_BUILDERS.get((context.route, entry.api)) or VALUE_BUILDERS.get((context.route, entry.api))
               or STD_BUILDERS.get((context.route, entry.api)))
    if builder is not None:
        built = builder(context, entry, node, call, span)
        if built is not NotImplemented:  # NotImplemented: not the builder's form of the call; the general fix below
            return cast("Fix | NotFixed | None", built)
    rewrite = _CALL_REWRITES.get(entry.api)
    if rewrite is not None:
        if call is None:
            return None
        without_arguments, renamed = rewrite
        if not call.args and not call.keywords:
            _, _, end_line, end_column = context.factory.span(call)
            return Fix(
                title=f"Replace `.{node.attr}()` with `.{without_arguments}`",
                safe=entry.fix == "safe",
                edits=(TextEdit(span[0], span[1], end_line, end_column, without_arguments),),
            )
        if renamed is None:
            return None
        return context.factory.text_fix(entry, span, renamed, f"Replace `.{node.attr}` with `.{renamed}`")
    if not entry.target:
        return None
    new_name = entry.target.rsplit(".", 1)[-1]
    if not new_name.isidentifier() or new_name == node.attr:
        return None
    imports = ("import torch_npu",) if context.route == ROUTE_NPU and "npu" in new_name else ()
    return context.factory.text_fix(entry, span, new_name, f"Replace `.{node.attr}` with `.{new_name}`", imports)


def on_definition(context: RuleContext, node: ast.FunctionDef | ast.AsyncFunctionDef, class_type: str) -> None:
    entries = context.view.definitions.get(node.name)
    if not entries:
        return
    family = context.types.family(class_type)
    factory = context.factory
    spelled: set[str] | None = None  # the family as the tables spell it (`keras.layers.Layer` is `tensorflow.keras.Layer`)
    for entry in entries:
        if entry.receiver_type not in family:
            if spelled is None:
                spelled = {context.view.aliases.canonical(type_name) for type_name in family}
            if entry.receiver_type not in spelled:
                continue
        line = node.lineno + factory.line_offset
        match = re.search(rf"\bdef\s+({re.escape(node.name)})\b", factory.lines.text(line))
        if match is None:
            continue
        column = len(factory.lines.text(line)[: match.start(1)]) + 1
        span = (line, column, line, column + len(node.name))
        fix = None
        new_name = entry.target.rsplit(".", 1)[-1] if entry.target else ""
        # No rename onto a name the class already defines (a class with both forward and construct): the user
        # decides which one stays.
        if new_name and entry.fix != "none" and new_name not in _methods_of(context, class_type):
            fix = factory.text_fix(entry, span, new_name, f"Rename `{node.name}` to `{new_name}`")
        context.add(factory.finding(entry, span, "inferred", api=entry.api, fix=fix))


# --- examples (tests/analysis/test_rule_examples.py runs them) ---------------------------------------------
_FLAGS = (
    Example("npu", """
        import torch
        import torch_npu
        from torch import nn

        model = nn.Linear(4, 4).cuda()  # expect: NPU105
        inputs = torch.randn(8, 4)
        if inputs.is_cuda:  # expect: NPU105
            inputs = inputs.cpu()
        """, codes=("NPU105",)),
    Example("mindspore", """
        import torch
        from torch import nn


        class Net(nn.Module):  # expect: MS201
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)  # expect: MS101

            def forward(self, x):  # expect: MS202
                return self.fc(x)


        net = Net()
        net.train()  # expect: MS203
        """, codes=("MS202", "MS203")),
    # ops/nn era: a keepdim passed by position lands in mindspore 2.4's dtype; x.std() is biased in MindSpore
    Example("mindspore", """
        import torch

        def summary(x: torch.Tensor, y: torch.Tensor):
            kept = x.sum(1, True)  # expect: MS102
            spread = x.std()  # expect: MS102
            same = x.equal(y)  # expect: MS102
            return kept, spread, same
        """, codes=("MS102",), mindspore_version="2.4"),
)
_LEAVES_ALONE = (
    Example("npu", """
        import torch
        import torch_npu

        fields = "a,b".split(",")
        settings = {"cuda": False}
        use_gpu = settings.get("cuda")
        """, codes=("NPU105",)),
    Example("mindspore", """
        import torch

        x = torch.zeros(4, 4)
        y = x.view(16)
        """, codes=("MS102",)),
    # after the ops/nn era's fix: `pred.eq(target)` became MindSpore's element-wise `equal`, and `.sum()` passes nothing
    Example("mindspore", """
        import mindspore

        def accuracy(outputs, target):
            pred = mindspore.ops.argmax(outputs, dim=1)
            correct = pred.equal(target).sum()
            return correct, pred.sum()
        """, codes=("MS102",), mindspore_version="2.4"),
)


RULE = Rule(
    name="methods",
    hooks={ATTRIBUTE: on_attribute, METHOD_DEFINITION: on_definition},
    flags=_FLAGS,
    leaves_alone=_LEAVES_ALONE,
)
