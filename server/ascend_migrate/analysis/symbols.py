"""What names mean: import bindings, local classes, and the simple local types the engine infers.

A binding is a small tuple `(kind, value)`:
- `("import", "torch.nn")`: the name is bound by an import to that qualified name;
- `("class", ClassInfo)`: a class defined in this module;
- `("value", type_or_None)`: a variable; its type when the engine could infer one (see `infer`);
- `("function", returned)`: a function defined here (it shadows whatever the name meant before); `returned`
  is what its return statements give when they agree (a `Returned`, see `returned_shape`), else None.

Types are qualified class names (`torch.Tensor`, `torch.optim.Adam`, `torch.nn.Linear`) or `local:Name` for a
class of this module. `family(type)` lists the type and what it derives from, for method look-ups.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

TENSOR = "torch.Tensor"
MODULE = "torch.nn.Module"
OPTIMIZER = "torch.optim.Optimizer"
# torch.optim also holds what is no optimizer: learning-rate schedulers (torch.optim.lr_scheduler.*, swa_utils.SWALR,
# subclasses of LRScheduler) and a module (swa_utils.AveragedModel, a torch.nn.Module): their step()/state_dict() are
# no optimizer's (checked in torch 2.13.0: SWALR derives from LRScheduler, AveragedModel from Module).
_NOT_OPTIMIZERS = (".lr_scheduler.", ".swa_utils.")
_OPTIMIZER_NAMESPACES = ("torch.optim.", "torch_npu.optim.", "apex.optimizers.")
_MODULES_IN_OPTIM = frozenset({"torch.optim.swa_utils.AveragedModel"})
GRAD_SCALER = "torch.amp.GradScaler"  # torch.cuda.amp.GradScaler, torch.amp.GradScaler and their module paths
# What a function returns, as far as the walker follows it: a type, a tuple of them (a tuple or list literal;
# a one-element list counts as its element, as in Lightning's `return [optimizer], [scheduler]`), or a
# frozenset of (key, type) pairs (a dict literal with string keys, Lightning's {"optimizer": ...}).
Returned = str | tuple | frozenset
TENSOR_DATASETS = ("torch.utils.data.TensorDataset", "torch.utils.data.dataset.TensorDataset")
# MindSpore's counterparts, tracked so that a re-scan after a fix still reports the torch-only calls left on them
# (`model.to(device)` on a Cell subclass, `loss.backward()` on a mint result: issue 17). A Cell counts as a
# module, a MindSpore optimizer as an optimizer, a mindspore/mint/ops function's result as a tensor.
_MINDSPORE_CELLS = ("mindspore.nn.", "mindspore.mint.nn.")
# A MindSpore cell a fix wrote that still answers to the torch class's attribute entries: the fix of
# `nn.init.uniform_(emb.weight, ...)` keeps `emb.weight`, which the next pass renames (MS222).
_FIXED_FROM = {"mindspore.nn.Embedding": "torch.nn.Embedding"}
_MINDSPORE_OPTIMIZERS = frozenset(
    "SGD Adam AdamW AdamWeightDecay Momentum RMSProp Adagrad Adadelta Adamax AdaMax Lamb LARS FTRL ProximalAdagrad "
    "ASGD Rprop LazyAdam Optimizer".split()
)
_MINDSPORE_TENSOR_NAMESPACES = ("mindspore.ops.", "mindspore.mint.")

Binding = tuple  # (kind, value)

# torch functions whose result is not a tensor, though their names look like tensor functions.
_NON_TENSOR_FUNCTIONS = frozenset(
    "torch.device torch.dtype torch.no_grad torch.enable_grad torch.inference_mode torch.set_grad_enabled "
    "torch.manual_seed torch.seed torch.save torch.load torch.is_tensor torch.is_floating_point torch.numel "
    "torch.get_default_dtype torch.set_default_dtype torch.is_grad_enabled torch.compile torch.autocast "
    "torch.set_printoptions torch.get_num_threads torch.set_num_threads torch.use_deterministic_algorithms "
    "torch.Generator torch.Size torch.finfo torch.iinfo torch.is_complex torch.is_nonzero torch.equal "
    "torch.allclose torch.broadcast_shapes torch.typename".split()
)
_TENSOR_NAMESPACES = ("torch.", "torch.nn.functional.", "torch.linalg.", "torch.fft.", "torch.special.")
_NON_TENSOR_NAMESPACES = (
    "torch.cuda.", "torch.backends.", "torch.distributed.", "torch.utils.", "torch.jit.", "torch.fx.",
    "torch.onnx.", "torch.autograd.", "torch.optim.", "torch.hub.", "torch.multiprocessing.", "torch.amp.",
    "torch.profiler.", "torch.testing.", "torch.nn.init.", "torch.nn.utils.", "torch.npu.", "torch.compiler.",
)
# Tensor methods whose result is not a tensor.
NON_TENSOR_METHODS = frozenset(
    "item tolist size dim numel data_ptr is_contiguous element_size nelement ndimension get_device type "
    "numpy backward register_hook is_floating_point is_complex stride storage untyped_storage equal "
    "allclose __len__ cpu_numpy is_pinned is_shared is_set_to".split()
)


# The pre-pass hangs each module-level class's ClassInfo on its ast.ClassDef under this name (ast declares no
# such attribute, hence getattr/setattr), so the walk uses that definition's own info even if the name is reused.
CLASS_INFO_ATTRIBUTE = "class_info"


@dataclass
class ClassInfo:
    name: str
    bases: tuple[str, ...]  # qualified names of the bases, or local:Name
    attributes: dict[str, str | None] = field(default_factory=dict)  # self.x → type, filled while walking
    methods: frozenset[str] = frozenset()  # the names its body defines with def
    returns: dict[str, Returned] = field(default_factory=dict)  # method → what it returns, filled while walking


def defined_methods(node: ast.ClassDef) -> frozenset[str]:
    return frozenset(item.name for item in node.body if type(item) is ast.FunctionDef or type(item) is ast.AsyncFunctionDef)


def is_tensor_function(qualified: str) -> bool:
    if qualified in _NON_TENSOR_FUNCTIONS or qualified.startswith(_NON_TENSOR_NAMESPACES):
        return False
    if qualified.startswith(_MINDSPORE_TENSOR_NAMESPACES) and not qualified.startswith("mindspore.mint.nn.") and qualified.count(".") <= 3:
        last = qualified.rsplit(".", 1)[-1]
        return last[:1].islower() and not last.startswith("_")
    if not qualified.startswith(_TENSOR_NAMESPACES):
        return False
    last = qualified.rsplit(".", 1)[-1]
    return last[:1].islower() and not last.startswith("_") and qualified.count(".") <= 3


def is_optimizer_class(qualified: str) -> bool:
    """Whether `qualified` names an optimizer class (torch.optim.Adam, torch_npu.optim.NpuFusedAdam), not a scheduler."""
    return qualified.startswith(_OPTIMIZER_NAMESPACES) and not any(part in qualified for part in _NOT_OPTIMIZERS)


DEQUE = "collections.deque"


def constructed_type(qualified: str) -> str | None:
    """The type of `qualified(...)` when `qualified` is a torch class we track, else None."""
    last = qualified.rsplit(".", 1)[-1]
    if not last[:1].isupper():
        return DEQUE if qualified == DEQUE else None  # torch.tensor takes a deque, mindspore.tensor does not (reinforce)
    if qualified in (TENSOR, "torch.nn.Parameter", "torch.nn.parameter.Parameter"):
        return TENSOR
    if qualified in _MODULES_IN_OPTIM or is_optimizer_class(qualified):
        return qualified
    if qualified.startswith("torch.nn.") and not qualified.startswith(("torch.nn.functional.", "torch.nn.init.", "torch.nn.utils.")):
        return qualified
    if last == "GradScaler" and qualified.startswith(("torch.cuda.amp.", "torch.amp.", "torch.npu.amp.", "torch_npu.npu.amp.")):
        return GRAD_SCALER
    if qualified.startswith(("mindspore.experimental.optim.", *_MINDSPORE_CELLS)) and not qualified.startswith("mindspore.mint.nn.functional."):
        return qualified
    if qualified in TENSOR_DATASETS:
        return TENSOR_DATASETS[0]  # the MindSpore route's DataLoader fix batches a variable holding one
    if qualified == "mindspore.dataset.NumpySlicesDataset":
        return qualified  # what a TensorDataset's fix wrote: no len() and [i] for a loader with a collate_fn (sequence_data)
    if last in KERAS_METRICS and qualified.startswith(_KERAS_METRIC_MODULES):
        return f"{KERAS_METRIC_PREFIX}{last}"  # a custom loop's metric, whose calls the MindSpore route rewrites
    if qualified in _MINDSPORE_METRICS:
        return qualified  # its eval() is the metric's value, not a module's inference mode (MS203)
    return None


def element(returned: Returned | None, index: ast.expr) -> str | None:
    """The type of `returned[index]` for a constant index or key, when known."""
    if type(index) is not ast.Constant:
        return None
    key = index.value
    if type(returned) is tuple and type(key) is int and -len(returned) <= key < len(returned):
        item = returned[key]
        return item if type(item) is str else None
    if type(returned) is frozenset and type(key) is str:
        for name, item in returned:
            if name == key:
                return item if type(item) is str else None
    return None


class TypeSystem:
    """Derivation of tracked types, with the module's own classes."""

    def __init__(self, classes: dict[str, ClassInfo]) -> None:
        self.classes = classes
        self._families: dict[str, tuple[str, ...]] = {}

    def family(self, type_name: str | None) -> tuple[str, ...]:
        if not type_name:
            return ()
        cached = self._families.get(type_name)
        if cached is None:
            cached = self._families[type_name] = self._compute_family(type_name, set())
        return cached

    def _compute_family(self, type_name: str, seen: set[str]) -> tuple[str, ...]:
        if type_name in seen:
            return ()
        seen.add(type_name)
        if type_name.startswith("local:"):
            info = self.classes.get(type_name[6:])
            result = [type_name]
            for base in info.bases if info else ():
                for item in self._compute_family(base, seen):
                    if item not in result:
                        result.append(item)
            return tuple(result)
        if type_name == TENSOR:
            return (TENSOR,)
        if type_name in _MODULES_IN_OPTIM:
            return (type_name, MODULE)
        if is_optimizer_class(type_name):
            return (type_name, OPTIMIZER) if type_name != OPTIMIZER else (OPTIMIZER,)
        if type_name.startswith("torch.nn."):
            return (type_name, MODULE) if type_name != MODULE else (MODULE,)
        last = type_name.rsplit(".", 1)[-1]
        if type_name.startswith("mindspore.experimental.optim.") or (type_name.startswith("mindspore.nn.") and last in _MINDSPORE_OPTIMIZERS):
            return (type_name, OPTIMIZER)
        if type_name in _FIXED_FROM:
            return (type_name, _FIXED_FROM[type_name], MODULE)
        if type_name.startswith(_MINDSPORE_CELLS):
            return (type_name, MODULE)
        if _is_keras_layer(type_name):  # self in a subclass of Dense is a Keras layer: Layer's methods and hooks apply
            return (type_name, KERAS_LAYER) if type_name != KERAS_LAYER else (KERAS_LAYER,)
        return (type_name,)

    def is_module(self, type_name: str | None) -> bool:
        return MODULE in self.family(type_name)


