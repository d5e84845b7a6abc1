"""Switches the emulation sets and the watch reads in the child (one process, one emulation)."""

npu_installed = False  # `import torch_npu` ran: npu devices mean the CPU
cuda_is_npu = False  # transfer_to_npu ran: cuda devices and torch.cuda calls mean the NPU
watching = False  # the watch is installed in this process (the child of `run`; not a process the program spawned)
after_install: list = []  # called once `import torch_npu` has installed the device (the watch adds its notes)
