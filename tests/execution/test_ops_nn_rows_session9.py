"""The ops/nn-era rows session 9 derived for the last names the tables mapped only to mint (tools/generate_mappings/
ops_nn_rows.py, RUN_9): what each row's note tells the user to write is run beside torch, and the forms the notes warn
about are pinned. torch.distributed: what runs without a cluster (no init; a one-process msrun job on the CPU).
Runs torch 2.13.0 and mindspore 2.10.0 on CPU; skips cleanly without them (CI stage 38-execution).
"""

from __future__ import annotations

import json
import math
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")
mindspore = pytest.importorskip("mindspore")
from mindspore import ops  # noqa: E402  (after the skip: mindspore may be absent)

RANDOM = np.random.default_rng(9)
MATRIX = RANDOM.standard_normal((4, 5)).astype(np.float32)
BATCH = RANDOM.standard_normal((3, 4, 5)).astype(np.float32)


def _same(torch_value, mindspore_value) -> None:
    expected, actual = torch_value.detach().numpy(), mindspore_value.asnumpy()
    assert expected.shape == actual.shape and expected.dtype == actual.dtype
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("order", [1, 2, 3, math.inf, -math.inf, 0, 0.5])
@pytest.mark.parametrize("values", [MATRIX, BATCH], ids=["2-D", "3-D"])
def test_vector_norm_is_ops_norm_along_one_dim_or_of_the_flattened_input(values, order):
    source, target = torch.tensor(values), mindspore.Tensor(values)
    _same(torch.linalg.vector_norm(source, order, 1), ops.norm(target, order, 1))
    _same(torch.linalg.vector_norm(source, order), ops.norm(target.flatten(), order))
    _same(torch.linalg.vector_norm(source, ord=order, dim=-1, keepdim=True), ops.norm(target, ord=order, dim=-1, keepdim=True))
    _same(torch.linalg.vector_norm(source), ops.norm(target))  # ord 2 over everything: the Frobenius norm
    _same(torch.linalg.vector_norm(source, dtype=torch.float64), ops.norm(target, dtype=mindspore.float64))


def test_vector_norm_without_dim_is_not_ops_norm_of_the_input():
    """The note's warning: a number ord without dim is a matrix norm on 2-D input, and nothing on 3-D input."""
    expected = torch.linalg.vector_norm(torch.tensor(MATRIX), 1).item()
    assert not math.isclose(ops.norm(mindspore.Tensor(MATRIX), 1).asnumpy().item(), expected, rel_tol=1e-3)
    assert ops.norm(mindspore.Tensor(BATCH), 1) is None


