"""torch's automatic mixed precision on the MindSpore route: the `autocast` region and the `GradScaler`.

`with torch.cuda.amp.autocast(...):` → `with contextlib.nullcontext():`. MindSpore has no region that casts the
operations run inside it: mindspore.amp.auto_mixed_precision(network, amp_level, dtype) converts a whole network
once, and it is no context manager (the former rename to it raised TypeError at the `with`: issue 17, amp_cifar).
The block and its indentation stay and compute in the network's own precision (float32), which is what autocast
computes where it does nothing (on a CPU, or with enabled=False); the finding says how to get float16 back.

`torch.cuda.amp.GradScaler(init_scale, growth_factor, backoff_factor, growth_interval, enabled)` →
`mindspore.amp.DynamicLossScaler(scale_value=..., scale_factor=..., scale_window=...)`, torch's defaults written
out (torch 2.13.0: 65536.0, 2.0, 0.5, 2000). MindSpore's scaler divides by scale_factor on an overflow, so a
backoff_factor other than 1 / growth_factor has no counterpart (no fix). `enabled` has none either: it is dropped,
since the training-step fix (MS204) writes the step without the scaler's calls (`scaler.scale(loss).backward()`,
`scaler.step(opt)`, `scaler.update()`), i.e. unscaled, as an enabled=False scaler leaves it. The constructor with
no keyword, DynamicLossScaler(enabled=...), was a TypeError (mindspore 2.10.0).
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.call_rewrite import replaced_call, source_text
from ascend_migrate.analysis.rules.structure_fixes import NotFixed, null_context
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

# torch.cuda.amp.GradScaler's parameters in order (torch.amp.GradScaler takes `device` first) with their defaults.
_SCALER_PARAMETERS = ("init_scale", "growth_factor", "backoff_factor", "growth_interval", "enabled")
_SCALER_DEFAULTS = {"init_scale": "65536.0", "growth_factor": "2.0", "backoff_factor": "0.5", "growth_interval": "2000"}


def _without_autocast(context, entry, node, call, span, root) -> Fix | None:
    """The autocast call of a `with` statement becomes `contextlib.nullcontext()` (the block stays as it is)."""
    if call is None or not _is_with_item(context, call):
        return None
    return null_context(context, call, root, "MindSpore casts a whole network once: auto_mixed_precision")


def _is_with_item(context, call: ast.Call) -> bool:
    """The call stands alone as a `with` item (`with autocast():`), not decorating a function or called for a value:
    its line holds `with `, the call and `:` only."""
    line, column, end_line, end_column = context.factory.span(call)
    if line != end_line:
        return False
    text = context.factory.lines.text(line)
    before, after = text[:column - 1].strip(), text[end_column - 1:].split("#")[0].strip()
    return before in ("with", "async with") and after == ":"


def _loss_scaler(context, entry, node, call, span, root) -> Fix | NotFixed | None:
    if call is None or any(type(argument) is ast.Starred for argument in call.args) or any(keyword.arg is None for keyword in call.keywords):
        return None
    parameters = _SCALER_PARAMETERS if entry.api == "torch.cuda.amp.GradScaler" else ("device", *_SCALER_PARAMETERS)
    if len(call.args) > len(parameters) or any(keyword.arg not in parameters for keyword in call.keywords):
        return None
    passed = {name: source_text(context, argument) for name, argument in zip(parameters, call.args, strict=False)}
    passed.update({str(keyword.arg): source_text(context, keyword.value) for keyword in call.keywords})
    values = {**_SCALER_DEFAULTS, **{name: value for name, value in passed.items() if name in _SCALER_DEFAULTS}}
    growth = _number(values["growth_factor"])
    if growth is None or growth != int(growth) or growth < 2:
        return NotFixed(f"MindSpore's scale_factor is an integer above 1; growth_factor is {values['growth_factor']}")
    backoff = _number(values["backoff_factor"])
    if backoff is None or abs(backoff * growth - 1) > 1e-12:
        return NotFixed("MindSpore divides the scale by scale_factor on an overflow; backoff_factor "
                        f"{values['backoff_factor']} is not 1 / growth_factor")
    new = (f"mindspore.amp.DynamicLossScaler(scale_value={values['init_scale']}, scale_factor={int(growth)}, "
           f"scale_window={values['growth_interval']})")
    dropped = " (enabled has no counterpart: the fixed training step does not scale the loss)" if "enabled" in passed else ""
    return replaced_call(context, call, new, f"Replace with `{new}`{dropped}", root)


def _number(text: str) -> float | None:
    """The value of a numeric literal (`2.0`, `2`), None for anything computed at run time."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError):
        return None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


AUTOCASTS = ("torch.autocast", "torch.amp.autocast", "torch.cuda.amp.autocast", "torch.cpu.amp.autocast")
BUILDERS = {
    **{(ROUTE_MINDSPORE, api): _without_autocast for api in AUTOCASTS},
    (ROUTE_MINDSPORE, "torch.cuda.amp.GradScaler"): _loss_scaler,
    (ROUTE_MINDSPORE, "torch.amp.GradScaler"): _loss_scaler,
}
