# BSD 3-Clause License, Copyright (c) 2017-2022, Pytorch contributors (pytorch/tutorials; see SOURCE.md and
# ../LICENSE-pytorch-tutorials). intermediate_source/torch_compile_tutorial.py: its code up to "TorchDynamo and FX
# Graphs", the prose comments shortened; edits are marked `ascend-migrate corpus edit`.
"""
torch.compile Tutorial
================
**Author:** William Wen
"""

import torch
import warnings

gpu_ok = False
if torch.cuda.is_available():
    device = torch.cuda.get_device_name()
    if "V100" in device or "A100" in device:
        gpu_ok = True

if not gpu_ok:
    warnings.warn(
        "GPU is not NVIDIA V100 or A100. Speedup numbers may be lower than "
        "expected."
    )

# ascend-migrate corpus edit: the tutorial compiles with the default backend (TorchInductor), which takes about a minute
# per compiled function on the test machine's CPU; TorchDynamo's "eager" backend traces the same graphs in seconds.
BACKEND = "eager"

######################################################################
# Basic Usage
# ------------

def foo(x, y):
    a = torch.sin(x)
    b = torch.cos(x)
    return a + b
opt_foo1 = torch.compile(foo, backend=BACKEND)
print(opt_foo1(torch.randn(10, 10), torch.randn(10, 10)))

######################################################################
# Alternatively, we can decorate the function.

@torch.compile(backend=BACKEND)
def opt_foo2(x, y):
    a = torch.sin(x)
    b = torch.cos(x)
    return a + b
print(opt_foo2(torch.randn(10, 10), torch.randn(10, 10)))

######################################################################
# We can also optimize ``torch.nn.Module`` instances.

class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(100, 10)

    def forward(self, x):
        return torch.nn.functional.relu(self.lin(x))

mod = MyModule()
opt_mod = torch.compile(mod, backend=BACKEND)
print(opt_mod(torch.randn(10, 100)))

######################################################################
# Demonstrating Speedups
# -----------------------

# Returns the result of running `fn()` and the time it took for `fn()` to run,
# in seconds. We use CUDA events and synchronization for the most accurate
# measurements.
def timed(fn):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    result = fn()
    end.record()
    torch.cuda.synchronize()
    return result, start.elapsed_time(end) / 1000

# Generates random input and targets data for the model, where `b` is
# batch size.
def generate_data(b):
    return (
        torch.randn(b, 3, 32, 32).to(torch.float32).cuda(),  # ascend-migrate corpus edit: 32x32 images, not 128x128
        torch.randint(1000, (b,)).cuda(),
    )

N_ITERS = 3  # ascend-migrate corpus edit: 3 iterations, not 10


# ascend-migrate corpus edit: torchvision is not in the test venv; a small CNN with 1,000 classes stands in for
# torchvision.models.densenet121 (written for this corpus, not from the tutorial).
def densenet121():
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(8, 1000))


def init_model():
    return densenet121().to(torch.float32).cuda()

######################################################################
# First, let's compare inference.

def evaluate(mod, inp):
    return mod(inp)

model = init_model()

# Reset since we are using a different mode.
import torch._dynamo
torch._dynamo.reset()

evaluate_opt = torch.compile(evaluate, mode="reduce-overhead", backend=BACKEND)

inp = generate_data(16)[0]
print("eager:", timed(lambda: evaluate(model, inp))[1])
print("compile:", timed(lambda: evaluate_opt(model, inp))[1])

eager_times = []
compile_times = []
for i in range(N_ITERS):
    inp = generate_data(16)[0]
    _, eager_time = timed(lambda: evaluate(model, inp))
    eager_times.append(eager_time)
    print(f"eager eval time {i}: {eager_time}")

print("~" * 10)

compile_times = []
for i in range(N_ITERS):
    inp = generate_data(16)[0]
    _, compile_time = timed(lambda: evaluate_opt(model, inp))
    compile_times.append(compile_time)
    print(f"compile eval time {i}: {compile_time}")
print("~" * 10)

