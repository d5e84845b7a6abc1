"""What the parent tells the child to watch, chosen from the knowledge base (parent side, no torch)."""

from __future__ import annotations

from ascend_migrate.kb.index import RouteView

# Codes whose callables the child wraps: NPU201, the APIs msfmktransplt lists as unsupported on NPU.
UNSUPPORTED_CODES = ("NPU201",)


def unsupported_names(view: RouteView) -> list[str]:
    """Dotted torch names (functions) the knowledge base calls unsupported on NPU; the child skips non-functions."""
    names = []
    for api, entries in view.by_name.items():
        if not api.startswith("torch.") or api.startswith(("torch.cuda.", "torch.Tensor.")):
            continue  # torch.cuda.* is watched as a whole; Tensor methods are not wrapped
        if any(entry.code in UNSUPPORTED_CODES and entry.category == "npu-unsupported" and not entry.condition
               for entry in entries):
            names.append(api)
    return sorted(names)
