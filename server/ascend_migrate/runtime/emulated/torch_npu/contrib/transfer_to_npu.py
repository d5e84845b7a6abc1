"""Importing it remaps CUDA to the emulated NPU, as torch_npu.contrib.transfer_to_npu does on Ascend."""

from ascend_migrate.runtime.emulation import transfer_to_npu

transfer_to_npu()
