"""Fixes that are more than a rename, for names whose replacement changes the call's shape.

Keyed by (route, api). Each builder returns a `Fix`, or None when this call's shape does not allow one
(the finding is still reported). The KB entry decides whether a fix is offered at all (`fix: none`) and
whether it is safe; these builders only say how.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from ascend_migrate.analysis.dictionary_keys import dictionary_keys
from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.call_rewrite import renamed_call, replaced_call, source_text
from ascend_migrate.analysis.rules.cell_dtype import METHOD_BUILDERS as CAST_METHOD_BUILDERS
from ascend_migrate.analysis.rules.device_flags import METHOD_BUILDERS as DEVICE_FLAG_BUILDERS
from ascend_migrate.analysis.rules.embedding import BUILDERS as EMBEDDING_BUILDERS
from ascend_migrate.analysis.rules.inplace_fill import METHOD_BUILDERS as FILL_BUILDERS
from ascend_migrate.analysis.rules.layer_norm import BUILDERS as LAYER_NORM_BUILDERS
from ascend_migrate.analysis.rules.size_arguments import METHOD_BUILDERS as SIZE_METHOD_BUILDERS
from ascend_migrate.analysis.rules.stop_gradient import METHOD_BUILDERS as STOP_GRADIENT_BUILDERS
from ascend_migrate.analysis.symbols import TENSOR_DATASETS
from ascend_migrate.fixes.families.load_checkpoint import LoadCheckpoint, converted_path
from ascend_migrate.fixes.families.save_checkpoint import SaveCheckpoint
from ascend_migrate.taxonomy import ROUTE_MINDSPORE, ROUTE_NPU


class NotFixed(str):
    """A builder's answer when it writes no fix and the finding must say why (the text is that reason)."""


def _data_parallel(context, entry, node, call, span, root) -> Fix | None:
    """DataParallel gets no fix, whatever the entry says: DistributedDataParallel needs a process group, one process
    per NPU and a DistributedSampler, which `ascend-migrate migrate --distributed --main FILE --model VAR` writes
    (projects/distributed.py; issue 17: a bare rename to DistributedDataParallel did not run)."""
    return None


def _save_checkpoint(context, entry, node, call, span, root) -> Fix | None:
    """torch.save(model.state_dict(), path) → mindspore.save_checkpoint(model, path), and torch.save(model, path)
    for a model (a Cell: its parameters are saved, not its pickled object); a ".pth"/".pt" file name in a
    literal becomes ".ckpt" (save_checkpoint appends ".ckpt" to any other name: x.pth.ckpt)."""
    if call is None or len(call.args) != 2 or call.keywords:
        return None
    first = call.args[0]
    if type(first) is ast.Dict:
        return _save_checkpoint_with_values(context, call, first, root)
    state_dict = (type(first) is ast.Call and type(first.func) is ast.Attribute and first.func.attr == "state_dict"
                  and not first.args and not first.keywords)
    if not state_dict and not context.types.is_module(context.infer(first)):
        return None
    path = call.args[1]
    if type(path) is ast.Name:
        values = context.assigned_values(path.id)  # path = "net_{}.pth".format(epoch) in the same function
        path = values[0] if len(values) == 1 else path
    path_edits = _checkpoint_name(context, path)
    if not state_dict:
        rename = context.factory.rename_fix(entry, span, root)
        if rename is None:
            return None
        return Fix(title="Replace with `mindspore.save_checkpoint(model, path)` (saves the parameters)", safe=False,
                   edits=rename.edits + path_edits, add_imports=rename.add_imports, remove_imports=rename.remove_imports)
    return Fix(
        title="Replace with `mindspore.save_checkpoint(model, path)`",
        safe=False,
        edits=path_edits,
        rewrite=SaveCheckpoint(context.factory.span(call), callee="mindspore.save_checkpoint"),
        add_imports=("import mindspore",),
        remove_imports=(root,) if root else (),
    )


