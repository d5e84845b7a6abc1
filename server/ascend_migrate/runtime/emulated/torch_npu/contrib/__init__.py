"""torch_npu.contrib of the emulation: transfer_to_npu, and module/function (runtime/affine.py) once torch_npu is imported."""
