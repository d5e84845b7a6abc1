"""Why torch.full's ops/nn-era row is ms-differs (tools/generate_mappings/corrections.py, torch.full r2.4.10):
mindspore 2.10's ops.full without dtype gives Int64 for any Python number, where torch.full gives float32 for a
float fill. When a release infers the dtype as torch does, this test fails and the correction can go.

Needs torch and mindspore 2.10 in this interpreter (CI stage 38-execution); skips cleanly without them.
"""

from __future__ import annotations

import pytest

mindspore = pytest.importorskip("mindspore")
torch = pytest.importorskip("torch")


@pytest.mark.parametrize("fill", [2, 2.0, 2.5])
def test_ops_full_infers_int64_for_every_number(fill):
    assert mindspore.ops.full((2, 1), fill).dtype == mindspore.int64
    assert mindspore.ops.full((2, 1), fill, dtype=mindspore.float32).dtype == mindspore.float32
    assert torch.full((2, 1), fill).dtype == (torch.int64 if isinstance(fill, int) else torch.float32)
