"""Runs a mint-era program (`python mint_on_cpu.py SCRIPT ARGS...`) on mindspore 2.10's CPU build past the random
fills that have no CPU kernel there (InplaceNormal, InplaceUniform, InplaceRandom: every mint layer's parameter
initialisation, mint.randn/rand/randint/randperm). Parameters are initialised on the host (mindspore.nn.utils.
no_init_parameters: filled from the same initialisers when first used) and mint.randn/rand/randint/randperm draw the
same distributions with NumPy. Everything else runs as written, so a stop is a real missing kernel or a broken
rewrite. Test-side only (tests/execution/test_mindspore_route.py); on Ascend the kernels exist."""

from __future__ import annotations

import runpy
import sys

import mindspore
import numpy
from mindspore import mint
from mindspore.nn.utils import no_init_parameters


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
    return mindspore.Tensor(numpy.random.permutation(n), dtype or mindspore.int64)  # RandpermExt: no CPU kernel (gcn)


def _initialised_first(to):
    """Cell.to(dtype) on parameters whose initialisation is delayed crashes mindspore 2.10 (a segmentation fault):
    initialise them first, as they would have been without the delay."""
    def cast(self, *arguments, **keywords):
        self.init_parameters_data()
        return to(self, *arguments, **keywords)
    return cast


def main() -> None:
    mint.randn, mint.rand, mint.randint, mint.randperm = randn, rand, randint, randperm
    mindspore.nn.Cell.to = _initialised_first(mindspore.nn.Cell.to)
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path.insert(0, ".")
    with no_init_parameters():
        runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