KERAS_METRIC_PREFIX = "tensorflow.keras.metrics."
# The Keras metrics whose objects the walker types (analysis/rules/tf_metrics.py rewrites their calls).
KERAS_METRICS = frozenset({"Mean", "SparseCategoricalAccuracy", "CategoricalAccuracy"})
_MINDSPORE_METRICS = frozenset({"mindspore.train.Loss", "mindspore.train.Accuracy", "mindspore.train.MAE", "mindspore.train.MSE"})
_KERAS_METRIC_MODULES = (KERAS_METRIC_PREFIX, "keras.metrics.", "tf_keras.metrics.", "tensorflow.metrics.")
# A Keras cross-entropy built with from_logits=True: the walker types its objects so that their calls are found in any
# function (analysis/rules/tf_loss_order.py swaps their arguments: MindSpore's loss Cells take (logits, labels)).
KERAS_LOGITS_LOSS_SUFFIX = "(from_logits=True)"
KERAS_LOGITS_LOSSES = frozenset({"SparseCategoricalCrossentropy", "CategoricalCrossentropy"})
KERAS_LOSS_REDUCTIONS = {"sum_over_batch_size": "mean", "sum": "sum", "none": "none"}  # Keras' → MindSpore's
_KERAS_LOGITS_LOSS_KEYWORDS = frozenset({"from_logits", "reduction", "name"})
_KERAS_LOSS_MODULES = ("tensorflow.keras.losses.", "keras.losses.", "tf_keras.losses.", "tensorflow.losses.")


