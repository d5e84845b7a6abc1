"""The emulated torch_npu (ascend-migrate run): the `npu` device runs on CPU. Never installed; only on the child's path."""

import sys

from ascend_migrate.runtime import affine
from ascend_migrate.runtime.emulation import install_torch_npu

__version__ = "2.14.0+emulated"
install_torch_npu(sys.modules[__name__])
affine.install(sys.modules[__name__])  # torch_npu.optim, torch_npu.contrib: imported by torch_npu's own start-up
