"""The torch_npu emulation on CPU (child side, imports torch): the `npu` device, `torch.npu.*`, transfer_to_npu.

Behaviour the Ascend documentation gives as different is reproduced here: get_device_capability() returns None
(torch_npu 2.14: unless TORCH_NPU_DEVICE_CAPABILITY is set), get_device_properties() has no major/minor,
torch.jit.script becomes the identity under transfer_to_npu. Names follow torch_npu.npu.__all__ of the 2.14.0
wheel; tests/runtime/test_surface.py checks them against the wheel.
"""

from __future__ import annotations

import contextlib
import os
import sys
import types
import warnings
from dataclasses import dataclass

import torch

from ascend_migrate.runtime import devices, state

EMULATED_DEVICE_NAME = "Ascend NPU (emulated on CPU by ascend-migrate run)"


@dataclass(frozen=True)
class _DeviceProperties:
    """torch_npu's NPUDeviceProperties: name and memory, no CUDA major/minor."""

    name: str = EMULATED_DEVICE_NAME
    total_memory: int = 64 * 1024**3
    multi_processor_count: int = 0  # not known for an emulated device


class Stream:
    """A no-op stream: the CPU runs every operation in order."""

    def __init__(self, device=None, priority: int = 0, **_ignored) -> None:
        self.priority = priority

    @property
    def device(self):
        return torch.device("npu", 0)

    def synchronize(self) -> None: ...

    def wait_stream(self, stream) -> None: ...

    def wait_event(self, event) -> None: ...

    def record_event(self, event=None):
        event = event or Event()
        event.record(self)
        return event

    def query(self) -> bool:
        return True


class Event:
    """A no-op event: recorded work is always complete; elapsed_time is measured on the host clock."""

    def __init__(self, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False) -> None:
        self._time: float | None = None

    def record(self, stream=None) -> None:
        import time

        self._time = time.perf_counter()

    def wait(self, stream=None) -> None: ...

    def synchronize(self) -> None: ...

    def query(self) -> bool:
        return True

    def elapsed_time(self, end_event: Event) -> float:
        if self._time is None or end_event._time is None:
            raise RuntimeError("Both events must be recorded before calculating elapsed time.")
        return (end_event._time - self._time) * 1000.0


_DEFAULT_STREAM = Stream()
_HOST_STREAM = torch.Stream(device="cpu")


def _get_device_capability(device=None):
    # torch_npu 2.14 (torch_npu/npu/utils.py): None unless TORCH_NPU_DEVICE_CAPABILITY="major.minor" is set.
    value = os.environ.get("TORCH_NPU_DEVICE_CAPABILITY")
    if value:
        major, _, minor = value.partition(".")
        return int(major), int(minor or 0)
    return None


class _Autocast(torch.amp.autocast_mode.autocast):
    """torch.npu.amp.autocast: CPU autocast (bfloat16 unless asked otherwise; CPU has no fast float16)."""

    def __init__(self, enabled: bool = True, dtype=None, cache_enabled: bool = True) -> None:
        super().__init__("cpu", dtype=_cpu_autocast_dtype(dtype), enabled=enabled, cache_enabled=cache_enabled)


def _cpu_autocast_dtype(dtype):
    return dtype if dtype in (torch.bfloat16, torch.float16) else torch.bfloat16


class GradScaler(torch.amp.GradScaler):
    """torch.npu.amp.GradScaler: the CPU GradScaler (scaling runs, inf checks run, no device kernels)."""

    def __init__(self, init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True, **_ignored) -> None:
        super().__init__("cpu", init_scale=init_scale, growth_factor=growth_factor, backoff_factor=backoff_factor,
                         growth_interval=growth_interval, enabled=enabled)


