"""Runs a mint-era program (`python mint_on_cpu.py [--builds LINE] SCRIPT ARGS...`) on mindspore 2.10's CPU build past the
mint functions that have no CPU kernel there, computing on the host what the kernel would compute. Everything else runs
as written, so a stop is a real missing kernel or a broken rewrite. Test-side only (tests/execution/
test_mindspore_route.py); on Ascend the kernels exist. What it emulates, and why (EMULATED; test_mint_on_cpu.py fails the
day mindspore's CPU build gains one of these kernels, so the emulation can go):
- mint.randn, mint.rand, mint.randint, mint.randperm (InplaceNormal, InplaceUniform, InplaceRandom, RandpermExt): the
  same distributions drawn with NumPy (random: no run can match another's values anyway);
- mint.arange (Arange): numpy.arange, the same values, dtype int64 when start, end and step are all integers, else
  float32, as mint.arange documents (deterministic: the values are exactly the kernel's for integers). siamese_network
  makes its labels with it before its model;
- Tensor.clone (Clone): mindspore.ops.deepcopy (the Identity kernel, which CPU has): the same values, differentiable as
  clone is. siamese_network clones its images into NumPy before its model.
Parameter initialisation is not emulated: mint layers initialise their parameters on CPU in mindspore 2.10.0 (the
initialisers fill on the host; every corpus program's mint era stopped at the same line with and without delaying it
under mindspore.nn.utils.no_init_parameters, 2026-12-02), so the runner no longer delays it.
`--builds LINE` writes line_completion.mark(SCRIPT, LINE) to stderr once the statement on that line of the script (the
one that builds the model) has run to its end: the mint-era check that a stop came after the model was built."""

from __future__ import annotations

import runpy
import sys

import mindspore
import numpy
from mindspore import mint


def _shape(size: tuple) -> tuple[int, ...]:
    return tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else tuple(size)


def randn(*size, generator=None, dtype=None, device=None):
    return mindspore.Tensor(numpy.random.standard_normal(_shape(size)), dtype or mindspore.float32)


def rand(*size, generator=None, dtype=None, device=None):
    return mindspore.Tensor(numpy.random.random_sample(_shape(size)), dtype or mindspore.float32)


def randint(*arguments, generator=None, dtype=None, device=None):
    low, high, size = (0, *arguments) if len(arguments) == 2 else arguments
    return mindspore.Tensor(numpy.random.randint(low, high, tuple(size)), dtype or mindspore.int64)


def randperm(n, *, generator=None, dtype=None, device=None):
    return mindspore.Tensor(numpy.random.permutation(n), dtype or mindspore.int64)


def arange(start=0, end=None, step=1, *, dtype=None):
    if not all(isinstance(value, (int, float)) for value in (start, step, 0 if end is None else end)):
        return _MINT_ARANGE(start, end, step, dtype=dtype)  # not what mint.arange documents: let it say so
    start, end = (0, start) if end is None else (start, end)
    if step == 0 or (end - start) * step <= 0:
        raise ValueError(f"mint.arange: empty range start={start}, end={end}, step={step} (mint.arange raises ValueError)")
    integral = all(isinstance(value, int) for value in (start, end, step))
    return mindspore.Tensor(numpy.arange(start, end, step), dtype or (mindspore.int64 if integral else mindspore.float32))


def clone(self):
    return mindspore.ops.deepcopy(self)  # Identity: a CPU kernel, the same values, and gradients flow back the same


_MINT_ARANGE = mint.arange
# (where, name, what runs in its place, the kernel mindspore 2.10's CPU build lacks for it); test_mint_on_cpu.py calls each
# original on CPU and fails the day one of them runs
EMULATED = [(mint, "randn", randn, "InplaceNormal"), (mint, "rand", rand, "InplaceUniform"), (mint, "randint", randint, "InplaceRandom"),
            (mint, "randperm", randperm, "RandpermExt"), (mint, "arange", arange, "Arange"), (mindspore.Tensor, "clone", clone, "Clone")]


def main() -> None:
    for owner, name, replacement, _kernel in EMULATED:
        setattr(owner, name, replacement)
    builds = None
    if sys.argv[1] == "--builds":
        builds = int(sys.argv[2])
        del sys.argv[1:3]
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path.insert(0, ".")
    if builds is None:
        runpy.run_path(script, run_name="__main__")
    else:
        import line_completion  # beside this file (sys.path[0]); test_mint_on_cpu.py imports this module as a package's

        line_completion.run(script, builds)


if __name__ == "__main__":
    main()