@pytest.mark.parametrize("order", ["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
@pytest.mark.parametrize("values", [MATRIX, BATCH], ids=["2-D", "3-D"])
def test_matrix_norm_is_ops_norm_with_the_last_two_dims(values, order):
    _same(torch.linalg.matrix_norm(torch.tensor(values), order), ops.norm(mindspore.Tensor(values), order, (-2, -1)))


def test_matrix_norm_keywords_and_why_the_dim_must_be_written():
    _same(torch.linalg.matrix_norm(torch.tensor(BATCH), ord=1, dim=(0, 1), keepdim=True),
          ops.norm(mindspore.Tensor(BATCH), ord=1, dim=(0, 1), keepdim=True))
    assert torch.linalg.matrix_norm(torch.tensor(BATCH)).shape == (3,)
    assert ops.norm(mindspore.Tensor(BATCH)).shape == ()  # dim None: the whole batch as one


def test_conv_transpose2d_is_the_conv2dtranspose_primitive_with_the_output_shape():
    inputs = RANDOM.standard_normal((2, 3, 5, 5)).astype(np.float32)
    weight = RANDOM.standard_normal((3, 4, 3, 3)).astype(np.float32)
    bias = RANDOM.standard_normal(4).astype(np.float32)
    expected = torch.nn.functional.conv_transpose2d(torch.tensor(inputs), torch.tensor(weight), torch.tensor(bias),
                                                    stride=2, padding=1, output_padding=1)
    # H_out = (H - 1) * stride - 2 * padding + dilation * (kernel - 1) + output_padding + 1 = 10
    primitive = ops.Conv2DTranspose(out_channel=4, kernel_size=3, pad_mode="pad", pad=1, stride=2)
    actual = primitive(mindspore.Tensor(inputs), mindspore.Tensor(weight), (2, 4, 10, 10)) + mindspore.Tensor(bias).reshape(1, -1, 1, 1)
    _same(expected, actual)
    with pytest.raises(RuntimeError, match="ConvTranspose2D"):  # why the row does not name ops.conv_transpose2d
        ops.conv_transpose2d(mindspore.Tensor(inputs), mindspore.Tensor(weight)).asnumpy()


def test_flatten_by_keyword_and_clamp_assigned():
    values = RANDOM.standard_normal((2, 3, 5, 5)).astype(np.float32)
    _same(torch.tensor(values).flatten(start_dim=1), mindspore.Tensor(values).flatten(start_dim=1))
    _same(torch.tensor(values).flatten(), mindspore.Tensor(values).flatten())
    for bounds in ({"min": -0.5, "max": 0.5}, {"min": -0.5}, {"max": 0.1}):
        clamped = torch.tensor(MATRIX)
        clamped.clamp_(**bounds)
        receiver = mindspore.Tensor(MATRIX)
        value = receiver.clamp(**bounds)
        _same(clamped, value)
        np.testing.assert_array_equal(receiver.asnumpy(), MATRIX)  # not in place: hence `x = x.clamp(...)`


def test_group_size_and_rank_without_init_and_their_group_argument():
    from mindspore import communication

    assert communication.get_group_size() == 1 and communication.get_rank() == 0  # torch raises without a group
    with pytest.raises(ValueError, match="not been initialized"):
        torch.distributed.get_world_size()
    with pytest.raises(TypeError, match="group"):
        communication.get_group_size(group=None)


ONE_PROCESS = """\
import json

import mindspore
from mindspore import communication

mindspore.set_device("CPU")
communication.init()
world = communication.GlobalComm.WORLD_COMM_GROUP
print("RESULT " + json.dumps({
    "get_group_size": communication.get_group_size(), "get_rank": communication.get_rank(),
    "get_world_rank_from_group_rank": communication.get_world_rank_from_group_rank(world, 0),
    "get_group_rank_from_world_rank": communication.get_group_rank_from_world_rank(0, world)}))
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_one_process_job_answers_as_torchs_one_process_group(tmp_path):
    msrun = Path(sys.executable).with_name("msrun")
    if not msrun.exists():
        pytest.skip("msrun is not installed beside this interpreter")
    (tmp_path / "job.py").write_text(ONE_PROCESS, encoding="utf-8")
    environment = dict(os.environ, GLOG_v="3", PATH=f"{msrun.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    run = subprocess.run([str(msrun), "--worker_num=1", "--local_worker_num=1", f"--master_port={_free_port()}",
                          f"--log_dir={tmp_path / 'logs'}", "--join=True", "job.py"], cwd=tmp_path, env=environment,
                         capture_output=True, text=True, timeout=300)
    log = (tmp_path / "logs" / "worker_0.log").read_text(encoding="utf-8", errors="replace")
    assert run.returncode == 0, log[-3000:]
    answers = json.loads(next(line for line in log.splitlines() if line.startswith("RESULT ")).removeprefix("RESULT "))
    store = torch.distributed.FileStore(str(tmp_path / "store"), 1)
    torch.distributed.init_process_group("gloo", store=store, rank=0, world_size=1)
    try:
        group = torch.distributed.group.WORLD
        expected = {"get_group_size": torch.distributed.get_world_size(), "get_rank": torch.distributed.get_rank(),
                    "get_world_rank_from_group_rank": torch.distributed.get_global_rank(group, 0),
                    "get_group_rank_from_world_rank": torch.distributed.get_group_rank(group, 0)}
    finally:
        torch.distributed.destroy_process_group()
    assert answers == expected == {"get_group_size": 1, "get_rank": 0, "get_world_rank_from_group_rank": 0,
                                   "get_group_rank_from_world_rank": 0}