def _save_checkpoint_with_values(context, call: ast.Call, saved: ast.Dict, root) -> Fix | None:
    """torch.save({"epoch": epoch, "model": model.state_dict()}, path) → mindspore.save_checkpoint(model, path,
    append_dict={"epoch": epoch}): one model's state dict and values beside it (save_checkpoint stores an
    append_dict of int, float, bool, str or Tensor values next to the parameters; load_checkpoint returns them
    in the same dictionary, mindspore 2.10.0). Anything else saved beside it (an optimizer's state dict) keeps
    the finding without a fix."""
    models = [index for index, value in enumerate(saved.values) if _is_state_dict_call(value)]
    if len(models) != 1 or any(key is None or type(key) is not ast.Constant or type(key.value) is not str for key in saved.keys):
        return None
    values = [(key, value) for index, (key, value) in enumerate(zip(saved.keys, saved.values, strict=True)) if index != models[0]]
    if any(type(value) is ast.Call for _, value in values):
        return None  # a computed value (another state dict, a config's to_dict()) may not be a number, string or tensor
    model = source_text(context, saved.values[models[0]].func.value)  # type: ignore[attr-defined]
    path = call.args[1]
    path_text = source_text(context, path)
    for edit in _checkpoint_name(context, path):
        path_line, path_column = context.factory.span(path)[:2]
        if edit.line == path_line:
            start, end = edit.column - path_column, edit.end_column - path_column
            path_text = path_text[:start] + edit.new_text + path_text[end:]
    appended = ", ".join(f"{source_text(context, key)}: {source_text(context, value)}" for key, value in values
                         if key is not None)  # every key is a string literal (checked above)
    new = f"mindspore.save_checkpoint({model}, {path_text}" + (f", append_dict={{{appended}}})" if values else ")")
    line, column, end_line, end_column = context.factory.span(call)
    return Fix(title="Replace with `mindspore.save_checkpoint(model, path, append_dict={...})` (the other values beside the parameters)",
               safe=False, edits=(TextEdit(line, column, end_line, end_column, new),),
               add_imports=("import mindspore",), remove_imports=(root,) if root else ())


def _is_state_dict_call(node: ast.expr) -> bool:
    return (type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "state_dict"
            and not node.args and not node.keywords)


def _load_checkpoint(context, entry, node, call, span, root) -> Fix | None:
    """torch.load("model.pth", ...) → mindspore.load_checkpoint("model.ckpt"): the file `weights convert` writes.
    A computed path gets no fix: load_checkpoint cannot read the .pth it may name."""
    if call is None:
        return None
    first = call.args[0] if call.args else next((keyword.value for keyword in call.keywords if keyword.arg == "f"), None)
    if not (type(first) is ast.Constant and isinstance(first.value, str)) or any(type(arg) is ast.Starred for arg in call.args):
        return None
    path = converted_path(first.value)
    if path is None:
        return None
    return Fix(
        title=f"Replace with `mindspore.load_checkpoint({path!r})` (convert first: ascend-migrate weights convert)",
        safe=False,
        rewrite=LoadCheckpoint(context.factory.span(call), path),
        add_imports=("import mindspore",),
        remove_imports=(root,) if root else (),
    )


def _checkpoint_name(context, path: ast.expr) -> tuple[TextEdit, ...]:
    """The edit of a literal file name's `.pth`/`.pt` suffix to `.ckpt` (`"%s/net_%d.pth" % ...` and
    `"net_{}.pth".format(...)` too)."""
    literal = path.left if type(path) is ast.BinOp and type(path.op) is ast.Mod else path
    if type(path) is ast.Call and type(path.func) is ast.Attribute and path.func.attr == "format":
        literal = path.func.value  # "model_epoch_{}.pth".format(epoch)
    if type(literal) is ast.JoinedStr and literal.values and type(literal.values[-1]) is ast.Constant:
        pass  # f"net_{epoch}.pth": its text ends as a literal's does
    elif type(literal) is not ast.Constant or type(literal.value) is not str:
        return ()
    line, column, end_line, end_column = context.factory.span(literal)
    text = context.factory.lines.text(line)[column - 1:end_column - 1]
    if line != end_line or len(text) < 2 or text[-1] not in "'\"":
        return ()
    for suffix in (".pth", ".pt"):
        if text[:-1].endswith(suffix):
            start = end_column - 1 - len(suffix)
            return (TextEdit(line, start, line, end_column - 1, ".ckpt"),)
    return ()


# (route, api) → builder(context, entry, node, call, span, root): a Fix, NotFixed, None, or NotImplemented (not
# this entry's shape: another era's target).
BUILDERS: dict[tuple[str, str], Callable[..., Any]] = {
    (ROUTE_NPU, "torch.nn.DataParallel"): _data_parallel,
    (ROUTE_MINDSPORE, "torch.save"): _save_checkpoint,
    (ROUTE_MINDSPORE, "torch.load"): _load_checkpoint,
}