def _npu_functions() -> dict[str, object]:
    """The torch.npu names the emulation gives, each a name in torch_npu.npu.__all__ of the 2.14.0 wheel."""
    current = {"device": 0}

    def set_device(device) -> None:
        current["device"] = _device_index(device)

    @contextlib.contextmanager
    def stream(stream=None):
        yield

    class device:  # torch.npu.device(index) as a context manager
        def __init__(self, device) -> None:
            self.index = _device_index(device)

        def __enter__(self):
            return self

        def __exit__(self, *exception) -> None:
            return None  # never swallows the exception

    return {
        "is_available": lambda: True,
        "device_count": lambda: 1,
        "current_device": lambda: current["device"],
        "set_device": set_device,
        "synchronize": lambda device=None: None,
        "get_device_name": lambda device=None: EMULATED_DEVICE_NAME,
        "get_device_capability": _get_device_capability,
        "get_device_properties": lambda device=None: _DeviceProperties(),
        "is_initialized": lambda: True,
        "init": lambda: None,
        "device": device,
        "Stream": Stream,
        "Event": Event,
        "stream": stream,
        "current_stream": lambda device=None: _DEFAULT_STREAM,
        "default_stream": lambda device=None: _DEFAULT_STREAM,
        "set_stream": lambda stream: None,
        # the NPU's generator is the CPU's (torch.manual_seed calls these: they must not call it back)
        "manual_seed": lambda seed: torch.default_generator.manual_seed(int(seed)) and None,
        "manual_seed_all": lambda seed: torch.default_generator.manual_seed(int(seed)) and None,
        "seed": lambda: torch.default_generator.seed() and None,
        "seed_all": lambda: torch.default_generator.seed() and None,
        "initial_seed": torch.initial_seed,
        "get_rng_state": lambda device="npu": torch.get_rng_state(),
        "set_rng_state": lambda new_state, device="npu": torch.set_rng_state(new_state),
        "empty_cache": lambda: None,
        "memory_allocated": lambda device=None: 0,
        "max_memory_allocated": lambda device=None: 0,
        "memory_reserved": lambda device=None: 0,
        "max_memory_reserved": lambda device=None: 0,
        "reset_peak_memory_stats": lambda device=None: None,
        "reset_max_memory_allocated": lambda device=None: None,
        "memory_summary": lambda device=None, abbreviated=False: "memory statistics are not emulated",
        "mem_get_info": lambda device=None: (64 * 1024**3, 64 * 1024**3),
        "is_bf16_supported": lambda: True,
        "set_compile_mode": lambda jit_compile=False: None,
        "get_amp_supported_dtype": lambda: [torch.float16, torch.bfloat16],
        "is_autocast_enabled": torch.is_autocast_enabled,
        "get_autocast_dtype": lambda: torch.get_autocast_dtype("cpu"),
        "utilization": lambda device=None: 0,
        "get_rng_state_all": lambda: [torch.get_rng_state()],
        "set_rng_state_all": lambda new_states: torch.set_rng_state(new_states[0]),
        "memory_stats": lambda device=None: {},
        "memory_cached": lambda device=None: 0,
        "max_memory_cached": lambda device=None: 0,
        "reset_max_memory_cached": lambda device=None: None,
        "reset_accumulated_memory_stats": lambda device=None: None,
        "ipc_collect": lambda: None,
        "is_jit_compile_false": lambda: True,  # the emulation compiles nothing
        # torch_npu.npu.config.allow_internal_format, torch_npu.npu.matmul/conv.allow_hf32: settings, no effect on CPU
        "config": types.SimpleNamespace(allow_internal_format=False),
        "matmul": types.SimpleNamespace(allow_hf32=False),
        "conv": types.SimpleNamespace(allow_hf32=True),
        "_is_in_bad_fork": lambda: False,  # torch.manual_seed asks the device module before seeding it
    }


def _device_index(device) -> int:
    if isinstance(device, int):
        return device
    if isinstance(device, torch.device):
        return device.index or 0
    if isinstance(device, str) and ":" in device:
        return int(device.rsplit(":", 1)[1])
    return 0


def build_npu_module() -> types.ModuleType:
    npu = types.ModuleType("torch_npu.npu", "torch.npu of the emulation: the NPU is the CPU.")
    for name, value in _npu_functions().items():
        setattr(npu, name, value)
    amp = types.ModuleType("torch_npu.npu.amp")
    amp.__dict__.update(autocast=_Autocast, GradScaler=GradScaler, __all__=["GradScaler", "autocast"])
    npu.__dict__["amp"] = amp
    for dtype_name in ("FloatTensor", "HalfTensor", "BFloat16Tensor", "LongTensor", "IntTensor", "BoolTensor",
                       "DoubleTensor", "ByteTensor", "CharTensor", "ShortTensor"):
        setattr(npu, dtype_name, getattr(torch, dtype_name))
    npu.__dict__["__all__"] = sorted(name for name in vars(npu) if not name.startswith("_") and name != "amp")
    return npu


def install_torch_npu(torch_npu: types.ModuleType) -> None:
    """What `import torch_npu` does here: register the `npu` device (on CPU) and torch.npu."""
    if state.npu_installed:
        return
    npu = build_npu_module()
    torch.utils.rename_privateuse1_backend("npu")  # torch.device("npu:0") parses; tensors are moved to CPU by watch
    torch._register_device_module("npu", npu)
    sys.modules["torch.npu"] = npu
    sys.modules["torch_npu.npu"] = npu
    sys.modules["torch_npu.npu.amp"] = npu.__dict__["amp"]
    torch_npu.__dict__["npu"] = npu
    torch.Tensor.npu = _tensor_npu
    torch.Tensor.is_npu = property(lambda tensor: True)
    torch.nn.Module.npu = _module_npu
    torch.distributed.is_hccl_available = lambda: True
    _hccl_as_gloo()
    _npu_arguments_on_cpu()
    _accelerator_is_npu(npu)
    _distributed_data_parallel_on_cpu()
    state.npu_installed = True
    if not state.watching:  # a process the program spawned: it runs on the emulated device too, unwatched
        from ascend_migrate.runtime.watch import EmulatedDevices

        EmulatedDevices().__enter__()
    for callback in state.after_install:
        callback()


def _tensor_npu(self, device=None, non_blocking=False, memory_format=torch.preserve_format):
    return devices.moved(self, devices.NPU)  # the emulated NPU is the CPU: a copy tagged as on the NPU (devices.py)


