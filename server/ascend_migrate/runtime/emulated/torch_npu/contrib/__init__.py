"""torch_npu.contrib of the emulation: only transfer_to_npu is provided."""