def keras_logits_loss_type(qualified: str, call: ast.Call) -> str | None:
    """`tensorflow.keras.losses.NAME(from_logits=True)` for such a call written with that literal keyword (and at most
    a literal reduction and a name), else None."""
    last = qualified.rsplit(".", 1)[-1]
    if last not in KERAS_LOGITS_LOSSES or not qualified.startswith(_KERAS_LOSS_MODULES):
        return None
    given = {keyword.arg: keyword.value for keyword in call.keywords}
    from_logits, reduction = given.get("from_logits"), given.get("reduction", ast.Constant("sum_over_batch_size"))
    if not (type(from_logits) is ast.Constant and from_logits.value is True) or call.args or not set(given) <= _KERAS_LOGITS_LOSS_KEYWORDS:
        return None
    if not (type(reduction) is ast.Constant and reduction.value in KERAS_LOSS_REDUCTIONS):
        return None  # only an object the rule rewrites is typed: a call swapped on another would be swapped back
    return f"tensorflow.keras.losses.{last}{KERAS_LOGITS_LOSS_SUFFIX}"


KERAS_LAYER = "tensorflow.keras.Layer"  # as the tables spell Keras' layer base (keras.layers.Layer is an alias)
KERAS_VARIABLE = "tensorflow.Variable"  # what a Keras layer's add_weight returns
_KERAS_ROOTS = ("tensorflow.keras.", "tensorflow.compat.v1.keras.", "tf_keras.", "keras.")