# --- the MindSpore route's program structure (issue 17; proven by tests/execution) --------------------------



def _drop_device_call(context, entry, node: ast.Attribute, call, span) -> Fix | None:
    """`x.to(device)`, `model.to(device)`, `x.cuda()`, `model.cuda()`, `x.cpu()` → `x` / `model`: MindSpore places
    every tensor and cell on the process's device (mindspore.set_device), so the call has nothing left to do
    (`x.cpu().numpy()` → `x.numpy()`: mindspore.Tensor.numpy copies to the host, 2.10)."""
    if call is None or call.func is not node:
        return None
    if node.attr == "to":
        arguments = [*call.args, *(keyword.value for keyword in call.keywords)]
        arguments = [argument for argument, keyword in zip(arguments, [None] * len(call.args) + call.keywords, strict=True)
                     if keyword is None or keyword.arg != "non_blocking"]
        if len(arguments) != 1 or any(keyword.arg not in ("device", "non_blocking") for keyword in call.keywords):
            return None  # x.to(device, dtype) or x.to(other): a cast is left to the user
    elif call.args and not (len(call.args) == 1 and type(call.args[0]) in (ast.Constant, ast.Name)):
        return None
    line, column, end_line, end_column = context.factory.span(call)
    return Fix(
        title=f"Drop `.{node.attr}(...)` (MindSpore runs on the device set once with mindspore.set_device)",
        safe=False,
        edits=(TextEdit(line, column, end_line, end_column, source_text(context, node.value)),),
    )


def _size_to_shape(context, entry, node: ast.Attribute, call, span) -> Fix | None:
    """`x.size()` → `x.shape`, `x.size(d)` → `x.shape[d]`: mindspore.Tensor.shape is a tuple (not callable) and
    mindspore.Tensor.size is the number of elements (an int), so a renamed call could never run."""
    if call is None or call.func is not node or call.keywords or len(call.args) > 1 or any(type(a) is ast.Starred for a in call.args):
        return None
    receiver = source_text(context, node.value)
    new = f"{receiver}.shape" + (f"[{source_text(context, call.args[0])}]" if call.args else "")
    line, column, end_line, end_column = context.factory.span(call)
    return Fix(title=f"Replace with `{new}`", safe=False, edits=(TextEdit(line, column, end_line, end_column, new),))


METHOD_BUILDERS = {
    (ROUTE_MINDSPORE, "torch.Tensor.size"): _size_to_shape,
    (ROUTE_MINDSPORE, "torch.Tensor.to"): _drop_device_call,
    (ROUTE_MINDSPORE, "torch.nn.Module.to"): _drop_device_call,
    (ROUTE_MINDSPORE, "torch.Tensor.cuda"): _drop_device_call,
    (ROUTE_MINDSPORE, "torch.nn.Module.cuda"): _drop_device_call,
    (ROUTE_MINDSPORE, "torch.Tensor.cpu"): _drop_device_call,
    **SIZE_METHOD_BUILDERS,
    **CAST_METHOD_BUILDERS,
    **STOP_GRADIENT_BUILDERS,
    **DEVICE_FLAG_BUILDERS,
    **FILL_BUILDERS,
}

# torch device names → MindSpore's device targets (mindspore.set_device accepts "CPU", "GPU" and "Ascend").
DEVICE_TARGETS = {"cuda": "Ascend", "npu": "Ascend", "cpu": "CPU"}


def mindspore_device(node: ast.expr) -> str | None:
    """`"cuda" if cond else "cpu"` → `"Ascend" if cond else "CPU"` (the test's own text kept for its own fix);
    None unless every possible value is a device literal."""
    if type(node) is ast.Constant and type(node.value) is str:
        target = DEVICE_TARGETS.get(node.value.split(":", 1)[0])
        return None if target is None else f'"{target}"'
    if type(node) is ast.IfExp:
        body, orelse = mindspore_device(node.body), mindspore_device(node.orelse)
        if body is None or orelse is None:
            return None
        return f"{body} if {ast.unparse(node.test)} else {orelse}"
    return None


# The DataLoader options the pipeline carries over (batch, shuffle, drop_last, workers) and those without
# counterpart or effect on the values (pin_memory, persistent_workers); anything else (sampler, collate_fn, ...)
# is a manual port.
_LOADER_OPTIONS = ("dataset", "batch_size", "shuffle", "drop_last", "num_workers")
_LOADER_IGNORED = ("pin_memory", "persistent_workers")


