"""The optional packages, imported on demand, with one message that says what to install when one is missing."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

from ascend_migrate.weights.errors import MissingPackages

INSTALL_HINT = "pip install 'ascend-migrate[weights]'"


def require(name: str, purpose: str) -> ModuleType:
    """The module `name` (torch, mindspore, numpy, safetensors.numpy), or MissingPackages naming the extra."""
    if name == "mindspore":
        os.environ.setdefault("GLOG_v", "3")  # MindSpore's C++ log prints warnings on import unless told otherwise
    try:
        return importlib.import_module(name)
    except ImportError as error:
        package = name.split(".")[0]
        raise MissingPackages(f"{purpose} needs {package}, which is not installed ({error}); install it with: {INSTALL_HINT}") from None