def _is_keras_layer(type_name: str) -> bool:
    """A Keras layer class, in any spelling of Keras (`keras.layers.Dense`, `tf.keras.Layer`). Models are left out:
    the tables answer their hooks (`tensorflow.keras.Model.call`) apart, and two findings on one `def call` is noise."""
    root = next((root for root in _KERAS_ROOTS if type_name.startswith(root)), None)
    if root is None:
        return False
    rest = type_name[len(root):]
    return rest == "Layer" or (rest.startswith("layers.") and rest.count(".") == 1 and rest[7:8].isupper())


def import_bindings(statement: ast.Import | ast.ImportFrom) -> list[tuple[str, Binding]]:
    """The names an import statement binds, with what they are bound to."""
    bound: list[tuple[str, Binding]] = []
    if isinstance(statement, ast.Import):
        for alias in statement.names:
            if alias.asname:
                bound.append((alias.asname, ("import", alias.name)))
            else:
                root = alias.name.split(".", 1)[0]
                bound.append((root, ("import", root)))
    else:
        if statement.level or not statement.module:
            for alias in statement.names:  # relative imports are the project's own code
                bound.append((alias.asname or alias.name, ("value", None)))
            return bound
        for alias in statement.names:
            if alias.name == "*":
                continue
            bound.append((alias.asname or alias.name, ("import", f"{statement.module}.{alias.name}")))
    return bound


def dotted_parts(node: ast.expr) -> tuple[str, list[str]] | None:
    """`a.b.c` → ("a", ["b", "c"]); None unless the expression is a name followed by attributes."""
    parts: list[str] = []
    while type(node) is ast.Attribute:
        parts.append(node.attr)
        node = node.value
    if type(node) is not ast.Name:
        return None
    parts.reverse()
    return node.id, parts


def qualify(binding: Binding | None, parts: list[str]) -> str | None:
    """The qualified name of `root.parts` when `root` is bound by an import, else None."""
    if binding is None or binding[0] != "import":
        return None
    return ".".join([binding[1], *parts]) if parts else binding[1]
