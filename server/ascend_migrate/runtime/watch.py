"""The child's watch over the user's program (imports torch): device arguments, torch.cuda calls left after
migration, unsupported APIs, DataParallel, optimizer steps, and the shapes of every torch call the user makes."""

from __future__ import annotations

import functools
import inspect
import os
import sys

import torch
from torch.overrides import TorchFunctionMode, resolve_name

from ascend_migrate.runtime import devices, state
from ascend_migrate.runtime import recorder as calls

MAX_SHAPES_PER_SITE = 20  # distinct shape signatures kept per call site (the range is still exact)
# Huawei's dynamic_shape mode skips these: conversions and copies whose shape follows their input.
_SKIPPED_METHODS = frozenset(("cpu", "cuda", "npu", "long", "float", "int", "detach", "to", "contiguous", "type",
                              "requires_grad_", "clone", "numpy", "item", "size", "dim", "tolist", "__len__",
                              "__format__", "__repr__", "__bool__", "__float__", "__int__", "__index__", "__hash__",
                              "__get__", "__set__", "backward", "register_hook", "retain_grad", "zero_",
                              "data_ptr", "numel", "is_floating_point", "__iter__", "__array__"))


_OVERRIDES_FILE = torch.overrides.__file__  # handle_torch_function: a Python-level torch function was called


class StepsReached(SystemExit):
    """Raised after the N-th optimizer step: a SystemExit, so the user's `except Exception` lets it through."""


class Watch(TorchFunctionMode):
    """Sees every torch function and Tensor method: moves NPU devices to the CPU, notes CUDA devices, and records
    the shapes at each call the user's own code makes."""

    def __init__(self, recorder: calls.Recorder, unsupported_methods: frozenset[str] = frozenset(),
                 restrictions: dict[str, list[dict]] | None = None) -> None:
        super().__init__()
        self.recorder = recorder
        self.unsupported_methods = unsupported_methods  # torch.Tensor.X names the knowledge base calls unsupported
        self.restrictions = restrictions or {}  # api → the restriction rows (`when` conditions) of the knowledge base
        self.sites: dict[tuple[str, tuple], Site] = {}  # (api, the call stack) → its shapes
        self._names: dict[object, str] = {}

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func is torch.device:
            return _device(func, args, kwargs)
        device = None  # the device the call names, before the emulation puts it on the CPU (devices.py tags it)
        if state.npu_installed or state.cuda_is_npu:
            device = _requested_device(func, args, kwargs)
            args, kwargs = _emulated_devices(func, args, kwargs)
        caller = sys._getframe(1)
        if caller.f_code.co_filename == _OVERRIDES_FILE and caller.f_back is not None:
            caller = caller.f_back.f_back or caller  # a Python torch function (F.cross_entropy): its caller
        internal = calls.is_internal(caller.f_code.co_filename)
        if internal and not state.npu_installed:
            return func(*args, **kwargs)
        name = self._name(func)
        if func is _TENSOR_TO and state.npu_installed:
            self._note_channels_last(caller if not internal else None, args, kwargs, device)
        if internal:
            return devices.placed(name, args, kwargs, func(*args, **kwargs), device)
        if state.npu_installed:
            mix = devices.mixed(name, args, kwargs)
            if mix:
                self.recorder.observe("device-mix", name, caller, pattern=mix[0], seen=mix[1])
            muls = devices.int64_times_number(name, args)
            if muls:
                self.recorder.observe("device-mix", name, caller, pattern="int64-multiply", seen=muls)
        if not state.cuda_is_npu and _names_cuda(func, name, args, kwargs):
            self.recorder.observe("device-string", "cuda", caller, call=name)
        if name in self.unsupported_methods:  # noted, then run on the CPU so that one run finds them all
            self.recorder.observe("unsupported-call", name, caller, arguments=_brief(args[1:], kwargs))
        for row in self.restrictions.get(name, ()):
            met = restriction_met(row, name, args, kwargs)
            # "restriction": a call met it (a finding); "restriction-clear": a call at this line did not (a static
            # finding there is harmless when no call met it)
            self.recorder.observe("restriction" if met else "restriction-clear", name, caller, entry=row["key"],
                                  **({"argument": met[0], "value": met[1]} if met else {}))
        result = func(*args, **kwargs)
        if state.npu_installed:
            result = devices.placed(name, args, kwargs, result, device)
        short = name.rsplit(".", 1)[-1]
        if short not in _SKIPPED_METHODS:
            self._record_shapes(name, func, caller, args, kwargs, result)
        return result

    def _note_channels_last(self, caller, args, kwargs, device) -> None:
        """A channels_last layout reaching the NPU (Ascend takes only contiguous tensors there): a tensor moved with its
        layout kept (preserve_format, the default), or `Module.to(memory_format=torch.channels_last)` (torch's calls
        for each parameter: noted at the user's line that called it). An explicit `memory_format` at the user's
        `Tensor.to` is the restriction row's (NPU204), not noted twice."""
        if not args or not isinstance(args[0], torch.Tensor):
            return
        target = device or devices.device_of(args[0])
        if target != devices.NPU:
            return
        asked = kwargs.get("memory_format", torch.preserve_format)
        if asked is torch.preserve_format:
            layout = devices.channels_last(args[0])
        elif asked in (torch.channels_last, torch.channels_last_3d) and caller is None:
            layout = str(asked).rsplit(".", 1)[-1]
        else:
            return
        frame = caller or calls.first_user_frame()
        if layout and frame is not None:
            self.recorder.observe("channels-last", "torch.channels_last", frame, value=layout,
                                  shape=list(args[0].shape))

    def _name(self, func) -> str:
        name = self._names.get(func)
        if name is None:
            try:
                name = resolve_name(func) or getattr(func, "__qualname__", repr(func))
            except Exception:
                name = getattr(func, "__qualname__", repr(func))
            name = name.replace("torch._C.TensorBase.", "torch.Tensor.").replace("torch._tensor.Tensor.", "torch.Tensor.")
            self._names[func] = name
        return name

    def _record_shapes(self, name, func, caller, args, kwargs, result) -> None:
        operator = _dynamic_operator(name, args, kwargs)
        # A site is the call stack, not the line: a layer called from two places with two fixed sizes is two sites
        key = (operator or name, calls.stack_key(caller))
        site = self.sites.get(key)
        if site is None:
            site = self.sites[key] = Site(operator or name, caller.f_code.co_filename, caller.f_lineno,
                                         calls.call_stack(caller), data_dependent=operator is not None)
        site.add(_shapes(args) + _shapes(kwargs.values()), _shapes((result,)), iterations)

    def shape_records(self) -> list[dict]:
        counted = iterations > 0 or loop_built
        return [site.to_json() for site in self.sites.values() if site.data_dependent or site.varies(counted)]


