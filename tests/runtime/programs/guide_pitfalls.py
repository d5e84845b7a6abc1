"""The migration guide's pitfalls after the renames to torch.npu: each PITFALL line is named in test_pitfalls.py."""

import torch
import torch_npu  # noqa: F401


def flash_attention_supported(device=0):
    props = torch.npu.get_device_properties(device)
    print("device", props.name)
    if props.major >= 8:  # PITFALL properties-major
        return True
    major, minor = torch.npu.get_device_capability(device)  # PITFALL capability-unpacked
    return major >= 8


print("flash attention", flash_attention_supported())