def _loader_options(context, call: ast.Call) -> dict[str, ast.expr | str] | NotFixed:
    """The options of a DataLoader call this fix keeps: the source node of each one passed by name or position,
    or for one that `**kwargs` may pass, the name of that dict (read at run time: `kwargs.get("shuffle", False)`);
    NotFixed when a passed option cannot be carried over or the keys of a `**` dict are not known here."""
    options: dict[str, ast.expr | str] = {}
    for position, argument in enumerate(call.args):
        name = _LOADER_OPTIONS[position] if position < 3 else None
        if name is None or type(argument) is ast.Starred:
            return NotFixed("an option is passed by position after shuffle, or as *args")
        options[name] = argument
    for keyword in call.keywords:
        if keyword.arg is None:
            spread = keyword.value
            keys = dictionary_keys(context.assigned_dicts, spread.id) if isinstance(spread, ast.Name) else None
            if keys is None or not isinstance(spread, ast.Name):
                what = f"`**{source_text(context, spread)}`"
                return NotFixed(f"the keys {what} passes are not known here (followed: literal keys, `.update(...)` and "
                                "`d[key] = ...` in this function, or at module level in the statements above; a use that may "
                                "change the dict, such as passing it to a call, makes them unknown)")
            unknown = sorted(keys - set(_LOADER_OPTIONS) - set(_LOADER_IGNORED))
            if unknown:
                return NotFixed(f"`**{spread.id}` may pass {', '.join(unknown)}, which the pipeline cannot carry over")
            for key in sorted(keys):
                if key in options:
                    return NotFixed(f"`{key}` is passed twice")
                if key not in _LOADER_IGNORED:
                    options[key] = spread.id
            continue
        if keyword.arg in _LOADER_IGNORED:
            continue  # no counterpart and no effect on the values
        if keyword.arg not in _LOADER_OPTIONS:
            return NotFixed(f"`{keyword.arg}=` has no counterpart in a NumpySlicesDataset pipeline")
        if keyword.arg in options:
            return NotFixed(f"`{keyword.arg}` is passed twice")
        options[keyword.arg] = keyword.value
    return options


def _columns(context, source: ast.expr) -> tuple[str, list[str]] | None:
    """(data tuple text, column names) of an inline `TensorDataset(a, b)` or of what its fix wrote."""
    if type(source) is not ast.Call:
        return None
    qualified = context.qualified_name(source.func) or ""
    if qualified.endswith("TensorDataset") and source.args and not source.keywords and not any(type(a) is ast.Starred for a in source.args):
        arrays = [f"numpy.asarray({source_text(context, argument)})" for argument in source.args]
        return "(" + ", ".join(arrays) + ("," if len(arrays) == 1 else "") + ")", [f"column_{index}" for index in range(len(arrays))]
    if qualified == "mindspore.dataset.NumpySlicesDataset" and source.args:
        names = next((keyword.value for keyword in source.keywords if keyword.arg == "column_names"), None)
        if type(names) is ast.List and all(type(item) is ast.Constant for item in names.elts):
            return source_text(context, source.args[0]), [item.value for item in names.elts]  # type: ignore[attr-defined]
    return None