def restrictions_by_name(rows: list[dict]) -> dict[str, list[dict]]:
    """The plan's restriction rows by the name the watch resolves (torch.nn.functional.interpolate, torch.Tensor.X)."""
    found: dict[str, list[dict]] = {}
    for row in rows:
        found.setdefault(row["api"], []).append(row)
    return found


def restriction_met(row: dict, name: str, args, kwargs) -> tuple[str, str] | None:
    """(argument, value as written) of the first `when` condition this call meets, or None. The values are the ones
    really passed: a variable holding `torch.contiguous_format` is contiguous_format here, whatever its name."""
    positional = args[1:] if name.startswith("torch.Tensor.") else args  # a method's positions count after self
    for condition in row["when"]:
        argument = condition["argument"]
        if condition.get("dtypes"):
            met = _dtype_met(condition, args[0] if argument == "self" and args else None, positional, kwargs)
            if met:
                return argument, met
            continue
        if argument in kwargs:
            value = kwargs[argument]
        elif condition["position"] is not None and condition["position"] < len(positional):
            value = positional[condition["position"]]
        else:
            if condition["missing"]:
                return argument, "(not passed: the default)"
            continue
        if not condition["present"] or (condition["unless_number"] and type(value) in (int, float)):
            continue
        written = _written(value)
        if condition["values"]:
            if any(part in condition["values"] for part in written):
                return argument, ", ".join(written)
        elif condition["other_than"]:
            if not written or any(part not in condition["other_than"] for part in written):
                return argument, ", ".join(written) or _brief((value,), {})
        elif value is not None:
            return argument, ", ".join(written) or _brief((value,), {})
    return None


def _dtype_met(condition: dict, receiver, positional, kwargs) -> str | None:
    """The dtype of the tensor passed as the condition's argument (the Tensor itself for `self`) when the table does
    not list it, as `dtype int64`; None for a listed dtype or a value that is no tensor."""
    value = receiver
    if condition["argument"] != "self":
        value = kwargs.get(condition["argument"])
        if value is None and condition["position"] is not None and condition["position"] < len(positional):
            value = positional[condition["position"]]
    if not isinstance(value, torch.Tensor):
        return None
    dtype = str(value.dtype).rsplit(".", 1)[-1]
    if dtype in condition["dtypes"]:
        return None
    return f"dtype {dtype}"


