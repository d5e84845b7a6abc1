"""How a target's qualified name is written in fixed code, and the import that makes it resolve."""

from __future__ import annotations


def render_target(qualified_name: str) -> tuple[str, str]:
    """(the text to write, the import statement it needs) for a replacement API's qualified name.

    `mindspore.mint.*` is written `mint.*` with `from mindspore import mint` (the short form MindSpore's own
    docs use); other MindSpore names stay fully qualified, because `nn` and `ops` are nearly always torch's
    in a file being ported. `torch.npu.*` and `torch_npu.*` need `import torch_npu` (it registers the NPU
    device with torch).
    """
    if qualified_name == "mindspore.mint" or qualified_name.startswith("mindspore.mint."):
        return qualified_name.removeprefix("mindspore."), "from mindspore import mint"
    if qualified_name.split(".", 1)[0] == "mindspore":
        return qualified_name, "import mindspore"
    if qualified_name.startswith(("torch.npu.", "torch_npu.")) or qualified_name in ("torch.npu", "torch_npu"):
        return qualified_name, "import torch_npu"
    top = qualified_name.split(".", 1)[0]
    return qualified_name, f"import {top}"
