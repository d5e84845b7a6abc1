"""Why torch.cross and Tensor.cross are ms-differs with an unsafe fix (tools/generate_mappings/corrections.py,
_CROSS_BROADCAST): equal shapes agree with torch, but where one input must broadcast mindspore 2.10's cross returns
rows that are not torch's, with no error. When a release broadcasts, this test fails and the correction can go.

Needs torch and mindspore 2.10 in this interpreter (CI stage 38-execution); skips cleanly without them.
"""

from __future__ import annotations

import pytest

mindspore = pytest.importorskip("mindspore")
torch = pytest.importorskip("torch")
numpy = pytest.importorskip("numpy")


def test_equal_shapes_agree_and_broadcast_rows_do_not():
    generator = numpy.random.default_rng(5)
    a, b = generator.random((4, 3), dtype=numpy.float32), generator.random((1, 3), dtype=numpy.float32)
    expected = torch.cross(torch.tensor(a), torch.tensor(b).expand(4, 3), dim=1).numpy()
    assert numpy.allclose(torch.cross(torch.tensor(a), torch.tensor(b), dim=1).numpy(), expected, atol=1e-6)
    # the broadcast calls first, before any right result of the same shape exists in mindspore's memory pool
    for cross in (mindspore.ops.cross, mindspore.mint.cross):
        broadcast = cross(mindspore.Tensor(a), mindspore.Tensor(b), dim=1).asnumpy()
        assert numpy.allclose(broadcast[0], expected[0], atol=1e-6)  # the first row is right
        assert not numpy.allclose(broadcast[1:], expected[1:], atol=1e-3)  # the others are not torch's
    same_shape = mindspore.ops.cross(mindspore.Tensor(a), mindspore.Tensor(numpy.broadcast_to(b, (4, 3)).copy()), dim=1)
    assert numpy.allclose(same_shape.asnumpy(), expected, atol=1e-6)