def _written(value) -> list[str]:
    """A passed value as the knowledge base writes values (`True`, `nearest`, `channels_last`, `1`); a tuple or list
    gives each element's; [] for values written otherwise (tensors, objects)."""
    if isinstance(value, (tuple, list)):
        parts = [_written(item) for item in value]
        return [part for written in parts for part in written] if all(parts) else []
    if value is None or isinstance(value, (bool, int, float, str)):
        return [str(value)]
    if isinstance(value, (torch.memory_format, torch.dtype, torch.layout)):
        return [str(value).rsplit(".", 1)[-1]]
    return []


class EmulatedDevices(TorchFunctionMode):
    """The device emulation alone, without notes: for the processes the program starts itself (mp.spawn workers import
    torch_npu again), which the watch does not reach."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func is torch.device:
            return _device(func, args, kwargs)
        args, kwargs = _emulated_devices(func, args, kwargs)
        return func(*args, **kwargs)


def _device(func, args, kwargs):
    """A device value stays an npu device (cuda means npu under transfer_to_npu)."""
    return func(*(_npu_for_cuda(value) for value in args), **kwargs) if state.cuda_is_npu else func(*args, **kwargs)


class Site:
    """The shapes one call site (a call stack) saw: distinct input and output signatures, how many calls, and whether
    a new signature came once the site was in its stride (what recompiles on Ascend)."""

    __slots__ = ("api", "path", "line", "stack", "data_dependent", "calls", "inputs", "outputs", "signatures",
                 "first_iteration", "repeated", "new_in_later_iteration", "new_after_repeat")

    def __init__(self, api: str, path: str, line: int, stack: list[str], data_dependent: bool) -> None:
        self.api, self.path, self.line, self.stack, self.data_dependent = api, path, line, stack, data_dependent
        self.calls = 0
        self.inputs: list[tuple] = []
        self.outputs: list[tuple] = []
        self.signatures: set[tuple] = set()
        self.first_iteration: int | None = None
        self.repeated = False  # a signature came a second time
        self.new_in_later_iteration = False  # a signature first seen after the site's first iteration
        self.new_after_repeat = False  # a signature first seen after another one repeated

    def add(self, inputs: tuple, outputs: tuple, iteration: int = 0) -> None:
        self.calls += 1
        if self.first_iteration is None:
            self.first_iteration = iteration
        signature = (inputs, outputs)
        if signature in self.signatures:
            self.repeated = True
        elif len(self.signatures) < MAX_SHAPES_PER_SITE:
            if self.signatures:
                self.new_in_later_iteration |= iteration > self.first_iteration
                self.new_after_repeat |= self.repeated
            self.signatures.add(signature)
        if inputs not in self.inputs and len(self.inputs) < MAX_SHAPES_PER_SITE:
            self.inputs.append(inputs)
        if outputs not in self.outputs and len(self.outputs) < MAX_SHAPES_PER_SITE:
            self.outputs.append(outputs)

    def varies(self, iterations_counted: bool) -> bool:
        """Shapes that compile again on Ascend: a new signature in a later iteration (data batches and optimizer
        steps count iterations), or, in a program that built neither, a new one after the known ones repeated.
        Several fixed sizes within one iteration (a loop over parameters, a weight init over layers, blocks of a
        Sequential sharing a line) each compile once: they do not vary."""
        return self.new_in_later_iteration if iterations_counted else self.new_after_repeat

    def to_json(self) -> dict:
        return {"kind": "shapes", "api": self.api, "path": self.path, "line": self.line, "stack": self.stack,
                "data_dependent": self.data_dependent, "calls": self.calls,
                "inputs": [list(map(list, shapes)) for shapes in self.inputs],
                "outputs": [list(map(list, shapes)) for shapes in self.outputs]}


def _shapes(values) -> tuple:
    shapes = []
    for value in values:
        if isinstance(value, torch.Tensor):
            shapes.append(tuple(value.shape))
        elif isinstance(value, (tuple, list)) and value and isinstance(value[0], torch.Tensor):
            shapes.extend(tuple(item.shape) for item in value if isinstance(item, torch.Tensor))
    return tuple(shapes)


# Ops whose output shape depends on the data (dynamic_output_shape in native_functions.yaml; mappings/
# npu_dynamic_shape.yaml), by the name resolve_name gives → the api of the knowledge-base entry.
_DYNAMIC_NAMES = {
    "torch.nonzero": "torch.nonzero", "torch.Tensor.nonzero": "torch.Tensor.nonzero",
    "torch.argwhere": "torch.argwhere", "torch.Tensor.argwhere": "torch.Tensor.argwhere",
    "torch.masked_select": "torch.masked_select", "torch.Tensor.masked_select": "torch.Tensor.masked_select",
    "torch.unique": "torch.unique", "torch.Tensor.unique": "torch.Tensor.unique",
    "torch.functional.unique": "torch.unique",
    "torch.unique_consecutive": "torch.unique_consecutive", "torch.Tensor.unique_consecutive": "torch.Tensor.unique_consecutive",
    "torch.functional.unique_consecutive": "torch.unique_consecutive",
    "torch.bincount": "torch.bincount", "torch.Tensor.bincount": "torch.Tensor.bincount",
}


def _dynamic_operator(name: str, args, kwargs) -> str | None:
    """The knowledge-base api of a data-dependent-shape call, or None for a shape-static one."""
    found = _DYNAMIC_NAMES.get(name)
    if found:
        return found
    if name == "torch.where" and len(args) + len(kwargs) == 1:
        return "torch.where"
    if name in ("torch.repeat_interleave", "torch.Tensor.repeat_interleave"):
        repeats = args[1] if len(args) > 1 else kwargs.get("repeats")
        if isinstance(repeats, torch.Tensor) and repeats.numel() > 1 and kwargs.get("output_size") is None:
            return name
    if name == "torch.nn.functional.one_hot":
        classes = args[1] if len(args) > 1 else kwargs.get("num_classes", -1)
        if classes == -1:
            return name
    if name == "torch.Tensor.__getitem__" and len(args) > 1 and _has_boolean_index(args[1]):
        return "x[mask]"
    if name == "torch.Tensor.__setitem__" and len(args) > 1 and _has_boolean_index(args[1]):
        return "x[mask]=value"
    return None


def _has_boolean_index(index) -> bool:
    items = index if isinstance(index, tuple) else (index,)
    return any(isinstance(item, torch.Tensor) and item.dtype in (torch.bool, torch.uint8) for item in items)


def _requested_device(func, args, kwargs) -> str | None:
    """The device a call names (`device=`, `Tensor.to(device)`, `Tensor.cpu()`), as devices.NPU or CPU, else None."""
    if "device" in kwargs:
        value = kwargs["device"]
    elif func is _TENSOR_TO and len(args) > 1:
        value = args[1]
        if isinstance(value, torch.Tensor):
            return devices.device_of(value)  # x.to(other): other's device and dtype
    elif func is _TENSOR_CPU:
        return devices.CPU
    else:
        return None
    if type(value) is int and state.npu_installed:
        return devices.NPU  # a bare index is a device of the NPU once torch_npu is imported
    return devices.requested(value, ("npu", "cuda") if state.cuda_is_npu else ("npu",))


def _is_device(value, device_type: str) -> bool:
    if isinstance(value, str):
        return value == device_type or value.startswith(device_type + ":")
    return isinstance(value, torch.device) and value.type == device_type


def _names_cuda(func, name, args, kwargs) -> bool:
    if _is_device(kwargs.get("device"), "cuda"):
        return True
    return name == "torch.Tensor.to" and any(_is_device(value, "cuda") for value in args[1:])


def _npu_for_cuda(value):
    return "npu" + value[4:] if isinstance(value, str) and _is_device(value, "cuda") else value


def _emulated_devices(func, args, kwargs):
    """Arguments with npu (and under transfer_to_npu, cuda) devices replaced by the CPU."""
    if func is _PARSE_TO:
        return args, kwargs  # Module.to parses its device first: each tensor's own `to` is mapped (and tagged) then
    types = ("npu", "cuda") if state.cuda_is_npu else ("npu",)

    def on_cpu(value):
        return "cpu" if any(_is_device(value, kind) for kind in types) else value

    if "device" in kwargs:
        kwargs = {**kwargs, "device": on_cpu(kwargs["device"])}
    if args and any(isinstance(value, (str, torch.device)) for value in args):
        args = tuple(on_cpu(value) for value in args)
    if state.npu_installed:  # a bare index is a device of the current accelerator, which torch_npu makes the NPU
        if type(kwargs.get("device")) is int:
            kwargs = {**kwargs, "device": "cpu"}
        if func is _TENSOR_TO and len(args) > 1 and type(args[1]) is int:
            args = (args[0], "cpu", *args[2:])
    return args, kwargs


_TENSOR_TO = torch.Tensor.to
_TENSOR_CPU = torch.Tensor.cpu
_PARSE_TO = torch._C._nn._parse_to


def watch_cuda_calls(recorder: calls.Recorder) -> None:
    """Every public torch.cuda function (and Tensor/Module.cuda) notes a call from user code, then runs as CPU torch
    does; under transfer_to_npu the remapped names are the NPU's and are not noted."""

    def wrap(name: str, function):
        @functools.wraps(function)
        def watched(*arguments, **keywords):
            caller = calls.user_caller()
            current = getattr(torch.cuda, name, None)
            if state.cuda_is_npu and current is not None and current is not watched:
                return current(*arguments, **keywords)  # transfer_to_npu replaced it after we wrapped
            if caller is not None:
                recorder.observe("cuda-call", f"torch.cuda.{name}", caller, arguments=_brief(arguments, keywords))
            return function(*arguments, **keywords)

        return watched

    for name, value in list(vars(torch.cuda).items()):
        if name.startswith("_") or inspect.isclass(value) or inspect.ismodule(value) or not callable(value):
            continue
        setattr(torch.cuda, name, wrap(name, value))
    original_module_cuda = torch.nn.Module.cuda

    def module_cuda(self, device=None):
        caller = calls.user_caller()
        if caller is not None:
            recorder.observe("cuda-call", "torch.nn.Module.cuda", caller)
        return original_module_cuda(self, device)

    torch.nn.Module.cuda = module_cuda
    original_tensor_cuda = torch.Tensor.cuda

    def tensor_cuda(self, *arguments, **keywords):
        caller = calls.user_caller()
        if caller is not None:
            recorder.observe("cuda-call", "torch.Tensor.cuda", caller)
        return original_tensor_cuda(self, *arguments, **keywords)

    torch.Tensor.cuda = tensor_cuda


