"""Build a model from `FILE:CLASS`: this EXECUTES the user's file (like `ascend-migrate run`), and says so."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from ascend_migrate.weights.errors import WeightsError


def parse_model_reference(text: str) -> tuple[Path, str]:
    """`models/net.py:ResNet` → (Path("models/net.py"), "ResNet"); WeightsError when the form is wrong."""
    path, separator, name = text.rpartition(":")
    if not separator or not path or not name.isidentifier():
        raise WeightsError(f"{text!r}: expected FILE:CLASS, e.g. models/net.py:Net")
    return Path(path), name


def build_model(text: str) -> Any:
    """Import FILE (running its top-level code) and call CLASS() with no arguments."""
    path, name = parse_model_reference(text)
    if not path.is_file():
        raise WeightsError(f"{path}: no such file (from {text!r})")
    module_name = f"_ascend_migrate_model_{abs(hash(path.resolve()))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise WeightsError(f"{path}: not a Python file that can be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and pickling look classes up in sys.modules
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise WeightsError(f"{path}: importing it failed: {type(error).__name__}: {error}") from None
    factory = getattr(module, name, None)
    if factory is None:
        raise WeightsError(f"{path}: defines no {name!r}")
    try:
        return factory()
    except Exception as error:
        raise WeightsError(f"{text}: {name}() failed: {type(error).__name__}: {error} (the class must build with no arguments)") from None
