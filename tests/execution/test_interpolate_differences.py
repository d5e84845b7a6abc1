"""What the F.interpolate -> mint.nn.functional.interpolate entry says (corrections.ADDED_NOTES), run: antialias changes
torch's result only when passed as True and only when downsampling with bilinear/bicubic; mint has no antialias, refuses
an int scale_factor and the modes 'area' and 'nearest-exact', and agrees in nearest mode.
Runs torch 2.13.0 and mindspore 2.10.0 on CPU; skips cleanly without them (CI stage 38-execution).
"""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")
mindspore = pytest.importorskip("mindspore")
from mindspore import mint  # noqa: E402  (after the skip: mindspore may be absent)

IMAGE = np.random.default_rng(9).standard_normal((1, 2, 8, 8)).astype(np.float32)


def _torch(**arguments):
    return torch.nn.functional.interpolate(torch.tensor(IMAGE), **arguments).numpy()


def test_antialias_changes_bilinear_and_bicubic_resizes_but_plain_bilinear_upsampling():
    for mode in ("bilinear", "bicubic"):
        assert np.abs(_torch(size=(4, 4), mode=mode, antialias=True) - _torch(size=(4, 4), mode=mode)).max() > 0.1
    upsampled = {"mode": "bilinear", "size": (16, 16)}
    np.testing.assert_allclose(_torch(**upsampled, antialias=True), _torch(**upsampled), atol=1e-6)
    for changed in ({"mode": "bicubic"}, {"mode": "bilinear", "align_corners": True}):
        assert np.abs(_torch(size=(16, 16), **changed, antialias=True) - _torch(size=(16, 16), **changed)).max() > 0.1
    with pytest.raises(ValueError, match="restricted to bilinear, bicubic"):
        _torch(size=(4, 4), mode="nearest", antialias=True)
    with pytest.raises(TypeError, match="antialias"):
        mint.nn.functional.interpolate(mindspore.Tensor(IMAGE), size=(4, 4), mode="bilinear", antialias=True)


def test_mint_refuses_an_int_scale_factor_and_two_of_torchs_modes():
    with pytest.raises(TypeError):
        mint.nn.functional.interpolate(mindspore.Tensor(IMAGE), scale_factor=2, mode="nearest")
    for mode in ("area", "nearest-exact"):
        _torch(size=(3, 3), mode=mode)  # torch takes both
        with pytest.raises(ValueError, match="mode"):
            mint.nn.functional.interpolate(mindspore.Tensor(IMAGE), size=(3, 3), mode=mode)


@pytest.mark.parametrize("arguments", [{"size": (16, 16)}, {"size": (5, 3), "mode": "nearest"}, {"scale_factor": 2.0},
                                       {"scale_factor": 0.5, "mode": "nearest"}])
def test_nearest_agrees(arguments):
    np.testing.assert_array_equal(mint.nn.functional.interpolate(mindspore.Tensor(IMAGE), **arguments).asnumpy(),
                                  _torch(**arguments))