def refuse_data_parallel(recorder: calls.Recorder) -> None:
    """torch.nn.DataParallel is not supported on Ascend: refuse it where the user builds one."""
    original_init = torch.nn.DataParallel.__init__

    def __init__(self, module, *arguments, **keywords):
        caller = calls.user_caller()
        if caller is not None:
            recorder.observe("unsupported-call", "torch.nn.DataParallel", caller)
            raise RuntimeError("torch.nn.DataParallel is not supported on Ascend NPU (ascend-migrate run refuses it as "
                               "Ascend does): use torch.nn.parallel.DistributedDataParallel with one process per device")
        original_init(self, module, *arguments, **keywords)

    torch.nn.DataParallel.__init__ = __init__


# CUDA-only modules that do not import on Ascend (mappings/third_party.yaml: amp_C is apex's CUDA extension; NVIDIA
# apex is built on CUDA extensions, Ascend has its own apex build, which this emulation does not provide).
CUDA_ONLY_MODULES = ("amp_C", "apex")


class RefuseCudaOnly:
    """A meta-path finder: `import amp_C` and `import apex` fail as on Ascend, noted at the user's import line."""

    def __init__(self, recorder: calls.Recorder) -> None:
        self.recorder = recorder

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top not in CUDA_ONLY_MODULES:
            return None
        frame = calls.first_user_frame()
        if frame is not None:
            self.recorder.observe("cuda-only-import", name, frame)
        raise ModuleNotFoundError(f"No module named {name!r}: {top} is CUDA-only and does not import on Ascend NPU "
                                  "(ascend-migrate run refuses it as Ascend does)", name=name)