def data_pipeline(context, entry, node, call, span, root) -> Fix | NotFixed | None:
    """DataLoader(TensorDataset(a, b), batch_size=B, shuffle=S, drop_last=D, num_workers=W) →
    mindspore.dataset.NumpySlicesDataset((numpy.asarray(a), numpy.asarray(b)), column_names=[...], shuffle=S,
    num_parallel_workers=W).batch(B, drop_remainder=D): every option kept (torch's defaults written out)."""
    if call is None:
        return None
    options = _loader_options(context, call)
    if isinstance(options, NotFixed):
        return options
    source = options.get("dataset")
    if not isinstance(source, ast.expr):
        return None  # the dataset itself arrives through **kwargs

    def text(name: str, default: str) -> str:
        value = options.get(name)
        if value is None:
            return default
        if isinstance(value, str):
            return f'{value}.get("{name}", {default})'  # passed by **value: read where torch read it, at run time
        return source_text(context, value)

    workers = text("num_workers", "0")
    parallel = "" if workers == "0" else f", num_parallel_workers=max(1, {workers})"
    batch = f".batch({text('batch_size', '1')}, drop_remainder={text('drop_last', 'False')}{parallel})"
    found = _columns(context, source)
    if found is not None:
        data, columns = found
        new = (f"mindspore.dataset.NumpySlicesDataset({data}, column_names={columns!r}, shuffle={text('shuffle', 'False')}"
               f"{parallel}){batch}").replace("'", '"')
    elif _is_plain_reference(source) and context.infer(source) == TENSOR_DATASETS[0]:
        # A variable holding a TensorDataset (or an element of a dict of them, `datasets[x]`), which its own fix
        # makes a NumpySlicesDataset (unshuffled).
        shuffle = text("shuffle", "False")
        name = source_text(context, source)
        shuffled = f"{name}.shuffle({name}.get_dataset_size())"
        if shuffle == "False":
            new = f"{name}{batch}"
        elif shuffle == "True":
            new = f"{shuffled}{batch}"
        else:  # decided at run time
            new = f"({shuffled} if {shuffle} else {name}){batch}"
    else:
        return NotFixed("the dataset is not a TensorDataset built in this file, so its columns are not known here "
                        "(write a mindspore.dataset.GeneratorDataset with column_names)")
    line, column, end_line, end_column = context.factory.span(call)
    return Fix(
        title="Replace with `mindspore.dataset.NumpySlicesDataset(...).batch(...)` (batch, shuffle, drop_last, workers kept)",
        safe=False,
        edits=(TextEdit(line, column, end_line, end_column, new),),
        add_imports=("import mindspore", "import numpy"),
        remove_imports=tuple(name for name in (root, _root_name(source)) if name),
    )


def _is_plain_reference(source: ast.expr) -> bool:
    """`dataset` or `datasets[x]` (a name, or a name indexed by a name or a literal): written twice by the fix, it
    reads the same value both times."""
    if type(source) is ast.Subscript:
        return type(source.value) is ast.Name and type(source.slice) in (ast.Name, ast.Constant)
    return type(source) is ast.Name


def _root_name(source: ast.expr) -> str | None:
    """`TensorDataset` of an inline `TensorDataset(...)` (its import may go once the call is rewritten)."""
    function = source.func if type(source) is ast.Call else None
    while type(function) is ast.Attribute:
        function = function.value
    return function.id if type(function) is ast.Name else None


def _tensor_dataset(context, entry, node, call, span, root) -> Fix | None:
    """TensorDataset(a, b) → NumpySlicesDataset((numpy.asarray(a), numpy.asarray(b)), column_names=[...],
    shuffle=False): the arrays as one tuple (never the labels as column names), in order, as torch keeps them."""
    if call is None:
        return None
    found = _columns(context, call)
    if found is None or not (context.qualified_name(call.func) or "").endswith("TensorDataset"):
        return None
    data, columns = found
    line, column, end_line, end_column = context.factory.span(call)
    new = f"mindspore.dataset.NumpySlicesDataset({data}, column_names={columns!r}, shuffle=False)".replace("'", '"')
    return Fix(
        title="Replace with `mindspore.dataset.NumpySlicesDataset((arrays...), column_names=[...], shuffle=False)`",
        safe=False,
        edits=(TextEdit(line, column, end_line, end_column, new),),
        add_imports=("import mindspore", "import numpy"),
        remove_imports=(root,) if root else (),
    )


def _no_grad(context, entry, node, call, span, root) -> Fix | None:
    """`with torch.no_grad():` → `with contextlib.nullcontext():`: MindSpore records gradients only inside the
    functions given to value_and_grad, so the block already computes none (the body and its indentation stay)."""
    if call is None or call.args or call.keywords:
        return None
    return null_context(context, call, root, "MindSpore records no gradients outside value_and_grad")


def null_context(context, call: ast.Call, root: str | None, why: str) -> Fix:
    """The context manager `call` replaced by `contextlib.nullcontext()` (the block and its indentation stay)."""
    line, column, end_line, end_column = context.factory.span(call)
    return Fix(
        title=f"Replace with `contextlib.nullcontext()` ({why})",
        safe=False,
        edits=(TextEdit(line, column, end_line, end_column, "contextlib.nullcontext()"),),
        add_imports=("import contextlib",),
        remove_imports=(root,) if root else (),
    )


BUILDERS.update({
    (ROUTE_MINDSPORE, "torch.utils.data.DataLoader"): data_pipeline,
    (ROUTE_MINDSPORE, "torch.utils.data.dataloader.DataLoader"): data_pipeline,
    (ROUTE_MINDSPORE, "torch.utils.data.TensorDataset"): _tensor_dataset,
    (ROUTE_MINDSPORE, "torch.utils.data.dataset.TensorDataset"): _tensor_dataset,
    (ROUTE_MINDSPORE, "torch.no_grad"): _no_grad,
})


