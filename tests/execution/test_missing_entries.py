"""The safe renames added for torch names real code used without an entry (session 8, issue 16: torch.fft.fft, ifft,
rfft, irfft, fft2, ifft2, rfft2, irfft2, torch.linalg.det, torch.det, torch.cov) compute what torch computes once
`fix --write --unsafe` has written them: a program using each (keywords, positions, n/s/dim/norm, batched input) runs
as torch wrote it and as fixed for both MindSpore eras, and every result agrees within 1e-4.
Runs torch 2.13.0 and mindspore 2.10.0 on CPU side by side; skips cleanly without them (CI stage 38-execution).
"""

from __future__ import annotations

import pytest
from tests.execution.side_by_side import original_and_fixed, printed

numpy = pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("mindspore")

PROGRAM = '''\
import json

import numpy
import torch

signal = torch.tensor(numpy.sin(numpy.arange(24.0) * 0.7).reshape(3, 8), dtype=torch.float32)
square = torch.tensor([[[2.0, 1.0, 0.5], [1.0, 3.0, 0.0], [0.5, 0.0, 1.5]], [[1.0, 2.0, 0.0], [0.0, 1.0, 4.0], [3.0, 0.0, 1.0]]])
spectrum = torch.fft.rfft(signal)
results = {
    "fft": torch.fft.fft(signal, 8, 1, "ortho"),
    "fft n": torch.fft.fft(signal, n=5, dim=0),
    "ifft": torch.fft.ifft(spectrum, norm="forward"),
    "rfft": spectrum,
    "irfft": torch.fft.irfft(spectrum, n=8, norm="backward"),
    "irfft odd": torch.fft.irfft(spectrum, 7),
    "fft2": torch.fft.fft2(signal, norm="forward"),
    "ifft2": torch.fft.ifft2(signal, s=(4, 6)),
    "rfft2": torch.fft.rfft2(signal, (2, 6)),
    "irfft2": torch.fft.irfft2(spectrum, s=(3, 8)),
    "linalg.det": torch.linalg.det(square),
    "det": torch.det(square[0]),
    "cov": torch.cov(signal),
    "cov weighted": torch.cov(signal, correction=0, aweights=torch.tensor([0.5, 1.0, 2.0, 1.0, 0.5, 1.0, 2.0, 1.0])),
}
as_lists = {}
for name, value in results.items():
    array = numpy.asarray(value)
    as_lists[name] = [array.real.tolist(), array.imag.tolist()] if numpy.iscomplexobj(array) else array.tolist()
print(json.dumps(as_lists))
'''

RENAMED = ("fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfft2", "irfft2", "det", "cov")


@pytest.mark.parametrize("version", ["2.4", "2.10"])
def test_fft_det_and_cov_renames_compute_what_torch_computes(tmp_path, version):
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM, version)
    assert "torch" not in text, text
    for name in RENAMED:
        assert f"mindspore.ops.{name}(" in text, (name, text)
    torch_results, mindspore_results = printed(original), printed(fixed)
    assert mindspore_results.keys() == torch_results.keys()
    for name, expected in torch_results.items():
        assert numpy.allclose(mindspore_results[name], expected, atol=1e-4, rtol=1e-4), name
    assert numpy.asarray(torch_results["fft n"]).shape == (2, 5, 8)  # n and dim took effect (real, imaginary parts)
