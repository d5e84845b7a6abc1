"""Pickling frozen slotted dataclasses by position, which is what makes the knowledge-base cache and the results of
`scan --jobs` cheap to load.

Python pickles such a dataclass through the `__getstate__`/`__setstate__` that `dataclasses` generates, and
that calls `dataclasses.fields()` for every object it loads: 7,000 knowledge-base objects at every start, and
tens of thousands of findings that a parallel scan's workers send to the parent. Reducing to
`cls(*values)` runs the generated `__init__` instead (docs/performance.md has the measurements).
"""

from __future__ import annotations

import dataclasses
import operator


def pickled_by_position(cls: type) -> type:
    """Class decorator: pickle `cls` as `cls(*field_values)`. For dataclasses without `__post_init__`."""
    names = [field.name for field in dataclasses.fields(cls)]
    if len(names) < 2 or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: positional pickling needs two or more fields and no __post_init__")
    values = operator.attrgetter(*names)

    def __reduce__(self):
        return cls, values(self)

    # Installed on the class at decoration time, which mypy's method-assign check refuses by design.
    cls.__reduce__ = __reduce__  # type: ignore[method-assign,assignment]
    return cls