# The ops/nn era's convolutions (mindspore.nn.ConvNd, before 2.5): torch's positional parameters after
# kernel_size, their MindSpore names, and the defaults that differ (torch pads by `padding` with zeros and has
# a bias; MindSpore pads by pad_mode="same" and has none). Read from mindspore 2.4's nn.Conv2d signature
# (in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0, dilation=1, group=1,
# has_bias=False, ...) against torch's (..., stride=1, padding=0, dilation=1, groups=1, bias=True, ...).
_TORCH_CONVOLUTION = ("in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups", "bias")
_CONVOLUTION_NAMES = {"groups": "group", "bias": "has_bias"}
_TRANSPOSED = ("in_channels", "out_channels", "kernel_size", "stride", "padding", "output_padding", "groups", "bias", "dilation")


def _ops_nn_convolution(context, entry, node, call, span, root) -> Fix | None:
    """nn.Conv2d(1, 32, 3, 1, 1, bias=False) → mindspore.nn.Conv2d(1, 32, 3, 1, pad_mode="pad", padding=1,
    has_bias=False): every argument after the stride as a keyword under its MindSpore name, pad_mode="pad" and
    has_bias=True (torch's default) written out. Only for the ops/nn-era target; other eras keep the plain fix."""
    if not entry.target.startswith("mindspore.nn.Conv"):
        return NotImplemented
    if call is None or any(type(argument) is ast.Starred for argument in call.args) or any(k.arg is None for k in call.keywords):
        return None
    order = _TRANSPOSED if "Transpose" in entry.api else _TORCH_CONVOLUTION
    if len(call.args) > len(order) or any(keyword.arg not in order for keyword in call.keywords):
        return None  # padding_mode, device, dtype, ...: no counterpart here
    if "Transpose" in entry.api and any(name == "output_padding" for name in order[4:len(call.args)]):
        return None
    passed = {name: source_text(context, argument) for name, argument in zip(order, call.args, strict=False)}
    passed.update({keyword.arg: source_text(context, keyword.value) for keyword in call.keywords})
    if passed.get("output_padding", "0") != "0":
        return None  # MindSpore's Conv2dTranspose has no output_padding
    passed.pop("output_padding", None)
    positional = [passed.pop(name) for name in order[:4] if name in passed and order.index(name) < len(call.args)]
    padding = call.args[4] if len(call.args) > 4 else next((k.value for k in call.keywords if k.arg == "padding"), None)
    if type(padding) is ast.Tuple and len(padding.elts) == 2 and "Transpose" not in entry.api and "2d" in entry.api:
        height, width = (source_text(context, element) for element in padding.elts)
        passed["padding"] = f"({height}, {height}, {width}, {width})"  # MindSpore pads (top, bottom, left, right)
    elif padding is not None and type(padding) is not ast.Constant:
        return None  # a tuple of another length, or a value not known here: MindSpore's padding differs for tuples
    keywords = {_CONVOLUTION_NAMES.get(name, name): value for name, value in passed.items()}
    keywords.setdefault("has_bias", "True")
    keywords = {"pad_mode": '"pad"', **keywords}
    arguments = [*positional, *(f"{name}={value}" for name, value in keywords.items())]
    return renamed_call(context, entry, span, root, call, arguments, 'with pad_mode="pad" and has_bias written out')


def _ops_flatten(context, entry, node, call, span, root) -> Fix | None:
    """torch.flatten(x, 1) → mindspore.ops.flatten(x, start_dim=1): ops.flatten's second positional is `order`."""
    if entry.target != "mindspore.ops.flatten":
        return NotImplemented
    if call is None or call.keywords or not 1 <= len(call.args) <= 3 or any(type(a) is ast.Starred for a in call.args):
        return None
    rename = context.factory.rename_fix(entry, span, root)
    if rename is None or not rename.edits:
        return None
    texts = [source_text(context, argument) for argument in call.args]
    arguments = ", ".join([texts[0], *(f"{name}={text}" for name, text in zip(("start_dim", "end_dim"), texts[1:], strict=False))])
    line, column, end_line, end_column = context.factory.span(call)
    return Fix(
        title="Replace with `mindspore.ops.flatten(x, start_dim=..., end_dim=...)`",
        safe=False,
        edits=(TextEdit(line, column, end_line, end_column, f"{rename.edits[0].new_text}({arguments})"),),
        add_imports=rename.add_imports,
        remove_imports=rename.remove_imports,
    )