def refuse_cuda_only_imports(recorder: calls.Recorder) -> None:
    for name in [name for name in sys.modules if name.partition(".")[0] in CUDA_ONLY_MODULES]:
        del sys.modules[name]  # imported before the program started (by nothing of ours): import it again, refused
    sys.meta_path.insert(0, RefuseCudaOnly(recorder))


def watch_unsupported(recorder: calls.Recorder, names: list[str]) -> tuple[list[str], frozenset[str]]:
    """Note each use from user code of the knowledge base's unsupported names (torch.x.y): functions are wrapped,
    classes noted where the user constructs one, Tensor methods returned for the Watch (it sees every method call).

    They keep running on the CPU so that one run finds every such use; returns (names wrapped, Tensor methods)."""
    wrapped: list[str] = []
    methods = frozenset(name for name in names if name.startswith("torch.Tensor."))
    for name in names:
        module_name, _, attribute = name.rpartition(".")
        owner = sys.modules.get(module_name)
        function = getattr(owner, attribute, None) if owner is not None else None
        if name in methods or function is None or inspect.ismodule(function) or not callable(function):
            continue
        if inspect.isclass(function):
            if function is torch.nn.DataParallel or "__init__" not in vars(function):
                continue  # DataParallel is refused (refuse_data_parallel); an inherited __init__ belongs to its base
            type.__setattr__(function, "__init__", _noting_construction(recorder, name, vars(function)["__init__"]))
        else:
            setattr(owner, attribute, _noting(recorder, "unsupported-call", name, function))
        wrapped.append(name)
    return wrapped, methods