import numpy as np
eager_med = np.median(eager_times)
compile_med = np.median(compile_times)
speedup = eager_med / compile_med
print(f"(eval) eager median: {eager_med}, compile median: {compile_med}, speedup: {speedup}x")
print("~" * 10)

######################################################################
# Now, let's consider comparing training.

model = init_model()
opt = torch.optim.Adam(model.parameters())

def train(mod, data):
    opt.zero_grad(True)
    pred = mod(data[0])
    loss = torch.nn.CrossEntropyLoss()(pred, data[1])
    loss.backward()
    opt.step()

eager_times = []
for i in range(N_ITERS):
    inp = generate_data(16)
    _, eager_time = timed(lambda: train(model, inp))
    eager_times.append(eager_time)
    print(f"eager train time {i}: {eager_time}")
print("~" * 10)

model = init_model()
opt = torch.optim.Adam(model.parameters())
train_opt = torch.compile(train, mode="reduce-overhead", backend=BACKEND)

compile_times = []
for i in range(N_ITERS):
    inp = generate_data(16)
    _, compile_time = timed(lambda: train_opt(model, inp))
    compile_times.append(compile_time)
    print(f"compile train time {i}: {compile_time}")
print("~" * 10)

eager_med = np.median(eager_times)
compile_med = np.median(compile_times)
speedup = eager_med / compile_med
print(f"(train) eager median: {eager_med}, compile median: {compile_med}, speedup: {speedup}x")
print("~" * 10)

######################################################################
# Comparison to TorchScript and FX Tracing
# -----------------------------------------

def f1(x, y):
    if x.sum() < 0:
        return -y
    return y

# Test that `fn1` and `fn2` return the same result, given
# the same arguments `args`. Typically, `fn1` will be an eager function
# while `fn2` will be a compiled function (torch.compile, TorchScript, or FX graph).
def test_fns(fn1, fn2, args):
    out1 = fn1(*args)
    out2 = fn2(*args)
    return torch.allclose(out1, out2)

inp1 = torch.randn(5, 5)
inp2 = torch.randn(5, 5)

# TorchScript tracing ``f1`` results in silently incorrect results.

traced_f1 = torch.jit.trace(f1, (inp1, inp2))
print("traced 1, 1:", test_fns(f1, traced_f1, (inp1, inp2)))
print("traced 1, 2:", test_fns(f1, traced_f1, (-inp1, inp2)))

# FX tracing ``f1`` results in an error due to the presence of data-dependent control flow.

import traceback as tb
try:
    torch.fx.symbolic_trace(f1)
except:
    tb.print_exc()

fx_f1 = torch.fx.symbolic_trace(f1, concrete_args={"x": inp1})
print("fx 1, 1:", test_fns(f1, fx_f1, (inp1, inp2)))
print("fx 1, 2:", test_fns(f1, fx_f1, (-inp1, inp2)))

# Now we can see that ``torch.compile`` correctly handles data-dependent control flow.

# Reset since we are using a different mode.
torch._dynamo.reset()

compile_f1 = torch.compile(f1, backend=BACKEND)
print("compile 1, 1:", test_fns(f1, compile_f1, (inp1, inp2)))
print("compile 1, 2:", test_fns(f1, compile_f1, (-inp1, inp2)))
print("~" * 10)

# TorchScript scripting can handle data-dependent control flow, but ... we forget TorchScript type annotations and we
# receive a TorchScript error because the input type for argument ``y``, an ``int``, does not match.

def f2(x, y):
    return x + y

inp1 = torch.randn(5, 5)
inp2 = 3

script_f2 = torch.jit.script(f2)
try:
    script_f2(inp1, inp2)
except:
    tb.print_exc()

# However, ``torch.compile`` is easily able to handle ``f2``.

compile_f2 = torch.compile(f2, backend=BACKEND)
print("compile 2:", test_fns(f2, compile_f2, (inp1, inp2)))
print("~" * 10)

# ascend-migrate corpus edit: the tutorial's f3 section (scipy.fft.dct inside a compiled function) is left out: scipy is
# not in the test venv.