BUILDERS.update({(ROUTE_MINDSPORE, f"torch.nn.{name}"): _ops_nn_convolution for name in ("Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d")})
BUILDERS[(ROUTE_MINDSPORE, "torch.flatten")] = _ops_flatten


def _ops_nn_cross_entropy(context, entry, node, call, span, root) -> Fix | None:
    """nn.CrossEntropyLoss(...) → functools.partial(mindspore.ops.cross_entropy, ...) in the ops/nn era:
    mindspore.nn.CrossEntropyLoss takes int32 labels only (torch's are int64), ops.cross_entropy takes both and
    has torch's keywords (weight, ignore_index, reduction, label_smoothing)."""
    if entry.target != "mindspore.nn.CrossEntropyLoss":
        return NotImplemented
    if call is None or call.args or any(k.arg not in ("weight", "ignore_index", "reduction", "label_smoothing") for k in call.keywords):
        return None
    keywords = "".join(f", {keyword.arg}={source_text(context, keyword.value)}" for keyword in call.keywords)
    line, column, end_line, end_column = context.factory.span(call)
    return Fix(
        title="Replace with `functools.partial(mindspore.ops.cross_entropy, ...)` (takes int64 labels as torch does)",
        safe=False,
        edits=(TextEdit(line, column, end_line, end_column, f"functools.partial(mindspore.ops.cross_entropy{keywords})"),),
        add_imports=("import functools", "import mindspore"),
        remove_imports=(root,) if root else (),
    )


BUILDERS[(ROUTE_MINDSPORE, "torch.nn.CrossEntropyLoss")] = _ops_nn_cross_entropy
BUILDERS.update(EMBEDDING_BUILDERS)
BUILDERS.update(LAYER_NORM_BUILDERS)


# Functions of the ops/nn era whose default differs from torch's, with torch's value to write when the call leaves
# it out: (MindSpore target, keyword, torch's default, how many leading positionals both sides share). Read from
# the signatures: torch smooth_l1_loss(input, target, size_average, reduce, reduction='mean', beta=1.0), mindspore
# 2.4-2.10 ops.smooth_l1_loss(input, target, beta=1.0, reduction='none') (corrections.py records the difference).
_OPS_NN_DEFAULTS = {
    "torch.nn.functional.smooth_l1_loss": ("mindspore.ops.smooth_l1_loss", "reduction", '"mean"', 2),
}


def _ops_nn_torch_default(context, entry, node, call, span, root) -> Fix | None:
    """F.smooth_l1_loss(x, y) → mindspore.ops.smooth_l1_loss(x, y, reduction="mean"): torch's default written out
    where MindSpore's differs. Positionals past the shared ones (their order differs) get no fix."""
    target, keyword, torch_default, shared = _OPS_NN_DEFAULTS[entry.api]
    if entry.target != target:
        return NotImplemented
    if call is None or len(call.args) > shared or any(type(a) is ast.Starred for a in call.args):
        return None
    passed = [k.arg for k in call.keywords]
    if None in passed or any(name in ("size_average", "reduce") for name in passed):
        return None  # **options, or torch's deprecated switches: nothing here says what they mean
    arguments = [source_text(context, argument) for argument in call.args]
    arguments += [f"{k.arg}={source_text(context, k.value)}" for k in call.keywords]
    if keyword not in passed:
        arguments.append(f"{keyword}={torch_default}")
    return renamed_call(context, entry, span, root, call, arguments, f"with torch's {keyword}={torch_default} written out")


BUILDERS.update({(ROUTE_MINDSPORE, api): _ops_nn_torch_default for api in _OPS_NN_DEFAULTS})