def _noting_construction(recorder, name, initialise):
    @functools.wraps(initialise)
    def __init__(self, *arguments, **keywords):
        caller = calls.user_caller()
        if caller is not None:
            recorder.observe("unsupported-call", name, caller, arguments=_brief(arguments, keywords))
        initialise(self, *arguments, **keywords)

    return __init__


def _noting(recorder, kind, name, function):
    @functools.wraps(function)
    def noted(*arguments, **keywords):
        caller = calls.user_caller()
        result = function(*arguments, **keywords)
        if caller is not None:
            recorder.observe(kind, name, caller, arguments=_brief(arguments, keywords), returned=_brief((result,), {}))
        return result

    return noted


def note_capability(recorder: calls.Recorder) -> None:
    """get_device_capability and get_device_properties as torch.npu gives them: noted with the value returned."""
    for module in (sys.modules["torch.npu"], torch.cuda):
        for attribute in ("get_device_capability", "get_device_properties"):
            function = getattr(module, attribute, None)
            if function is not None and getattr(function, "__module__", "").startswith("ascend_migrate.runtime"):
                setattr(module, attribute, _noting(recorder, "caveat-call", f"torch.cuda.{attribute}", function))


# Optimizer steps taken under --steps (None when steps are not counted): the end record reports it.
steps_done: int | None = None
# Iterations of the program's loop, counted at every DataLoader batch and every optimizer step (Huawei's dynamic_shape
# mode compares shapes between iterations of the data loader): a site whose shapes change between them recompiles.
iterations = 0
# The program built a DataLoader or an optimizer: its loop is the one iterations count, even when it ran no iteration
# (a training resumed after its last epoch builds the model and stops): its weight init over layers of a few sizes
# is not a loop whose shapes vary (found running minGPT-ddp, session 9).
loop_built = False


def count_iterations() -> None:
    """Every DataLoader batch and every optimizer step starts a new iteration (for Site.varies)."""
    from torch.optim.optimizer import Optimizer, register_optimizer_step_post_hook
    from torch.utils.data.dataloader import DataLoader, _BaseDataLoaderIter

    for built in (Optimizer, DataLoader):
        built.__init__ = _noting_the_loop(built.__init__)

    def after_step(optimizer, arguments, keywords) -> None:
        global iterations
        iterations += 1

    register_optimizer_step_post_hook(after_step)
    original_next = _BaseDataLoaderIter.__next__

    def __next__(self):
        global iterations
        iterations += 1
        return original_next(self)

    _BaseDataLoaderIter.__next__ = __next__


def _noting_the_loop(initialise):
    @functools.wraps(initialise)  # the signature stays the class's own (programs inspect optimizer signatures)
    def __init__(self, *arguments, **keywords):
        global loop_built
        loop_built = True
        initialise(self, *arguments, **keywords)

    return __init__


def count_steps(limit: int) -> None:
    """End the program cleanly after `limit` optimizer steps (every optimizer: the global post-step hook)."""
    global steps_done
    steps_done = 0

    def after_step(optimizer, arguments, keywords) -> None:
        global steps_done
        steps_done = (steps_done or 0) + 1
        if steps_done >= limit:
            raise StepsReached(0)

    from torch.optim.optimizer import register_optimizer_step_post_hook

    register_optimizer_step_post_hook(after_step)


def _brief(arguments, keywords) -> str:
    """The observed values, short: tensors as dtype and shape."""
    def one(value) -> str:
        if isinstance(value, torch.Tensor):
            return f"tensor({str(value.dtype).replace('torch.', '')}, shape={list(value.shape)})"
        text = repr(value)
        return text if len(text) <= 60 else text[:57] + "..."

    parts = [one(value) for value in arguments] + [f"{key}={one(value)}" for key, value in keywords.items()]
    return ", ".join(parts)


def torch_directory() -> str:
    return os.path.dirname(torch.__file__)
