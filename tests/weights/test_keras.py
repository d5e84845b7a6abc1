"""Keras weights (.keras archive and legacy .h5) → a MindSpore .ckpt, with the real keras 3 (torch backend),
h5py and mindspore 2.10 on CPU (stage 37-weights; skipped without them). The converted model computes what the
Keras model computed: Dense kernels transposed, NHWC convolution kernels turned to MindSpore's (out, in, h, w)."""

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("KERAS_BACKEND", "torch")
os.environ.setdefault("GLOG_v", "3")
pytest.importorskip("h5py")
keras = pytest.importorskip("keras")
mindspore = pytest.importorskip("mindspore")
numpy = pytest.importorskip("numpy")

from ascend_migrate.cli import main  # noqa: E402

TARGET = f"{Path(__file__).parent / 'models' / 'keras_cnn_mindspore.py'}:KerasCNN"


@pytest.fixture(scope="module")
def keras_model():
    keras.utils.set_random_seed(0)
    model = keras.Sequential([
        keras.Input((8, 8, 3)), keras.layers.Conv2D(4, 3, padding="same", name="conv"), keras.layers.BatchNormalization(name="bn"),
        keras.layers.ReLU(name="relu"), keras.layers.GlobalAveragePooling2D(name="pool"), keras.layers.Dense(5, name="fc"),
    ])
    generator = numpy.random.default_rng(2)
    gamma, beta, mean, variance = (generator.uniform(0.5, 1.5, 4).astype("float32") for _ in range(4))
    model.get_layer("bn").set_weights([gamma, beta - 1, mean - 1, variance])  # statistics that matter
    return model


@pytest.mark.parametrize("suffix", [".keras", ".h5"])
def test_keras_weights_convert_and_compute_the_same(keras_model, tmp_path, capsys, suffix):
    source = tmp_path / f"cnn{suffix}"
    keras_model.save(source)
    output = tmp_path / "cnn.ckpt"
    status = main(["weights", "convert", str(source), "--target-model", TARGET, "-o", str(output), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert (status, report["unmapped"], report["missing"], report["shape_mismatches"]) == (0, [], [], [])
    hows = {entry["source"]: entry["how"] for entry in report["mapped"]}
    assert hows["conv/kernel"] == "Conv2D kernel (h, w, in, out) to (out, in, h, w)"
    assert hows["fc/kernel"] == "Dense kernel (in, out) transposed to (out, in)"

    from ascend_migrate.weights.models import build_model

    cell = build_model(TARGET)
    assert mindspore.load_param_into_net(cell, mindspore.load_checkpoint(str(output)), strict_load=True) == ([], [])
    cell.set_train(False)
    images = numpy.random.default_rng(3).standard_normal((2, 8, 8, 3)).astype("float32")
    expected = keras.ops.convert_to_numpy(keras_model(images, training=False))
    actual = cell(mindspore.Tensor(images.transpose(0, 3, 1, 2))).asnumpy()  # NHWC → NCHW for MindSpore
    assert numpy.abs(expected - actual).max() <= 1e-4


def test_keras_weights_need_the_mindspore_model(tmp_path, capsys, keras_model):
    source = tmp_path / "cnn.keras"
    keras_model.save(source)
    assert main(["weights", "convert", str(source)]) == 2
    assert "give --target-model FILE:CLASS" in capsys.readouterr().err
