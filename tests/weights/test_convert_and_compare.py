"""`weights convert` and `compare` with the real torch 2.13 and mindspore 2.10 on CPU (stage 37-weights runs them;
without the packages they skip). Three model families with their own initialised weights, saved as .pth (a
checkpoint dict holding the state dict) and .safetensors; MindSpore counterparts in the ops/nn era."""

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("GLOG_v", "3")
torch = pytest.importorskip("torch")
mindspore = pytest.importorskip("mindspore")
numpy = pytest.importorskip("numpy")
safetensors_torch = pytest.importorskip("safetensors.torch")

from ascend_migrate.cli import main  # noqa: E402  (after the skips: the module imports nothing heavy, but reads clearer)

MODELS = Path(__file__).parent / "models"
# family → (torch FILE:CLASS, MindSpore FILE:CLASS, input)
FAMILIES = {
    "cnn": (f"{MODELS}/cnn_torch.py:SmallCNN", f"{MODELS}/cnn_mindspore.py:SmallCNN", "2,3,16,16"),
    "transformer": (f"{MODELS}/transformer_torch.py:TinyTransformer", f"{MODELS}/transformer_mindspore.py:TinyTransformer", "ids.npy"),
    "gru": (f"{MODELS}/gru_torch.py:SequenceGRU", f"{MODELS}/gru_mindspore.py:SequenceGRU", "2,5,6"),
}


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """Each family's own initialised weights (BatchNorm statistics moved off 0/1 so they matter), as files."""
    import importlib.util

    directory = tmp_path_factory.mktemp("weights")
    numpy.save(directory / "ids.npy", numpy.random.default_rng(1).integers(0, 100, (2, 16)))
    torch.manual_seed(0)
    for family, (reference, _, _) in FAMILIES.items():
        path, name = reference.rsplit(":", 1)
        spec = importlib.util.spec_from_file_location(f"weights_test_{family}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        model = getattr(module, name)()
        with torch.no_grad():
            for buffer_name, buffer in model.named_buffers():
                if buffer_name.endswith("running_mean"):
                    buffer.uniform_(-0.5, 0.5)
                elif buffer_name.endswith("running_var"):
                    buffer.uniform_(0.5, 1.5)
        torch.save({"epoch": 3, "state_dict": model.state_dict()}, directory / f"{family}.pth")
        safetensors_torch.save_file(model.state_dict(), str(directory / f"{family}.safetensors"))
    return directory


def _run(capsys, *arguments):
    status = main([str(argument) for argument in arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("suffix", [".pth", ".safetensors"])
@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_parameter_maps_and_the_ported_model_computes_the_same(saved, capsys, family, suffix, monkeypatch):
    torch_model, mindspore_model, model_input = FAMILIES[family]
    monkeypatch.chdir(saved)
    source = saved / f"{family}{suffix}"
    output = saved / f"{family}-{suffix[1:]}.ckpt"
    status, printed, _ = _run(capsys, "weights", "convert", source, "--model", torch_model, "--target-model", mindspore_model,
                              "-o", output, "--json")
    report = json.loads(printed)
    assert (status, report["complete"], report["unmapped"], report["missing"], report["shape_mismatches"]) == (0, True, [], [], [])
    # The checkpoint holds every mapped parameter with the source's values under the MindSpore name.
    written = mindspore.load_checkpoint(str(output))
    state = torch.load(saved / f"{family}.pth", weights_only=True)["state_dict"]
    assert sorted(written) == sorted(entry["target"] for entry in report["mapped"])
    for entry in report["mapped"]:
        assert numpy.array_equal(written[entry["target"]].asnumpy().reshape(entry["source_shape"]), state[entry["source"]].numpy())

    status, printed, _ = _run(capsys, "compare", "--torch", torch_model, "--mindspore", mindspore_model, "--weights", source,
                              "--input", model_input, "--format", "json")
    result = json.loads(printed)
    assert result["passed"] and status == 0
    assert result["outputs"] and all(item["max_absolute"] <= 1e-4 for item in result["outputs"])
    assert result["layers"] and result["first_diverging_layer"] is None


def test_the_checkpoint_names_follow_mindspore_nn(saved, capsys):
    output = saved / "cnn-era.ckpt"
    status, printed, _ = _run(capsys, "weights", "convert", saved / "cnn.pth", "--model", FAMILIES["cnn"][0], "-o", output)
    assert status == 0 and f"wrote {output}: 13 parameters" in printed
    assert "not carried: features.1.num_batches_tracked" in printed  # never dropped without a word
    names = set(mindspore.load_checkpoint(str(output)))
    assert {"features.1.gamma", "features.1.beta", "features.1.moving_mean", "features.1.moving_variance"} <= names
    assert not any("running" in name or name.endswith("features.1.weight") for name in names)
    # The era's names are the MindSpore model's names: the checkpoint loads into it completely.
    from ascend_migrate.weights.models import build_model

    cell = build_model(FAMILIES["cnn"][1])
    not_loaded, unused = mindspore.load_param_into_net(cell, mindspore.load_checkpoint(str(output)), strict_load=True)
    assert (not_loaded, unused) == ([], [])


def test_a_swapped_map_is_caught_at_the_first_diverging_layer(saved, capsys, tmp_path):
    swap = tmp_path / "swap.yaml"
    swap.write_text("'blocks\\.0\\.query\\.(weight|bias)': 'blocks.0.key.\\1'\n'blocks\\.0\\.key\\.(weight|bias)': 'blocks.0.query.\\1'\n",
                    encoding="utf-8")
    torch_model, mindspore_model, _ = FAMILIES["transformer"]
    status, printed, _ = _run(capsys, "compare", "--torch", torch_model, "--mindspore", mindspore_model, "--weights",
                              saved / "transformer.pth", "--input", saved / "ids.npy", "--map", swap, "--format", "json")
    result = json.loads(printed)
    assert status == 1 and not result["passed"]
    assert result["first_diverging_layer"] == "blocks.0.query"
    layers = {item["name"]: item for item in result["layers"]}
    assert layers["tokens"]["passed"] and layers["blocks.0.norm1"]["passed"]  # before the swap: equal


def test_gradients_compare_through_the_map(saved, capsys):
    torch_model, mindspore_model, model_input = FAMILIES["cnn"]
    status, printed, _ = _run(capsys, "compare", "--torch", torch_model, "--mindspore", mindspore_model, "--weights",
                              saved / "cnn.safetensors", "--input", model_input, "--grad")
    assert status == 0, printed
    assert "features.1.weight → features.1.gamma: max abs" in printed and "result: the same within tolerance" in printed


def test_checkpoint_against_checkpoint_and_array_against_array(saved, capsys, tmp_path):
    converted = saved / "gru-direct.ckpt"
    assert _run(capsys, "weights", "convert", saved / "gru.pth", "--model", FAMILIES["gru"][0], "-o", converted)[0] == 0
    status, printed, _ = _run(capsys, "compare", saved / "gru.pth", converted)
    assert status == 0 and "parameters:" in printed and "DIFF" not in printed
    numpy.save(tmp_path / "a.npy", numpy.zeros(3, numpy.float32))
    numpy.save(tmp_path / "b.npy", numpy.array([0, 0, 1e-3], numpy.float32))
    status, printed, _ = _run(capsys, "compare", tmp_path / "a.npy", tmp_path / "b.npy")
    assert status == 1 and "DIFF a.npy vs b.npy: max abs 0.001" in printed
    assert _run(capsys, "compare", tmp_path / "a.npy", tmp_path / "b.npy", "--atol", "0.01")[0] == 0


def test_weights_that_do_not_fit_write_nothing(saved, capsys):
    output = saved / "wrong.ckpt"
    status, printed, error = _run(capsys, "weights", "convert", saved / "cnn.pth", "--model", FAMILIES["cnn"][0],
                                  "--target-model", FAMILIES["gru"][1], "-o", output)
    assert status == 1 and not output.exists()
    assert "unmapped: features.0.weight" in printed and "missing: the MindSpore parameter rnn.weight_ih_l0" in printed
    assert "nothing written" in error


def test_the_html_page_draws_each_layer_and_loads_nothing(saved, capsys, tmp_path):
    torch_model, mindspore_model, model_input = FAMILIES["gru"]
    page = tmp_path / "compare.html"
    status, _, _ = _run(capsys, "compare", "--torch", torch_model, "--mindspore", mindspore_model, "--input", model_input,
                        "--format", "html", "-o", page)
    text = page.read_text(encoding="utf-8")
    assert status == 0 and text.count("<rect") == 3 + 1  # encoder, rnn (output and h_n), head
    assert "http" not in text.replace("http://www.w3.org", "") and "<script" not in text


def test_a_checkpoint_that_would_run_code_is_refused(tmp_path, capsys):
    class Payload:
        def __reduce__(self):
            return (os.system, ("echo should-not-run",))

    source = tmp_path / "evil.pth"
    torch.save({"weight": torch.zeros(1), "payload": Payload()}, source)
    status, _, error = _run(capsys, "weights", "convert", source, "--model", FAMILIES["gru"][0])
    assert status == 2 and "cannot be read as PyTorch weights with weights_only=True" in error


def test_the_torch_load_fix_reads_what_convert_wrote(saved, capsys, monkeypatch):
    # The fix (MindSpore route) is executed: the line it writes loads the checkpoint convert wrote beside the .pth.
    monkeypatch.chdir(saved)
    program = saved / "load.py"
    program.write_text('import torch\nstate = torch.load("cnn.pth", map_location="cpu")\n', encoding="utf-8")
    main(["fix", "--unsafe", "--target", "mindspore", "--write", str(program)])
    assert _run(capsys, "weights", "convert", "cnn.pth", "--model", FAMILIES["cnn"][0])[0] == 0
    namespace: dict = {}
    exec(compile(program.read_text(encoding="utf-8"), str(program), "exec"), namespace)
    assert {"features.1.gamma", "classifier.weight"} <= set(namespace["state"])
    from ascend_migrate.weights.models import build_model

    cell = build_model(FAMILIES["cnn"][1])
    assert mindspore.load_param_into_net(cell, namespace["state"], strict_load=True) == ([], [])


def test_infinite_and_missing_numbers_stay_valid_json(tmp_path, capsys):
    numpy.save(tmp_path / "a.npy", numpy.array([numpy.inf, numpy.nan, 2.0], numpy.float32))
    numpy.save(tmp_path / "b.npy", numpy.array([numpy.inf, numpy.nan, numpy.inf], numpy.float32))
    status, printed, _ = _run(capsys, "compare", tmp_path / "a.npy", tmp_path / "b.npy", "--format", "json")
    [output] = json.loads(printed)["outputs"]
    assert status == 1 and output["max_absolute"] == "inf" and output["passed"] is False
    status, _, error = _run(capsys, "compare", tmp_path / "a.npy", saved_checkpoint := tmp_path / "x.ckpt")
    assert status == 2 and "a .npy array is compared with another .npy" in error and not saved_checkpoint.exists()


def test_a_model_that_fails_to_run_is_named_with_its_error(saved, capsys):
    torch_model, mindspore_model, _ = FAMILIES["cnn"]
    status, _, error = _run(capsys, "compare", "--torch", torch_model, "--mindspore", mindspore_model, "--input", "2,5,16,16")
    assert status == 2 and error.startswith("ascend-migrate: error: the PyTorch model failed on the inputs given: RuntimeError:")