# torch.nn.init functions: (torch's parameters after the tensor with their defaults, the MindSpore initializer,
# how its arguments are written from torch's). The initializer fills a new tensor of the parameter's shape and
# dtype that Parameter.set_data puts in place (`initializer.Uniform(p, a, b)` cannot run: issue 17).
_INITIALIZERS = {
    "torch.nn.init.normal_": (("mean", "0.0", "std", "1.0"), "Normal", "sigma={std}, mean={mean}"),
    "torch.nn.init.zeros_": ((), "Zero", ""),
    "torch.nn.init.ones_": ((), "One", ""),
    "torch.nn.init.constant_": (("val", None), "Constant", "{val}"),
    "torch.nn.init.orthogonal_": (("gain", "1"), "Orthogonal", "gain={gain}"),
    "torch.nn.init.xavier_uniform_": (("gain", "1.0"), "XavierUniform", "gain={gain}"),
    "torch.nn.init.xavier_normal_": (("gain", "1.0"), "XavierNormal", "gain={gain}"),
    "torch.nn.init.uniform_": (("a", "0.0", "b", "1.0"), "Uniform", "{b}"),
    "torch.nn.init.kaiming_normal_": (("a", "0", "mode", '"fan_in"', "nonlinearity", '"leaky_relu"'), "HeNormal",
                                      "negative_slope={a}, mode={mode}, nonlinearity={nonlinearity}"),
    "torch.nn.init.kaiming_uniform_": (("a", "0", "mode", '"fan_in"', "nonlinearity", '"leaky_relu"'), "HeUniform",
                                       "negative_slope={a}, mode={mode}, nonlinearity={nonlinearity}"),
    "torch.nn.init.trunc_normal_": (("mean", "0.0", "std", "1.0", "a", "-2.0", "b", "2.0"), "TruncatedNormal",
                                    "sigma={std}, mean={mean}, a={a}, b={b}"),
}


def _initializer(context, entry, node, call, span, root) -> Fix | None:
    """torch.nn.init.normal_(p, 0.0, 0.02) → p.set_data(mindspore.common.initializer.initializer(
    mindspore.common.initializer.Normal(sigma=0.02, mean=0.0), p.shape, p.dtype))."""
    parameters, initializer, template = _INITIALIZERS[entry.api]
    if call is None or not call.args or any(type(a) is ast.Starred for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    names = [str(name) for name in parameters[0::2]]
    if len(call.args) > len(names) + 1 or any(keyword.arg not in names for keyword in call.keywords):
        return None  # generator=..., or more arguments than torch takes
    values: dict[str, str | None] = dict(zip(names, parameters[1::2], strict=True))
    values.update({name: source_text(context, argument) for name, argument in zip(names, call.args[1:], strict=False)})
    values.update({str(keyword.arg): source_text(context, keyword.value) for keyword in call.keywords})
    known = {name: value for name, value in values.items() if value is not None}
    if len(known) != len(values):
        return None  # constant_ without its value
    if initializer == "Uniform" and known["a"].replace(" ", "") != f"-{known['b']}".replace(" ", ""):
        return None  # MindSpore's Uniform(scale) draws from [-scale, scale] only
    tensor = source_text(context, call.args[0])
    filled = f"mindspore.common.initializer.{initializer}({template.format(**known)})"
    new = f"{tensor}.set_data(mindspore.common.initializer.initializer({filled}, {tensor}.shape, {tensor}.dtype))"
    return replaced_call(context, call, new, f"Replace with `{tensor}.set_data(initializer({initializer}(...), shape, dtype))`", root)


# torch.nn.init.calculate_gain's table (its docstring in torch 2.13.0): the gain of a named nonlinearity.
_GAINS = {"linear": "1.0", "conv1d": "1.0", "conv2d": "1.0", "conv3d": "1.0", "sigmoid": "1.0", "tanh": "5.0 / 3",
          "relu": "math.sqrt(2.0)", "selu": "3.0 / 4"}


def _calculate_gain(context, entry, node, call, span, root) -> Fix | None:
    """calculate_gain('relu') → math.sqrt(2.0): MindSpore has no public counterpart; the value is torch's table."""
    if call is None or len(call.args) != 1 or call.keywords or type(call.args[0]) is not ast.Constant:
        return None
    gain = _GAINS.get(call.args[0].value)  # type: ignore[arg-type]
    if gain is None:
        return None
    line, column, end_line, end_column = context.factory.span(call)
    return Fix(
        title=f"Replace with `{gain}` (torch's gain for {call.args[0].value!r})",
        safe=False,
        edits=(TextEdit(line, column, end_line, end_column, gain),),
        add_imports=("import math",) if "math." in gain else (),
        remove_imports=(root,) if root else (),
    )


BUILDERS.update({(ROUTE_MINDSPORE, api): _initializer for api in _INITIALIZERS})
BUILDERS[(ROUTE_MINDSPORE, "torch.nn.init.calculate_gain")] = _calculate_gain