def _module_npu(self, device=None):
    return self.to("npu")  # its parameters and buffers tagged as on the NPU, as Module.to(npu) does


def _npu_arguments_on_cpu() -> None:
    """torch.autocast("npu"), torch.amp.GradScaler("npu") and torch.load(map_location="npu") take the CPU
    (cuda too under transfer_to_npu): they are classes and loaders the TorchFunctionMode does not see."""
    autocast_init = torch.amp.autocast_mode.autocast.__init__

    def autocast(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if _emulated(device_type):
            device_type, dtype = "cpu", _cpu_autocast_dtype(dtype)
        autocast_init(self, device_type, dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)

    torch.amp.autocast_mode.autocast.__init__ = autocast
    scaler_init = torch.amp.GradScaler.__init__

    def grad_scaler(self, device="cuda", *arguments, **keywords):
        scaler_init(self, "cpu" if _emulated(device) else device, *arguments, **keywords)

    torch.amp.GradScaler.__init__ = grad_scaler
    load = torch.load

    def load_on_cpu(f, map_location=None, *arguments, **keywords):
        if _emulated(map_location):
            map_location = "cpu"
        return load(f, map_location, *arguments, **keywords)

    torch.load = load_on_cpu


def _accelerator_is_npu(npu: types.ModuleType) -> None:
    """torch.accelerator names the renamed PrivateUse1 backend (npu) once torch_npu is imported, as on Ascend; its C++
    side has no device here, so the calls that reach it (DataLoader's pin-memory thread does) use torch.npu's, and
    pinning host memory is a no-op (the emulated device is the host)."""
    accelerator = torch.accelerator
    accelerator.current_device_index = lambda: npu.current_device()
    accelerator.set_device_index = lambda device: npu.set_device(device)
    if hasattr(accelerator, "set_device_idx"):
        accelerator.set_device_idx = accelerator.set_device_index
    accelerator.synchronize = lambda device=None: None
    # TorchDynamo asks for the current stream at the start of every torch.compile trace; the emulated device is the
    # host, whose torch.Stream is what the CPU's C++ side can give (found running the torch.compile tutorial).
    accelerator.current_stream = lambda device=None: _HOST_STREAM
    torch.Tensor.pin_memory = lambda self, device=None: self
    torch.Tensor.is_pinned = lambda self, device=None: False


def _distributed_data_parallel_on_cpu() -> None:
    """DistributedDataParallel(model, device_ids=[i]) is how a program names its NPU on Ascend; the emulated NPU's
    parameters are on the CPU, where torch accepts no device_ids, so they are dropped (the collectives run on gloo)."""
    parallel = torch.nn.parallel.DistributedDataParallel
    original = parallel.__init__

    def __init__(self, module, device_ids=None, output_device=None, *arguments, **keywords):
        if all(parameter.device.type == "cpu" for parameter in module.parameters()):
            device_ids = output_device = None
        original(self, module, device_ids, output_device, *arguments, **keywords)

    parallel.__init__ = __init__


def _emulated(device) -> bool:
    """A device the emulation runs on the CPU: npu, and cuda once transfer_to_npu ran."""
    if isinstance(device, torch.device):
        device = device.type
    if not isinstance(device, str):
        return False
    kind = device.split(":", 1)[0]
    return kind == "npu" or (kind == "cuda" and state.cuda_is_npu)


def _hccl_as_gloo() -> None:
    """The `hccl` backend, registered as torch_npu registers it (so a name bound before `import torch_npu`, such as
    `from torch.distributed import init_process_group`, accepts it too), made of gloo's process group: the collectives
    are real, on the CPU, and `get_backend()` says hccl."""
    distributed = torch.distributed
    if not distributed.is_available() or "hccl" in distributed.Backend.backend_list:
        return

    def create(store, rank, size, timeout):
        return distributed.ProcessGroupGloo(store, rank, size, timeout)

    distributed.Backend.register_backend("hccl", create, devices=["cpu"])


def transfer_to_npu() -> None:
    """torch_npu.contrib.transfer_to_npu: every torch.cuda name in torch_npu.npu.__all__ becomes torch.npu's,
    `.cuda()` becomes `.npu()`, 'cuda' device arguments mean the NPU, and torch.jit.script the identity."""
    import torch_npu  # noqa: F401  (the emulated one: installs the device first, as the real module does)

    npu = sys.modules["torch.npu"]
    for name in npu.__all__:
        if hasattr(torch.cuda, name) or name in ("amp",):
            setattr(torch.cuda, name, getattr(npu, name))
    torch.cuda.amp.autocast = npu.amp.autocast
    torch.cuda.amp.GradScaler = npu.amp.GradScaler
    torch.Tensor.cuda = _tensor_npu
    torch.nn.Module.cuda = _module_npu
    torch.jit.script = _script_is_identity
    state.cuda_is_npu = True


def _script_is_identity(obj=None, *arguments, **keywords):
    # torch_npu 2.14 transfer_to_npu: torch.jit.script returns its argument with a RuntimeWarning (flag off).
    warnings.warn("torch.jit.script will be disabled by transfer_to_npu, which currently does not support it.",
                  RuntimeWarning, stacklevel=2)
    return obj
