"""The types the walker gives NumPy values (and the few Python ints and dicts that carry them), where a call's result is
known from the NumPy documentation without guessing a dtype or a rank.

A MindSpore tensor refuses a NumPy integer as an index (IndexError in mindspore 2.10.0, both eras: numpy.int64,
int32, uint8 scalars, 0-d and 1-d arrays; checked on CPU), where torch takes it (analysis/rules/numpy_index.py, MS217,
MS218). So an index array and its elements are typed:

| call (numpy 1.26 docs; each checked in numpy 1.26.4) | type |
|---|---|
| `numpy.where(condition)` (one argument), `numpy.nonzero(a)`, `a.nonzero()` of an array | a tuple of 1-D integer arrays (`INDEX_ARRAYS`) |
| `numpy.flatnonzero(a)` | a 1-D integer array (`INDEX_ARRAY`) |
| `numpy.arange(...)` given only int arguments, no dtype | a 1-D integer array |
| `numpy.random.permutation(n)` for an int n | a 1-D integer array (a permutation of an array keeps its dtype: not typed) |
| `numpy.argmax(a)`, `numpy.argmin(a)` without an axis | a NumPy integer (`NUMPY_INTEGER`) |
| `numpy.array(...)`, `numpy.asarray(...)` | an array of unknown dtype and rank (`NUMPY_ARRAY`): data, no index |
| `random.randint(a, b)`, `random.randrange(...)` (Python's random) | a Python int (`builtins.int`) |

An element of a 1-D integer array taken with a Python int is a NumPy integer; one taken with anything else (a slice,
a list, a name of unknown type) is not typed. A dict built empty (`groups = {}`, `self.groups = {}`) whose every
`groups[key] = value` gives one type has elements of that type (`DICT` + `[type]`): the siamese_network example's
`self.grouped_examples[i] = np.where(np_arr == i)[0]`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

NUMPY_ARRAY = "numpy.ndarray"  # tensor_constructors reads any type starting so as data
INDEX_ARRAY = "numpy.ndarray[integer, 1-D]"
INDEX_ARRAYS = "tuple[numpy.ndarray[integer, 1-D]]"
NUMPY_INTEGER = "numpy.integer"
PYTHON_INT = "builtins.int"  # as walker._NUMBER_ANNOTATIONS spells it
DICT = "builtins.dict"  # an empty dict literal; DICT[T] once its assigned values agree on T; MIXED_DICT when they do not
MIXED_DICT = "builtins.dict[?]"
_ARRAYS_OF_DATA = frozenset({"numpy.array", "numpy.asarray"})
PYTHON_INTS = frozenset({"random.randint", "random.randrange"})
_ARG_EXTREMES = frozenset({"numpy.argmax", "numpy.argmin"})

Infer = Callable[[ast.expr], "str | None"]


def is_python_int(node: ast.expr, infer: Infer) -> bool:
    """A literal int (not a bool), its negation, or an expression typed as a Python int."""
    if type(node) is ast.UnaryOp and type(node.op) is ast.USub:
        node = node.operand
    if type(node) is ast.Constant:
        return type(node.value) is int
    return infer(node) == PYTHON_INT


def call_type(qualified: str, call: ast.Call, infer: Infer) -> str | None:
    """The type of `qualified(...)` for a callee rooted in numpy or Python's random, from the table above."""
    arguments, keywords = call.args, call.keywords
    if any(type(argument) is ast.Starred for argument in arguments):
        return None
    if qualified in PYTHON_INTS:
        return PYTHON_INT
    if qualified == "numpy.where":
        return INDEX_ARRAYS if len(arguments) == 1 and not keywords else None  # where(c, x, y) chooses values
    if qualified == "numpy.nonzero":
        return INDEX_ARRAYS if len(arguments) == 1 else None
    if qualified == "numpy.flatnonzero":
        return INDEX_ARRAY if len(arguments) == 1 else None
    if qualified == "numpy.arange":
        return INDEX_ARRAY if arguments and not keywords and all(is_python_int(argument, infer) for argument in arguments) else None
    if qualified == "numpy.random.permutation":
        return INDEX_ARRAY if len(arguments) == 1 and not keywords and is_python_int(arguments[0], infer) else None
    if qualified in _ARG_EXTREMES:
        return NUMPY_INTEGER if len(arguments) == 1 and not keywords else None
    if qualified in _ARRAYS_OF_DATA:
        return NUMPY_ARRAY
    return None


def method_type(receiver_type: str, method: str, call: ast.Call) -> str | None:
    """`a.nonzero()` of an array: a tuple of 1-D integer arrays."""
    if method == "nonzero" and receiver_type.startswith(NUMPY_ARRAY) and not call.args and not call.keywords:
        return INDEX_ARRAYS
    return None


def element_type(container: str, index: ast.expr, infer: Infer) -> str | None:
    """The type of `container[index]` for a container typed here."""
    if container == INDEX_ARRAYS:
        return INDEX_ARRAY if type(index) is ast.Constant and type(index.value) is int else None
    if container == INDEX_ARRAY:
        return NUMPY_INTEGER if is_python_int(index, infer) else None
    if container[:14] == "builtins.dict[" and container != MIXED_DICT:
        return container[14:-1]
    return None


def dict_after_write(container: str | None, value_type: str | None) -> str | None:
    """The type of a dict typed here after `container[key] = value`; None when the container is not one."""
    if container is None or not container.startswith(DICT):
        return None
    if container == DICT and value_type is not None:
        return f"{DICT}[{value_type}]"
    if container == f"{DICT}[{value_type}]":
        return container
    return MIXED_DICT
